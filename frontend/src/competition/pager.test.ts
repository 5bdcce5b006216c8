import { describe, expect, it } from 'vitest';
import { cursorOf, fetchAll, firstPage, leaderboardPath, listPath, MAX_PAGES, next, pagePath, prev } from './pager';
import type { ListPage } from './pager';

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
    expect(pagePath({ pool: 'stacks', club: 'c', cursor: 'a+b=', page: 2 })).toBe('/leaderboards/stacks?club=c&cursor=a%2Bb%3D&page=2');
    expect(pagePath({ pool: 'stacks', page: 2 })).toBe('/leaderboards/stacks');
  });
});

describe('lists by pages', () => {
  it('adds limit and cursor to a path with or without a query', () => {
    expect(listPath('/clubs/c1/leagues', '', 20)).toBe('/clubs/c1/leagues?limit=20');
    expect(listPath('/tournaments?club=c1', 'a+b=', 20)).toBe('/tournaments?club=c1&limit=20&cursor=a%2Bb%3D');
  });

  it('fetchAll follows next_cursor to the last page, every item once', async () => {
    const pages: Record<string, ListPage<number>> = {
      '/x?limit=100': { items: [1, 2], next_cursor: 'p2' },
      '/x?limit=100&cursor=p2': { items: [3, 4], next_cursor: 'p3' },
      '/x?limit=100&cursor=p3': { items: [5], next_cursor: '' },
    };
    const asked: string[] = [];
    const all = await fetchAll(async (path) => {
      asked.push(path);
      return pages[path];
    }, '/x');
    expect(all).toEqual([1, 2, 3, 4, 5]);
    expect(asked).toHaveLength(3);
  });

  it('fetchAll stops at MAX_PAGES if the cursor never ends', async () => {
    let calls = 0;
    await fetchAll(async () => ({ items: [calls++], next_cursor: 'again' }), '/x');
    expect(calls).toBe(MAX_PAGES);
  });
});
