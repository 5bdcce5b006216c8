// A session that ends under a signed-in page. On a second device, after
// the password was changed on the first, submitting "Create a club" turned
// the page signed out: the form went, with what had been typed, the focus
// fell to <body>, and nothing said why. The app now says so.
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from './app';
import { api, restore, RESTORE_RETRY_MS, SIGNED_IN, signIn, signOut } from './session';
import { mount, unmountAll } from './testing/stubApi';

let cookie: string | null = null;
const tokens = new Set<string>();
let issued = 0;
/** down answers the next requests for the signed-in user with no answer at all (while it counts above 0) */
let down = 0;
const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** the server: one account, ann; a password change elsewhere is cookie and tokens forgotten */
async function server(url: string, init?: RequestInit): Promise<Response> {
  const path = url.replace('/api/v1', '');
  const auth = (init?.headers as Record<string, string> | undefined)?.Authorization?.replace('Bearer ', '');
  const issue = () => {
    const t = `access-${++issued}`;
    tokens.add(t);
    cookie = 'ann';
    return json(200, { access_token: t, token_type: 'Bearer', expires_in: 900 });
  };
  if (path === '/auth/login') return issue();
  if (path === '/auth/refresh') return cookie ? issue() : json(401, { title: 'Unauthorized' });
  if (path === '/auth/logout') {
    cookie = null;
    return json(204, undefined);
  }
  if (!auth || !tokens.has(auth)) return json(401, { title: 'Unauthorized' });
  if (path === '/me' && down > 0 && down--) throw new TypeError('Failed to fetch');
  if (path === '/me') return json(200, { id: 'u-ann', username: 'ann', kind: 'human', is_admin: false, created_at: '' });
  return json(200, { items: [], next_cursor: '' });
}

const settle = async () => {
  for (let i = 0; i < 8; i++) await act(async () => void (await new Promise((r) => setTimeout(r, 0))));
};

beforeEach(() => {
  localStorage.clear();
  down = 0;
  cookie = null;
  tokens.clear();
  vi.stubGlobal('fetch', vi.fn(server));
  history.replaceState(null, '', '/clubs');
});
afterEach(async () => {
  unmountAll();
  await signOut();
  vi.unstubAllGlobals();
  history.replaceState(null, '', '/');
});

describe('a session that ends under the page', () => {
  it('says so, with a way to sign in again back to the page, and takes the focus the page dropped', async () => {
    await signIn('ann', 'secret 123');
    const root = mount(<App />);
    await settle();
    expect(root.querySelector('#session-ended')).toBeNull();
    // the password is changed on another device: every token of this one is refused
    cookie = null;
    tokens.clear();
    (document.activeElement as HTMLElement | null)?.blur();
    await act(async () => void (await api.get('/me').catch(() => {})));
    await settle();
    const note = root.querySelector('#session-ended')!;
    expect(note?.textContent).toMatch(/^You have been signed out: this session has ended/);
    expect(note.querySelector('a')!.getAttribute('href')).toBe('/signin?next=%2Fclubs');
    expect(document.activeElement).toBe(note);
  });

  it('says nothing when this browser signs out', async () => {
    await signIn('ann', 'secret 123');
    const root = mount(<App />);
    await settle();
    await act(async () => void (await signOut()));
    await settle();
    expect(root.textContent).toContain('Sign in');
    expect(root.querySelector('#session-ended')).toBeNull();
  });
});

describe('a sign-out that does not reach the server', () => {
  // signOut() rejected after the page had turned signed out, and nothing was said: the session and its
  // refresh cookie stayed good on the server (a reload signed back in).
  it('keeps the user signed in and says so; signing out again works', async () => {
    await signIn('ann', 'secret 123');
    const root = mount(<App />);
    await settle();
    vi.mocked(fetch).mockImplementationOnce(() => Promise.reject(new TypeError('Failed to fetch')));
    const signOutButton = () => [...root.querySelectorAll('button')].find((b) => b.textContent === 'Sign out');
    act(() => signOutButton()!.click());
    await settle();
    expect(root.querySelector('#sign-out-failed')?.textContent).toMatch(/^Signing out did not reach the server: you are still signed in/);
    expect(root.querySelector('.account-name')?.textContent).toBe('ann');
    expect(api.accessToken).not.toBeNull();
    act(() => signOutButton()!.click());
    await settle();
    expect(root.querySelector('#sign-out-failed')).toBeNull();
    expect(root.textContent).toContain('Sign in');
    expect(cookie).toBeNull();
    expect(api.accessToken).toBeNull();
  });
});

describe('a page load that does not reach the server', () => {
  // A failed GET /me after a good refresh (a network blip) showed a signed-in user signed out.
  const reload = async () => {
    await signIn('ann', 'secret 123');
    api.setTokens(null); // a new page: no token in memory, the refresh cookie still good
    localStorage.setItem(SIGNED_IN, '1');
  };

  it('asks for the user again before showing anyone signed out', async () => {
    await reload();
    down = RESTORE_RETRY_MS.length;
    const root = mount(<App />);
    await act(() => restore());
    await settle();
    expect(root.querySelector('.account-name')?.textContent).toBe('ann');
    expect(root.querySelector('#session-unreachable')).toBeNull();
  });

  it('says the server could not be reached, with a way to ask again, rather than "signed out"', async () => {
    await reload();
    down = RESTORE_RETRY_MS.length + 1;
    const root = mount(<App />);
    await act(() => restore());
    await settle();
    const note = root.querySelector('#session-unreachable')!;
    expect(note?.textContent).toMatch(/^Cannot reach the server to sign you back in/);
    act(() => note.querySelector('button')!.click());
    await settle();
    expect(root.querySelector('.account-name')?.textContent).toBe('ann');
    expect(root.querySelector('#session-unreachable')).toBeNull();
  });

  it('says so too when the refresh got no answer', async () => {
    await reload();
    vi.mocked(fetch).mockImplementation((url, init) => (String(url).endsWith('/auth/refresh') ? Promise.reject(new TypeError('Failed to fetch')) : server(String(url), init)));
    const root = mount(<App />);
    await act(() => restore());
    await settle();
    expect(root.querySelector('#session-unreachable')).not.toBeNull();
  });

  it('says nothing of the kind when the server answers that nobody is signed in', async () => {
    await reload();
    cookie = null;
    const root = mount(<App />);
    await act(() => restore());
    await settle();
    expect(root.textContent).toContain('Sign in');
    expect(root.querySelector('#session-unreachable')).toBeNull();
  });
});
