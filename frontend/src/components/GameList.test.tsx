import { describe, expect, it } from 'vitest';
import type { Game } from '../api/types';
import { outcome } from './GameList';

const game = (over: Partial<Game>, abandoned: boolean): Game => ({
  id: 'g', game: 'sequence', players: 2, teams: 2, status: 'finished', rated: true, clock: {}, created_at: '', seed_hash: '', ply: 40,
  result: { status: 'finished', winner: 0 },
  seats: [
    { seat: 0, team: 0, user: { id: 'u1', username: 'ann' }, bot: abandoned ? 'greedy' : undefined, open: false, filled_by_bot: abandoned, abandoned },
    { seat: 1, team: 1, user: { id: 'u2', username: 'bob' }, open: false, filled_by_bot: false, abandoned: false },
  ],
  ...over,
});

describe('"My games" outcome', () => {
  it('is "abandoned", never "won", for a person whose seat a fill-in bot took over', () => {
    expect(outcome(game({}, false), 'u1')).toBe('won');
    expect(outcome(game({}, true), 'u1')).toBe('abandoned');
    expect(outcome(game({ game: 'stacks' }, true), 'u1')).toBe('abandoned');
    expect(outcome(game({ status: 'active', result: undefined }, true), 'u1')).toBe('abandoned');
    expect(outcome(game({}, true), 'u2')).toBe('lost');
  });
});
