import { describe, expect, it } from 'vitest';
import type { GameView } from '../api/types';
import { leftNote, playerLabel, ratingText, resultText, seatName, toMoveText } from './gameCommon';

const seats = [
  { seat: 0, team: 0, user: { id: 'u1', username: 'ann' }, open: false, filled_by_bot: false, abandoned: false },
  { seat: 1, team: 1, user: { id: 'u2', username: 'bob' }, open: false, filled_by_bot: false, abandoned: false },
];

function finished(game: 'sequence' | 'stacks', result: GameView['result'], endedBy?: string): GameView {
  return {
    id: 'g', game, players: 2, teams: 2, status: 'finished', rated: false, clock: {}, created_at: '', seed_hash: '', ply: 9,
    seats, your_seat: 1, to_move: [], state: null, result, ended_by: endedBy,
  };
}

describe('the result line', () => {
  // Every abandoned seat read "bob left the game", bob having timed out, never come or closed his account.
  it('says how each player who abandoned a seat did, those alike together', () => {
    const seat = (name: string, team: number, why?: 'left' | 'timed_out' | 'no_show' | 'account_closed') => ({ name, abandoned: true, why, team, person: true });
    expect(leftNote([seat('ann', 0, 'timed_out'), { ...seat('bob', 1), abandoned: false }], true)).toBe(
      'ann timed out too many turns in a row; a fill-in bot played that seat to the end (rated as a loss for ann, whatever the board says).',
    );
    expect(leftNote([seat('ann', 0, 'left'), seat('cat', 0, 'account_closed'), seat('dan', 0, 'left'), { ...seat('bob', 1), abandoned: false }], false)).toBe(
      'ann and dan left the game and cat closed their account; fill-in bots played those seats to the end.',
    );
    expect(leftNote([seat('ann', 0, 'no_show'), seat('bob', 1)], true)).toBe(
      'ann had not moved by the round’s deadline and bob left the game; fill-in bots played those seats to the end (rated as a draw for all: every side left).',
    );
  });

  it('says nothing more for a game the rules ended', () => {
    expect(resultText(finished('sequence', { status: 'finished', winner: 1 }, 'play'))).not.toMatch(/adjudicated/);
    expect(resultText(finished('sequence', { status: 'drawn', winner: null }))).toBe('Draw.');
  });

  it('says a game was adjudicated at the round deadline', () => {
    expect(resultText(finished('sequence', { status: 'finished', winner: 1 }, 'adjudication'))).toMatch(
      /wins, adjudicated at the round deadline — that is you!$/,
    );
    expect(resultText(finished('sequence', { status: 'drawn', winner: null }, 'adjudication'))).toBe(
      'Draw, adjudicated at the round deadline.',
    );
    expect(resultText(finished('stacks', { status: 'finished', winner: 0 }, 'adjudication'))).toBe(
      'ann wins, adjudicated at the round deadline — you lost.',
    );
  });

  // A resigned game's board shows no end: the line says who resigned where it would say how the game was won.
  it('says which side resigned, "You" to the player who did', () => {
    expect(resultText(finished('sequence', { status: 'finished', winner: 1 }, 'resign'))).toBe('Green team (▲) wins — that is you! Blue team (●) resigned.');
    expect(resultText({ ...finished('sequence', { status: 'finished', winner: 0 }, 'resign') })).toBe('Blue team (●) wins. You resigned.');
    expect(resultText({ ...finished('sequence', { status: 'finished', winner: 0 }, 'resign'), your_seat: null })).toBe('Blue team (●) wins. Green team (▲) resigned.');
    expect(resultText(finished('stacks', { status: 'finished', winner: 1 }, 'resign'))).toBe('bob (you) wins — well played! ann resigned.');
    expect(resultText(finished('stacks', { status: 'finished', winner: 0 }, 'resign'))).toBe('ann wins. You resigned.');
  });

  it('tells a player whose opponents walked away that it counts as a win, whatever the board says', () => {
    const walked = (g: GameView): GameView => ({ ...g, rated: true, your_seat: 0, seats: [seats[0], { ...seats[1], bot: 'greedy', filled_by_bot: true, abandoned: true }] });
    expect(resultText(walked(finished('sequence', { status: 'finished', winner: 1 })))).toBe(
      'Green team (▲) wins. Your opponents abandoned their seats: your rating counts it as a win.',
    );
    expect(resultText(finished('sequence', { status: 'finished', winner: 0 }))).not.toMatch(/abandoned/);
  });

  it('never tells a person whose seat was abandoned that they won', () => {
    const gone = (g: GameView): GameView => ({ ...g, rated: true, seats: [seats[0], { ...seats[1], bot: 'greedy', filled_by_bot: true, abandoned: true }] });
    const seq = resultText(gone(finished('sequence', { status: 'finished', winner: 1 })));
    expect(seq).toBe('Green team (▲) wins. You abandoned your seat (a fill-in bot played it): your rating counts it as a loss.');
    // and how, where the seat says (every seat said "You abandoned your seat", whatever the player did)
    const left = (g: GameView): GameView => ({ ...gone(g), seats: [seats[0], { ...gone(g).seats[1], abandoned_why: 'timed_out' }] });
    expect(resultText(left(finished('sequence', { status: 'finished', winner: 1 })))).toBe(
      'Green team (▲) wins. You timed out too many turns in a row; a fill-in bot played your seat: your rating counts it as a loss.',
    );
    expect(seq).not.toMatch(/that is you/);
    const st = resultText(gone(finished('stacks', { status: 'finished', winner: 1 })));
    expect(st).not.toMatch(/well played/);
    expect(st).toMatch(/counts it as a loss\.$/);
  });

  // the game page, like the replay, said "bob completed 2 sequences" of a game bob left to a fill-in bot
  // (his profile: "abandoned", a loss): it names the bot that played for him, and what the rating made of it
  it('says that a fill-in bot played the winning moves for a player who left, and how the rating counts it', () => {
    const left = { ...seats[1], bot: 'greedy', filled_by_bot: true, abandoned: true };
    const view = (your_seat: number | null): GameView => ({
      ...finished('sequence', { status: 'finished', winner: 1 }),
      rated: true, your_seat, seats: [seats[0], left],
      state: { game: 'sequence', sequences: { b: [['i1', 'e5'], ['a2', 'e6']] } } as unknown as GameView['state'],
    });
    expect(resultText(view(null))).toBe(
      'Green team (▲) wins. The fill-in bot that took over from bob completed 2 sequences: i1–e5 and a2–e6. bob left the game; a fill-in bot played that seat to the end (rated as a loss for bob, whatever the board says).',
    );
    expect(resultText(view(1))).toBe(
      'Green team (▲) wins. The fill-in bot that took over from you completed 2 sequences: i1–e5 and a2–e6. You abandoned your seat (a fill-in bot played it): your rating counts it as a loss.',
    );
    // a seat a bot finished for at a round's deadline (not abandoned) keeps the board's result
    const finishedFor = { ...view(null), seats: [seats[0], { ...left, abandoned: false }] };
    expect(resultText(finishedFor)).toBe('Green team (▲) wins. bob (finished by a fill-in bot) completed 2 sequences: i1–e5 and a2–e6.');
  });

  it('says how the game was won: the sequences and who made them, the Stacks winner\'s chips', () => {
    // a 3-team game watched by a spectator said only "Green team (▲) wins.": not who the Green team was, nor where its line was
    const three = [0, 1, 2, 3, 4, 5].map((i) => ({ seat: i, team: i % 3, user: { id: `u${i}`, username: ['ann', 'bob', 'cat', 'bot-random', 'bot-random', 'bot-random'][i] }, open: false, filled_by_bot: false, abandoned: false }));
    const seq = (sequences: Record<string, [string, string][]>, over: Partial<GameView> = {}): GameView => ({
      ...finished('sequence', { status: 'finished', winner: 1 }),
      players: 6, teams: 3, seats: three, your_seat: null,
      state: { game: 'sequence', sequences } as unknown as GameView['state'],
      ...over,
    });
    expect(resultText(seq({ b: [['i1', 'e5']] }))).toBe('Green team (▲) wins. bob and bot-random (seat 5, Green team) completed the sequence i1–e5.');
    expect(resultText(seq({ a: [['a1', 'a5']], b: [['a10', 'e10'], ['c5', 'g9']] }, { your_seat: 1 }))).toBe(
      'Green team (▲) wins — that is you! bob (you) and bot-random (seat 5, Green team) completed 2 sequences: a10–e10 and c5–g9.',
    );
    // an adjudicated game was not won by a sequence: nothing more is said
    expect(resultText(seq({}, { ended_by: 'adjudication' }))).toBe('Green team (▲) wins, adjudicated at the round deadline.');
    const stacks = (over: Partial<GameView> = {}): GameView => ({
      ...finished('stacks', { status: 'finished', winner: 0 }),
      state: { game: 'stacks', chips: [{ red: 2, blue: 3 }, { red: 1, blue: 0 }] } as unknown as GameView['state'],
      ...over,
    });
    expect(resultText(stacks({ your_seat: null }))).toBe('ann wins with 2 red and 3 blue chips.');
    expect(resultText(stacks({ your_seat: 0 }))).toBe('ann (you) wins with 2 red and 3 blue chips — well played!');
    expect(resultText(stacks({ ended_by: 'adjudication', your_seat: null }))).toBe('ann wins, adjudicated at the round deadline.');
  });

  // The loser read only "Green team (▲) wins." while the winner read "— that is you!".
  it('tells a player who lost that they did, and each losing team of a 3-team game', () => {
    expect(resultText(finished('sequence', { status: 'finished', winner: 0 }))).toBe('Blue team (●) wins — you lost.');
    expect(resultText(finished('stacks', { status: 'finished', winner: 0 }))).toBe('ann wins — you lost.');
    const three = [0, 1, 2, 3, 4, 5].map((i) => ({ seat: i, team: i % 3, user: { id: `u${i}`, username: `p${i}` }, open: false, filled_by_bot: false, abandoned: false }));
    const seq = (your_seat: number | null): GameView => ({ ...finished('sequence', { status: 'finished', winner: 1 }), players: 6, teams: 3, seats: three, your_seat });
    expect(resultText(seq(0))).toBe('Green team (▲) wins — your team lost.');
    expect(resultText(seq(5))).toBe('Green team (▲) wins — your team lost.');
    expect(resultText(seq(4))).toBe('Green team (▲) wins — that is you!');
    expect(resultText(seq(null))).toBe('Green team (▲) wins.');
    // a 3-player game, each on their own team
    expect(resultText({ ...seq(2), players: 3, seats: three.slice(0, 3) })).toBe('Green team (▲) wins — you lost.');
    // the line already says it otherwise: a resignation, or opponents who walked away (rated a win)
    expect(resultText(finished('sequence', { status: 'finished', winner: 0 }, 'resign'))).toBe('Blue team (●) wins. You resigned.');
    const walked: GameView = { ...finished('sequence', { status: 'finished', winner: 0 }), seats: [{ ...seats[0], bot: 'greedy', filled_by_bot: true, abandoned: true }, seats[1]] };
    expect(resultText(walked)).not.toMatch(/you lost/);
  });

  it('says why a game was drawn: every seat passed, or the cap of plays or turns', () => {
    // a 9-seat 3-team board filled up with no sequence, and the page said only "Draw."
    const drawn = (game: 'sequence' | 'stacks', state: object): GameView => ({
      ...finished(game, { status: 'drawn', winner: null }),
      state: { game, ...state } as unknown as GameView['state'],
    });
    const mv = (ply: number, seat: number, move: string) => ({ ply, seat, move, by: 'bot', at: '' });
    const seq = drawn('sequence', { plays: 110 });
    expect(resultText(seq, [mv(5, 0, '7H@e5'), mv(6, 1, 'x4D'), mv(7, 1, 'pass'), mv(8, 0, 'pass')])).toBe('Draw: every seat passed in one round, no legal play left.');
    expect(resultText(drawn('sequence', { plays: 1000 }), [mv(999, 1, '7H@e5')])).toBe('Draw: the play cap was reached (1000 plays).');
    // a log that does not reach back far enough tells nothing
    expect(resultText(seq, [mv(8, 0, 'pass')])).toBe('Draw.');
    expect(resultText(seq)).toBe('Draw.');
    expect(resultText(drawn('stacks', { turns: 500, play_cap: 500 }))).toBe('Draw: the game reached its cap of 500 turns.');
    expect(resultText({ ...drawn('sequence', { plays: 110 }), ended_by: 'adjudication' }, [mv(8, 0, 'pass')])).toBe('Draw, adjudicated at the round deadline.');
  });

  it("says nothing of the rating where it takes no part: a casual game, or a rated one settled without a change for the viewer", () => {
    const gone = (over: Partial<GameView>): GameView => ({
      ...finished('stacks', { status: 'finished', winner: 1 }),
      seats: [seats[0], { ...seats[1], bot: 'greedy', filled_by_bot: true, abandoned: true }],
      ...over,
    });
    // the rated game's result line said "your rating counts it as a loss" above "this game changed no rating"
    expect(resultText(gone({ rated: true, settled_at: '2026-11-27T18:00:00Z' }))).toMatch(/wins\. You abandoned your seat \(a fill-in bot played it\)\.$/);
    expect(resultText(gone({ rated: false }))).toMatch(/wins\. You abandoned your seat \(a fill-in bot played it\)\.$/);
    expect(resultText(gone({ rated: true }))).toMatch(/counts it as a loss\.$/); // not yet settled
  });
});

