import { useEffect, useMemo, useState } from 'preact/hooks';
import type { GameView, StacksState } from '../api/types';
import { StacksCard } from '../components/Cards';
import { Clock } from '../components/Clock';
import { playLabel, stacksCardName, stacksOptions } from '../game/stacksMoves';
import { SeatTags, isTypingTarget, resultText, seatName, toMoveText } from './gameCommon';

/** pileTop is the number a pile has reached (a wild counts as the next number). */
export function pileTop(cards: string[]): number {
  return cards.length;
}

export function StacksTable(props: { view: GameView; onMove: (move: string) => void; busy: boolean }) {
  const { view, onMove, busy } = props;
  const st = view.state as StacksState;
  const legal = view.legal_moves ?? [];
  const opts = useMemo(() => stacksOptions(legal), [legal]);
  const myTurn = legal.length > 0;
  const [source, setSource] = useState<string | null>(null);
  const names = (s: number) => seatName(view, s);
  const myDiscard = view.your_seat != null ? (st.discards[view.your_seat] ?? []) : [];
  const discardTop = myDiscard[myDiscard.length - 1];

  useEffect(() => {
    if (source && !opts.plays.has(source) && !(source.startsWith('hand:') && opts.discards.has(source.slice(5)))) setSource(null);
  }, [opts, source]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (/^[1-9]$/.test(e.key)) {
        const card = st.hand[Number(e.key) - 1];
        if (card) setSource('hand:' + card);
      } else if (e.key === 'Escape') setSource(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const play = (m: string) => {
    setSource(null);
    onMove(m);
  };

  const inWindow = st.phase === 'window' && st.window;
  const status =
    view.status === 'finished' || view.status === 'aborted'
      ? resultText(view)
      : inWindow
        ? `${names(st.window!.completer)} completed a ${st.window!.color} pile: block window open.${opts.block ? ' You hold a BLOCK.' : ''}`
        : myTurn
          ? 'Your turn: play cards onto piles, then end the turn with a discard.'
          : toMoveText(view);

  const chosen = source ? (opts.plays.get(source) ?? []) : [];
  const chosenCard = source?.split(':')[1];
  const canDiscardChosen = source?.startsWith('hand:') && chosenCard && opts.discards.has(chosenCard);

  return (
    <div class="table stacks-table">
      <section class="players" aria-label="Players">
        {st.hand_sizes.map((n, seat) => {
          const disc = st.discards[seat] ?? [];
          const ch = st.chips[seat];
          return (
            <div class={`player${view.to_move.includes(seat) ? ' to-move' : ''}`} key={seat}>
              <span class="player-name">
                {names(seat)}
                <SeatTags view={view} seat={seat} toMove={inWindow ? 'may block' : 'to move'} />
                {st.skipped[seat] && <span class="badge warn">skipped next</span>}
              </span>
              <span class="muted" aria-label={`${n} cards in hand`}>
                {n} cards
              </span>
              <span class="chips" aria-label={`${ch.red} red and ${ch.blue} blue chips`}>
                <span class="schip red" aria-hidden="true">
                  R {ch.red}
                </span>
                <span class="schip blue" aria-hidden="true">
                  B {ch.blue}
                </span>
              </span>
              <span class="discard-top" aria-label={disc.length ? `discard pile: ${disc.length} cards, top ${stacksCardName(disc[disc.length - 1])}` : 'discard pile empty'}>
                {disc.length ? <StacksCard card={disc[disc.length - 1]} small /> : <span class="muted">—</span>}
              </span>
            </div>
          );
        })}
        <div class="table-facts">
          <span>Draw pile: {st.deck_size}</span>
          <span>Set aside: {st.setaside.length}</span>
          <span>
            Supply: R {st.supply.red} · B {st.supply.blue}
          </span>
          <span>Direction: {st.direction === 1 ? 'clockwise ↻' : 'counter-clockwise ↺'}</span>
          {view.status === 'active' && <Clock deadline={view.turn_deadline} label={inWindow ? 'Block window' : 'Time left'} />}
        </div>
      </section>

      <p class={`status-line${myTurn ? ' mine' : ''}`}>{status}</p>

      {inWindow && (
        <div class="block-window" role="region" aria-label="Block window">
          <span>
            {names(st.window!.completer)} completed a <strong>{st.window!.color}</strong> pile and will take a {st.window!.color} chip unless someone blocks.
          </span>
          {opts.block && (
            <button type="button" class="danger big" disabled={busy} onClick={() => play('BLOCK')}>
              BLOCK
            </button>
          )}
        </div>
      )}

      <section class="piles" aria-label="Piles on the table">
        <h2 class="sr-only">Piles</h2>
        {st.piles.length === 0 && <p class="muted">No piles yet. A 1 (or a wild) starts one.</p>}
        <ol class="pile-list">
          {st.piles.map((p, i) => (
            <li key={i} class={`pile pile-${p.color}`} aria-label={`Pile ${i + 1}, ${p.color}, at ${pileTop(p.cards)} of 5`}>
              <span class="pile-label" aria-hidden="true">
                {i + 1}. {p.color === 'red' ? 'R' : 'B'} · {pileTop(p.cards)}/5
              </span>
              <span class="pile-cards" aria-hidden="true">
                {p.cards.map((c, j) => (
                  <StacksCard key={j} card={c} small />
                ))}
              </span>
            </li>
          ))}
        </ol>
      </section>

      {view.your_seat != null && (
        <section class="hand-area" aria-label="Your hand">
          <div class="hand" role="group" aria-label="Your cards (keys 1 to 9 pick a card)">
            {st.hand.map((card, i) => {
              const key = 'hand:' + card;
              const usable = opts.plays.has(key) || opts.discards.has(card);
              return (
                <button
                  type="button"
                  key={i}
                  class={`hand-card${source === key ? ' selected' : ''}${opts.plays.has(key) ? ' playable' : ''}`}
                  aria-pressed={source === key}
                  aria-label={`${i + 1}: ${stacksCardName(card)}${myTurn && !usable ? ', cannot be used now' : ''}`}
                  disabled={busy || !myTurn}
                  onClick={() => setSource(source === key ? null : key)}
                >
                  <span class="key" aria-hidden="true">
                    {i + 1}
                  </span>
                  <StacksCard card={card} />
                </button>
              );
            })}
            {discardTop && (
              <button
                type="button"
                class={`hand-card from-discard${source === 'discard:' + discardTop ? ' selected' : ''}${opts.plays.has('discard:' + discardTop) ? ' playable' : ''}`}
                aria-pressed={source === 'discard:' + discardTop}
                aria-label={`Top of your discard pile: ${stacksCardName(discardTop)}`}
                disabled={busy || !opts.plays.has('discard:' + discardTop)}
                onClick={() => setSource('discard:' + discardTop)}
              >
                <span class="key" aria-hidden="true">
                  ^
                </span>
                <StacksCard card={discardTop} />
              </button>
            )}
          </div>
          <div class="actions" aria-live="polite">
            {source && chosenCard && (
              <>
                <span class="muted">{stacksCardName(chosenCard)}:</span>
                {chosen.map((p) => (
                  <button type="button" key={p.text} class="primary" disabled={busy} onClick={() => play(p.text)}>
                    {playLabel(p.text, names)}
                  </button>
                ))}
                {canDiscardChosen && (
                  <button type="button" class="secondary" disabled={busy} onClick={() => play('/' + chosenCard)}>
                    Discard it and end the turn
                  </button>
                )}
                {chosen.length === 0 && !canDiscardChosen && <span class="muted">cannot be used now</span>}
              </>
            )}
            {opts.endEmpty && (
              <button type="button" class="primary" disabled={busy} onClick={() => play('/')}>
                End the turn
              </button>
            )}
          </div>
        </section>
      )}
    </div>
  );
}
