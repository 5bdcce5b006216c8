import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { GameView, MoveRecord, StacksState } from '../api/types';
import { StacksCard } from '../components/Cards';
import { Clock } from '../components/Clock';
import { isDisabled, useFocusAfter } from '../components/focus';
import { doneToYou, playLabel, stacksCardName, stacksOptions } from '../game/stacksMoves';
import { mySeatTaken } from '../game/seats';
import { CompactSeatHead, CompactSeatLead, CompactSeatName, DiscardTop, HandSize, SeatBank, SeatDetailsToggle, SeatTags, afterMove, isFillIn, isTypingTarget, seatName, toMoveText, type MoveAnswer } from './gameCommon';

/** pileTop is the number a pile has reached (a wild counts as the next number). */
export function pileTop(cards: string[]): number {
  return cards.length;
}

/** STACKS_GOAL is the rules' win (2.4), the same at every player count: no Stacks page said it. */
export const STACKS_GOAL = '5 chips, at least 2 red and 2 blue';

/**
 * chipsToWin says what a player holding red and blue chips still needs to win ("3 more: 1 red, 1 blue, 1 of
 * either"), or '' once they hold enough.
 */
export function chipsToWin(red: number, blue: number): string {
  const r = Math.max(0, 2 - red);
  const b = Math.max(0, 2 - blue);
  const total = Math.max(5 - red - blue, r + b);
  if (total <= 0) return '';
  const parts = [r && `${r} red`, b && `${b} blue`, total - r - b && `${total - r - b} of either`].filter(Boolean);
  return `${total} more: ${parts.join(', ')}`;
}

/**
 * StacksSeat is one seat of the seat list: its name and badges (whose move
 * it is, or who may block in a block window, as moveBadge says; "skipped
 * next"), hand size, time bank, chips and the top of its discard pile. On a
 * phone-width screen it is one short line (styles.css, .seat-lines) led by
 * the turn marker and seat number, the badges as short tags; what that line
 * leaves out visually stays in the markup, read by screen readers as on a
 * wide screen and shown again by "Seat details".
 */
function StacksSeat(props: { view: GameView; seat: number; handSize: number; discards: string[]; moveBadge: string | null; paused: boolean }) {
  const { view, seat, discards, moveBadge } = props;
  const st = view.state as StacksState;
  const ch = st.chips[seat];
  const top = discards[discards.length - 1];
  const moving = view.to_move.includes(seat) && moveBadge != null;
  return (
    <div class={`player${view.to_move.includes(seat) ? ' to-move' : ''}${view.your_seat === seat ? ' mine' : ''}`} data-seat={seat}>
      <CompactSeatLead seat={seat} toMove={moving} />
      <span class="player-name">
        <span class="full-name">{seatName(view, seat)}</span>
        <CompactSeatName view={view} seat={seat} tags={[st.skipped[seat] && { text: 'skipped', warn: true }, moving && moveBadge != null && moveBadge !== 'to move' && { text: moveBadge }]} />
        <SeatTags view={view} seat={seat} toMove={moveBadge}>
          {st.skipped[seat] && <span class="badge warn">skipped next</span>}
        </SeatTags>
      </span>
      <HandSize n={props.handSize} />
      <SeatBank view={view} seat={seat} paused={props.paused} />
      <span class="chips" role="img" aria-label={`${ch.red} red and ${ch.blue} blue ${ch.red + ch.blue === 1 ? 'chip' : 'chips'}`}>
        <span class="schip red" aria-hidden="true">
          R {ch.red}
        </span>
        <span class="schip blue" aria-hidden="true">
          B {ch.blue}
        </span>
      </span>
      <DiscardTop count={discards.length} top={top && stacksCardName(top)}>
        {top && <StacksCard card={top} small />}
      </DiscardTop>
    </div>
  );
}

/**
 * noPilesText is what an empty table of piles says: how to start one while
 * the game is played ("yet" only before any pile was completed and set
 * aside), and no invitation to start one once the game is over, whose last
 * piles were often set aside by the winning move.
 */
export function noPilesText(over: boolean, completedBefore: boolean): string {
  if (over) return 'No piles were left on the table.';
  return completedBefore ? 'No piles on the table: a 1 (or a wild) starts a new one.' : 'No piles yet. A 1 (or a wild) starts one.';
}

/**
 * StacksTable is the table in play: seats, status line, block window, piles
 * and hand. notices (GamePage's error, seat notice, result and rating
 * change) come first, as they did above the table; on a wide screen they
 * head the seat column beside the piles and the hand (styles.css), where
 * they take no height from the piles and the hand. Once the game is over
 * the status line gives way to the result among the notices: the result is
 * shown once. seatNotice (GamePage's word that a fill-in bot took the
 * viewer's seat) comes after the hand, below 60rem where it takes no room
 * from the piles and the hand, and heads the seat column under the notices
 * on a wide screen.
 */
