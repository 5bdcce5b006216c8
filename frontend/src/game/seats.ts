// Who holds a seat now: a person, a bot seated from the start, or a fill-in
// bot that took a seat over (an open seat at a scheduled start, or a
// person's seat, "abandoned": they left, max_timeouts of their turns timed
// out in a row, they had not moved by a tournament round's deadline, or
// their account was closed).
import type { AbandonedWhy, MoveRecord, Seat } from '../api/types';
import { serverClock } from '../api/serverClock';
import { TEAMS } from './board';

type Seats = { seats: Seat[]; your_seat?: number | null };

/** TABLE names seat -1, the server's own moves (a Stacks block window closing): no player made them. */
export const TABLE = 'the table';

/**
 * playerLabel names seat among players named names (one a seat): a name
 * two seats share (two bots of one level, two open seats) gets its seat
 * number, and its team when teamName gives one, so that "steal from
 * bot-greedy" says which bot-greedy. Seat -1 is the table (the server).
 */
export function playerLabel(names: string[], seat: number, teamName?: (seat: number) => string | undefined): string {
  if (seat < 0) return TABLE;
  const base = names[seat] || `seat ${seat + 1}`;
  if (names.filter((n) => n === base).length < 2) return base;
  const team = teamName?.(seat);
  return `${base} (seat ${seat + 1}${team ? `, ${team}` : ''})`;
}

/** sequenceTeam is the team a Sequence seat plays for, as words ("Blue team"). */
export function sequenceTeam(game: string | undefined, team: number | undefined): string | undefined {
  return game === 'sequence' && team != null && TEAMS[team] ? `${TEAMS[team].name} team` : undefined;
}

/** rawName is who holds a seat, as one word: the username, "bot-greedy", "open seat" ('' if unknown). */
function rawName(s: Seat | undefined): string {
  return s?.user?.username ?? (s?.bot ? `bot-${s.bot}` : s?.open ? 'open seat' : '');
}

/**
 * shortSeatName is a seat's name without what tells two same-named seats
 * apart (their seat number and team) and without "(you)": for a compact
 * seat list whose lines show the seat number, team chip and "you" beside it.
 */
export function shortSeatName(view: { seats: Seat[] }, seat: number): string {
  return rawName(view.seats[seat]) || `seat ${seat + 1}`;
}

/** seatName names a seat as the page shows it: playerLabel over the seats' names, "(you)" on the viewer's own. */
export function seatName(view: { seats: Seat[]; your_seat?: number | null; game?: string }, seat: number): string {
  const names = view.seats.map(rawName);
  const base = playerLabel(names, seat, (i) => sequenceTeam(view.game, view.seats[i]?.team));
  return seat >= 0 && view.your_seat === seat ? `${base} (you)` : base;
}

/** mySeatAbandoned says whether the viewer's seat was handed to a fill-in bot. */
export function mySeatAbandoned(v: Seats): boolean {
  return v.your_seat != null && !!v.seats[v.your_seat]?.abandoned;
}

/**
 * isMyTurn says whether the viewer is to move: never once a bot has their
 * seat (abandoned, or finished for at a tournament round's deadline).
 */
export function isMyTurn(v: Seats & { to_move: number[] }): boolean {
  return v.your_seat != null && v.to_move.includes(v.your_seat) && !v.seats[v.your_seat]?.filled_by_bot;
}

/** teamName is a Sequence team's name as the page shows it ("Green team"). */
export function teamName(team: number): string {
  const t = TEAMS[team];
  return t ? `${t.name} team` : `team ${team + 1}`;
}

/**
 * abortedText is what an aborted game's page says. A table the server cancelled because nobody joined it,
 * nor was at it, within the open-table lifetime (ended_by "lapse") says so: nobody at it called it off,
 * and its creator, back after a day, would otherwise wonder who did.
 */
export function abortedText(g: { ended_by?: string }): string {
  return g.ended_by === 'lapse' ? 'The table lapsed: nobody joined it in time, so it was cancelled.' : 'The game was aborted.';
}

/** mySeatTaken says whether a fill-in bot plays the viewer's seat: abandoned, or finishing for them at a tournament round's deadline. */
export function mySeatTaken(v: Seats): boolean {
  return v.your_seat != null && !!v.seats[v.your_seat]?.filled_by_bot;
}

const abandonedBecause: Record<AbandonedWhy, string> = {
  left: 'you left the game',
  timed_out: 'too many of your turns timed out in a row',
  no_show: 'you had not moved when the round’s deadline came',
  account_closed: 'your account was closed',
};

/**
 * seatTakenText is the word that a fill-in bot took the viewer's seat ('' if none did), saying why. A
 * player the bots finish for at a tournament round's deadline after moving themselves is not marked
 * abandoned (the game's result is theirs). An abandoned seat says why (abandoned_why); one abandoned
 * before the server kept the reason names the causes this game allows (never a round's deadline in a
 * casual game). A loss is said only where a rating takes one.
 */
