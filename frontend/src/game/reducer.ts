// The live game's state on the client: the latest view, merged from the
// first GET, the SSE stream (which may replay moves after a reconnect, or
// arrive before or after our own POST's answer) and our moves' answers.
import type { GameEventData, GameView, MoveRecord } from '../api/types';

export interface LiveGame {
  view: GameView | null;
  /** the moves seen live, newest last (at most LOG_SIZE) */
  log: MoveRecord[];
  /** what screen readers should hear about the last change */
  announcement: string;
  connected: boolean;
}

export const LOG_SIZE = 200;

export type LiveAction =
  | { type: 'view'; view: GameView } // a GET or our move's answer
  | { type: 'event'; event: GameEventData }
  | { type: 'connected'; connected: boolean };

export const initialLive: LiveGame = { view: null, log: [], announcement: '', connected: false };

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
  if (view.your_seat === seat) return 'You';
  const s = view.seats[seat];
  return s?.user?.username ?? (s?.bot ? `bot (${s.bot})` : `seat ${seat + 1}`);
}

/** turnAnnouncement says whose turn it is now, if that changed. */
export function turnAnnouncement(before: GameView | null, after: GameView): string {
  if (after.status === 'finished' && before?.status !== 'finished') {
    const r = after.result;
    if (!r || r.status === 'drawn') return 'The game is over: a draw.';
    if (after.game === 'sequence') {
      const mine = after.your_seat != null && after.seats[after.your_seat]?.team === r.winner;
      return mine ? 'The game is over: your team won!' : `The game is over: team ${'abc'[r.winner ?? 0]} won.`;
    }
    return r.winner === after.your_seat ? 'The game is over: you won!' : `The game is over: ${nameOfSeat(after, r.winner ?? 0)} won.`;
  }
  const mineNow = after.your_seat != null && after.to_move.includes(after.your_seat);
  const mineBefore = before != null && before.your_seat != null && before.to_move.includes(before.your_seat);
  if (mineNow && !mineBefore) return 'Your turn.';
  if (!mineNow && after.to_move.length && before?.to_move.join() !== after.to_move.join()) {
    return `${after.to_move.map((s) => nameOfSeat(after, s)).join(', ')} to move.`;
  }
  return '';
}

export function liveReducer(s: LiveGame, a: LiveAction): LiveGame {
  switch (a.type) {
    case 'connected':
      return s.connected === a.connected ? s : { ...s, connected: a.connected };
    case 'view': {
      if (!isNewer(s.view, a.view)) return s;
      return { ...s, view: a.view, announcement: turnAnnouncement(s.view, a.view) || s.announcement };
    }
    case 'event': {
      const { event } = a;
      let log = s.log;
      if (event.move && !log.some((m) => m.ply === event.move!.ply)) {
        log = [...log, event.move].sort((x, y) => x.ply - y.ply).slice(-LOG_SIZE);
      }
      if (!isNewer(s.view, event.view)) return log === s.log ? s : { ...s, log };
      return { ...s, log, view: event.view, announcement: turnAnnouncement(s.view, event.view) || s.announcement };
    }
  }
}
