import { describe, expect, it } from 'vitest';
import { GameStream, streamURL } from './stream';

class FakeES {
  static all: FakeES[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  listeners = new Map<string, (e: MessageEvent) => void>();
  constructor(public url: string) {
    FakeES.all.push(this);
  }
  addEventListener(kind: string, fn: (e: MessageEvent) => void) {
    this.listeners.set(kind, fn);
  }
  close() {
    this.readyState = 2;
  }
  emit(kind: string, data: unknown, id = '') {
    this.listeners.get(kind)!(new MessageEvent(kind, { data: JSON.stringify(data), lastEventId: id }));
  }
}

describe('the game stream', () => {
  it('builds the URL with the token and the resume point', () => {
    expect(streamURL('g 1', 'T', null)).toBe('/api/v1/games/g%201/events?access_token=T');
    expect(streamURL('g', null, '7')).toBe('/api/v1/games/g/events?last_event_id=7');
  });

  it('delivers events and reopens from the last event ID with a fresh token when refused', async () => {
    FakeES.all = [];
    let token = 'T1';
    const events: unknown[] = [];
    const ups: boolean[] = [];
    const timers: (() => void)[] = [];
    const s = new GameStream('g', {
      token: () => token,
      refresh: async () => {
        token = 'T2';
        return true;
      },
      onEvent: (e) => events.push(e.kind),
      onConnected: (u) => ups.push(u),
      open: (u) => new FakeES(u) as unknown as EventSource,
      setTimer: (fn) => timers.push(fn),
    }).start();
    const first = FakeES.all[0];
    first.onopen!();
    first.emit('state', { kind: 'state', view: {} }, '3');
    first.emit('move', { kind: 'move', view: {} }, '4');
    expect(events).toEqual(['state', 'move']);
    // a transient error: the browser retries, nothing for us to do
    first.readyState = 0;
    first.onerror!();
    expect(timers).toHaveLength(0);
    // a refusal (401): closed for good; we refresh and resume from id 4
    first.readyState = 2;
    first.onerror!();
    expect(timers).toHaveLength(1);
    await timers[0]();
    expect(FakeES.all).toHaveLength(2);
    expect(FakeES.all[1].url).toBe('/api/v1/games/g/events?access_token=T2&last_event_id=4');
    expect(ups).toEqual([true, false, false]);
    s.close();
    expect(FakeES.all[1].readyState).toBe(2);
  });

  // The server ends the stream of a game that can no longer change after its
  // end; an EventSource left open reopens a closed stream by itself, and was
  // answered the end again, and again, every few seconds for as long as the
  // page stayed open.
  it('closes after the end of a game that can no longer change, and not after a casual game is over', () => {
    const cases: [string, Record<string, unknown>, boolean][] = [
      ['a table called off', { status: 'aborted', created_by: 'u' }, true],
      ["a cancelled tournament's game", { status: 'aborted', tournament_id: 't' }, true],
      ["a finished tournament's game", { status: 'finished', tournament_id: 't' }, true],
      ['a finished casual game (a rematch may come)', { status: 'finished', created_by: 'u' }, false],
      ['a game being played', { status: 'active', created_by: 'u' }, false],
    ];
    for (const [what, view, closes] of cases) {
      FakeES.all = [];
      const events: string[] = [];
      const s = new GameStream('g', {
        token: () => null,
        refresh: async () => true,
        onEvent: (e) => events.push(e.kind),
        onConnected: () => {},
        open: (u) => new FakeES(u) as unknown as EventSource,
        setTimer: () => {},
      }).start();
      const es = FakeES.all[0];
      es.onopen!();
      es.emit('end', { kind: 'end', view });
      expect(events, what).toEqual(['end']);
      expect(es.readyState, what).toBe(closes ? 2 : 0);
      s.close();
    }
  });
});
