import type { ComponentChildren } from 'preact';
import type { AbandonedWhy, GameView, MoveRecord, Seat, SequenceState, StacksState } from '../api/types';
import { Clock, formatBank } from '../components/Clock';
import { isPerson } from '../components/GameList';
import { andList } from '../components/plural';
import { TEAMS } from '../game/board';
import { abortedText, fillInBadge, mySeatAbandoned, mySeatTaken, opponentsWalkedAway, seatName, shortSeatName } from '../game/seats';

// The pure labelling helpers live in game/ (the live-game reducer names seats too).
export { TABLE, playerLabel, seatName, sequenceTeam } from '../game/seats';

/** cardCount is a number of cards in words: "1 card", "3 cards". */
export function cardCount(n: number): string {
  return `${n} ${n === 1 ? 'card' : 'cards'}`;
}

/** isFillIn says whether a fill-in bot plays the seat (it took an open or an abandoned seat over). */
export function isFillIn(view: { seats: Seat[] }, seat: number): boolean {
  return !!view.seats[seat]?.filled_by_bot;
}

/** moverName names a seat that is to move, saying when a fill-in bot plays it. */
export function moverName(view: { seats: Seat[]; your_seat?: number | null }, seat: number): string {
  if (!isFillIn(view, seat)) return seatName(view, seat);
  return view.your_seat === seat ? 'the fill-in bot in your seat' : `${seatName(view, seat)} (fill-in bot)`;
}

/**
 * isAway says whether the person at seat has no page following the game in play (the server's away: their
 * page closed or their connection lost). The page once looked the same whoever had gone, and the others
 * waited out their turns, and the fill-in bot took over, with no word why.
 */
export function isAway(view: GameView, seat: number): boolean {
  // Never the viewer's own seat: they are here, looking at it. A player back on the page had the read made
  // as the page opened (before their stream marked them seen) show their own seat away until the next move.
  return view.status === 'active' && seat !== view.your_seat && !!view.seats[seat]?.away;
}

/**
 * awayNote is what the status line adds when a seat to move is away: that the turn will not wait for them
 * for ever (in a timed game the autopilot plays it once it runs out, as it tells the player afterwards).
 */
function awayNote(view: GameView, names: (seat: number) => string): string {
  const away = view.to_move.filter((s) => s !== view.your_seat && isAway(view, s));
  if (!away.length) return '';
  const who = view.to_move.length === 1 ? 'they seem' : `${away.map(names).join(', ')} ${away.length === 1 ? 'seems' : 'seem'}`;
  const timed = !!view.clock?.turn_seconds || !!view.clock?.bank_seconds;
  return ` — ${who} to be away${timed ? '; if the turn runs out, the autopilot plays it' : ''}.`;
}

/** toMoveText is the status line of a game in play when the viewer may not move. */
export function toMoveText(view: GameView, names: (seat: number) => string = (s) => moverName(view, s)): string {
  if (mySeatTaken(view)) {
    const others = view.to_move.filter((s) => s !== view.your_seat);
    const note = awayNote(view, names);
    return `A fill-in bot now plays your seat; you can no longer move.${others.length ? ` ${others.map(names).join(', ')} to move${note || '.'}` : ''}`;
  }
  const movers = view.to_move.map(names).join(', ') || 'Nobody';
  return `${movers} to move${awayNote(view, names) || '.'}`;
}

/**
 * AwayBadge marks a seat whose person is away (isAway): muted, as it says nothing for certain (a page
 * reopened clears it), with the reason for screen readers and on hover.
 */
export function AwayBadge() {
  return (
    <span class="badge away" title="away: no connection (their page is closed or offline)">
      <span aria-hidden="true">away</span>
      <span class="sr-only">away: no connection</span>
    </span>
  );
}

/**
 * SeatTags are the badges after a player's name: a fill-in bot playing the
 * seat, and whose move it is (never "to move" on the viewer's own seat once
 * a bot has it: the bot moves, not them). A null toMove shows no move badge;
 * children are a table's own badges after them. They share one wrapper
 * (.badges), which a compact seat line hides visually (styles.css).
 */
