import { useEffect, useState } from 'preact/hooks';

/** remaining is the time left until deadline, never negative. */
export function remaining(deadline: string | undefined, now: number): number | null {
  if (!deadline) return null;
  const t = Date.parse(deadline);
  if (isNaN(t)) return null;
  return Math.max(0, t - now);
}

export function formatClock(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Clock counts down to the turn deadline. */
export function Clock({ deadline, label = 'Time left' }: { deadline?: string; label?: string }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!deadline) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [deadline]);
  const ms = remaining(deadline, now);
  if (ms == null) return null;
  return (
    <span class={ms < 10000 ? 'clock low' : 'clock'} role="timer" aria-label={`${label}: ${formatClock(ms)}`}>
      <span aria-hidden="true">{formatClock(ms)}</span>
    </span>
  );
}
