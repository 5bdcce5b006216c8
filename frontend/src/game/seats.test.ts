import { describe, expect, it } from 'vitest';
import type { AbandonedWhy, MoveRecord, Seat } from '../api/types';
import { fillInBadge, lateMoveText, mySeatTaken, seatTakenText } from './seats';

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

  it('says why the seat was abandoned, and a loss only in a rated game', () => {
    const left = { ...casual, seats: taken({ abandoned_why: 'left' }) };
    expect(seatTakenText(left)).toBe('A fill-in bot now plays your seat: you left the game. You can no longer move in this game.');
    expect(seatTakenText({ ...left, rated: true })).toBe(
      'A fill-in bot now plays your seat: you left the game. You can no longer move in this game, and it counts as a loss for your rating.',
    );
    expect(seatTakenText({ ...left, tournament_id: 't1' })).toBe('A fill-in bot now plays your seat: you left the game. You can no longer move in this game.');
    const why = (w: AbandonedWhy) => seatTakenText({ ...casual, seats: taken({ abandoned_why: w }), tournament_id: 't1' });
    expect(why('timed_out')).toBe('A fill-in bot now plays your seat: too many of your turns timed out in a row. You can no longer move in this game.');
    expect(why('no_show')).toBe('A fill-in bot now plays your seat: you had not moved when the round’s deadline came. You can no longer move in this game.');
    expect(why('account_closed')).toBe('A fill-in bot now plays your seat: your account was closed. You can no longer move in this game.');
  });

  it('badges a fill-in bot with why its player abandoned the seat', () => {
    expect(fillInBadge({ abandoned: false })).toBe('fill-in bot');
    expect(fillInBadge({ abandoned: true })).toBe('fill-in bot (seat abandoned)');
    expect(fillInBadge({ abandoned: true, abandoned_why: 'left' })).toBe('fill-in bot (player left)');
    expect(fillInBadge({ abandoned: true, abandoned_why: 'timed_out' })).toBe('fill-in bot (player timed out)');
    expect(fillInBadge({ abandoned: true, abandoned_why: 'no_show' })).toBe('fill-in bot (player never moved)');
    expect(fillInBadge({ abandoned: true, abandoned_why: 'account_closed' })).toBe('fill-in bot (account closed)');
  });

  it('names no round deadline in a casual game, where a seat abandoned before the server kept why does not say whether the player left or timed out', () => {
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
    expect(seatTakenText({ seats: [seat(0, 'ann'), seat(1, 'bob')], your_seat: 0, rated: true })).toBe('');
    expect(seatTakenText({ ...casual, your_seat: null })).toBe('');
    expect(mySeatTaken({ ...casual, your_seat: 1 })).toBe(false);
  });
});
