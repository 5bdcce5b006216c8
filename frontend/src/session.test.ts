// Two tabs of one browser: two instances of the session module (each its
// own access token in memory) over one BroadcastChannel bus and one
// refresh cookie. Signing out in one signs the other out; a sign-in in one
// is picked up by the other through a refresh of its own.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Listener = (e: MessageEvent) => void;

/** FakeChannel delivers each message to the other channels of its name, as a browser does between tabs. */
class FakeChannel {
  static all: FakeChannel[] = [];
  onmessage: Listener | null = null;
  constructor(readonly name: string) {
    FakeChannel.all.push(this);
  }
  postMessage(data: unknown) {
    for (const c of FakeChannel.all) if (c !== this && c.name === this.name) queueMicrotask(() => c.onmessage?.(new MessageEvent('message', { data: structuredClone(data) })));
  }
  close() {}
}

const users: Record<string, { id: string; username: string }> = { ann: { id: 'u-ann', username: 'ann' }, bob: { id: 'u-bob', username: 'bob' } };

/** the server: whose refresh cookie the browser holds, and the access tokens it handed out */
let cookie: string | null = null;
let issued = 0;
const tokens = new Map<string, string>();

function json(status: number, body: unknown) {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function issue(user: string) {
  const t = `access-${++issued}`;
  tokens.set(t, user);
  cookie = user;
  return { access_token: t, token_type: 'Bearer', expires_in: 900 };
}

async function server(url: string, init?: RequestInit): Promise<Response> {
  const path = url.replace('/api/v1', '');
  const auth = (init?.headers as Record<string, string> | undefined)?.Authorization?.replace('Bearer ', '');
  if (path === '/auth/login') return json(200, issue(JSON.parse(String(init!.body)).username));
  if (path === '/auth/refresh') return cookie ? json(200, issue(cookie)) : json(401, { title: 'Unauthorized' });
  if (path === '/auth/logout') {
    cookie = null;
    if (auth) tokens.delete(auth);
    return json(204, undefined);
  }
  if (path === '/me') return auth && tokens.has(auth) ? json(200, users[tokens.get(auth)!]) : json(401, { title: 'Unauthorized' });
  return json(404, { title: 'Not Found' });
}

async function openTab() {
  vi.resetModules();
  const tab = await import('./session');
  await tab.restore();
  return tab;
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
};

beforeEach(() => {
  localStorage.clear();
  FakeChannel.all = [];
  cookie = null;
  tokens.clear();
  vi.stubGlobal('BroadcastChannel', FakeChannel);
  vi.stubGlobal('fetch', vi.fn(server));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('the session across tabs', () => {
  it('signs the other tabs out when one signs out', async () => {
    const one = await openTab();
    await one.signIn('ann', 'secret 123');
    const two = await openTab(); // a second tab, opened signed in from the cookie
    expect(two.currentUser()?.username).toBe('ann');
    expect(two.api.accessToken).not.toBeNull();

    await one.signOut();
    await settle();
    expect(one.currentUser()).toBeNull();
    // the other tab dropped its token and shows nobody signed in
    expect(two.currentUser()).toBeNull();
    expect(two.api.accessToken).toBeNull();
  });

  it('lets the other tabs pick up a sign-in by a refresh of their own', async () => {
    const one = await openTab();
    const two = await openTab();
    expect(two.currentUser()).toBeNull();
    await one.signIn('bob', 'secret 123');
    await settle();
    expect(two.currentUser()?.username).toBe('bob');
    // a token of its own, from the cookie: none was sent between the tabs
    expect(two.api.accessToken).not.toBe(one.api.accessToken);
    expect(two.api.accessToken).not.toBeNull();
  });

  it('signs the other tabs out when one closes the account', async () => {
    const one = await openTab();
    await one.signIn('ann', 'secret 123');
    const two = await openTab();
    vi.mocked(fetch).mockImplementationOnce(async () => json(204, undefined)); // DELETE /me
    await one.closeAccount('secret 123');
    await settle();
    // closing takes the password
    const [url, init] = vi.mocked(fetch).mock.calls.at(-1)!;
    expect([String(url), init?.method, init?.body]).toEqual(['/api/v1/me', 'DELETE', JSON.stringify({ current_password: 'secret 123' })]);
    expect(two.currentUser()).toBeNull();
    expect(two.api.accessToken).toBeNull();
  });

  it('falls back to the storage event without BroadcastChannel', async () => {
    vi.stubGlobal('BroadcastChannel', undefined);
    const one = await openTab();
    await one.signIn('ann', 'secret 123');
    const two = await openTab();
    expect(two.currentUser()?.username).toBe('ann');
    await one.signOut();
    const sent = localStorage.getItem(one.TABS_CHANNEL);
    expect(JSON.parse(sent!).type).toBe('signed-out');
    // the browser fires the storage event in the other tabs only
    window.dispatchEvent(new StorageEvent('storage', { key: one.TABS_CHANNEL, newValue: sent }));
    await settle();
    expect(two.currentUser()).toBeNull();
    expect(two.api.accessToken).toBeNull();
  });
});

describe('a page load', () => {
  const refreshes = () => vi.mocked(fetch).mock.calls.filter(([url]) => String(url).endsWith('/auth/refresh')).length;

  it('asks once in a browser with no record, then no more (a 401 in the console each time)', async () => {
    const tab = await openTab();
    expect(tab.currentUser()).toBeNull();
    expect(refreshes()).toBe(1);
    await openTab();
    expect(refreshes()).toBe(1);
  });

  it('keeps the session of a browser signed in before the record existed', async () => {
    const one = await openTab();
    await one.signIn('ann', 'secret 123');
    localStorage.removeItem(one.SIGNED_IN);
    const two = await openTab();
    expect(two.currentUser()?.username).toBe('ann');
  });

  it('signs back in from the cookie after a sign-in, and asks no more once signed out', async () => {
    const one = await openTab();
    await one.signIn('ann', 'secret 123');
    const two = await openTab();
    expect(two.currentUser()?.username).toBe('ann');
    expect(refreshes()).toBe(2); // the first tab's, with no record yet, and this one's
    await one.signOut();
    await settle();
    const three = await openTab();
    expect(three.currentUser()).toBeNull();
    expect(refreshes()).toBe(2);
  });

  it('asks no more once a refresh found the session gone', async () => {
    const one = await openTab();
    await one.signIn('ann', 'secret 123');
    cookie = null; // the session expired on the server
    const two = await openTab();
    expect(two.currentUser()).toBeNull();
    expect(refreshes()).toBe(2);
    await openTab();
    expect(refreshes()).toBe(2);
  });
});
