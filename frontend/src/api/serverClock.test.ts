import { describe, expect, it } from 'vitest';
import { ServerClock } from './serverClock';

const T = Date.parse('2030-01-01T12:00:00Z');
const header = (ms: number) => new Date(ms).toUTCString(); // whole seconds, as HTTP's Date is

describe('the server clock', () => {
  it("leaves a device in step with the server as it is, whatever the header's rounding", () => {
    const c = new ServerClock();
    // answers made at 12:00:00.700 and 12:00:05.200 by both clocks, each taking 100 ms
    c.note(header(T + 700), T + 650, T + 750);
    c.note(header(T + 5200), T + 5150, T + 5250);
    expect(c.offset()).toBe(0);
    expect(c.now(T + 9000)).toBe(T + 9000);
  });

  it('corrects a device 30 s slow to within the bounds its answers allow', () => {
    const c = new ServerClock();
    const skew = 30_000; // server time = device time + 30 s
    for (const at of [300, 2_900, 6_650, 9_050]) c.note(header(T + at), T + at - skew - 50, T + at - skew + 50);
    expect(c.offset()).toBeGreaterThan(skew - 400);
    expect(c.offset()).toBeLessThanOrEqual(skew);
    // a deadline 30 s away by the server reads 30 s, not 60
    expect(T + 30_000 + 30_000 - c.now(T + 30_000 - skew)).toBeLessThan(30_400);
  });

  it('corrects a device 30 s fast the other way', () => {
    const c = new ServerClock();
    for (const at of [300, 2_900, 6_650]) c.note(header(T + at), T + at + 30_000 - 50, T + at + 30_000 + 50);
    expect(c.offset()).toBeLessThan(-29_000);
    expect(c.offset()).toBeGreaterThanOrEqual(-30_000 - 1000);
  });

  it('starts anew when the device clock was set meanwhile, and skips answers without a date', () => {
    const c = new ServerClock();
    c.note(header(T + 300), T + 300 - 30_000, T + 300 - 30_000 + 100);
    expect(c.offset()).toBeGreaterThan(29_000);
    c.note(null, T, T + 100);
    c.note('not a date', T, T + 100);
    expect(c.offset()).toBeGreaterThan(29_000);
    // the device is set right: the next answer contradicts the bounds kept
    c.note(header(T + 10_300), T + 10_250, T + 10_350);
    expect(c.offset()).toBe(0);
  });
});