export function SeatTags({ view, seat, toMove = 'to move', children }: { view: GameView; seat: number; toMove?: string | null; children?: ComponentChildren }) {
  const fillIn = isFillIn(view, seat);
  const moving = view.to_move.includes(seat);
  return (
    <span class="badges">
      {isAway(view, seat) && <AwayBadge />}
      {fillIn && <span class="badge fill-in">{fillInBadge(view.seats[seat])}</span>}
      {moving && toMove && <span class="badge">{fillIn ? `bot ${toMove}` : toMove}</span>}
      {children}
    </span>
  );
}

/*
 * A seat list of class "seat-lines" (the Sequence table's, which seats up
 * to 12, and the Stacks table's, up to 6) is one short line per seat on a
 * phone-width screen, where the full rows would push the board (the piles)
 * and the hand a screen or more down: the pieces below are shown only there
 * (styles.css). They are aria-hidden, as the full row's words (the name
 * with its team, the badges, "3 cards in hand") stay in the markup,
 * visually hidden, for screen readers to read as on a wide screen.
 */

/**
 * CompactSeatHead heads the compact seat lines with their columns' names: on a phone a line showed an
 * unlabelled "▯6" (the hand's size) and a bare "—" (an empty discard pile). Shown only there (styles.css);
 * each line says it all to a screen reader, so it is hidden from them. chips: Stacks' chips column.
 */
export function CompactSeatHead({ chips = false }: { chips?: boolean }) {
  return (
    <div class="seat-lines-head" aria-hidden="true">
      <span class="head-hand">cards</span>
      {chips && <span class="head-chips">chips</span>}
      <span class="head-discard">discard</span>
    </div>
  );
}

/** CompactSeatLead leads a compact seat line: the turn marker (▶) and the seat's number. */
export function CompactSeatLead({ seat, toMove }: { seat: number; toMove: boolean }) {
  return (
    <span class="seat-lead" aria-hidden="true">
      <span class="turn-marker">{toMove ? '▶' : ''}</span>
      {seat + 1}
    </span>
  );
}

/** CompactTag is a short badge on a compact seat line; a warning ("skipped") is tinted as the full badge is. */
export type CompactTag = { text: string; warn?: boolean };

/**
 * CompactSeatName is the name on a compact seat line: without the seat and
 * team that tell two bots apart (the line shows both beside it), with a
 * "you" tag on the viewer's own seat, a "fill-in" tag on a seat a fill-in
 * bot plays (whether the seat was abandoned is in the details), then the
 * tags given, short forms of the seat's other badges ("skipped", "may
 * block"; "to move" is the line's turn marker).
 */
export function CompactSeatName({ view, seat, tags = [] }: { view: GameView; seat: number; tags?: (CompactTag | false | null)[] }) {
  return (
    <span class="compact-name" aria-hidden="true">
      <span class="short-name">{shortSeatName(view, seat)}</span>
      {view.your_seat === seat && <span class="mini-tag you">you</span>}
      {isFillIn(view, seat) && <span class="mini-tag fill-in">fill-in</span>}
      {isAway(view, seat) && <span class="mini-tag away">away</span>}
      {tags.map(
        (t) =>
          t && (
            <span key={t.text} class={`mini-tag${t.warn ? ' warn' : ''}`}>
              {t.text}
            </span>
          ),
      )}
    </span>
  );
}

/**
 * DiscardTop is a seat's discard pile: its top card (children), or "—" when
 * it is empty. A bare "Q♦" beside each seat said what it was only to screen
 * readers (the label): the word "discard" stands before it on a full seat
 * row, and the label's words show on hover; a compact phone line leaves the
 * word out (.count-unit), as it does "cards", and "Seat details" brings it
 * back.
 */
export function DiscardTop({ count, top, children }: { count: number; top?: string; children?: ComponentChildren }) {
  const words = top ? `discard pile: ${cardCount(count)}, top ${top}` : 'discard pile empty';
  return (
    <span class="discard-top" role="img" aria-label={words} title={words}>
      <span class="count-unit muted">discard </span>
      {top ? children : <span class="muted">—</span>}
    </span>
  );
}

