// The signed-in user, shared by every page. The access token lives only in
// memory (ApiClient); a reload gets a new one from the HttpOnly refresh
// cookie.
import { useEffect, useState } from 'preact/hooks';
import { ApiClient, type Tokens } from './api/client';
import type { User } from './api/types';

export interface Session {
  ready: boolean;
  user: User | null;
}

let session: Session = { ready: false, user: null };
const subs = new Set<(s: Session) => void>();

function set(s: Session) {
  session = s;
  subs.forEach((f) => f(s));
}

export const api = new ApiClient({
  onSession: (token) => {
    if (!token && session.user) set({ ready: true, user: null });
  },
});

export function useSession(): Session {
  const [s, setS] = useState(session);
  useEffect(() => {
    subs.add(setS);
    setS(session);
    return () => void subs.delete(setS);
  }, []);
  return s;
}

export function currentUser(): User | null {
  return session.user;
}

/** restore signs back in from the refresh cookie, if there is one. */
export async function restore(): Promise<void> {
  try {
    if (await api.refresh()) {
      set({ ready: true, user: await api.get<User>('/me') });
      return;
    }
  } catch {
    /* fall through: signed out */
  }
  set({ ready: true, user: null });
}

export async function signIn(username: string, password: string): Promise<void> {
  await api.login(username, password);
  set({ ready: true, user: await api.get<User>('/me') });
}

export async function signUp(username: string, password: string, email: string): Promise<void> {
  await api.post('/auth/register', email ? { username, password, email } : { username, password });
  await signIn(username, password);
}

export async function signOut(): Promise<void> {
  try {
    await api.logout();
  } finally {
    set({ ready: true, user: null });
  }
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
 * closeAccount closes the signed-in user's account. The server revokes its
 * tokens with it, so the session simply ends here.
 */
export async function closeAccount(): Promise<void> {
  await api.del('/me');
  api.setTokens(null);
  set({ ready: true, user: null });
}