describe('the rating line', () => {
  const rated = (over: Partial<GameView>): GameView => ({ ...finished('sequence', { status: 'finished', winner: 1 }), rated: true, ...over });

  it("shows the viewer's change once the game is rated, and waits for it until then", () => {
    expect(ratingText(rated({}))).toBe('Rated game: your rating is being updated…');
    const done = rated({ seats: [seats[0], { ...seats[1], rating: { before: 1500, after: 1519.96 } }] });
    expect(ratingText(done)).toBe('Rated game: your rating 1500 → 1520 (+20.0).');
    const lost = rated({ your_seat: 0, seats: [{ ...seats[0], rating: { before: 1512.4, after: 1500.1 } }, seats[1]] });
    expect(ratingText(lost)).toBe('Rated game: your rating 1512 → 1500 (−12.3).');
  });

  it('stops waiting once the game is settled without a rating change for the seat', () => {
    const none = rated({ settled_at: '2026-01-01T00:00:00Z' });
    expect(ratingText(none)).toBe('Rated game, but this game changed no rating.');
    expect(ratingText(none)).not.toMatch(/…$/);
    const done = rated({ settled_at: '2026-01-01T00:00:00Z', seats: [seats[0], { ...seats[1], rating: { before: 1500, after: 1510 } }] });
    expect(ratingText(done)).toBe('Rated game: your rating 1500 → 1510 (+10.0).');
  });

  it('says nothing for a casual game or a spectator', () => {
    expect(ratingText(finished('sequence', { status: 'finished', winner: 1 }))).toBe('');
    expect(ratingText(rated({ your_seat: null }))).toBe('');
  });
});

