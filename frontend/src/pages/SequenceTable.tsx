import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { GameView, SequenceState } from '../api/types';
import { Board } from '../components/Board';
import { CardFace, SeqCard } from '../components/Cards';
import { Clock } from '../components/Clock';
import { TEAMS, cardLabel, cellsOf, parseCell, windowCells } from '../game/board';
import { moveAt, parseSequenceMove, specialMoves, targetsFor } from '../game/sequenceMoves';
import { mySeatTaken } from '../game/seats';
import type { MoveRecord } from '../api/types';
import { CompactSeatHead, CompactSeatLead, CompactSeatName, DiscardTop, HandSize, SeatBank, SeatDetailsToggle, SeatTags, afterMove, isTypingTarget, seatName, toMoveText, type MoveAnswer } from './gameCommon';

export function lockedCells(state: Pick<SequenceState, 'locked' | 'sequences'>): Set<string> {
  const out = new Set(state.locked ?? []);
  for (const wins of Object.values(state.sequences ?? {})) for (const [a, b] of wins) for (const c of windowCells(a, b)) out.add(c);
  for (const corner of ['a1', 'j1', 'a10', 'j10']) out.delete(corner);
  return out;
}

export function lastCellOf(move?: MoveRecord): string | null {
  const m = move && parseSequenceMove(move.move);
  return m && (m.kind === 'place' || m.kind === 'remove') ? m.cell : null;
}

/**
 * yourTurnHint is the status line when the viewer is to move and has no card
 * picked. Its keys are for a keyboard: a phone-width screen hides them
 * visually (.wide-only; screen readers still read them), so that the line
 * above the board stays short.
 */
function yourTurnHint(handSize: number) {
  const keys = handSize > 1 ? `keys 1–${Math.min(handSize, 9)}` : 'key 1';
  return (
    <>
      Your turn: pick a card<span class="wide-only"> ({keys})</span>, then a highlighted cell<span class="wide-only"> (arrows, Enter)</span>.
    </>
  );
}

/**
 * SequenceSeat is one seat of the seat list: its team chip, name, badges,
 * hand size, time bank and the top of its discard pile. On a phone-width
 * screen it is one short line (styles.css, .seat-lines) led by the turn
 * marker and seat number; what that line leaves out visually stays in the
 * markup, read by screen readers as on a wide screen and shown again by
 * "Seat details".
 */
function SequenceSeat({ view, seat, handSize, discards }: { view: GameView; seat: number; handSize: number; discards: string[] }) {
  const st = view.state as SequenceState;
  const t = TEAMS[view.seats[seat]?.team ?? seat % st.teams];
  const name = seatName(view, seat);
  const toMove = view.to_move.includes(seat);
  const top = discards[discards.length - 1];
  return (
    <div class={`player${toMove ? ' to-move' : ''}${view.your_seat === seat ? ' mine' : ''}`} data-seat={seat}>
      <CompactSeatLead seat={seat} toMove={toMove} />
      <span class={`chip team-${t.colour}`} aria-hidden="true">
        {t.shape}
      </span>
      <span class="player-name">
        <span class="full-name">
          {name}
          {/* a shared name already says the team: say it once */}
          {!name.includes(`${t.name} team`) && <span class="sr-only">, {t.name} team</span>}
        </span>
        <CompactSeatName view={view} seat={seat} />
        <SeatTags view={view} seat={seat} />
      </span>
      <HandSize n={handSize} />
      <SeatBank view={view} seat={seat} />
      <DiscardTop count={discards.length} top={top && cardLabel(top).name}>
        {top && <SeqCard card={top} small />}
      </DiscardTop>
    </div>
  );
}

