// The signed-in user, shared by every page. The access token lives only in
// memory (ApiClient); a reload gets a new one from the HttpOnly refresh
// cookie.
import { useEffect, useState } from 'preact/hooks';
import { ApiClient, ApiError, retrying, type Tokens } from './api/client';
import type { User } from './api/types';

export interface Session {
  ready: boolean;
  user: User | null;
  /**
   * the signed-in session ended without this browser signing out: the
   * server refused its refresh token (the password changed on another
   * device, the token expired or was revoked). The app says so, since the
   * page the user was on turns signed out under them, forms and all.
   */
  ended?: boolean;
  /**
   * the page load could not ask the server whether this browser is signed
   * in (no answer, or a server error): shown signed out for now, which it
   * may not be, and the app offers to ask again
   */
  unreachable?: boolean;
}

let session: Session = { ready: false, user: null };
const subs = new Set<(s: Session) => void>();

function set(s: Session) {
  session = s;
  subs.forEach((f) => f(s));
}

/**
 * SIGNED_IN records whether this browser holds a session: '1' is set with
 * each access token, '0' when the session ends. A page load asks
 * /auth/refresh unless it is '0', so anonymous visitors do not log a 401 on
 * every page load; a browser with no record yet (first visit, or signed in
 * before the record existed) asks once, and keeps its session if it has one.
 */
export const SIGNED_IN = 'seqleague-signed-in';

function markSignedIn(on: boolean) {
  try {
    localStorage.setItem(SIGNED_IN, on ? '1' : '0');
  } catch {
    /* no storage: every load tries the refresh, as before */
  }
}

function maySignBackIn(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN) !== '0';
  } catch {
    return true;
  }
}

export const api = new ApiClient({
  onSession: (token, refused) => {
    markSignedIn(!!token);
    if (!token && session.user) set({ ready: true, user: null, ended: refused });
  },
});

// Tabs of one browser share the refresh cookie but not the access token in
// memory: signing out in one tells the others, which drop their tokens and
// show the page signed out; a sign-in tells them to pick the session up
// from the cookie (by a refresh: no token is ever sent between tabs).
// BroadcastChannel where there is one, else the storage event.
export const TABS_CHANNEL = 'seqleague-session';
type TabMessage = { type: 'signed-out' } | { type: 'signed-in'; user: string };

function onTabMessage(m: TabMessage | null | undefined) {
  if (m?.type === 'signed-out') {
    if (api.accessToken) api.setTokens(null);
    if (session.user || !session.ready) set({ ready: true, user: null });
  } else if (m?.type === 'signed-in' && m.user !== session.user?.id) {
    void restore();
  }
}

const tabs: { post: (m: TabMessage) => void } = (() => {
  if (typeof BroadcastChannel !== 'undefined') {
    const ch = new BroadcastChannel(TABS_CHANNEL);
    ch.onmessage = (e: MessageEvent) => onTabMessage(e.data as TabMessage);
    // (Node's channel would keep a test run alive)
    (ch as { unref?: () => void }).unref?.();
    return { post: (m) => ch.postMessage(m) };
  }
  if (typeof window !== 'undefined' && window.localStorage) {
    window.addEventListener('storage', (e) => {
      if (e.key !== TABS_CHANNEL || !e.newValue) return;
      try {
        onTabMessage(JSON.parse(e.newValue) as TabMessage);
      } catch {
        /* not ours */
      }
    });
    // the time makes each message a change, so that the event fires
    return { post: (m) => localStorage.setItem(TABS_CHANNEL, JSON.stringify({ ...m, at: Date.now() })) };
  }
  return { post: () => {} };
})();

function tell(m: TabMessage) {
  try {
    tabs.post(m);
  } catch {
    /* no other tab hears: nothing more to do */
  }
}

export function useSession(): Session {
  const [s, setS] = useState(session);
  useEffect(() => {
    subs.add(setS);
    setS(session);
    return () => void subs.delete(setS);
  }, []);
  return s;
}

/** dismissEnded drops the word that the session ended (the user moved on). */
export function dismissEnded() {
  if (session.ended) set({ ...session, ended: false });
}

/**
 * currentUser is the signed-in user outside a component. Only the tests
 * call it (to read the session a module instance holds, as a tab would);
 * the app's components read it with useSession.
 */
export function currentUser(): User | null {
  return session.user;
}

/** How long restore waits before asking for the signed-in user again, after no answer. */
export const RESTORE_RETRY_MS = [300, 1000];

/**
 * restore signs back in from the refresh cookie, if there is one. A server
 * that does not answer is not "signed out": the user is read again a few
 * times, then the session says it is unreachable (and restore may be
 * called again).
 */
export async function restore(): Promise<void> {
  if (!maySignBackIn()) {
    set({ ready: true, user: null });
    return;
  }
  if (!(await api.refresh().catch(() => false))) {
    // A refused refresh recorded the session gone (maySignBackIn is false
    // now); one that got no answer did not.
    set({ ready: true, user: null, unreachable: maySignBackIn() });
    return;
  }
  const answered = (e: unknown) => e instanceof ApiError && e.status > 0 && e.status < 500;
  try {
    set({ ready: true, user: await retrying(() => api.get<User>('/me'), RESTORE_RETRY_MS, (e) => !answered(e)) });
  } catch (e) {
    set({ ready: true, user: null, unreachable: !answered(e) });
  }
}

export async function signIn(username: string, password: string): Promise<void> {
  await api.login(username, password);
  const user = await api.get<User>('/me');
  set({ ready: true, user });
  tell({ type: 'signed-in', user: user.id });
}

export async function signUp(username: string, password: string, email: string): Promise<void> {
  await api.post('/auth/register', email ? { username, password, email } : { username, password });
  await signIn(username, password);
}

/**
 * signOut ends the session. When the server was not reached it throws and
 * the browser stays signed in (the server's session and the refresh cookie
 * are still good): the caller says so, and the user may try again.
 */
export async function signOut(): Promise<void> {
  await api.logout();
  set({ ready: true, user: null });
  tell({ type: 'signed-out' });
}

/**
 * changePassword replaces the signed-in user's password. The server ends
 * every session of the account and answers a new pair for this one (its
 * refresh token also in the HttpOnly cookie), kept as signing in keeps it,
 * so this tab stays signed in and every other device signs in again.
 */
export async function changePassword(current: string, next: string): Promise<void> {
  api.setTokens(await api.post<Tokens>('/me/password', { current_password: current, new_password: next }));
}

/**
 * changeEmail sets the signed-in user's e-mail address ("" removes it),
 * which the server does once the password proves the account is theirs,
 * and keeps the account it answers as the session's user.
 */
export async function changeEmail(current: string, email: string): Promise<User> {
  const user = await api.patch<User>('/me', { email, current_password: current });
  if (session.user?.id === user.id) set({ ...session, user });
  return user;
}

/**
 * closeAccount closes the signed-in user's account, which takes its
 * password. The server revokes its tokens with it, so the session simply
 * ends here.
 */
export async function closeAccount(current: string): Promise<void> {
  await api.del('/me', { current_password: current });
  api.setTokens(null);
  set({ ready: true, user: null });
  tell({ type: 'signed-out' });
}
