// A list the API serves by pages, shown a page at a time with a "Show
// more" button that follows next_cursor (as the clubs list does), so that
// nothing past the first page is silently left out.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { listPath, type ListPage } from '../competition/pager';
import { api } from '../session';
import { usePoll } from './poll';

/** PAGE_SIZE is how many items a list shows at first and adds per "Show more". */
export const PAGE_SIZE = 20;

export interface PagedList<T> {
  /** undefined until the first page is in */
  data: T[] | undefined;
  error: unknown;
  loading: boolean;
  /** the next_cursor of the last page read ('' on the last page) */
  cursor: string;
  more: () => void;
  reload: () => void;
}

/** usePagedList reads the first page of path (none while path is null) and appends the next on more(). */
export function usePagedList<T>(path: string | null, deps: unknown[]): PagedList<T> {
  const [data, setData] = useState<T[] | undefined>(undefined);
  const [cursor, setCursor] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  // a reload or new path outdates the pages being read
  const gen = useRef(0);
  // the path whose pages data holds: another path's are not shown while its own are read
  const shown = useRef<string | null | undefined>(undefined);
  const read = useCallback(
    (after: string, replace: boolean) => {
      const my = replace ? ++gen.current : gen.current;
      if (replace && path !== shown.current) {
        shown.current = path;
        setData(undefined);
        setCursor('');
        setError(null);
      }
      if (path === null) {
        setData([]);
        setCursor('');
        setLoading(false);
        return;
      }
      setLoading(true);
      api.get<ListPage<T>>(listPath(path, after, PAGE_SIZE)).then(
        (p) => {
          if (my !== gen.current) return;
          setData((old) => (replace || !old ? p.items : [...old, ...p.items]));
          setCursor(p.next_cursor ?? '');
          setError(null);
          setLoading(false);
        },
        (e) => {
          if (my !== gen.current) return;
          setError(e);
          setLoading(false);
        },
      );
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    deps,
  );
  const reload = useCallback(() => read('', true), [read]);
  useEffect(reload, [reload]);
  return { data, error, loading, cursor, more: () => read(cursor, false), reload };
}

/** REFRESH_MS is how often a list of live things (games) is read again. */
export const REFRESH_MS = 30_000;

/**
 * useRefresh reads list's first page again every ms while the tab is shown,
 * so that a page left open keeps up (a game that now waits for one's move,
 * a new one to join). Once a later page has been asked for it stops: the
 * first page read again would drop the pages after it.
 */
export function useRefresh<T>(list: PagedList<T>, ms = REFRESH_MS) {
  usePoll(list.reload, ms, (list.data?.length ?? 0) <= PAGE_SIZE);
}

/** listBefore is the list a "Show more" button follows: the nearest list or table before it. */
function listBefore(el: Element | null): Element | null {
  for (let e = el?.previousElementSibling ?? null; e; e = e.previousElementSibling) {
    if (e.matches('ul, ol, table')) return e;
    const inner = e.querySelector('ul, ol, table');
    if (inner) return inner;
  }
  return null;
}

function itemsOf(list: Element): Element[] {
  return list.matches('table') ? [...list.querySelectorAll('tbody > tr')] : [...list.children];
}

/** focusItem gives the focus to item's first link or button, else to the item itself. */
function focusItem(item: HTMLElement) {
  const inner = item.querySelector<HTMLElement>('a[href], button:not([disabled]), input, select, textarea');
  if (inner) return inner.focus();
  if (!item.hasAttribute('tabindex')) item.setAttribute('tabindex', '-1');
  item.focus();
}

/**
 * ShowMore is the button under a paged list while it has more pages. It
 * stays in place (saying "Loading…") while the next page is read, so the
 * focus stays on it; when the last page is in and the button goes, the
 * focus moves to the first item it added (or to the list), not to the page.
 */
export function ShowMore<T>({ list, label = 'Show more' }: { list: PagedList<T>; label?: string }) {
  const button = useRef<HTMLButtonElement>(null);
  // set by a click: the list and how many items it had
  const pending = useRef<{ list: Element | null; count: number } | null>(null);
  const waiting = list.loading && !!list.data;
  useEffect(() => {
    const p = pending.current;
    if (!p || list.loading) return;
    pending.current = null;
    const active = document.activeElement;
    // leave the focus alone if the person moved it elsewhere meanwhile
    if (active && active !== document.body && active !== button.current) return;
    if (button.current?.isConnected) return button.current.focus();
    if (!p.list?.isConnected) return;
    const added = itemsOf(p.list)[p.count] as HTMLElement | undefined;
    if (added) return focusItem(added);
    if (!p.list.hasAttribute('tabindex')) p.list.setAttribute('tabindex', '-1');
    (p.list as HTMLElement).focus();
  });
  if (!list.data || !list.cursor) return null;
  const more = () => {
    if (waiting) return;
    const l = listBefore(button.current);
    pending.current = { list: l, count: l ? itemsOf(l).length : 0 };
    list.more();
  };
  return (
    <button type="button" ref={button} class="show-more" aria-disabled={waiting ? 'true' : undefined} onClick={more}>
      {waiting ? 'Loading…' : label}
    </button>
  );
}
