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

describe('a list of tournaments', () => {
  it('says "1 entry", not "1 entries"', async () => {
    const { render } = await import('preact');
    const { TournamentList } = await import('../pages/Leagues');
    const el = document.createElement('div');
    const t = { id: 't1', name: 'Cup', status: 'registration', game: 'sequence', format: 'swiss', entries: 1, current_round: 0 } as unknown as Tournament;
    render(<TournamentList items={[t, { ...t, id: 't2', entries: 3 }]} empty="" />, el);
    const lines = [...el.querySelectorAll('li')].map((li) => li.textContent);
    expect(lines[0]).toMatch(/· 1 entry$/);
    expect(lines[1]).toMatch(/· 3 entries$/);
  });
});
