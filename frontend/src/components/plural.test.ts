import { describe, expect, it } from 'vitest';
import type { Tournament } from '../api/types';
import { formatText } from '../pages/Tournament';
import { counted } from './plural';

describe('counted', () => {
  it('is singular for one only', () => {
    expect(counted(0, 'member')).toBe('0 members');
    expect(counted(1, 'member')).toBe('1 member');
    expect(counted(2, 'match', 'matches')).toBe('2 matches');
  });
  it('names a Swiss tournament of one round "1 round", not "1 rounds"', () => {
    const t = { format: 'swiss', rounds: 1 } as Tournament;
    expect(formatText(t)).toBe('Swiss (1 round)');
    expect(formatText({ ...t, rounds: 5 })).toBe('Swiss (5 rounds)');
  });
});
