import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'preact/test-utils';
import { App } from '../app';
import { navigate } from '../router';
import { api, restore } from '../session';
import { calls, mount, resetCalls, settle, signOutAndUnmount, stub } from '../testing/stubApi';
import { waitingChanged, waitingText, waitingWords } from './waiting';

const homeLink = (root: Element) => [...root.querySelectorAll('nav a')].find((a) => a.getAttribute('href') === '/')!;

afterEach(async () => {
  history.replaceState(null, '', '/');
  await signOutAndUnmount();
});

describe('the count of games waiting for my move', () => {
  it('stands beside "Home", is said in words, and is read again when the page changes', async () => {
    let waiting = 2;
    vi.spyOn(api, 'refresh').mockResolvedValue(true);
    stub({
      'GET /me': () => ({ id: 'u1', username: 'ann' }),
      'GET /users/u1/games\\?to_move=true&limit=100': () => ({ items: Array(waiting).fill({}), next_cursor: '' }),
      'GET /users/u1/games\\?invited=true&limit=100': () => ({ items: [], next_cursor: '' }),
      'GET /clubs.*': () => ({ items: [], next_cursor: '' }),
      'GET /leaderboards.*': () => ({ items: [], next_cursor: '' }),
    });
    await restore();
    history.replaceState(null, '', '/clubs');
    const root = mount(<App />);
    await settle();
    const link = homeLink(root);
    expect(link.querySelector('.nav-count')!.textContent).toBe('2');
    // the link is still named "Home"; the count describes it
    expect(link.querySelector('.nav-count')!.getAttribute('aria-hidden')).toBe('true');
    expect(document.getElementById(link.getAttribute('aria-describedby')!)!.textContent).toBe('2 games wait for your move');
    // and to the eye, on hover: a bare "2" beside Home said nothing of what it counts
    expect(link.querySelector('.nav-count')!.getAttribute('title')).toBe('2 games wait for your move');
    waiting = 0;
    resetCalls();
    act(() => navigate('/leaderboards'));
    await settle();
    expect(calls.some((c) => c.path.startsWith('/users/u1/games?to_move=true'))).toBe(true);
    expect(homeLink(root).textContent).toBe('Home');
    expect(homeLink(root).hasAttribute('aria-describedby')).toBe(false);
  });

  it('counts the tables where a seat is kept for me, and says which is which', async () => {
    vi.spyOn(api, 'refresh').mockResolvedValue(true);
    stub({
      'GET /me': () => ({ id: 'u1', username: 'ann' }),
      'GET /users/u1/games\\?to_move=true&limit=100': () => ({ items: [{}], next_cursor: '' }),
      'GET /users/u1/games\\?invited=true&limit=100': () => ({ items: [{}, {}], next_cursor: '' }),
      'GET /clubs.*': () => ({ items: [], next_cursor: '' }),
    });
    await restore();
    history.replaceState(null, '', '/clubs');
    const root = mount(<App />);
    await settle();
    const link = homeLink(root);
    expect(link.querySelector('.nav-count')!.textContent).toBe('3');
    expect(document.getElementById(link.getAttribute('aria-describedby')!)!.textContent).toBe(
      'A game waits for your move, and 2 invitations to games',
    );
  });

  it('says more than a page holds with a plus', () => {
    expect(waitingText(100, true)).toBe('100+');
    expect(waitingText(3, false)).toBe('3');
    expect(waitingWords({ moves: 0, invitations: 1, more: false })).toBe('An invitation to a game');
    expect(waitingWords({ moves: 100, invitations: 0, more: true })).toBe('100 games wait for your move (and more)');
    expect(waitingWords(null)).toBe('');
  });
});

describe('two reads of the count in flight', () => {
  it('show the later one: an older answer arriving last does not bring back a count that is gone', async () => {
    vi.spyOn(api, 'refresh').mockResolvedValue(true);
    stub({
      'GET /me': () => ({ id: 'u1', username: 'ann' }),
      'GET /users/u1/games\\?invited=true&limit=100': () => ({ items: [], next_cursor: '' }),
      'GET /clubs.*': () => ({ items: [], next_cursor: '' }),
    });
    await restore();
    // the count's answers come when the test says
    const pending: ((items: number) => void)[] = [];
    const answered = api.get;
    vi.spyOn(api, 'get').mockImplementation(((path: string) =>
      path.startsWith('/users/u1/games?to_move=true')
        ? new Promise((resolve) => pending.push((n) => resolve({ items: Array(n).fill({}), next_cursor: '' })))
        : answered(path)) as never);
    history.replaceState(null, '', '/clubs');
    const root = mount(<App />);
    await settle();
    expect(pending.length).toBe(1); // read as the page opened: a game waited for my move
    act(() => waitingChanged()); // I moved in it: read again
    await settle();
    expect(pending.length).toBe(2);
    pending[1](0);
    await settle();
    pending[0](1); // the first read, answered last
    await settle();
    expect(homeLink(root).querySelector('.nav-count')).toBeNull();
  });
});
