// The live game's state on the client: the latest view, merged from the
// first GET, the SSE stream (which may replay moves after a reconnect, or
// arrive before or after our own POST's answer) and our moves' answers.
import type { GameEventData, GameView, MoveRecord, StacksState } from '../api/types';
import { abortedText, autopilotTurn, isMyTurn, mySeatAbandoned, mySeatTaken, opponentsWalkedAway, seatName, seatTakenText, teamName, timeoutText } from './seats';
import { describeSequenceMove } from './sequenceMoves';
import { describeStacksMove, doneToYou } from './stacksMoves';

export interface LiveGame {
  view: GameView | null;
  /** the latest moves, newest last (at most LOG_SIZE): those played before the page opened (history), then those seen live */
  log: MoveRecord[];
  /** what screen readers should hear about the last change */
  announcement: string;
  connected: boolean;
  /** whether the event stream has been connected since the page opened: until then it is connecting, not reconnecting */
  wasConnected: boolean;
}

export const LOG_SIZE = 200;

export type LiveAction =
  | { type: 'view'; view: GameView } // a GET or our move's answer
  | { type: 'event'; event: GameEventData }
  | { type: 'history'; moves: MoveRecord[] } // the moves played before the page opened (GET /games/{id}/moves)
  | { type: 'connected'; connected: boolean };

export const initialLive: LiveGame = { view: null, log: [], announcement: '', connected: false, wasConnected: false };

/** isNewer says whether view b may replace view a. */
export function isNewer(a: GameView | null, b: GameView): boolean {
  if (!a || a.id !== b.id) return true;
  if (b.ply !== a.ply) return b.ply > a.ply;
  // Same ply: a status change (start, end, a seat taken) or a refreshed
  // deadline is news; an identical view is harmless. But an ended game
  // never comes back to life (a late answer to the winning move).
  const ended = (v: GameView) => v.status === 'finished' || v.status === 'aborted';
  return !(ended(a) && !ended(b));
}

function nameOfSeat(view: GameView, seat: number): string {
  const s = view.seats[seat];
  if (view.your_seat === seat) return s?.filled_by_bot ? 'The fill-in bot in your seat' : 'You';
  // as the page names it: a name two seats share says which seat (and team)
  const name = seatName(view, seat);
  return s?.filled_by_bot ? `${name} (fill-in bot)` : name;
}

/** blockWindow is a Stacks game's open block window, if one is open. */
function blockWindow(view: GameView | null): { completer: number; color: string } | null {
  const st = view?.game === 'stacks' && view.status === 'active' ? (view.state as StacksState | null) : null;
  return st?.phase === 'block-window' && st.window ? st.window : null;
}

/** turnAnnouncement says whose turn it is now, if that changed. */
export function turnAnnouncement(before: GameView | null, after: GameView): string {
  const abandoned = mySeatAbandoned(after);
  if (after.status === 'finished' && before?.status !== 'finished') {
    const r = after.result;
    // what the rating makes of it, in a rated game only: a casual one counts for no rating
    const lost = abandoned
      ? ` Your seat was abandoned to a fill-in bot${after.rated ? ': your rating counts it as a loss' : ''}.`
      : opponentsWalkedAway(after)
        ? ` Your opponents abandoned their seats${after.rated ? ': your rating counts it as a win' : ''}.`
        : '';
    if (!r || r.status === 'drawn') return `The game is over: a draw.${lost}`;
    if (after.game === 'sequence') {
      const mine = after.your_seat != null && after.seats[after.your_seat]?.team === r.winner;
      return mine && !abandoned ? 'The game is over: your team won!' : `The game is over: ${teamName(r.winner ?? 0)} won.${lost}`;
    }
    return r.winner === after.your_seat && !abandoned
      ? 'The game is over: you won!'
      : `The game is over: ${nameOfSeat(after, r.winner ?? 0)} won.${lost}`;
  }
  // An open game called off. A viewer who held a seat ended it by leaving it, the last person seated: the
  // page then puts the focus on the result line, which says it. A table that lapsed was called off by the
  // server, whoever was seated: everyone watching is told.
  const lapsed = after.ended_by === 'lapse';
  if (after.status === 'aborted' && before?.status !== 'aborted' && (before?.your_seat == null || lapsed)) return abortedText(after);
  if (mySeatTaken(after) && !(before && before.id === after.id && mySeatTaken(before))) return seatTakenText(after);
  // A Stacks block window lists every other seat to move, so as not to tell who holds a BLOCK: "Your
  // turn." told a player who held none to move, with nothing to do. It says what the window is instead.
  const window = blockWindow(after);
  if (window) {
    if (blockWindow(before) && before?.ply === after.ply) return '';
    const who = nameOfSeat(after, window.completer);
    const may = after.legal_moves?.includes('BLOCK') ? ' You may BLOCK it.' : '';
    return `${who} completed a ${window.color} pile: block window open.${may}`;
  }
  const mineNow = isMyTurn(after);
  const mineBefore = before != null && isMyTurn(before);
  if (mineNow && !mineBefore) return 'Your turn.';
  if (!mineNow && after.to_move.length && before?.to_move.join() !== after.to_move.join()) {
    return `${after.to_move.map((s) => nameOfSeat(after, s)).join(', ')} to move.`;
  }
  return '';
}

