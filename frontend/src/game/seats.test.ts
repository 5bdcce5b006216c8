import { describe, expect, it } from 'vitest';
import type { MoveRecord, Seat } from '../api/types';
import { lateMoveText, mySeatTaken, seatTakenText } from './seats';

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

// After leaving a casual, unrated game the word was "…you left the game, too many of your turns timed out in a
// row, or you had not moved when the round's deadline came. … it counts as abandoned (a loss) for you": three
// causes, one impossible outside a tournament, and a loss the confirmation had said only a rated game counts.
describe('the word that a fill-in bot took the seat', () => {
  const taken = (over: Partial<Seat>) => [{ ...seat(0, 'ann'), bot: 'greedy', filled_by_bot: true, abandoned: true, ...over }, seat(1, 'bob')];
  const casual = { seats: taken({}), your_seat: 0, rated: false };

  it('says the player left, from the page that left, and a loss only in a rated game', () => {
    expect(seatTakenText(casual, true)).toBe('A fill-in bot now plays your seat: you left the game. You can no longer move in this game.');
    expect(seatTakenText({ ...casual, rated: true }, true)).toBe(
      'A fill-in bot now plays your seat: you left the game. You can no longer move in this game, and it counts as a loss for your rating.',
    );
    expect(seatTakenText({ ...casual, tournament_id: 't1' }, true)).toBe('A fill-in bot now plays your seat: you left the game. You can no longer move in this game.');
  });

  it('names no round deadline in a casual game, where the view does not say whether the player left or timed out', () => {
    const text = seatTakenText(casual);
    expect(text).toBe('A fill-in bot now plays your seat: you left the game, or too many of your turns timed out in a row. You can no longer move in this game.');
    expect(text).not.toMatch(/deadline|loss|abandoned/);
    expect(seatTakenText({ ...casual, rated: true })).toMatch(/timed out in a row\. You can no longer move in this game, and it counts as a loss for your rating\.$/);
  });

  it("names the round's deadline in a tournament's game, and says the bots finish for a player who had moved, with no loss", () => {
    expect(seatTakenText({ ...casual, rated: true, tournament_id: 't1' })).toBe(
      'A fill-in bot now plays your seat: you left the game, too many of your turns timed out in a row, or you had not moved when the round’s deadline came. You can no longer move in this game, and it counts as a loss for your rating.',
    );
    // handed to the bots at the deadline after moving: not abandoned, the result is theirs
    const finished = { seats: taken({ abandoned: false }), your_seat: 0, rated: true, tournament_id: 't1' };
    expect(mySeatTaken(finished)).toBe(true);
    expect(seatTakenText(finished)).toBe('A fill-in bot now plays your seat: the round’s deadline came, and it finishes the game for you. You can no longer move in this game.');
  });

  it('says nothing while the player holds the seat, or to a spectator', () => {
    expect(seatTakenText({ seats: [seat(0, 'ann'), seat(1, 'bob')], your_seat: 0, rated: true }, true)).toBe('');
    expect(seatTakenText({ ...casual, your_seat: null })).toBe('');
    expect(mySeatTaken({ ...casual, your_seat: 1 })).toBe(false);
  });
});
