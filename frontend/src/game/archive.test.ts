import { describe, expect, it } from 'vitest';
import { normalizeArchive, positionFromVector, verifySeed } from './archive';

// Shapes as the server sends them today (Go field names inside "game").
const goArchive = {
  game: {
    ID: 'g1', Game: 'sequence', Variant: 'classic', Players: 2, Teams: 2, ResultStatus: 'finished', Winner: 0,
    Seats: [
      { Seat: 0, Team: 0, UserID: 'u1', Username: 'ann', Bot: '' },
      { Seat: 1, Team: 1, UserID: 'b1', Username: 'bot-random', Bot: 'random' },
    ],
    StartedAt: '2026-01-01T00:00:00Z', FinishedAt: '2026-01-01T00:05:00Z',
  },
  setup: { Game: 'sequence', Variant: 'classic', Players: 2, Teams: 2 },
  seed: 'ab', seed_hash: 'x',
  moves: [
    { Ply: 0, Seat: 0, Move: 'JC@f1', Actor: 'player', UserID: 'u1', At: 't0' },
    { Ply: 1, Seat: 1, Move: 'AH@g5', Actor: 'bot', UserID: '', At: 't1' },
  ],
};

describe('the archive', () => {
  it('reads the stored record with Go field names', () => {
    const a = normalizeArchive(goArchive);
    expect(a.id).toBe('g1');
    expect(a.game).toBe('sequence');
    expect(a.seats.map((s) => s.username)).toEqual(['ann', 'bot-random']);
    expect(a.winner).toBe(0);
    expect(a.result).toBe('finished');
    expect(a.moves[1]).toEqual({ ply: 1, seat: 1, move: 'AH@g5', by: 'bot', user_id: undefined, at: 't1' });
  });

  it('reads the API spelling too', () => {
    const a = normalizeArchive({
      game: { id: 'g2', game: 'stacks', players: 2, teams: 2, seats: [{ seat: 0, team: 0, user: { id: 'u', username: 'bo' } }], result: { status: 'drawn', winner: null } },
      setup: { game: 'stacks', players: 2, teams: 2 },
      moves: [{ ply: 0, seat: 0, move: '/R5', by: 'player', at: 't' }],
    });
    expect(a.game).toBe('stacks');
    expect(a.seats[0].username).toBe('bo');
    expect(a.result).toBe('drawn');
    expect(a.moves[0].move).toBe('/R5');
  });

  it('turns vectors into positions with every hand', () => {
    const p = positionFromVector({
      game: 'sequence',
      position: { board: ['*....a...*'], sequences: {}, hands: [['TD'], ['2H']], discards: [['JC'], []], deck: ['2D', '9C'], turn: 1 },
      expect: { status: 'playing', winner: null },
    });
    expect(p.game).toBe('sequence');
    expect(p.hands).toEqual([['TD'], ['2H']]);
    expect(p.deckSize).toBe(2);
    const s = positionFromVector({ game: 'stacks', position: { piles: [], hands: [[], []], chips: [], deck: [], turn: 1 }, expect: { status: 'finished', winner: 1, deck_size: 27 } });
    expect(s.game).toBe('stacks');
    expect(s.deckSize).toBe(27);
    expect((s as { winner: number }).winner).toBe(1);
  });

  it('verifies the revealed seed against the published hash', async () => {
    // SHA-256 of the single byte 0xab
    const hash = '087d80f7f182dd44f184aa86ca34488853ebcc04f0c60d5294919a466b463831';
    expect(await verifySeed('ab', hash)).toBe(true);
    expect(await verifySeed('ac', hash)).toBe(false);
  });
});
