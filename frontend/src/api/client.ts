// The API client: JSON over fetch, problem+json errors as ApiError, the
// access token in memory, and one transparent refresh (through the
// HttpOnly refresh cookie) when a request answers 401.
import type { Game, QuickMatchRequest } from './types';
import { ServerClock, serverClock } from './serverClock';

export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly fields: FieldError[];
  readonly body: Record<string, unknown>;
  constructor(status: number, body: Record<string, unknown>) {
    const title = typeof body.title === 'string' ? body.title : `HTTP ${status}`;
    const detail = typeof body.detail === 'string' ? body.detail : '';
    super(detail || title);
    this.name = 'ApiError';
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.fields = Array.isArray(body.errors) ? (body.errors as FieldError[]) : [];
    this.body = body;
  }
  /** fieldError is the message for one form field, if the server gave one. */
  fieldError(field: string): string | undefined {
    return this.fields.find((f) => f.field === field)?.message;
  }
}

/** A network failure (no answer at all) is an ApiError with status 0. */
export function networkError(e: unknown): ApiError {
  return new ApiError(0, { title: 'Network error', detail: e instanceof Error ? e.message : String(e) });
}

/**
 * retrying calls f, and again after each of pauses (ms) while its failure
 * is one again decides (a request that got no answer, say), then fails
 * as its last try did.
 */
export async function retrying<T>(f: () => Promise<T>, pauses: number[], again: (e: unknown) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await f();
    } catch (e) {
      if (i >= pauses.length || !again(e)) throw e;
      await new Promise((r) => setTimeout(r, pauses[i]));
    }
  }
}

export interface Tokens {
  access_token: string;
  expires_in: number;
  refresh_token?: string;
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export interface ClientOptions {
  fetch?: Fetch;
  base?: string;
  /** serialize refreshes across tabs (refresh tokens work once) */
  lock?: <T>(name: string, fn: () => Promise<T>) => Promise<T>;
  /**
   * called whenever the session changes (signed in, refreshed, signed
   * out); refused says the server refused the refresh token (the session
   * ended elsewhere: a password change, an expired or revoked token), not
   * that this client signed out
   */
  onSession?: (token: string | null, refused?: boolean) => void;
  /** told the Date header of every answer (the page's clocks count in the server's time) */
  clock?: ServerClock;
}

function defaultLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  return locks ? (locks.request(name, fn) as Promise<T>) : fn();
}

export class ApiClient {
  private token: string | null = null;
  private refreshing: Promise<boolean> | null = null;
  private readonly fetchImpl: Fetch;
  private readonly base: string;
  private readonly lock: NonNullable<ClientOptions['lock']>;
  private readonly onSession: (token: string | null, refused?: boolean) => void;
  private readonly clock: ServerClock;

  constructor(opts: ClientOptions = {}) {
    this.fetchImpl = opts.fetch ?? ((i, init) => fetch(i, init));
    this.base = opts.base ?? '/api/v1';
    this.lock = opts.lock ?? defaultLock;
    this.onSession = opts.onSession ?? (() => {});
    this.clock = opts.clock ?? serverClock;
  }

  /** send is fetch, telling the clock when the answer was made by the server's time. */
  private async send(url: string, init: RequestInit): Promise<Response> {
    const sentAt = Date.now();
    const res = await this.fetchImpl(url, init);
    this.clock.note(res.headers?.get('Date') ?? null, sentAt, Date.now());
    return res;
  }

  get accessToken(): string | null {
    return this.token;
  }

  setTokens(t: Tokens | null, refused = false) {
    this.token = t ? t.access_token : null;
    this.onSession(this.token, refused);
  }

  /**
   * refresh spends the refresh cookie for a new pair. Concurrent callers
   * share one request; tabs take turns (a refresh token works once, and a
   * reused one would sign every tab out).
   */
  refresh(): Promise<boolean> {
    if (!this.refreshing) {
      this.refreshing = this.lock('seqleague-refresh', async () => {
        try {
          const res = await this.send(this.base + '/auth/refresh', {
            method: 'POST',
            credentials: 'same-origin',
            headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
            body: '{}',
          });
          if (!res.ok) {
            this.setTokens(null, true);
            return false;
          }
          this.setTokens((await res.json()) as Tokens);
          return true;
        } catch {
          return false; // offline: keep the session, try again later
        }
      }).finally(() => {
        this.refreshing = null;
      });
    }
    return this.refreshing;
  }

  async request<T>(method: string, path: string, body?: unknown, retried = false): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const hadToken = this.token !== null;
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    let res: Response;
    try {
      res = await this.send(this.base + path, {
        method,
        headers,
        credentials: 'same-origin',
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      throw networkError(e);
    }
    if (res.status === 401 && hadToken && !retried && !path.startsWith('/auth/')) {
      // A refused refresh signs out: the request is asked once more as a
      // signed-out caller, which the public pages (tournaments,
      // leaderboards, a game watched) still answer.
      if ((await this.refresh()) || this.token === null) return this.request<T>(method, path, body, true);
    }
    if (!res.ok) {
      let problem: Record<string, unknown> = {};
      try {
        problem = (await res.json()) as Record<string, unknown>;
      } catch {
        problem = { title: res.statusText || `HTTP ${res.status}` };
      }
      throw new ApiError(res.status, problem);
    }
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  get<T>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T>(path: string, body: unknown = {}) {
    return this.request<T>('POST', path, body);
  }
  patch<T>(path: string, body: unknown) {
    return this.request<T>('PATCH', path, body);
  }
  put<T>(path: string, body: unknown) {
    return this.request<T>('PUT', path, body);
  }
  del<T>(path: string, body?: unknown) {
    return this.request<T>('DELETE', path, body);
  }

  /**
   * quickMatch seats the caller at the oldest game of the set-up waiting
   * for players, or makes one with the other seats open; either way the
   * game (joined: 200, made: 201).
   */
  quickMatch(req: QuickMatchRequest) {
    return this.post<Game>('/games/quick', req);
  }

  async login(username: string, password: string): Promise<void> {
    const t = await this.request<Tokens>('POST', '/auth/login', { username, password });
    this.setTokens(t);
  }

  /**
   * logout ends the session on the server (its refresh cookie), then here.
   * A sign-out that did not reach the server (no answer, or a server error)
   * throws and keeps the session: it is still valid there, and a reload
   * would sign back in from the cookie. A refusal (no session to end) ends
   * it here too.
   */
  async logout(): Promise<void> {
    try {
      await this.request('POST', '/auth/logout', {});
    } catch (e) {
      if (!(e instanceof ApiError) || e.status === 0 || e.status >= 500) throw e;
    }
    this.setTokens(null);
  }
}