/** HandSize is a seat's number of cards: "3 cards in hand" to a screen reader, and on a compact line "3" beside a card. */
export function HandSize({ n }: { n: number }) {
  return (
    <span class="muted hand-size">
      {n}
      <span class="count-unit"> {n === 1 ? 'card' : 'cards'}</span>
      <span class="sr-only"> in hand</span>
    </span>
  );
}

/**
 * SeatDetailsToggle switches the compact seat list (of id controls) back to
 * its full rows and back again, for whoever wants every seat's details on a
 * phone. A wide screen has the full rows only, and no toggle.
 */
export function SeatDetailsToggle({ controls, open, onToggle }: { controls: string; open: boolean; onToggle: () => void }) {
  return (
    <button type="button" class="small seat-details-toggle" aria-expanded={open} aria-controls={controls} onClick={onToggle}>
      <span aria-hidden="true">{open ? '▾ ' : '▸ '}</span>
      Seat details
    </button>
  );
}

/**
 * ratingText says what a finished game did to the viewer's rating: the
 * change once the game has been rated, "being updated" until the game is
 * settled (settled_at), that it changed no rating if it was settled without
 * one for this seat, and nothing for a casual game or a spectator.
 */
export function ratingText(view: GameView): string {
  if (view.status !== 'finished' || !view.rated || view.your_seat == null) return '';
  const r = view.seats[view.your_seat]?.rating;
  if (!r) {
    // Settled with no rating change for this seat (one bot account on two
    // teams, say): waiting for it would wait for ever.
    return view.settled_at ? 'Rated game, but this game changed no rating.' : 'Rated game: your rating is being updated…';
  }
  const delta = r.after - r.before;
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  return `Rated game: your rating ${Math.round(r.before)} → ${Math.round(r.after)} (${sign}${Math.abs(delta).toFixed(1)}).`;
}

/**
 * ResultLine shows a finished game's result: its first sentence (who won,
 * or the draw) as the headline, what follows (how it was won, a word on
 * abandoned seats) in plain text after it. All of it in the headline's
 * bold and size took four lines at phone width and pushed the board down.
 */
export function ResultLine({ text }: { text: string }) {
  const end = text.search(/[.!] /);
  const head = end < 0 ? text : text.slice(0, end + 1);
  const detail = end < 0 ? '' : text.slice(end + 2);
  return (
    <p class="result" tabIndex={-1}>
      <span class="result-head">{head}</span>
      {detail && (
        <>
          {' '}
          <span class="result-detail">{detail}</span>
        </>
      )}
    </p>
  );
}

