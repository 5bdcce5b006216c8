// A list that could not be read says so, and only so: it once showed the
// error and then "No games yet" (or "you organize none"), or the error
// beside a "Loading…" that never ended.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import type { Club, User } from '../api/types';
import { api, restore } from '../session';
import { mount, resetCalls, settle, signOutAndUnmount, stub } from '../testing/stubApi';
import { ClubCompetitions, LeaguePage, SeasonPage } from './Leagues';
import { ClubPage } from './Clubs';
import GamePage from './GamePage';
import Home from './Home';
import Leaderboard from './Leaderboard';
import NewTournament from './NewTournament';
import Profile from './Profile';
import Replay from './Replay';
import TournamentPage from './Tournament';

const me: User = { id: 'u1', username: 'ann', kind: 'human', is_admin: false, created_at: '' };
const down = () => {
  throw new ApiError(503, { title: 'Service Unavailable', detail: 'the database is unreachable' });
};
const text = (root: Element) => root.textContent ?? '';

beforeEach(() => {
  vi.restoreAllMocks();
  resetCalls();
  vi.spyOn(api, 'refresh').mockResolvedValue(true);
});
afterEach(signOutAndUnmount);

describe('a list that could not be read', () => {
  it('on Home: the error in each section, not "No games yet", "No tournament ahead" or "in no club yet"', async () => {
    stub({ 'GET /me': () => me, 'GET /users/u1/.*': down });
    await restore();
    const root = mount(<Home />);
    await settle();
    for (const id of ['my-games', 'my-rounds', 'my-clubs']) {
      const section = root.querySelector(`section[aria-labelledby=${id}]`)!;
      expect(text(section), id).toContain('The database is unreachable');
      expect(section.querySelector('[role=status]'), id).toBeNull(); // no "Loading…"
    }
    expect(text(root)).not.toMatch(/No games yet|No tournament ahead|in no club yet/);
  });

  it("on a club's page: the error, no endless Loading… under Tournaments and Leagues", async () => {
    stub({ 'GET /me': () => me, 'GET /.*': down });
    await restore();
    const club = { id: 'c1', name: 'Dev Club', viewer_role: 'member' } as Club;
    const root = mount(<ClubCompetitions club={club} />);
    await settle();
    for (const id of ['tournaments-title', 'leagues-title']) {
      const section = root.querySelector(`section[aria-labelledby=${id}]`)!;
      expect(text(section), id).toContain('The database is unreachable');
      expect(section.querySelector('[role=status]'), id).toBeNull();
    }
  });

  it("on a season's page: the error, no endless Loading… under Tournaments", async () => {
    stub({
      'GET /me': () => me,
      'GET /seasons/s1/standings': () => ({ season: { id: 's1', league_id: 'l1', name: 'Spring', status: 'open', created_at: '' }, frozen: false, tie_breaks: [], rows: [] }),
      'GET /leagues/l1': () => ({ id: 'l1', club_id: 'c1', name: 'Monday', description: '', created_at: '' }),
      'GET /clubs/c1': () => ({ id: 'c1', name: 'Dev Club' }),
      'GET /tournaments\\?season=.*': down,
    });
    await restore();
    const root = mount(<SeasonPage id="s1" />);
    await settle();
    const section = root.querySelector('section[aria-labelledby=season-tournaments]')!;
    expect(text(section)).toContain('The database is unreachable');
    expect(section.querySelector('[role=status]')).toBeNull();
  });

  it('on the new-tournament form: the error, not "you organize none"', async () => {
    stub({ 'GET /me': () => me, 'GET /users/u1/clubs.*': down });
    await restore();
    const root = mount(<NewTournament />);
    await settle();
    expect(text(root)).toContain('The database is unreachable');
    expect(text(root)).not.toContain('you organize none');
  });
});

// An unknown player's page showed "Player" over the server's lower-case "no such user", and no way on;
// the page of an unknown game, replay, club, league, season or tournament did the same.
describe('a page whose subject does not exist (404)', () => {
  const notFound = (path: string) => {
    throw new ApiError(404, { title: 'Not Found', detail: `no such ${path.split('/')[1].replace(/s$/, '')}` });
  };
  const pages: [string, preact.VNode, string, string][] = [
    ['a player', <Profile id="nope" />, 'No such player', '/leaderboards'],
    ['a game', <GamePage id="nope" />, 'No such game', '/'],
    ["a game's replay", <Replay id="nope" />, 'No such game', '/'],
    ['a club', <ClubPage id="nope" />, 'No such club', '/clubs'],
    ['a league', <LeaguePage id="nope" />, 'No such league', '/clubs'],
    ['a season', <SeasonPage id="nope" />, 'No such season', '/clubs'],
    ['a tournament', <TournamentPage id="nope" />, 'No such tournament', '/'],
    ['a leaderboard of no pool', <Leaderboard pool="nope" />, 'No such leaderboard', '/leaderboards'],
  ];
  it.each(pages)('%s: a heading in the app\'s words and a way on, not the server\'s text', async (_, page, heading, wayOn) => {
    vi.stubGlobal('EventSource', class { close() {} addEventListener() {} });
    stub({ 'GET /me': () => me, 'GET /.*': notFound });
    await restore();
    const root = mount(page);
    await settle();
    expect(root.querySelector('h1')!.textContent).toBe(heading);
    expect(document.title).toBe(`${heading} · Seqleague`);
    expect(text(root)).not.toMatch(/no such (user|game|club|league|season|tournament|leaderboard)|no pool/);
    expect(root.querySelector('[role=alert]')).toBeNull();
    expect([...root.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toContain(wayOn);
    vi.unstubAllGlobals();
  });

  it('any other error keeps the page\'s heading and shows the error', async () => {
    stub({ 'GET /me': () => me, 'GET /.*': down });
    await restore();
    const root = mount(<Profile id="u2" />);
    await settle();
    expect(root.querySelector('h1')!.textContent).toBe('Player');
    expect(root.querySelector('[role=alert]')!.textContent).toBe('The database is unreachable.');
  });
});

// A page whose subject was still being read showed a bare "Loading…": no heading, and the tab still titled
// as the page before it (a club opened from "Clubs" read "Clubs · Seqleague" until the club came).
describe('a page whose subject is being read', () => {
  const pages: [string, preact.VNode, string][] = [
    ['a player', <Profile id="u2" />, 'Player'],
    ['a game', <GamePage id="g1" />, 'Game'],
    ["a game's replay", <Replay id="g1" />, 'Replay'],
    ['a club', <ClubPage id="c1" />, 'Club'],
    ['a league', <LeaguePage id="l1" />, 'League'],
    ['a season', <SeasonPage id="s1" />, 'Season'],
    ['a tournament', <TournamentPage id="t1" />, 'Tournament'],
    ['the new-tournament form', <NewTournament />, 'New tournament'],
  ];
  it.each(pages)('%s: its heading and tab title over "Loading…"', async (_, page, heading) => {
    vi.stubGlobal('EventSource', class { close() {} addEventListener() {} });
    stub({ 'GET /me': () => me });
    await restore();
    const answered = api.get;
    vi.spyOn(api, 'get').mockImplementation(((path: string) => (path === '/me' ? answered(path) : new Promise(() => {}))) as never);
    document.title = 'Clubs · Seqleague';
    const root = mount(page);
    await settle();
    expect(root.querySelector('h1')?.textContent).toBe(heading);
    expect(document.title).toBe(`${heading} · Seqleague`);
    expect(root.querySelector('[role=status]')!.textContent).toMatch(/^Loading/);
    vi.unstubAllGlobals();
  });
});
