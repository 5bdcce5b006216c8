import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { Clock, formatClock } from './Clock';
import { serverClock } from '../api/serverClock';

afterEach(() => vi.useRealTimers());

describe('the turn clock', () => {
  it('never shows more time than is left', () => {
    expect(formatClock(15000)).toBe('0:15');
    expect(formatClock(14999)).toBe('0:14');
    expect(formatClock(15240)).toBe('0:15');
    expect(formatClock(400)).toBe('0:00');
  });

  it('measures a new deadline against the time now, not the last tick', () => {
    vi.useFakeTimers();
    const t0 = Date.parse('2030-01-01T00:00:00Z');
    vi.setSystemTime(t0);
    const root = document.createElement('div');
    document.body.appendChild(root);
    const at = (ms: number) => new Date(ms).toISOString();
    act(() => render(<Clock deadline={at(t0 + 30000)} />, root));
    act(() => void vi.advanceTimersByTime(1000)); // ticks at 250…1000 ms
    vi.setSystemTime(t0 + 1240); // 240 ms after the last tick, the turn changes
    act(() => render(<Clock deadline={at(t0 + 1240 + 15000)} />, root));
    expect(root.textContent).toBe('0:15');
    act(() => void vi.advanceTimersByTime(300));
    expect(root.textContent).toBe('0:14');
    render(null, root);
  });

  it("counts down in the server's time on a device whose clock is 30 s slow", () => {
    vi.useFakeTimers();
    const server = Date.parse('2030-01-01T00:00:00Z');
    const device = server - 30_000;
    vi.setSystemTime(device);
    // an answer made at 00:00:00 by the server reached this device within 100 ms of its 23:59:30
    serverClock.note(new Date(server).toUTCString(), device - 50, device + 50);
    const root = document.createElement('div');
    document.body.appendChild(root);
    act(() => render(<Clock deadline={new Date(server + 30_000).toISOString()} />, root));
    // every screen in step with the server shows 0:30 (or 0:29); this one showed 1:00
    expect(['0:30', '0:29']).toContain(root.textContent);
    render(null, root);
    serverClock.reset();
  });
});
