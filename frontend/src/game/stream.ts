// GameStream follows a game's SSE stream. EventSource reconnects by itself
// after a dropped connection (sending Last-Event-ID, so the server replays
// the missed moves); when the server refuses the stream instead (an
// expired access token in the URL), EventSource gives up, and GameStream
// refreshes the token and opens a new one from the last event ID it saw.
//
// The server ends the stream of a game that can no longer change (aborted,
// or finished with no rematch to come: a tournament's) after its `end`
// event; GameStream then closes its EventSource, which would otherwise open
// the stream again by itself, and be answered the end again, for as long as
// the page stayed open. A finished casual game's stream stays open: its
// page waits there for the rematch event.
import type { GameEventData, GameView } from '../api/types';

export interface StreamDeps {
  token: () => string | null;
  refresh: () => Promise<boolean>;
  onEvent: (e: GameEventData) => void;
  onConnected: (up: boolean) => void;
  open?: (url: string) => EventSource;
  setTimer?: (fn: () => void, ms: number) => unknown;
}

export const EVENT_KINDS = ['state', 'move', 'seat', 'start', 'end', 'rematch'] as const;

/** gameOver says whether a game can no longer change: the server ends its stream after the end (as gameOver in server/events.go). */
export function gameOver(view: Pick<GameView, 'status' | 'created_by' | 'tournament_id'>): boolean {
  if (view.status === 'aborted') return true;
  return view.status === 'finished' && (!view.created_by || !!view.tournament_id);
}

export function streamURL(gameID: string, token: string | null, lastEventID: string | null): string {
  const q = new URLSearchParams();
  if (token) q.set('access_token', token);
  if (lastEventID != null) q.set('last_event_id', lastEventID);
  const qs = q.toString();
  return `/api/v1/games/${encodeURIComponent(gameID)}/events${qs ? '?' + qs : ''}`;
}

export class GameStream {
  private es: EventSource | null = null;
  private lastID: string | null = null;
  private closed = false;
  private failures = 0;

  constructor(private readonly gameID: string, private readonly d: StreamDeps) {}

  start() {
    this.connect();
    return this;
  }

  close() {
    this.closed = true;
    this.es?.close();
    this.es = null;
  }

  private connect() {
    if (this.closed) return;
    const open = this.d.open ?? ((u: string) => new EventSource(u));
    const es = open(streamURL(this.gameID, this.d.token(), this.lastID));
    this.es = es;
    es.onopen = () => {
      this.failures = 0;
      this.d.onConnected(true);
    };
    for (const kind of EVENT_KINDS) {
      es.addEventListener(kind, (ev) => {
        const m = ev as MessageEvent<string>;
        if (m.lastEventId) this.lastID = m.lastEventId;
        let data: GameEventData;
        try {
          data = JSON.parse(m.data) as GameEventData;
          this.d.onEvent(data);
        } catch {
          return; // a malformed frame is skipped
        }
        // nothing more will come: the server has ended the stream
        if (kind === 'end' && data.view && gameOver(data.view)) this.close();
      });
    }
    es.onerror = () => {
      this.d.onConnected(false);
      if (es.readyState !== 2 /* CLOSED */ || this.closed) return; // the browser retries itself
      es.close();
      this.failures++;
      const delay = Math.min(30000, 500 * 2 ** Math.min(this.failures, 6));
      const timer = this.d.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
      timer(async () => {
        if (this.closed) return;
        await this.d.refresh().catch(() => false);
        this.connect();
      }, delay);
    };
  }
}