describe('the to-move line', () => {
  const active = (over: Partial<GameView>): GameView => ({ ...finished('sequence', undefined), status: 'active', result: undefined, ...over });

  it('tells a person whose seat a fill-in bot took that they can no longer move', () => {
    const gone = [seats[0], { ...seats[1], bot: 'greedy', filled_by_bot: true, abandoned: true }];
    expect(toMoveText(active({ seats: gone, to_move: [1] }))).toBe('A fill-in bot now plays your seat; you can no longer move.');
    expect(toMoveText(active({ seats: gone, to_move: [0] }))).toBe('A fill-in bot now plays your seat; you can no longer move. ann to move.');
  });

  it('shows other viewers that a fill-in bot plays a seat', () => {
    const gone = [seats[0], { ...seats[1], bot: 'greedy', filled_by_bot: true, abandoned: true }];
    expect(toMoveText(active({ seats: gone, to_move: [1], your_seat: 0 }))).toBe('bob (fill-in bot) to move.');
  });
});

describe('the names of seats', () => {
  const bot = (seat: number, team: number) => ({ seat, team, user: { id: 'b', username: 'bot-greedy' }, bot: 'greedy', open: false, filled_by_bot: false, abandoned: false });

  it('tells bots of one name apart by their seat in Stacks', () => {
    const view = { game: 'stacks', your_seat: 0, seats: [seats[0], bot(1, 1), bot(2, 2), bot(3, 3)] };
    expect([0, 1, 2, 3].map((s) => seatName(view, s))).toEqual(['ann (you)', 'bot-greedy (seat 2)', 'bot-greedy (seat 3)', 'bot-greedy (seat 4)']);
    // a name only one seat has stays as it is
    expect(seatName({ ...view, seats: [seats[0], bot(1, 1)] }, 1)).toBe('bot-greedy');
  });

  it('says the team of a 2v2 Sequence bot that shares its name', () => {
    const view = { ...finished('sequence', undefined), players: 4, teams: 2, your_seat: 0, seats: [seats[0], bot(1, 1), seats[1], bot(3, 1)].map((s, i) => ({ ...s, seat: i, team: i % 2 })) };
    expect(seatName(view, 1)).toBe('bot-greedy (seat 2, Green team)');
    expect(seatName(view, 3)).toBe('bot-greedy (seat 4, Green team)');
    expect(toMoveText({ ...view, status: 'active', result: undefined, to_move: [3] })).toBe('bot-greedy (seat 4, Green team) to move.');
  });

  it('calls seat -1 (the server: a block window closing) the table, never "seat 0"', () => {
    expect(seatName({ seats, your_seat: 0 }, -1)).toBe('the table');
    expect(playerLabel(['ann', 'bob'], -1)).toBe('the table');
  });
});
