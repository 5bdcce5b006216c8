import { describe, expect, it } from 'vitest';
import type { AbandonedWhy, GameView, MoveRecord } from '../api/types';
import { initialLive, liveReducer } from './reducer';

// what a lapsed table's page says (the server cancelled it: nobody joined in time)
const LAPSED = 'The table lapsed: nobody joined it in time, so it was cancelled.';

function view(ply: number, over: Partial<GameView> = {}): GameView {
  return {
    id: 'g1', game: 'sequence', players: 2, teams: 2, status: 'active', rated: false, clock: {}, created_at: '', seed_hash: '',
    ply, your_seat: 0, to_move: [ply % 2], state: null,
    seats: [
      { seat: 0, team: 0, user: { id: 'u1', username: 'ann' }, open: false, filled_by_bot: false, abandoned: false },
      { seat: 1, team: 1, user: { id: 'b', username: 'bot-random' }, bot: 'random', open: false, filled_by_bot: false, abandoned: false },
    ],
    ...over,
  };
}
const move = (ply: number): MoveRecord => ({ ply, seat: ply % 2, move: '7H@e5', by: 'player', at: '' });

describe('the live-game reducer', () => {
  it('takes the first view and announces the turn', () => {
    const s = liveReducer(initialLive, { type: 'view', view: view(0) });
    expect(s.view!.ply).toBe(0);
    expect(s.announcement).toBe('Your turn.');
  });

  it('applies move events in order and logs each move once', () => {
    let s = liveReducer(initialLive, { type: 'view', view: view(0) });
    s = liveReducer(s, { type: 'event', event: { kind: 'move', move: move(0), view: view(1) } });
    expect(s.view!.ply).toBe(1);
    expect(s.announcement).toBe('bot-random to move.');
    s = liveReducer(s, { type: 'event', event: { kind: 'move', move: move(1), view: view(2) } });
    // a reconnect replays ply 1 again: no duplicate, no step back
    s = liveReducer(s, { type: 'event', event: { kind: 'move', move: move(1), view: view(2) } });
    s = liveReducer(s, { type: 'event', event: { kind: 'move', move: move(0), view: view(1) } });
    expect(s.view!.ply).toBe(2);
    expect(s.log.map((m) => m.ply)).toEqual([0, 1]);
    expect(s.announcement).toBe('Your turn.');
  });

  it('puts the moves played before the page opened into the log, each once, in order, without a word', () => {
    // the stream's first move can come before the history's answer, which holds it too
    let s = liveReducer(initialLive, { type: 'view', view: view(3) });
    s = liveReducer(s, { type: 'event', event: { kind: 'move', move: move(3), view: view(4) } });
    const said = s.announcement;
    s = liveReducer(s, { type: 'history', moves: [move(1), move(2), move(3)] });
    expect(s.log.map((m) => m.ply)).toEqual([1, 2, 3]);
    expect(s.announcement).toBe(said);
    expect(s.view!.ply).toBe(4);
    // nothing new: the same state
    expect(liveReducer(s, { type: 'history', moves: [move(2)] })).toBe(s);
  });

  it("tells a Stacks player what another's move did to them: a stolen chip, a blocked completion", () => {
    const stacks = (ply: number, toMove: number) => view(ply, { game: 'stacks', to_move: [toMove] });
    const rec = (ply: number, seat: number, m: string): MoveRecord => ({ ply, seat, move: m, by: 'player', at: '' });
    let s = liveReducer(initialLive, { type: 'view', view: stacks(3, 1) });
    s = liveReducer(s, { type: 'event', event: { kind: 'move', move: rec(3, 1, 'STEAL_CHIP@0:blue'), view: stacks(4, 1) } });
    expect(s.announcement).toBe('bot-random stole a blue chip from you.');
    s = liveReducer(s, { type: 'event', event: { kind: 'move', move: rec(4, 1, '/R2'), view: stacks(5, 0) } });
    expect(s.announcement).toBe('Your turn.');
    s = liveReducer(s, { type: 'event', event: { kind: 'move', move: rec(5, 0, 'R5>0'), view: stacks(6, 1) } });
    s = liveReducer(s, { type: 'event', event: { kind: 'move', move: rec(6, 1, 'BLOCK'), view: stacks(7, 0) } });
    expect(s.announcement).toBe('bot-random BLOCKED your completion: no chip for you. Your turn.');
  });

  // The window lists every other seat to move (who holds a BLOCK is nobody's business): "Your turn." told a
  // screen reader user who held none to move, with nothing to do.
  it('says a Stacks block window is open, and that the viewer may BLOCK only when they may', () => {
    const inWindow = (ply: number, legal?: string[]): GameView => {
      const v = view(ply, { game: 'stacks', to_move: [0], legal_moves: legal });
      v.state = { ...(v.state as object), phase: 'block-window', window: { completer: 1, color: 'red', eligible: [0], answered: [] } } as never;
      return v;
    };
    let s = liveReducer(initialLive, { type: 'view', view: view(4, { game: 'stacks', to_move: [1] }) });
    s = liveReducer(s, { type: 'view', view: inWindow(5) });
    expect(s.announcement).toBe('bot-random completed a red pile: block window open.');
    s = liveReducer(initialLive, { type: 'view', view: view(4, { game: 'stacks', to_move: [1] }) });
    s = liveReducer(s, { type: 'view', view: inWindow(5, ['BLOCK']) });
    expect(s.announcement).toBe('bot-random completed a red pile: block window open. You may BLOCK it.');
  });

  it('ignores a stale view that arrives after a newer one', () => {
    let s = liveReducer(initialLive, { type: 'view', view: view(4) });
    // our POST's answer (ply 3) lands after the SSE event for ply 4
    s = liveReducer(s, { type: 'view', view: view(3) });
    expect(s.view!.ply).toBe(4);
  });

  it('takes same-ply status changes such as the end of the game', () => {
    let s = liveReducer(initialLive, { type: 'view', view: view(9) });
    s = liveReducer(s, { type: 'event', event: { kind: 'end', view: view(9, { status: 'finished', to_move: [], result: { status: 'finished', winner: 0 } }) } });
    expect(s.view!.status).toBe('finished');
    expect(s.announcement).toBe('The game is over: your team won!');
    // a late answer at the same ply does not bring the game back
    s = liveReducer(s, { type: 'view', view: view(9) });
    expect(s.view!.status).toBe('finished');
  });

  it('says an open game was called off to whoever watched it, not to the person whose leaving ended it', () => {
    const waiting = (over: Partial<GameView>) => view(0, { status: 'open', to_move: [], ...over });
    // a visitor watching: nothing else says it (the result line is no live region)
    let s = liveReducer(initialLive, { type: 'view', view: waiting({ your_seat: null }) });
    s = liveReducer(s, { type: 'event', event: { kind: 'seat', view: waiting({ status: 'aborted', your_seat: null }) } });
    expect(s.announcement).toBe('The game was aborted.');
    // the last person seated left: the page puts the focus on the result line, which says it
    s = liveReducer(initialLive, { type: 'view', view: waiting({}) });
    s = liveReducer(s, { type: 'view', view: waiting({ status: 'aborted', your_seat: null }) });
    expect(s.announcement).toBe('');
  });

  it('says a table that lapsed was cancelled because nobody joined, to its creator too', () => {
    const waiting = (over: Partial<GameView>) => view(0, { status: 'open', to_move: [], ...over });
    const lapsed = waiting({ status: 'aborted', ended_by: 'lapse', your_seat: null });
    // the creator's page, back from a day away: nothing they did ended it
    let s = liveReducer(initialLive, { type: 'view', view: waiting({ your_seat: 0 }) });
    s = liveReducer(s, { type: 'event', event: { kind: 'seat', view: lapsed } });
    expect(s.announcement).toBe(LAPSED);
    s = liveReducer(initialLive, { type: 'view', view: waiting({ your_seat: null }) });
    s = liveReducer(s, { type: 'event', event: { kind: 'seat', view: lapsed } });
    expect(s.announcement).toBe(LAPSED);
  });

  it('tracks the connection', () => {
    expect(initialLive.wasConnected).toBe(false);
    const s = liveReducer(initialLive, { type: 'connected', connected: true });
    expect([s.connected, s.wasConnected]).toEqual([true, true]);
    expect(liveReducer(s, { type: 'connected', connected: true })).toBe(s);
    // lost: reconnecting, not connecting for the first time
    expect(liveReducer(s, { type: 'connected', connected: false })).toMatchObject({ connected: false, wasConnected: true });
  });

  it('names the winning team as the page does, not by its internal letter', () => {
    let s = liveReducer(initialLive, { type: 'view', view: view(9) });
    s = liveReducer(s, { type: 'event', event: { kind: 'end', view: view(9, { status: 'finished', to_move: [], result: { status: 'finished', winner: 1 } }) } });
    expect(s.announcement).toBe('The game is over: Green team won.');
  });

  it('says when the autopilot played a timed-out turn', () => {
    let s = liveReducer(initialLive, { type: 'view', view: view(0) });
    const auto: MoveRecord = { ply: 0, seat: 0, move: '7H@e5', by: 'autopilot', at: '' };
    s = liveReducer(s, { type: 'event', event: { kind: 'move', move: auto, view: view(1) } });
    expect(s.announcement).toBe('Your turn timed out; the autopilot played it for you: played the 7 of hearts on e5. bot-random to move.');
  });

  it('never says "your turn" once a fill-in bot has the seat, and says so once', () => {
    const gone = (ply: number) =>
      view(ply, { seats: [{ ...view(0).seats[0], bot: 'greedy', filled_by_bot: true, abandoned: true }, view(0).seats[1]] });
    let s = liveReducer(initialLive, { type: 'view', view: view(1) });
    s = liveReducer(s, { type: 'event', event: { kind: 'seat', view: gone(1) } });
    // a casual game: no round deadline, no loss for a rating
    expect(s.announcement).toBe('A fill-in bot now plays your seat: you left the game, or too many of your turns timed out in a row. You can no longer move in this game.');
    s = liveReducer(s, { type: 'event', event: { kind: 'move', move: move(1), view: gone(2) } });
    expect(s.announcement).toBe('The fill-in bot in your seat to move.');
    expect(s.announcement).not.toMatch(/Your turn/);
    // the team won, but the person who left is rated as losing (in a rated game; a casual one rates nobody)
    const end = { ...gone(2), status: 'finished', to_move: [], result: { status: 'finished', winner: 0 } };
    s = liveReducer(s, { type: 'event', event: { kind: 'end', view: { ...end, rated: true } } });
    expect(s.announcement).toBe('The game is over: Blue team won. Your seat was abandoned to a fill-in bot: your rating counts it as a loss.');
    s = liveReducer(liveReducer(initialLive, { type: 'view', view: gone(2) }), { type: 'event', event: { kind: 'end', view: end } });
    expect(s.announcement).toBe('The game is over: Blue team won. Your seat was abandoned to a fill-in bot.');
  });

  it('tells a player whose opponent walked away that it counts as their win', () => {
    const left = view(9, {
      status: 'finished', to_move: [], result: { status: 'finished', winner: 1 },
      seats: [view(0).seats[0], { ...view(0).seats[1], bot: 'greedy', filled_by_bot: true, abandoned: true }],
    });
    let s = liveReducer(initialLive, { type: 'view', view: view(9, { rated: true }) });
    s = liveReducer(s, { type: 'event', event: { kind: 'end', view: { ...left, rated: true } } });
    expect(s.announcement).toBe('The game is over: Green team won. Your opponents abandoned their seats: your rating counts it as a win.');
    // a casual game counts for no rating
    s = liveReducer(liveReducer(initialLive, { type: 'view', view: view(9) }), { type: 'event', event: { kind: 'end', view: left } });
    expect(s.announcement).toBe('The game is over: Green team won. Your opponents abandoned their seats.');
  });

  it('never says "your turn" to a player the bots finish for at a round deadline, and says once that they do', () => {
    const handed = (ply: number) => view(ply, { tournament_id: 't1', seats: [{ ...view(0).seats[0], bot: 'greedy', filled_by_bot: true }, view(0).seats[1]] });
    let s = liveReducer(initialLive, { type: 'view', view: view(1, { tournament_id: 't1' }) });
    s = liveReducer(s, { type: 'event', event: { kind: 'seat', view: handed(1) } });
    expect(s.announcement).toBe('A fill-in bot now plays your seat: the round’s deadline came, and it finishes the game for you. You can no longer move in this game.');
    s = liveReducer(s, { type: 'event', event: { kind: 'move', move: move(1), view: handed(2) } });
    expect(s.announcement).toBe('The fill-in bot in your seat to move.');
  });

  it("says why the seat was taken, from the stream's word or the answer alike", () => {
    const gone = (why: AbandonedWhy) =>
      view(1, { rated: true, seats: [{ ...view(0).seats[0], bot: 'greedy', filled_by_bot: true, abandoned: true, abandoned_why: why }, view(0).seats[1]] });
    const s = liveReducer(initialLive, { type: 'view', view: view(1, { rated: true }) });
    const left = 'A fill-in bot now plays your seat: you left the game. You can no longer move in this game, and it counts as a loss for your rating.';
    expect(liveReducer(s, { type: 'event', event: { kind: 'seat', view: gone('left') } }).announcement).toBe(left);
    expect(liveReducer(s, { type: 'view', view: gone('left') }).announcement).toBe(left);
    expect(liveReducer(s, { type: 'view', view: gone('timed_out') }).announcement).toMatch(/: too many of your turns timed out in a row\. You can no longer move/);
  });

  it('tells same-named bots apart by seat (and team in Sequence), as the page does', () => {
    const bot = (seat: number, team: number) => ({ seat, team, user: null, bot: 'greedy', open: false, filled_by_bot: false, abandoned: false });
    const stacks = (ply: number, over: Partial<GameView> = {}) =>
      view(ply, { game: 'stacks', players: 3, teams: 3, to_move: [ply % 3], seats: [view(0).seats[0], bot(1, 1), bot(2, 2)], ...over });
    let s = liveReducer(initialLive, { type: 'view', view: stacks(0) });
    s = liveReducer(s, { type: 'event', event: { kind: 'move', move: { ply: 0, seat: 0, move: 'STEAL_CHIP@2:red', by: 'autopilot', at: '' }, view: stacks(1) } });
    expect(s.announcement).toBe('Your turn timed out; the autopilot played it for you: stole a red chip from bot-greedy (seat 3). bot-greedy (seat 2) to move.');
    s = liveReducer(s, { type: 'event', event: { kind: 'end', view: stacks(1, { status: 'finished', to_move: [], result: { status: 'finished', winner: 2 } }) } });
    expect(s.announcement).toBe('The game is over: bot-greedy (seat 3) won.');

    const seq = (ply: number) =>
      view(ply, { players: 4, teams: 2, to_move: [ply % 4], seats: [view(0).seats[0], bot(1, 1), { ...view(0).seats[0], seat: 2, user: { id: 'u3', username: 'cy' } }, bot(3, 1)] });
    s = liveReducer(initialLive, { type: 'view', view: seq(0) });
    s = liveReducer(s, { type: 'event', event: { kind: 'move', move: move(0), view: seq(3) } });
    expect(s.announcement).toBe('bot-greedy (seat 4, Green team) to move.');
  });
});