export function resultText(view: GameView, log: MoveRecord[] = []): string {
  const r = view.result;
  if (view.status === 'aborted') return abortedText(view);
  if (!r) return '';
  // An adjudicated game's board shows no end: say what ended it.
  const how = view.ended_by === 'adjudication' ? ', adjudicated at the round deadline' : '';

  // A person whose seat a fill-in bot took over is rated as losing,
  // whatever the board says: never congratulate them.
  const abandoned = mySeatAbandoned(view);
  // ...and says what the rating makes of it only where the viewer's rating
  // takes the game: not a casual one, nor one settled without a change for
  // them (one bot account on two sides), which ratingText says it changed
  // no rating.
  const rates = view.rated && !(view.settled_at && view.your_seat != null && !view.seats[view.your_seat]?.rating);
  const lost = abandoned
    ? ` ${youAbandoned(view.seats[view.your_seat!]?.abandoned_why)}${rates ? ': your rating counts it as a loss' : ''}.`
    : opponentsWalkedAway(view)
      ? ` Your opponents abandoned their seats${rates ? ': your rating counts it as a win' : ''}.`
      : othersLeft(view);
  if (r.status === 'drawn') return `Draw${how || drawnBy(view, log)}.${lost}`;
  // how the rules' win was made, from the final position (an adjudicated game was not won that way, nor
  // was a resigned one, whose board shows no end either: who resigned is said instead)
  const resigned = view.ended_by === 'resign' && r.winner != null ? ` ${resignedText(view, r.winner)}` : '';
  const won = how || resigned ? '' : wonBy(view);
  // The loser read only "Green team (▲) wins." where the winner read "— that is you!": they are told too,
  // unless the line says it otherwise (they resigned or abandoned their seat) or the rating counts a win.
  const me = view.your_seat != null ? view.seats[view.your_seat] : undefined;
  const beaten = !!me && !abandoned && !opponentsWalkedAway(view) && !(view.ended_by === 'resign' && resignedSeat(view.game, [me], r.winner ?? 0));
  if (view.game === 'sequence') {
    const t = TEAMS[r.winner ?? 0];
    const mine = !abandoned && me?.team === r.winner;
    const youLost = view.players > view.teams ? ' — your team lost.' : ' — you lost.';
    return `${t.name} team (${t.shape}) wins${how}${mine ? ' — that is you!' : beaten ? youLost : '.'}${won && ` ${won}`}${resigned}${lost}`;
  }
  const mine = !abandoned && r.winner === view.your_seat;
  return `${moverName(view, r.winner ?? 0)} wins${how}${won && ` ${won}`}${mine ? ' — well played!' : beaten ? ' — you lost.' : '.'}${resigned}${lost}`;
}

/** resignedSeat is a seat of the side that resigned a game won by winner: the other of its two sides (only a game of two may be resigned). */
export function resignedSeat<S extends { seat: number; team: number }>(game: string, seats: S[], winner: number): S | undefined {
  return seats.find((s) => (game === 'sequence' ? s.team : s.seat) !== winner);
}

/** teamWithShape names a Sequence team with its shape, as result lines do: "Green team (▲)". */
export function teamWithShape(team: number): string {
  const t = TEAMS[team];
  return t ? `${t.name} team (${t.shape})` : `team ${team + 1}`;
}

/**
 * resignedText says which side resigned a game won by winner. The viewer reads "You resigned." of their own
 * seat, "Your team resigned." where a teammate did.
 */
export function resignedText(view: GameView, winner: number): string {
  const loser = resignedSeat(view.game, view.seats, winner);
  if (!loser) return '';
  const me = view.your_seat != null ? view.seats[view.your_seat] : undefined;
  if (me && resignedSeat(view.game, [me], winner)) return me.abandoned || me.bot ? 'Your team resigned.' : 'You resigned.';
  return `${view.game === 'sequence' ? teamWithShape(loser.team) : seatName(view, loser.seat)} resigned.`;
}

/** othersLeft is leftNote of a finished game's seats, for a viewer who did not leave it (nor saw every opponent leave). */
function othersLeft(view: GameView): string {
  const seats = view.seats.map((s) => ({ name: seatName(view, s.seat), abandoned: s.abandoned, why: s.abandoned_why, team: view.game === 'sequence' ? s.team : s.seat, person: isPerson(s) }));
  const note = leftNote(seats, view.rated);
  return note && ` ${note}`;
}

/**
 * drawnBy says why a game the rules ended was drawn (rules 1.5.4, 2.4): at
 * Stacks its cap of turns; at Sequence every seat passing in one round,
 * told by the log's last moves (each seat's pass, a dead card turned in
 * before it), else the play cap. The result said only "Draw." of a full
 * 9-seat board nobody could play on. Empty where the page cannot tell.
 */
export function drawnBy(view: GameView, log: MoveRecord[]): string {
  if (view.game === 'stacks') {
    const st = view.state as StacksState | null;
    return st && st.play_cap > 0 && st.turns >= st.play_cap ? `: the game reached its cap of ${st.play_cap} turns` : '';
  }
  const st = view.state as SequenceState | null;
  if (!st || !log.length) return '';
  const passed = seatsPassedLast(log);
  if (passed >= view.players) return EVERY_SEAT_PASSED;
  return passed === 0 ? `: the play cap was reached (${st.plays} plays)` : '';
}

