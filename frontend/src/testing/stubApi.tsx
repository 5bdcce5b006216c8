// Page tests against a stubbed API: routes answer the app's api.get/post/
// patch/put/del by method and path pattern, every call is recorded, and pages
// are mounted into the document and taken down again after each test.
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { vi } from 'vitest';
import { SIGNED_IN, api, signOut } from '../session';

/** Handler answers one request; its result is cloned, so handlers may return shared objects. */
export type Handler = (path: string, body?: unknown) => unknown;

/** calls is every request the stub has answered since resetCalls. */
export const calls: { method: string; path: string; body?: unknown }[] = [];

export function resetCalls() {
  calls.length = 0;
}

/**
 * stub answers the app's requests from routes, keyed "METHOD pattern" where
 * the pattern is a regular expression over the whole path; a request no
 * route matches fails the test.
 */
export function stub(routes: Record<string, Handler>) {
  const answer = (method: string) => async (path: string, body?: unknown) => {
    calls.push({ method, path, body });
    for (const [pattern, h] of Object.entries(routes)) {
      const [m, p] = pattern.split(' ');
      if (m === method && new RegExp('^' + p + '$').test(path)) return structuredClone(h(path, body));
    }
    throw new Error(`unexpected ${method} ${path}`);
  };
  // restore() asks for a refresh only in a browser that signed in before:
  // here the test's refresh (mocked or not) decides who is signed in
  localStorage.setItem(SIGNED_IN, '1');
  vi.spyOn(api, 'get').mockImplementation(answer('GET') as never);
  vi.spyOn(api, 'post').mockImplementation(answer('POST') as never);
  vi.spyOn(api, 'patch').mockImplementation(answer('PATCH') as never);
  vi.spyOn(api, 'put').mockImplementation(answer('PUT') as never);
  vi.spyOn(api, 'del').mockImplementation(answer('DELETE') as never);
}

/** settle lets the pending requests answer and the page render. */
export async function settle() {
  for (let i = 0; i < 6; i++) await act(async () => void (await new Promise((r) => setTimeout(r, 0))));
}

const mounted: HTMLElement[] = [];

/** mount renders vnode into a new element of the document. */
export function mount(vnode: preact.VNode) {
  const root = document.createElement('div');
  document.body.appendChild(root);
  mounted.push(root);
  act(() => render(vnode, root));
  return root;
}

/** unmountAll takes every mounted page down, so that none keeps polling into the next test. */
export function unmountAll() {
  for (const r of mounted.splice(0)) act(() => render(null, r));
  document.body.innerHTML = '';
}

/**
 * signOutAndUnmount ends a test that signed someone in: the pages come
 * down, the session ends (without asking the server) and every mock is
 * restored.
 */
export async function signOutAndUnmount() {
  unmountAll();
  vi.spyOn(api, 'logout').mockResolvedValue();
  await signOut();
  vi.restoreAllMocks();
}
