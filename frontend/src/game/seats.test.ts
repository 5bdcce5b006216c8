import { describe, expect, it } from 'vitest';
import type { MoveRecord, Seat } from '../api/types';
import { lateMoveText } from './seats';

const seat = (i: number, username: string): Seat => ({ seat: i, team: i, user: { id: `u${i}`, username }, open: false, filled_by_bot: false, abandoned: false });
const view = { seats: [seat(0, 'ann'), seat(1, 'bob'), seat(2, 'cat')], your_seat: 0 };
const mv = (ply: number, s: number, move: string, by = 'player'): MoveRecord => ({ ply, seat: s, move, by, at: '' });
const describe_ = (m: string) => `did ${m}`;
const name = (s: number) => view.seats[s].user!.username;

describe('the word on a move that lost a race', () => {
  it('says each turn played first once, the first three, then how many more', () => {
    const first = [mv(4, 1, 'x'), mv(5, 1, 'y'), mv(6, 2, 'z'), mv(7, -1, 'close', 'server'), mv(8, 1, 'w'), mv(9, 2, 'v')];
    expect(lateMoveText(view, 'm', first, describe_, name)).toBe(
      'Too late: bob did x, did y, then cat did z, then the block window closed (nobody had blocked), then 2 more turns, before your move (did m) arrived. It was not played.',
    );
    expect(lateMoveText(view, 'BLOCK', [], describe_, name)).toBe('Too late: the game moved on, before your BLOCK arrived. It was not played.');
  });
});
