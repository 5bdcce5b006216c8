// Keyset pagination as the API gives it: every page answers next_cursor
// (empty on the last page). Going back needs the cursors of the pages seen,
// so the pager keeps them as a stack.

export interface Pager {
  /** cursors[i] fetches page i+1; cursors[0] is '' (the first page) */
  cursors: string[];
  /** the page shown, 0-based */
  index: number;
}

export const firstPage = (): Pager => ({ cursors: [''], index: 0 });

export const cursorOf = (p: Pager): string => p.cursors[p.index] ?? '';

/** next moves to the page after the current one, reached by its next_cursor. */
export function next(p: Pager, nextCursor: string): Pager {
  if (!nextCursor) return p;
  const cursors = p.cursors.slice(0, p.index + 1);
  cursors.push(nextCursor);
  return { cursors, index: p.index + 1 };
}

export function prev(p: Pager): Pager {
  return p.index > 0 ? { cursors: p.cursors, index: p.index - 1 } : p;
}

export interface LeaderboardQuery {
  pool: string;
  club?: string;
  league?: string;
  provisional?: boolean;
  limit?: number;
  cursor?: string;
  /** a user ID, or 'me': the page that shows that player (not with cursor) */
  around?: string;
}

/** leaderboardPath is the API path of one page. */
export function leaderboardPath(q: LeaderboardQuery): string {
  const p = new URLSearchParams();
  p.set('limit', String(q.limit ?? 25));
  if (q.club) p.set('club', q.club);
  if (q.league) p.set('league', q.league);
  if (q.provisional) p.set('provisional', 'true');
  if (q.cursor) p.set('cursor', q.cursor);
  else if (q.around) p.set('around', q.around);
  return `/leaderboards/${encodeURIComponent(q.pool)}?${p}`;
}

/**
 * pagePath is the app's own URL of a leaderboard view: its filters, and
 * past the first page its cursor (and page number, for "page 3"), so that
 * Back, a reload or a shared link comes to the same page; or the page
 * around a player (?around=, a user ID or me).
 */
export function pagePath(q: LeaderboardQuery & { page?: number }): string {
  const p = new URLSearchParams();
  if (q.club) p.set('club', q.club);
  if (q.league) p.set('league', q.league);
  if (q.provisional) p.set('provisional', '1');
  if (q.cursor) {
    p.set('cursor', q.cursor);
    if (q.page && q.page > 1) p.set('page', String(q.page));
  } else if (q.around) {
    p.set('around', q.around);
  }
  const s = p.toString();
  return `/leaderboards/${q.pool}${s ? '?' + s : ''}`;
}

// Lists the API pages with ?limit=&cursor= (GET /clubs, a club's leagues, a
// league's seasons, tournaments, entries, a user's clubs and tournaments):
// items and next_cursor, empty on the last page.
export interface ListPage<T> {
  items: T[];
  next_cursor?: string;
}

/** listPath is path asking for one page (limit items after cursor). */
export function listPath(path: string, cursor: string, limit: number): string {
  const p = new URLSearchParams({ limit: String(limit) });
  if (cursor) p.set('cursor', cursor);
  return `${path}${path.includes('?') ? '&' : '?'}${p}`;
}

/** The most pages fetchAll reads, so that a server that never ends a list cannot hold the app. */
export const MAX_PAGES = 100;

/**
 * fetchAll reads every page of a list, following next_cursor at the
 * largest page size: for pickers and for pages that must see the whole
 * list (a tournament's entries, the next rounds sorted by date).
 */
export async function fetchAll<T>(get: (path: string) => Promise<ListPage<T>>, path: string): Promise<T[]> {
  const items: T[] = [];
  let cursor = '';
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await get(listPath(path, cursor, 100));
    items.push(...(page.items ?? []));
    cursor = page.next_cursor ?? '';
    if (!cursor) break;
  }
  return items;
}
