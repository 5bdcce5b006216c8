import { describe, expect, it, vi } from 'vitest';
import { ApiClient, ApiError } from './client';
import { ServerClock } from './serverClock';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

function json(status: number, body: unknown, type = 'application/json') {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': type } });
}

function client(handler: Handler) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url, init: init ?? {} });
    return handler(url, init ?? {});
  });
  const sessions: (string | null)[] = [];
  const c = new ApiClient({ fetch, lock: (_n, fn) => fn(), onSession: (t) => sessions.push(t) });
  return { c, calls, sessions };
}

const fail = (p: Promise<unknown>): Promise<ApiError> =>
  p.then(
    () => {
      throw new Error('the request did not fail');
    },
    (e: ApiError) => e,
  );

const auth = (init: RequestInit) => (init.headers as Record<string, string>).Authorization;

describe('ApiClient', () => {
  it('turns problem+json into an ApiError with field errors', async () => {
    const { c } = client(() =>
      json(400, { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'the username is taken', errors: [{ field: 'username', message: 'is taken' }] }, 'application/problem+json'),
    );
    const err = await fail(c.post('/auth/register', { username: 'x' }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(400);
    expect(err.message).toBe('the username is taken');
    expect(err.fieldError('username')).toBe('is taken');
    expect(err.fieldError('password')).toBeUndefined();
  });

  it('survives an error body that is not JSON', async () => {
    const { c } = client(() => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    const err = await fail(c.get('/me'));
    expect(err.status).toBe(502);
    expect(err.title).toBe('Bad Gateway');
  });

  it('reports a network failure as status 0', async () => {
    const { c } = client(() => {
      throw new TypeError('Failed to fetch');
    });
    const err = await fail(c.get('/me'));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(0);
  });

  it('sends the access token and JSON bodies', async () => {
    const { c, calls } = client((url) => (url.endsWith('/auth/login') ? json(200, { access_token: 'A1', expires_in: 900 }) : json(200, { ok: true })));
    await c.login('ann', 'password1');
    expect(await c.post('/games', { game: 'sequence' })).toEqual({ ok: true });
    expect(auth(calls[1].init)).toBe('Bearer A1');
    expect((calls[1].init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(calls[1].init.body).toBe('{"game":"sequence"}');
  });

  it('refreshes once on 401 and retries with the new token', async () => {
    let refreshes = 0;
    const { c, calls, sessions } = client((url, init) => {
      if (url.endsWith('/auth/refresh')) {
        refreshes++;
        return json(200, { access_token: 'NEW', expires_in: 900 });
      }
      return auth(init) === 'Bearer NEW' ? json(200, { id: 'u1' }) : json(401, { title: 'Unauthorized', status: 401 });
    });
    c.setTokens({ access_token: 'OLD', expires_in: 900 });
    // Two requests failing together share one refresh.
    const [a, b] = await Promise.all([c.get('/me'), c.get('/me')]);
    expect(a).toEqual({ id: 'u1' });
    expect(b).toEqual({ id: 'u1' });
    expect(refreshes).toBe(1);
    expect(sessions.at(-1)).toBe('NEW');
    const refresh = calls.find((x) => x.url.endsWith('/auth/refresh'))!;
    expect(refresh.init.credentials).toBe('same-origin');
    expect(refresh.init.method).toBe('POST');
  });

  it('signs out when the refresh is refused, and does not loop', async () => {
    let n = 0;
    const { c, calls, sessions } = client((url) => {
      n++;
      return url.endsWith('/auth/refresh') ? json(401, { title: 'Unauthorized' }) : json(401, { title: 'Unauthorized', detail: 'expired' });
    });
    c.setTokens({ access_token: 'OLD', expires_in: 900 });
    const err = await fail(c.get('/me'));
    expect(err.status).toBe(401);
    expect(c.accessToken).toBeNull();
    expect(sessions.at(-1)).toBeNull();
    expect(n).toBe(3); // the request, one refresh, the request once more signed out
    expect(auth(calls[2].init)).toBeUndefined();
  });

  it('still shows a public page when the session has ended', async () => {
    // The API refuses a stale token even where it would answer a signed-out
    // caller; once the refresh is refused, the page is read signed out.
    const { c, calls } = client((url, init) => {
      if (url.endsWith('/auth/refresh')) return json(401, { title: 'Unauthorized' });
      return auth(init) ? json(401, { title: 'Unauthorized', detail: 'expired' }) : json(200, { rows: [] });
    });
    c.setTokens({ access_token: 'OLD', expires_in: 900 });
    expect(await c.get('/leaderboards/stacks')).toEqual({ rows: [] });
    expect(calls.map((x) => x.url.replace(/^.*\/api\/v1/, ''))).toEqual(['/leaderboards/stacks', '/auth/refresh', '/leaderboards/stacks']);
  });

  it('keeps the session and the error when the refresh cannot be reached', async () => {
    const { c, calls } = client((url) => {
      if (url.endsWith('/auth/refresh')) throw new TypeError('Failed to fetch');
      return json(401, { title: 'Unauthorized', detail: 'expired' });
    });
    c.setTokens({ access_token: 'OLD', expires_in: 900 });
    expect((await fail(c.get('/leaderboards/stacks'))).status).toBe(401);
    expect(c.accessToken).toBe('OLD');
    expect(calls).toHaveLength(2);
  });

  it('does not refresh an anonymous request', async () => {
    const { c, calls } = client(() => json(401, { title: 'Unauthorized' }));
    await c.get('/me').catch(() => {});
    expect(calls).toHaveLength(1);
  });

  it('answers undefined for 204', async () => {
    const { c } = client(() => new Response(null, { status: 204 }));
    expect(await c.del('/clubs/1/members/me')).toBeUndefined();
  });

  it('asks for a quick match by POST /games/quick with the set-up, and names the field the server refuses', async () => {
    const game = { id: 'g1', game: 'sequence', players: 2, teams: 2, status: 'open', seats: [] };
    const { c, calls } = client((_url, init) => {
      const body = JSON.parse(init.body as string);
      if (body.players === 5) return json(400, { title: 'Bad Request', status: 400, detail: 'the game cannot be set up', errors: [{ field: 'players', message: 'sequence is not played by 5' }] }, 'application/problem+json');
      return json(body.players === 2 ? 201 : 200, game);
    });
    c.setTokens({ access_token: 'tok', expires_in: 900 });
    expect(await c.quickMatch({ game: 'sequence', variant: 'classic', players: 2 })).toEqual(game);
    expect(calls[0].url).toBe('/api/v1/games/quick');
    expect(calls[0].init.method).toBe('POST');
    expect(JSON.parse(calls[0].init.body as string)).toEqual({ game: 'sequence', variant: 'classic', players: 2 });
    expect(auth(calls[0].init)).toBe('Bearer tok');
    expect(await c.quickMatch({ game: 'stacks', players: 3 })).toEqual(game); // joined: 200
    const err = await fail(c.quickMatch({ game: 'sequence', players: 5 }));
    expect(err.status).toBe(400);
    expect(err.fieldError('players')).toBe('sequence is not played by 5');
  });

  it("tells its clock every answer's Date header, errors and refreshes too", async () => {
    const clock = new ServerClock();
    const ahead = Date.now() + 120_000; // the server's clock two minutes ahead of this device's
    const dated = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', Date: new Date(ahead).toUTCString() } });
    const c = new ApiClient({ fetch: async () => dated(404, { title: 'Not Found' }), lock: (_n, fn) => fn(), clock });
    await fail(c.get('/games/nope'));
    expect(clock.offset()).toBeGreaterThan(118_000);
    expect(clock.offset()).toBeLessThanOrEqual(121_000);
  });

  it('keeps the session when a sign-out does not reach the server, and ends it when the server has none to end', async () => {
    let answer: () => Response = () => {
      throw new TypeError('Failed to fetch');
    };
    const { c, sessions } = client(() => answer());
    c.setTokens({ access_token: 'a1', expires_in: 900 });
    expect((await fail(c.logout())).status).toBe(0);
    answer = () => json(502, { title: 'Bad Gateway' });
    expect((await fail(c.logout())).status).toBe(502);
    expect(c.accessToken).toBe('a1');
    answer = () => json(401, { title: 'Unauthorized', detail: 'no refresh token' });
    await c.logout();
    expect(c.accessToken).toBeNull();
    expect(sessions).toEqual(['a1', null]);
  });
});
