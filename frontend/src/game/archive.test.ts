import { describe, expect, it, vi } from 'vitest';
import { normalizeArchive, positionFromVector, seedCheckText, verifySeed } from './archive';
import { finishedArchive } from '../testing/archive';

const apiArchive = finishedArchive;

describe('the archive', () => {
  it('reads the record the API answers', () => {
    const a = normalizeArchive(apiArchive);
    expect(a.id).toBe('g1');
    expect(a.game).toBe('sequence');
    expect(a.seats.map((s) => s.username)).toEqual(['ann', 'bot-random']);
    expect(a.seats[1].bot).toBe('random');
    expect(a.winner).toBe(0);
    expect(a.result).toBe('finished');
    expect(a.endedBy).toBe('');
    expect(normalizeArchive({ ...apiArchive, game: { ...apiArchive.game, ended_by: 'adjudication' } }).endedBy).toBe('adjudication');
    expect(a.startedAt).toBe('2026-01-01T00:00:00Z');
    expect(a.moves[1]).toEqual({ ply: 1, seat: 1, move: 'AH@g5', by: 'bot', user_id: undefined, at: 't1' });
  });

  it('reads a drawn Stacks game', () => {
    const a = normalizeArchive({
      ...apiArchive,
      game: { ...apiArchive.game, game: 'stacks', variant: undefined, result: { status: 'drawn', winner: null } },
      setup: { game: 'stacks', players: 2, teams: 2 },
      moves: [{ ply: 0, seat: 0, move: '/R5', by: 'player', at: 't' }],
    });
    expect(a.game).toBe('stacks');
    expect(a.result).toBe('drawn');
    expect(a.winner).toBeNull();
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
    expect(await verifySeed('ab', hash)).toBe('match');
    expect(await verifySeed('ac', hash)).toBe('mismatch');
  });

  it('tells a seed that does not match from one it could not check', async () => {
    const hash = '087d80f7f182dd44f184aa86ca34488853ebcc04f0c60d5294919a466b463831';
    expect(await verifySeed('ac', hash)).toBe('mismatch');
    expect(seedCheckText('mismatch')).toMatch(/does NOT match the hash published at the start/);
    expect(seedCheckText('unchecked')).toMatch(/could not check/);
    expect(seedCheckText('mismatch')).not.toMatch(/could not check/);
    vi.stubGlobal('crypto', {});
    try {
      expect(await verifySeed('ab', hash)).toBe('unchecked');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
