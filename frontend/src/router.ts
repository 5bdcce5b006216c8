// A tiny router: a table of path patterns (see routes.tsx), the History
// API, and links that navigate without reloading. Later pages (tournaments,
// leaderboards) are one more row in the table.
import { useEffect, useState } from 'preact/hooks';

export type Params = Record<string, string>;

/** matchPath("/games/:id", "/games/42") is {id: "42"}; null if no match. */
export function matchPath(pattern: string, path: string): Params | null {
  const ps = pattern.split('/').filter(Boolean);
  const xs = path.split('/').filter(Boolean);
  if (ps.length !== xs.length) return null;
  const params: Params = {};
  for (let i = 0; i < ps.length; i++) {
    if (ps[i].startsWith(':')) {
      try {
        params[ps[i].slice(1)] = decodeURIComponent(xs[i]);
      } catch {
        return null;
      }
    } else if (ps[i] !== xs[i]) return null;
  }
  return params;
}

const listeners = new Set<() => void>();

export function navigate(to: string, replace = false) {
  if (to === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  listeners.forEach((l) => l());
  window.scrollTo?.(0, 0);
}

if (typeof window !== 'undefined') {
  window.addEventListener('popstate', () => listeners.forEach((l) => l()));
}

/** useLocation re-renders on navigation and answers the current URL. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, tick] = useState(0);
  useEffect(() => {
    const l = () => tick((n) => n + 1);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** onLinkClick turns clicks on same-origin <a href> into navigations. */
export function onLinkClick(e: MouseEvent) {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = (e.target as Element | null)?.closest?.('a');
  if (!a || a.target || a.hasAttribute('download')) return;
  const href = a.getAttribute('href');
  if (!href || !href.startsWith('/') || href.startsWith('//') || href.startsWith('/api/')) return;
  e.preventDefault();
  navigate(href);
}

/**
 * signInHref is the sign-in page's address, coming back afterwards to the
 * page one is on (or to back): "Sign in to register" once led home.
 */
export function signInHref(back = location.pathname + location.search): string {
  return back === '/' || !back.startsWith('/') || back.startsWith('//') ? '/signin' : `/signin?next=${encodeURIComponent(back)}`;
}
