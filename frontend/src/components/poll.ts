import { useEffect, useRef } from 'preact/hooks';

/**
 * usePoll calls fn every ms while active, skipping the calls that fall while
 * the tab is hidden (nobody is looking; the next shown one catches up). It
 * always calls the latest fn, so a new render does not restart the timer.
 */
export function usePoll(fn: () => void, ms: number, active = true) {
  const latest = useRef(fn);
  latest.current = fn;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (!document.hidden) latest.current();
    }, ms);
    return () => clearInterval(timer);
  }, [ms, active]);
}
