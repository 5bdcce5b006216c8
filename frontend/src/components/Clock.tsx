import { useEffect, useState } from 'preact/hooks';
import { serverClock } from '../api/serverClock';

/** remaining is the time left until deadline, never negative. */
export function remaining(deadline: string | undefined, now: number): number | null {
  if (!deadline) return null;
  const t = Date.parse(deadline);
  if (isNaN(t)) return null;
  return Math.max(0, t - now);
}

/**
 * formatClock shows whole seconds rounded down, so the clock never shows
 * more time than is left (a 15 s turn starts at 0:14.9…, shown 0:14, and
 * 0:00 is the last fraction of a second).
 */
export function formatClock(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** formatBank shows a time bank, which may run to days, as formatClock does, with hours past the hour (1:05:00). */
export function formatBank(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  if (s < 3600) return formatClock(ms);
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** Clock counts down to the turn deadline. */
export function Clock({ deadline, label = 'Time left', format = formatClock }: { deadline?: string; label?: string; format?: (ms: number) => string }) {
  // The interval only re-renders; the time is read at each render, so a new
  // deadline is never measured against a clock reading up to 250 ms old. It
  // is the server's time (the deadline is), so every screen shows one clock
  // whatever its device's clock says.
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!deadline) return;
    const t = setInterval(() => setTick((n) => n + 1), 250);
    return () => clearInterval(t);
  }, [deadline]);
  const ms = remaining(deadline, serverClock.now());
  if (ms == null) return null;
  return (
    <span class={ms < 10000 ? 'clock low' : 'clock'} role="timer" aria-label={`${label}: ${format(ms)}`}>
      <span aria-hidden="true">{format(ms)}</span>
    </span>
  );
}
