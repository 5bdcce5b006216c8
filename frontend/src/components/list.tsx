// A list the API serves by pages, shown a page at a time with a "Show
// more" button that follows next_cursor (as the clubs list does), so that
// nothing past the first page is silently left out.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { listPath, type ListPage } from '../competition/pager';
import { api } from '../session';
import { Loading } from './ui';

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
  const read = useCallback(
    (after: string, replace: boolean) => {
      const my = replace ? ++gen.current : gen.current;
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

/** ShowMore is the button under a paged list while it has more pages. */
export function ShowMore<T>({ list, label = 'Show more' }: { list: PagedList<T>; label?: string }) {
  if (list.loading && list.data) return <Loading />;
  if (!list.cursor || list.loading) return null;
  return (
    <button type="button" onClick={list.more}>
      {label}
    </button>
  );
}