export function StacksTable(props: { view: GameView; onMove: (move: string) => MoveAnswer; busy: boolean; log?: MoveRecord[]; notices?: ComponentChildren; seatNotice?: ComponentChildren }) {
  const { view, onMove, busy } = props;
  const st = view.state as StacksState;
  const legal = view.legal_moves ?? [];
  const opts = useMemo(() => stacksOptions(legal), [legal]);
  const myTurn = legal.length > 0;
  const [source, setSource] = useState<string | null>(null);
  const [seatDetails, setSeatDetails] = useState(false);
  const names = (s: number) => seatName(view, s);
  const myDiscard = view.your_seat != null ? (st.discards[view.your_seat] ?? []) : [];
  const discardTop = myDiscard[myDiscard.length - 1];

  useEffect(() => {
    if (source && !opts.plays.has(source) && !(source.startsWith('hand:') && opts.discards.has(source.slice(5)))) setSource(null);
  }, [opts, source]);

  // The keyboard focus follows the play, as on the Sequence table: a card
  // picked (by its number key or a click) hands it to the card's first
  // play (a card that only discards keeps it), a play to the hand (the action buttons go away with the play),
  // and once the next position is in, on to the first card that can be
  // played next (else "End the turn", else the first card to discard).
  const { root, focusNext } = useFocusAfter<HTMLDivElement>();
  const playedAt = useRef<number | null>(null);
  useEffect(() => {
    if (playedAt.current == null || busy || view.ply === playedAt.current) return;
    playedAt.current = null;
    const hand = root.current?.querySelector<HTMLElement>('.hand');
    if (!hand || document.activeElement !== hand) return; // the person has moved the focus on themselves
    const first = (sel: string) => [...root.current!.querySelectorAll<HTMLElement>(sel)].find((el) => !isDisabled(el));
    (first('.hand-card.playable') ?? first('[data-play="/"]') ?? first('.hand-card'))?.focus();
  });

  // In a block window the viewer who may block plays the BLOCK card with the window's BLOCK button:
  // the card in the hand is no pile play, but picking it (its number key, a click) leads there.
  const blocks = (card: string) => card === 'BLOCK' && opts.block;

  const pick = (card: string, index: number) => {
    // the button is there already: nothing renders anew for useFocusAfter to act after
    if (blocks(card)) return void root.current?.querySelector<HTMLElement>('.block-window button')?.focus();
    const key = 'hand:' + card;
    setSource(key);
    // the card's first play onto a pile; a card that can only be
    // discarded (which ends the turn) or cannot be used now keeps the focus
    // itself, so that an Enter after the key never ends the turn: the
    // discard is a Tab away
    if (myTurn && !busy) focusNext('[data-play]:not([data-play^="/"])', `[data-hand="${index}"]`);
  };

  // the top of the viewer's discard pile, marked "^" where a hand card shows its number key, as the
  // notation marks a play from it: "^" picks it as a number picks a card, and a pick by key or click
  // hands the focus to its first play (an Enter on the card once left the focus there, no play made)
  const pickDiscardTop = () => {
    if (!discardTop || !opts.plays.has('discard:' + discardTop)) return;
    setSource('discard:' + discardTop);
    if (myTurn && !busy) focusNext('[data-play]:not([data-play^="/"])', '.hand-card.from-discard');
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Shift makes "^" on most keyboards: it is not refused as Ctrl, Alt and Meta are
      if (isTypingTarget(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (/^[1-9]$/.test(e.key)) {
        const i = Number(e.key) - 1;
        const card = st.hand[i];
        if (card) pick(card, i);
      } else if (e.key === '^') {
        pickDiscardTop();
      } else if (e.key === 'Escape') {
        // the action buttons go away: a focus among them goes back to the hand
        if ((document.activeElement as HTMLElement | null)?.closest?.('.actions')) focusNext('.hand');
        setSource(null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  // a refused play keeps the card picked, its plays offered, for another try
  const play = (m: string) => {
    focusNext('.hand');
    playedAt.current = view.ply;
    afterMove(
      onMove(m),
      () => setSource(null),
      () => (playedAt.current = null),
    );
  };

  const inWindow = st.phase === 'block-window' && st.window;
  // a game that is over has no status line: its result heads the notices
  const over = view.status === 'finished' || view.status === 'aborted';
  // the viewer's way to the goal, while they play
  const myChips = view.your_seat != null && !over ? st.chips[view.your_seat] : undefined;
  const need = myChips ? chipsToWin(myChips.red, myChips.blue) : '';
  const status = inWindow
    ? `${names(st.window!.completer)} completed a ${st.window!.color} pile: block window open.${opts.block ? ' You hold a BLOCK.' : ''}`
    : myTurn
      ? // with nothing to play, no card is marked playable: the line says what is left to do
        opts.plays.size === 0 && opts.discards.size > 0
        ? 'Your turn: no card of yours fits a pile now. Choose one to discard, which ends the turn.'
        : 'Your turn: play cards onto piles, then end the turn with a discard.'
      : toMoveText(view);

  // what the others did to the viewer since their last move (a steal, a block of their completion) heads the status line
  const news = view.status === 'active' && !mySeatTaken(view) ? doneToYou(props.log ?? [], view.your_seat, names) : [];

  const chosen = source ? (opts.plays.get(source) ?? []) : [];
  const chosenCard = source?.split(':')[1];
  const canDiscardChosen = source?.startsWith('hand:') && chosenCard && opts.discards.has(chosenCard);

  return (
    <div class="table stacks-table" ref={root}>
      <div class="table-notices">{props.notices}</div>
      <section class={`players seat-lines stacks-lines${seatDetails ? ' details' : ''}`} aria-label="Players" id="seat-list">
        <CompactSeatHead chips />
        {st.hand_sizes.map((n, seat) => (
          <StacksSeat
            key={seat}
            view={view}
            seat={seat}
            handSize={n}
            discards={st.discards[seat] ?? []}
            moveBadge={inWindow ? (seat === view.your_seat && !isFillIn(view, seat) && !opts.block ? null : 'may block') : 'to move'}
            paused={!!inWindow}
          />
        ))}
        <div class="table-facts">
          <span>
            Draw<span class="wide-only"> pile</span>: {st.deck_size}
          </span>
          <span>Set aside: {st.setaside.length}</span>
          <span>
            Supply: R {st.supply.red} · B {st.supply.blue}
          </span>
          {/* STACKS_GOAL, on a phone in one short line (it pushes the piles down at 320 px), the viewer's need beside it */}
          <span class="stacks-goal">
            To win: 5 chips<span class="wide-only">, at least 2 red and 2 blue</span>
            <span class="narrow-only" aria-hidden="true">
              , 2+ red, 2+ blue
            </span>
            {need && <span class="wide-only"> (you need {need})</span>}
          </span>
          <span>
            <span class="wide-only">Direction: </span>
            {st.direction === 1 ? 'clockwise ↻' : 'counter-clockwise ↺'}
          </span>
          {view.status === 'active' && <Clock deadline={view.turn_deadline} label={inWindow ? 'Block window' : 'Time left'} />}
          <SeatDetailsToggle controls="seat-list" open={seatDetails} onToggle={() => setSeatDetails(!seatDetails)} />
        </div>
      </section>

      {!over && (
        <p class={`status-line${myTurn ? ' mine' : ''}`}>
          {news.length > 0 && <span class="done-to-you">{news.join('. ')}. </span>}
          {status}
        </p>
      )}

      {/* beside the seat column on a wide screen (styles.css): the notices take no height from the piles and the hand */}
      <div class="table-main">
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
          {st.piles.length === 0 && <p class="muted">{noPilesText(over, st.setaside.length > 0)}</p>}
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

        {/* a seat a bot plays has no hand to show its player (the server sends none): no empty "Your cards" */}
        {view.your_seat != null && !mySeatTaken(view) && (
          <section class="hand-area" aria-label="Your hand">
            <div class="hand" role="group" tabIndex={-1} aria-label="Your cards (keys 1 to 9 pick a card)">
              {st.hand.map((card, i) => {
                const key = 'hand:' + card;
                const usable = opts.plays.has(key) || opts.discards.has(card) || blocks(card);
                return (
                  <button
                    type="button"
                    key={i}
                    data-hand={i}
                    class={`hand-card${source === key ? ' selected' : ''}${opts.plays.has(key) || blocks(card) ? ' playable' : ''}`}
                    aria-pressed={source === key}
                    aria-label={`${i + 1}: ${stacksCardName(card)}${myTurn && !usable ? ', cannot be used now' : ''}`}
                    disabled={busy || !myTurn}
                    onClick={() => (source === key ? setSource(null) : pick(card, i))}
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
                  onClick={pickDiscardTop}
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
                    <button type="button" key={p.text} class="primary" data-play={p.text} disabled={busy} onClick={() => play(p.text)}>
                      {playLabel(p.text, names)}
                    </button>
                  ))}
                  {canDiscardChosen && (
                    <button type="button" class="secondary" data-play={'/' + chosenCard} disabled={busy} onClick={() => play('/' + chosenCard)}>
                      Discard it and end the turn
                    </button>
                  )}
                  {chosen.length === 0 && !canDiscardChosen && <span class="muted">cannot be used now</span>}
                </>
              )}
              {opts.endEmpty && (
                <button type="button" class="primary" data-play="/" disabled={busy} onClick={() => play('/')}>
                  End the turn
                </button>
              )}
            </div>
          </section>
        )}
      </div>
      {props.seatNotice}
    </div>
  );
}
