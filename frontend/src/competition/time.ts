// Dates for <input type="datetime-local"> (local wall-clock time, no zone)
// and the API (RFC 3339 instants).

import type { Clock } from '../api/types';
import { counted } from '../components/plural';
import { serverClock } from '../api/serverClock';

const pad = (n: number) => String(n).padStart(2, '0');

/** toLocalInput formats an instant as a datetime-local value, in local time. */
export function toLocalInput(d: Date, seconds = true): string {
  const s = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return seconds ? `${s}:${pad(d.getSeconds())}` : s;
}

/** fromLocalInput reads a datetime-local value (local time) as an ISO instant; undefined if empty or invalid. */
export function fromLocalInput(v: string): string | undefined {
  if (!v || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v)) return undefined;
  const [date, time] = v.split('T');
  const [y, mo, d] = date.split('-').map(Number);
  const [h, mi, s] = time.split(':').map(Number);
  const out = new Date(y, mo - 1, d, h, mi, Math.floor(s || 0));
  return isNaN(out.getTime()) ? undefined : out.toISOString();
}

export const UNITS = { seconds: 1, minutes: 60, hours: 3600, days: 86400 } as const;
export type Unit = keyof typeof UNITS;

/** duration shows seconds as "90 s", "5 min", "2 h", "1 day". */
export function duration(sec: number): string {
  if (sec % 86400 === 0 && sec >= 86400) return `${sec / 86400} day${sec === 86400 ? '' : 's'}`;
  if (sec % 3600 === 0 && sec >= 3600) return `${sec / 3600} h`;
  if (sec % 60 === 0 && sec >= 60) return `${sec / 60} min`;
  return `${sec} s`;
}

/** clockText says a game's clock in words: "5 min bank + 5 s a move", "1 min a turn", "untimed". */
export function clockText(c: Clock | undefined): string {
  if (c?.bank_seconds) return `${duration(c.bank_seconds)} bank${c.increment_seconds ? ` + ${duration(c.increment_seconds)} a move` : ''}`;
  return c?.turn_seconds ? `${duration(c.turn_seconds)} a turn` : 'untimed';
}

/** relative says how far away an instant of the server's is: "in 5 min", "2 h ago" (by the server's time, as the instant is). */
export function relative(iso: string | undefined, now = serverClock.now()): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (isNaN(t)) return '';
  const s = Math.round((t - now) / 1000);
  const a = Math.abs(s);
  // each unit as rounded, so that 59 min 40 s reads "1 h", not "60 min" (and 23 h 45 min "1 day")
  const minutes = Math.round(a / 60);
  const hours = Math.round(a / 3600);
  const txt = a < 60 ? `${a} s` : minutes < 60 ? `${minutes} min` : hours < 24 ? `${hours} h` : counted(Math.round(a / 86400), 'day');
  if (a < 5) return 'now';
  return s > 0 ? `in ${txt}` : `${txt} ago`;
}

/**
 * timeOfDay says a server instant as this device's wall-clock time ("00:43"), the device's clock set
 * right by the server's (a kept seat's end, say: "kept for bob (in 5 min)" read as bob arriving then).
 */
export function timeOfDay(iso: string, now = serverClock.now()): string {
  const t = Date.parse(iso);
  if (isNaN(t)) return '';
  return new Date(t - (now - Date.now())).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}
