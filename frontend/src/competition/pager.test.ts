import { describe, expect, it } from 'vitest';
import { cursorOf, firstPage, leaderboardPath, next, pagePath, prev } from './pager';

describe('keyset pagination', () => {
  it('follows next_cursor forward and remembers the way back', () => {
    let p = firstPage();
    expect(cursorOf(p)).toBe('');
    p = next(p, 'c2');
    p = next(p, 'c3');
    expect(cursorOf(p)).toBe('c3');
    expect(p.index).toBe(2);
    p = prev(p);
    expect(cursorOf(p)).toBe('c2');
    p = prev(prev(p));
    expect(cursorOf(p)).toBe('');
    expect(p.index).toBe(0);
    // forward again from page 1 forgets nothing it needs
    p = next(p, 'c2');
    expect(p.cursors).toEqual(['', 'c2']);
  });

  it('stays on the last page (empty next_cursor)', () => {
    const p = next(firstPage(), '');
    expect(p.index).toBe(0);
  });

  it('builds the API path and the page URL from the filters', () => {
    expect(leaderboardPath({ pool: 'stacks' })).toBe('/leaderboards/stacks?limit=25');
    expect(leaderboardPath({ pool: 'sequence-2team', club: 'c1', league: 'l1', provisional: true, cursor: 'abc=', limit: 10 })).toBe(
      '/leaderboards/sequence-2team?limit=10&club=c1&league=l1&provisional=true&cursor=abc%3D',
    );
    expect(pagePath({ pool: 'stacks' })).toBe('/leaderboards/stacks');
    expect(pagePath({ pool: 'stacks', club: 'c', provisional: true })).toBe('/leaderboards/stacks?club=c&provisional=1');
  });
});