export const EVERY_SEAT_PASSED = ': every seat passed in one round, no legal play left';

/** seatsPassedLast counts the seats that passed in the log's last run of passes (and dead cards turned in before them). */
export function seatsPassedLast(log: MoveRecord[]): number {
  const passed = new Set<number>();
  for (let i = log.length - 1; i >= 0 && (log[i].move === 'pass' || /^x/.test(log[i].move)); i--) if (log[i].move === 'pass') passed.add(log[i].seat);
  return passed.size;
}

/**
 * wonBy says how the winner of a finished game won, from its final
 * position: at Sequence the winning team's players and the sequences they
 * completed ("bob and bot-random completed the sequence i1–e5."), so that
 * a watcher of a 3-team game learns who the Green team was and where its
 * line is; at Stacks the winner's chips ("with 2 red and 3 blue chips").
 * The result line said only "Green team (▲) wins." and "ann wins.".
 * Empty where the position does not say (no state, no such sequence).
 */
export function wonBy(view: GameView): string {
  const r = view.result;
  if (!view.state || r?.status !== 'finished' || r.winner == null) return '';
  const members = view.seats
    .filter((s) => s.team === r.winner)
    .map((s) => playedBy(view.your_seat === s.seat && s.abandoned ? 'you' : seatName(view, s.seat), { fillIn: s.filled_by_bot, abandoned: s.abandoned, person: isPerson(s) }));
  if (view.game === 'stacks') return howWon('stacks', r.winner, members, { chips: (view.state as StacksState).chips });
  return howWon('sequence', r.winner, members, { sequences: (view.state as SequenceState).sequences });
}

/**
 * playedBy names who played a seat to the end of the game, for the words
 * on how it was won: a person whose seat a fill-in bot took over after
 * they left (abandoned) did not play the moves that won, and is rated as
 * losing whatever the board says (README, "Ratings"), so the replay's
 * "bob completed 2 sequences" of a game bob never opened read as if he had
 * played it. Such a seat is "the fill-in bot that took over from bob"; one
 * a bot finished for at a round's deadline (filled, not abandoned: rated on
 * the board) "bob (finished by a fill-in bot)"; a bot's own seat, or an
 * open one a bot filled, keeps its name.
 */
export function playedBy(name: string, seat: { fillIn: boolean; abandoned: boolean; person: boolean }): string {
  if (!seat.fillIn || !seat.person) return name;
  return seat.abandoned ? `the fill-in bot that took over from ${name}` : `${name} (finished by a fill-in bot)`;
}

/**
 * atSentenceStart is playedBy's words at the start of a sentence: "the
 * fill-in bot…" with a capital, a name as it is spelt (not components/ui's
 * sentence, which makes a server's message a whole sentence).
 */
export function atSentenceStart(words: string): string {
  return words.replace(/^the /, 'The ');
}

/** youAbandoned says how the viewer abandoned their seat (why): it said "You abandoned your seat" whatever they did. */
function youAbandoned(why?: AbandonedWhy): string {
  if (!why) return 'You abandoned your seat (a fill-in bot played it)';
  return `You ${why === 'account_closed' ? 'closed your account' : abandonedHow[why]}; a fill-in bot played your seat`;
}

// what a player did to abandon the seat, after their name (a seat abandoned
// before the server kept why: "left the game", as every cause was said)
const abandonedHow: Record<AbandonedWhy, string> = {
  left: 'left the game',
  timed_out: 'timed out too many turns in a row',
  no_show: 'had not moved by the round’s deadline',
  account_closed: 'closed their account',
};

/**
 * leftNote is the sentence after a result that names the people who left
 * the game to fill-in bots (abandoned), how (why: left, timed out, never
 * came, closed the account), and what a rated game makes of it: a loss for
 * each whatever the board said, or a draw for all when every side left
 * (README, "Ratings"). Empty when nobody left.
 */