/**
 * SequenceTable is the table in play: seats, status line, board and hand.
 * notices (GamePage's error, seat notice, result and rating change) come
 * first, as they did above the table; on a wide screen they sit in the
 * column beside the board, above the seats (styles.css), where they take no
 * height from the board and the hand. Once the game is over the status
 * line gives way to the result among the notices: the result is shown once.
 * seatNotice (GamePage's word that a fill-in bot took the viewer's seat)
 * comes after the hand, below 60rem where it takes no room from the board
 * and the hand, and heads the seat column under the notices on a wide
 * screen.
 */
export function SequenceTable(props: { view: GameView; onMove: (move: string) => MoveAnswer; busy: boolean; lastMove?: MoveRecord; notices?: ComponentChildren; seatNotice?: ComponentChildren }) {
  const { view, onMove, busy } = props;
  const st = view.state as SequenceState;
  const legal = view.legal_moves ?? [];
  const myTurn = legal.length > 0;
  const [selected, setSelected] = useState<string | null>(null);
  const [focus, setFocus] = useState({ row: 4, col: 4 });
  const [seatDetails, setSeatDetails] = useState(false);
  const special = useMemo(() => specialMoves(legal), [legal]);
  const targets = useMemo(() => targetsFor(legal, selected), [legal, selected]);
  const locked = useMemo(() => lockedCells(st), [st]);
  const root = useRef<HTMLDivElement>(null);
  // the element (a selector inside the table) to give the DOM focus once rendered
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    const sel = focusNext.current;
    focusNext.current = null;
    if (sel) root.current?.querySelector<HTMLElement>(sel)?.focus();
  });

  // A new position drops a selection that is no longer in the hand.
  useEffect(() => {
    if (selected && !st.hand.includes(selected)) setSelected(null);
  }, [st.hand, selected]);

  const select = (card: string) => {
    setSelected(card === selected ? null : card);
    if (card === selected) return;
    // Put the keyboard focus on the card's first target, so Enter plays it;
    // a dead card's focus goes to the button that turns it in.
    const first = targetsFor(legal, card);
    const target = [...first.place, ...first.remove][0];
    const cell = target ?? cellsOf(card)[0];
    const p = cell && parseCell(cell);
    if (p) setFocus(p);
    if (target) focusNext.current = `[data-cell="${target}"]`;
    else if (special.exchange.has(card)) focusNext.current = `[data-exchange="${card}"]`;
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (/^[1-9]$/.test(e.key)) {
        const card = st.hand[Number(e.key) - 1];
        if (card) {
          e.preventDefault();
          select(card);
        }
      } else if (e.key === 'Escape') setSelected(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const activate = (cell: string) => {
    if (!myTurn || busy || !selected) return;
    const m = moveAt(legal, selected, cell);
    // a refused move keeps the card picked, its targets lit, for another try
    if (m) afterMove(onMove(m), () => setSelected(null));
  };

  const teams = Array.from({ length: st.teams }, (_, t) => t);
  // a game that is over has no status line: its result heads the notices
  const over = view.status === 'finished' || view.status === 'aborted';
  const status = myTurn
    ? selected
      ? targets.place.size + targets.remove.size
        ? `Your turn: choose a highlighted cell for the ${cardLabel(selected).name}.`
        : `The ${cardLabel(selected).name} has no place to go${special.exchange.has(selected) ? ': it is dead, turn it in' : ''}.`
      : special.discard.size
        ? 'Your turn: a table-talk penalty is due — discard a card.'
        : yourTurnHint(st.hand.length)
    : toMoveText(view);

  return (
    <div class="table sequence-table" ref={root}>
      <div class="table-notices">{props.notices}</div>
      <section class={`players seat-lines${seatDetails ? ' details' : ''}`} aria-label="Players" id="seat-list">
        <CompactSeatHead />
        {st.hand_sizes.map((n, seat) => (
          <SequenceSeat key={seat} view={view} seat={seat} handSize={n} discards={st.discards[seat] ?? []} />
        ))}
        <div class="table-facts">
          {teams.map((t) => (
            <span key={t}>
              {/* a phone showed a bare "Blue ●: 0/1": it says "Sequences:" once, each team by its shape (as the seat lines) */}
              {t === 0 && (
                <span class="narrow-only" aria-hidden="true">
                  Sequences:{' '}
                </span>
              )}
              <span class="wide-only">{TEAMS[t].name} </span>
              {TEAMS[t].shape}: {(st.sequences[TEAMS[t].letter] ?? []).length}/{st.sequences_to_win}
              <span class="wide-only"> sequences</span>
            </span>
          ))}
          <span>Draw pile: {st.deck_size}</span>
          {view.status === 'active' && <Clock deadline={view.turn_deadline} />}
          <SeatDetailsToggle controls="seat-list" open={seatDetails} onToggle={() => setSeatDetails(!seatDetails)} />
        </div>
      </section>

      {!over && (
        <p class={`status-line${myTurn ? ' mine' : ''}`} id="table-status">
          {status}
        </p>
      )}

      {/* beside the seat list on a wide screen (styles.css): the board and the hand both in view */}
      <div class="table-main">

        <Board
          rows={st.board}
          locked={locked}
          targets={myTurn ? targets : undefined}
          last={lastCellOf(props.lastMove)}
          focus={focus}
          onFocus={(row, col) => setFocus({ row, col })}
          onActivate={myTurn ? activate : undefined}
          navigable
          label={`Board. ${myTurn ? 'Arrow keys move, Enter plays the selected card.' : ''}`}
        />

        {/* a seat a bot plays has no hand to show its player (the server sends none): no empty "Your cards" */}
        {view.your_seat != null && !mySeatTaken(view) && (
          <section class="hand-area" aria-label="Your hand">
            <h2 class="sr-only">Your hand</h2>
            <div class="hand" role="group" aria-label="Your cards (keys 1 to 9 pick a card)">
              {st.hand.map((card, i) => {
                const playable = special.playable.has(card);
                const dead = special.exchange.has(card);
                return (
                  <button
                    type="button"
                    key={i}
                    class={`hand-card${selected === card ? ' selected' : ''}${playable ? ' playable' : ''}`}
                    aria-pressed={selected === card}
                    aria-keyshortcuts={i < 9 ? String(i + 1) : undefined}
                    aria-label={`${i + 1}: ${cardLabel(card).name}${dead ? ', dead card' : ''}${myTurn && !playable && !dead ? ', no legal place' : ''}`}
                    onClick={() => select(card)}
                    disabled={busy}
                  >
                    <span class="key" aria-hidden="true">
                      {i + 1}
                    </span>
                    <SeqCard card={card} />
                    {dead && (
                      <span class="dead" aria-hidden="true">
                        dead
                      </span>
                    )}
                  </button>
                );
              })}
            </div>
            <div class="actions">
              {[...special.exchange].map((card) => (
                <button type="button" key={'x' + card} data-exchange={card} class="secondary" disabled={busy} onClick={() => onMove('x' + card)}>
                  Turn in dead <CardFace card={card} />
                </button>
              ))}
              {[...special.discard].map((card) => (
                <button type="button" key={'d' + card} class="secondary" disabled={busy} onClick={() => onMove('d' + card)}>
                  Discard <CardFace card={card} /> (penalty)
                </button>
              ))}
              {special.pass && (
                <button type="button" class="primary" disabled={busy} onClick={() => onMove('pass')}>
                  Pass (no legal play)
                </button>
              )}
            </div>
          </section>
        )}

        <details class="discards">
          <summary>Discard piles</summary>
          {st.discards.map((pile, seat) => (
            <div key={seat} class="discard-row">
              <strong>{seatName(view, seat)}:</strong>{' '}
              {pile.length ? pile.map((c, i) => <SeqCard key={i} card={c} small />) : <span class="muted">empty</span>}
            </div>
          ))}
        </details>
      </div>
      {props.seatNotice}
    </div>
  );
}