/** timeoutAnnouncement says the autopilot played the viewer's timed-out turn, when a move of it arrives. */
function timeoutAnnouncement(view: GameView, log: MoveRecord[], move?: MoveRecord): string {
  if (!move || move.by !== 'autopilot' || move.seat !== view.your_seat) return '';
  const names = (s: number) => nameOfSeat(view, s);
  return timeoutText(autopilotTurn(view, log), (m) => (view.game === 'sequence' ? describeSequenceMove(m) : describeStacksMove(m, names)));
}

/** withMoves is log with moves added: each ply once, in order, the newest LOG_SIZE kept. */
function withMoves(log: MoveRecord[], moves: MoveRecord[]): MoveRecord[] {
  const fresh = moves.filter((m) => !log.some((l) => l.ply === m.ply));
  if (!fresh.length) return log;
  return [...log, ...fresh].sort((x, y) => x.ply - y.ply).slice(-LOG_SIZE);
}

/** stacksNews says what a Stacks move just done did to the viewer (a steal, a block of their completion), if anything. */
function stacksNews(view: GameView, before: MoveRecord[], after: MoveRecord[]): string {
  if (view.game !== 'stacks') return '';
  const names = (seat: number) => nameOfSeat(view, seat);
  const was = doneToYou(before, view.your_seat, names).length;
  const now = doneToYou(after, view.your_seat, names);
  return now.length > was ? `${now[now.length - 1]}.` : '';
}

export function liveReducer(s: LiveGame, a: LiveAction): LiveGame {
  switch (a.type) {
    case 'history': {
      // What happened while the viewer was away (the autopilot's word on
      // their timed-out turn, the opponents' moves) is in the log as if seen
      // live; no announcement: the page shows it as it opens.
      const log = withMoves(s.log, a.moves);
      return log === s.log ? s : { ...s, log };
    }
    case 'connected':
      return s.connected === a.connected ? s : { ...s, connected: a.connected, wasConnected: s.wasConnected || a.connected };
    case 'view': {
      if (!isNewer(s.view, a.view)) return s;
      return { ...s, view: a.view, announcement: turnAnnouncement(s.view, a.view) || s.announcement };
    }
    case 'event': {
      const { event } = a;
      const log = event.move ? withMoves(s.log, [event.move]) : s.log;
      const timedOut = log === s.log ? '' : timeoutAnnouncement(event.view, log, event.move);
      const doneToMe = log === s.log ? '' : stacksNews(event.view, s.log, log);
      if (!isNewer(s.view, event.view)) return log === s.log ? s : { ...s, log, announcement: timedOut || s.announcement };
      const turn = turnAnnouncement(s.view, event.view);
      const announcement = [timedOut, doneToMe, turn].filter(Boolean).join(' ');
      return { ...s, log, view: event.view, announcement: announcement || s.announcement };
    }
  }
}
