// A visitor's "Sign in" links come back to the page they were on: "Sign in
// to register" on a tournament once led to the sign-in page and then home.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import se from '../competition/testdata/se.json';
import { signInHref } from '../router';
import { mount, resetCalls, settle, signOutAndUnmount, stub } from '../testing/stubApi';
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
