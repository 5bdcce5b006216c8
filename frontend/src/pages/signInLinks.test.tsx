// A visitor's "Sign in" links come back to the page they were on: "Sign in
// to register" on a tournament once led to the sign-in page and then home.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import se from '../competition/testdata/se.json';
import { signInHref } from '../router';
import { App } from '../app';
import { api, restore } from '../session';
import { mount, resetCalls, settle, signOutAndUnmount, stub, unmountAll } from '../testing/stubApi';
import { SignUp } from './Auth';
import NewTournament from './NewTournament';
import TournamentPage from './Tournament';

const signInLink = (root: Element) => [...root.querySelectorAll('main a, a')].find((a) => a.textContent === 'Sign in')?.getAttribute('href');

beforeEach(() => {
  vi.restoreAllMocks();
  resetCalls();
});
afterEach(() => {
  history.replaceState(null, '', '/');
  return signOutAndUnmount();
});

describe("a visitor's sign-in links", () => {
  it('on a tournament open for registration: back to the tournament', async () => {
    const fx = structuredClone(se);
    const t = fx.tournament;
    t.status = 'registration';
    stub({
      [`GET /tournaments/${t.id}`]: () => t,
      [`GET /tournaments/${t.id}/entries\\?limit=100`]: () => ({ items: [] }),
      [`GET /tournaments/${t.id}/rounds`]: () => ({ rounds: [] }),
      [`GET /tournaments/${t.id}/bracket`]: () => fx.bracket,
      [`GET /tournaments/${t.id}/standings`]: () => ({ items: [] }),
      [`GET /clubs/${t.club_id}`]: () => ({ id: t.club_id, name: 'Dev Club' }),
    });
    history.replaceState(null, '', `/tournaments/${t.id}`);
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    expect(root.textContent).toContain('to register.');
    expect(signInLink(root)).toBe(`/signin?next=${encodeURIComponent(`/tournaments/${t.id}`)}`);
  });

  it("on the new-tournament form: back to it, with its club", async () => {
    stub({});
    history.replaceState(null, '', '/tournaments/new?club=c1');
    const root = mount(<NewTournament />);
    await settle();
    expect(signInLink(root)).toBe('/signin?next=%2Ftournaments%2Fnew%3Fclub%3Dc1');
  });

  it('from the sign-up page that was sent a next page: on to sign-in with it', async () => {
    history.replaceState(null, '', '/signup?next=%2Fclubs%2Fc1');
    const root = mount(<SignUp />);
    await settle();
    expect(signInLink(root)).toBe('/signin?next=%2Fclubs%2Fc1');
  });

  it('never sends anyone off the site, and leaves home plain', () => {
    expect(signInHref('/')).toBe('/signin');
    expect(signInHref('//evil.example/x')).toBe('/signin');
  });
});

describe("the header's Sign in and Sign up", () => {
  const header = async (at: string) => {
    vi.spyOn(api, 'refresh').mockResolvedValue(false);
    stub({ 'GET /.*': () => ({ items: [], next_cursor: '' }) });
    history.replaceState(null, '', at);
    await restore();
    const root = mount(<App />);
    await settle();
    const links = [...root.querySelectorAll('header .account a')].map((a) => [a.textContent, a.getAttribute('href')]);
    unmountAll();
    return links;
  };

  it('come back to the page one was on', async () => {
    expect(await header('/leaderboards/stacks?club=c1')).toEqual([
      ['Sign in', '/signin?next=%2Fleaderboards%2Fstacks%3Fclub%3Dc1'],
      ['Sign up', '/signup?next=%2Fleaderboards%2Fstacks%3Fclub%3Dc1'],
    ]);
  });

  it('on the sign-in page keep the page it returns to, and at home are plain', async () => {
    expect(await header('/signin?next=%2Fclubs%2Fc1')).toEqual([
      ['Sign in', '/signin?next=%2Fclubs%2Fc1'],
      ['Sign up', '/signup?next=%2Fclubs%2Fc1'],
    ]);
    expect(await header('/')).toEqual([
      ['Sign in', '/signin'],
      ['Sign up', '/signup'],
    ]);
  });
});
