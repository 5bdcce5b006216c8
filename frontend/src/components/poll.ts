import { useEffect, useRef } from 'preact/hooks';

/**
 * usePoll calls fn every ms while active, skipping the calls that fall while
 * the tab is hidden (nobody is looking). A tab shown again after a skipped
 * call calls fn at once: the header's count of games waiting for the
 * player's move, read last before the tab was left, stayed as it was for up
 * to a whole period more after the player came back to it.
 */
export function usePoll(fn: () => void, ms: number, active = true) {
  const latest = useRef(fn);
  latest.current = fn;
  useEffect(() => {
    if (!active) return;
    let missed = false;
    const timer = setInterval(() => {
      if (document.hidden) missed = true;
      else latest.current();
    }, ms);
    const shown = () => {
      if (document.hidden || !missed) return;
      missed = false;
      latest.current();
    };
    document.addEventListener('visibilitychange', shown);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', shown);
    };
  }, [ms, active]);
}
