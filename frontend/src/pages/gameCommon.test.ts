import { describe, expect, it } from 'vitest';
import type { GameView } from '../api/types';
import { resultText } from './gameCommon';

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
      'ann wins, adjudicated at the round deadline.',
    );
  });
});
