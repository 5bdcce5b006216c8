// The server's time as this device can tell it. Turn deadlines, a kept
// seat's end and the like are the server's instants: counted down against
// the device's own clock, a device whose clock is 30 s slow showed a 30 s
// turn clock at 1:00 beside the 0:30 every other screen showed, and one 30 s
// fast showed 0:00 while the turn still had its time. Every API answer's
// Date header says the server's time to the second; the answer was made
// between the request's sending and its arrival, so each one bounds the
// offset (server time − device time), and the bounds of several answers
// narrow it below a second.

/** ServerClock keeps the bounds on the offset that the answers seen so far allow. */
export class ServerClock {
  private lo = -Infinity;
  private hi = Infinity;

  /**
   * note takes one answer's Date header, with the device's time when its
   * request was sent and when the answer came. An answer that contradicts
   * the bounds kept (the device's clock was set meanwhile) starts them anew.
   */
  note(date: string | null, sentAt: number, receivedAt: number): void {
    if (!date) return;
    const server = Date.parse(date);
    if (isNaN(server) || receivedAt < sentAt) return;
    // made at server time [server, server + 1 s), device time [sentAt, receivedAt]
    const lo = server - receivedAt;
    const hi = server + 1000 - sentAt;
    if (lo > this.hi || hi < this.lo) {
      this.lo = lo;
      this.hi = hi;
      return;
    }
    this.lo = Math.max(this.lo, lo);
    this.hi = Math.min(this.hi, hi);
  }

  /**
   * offset is the correction to add to the device's time: none while the
   * answers allow none (a device in step with the server is left exactly
   * as it was, so two such screens never differ by the header's rounding),
   * else the smallest one they allow.
   */
  offset(): number {
    if (this.lo > 0) return this.lo;
    if (this.hi < 0) return this.hi;
    return 0;
  }

  /** reset forgets every answer (a test's device clock set anew). */
  reset(): void {
    this.lo = -Infinity;
    this.hi = Infinity;
  }

  /** now is the server's time now, by this device's clock and the offset. */
  now(deviceNow = Date.now()): number {
    return deviceNow + this.offset();
  }
}

/** serverClock is the one the API client feeds and the clocks on the page read. */
export const serverClock = new ServerClock();