export function seatTakenText(v: Seats & { rated?: boolean; tournament_id?: string }): string {
  if (!mySeatTaken(v)) return '';
  const seat = v.seats[v.your_seat!];
  if (!seat.abandoned) return 'A fill-in bot now plays your seat: the round’s deadline came, and it finishes the game for you. You can no longer move in this game.';
  const why = seat.abandoned_why
    ? abandonedBecause[seat.abandoned_why]
    : v.tournament_id
      ? 'you left the game, too many of your turns timed out in a row, or you had not moved when the round’s deadline came'
      : 'you left the game, or too many of your turns timed out in a row';
  return `A fill-in bot now plays your seat: ${why}. You can no longer move in this game${v.rated ? ', and it counts as a loss for your rating' : ''}.`;
}

const abandonedBadge: Record<AbandonedWhy, string> = {
  left: 'fill-in bot (player left)',
  timed_out: 'fill-in bot (player timed out)',
  no_show: 'fill-in bot (player never moved)',
  account_closed: 'fill-in bot (account closed)',
};

/** fillInBadge is the badge of a seat a fill-in bot plays, saying why its player abandoned it. */
export function fillInBadge(seat: Pick<Seat, 'abandoned' | 'abandoned_why'>): string {
  if (!seat.abandoned) return 'fill-in bot';
  return seat.abandoned_why ? abandonedBadge[seat.abandoned_why] : 'fill-in bot (seat abandoned)';
}

/**
 * autopilotTurn is the viewer's latest turn in the log if the autopilot
 * played it (their turn timed out): the moves of that seat at the end of
 * its last run of consecutive moves. It is empty once the player moved
 * again themselves, or when a fill-in bot has the seat.
 */
export function autopilotTurn(v: Seats, log: MoveRecord[]): MoveRecord[] {
  const me = v.your_seat;
  if (me == null || mySeatTaken(v)) return [];
  let i = log.length - 1;
  while (i >= 0 && log[i].seat !== me) i--;
  const out: MoveRecord[] = [];
  for (; i >= 0 && log[i].seat === me && log[i].by === 'autopilot'; i--) out.unshift(log[i]);
  return out;
}

/** timeoutText says what the autopilot did in the viewer's place. */
export function timeoutText(moves: MoveRecord[], describe: (move: string) => string): string {
  if (!moves.length) return '';
  return `Your turn timed out; the autopilot played it for you: ${moves.map((m) => describe(m.move)).join(', ')}.`;
}

/**
 * lateMoveText says why the viewer's move mine was refused as late (409:
 * the game had moved on from the ply it answered): what was played first,
 * in first (the moves from that ply on), the autopilot's play of the
 * viewer's own timed-out turn and a Stacks block window's closing said as
 * such. The page once reloaded in silence: a BLOCK pressed as the window
 * closed, or another player's BLOCK landing first, simply vanished.
 */
export function lateMoveText(v: Seats, mine: string, first: MoveRecord[], describe: (move: string) => string, name: (seat: number) => string): string {
  // one clause a turn: a seat's moves in a row, by the same hand, are said together
  const turns: MoveRecord[][] = [];
  for (const m of first) {
    const last = turns[turns.length - 1];
    if (last && last[0].seat === m.seat && last[0].by === m.by && m.seat >= 0) last.push(m);
    else turns.push([m]);
  }
  const told = turns.slice(0, 3).map((t) => {
    const [m] = t;
    const did = t.map((x) => describe(x.move)).join(', ');
    if (m.seat < 0) return m.move === 'close' ? 'the block window closed (nobody had blocked)' : did;
    if (m.seat === v.your_seat && m.by === 'autopilot') return `your turn timed out and the autopilot ${did}`;
    return `${name(m.seat)} ${did}`;
  });
  if (turns.length > told.length) told.push(turns.length - told.length === 1 ? 'one more turn' : `${turns.length - told.length} more turns`);
  const what = told.length ? told.join(', then ') : 'the game moved on';
  const yours = mine === 'BLOCK' ? 'your BLOCK' : `your move (${describe(mine)})`;
  return `Too late: ${what}, before ${yours} arrived. It was not played.`;
}

/**
 * opponentsWalkedAway says whether every other team of the viewer's game
 * abandoned all its seats to fill-in bots: the viewer is then rated as
 * having won (league/rating), whatever the bots made of the board.
 */
export function opponentsWalkedAway(v: Seats): boolean {
  if (v.your_seat == null) return false;
  const teamOf = (s: Seat) => s.team ?? s.seat;
  const mine = teamOf(v.seats[v.your_seat]);
  const forfeited = (team: number) => v.seats.filter((s) => teamOf(s) === team).every((s) => s.abandoned);
  const others = [...new Set(v.seats.map(teamOf))].filter((t) => t !== mine);
  return !forfeited(mine) && others.length > 0 && others.every(forfeited);
}

/**
 * keptFor is the name of the person an open seat is still kept for, or
 * null: a rematch's until its kept_until, one its creator kept for someone
 * (no kept_until) until the game starts. kept_until is the server's
 * instant, so it is compared with the server's time.
 */
export function keptFor(s: Seat, now = serverClock.now()): string | null {
  return s.open && s.kept_for && (!s.kept_until || Date.parse(s.kept_until) > now) ? s.kept_for.username : null;
}