export function leftNote(seats: { name: string; abandoned: boolean; why?: AbandonedWhy; team: number; person: boolean }[], rated: boolean): string {
  const left = seats.filter((s) => s.abandoned && s.person);
  if (!left.length) return '';
  // a side walked away when it had people and every one of them left (a side of bots alone never did)
  const walkedAway = (t: number) => {
    const people = seats.filter((s) => s.team === t && s.person);
    return people.length > 0 && people.every((s) => s.abandoned);
  };
  const everySide = [...new Set(seats.map((s) => s.team))].every(walkedAway);
  const how = new Map<string, string[]>();
  for (const s of left) {
    const words = abandonedHow[s.why ?? 'left'];
    how.set(words, [...(how.get(words) ?? []), s.name]);
  }
  const said = andList([...how].map(([words, names]) => `${andList(names)} ${words}`));
  const bots = left.length === 1 ? 'a fill-in bot played that seat' : 'fill-in bots played those seats';
  const rating = !rated ? '' : everySide ? ' (rated as a draw for all: every side left)' : ` (rated as a loss for ${left.length === 1 ? left[0].name : 'each of them'}, whatever the board says)`;
  return `${said}; ${bots} to the end${rating}.`;
}

/**
 * howWon is wonBy's words from a final position's parts, for the game's
 * page and the replay alike: members are the winning team's players as the
 * page names them (Sequence), the winner's seat is winner (Stacks).
 */
export function howWon(
  game: string,
  winner: number,
  members: string[],
  final: { sequences?: Record<string, [string, string][]>; chips?: { red: number; blue: number }[] },
): string {
  if (game === 'stacks') {
    const ch = final.chips?.[winner];
    return ch ? `with ${ch.red} red and ${ch.blue} blue chips` : '';
  }
  const lines = final.sequences?.[TEAMS[winner]?.letter] ?? [];
  if (!lines.length) return '';
  const windows = andList(lines.map(([from, to]) => `${from}–${to}`));
  return `${atSentenceStart(andList(members))} completed ${lines.length === 1 ? `the sequence ${windows}` : `${lines.length} sequences: ${windows}`}.`;
}

/**
 * MoveAnswer is what a table's onMove answers: whether the move was played,
 * as a promise (GamePage's, settled by the server's answer) or a boolean;
 * anything else is taken as played.
 */
export type MoveAnswer = unknown;

/**
 * afterMove runs played once the move is known to be played, else refused:
 * at once for a plain answer, when the promise settles otherwise. A table
 * clears the picked card only when played, so that after a refused move
 * the player picks another target without picking the card again.
 */
export function afterMove(answer: MoveAnswer, played: () => void, refused?: () => void): void {
  if (answer instanceof Promise) answer.then((ok: unknown) => (ok !== false ? played() : refused?.()), () => refused?.());
  else if (answer === false) refused?.();
  else played();
}

export function newMoveID(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c?.randomUUID) return c.randomUUID();
  return Math.random().toString(36).slice(2) + Date.now().toString(36);
}

/** isTypingTarget says whether a key press belongs to a form field. */
export function isTypingTarget(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

/**
 * SeatBank is what is left of a seat's time bank, in a game on a bank
 * clock. The seat whose turn it is counts down with the turn clock (the
 * server's turn deadline is the turn's start plus that bank); its bank
 * pauses, and is not known here, while a block window is open.
 */
export function SeatBank({ view, seat, paused = false }: { view: GameView; seat: number; paused?: boolean }) {
  if (!view.clock?.bank_seconds || view.status !== 'active' || !view.seats[seat]) return null;
  const turn = (view.state as { turn?: number } | null)?.turn;
  if (turn === seat && (paused || view.turn_deadline)) {
    if (paused) return <span class="bank muted">bank paused</span>;
    return (
      <span class="bank">
        <Clock deadline={view.turn_deadline} label={`${seatName(view, seat)}'s bank`} format={formatBank} />
      </span>
    );
  }
  const left = formatBank(view.seats[seat].bank_ms ?? 0);
  return (
    <span class="bank" role="img" aria-label={`${seatName(view, seat)}'s bank: ${left}`}>
      <span aria-hidden="true">{left}</span>
    </span>
  );
}
