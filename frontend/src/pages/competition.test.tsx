// The competition pages against a stubbed API: the leaderboard's pages,
// the tournament page's drawing of each kind of bracket, the organizer's
// tournament form, the home page's next rounds, a club's member list.
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import type { LeaderboardRow, User, UserTournament } from '../api/types';
import { BracketDiagram, RoundsTables, STRETCH } from '../competition/BracketView';
import { GEOMETRY } from '../competition/bracket';
import css from '../styles.css?raw';
import { upcoming, roundLine } from '../competition/nextRounds';
import gp from '../competition/testdata/gp.json';
import se from '../competition/testdata/se.json';
import swiss from '../competition/testdata/swiss.json';
import de from '../competition/testdata/de.json';
import { api, restore } from '../session';
import Leaderboard from './Leaderboard';
import { when } from '../components/ui';
import { ClubPage } from './Clubs';
import { LeaguePage, SeasonPage } from './Leagues';
import NewTournament from './NewTournament';
import TournamentPage, { POLL_MS, REGISTRATION_POLL_MS, removalFinal, roundWait } from './Tournament';

import { calls, type Handler, mount, resetCalls, settle, stub, unmountAll, signOutAndUnmount } from '../testing/stubApi';
import { choose, typeInto as type } from '../testing/dom';
import { tournamentRoutes } from '../testing/tournament';

const click = (el: Element | null) => act(() => (el as HTMLElement).click());
const byText = (root: Element, sel: string, text: string | RegExp) =>
  [...root.querySelectorAll(sel)].find((e) => (typeof text === 'string' ? e.textContent?.trim() === text : text.test(e.textContent ?? ''))) ?? null;

beforeEach(() => {
  vi.restoreAllMocks();
  resetCalls();
  history.replaceState(null, '', '/');
});
afterEach(() => {
  // unmount, so no page keeps polling or reloading into the next test
  unmountAll();
});

function row(rank: number, i: number): LeaderboardRow {
  return { rank, user_id: `u${i}`, username: `player${i}`, kind: 'human', pool: 'sequence-2team', rating: 1700 - i, display: `${1700 - i}`, games: 40, peak: 1710, provisional: false };
}

describe('the leaderboard page', () => {
  it('pages forward by next_cursor and back, showing the ranks the API gives', async () => {
    history.replaceState(null, '', '/leaderboards/sequence-2team');
    const pages: Record<string, { items: LeaderboardRow[]; next_cursor: string }> = {
      '': { items: [row(1, 1), row(2, 2)], next_cursor: 'AAA' },
      AAA: { items: [row(2, 3), row(4, 4)], next_cursor: 'BBB' },
      BBB: { items: [row(5, 5)], next_cursor: '' },
    };
    stub({
      'GET /leaderboards/sequence-2team\\?.*': (p) => ({ pool: 'sequence-2team', ...pages[new URLSearchParams(p.split('?')[1]).get('cursor') ?? ''] }),
    });
    const root = mount(<Leaderboard pool="sequence-2team" />);
    await settle();
    const ranks = () => [...root.querySelectorAll('tbody tr')].map((r) => r.getAttribute('data-rank'));
    const nextBtn = () => byText(root, 'button', 'Next page →') as HTMLButtonElement;
    const prevBtn = () => byText(root, 'button', '← Previous page') as HTMLButtonElement;
    expect(ranks()).toEqual(['1', '2']);
    expect(root.querySelector('nav.pager')).not.toBeNull();
    expect(prevBtn().disabled).toBe(true);
    click(nextBtn());
    await settle();
    expect(ranks()).toEqual(['2', '4']); // a tie across the page boundary keeps its rank
    expect(root.querySelector('.results-title')!.textContent).toContain('page 2, ranks 2–4');
    click(nextBtn());
    await settle();
    expect(ranks()).toEqual(['5']);
    expect(nextBtn().disabled).toBe(true);
    click(prevBtn());
    await settle();
    expect(ranks()).toEqual(['2', '4']);
    const asked = calls.filter((c) => c.path.startsWith('/leaderboards')).map((c) => new URLSearchParams(c.path.split('?')[1]).get('cursor'));
    expect(asked).toEqual([null, 'AAA', 'BBB', 'AAA']);
  });

  it('says, on an empty board, that provisional players are hidden and how to show them', async () => {
    history.replaceState(null, '', '/leaderboards/stacks');
    stub({ 'GET /leaderboards/stacks\\?.*': () => ({ pool: 'stacks', items: [], next_cursor: '' }), 'GET /.*': () => ({ items: [], next_cursor: '' }) });
    let root = mount(<Leaderboard pool="stacks" />);
    await settle();
    expect(root.textContent).toContain('Nobody here has finished 30 rated games yet: tick “Show provisional players”');
    // no other page to go to: no pager (its two buttons, both disabled, and "Page 1" under an empty board)
    expect(root.querySelector('nav.pager')).toBeNull();
    unmountAll();
    history.replaceState(null, '', '/leaderboards/stacks?provisional=1');
    root = mount(<Leaderboard pool="stacks" />);
    await settle();
    expect(root.textContent).toContain('Nobody here yet.');
    expect(root.textContent).not.toContain('finished 30 rated games');
  });

  it('keeps the page in the URL, so that Back and a reload come to it', async () => {
    history.replaceState(null, '', '/leaderboards/sequence-2team?club=c1');
    const pages: Record<string, { items: LeaderboardRow[]; next_cursor: string }> = {
      '': { items: [row(1, 1), row(2, 2)], next_cursor: 'AAA' },
      AAA: { items: [row(3, 3), row(4, 4)], next_cursor: 'BBB' },
      BBB: { items: [row(5, 5)], next_cursor: '' },
    };
    stub({
      'GET /leaderboards/sequence-2team\\?.*': (p) => ({ pool: 'sequence-2team', ...pages[new URLSearchParams(p.split('?')[1]).get('cursor') ?? ''] }),
      'GET /.*': () => ({ items: [], next_cursor: '' }),
    });
    let root = mount(<Leaderboard pool="sequence-2team" />);
    await settle();
    const ranks = () => [...root.querySelectorAll('tbody tr')].map((r) => r.getAttribute('data-rank'));
    click(byText(root, 'button', 'Next page →')!);
    await settle();
    expect(location.pathname + location.search).toBe('/leaderboards/sequence-2team?club=c1&cursor=AAA&page=2');
    expect(ranks()).toEqual(['3', '4']);
    // the browser's Back comes to the first page again
    await act(async () => {
      history.replaceState(null, '', '/leaderboards/sequence-2team?club=c1');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await settle();
    expect(ranks()).toEqual(['1', '2']);
    // a reload on page 3 shows page 3, and offers the first page back
    unmountAll();
    history.replaceState(null, '', '/leaderboards/sequence-2team?club=c1&cursor=BBB&page=3');
    root = mount(<Leaderboard pool="sequence-2team" />);
    await settle();
    expect(ranks()).toEqual(['5']);
    expect(root.querySelector('.results-title')!.textContent).toContain('page 3, ranks 5–5');
    click(byText(root, 'button', '← First page')!);
    await settle();
    expect(ranks()).toEqual(['1', '2']);
    expect(location.search).toBe('?club=c1');
  });

  describe('the page around a player', () => {
    const me: User = { id: 'u7', username: 'player7', kind: 'human', is_admin: false, created_at: '' };
    // The board: u1..u9; the page around u7 (limit/2 above it) is u3..u9 here, cut short.
    const around = { items: [row(3, 5), row(3, 6), row(5, 7), row(6, 8)], next_cursor: 'AFTER' };
    const routes = (onBoard: boolean): Record<string, Handler> => ({
      'GET /me': () => me,
      'GET /users/u7/ratings\\?pool=sequence-2team&limit=1': () => ({
        user_id: 'u7',
        pools: [{ ...row(5, 7), rank: onBoard ? 5 : null, provisional: !onBoard, games: onBoard ? 40 : 12, wins: 1, losses: 0, draws: 0 }],
        history: [],
        next_cursor: '',
      }),
      'GET /users/u7/clubs\\?.*': () => ({ items: [], next_cursor: '' }),
      'GET /leaderboards/sequence-2team\\?.*': (p) => {
        const q = new URLSearchParams(p.split('?')[1]);
        const a = q.get('around');
        if (a) {
          if (!onBoard || (a !== 'me' && a !== 'u7')) throw new ApiError(404, { title: 'Not Found', status: 404, detail: 'that player is not on this leaderboard', errors: [{ field: 'around', message: 'must be a player on this leaderboard' }] });
          return { pool: 'sequence-2team', ...around };
        }
        if (q.get('cursor') === 'AFTER') return { pool: 'sequence-2team', items: [row(7, 9)], next_cursor: '' };
        return { pool: 'sequence-2team', items: [row(1, 1), row(2, 2)], next_cursor: 'AAA' };
      },
    });
    beforeEach(() => {
      vi.spyOn(api, 'refresh').mockResolvedValue(true);
    });
    afterEach(signOutAndUnmount);
    const ranks = (root: Element) => [...root.querySelectorAll('tbody tr')].map((r) => r.getAttribute('data-rank'));
    const asked = () => calls.filter((c) => c.path.startsWith('/leaderboards')).map((c) => c.path.split('?')[1]);

    it('offers "Show my place", which loads the page around me with my row current and focused, and pages on from it', async () => {
      history.replaceState(null, '', '/leaderboards/sequence-2team');
      stub(routes(true));
      await restore();
      const root = mount(<Leaderboard pool="sequence-2team" />);
      await settle();
      expect(ranks(root)).toEqual(['1', '2']);
      const show = byText(root, 'button', 'Show my place')!;
      expect(show.parentElement!.textContent).toContain('(#5)');
      expect(asked()).toEqual(['limit=25']); // the place is the ratings' rank: no page is asked for to find it
      await click(show);
      await settle();
      expect(location.pathname + location.search).toBe('/leaderboards/sequence-2team?around=me');
      expect(asked()).toContain('limit=25&around=me');
      expect(ranks(root)).toEqual(['3', '3', '5', '6']);
      const current = root.querySelectorAll('tbody tr[aria-current="true"]');
      expect(current.length).toBe(1);
      expect(current[0].textContent).toContain('player7');
      expect(document.activeElement).toBe(current[0]);
      expect(root.querySelector('.results-title')!.textContent).toContain('around you, ranks 3–6');
      expect(byText(root, 'button', 'Show my place')).toBeNull(); // here already
      // on by next_cursor, back to the page around me, and to the top
      await click(byText(root, 'button', 'Next page →'));
      await settle();
      expect(ranks(root)).toEqual(['7']);
      expect(location.search).toBe('?cursor=AFTER');
      expect(root.querySelector('.results-title')!.textContent).toContain('· ranks 7–7');
      await click(byText(root, 'button', '← Previous page'));
      await settle();
      expect(ranks(root)).toEqual(['3', '3', '5', '6']);
      await click(byText(root, 'button', '← First page'));
      await settle();
      expect(ranks(root)).toEqual(['1', '2']);
      expect(location.search).toBe('');
    });

    it("opens around the player a link names (a profile's place), and offers nothing to one not on the board", async () => {
      history.replaceState(null, '', '/leaderboards/sequence-2team?around=u7');
      stub(routes(false));
      await restore();
      let root = mount(<Leaderboard pool="sequence-2team" />);
      await settle();
      expect(asked()).toContain('limit=25&around=u7');
      expect(root.querySelector('[role="alert"], .error')?.textContent ?? root.textContent).toMatch(/not on this leaderboard/);
      unmountAll();
      history.replaceState(null, '', '/leaderboards/sequence-2team');
      root = mount(<Leaderboard pool="sequence-2team" />);
      await settle();
      expect(ranks(root)).toEqual(['1', '2']);
      expect(byText(root, 'button', 'Show my place')).toBeNull(); // provisional, so not on this board
    });

    it('says that I am not on a league\'s board when my place there is refused, not as an error', async () => {
      history.replaceState(null, '', '/leaderboards/sequence-2team?league=l1&around=me');
      stub(routes(false));
      await restore();
      const root = mount(<Leaderboard pool="sequence-2team" />);
      await settle();
      expect(asked()).toContain('limit=25&league=l1&around=me');
      expect(root.querySelector('[role="alert"]')).toBeNull();
      expect(root.querySelector('p[role="status"]')!.textContent).toBe('You are not on this board: you have no rated game in this league.');
      // the league filters the players, not the games: the ratings are the pool's
      expect(root.querySelector('[data-filter-note]')!.textContent).toContain('the league filter chooses who is listed (the players with a rated game in the league)');
    });

    it('offers my place with provisional players shown, but not on the board of a club I am not in', async () => {
      history.replaceState(null, '', '/leaderboards/sequence-2team?provisional=1');
      stub({ ...routes(false), 'GET /clubs/c9': () => ({ id: 'c9', name: 'Other Club' }), 'GET /clubs/c9/leagues\\?.*': () => ({ items: [], next_cursor: '' }) });
      await restore();
      let root = mount(<Leaderboard pool="sequence-2team" />);
      await settle();
      const show = byText(root, 'button', 'Show my place')!;
      expect(show.parentElement!.textContent).toBe('Show my place'); // no number: the ratings' rank is the default board's
      await click(show);
      await settle();
      expect(location.search).toBe('?provisional=1&around=me');
      expect(asked()).toContain('limit=25&provisional=true&around=me');
      unmountAll();
      history.replaceState(null, '', '/leaderboards/sequence-2team?club=c9&provisional=1');
      root = mount(<Leaderboard pool="sequence-2team" />);
      await settle();
      expect(byText(root, 'button', 'Show my place')).toBeNull();
    });

    it("marks the row of the player a link names, signed in as someone else", async () => {
      history.replaceState(null, '', '/leaderboards/sequence-2team?around=u7');
      stub({ ...routes(true), 'GET /me': () => ({ ...me, id: 'u1', username: 'player1' }), 'GET /users/u1/clubs\\?.*': () => ({ items: [], next_cursor: '' }) });
      await restore();
      const root = mount(<Leaderboard pool="sequence-2team" />);
      await settle();
      expect(ranks(root)).toEqual(['3', '3', '5', '6']);
      expect(root.querySelector('tbody tr[aria-current="true"]')!.textContent).toContain('player7');
      expect(root.querySelector('.results-title')!.textContent).toContain('around the player, ranks 3–6');
    });
  });

  it('asks for provisional players and a club when the filters say so', async () => {
    history.replaceState(null, '', '/leaderboards/stacks?club=c1&provisional=1');
    stub({
      'GET /leaderboards/stacks\\?.*': () => ({ pool: 'stacks', items: [{ ...row(1, 1), display: '1540?', provisional: true }], next_cursor: '' }),
      'GET /clubs/c1': () => ({ id: 'c1', name: 'Chess Club' }),
      'GET /clubs/c1/leagues\\?limit=100': () => ({ items: [{ id: 'l1', name: 'Monday league' }] }),
    });
    const root = mount(<Leaderboard pool="stacks" />);
    await settle();
    const q = new URLSearchParams(calls.find((c) => c.path.startsWith('/leaderboards'))!.path.split('?')[1]);
    expect([q.get('club'), q.get('provisional'), q.get('league')]).toEqual(['c1', 'true', null]);
    expect(root.querySelector('tbody td.strong')!.textContent).toBe('1540? (provisional)');
    expect((root.querySelector('#lb-prov') as HTMLInputElement).checked).toBe(true);
    expect([...root.querySelectorAll('#lb-league option')].map((o) => o.textContent)).toEqual(['Every league of the club', 'Monday league']);
    expect(root.querySelector('.tabs a[aria-current=page]')!.textContent).toBe('Sequence Stacks');
  });

  it("shows none of the last filter's rows when the chosen filter's read fails", async () => {
    // the error showed above the established players' rows, unmarked, under "Show provisional players" ticked
    history.replaceState(null, '', '/leaderboards/stacks');
    stub({
      'GET /leaderboards/stacks\\?.*': (p) => {
        if (p.includes('provisional=true')) throw new ApiError(502, { title: 'Bad Gateway' });
        return { pool: 'stacks', items: [row(1, 1), row(2, 2)], next_cursor: 'AAA' };
      },
    });
    const root = mount(<Leaderboard pool="stacks" />);
    await settle();
    expect(root.querySelectorAll('tbody tr')).toHaveLength(2);
    click(root.querySelector('#lb-prov'));
    await settle();
    expect(root.querySelector('[role=alert]')).not.toBeNull();
    expect(root.querySelectorAll('tbody tr')).toHaveLength(0);
    expect(root.querySelector('.results-title')!.textContent).not.toContain('ranks');
    expect(root.querySelector('nav.pager')).toBeNull();
  });
});

describe('the club page', () => {
  it('lists every member, a page at a time, rather than the first hundred', async () => {
    history.replaceState(null, '', '/clubs/c1');
    const member = (i: number) => ({ user_id: `u${i}`, username: `player${i}`, role: 'member' });
    stub({
      'GET /clubs/c1': () => ({ id: 'c1', name: 'Big Club', member_count: 21, created_at: '2026-01-01T00:00:00Z' }),
      'GET /clubs/c1/members\\?limit=20': () => ({ items: Array.from({ length: 20 }, (_, i) => member(i)), next_cursor: 'M2' }),
      'GET /clubs/c1/members\\?limit=20&cursor=M2': () => ({ items: [member(20)], next_cursor: '' }),
      'GET /.*': () => ({ items: [], next_cursor: '' }),
    });
    const root = mount(<ClubPage id="c1" />);
    await settle();
    const names = () => [...root.querySelectorAll('.member-list li a')].map((a) => a.textContent);
    expect(names()).toHaveLength(20);
    click(byText(root, 'button', 'More members'));
    await settle();
    expect(names()).toHaveLength(21);
    expect(names()[20]).toBe('player20');
    expect(byText(root, 'button', 'More members')).toBeNull();
  });
});

describe('the tournament page', () => {
  it("shows why a due round could not start, beside the round", async () => {
    const fx = structuredClone(se);
    fx.tournament.status = 'registration';
    fx.rounds = [{ number: 1, starts_at: '2026-01-01T00:00:00Z', status: 'scheduled', start_error: 'the tournament cannot start with 1 entry: a knockout needs at least 2 entries', matches: [] }] as never;
    stub(tournamentRoutes(fx));
    const root = mount(<TournamentPage id={fx.tournament.id} />);
    await settle();
    const row = root.querySelector('tr[data-round="1"]')!;
    expect(row.querySelector('[role=note]')!.textContent).toBe('Could not start: the tournament cannot start with 1 entry: a knockout needs at least 2 entries');
  });

  it('says a round past its start waits for the round before it, not "8 s ago"', async () => {
    const fx = structuredClone(se);
    Object.assign(fx.tournament, { status: 'running', current_round: 1 });
    const past = new Date(Date.now() - 8000).toISOString();
    const ahead = new Date(Date.now() + 3 * 3600_000).toISOString(); // "in 3 h" for a long while yet, however slow the run
    fx.rounds = [
      { number: 1, starts_at: '2026-01-01T00:00:00Z', started_at: '2026-01-01T00:00:00Z', status: 'running', matches: [] },
      { number: 2, starts_at: past, status: 'scheduled', matches: [] },
      { number: 3, starts_at: ahead, status: 'scheduled', matches: [] },
    ] as never;
    stub(tournamentRoutes(fx));
    const root = mount(<TournamentPage id={fx.tournament.id} />);
    await settle();
    const cell = (n: number) => root.querySelector(`tr[data-round="${n}"] td:nth-child(2)`)!.textContent!;
    expect(cell(2)).toMatch(/\(waits for round 1 to finish\)$/);
    expect(cell(2)).not.toMatch(/ago/);
    expect(cell(3)).toMatch(/\(in 3 h\)$/);
  });

  it('tells why a round past its start has not started: the round before, a pause, or nothing it knows', () => {
    const now = Date.parse('2026-05-01T12:00:00Z');
    const due = { number: 3, status: 'scheduled', starts_at: '2026-05-01T11:59:52Z' };
    const rounds = [{ number: 1, status: 'finished' }, { number: 2, status: 'running' }, due];
    expect(roundWait({ status: 'running', current_round: 2 }, rounds, due, now)).toBe('waits for round 2 to finish');
    // the round before not listed (it started when its own before ended): the current round
    expect(roundWait({ status: 'running', current_round: 2 }, [due], due, now)).toBe('waits for round 2 to finish');
    expect(roundWait({ status: 'paused', current_round: 2 }, rounds, due, now)).toBe('waits for the tournament to resume');
    expect(roundWait({ status: 'running', current_round: 2 }, rounds, { ...due, starts_at: '2026-05-01T12:05:00Z' }, now)).toBeNull();
    expect(roundWait({ status: 'running', current_round: 2 }, [{ number: 2, status: 'finished' }, due], due, now)).toBeNull();
    expect(roundWait({ status: 'running', current_round: 2 }, rounds, { ...due, start_error: 'cannot pair' }, now)).toBeNull();
  });

  it('lists a round that started off its schedule at the time it started', async () => {
    const fx = structuredClone(se);
    fx.rounds = [
      { number: 1, starts_at: '2020-01-01T00:00:00Z', started_at: '2026-01-01T10:00:00Z', status: 'finished', matches: [] },
      { number: 2, started_at: '2026-01-01T11:00:00Z', status: 'finished', matches: [] },
      { number: 3, starts_at: '2026-01-01T12:00:00Z', started_at: '2026-01-01T12:00:01Z', status: 'finished', matches: [] },
    ] as never;
    stub(tournamentRoutes(fx));
    const root = mount(<TournamentPage id={fx.tournament.id} />);
    await settle();
    const cell = (n: number) => root.querySelector(`tr[data-round="${n}"] td:nth-child(2)`)!.textContent!;
    expect(cell(1)).toMatch(/\(started; scheduled for .*2020/);
    // round 2 had no date: it started when round 1 ended, not by an organizer's hand
    expect(cell(2)).toMatch(/\(started after round 1\)/);
    expect(cell(2)).not.toMatch(/by hand/);
    expect(cell(3)).not.toMatch(/started/);
  });

  it('shows the deadline a late start moved, saying it moved and what was planned, and no word of a deadline as scheduled', async () => {
    const fx = structuredClone(se);
    fx.rounds = [
      { number: 1, starts_at: '2026-01-01T10:00:00Z', started_at: '2026-01-01T10:00:00Z', deadline: '2026-01-01T10:30:00Z', status: 'finished', matches: [] },
      {
        number: 2,
        starts_at: '2026-01-01T10:20:00Z',
        started_at: '2026-01-01T10:30:05Z',
        deadline: '2026-01-01T11:00:05Z',
        planned_deadline: '2026-01-01T10:50:00Z',
        status: 'running',
        matches: [],
      },
    ] as never;
    stub(tournamentRoutes(fx));
    const root = mount(<TournamentPage id={fx.tournament.id} />);
    await settle();
    const cell = (n: number) => root.querySelector(`tr[data-round="${n}"] td:nth-child(3)`)!.textContent!;
    expect(cell(2)).toBe(`${when('2026-01-01T11:00:05Z')} (moved: started late; planned ${when('2026-01-01T10:50:00Z')})`);
    expect(cell(1)).toBe(when('2026-01-01T10:30:00Z'));
  });

  it('says "started by hand" only of a first round without a date, and of a later one that it followed the round before', async () => {
    // A tournament started with "Start now" whose rounds then followed on by
    // themselves listed every round as "(started by hand)".
    const fx = structuredClone(se);
    fx.rounds = [
      { number: 1, started_at: '2026-01-01T10:00:00Z', status: 'finished', matches: [] },
      { number: 2, started_at: '2026-01-01T10:20:00Z', status: 'finished', matches: [] },
      { number: 3, started_at: '2026-01-01T10:40:00Z', status: 'running', matches: [] },
    ] as never;
    stub(tournamentRoutes(fx));
    const root = mount(<TournamentPage id={fx.tournament.id} />);
    await settle();
    const cell = (n: number) => root.querySelector(`tr[data-round="${n}"] td:nth-child(2)`)!.textContent!;
    expect(cell(1)).toMatch(/\(started by hand\)$/);
    expect(cell(2)).toMatch(/\(started after round 1\)$/);
    expect(cell(3)).toMatch(/\(started after round 2\)$/);
  });

  it('says in the header that a tournament is running, live, or paused, never both', async () => {
    let status = 'running';
    const routes = tournamentRoutes(se);
    routes[`GET /tournaments/${se.tournament.id}`] = () => ({ ...se.tournament, status });
    stub(routes);
    let root = mount(<TournamentPage id={se.tournament.id} />);
    await settle();
    const states = () => [...root.querySelectorAll('.tournament-head .tag, .tournament-head .conn')].map((e) => e.textContent!.trim());
    expect(states()).toEqual(['running', 'live']);
    unmountAll();
    status = 'paused';
    root = mount(<TournamentPage id={se.tournament.id} />);
    await settle();
    expect(states()).toEqual(['paused']);
  });

  it('names the club, league and season in the breadcrumb, and leaves out what it has none of', async () => {
    const fx = structuredClone(se);
    Object.assign(fx.tournament, { season_id: 's1' });
    stub({
      ...tournamentRoutes(fx),
      'GET /seasons/s1/standings': () => ({ season: { id: 's1', league_id: 'l1', name: 'Spring', status: 'open', created_at: '' }, frozen: false, tie_breaks: [], rows: [] }),
      'GET /leagues/l1': () => ({ id: 'l1', club_id: fx.tournament.club_id, name: 'Monday league', description: '', created_at: '' }),
    });
    const root = mount(<TournamentPage id={fx.tournament.id} />);
    await settle();
    const crumbs = root.querySelector('.crumbs')!;
    expect(crumbs.textContent!.replace(/\s+/g, ' ').trim()).toBe('Dev Club › Monday league › Spring');
    expect([...crumbs.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([`/clubs/${fx.tournament.club_id}`, '/leagues/l1', '/seasons/s1']);
    unmountAll();
    stub(tournamentRoutes(se));
    const alone = mount(<TournamentPage id={se.tournament.id} />);
    await settle();
    expect(alone.querySelector('.crumbs')!.textContent!.replace(/\s+/g, ' ').trim()).toBe('Dev Club');
  });

  it('draws a finished knockout: boxes per round, connectors, the champion, links to replays', async () => {
    stub(tournamentRoutes(se));
    const root = mount(<TournamentPage id={se.tournament.id} />);
    await settle();
    expect(root.querySelector('h1')!.textContent).toBe(se.tournament.name);
    const boxes = [...root.querySelectorAll('.match-box')];
    expect(boxes.map((b) => b.getAttribute('aria-label'))).toEqual(['Semifinal 1, done', 'Semifinal 2, done', 'Final, done']);
    expect(root.querySelectorAll('svg.connectors path')).toHaveLength(2);
    const champ = se.entries.find((e) => e.id === se.bracket.champion)!;
    expect(root.querySelector('.champion-banner')!.textContent).toContain(`Champion: ${champ.name}`);
    expect(root.querySelector('.match-box[data-match="M2-1"] .slot.champion')!.textContent).toContain(champ.name);
    // What a screen reader hears is text: ARIA names no plain span.
    expect(root.querySelectorAll('span[aria-label]:not([role])')).toHaveLength(0);
    expect(root.querySelector('.match-box[data-match="M2-1"] .slot.champion')!.textContent).toMatch(/champion$/);
    expect(boxes.every((b) => b.querySelectorAll('.slots li').length === 2)).toBe(true);
    const links = [...root.querySelectorAll('.match-box a.game-link')].map((a) => a.getAttribute('href'));
    expect(links).toHaveLength(3);
    expect(links.every((h) => /^\/games\/[0-9a-f-]+\/replay$/.test(h!))).toBe(true);
    expect(root.querySelector('a[href$="standings.csv"]')).not.toBeNull();
    expect(root.querySelector('a[href$="calendar.ics"]')).not.toBeNull();
    // nobody signed in: no organizer tools
    expect(root.textContent).not.toContain('Organizer tools');
  });

  // the entries said "bot random" of the account the game pages, the lobby and the leaderboard call "bot-random"
  it("names a bot entry's player by its account's name", async () => {
    stub(tournamentRoutes(se));
    const root = mount(<TournamentPage id={se.tournament.id} />);
    await settle();
    const players = [...root.querySelectorAll('table.entries td[data-label=Player]')].map((td) => td.textContent);
    expect(players).toEqual(['bot-random', 'bot-random', 'bot-random', 'bot-random']);
  });

  it('shows double elimination in three sections', async () => {
    stub(tournamentRoutes(de as unknown as typeof se));
    const root = mount(<TournamentPage id={de.tournament.id} />);
    await settle();
    expect([...root.querySelectorAll('.bracket-section h3')].map((h) => h.textContent)).toEqual(['Winners bracket', 'Losers bracket', 'Grand final']);
    expect(root.querySelector('.match-box[data-match="GF2"]')!.getAttribute('aria-label')).toBe('Grand final reset, not needed');
    expect(root.querySelector('.match-box[data-match="L2-1"] .slots')!.textContent).toMatch(/de bot/);
  });

  it('shows a Swiss as a table per round, with every tie-break in the standings', async () => {
    stub(tournamentRoutes(swiss as unknown as typeof se));
    const root = mount(<TournamentPage id={swiss.tournament.id} />);
    await settle();
    expect(root.querySelectorAll('.round-block')).toHaveLength(swiss.bracket.rounds.length);
    expect(root.querySelectorAll('.round-block table.matches tbody tr').length).toBe(swiss.bracket.rounds.reduce((n, r) => n + r.matches.length, 0));
    expect([...root.querySelectorAll('table.standings th.tb')].map((th) => th.getAttribute('data-tie-break'))).toEqual(swiss.standings[0].tie_breaks.map((t) => t.name));
  });

  it('says a scheduled round is not paired yet, rather than show a table with no rows', async () => {
    // a table of headers alone is what axe left for review (th-has-data-cells): a table a screen reader cannot read
    const root = mount(<RoundsTables rounds={[{ number: 1, name: 'Round 1', matches: [] }]} schedule={[{ number: 1, status: 'scheduled', matches: [] }]} />);
    expect(root.querySelector('.round-block table')).toBeNull();
    expect(root.querySelector('.round-block > p')!.textContent).toBe('Not paired yet.');
  });

  // A group stage's bye ("R1-bye-…", no group in its ID) showed with an empty Group cell, sorted ahead of group A.
  it("names a group stage bye's group, from the standings or the entry's other matches", () => {
    const slot = (id: string, name: string) => ({ source: 'entry', entry: { id, name, seed: 0 } });
    const m = (id: string, ...slots: ReturnType<typeof slot>[]) => ({ id, round: 1, state: slots.length === 1 ? 'bye' : 'finished', slots, winner: slots[0].entry.id, game_winners: [], games: [] });
    const round1 = { number: 1, name: 'Round 1', matches: [m('A-R1-1', slot('a', 'Ada'), slot('b', 'Bo')), m('B-R1-1', slot('d', 'Di'), slot('e', 'Ed')), m('R1-bye-c', slot('c', 'Cy'))] };
    const round2 = { number: 2, name: 'Round 2', matches: [m('A-R2-1', slot('c', 'Cy'), slot('a', 'Ada')), m('R2-bye-b', slot('b', 'Bo'))] };
    const schedule = [1, 2].map((number) => ({ number, status: 'finished', matches: [] }));
    const groups = (root: Element, round: number) => [...root.querySelectorAll(`#round-${round} ~ .table-wrap tbody tr`)].map((tr) => `${tr.querySelector('td')!.textContent} ${tr.getAttribute('data-match')}`);
    // from the entries' other matches
    let root = mount(<RoundsTables rounds={[round1, round2]} schedule={schedule} />);
    expect(groups(root, 1)).toEqual(['A A-R1-1', 'A R1-bye-c', 'B B-R1-1']);
    expect(groups(root, 2)).toEqual(['A A-R2-1', 'A R2-bye-b']);
    unmountAll();
    // round 1 alone (the later rounds not paired yet): from the standings
    root = mount(<RoundsTables rounds={[round1]} schedule={schedule} entryGroups={new Map([['c', 'A']])} />);
    expect(groups(root, 1)).toEqual(['A A-R1-1', 'A R1-bye-c', 'B B-R1-1']);
  });

  it('says a match was won by forfeit, naming the entry found absent', () => {
    // a forfeit win read as a win played over the board
    const slot = (id: string, name: string) => ({ source: 'entry', entry: { id, name, seed: 0 } });
    const match = { id: 'R1-1', round: 1, state: 'finished', slots: [slot('a', 'Ada'), slot('b', 'Bo')], winner: 'a', game_winners: ['a'], games: ['g1'] };
    const played = { id: 'R1-1', entries: ['a', 'b'], bye: false, status: 'finished', winner: 'a', game_winners: ['a'], sequences: [0, 0], games: ['g1'] };
    const result = (forfeited?: string[]) => {
      const root = mount(<RoundsTables rounds={[{ number: 1, name: 'Round 1', matches: [match] }]} schedule={[{ number: 1, status: 'finished', matches: [{ ...played, forfeited }] }]} />);
      return root.querySelector('tr[data-match="R1-1"] td')!.textContent;
    };
    expect(result(['b'])).toBe('Ada won (Bo forfeited)');
    expect(result([])).toBe('Ada won');
    expect(result()).toBe('Ada won');
  });

  // A match of three drawn between two that won a game each read "drawn" of the third, which lost it.
  it('says who lost a match of three drawn at the top', () => {
    const slot = (id: string, name: string) => ({ source: 'entry', entry: { id, name, seed: 0 } });
    const match = { id: 'R1-1', round: 1, state: 'finished', slots: [slot('a', 'Ada'), slot('b', 'Bo'), slot('c', 'Cy')], game_winners: ['a', '', 'b'], games: ['g1', 'g2', 'g3'] };
    const played = { id: 'R1-1', entries: ['a', 'b', 'c'], bye: false, status: 'finished', game_winners: ['a', '', 'b'], sequences: [0, 0, 0], games: ['g1', 'g2', 'g3'] };
    const result = (beaten?: string[]) => {
      const root = mount(<RoundsTables rounds={[{ number: 1, name: 'Round 1', matches: [{ ...match, beaten }] }]} schedule={[{ number: 1, status: 'finished', matches: [played] }]} />);
      return root.querySelector('tr[data-match="R1-1"] td')!.textContent;
    };
    expect(result(['c'])).toBe('drawn; Cy lost');
    expect(result()).toBe('drawn');
  });

  // At 1280 px an 8-entry bracket kept its 200 px boxes in a 1,100 px page, "Winner of Quarterfinal 2" cut to
  // "Winner of Quarterfi…": a section now takes the width there is, from its geometry's width (below which it
  // scrolls sideways, as on a phone) up to STRETCH times it, its boxes and connectors in proportion.
  it('lets a bracket take the width there is: boxes in shares of a canvas from its geometry up to STRETCH times it', () => {
    const slot = (id: string, name: string) => ({ source: 'entry', entry: { id, name, seed: 0 } });
    const semi = (n: number) => ({ id: `M1-${n}`, round: 1, state: 'ready', slots: [slot(`a${n}`, `Ada${n}`), slot(`b${n}`, `Bo${n}`)] });
    const fin = { id: 'M2-1', round: 2, state: 'pending', slots: [{ source: 'winner', match: 'M1-1' }, { source: 'winner', match: 'M1-2' }] };
    const rounds = [
      { number: 1, name: 'Semifinals', matches: [semi(1), semi(2)] },
      { number: 2, name: 'Final', matches: [fin] },
    ] as unknown as Parameters<typeof BracketDiagram>[0]['rounds'];
    const root = mount(<BracketDiagram rounds={rounds} matchSize={2} />);
    const W = 2 * GEOMETRY.boxW + GEOMETRY.colGap;
    const canvas = root.querySelector('.bracket-canvas') as HTMLElement;
    expect(canvas.style.minWidth).toBe(`${W}px`);
    expect(canvas.style.maxWidth).toBe(`${Math.round(W * STRETCH)}px`);
    expect(STRETCH).toBeGreaterThanOrEqual(1.5);
    const share = (v: number) => `${+((v / W) * 100).toFixed(4)}%`;
    const box = (id: string) => (root.querySelector(`.match-box[data-match="${id}"]`) as HTMLElement).style;
    expect([box('M1-1').left, box('M1-1').width]).toEqual(['0%', share(GEOMETRY.boxW)]);
    expect([box('M2-1').left, box('M2-1').width]).toEqual([share(GEOMETRY.boxW + GEOMETRY.colGap), share(GEOMETRY.boxW)]);
    const heads = [...root.querySelectorAll('.bracket-col-head')].map((h) => [(h as HTMLElement).style.left, (h as HTMLElement).style.width]);
    expect(heads).toEqual([
      ['0%', share(GEOMETRY.boxW)],
      [share(GEOMETRY.boxW + GEOMETRY.colGap), share(GEOMETRY.boxW)],
    ]);
    const svg = root.querySelector('svg.connectors')!;
    expect(svg.getAttribute('width')).toBe('100%');
    expect(svg.getAttribute('viewBox')).toMatch(new RegExp(`^0 0 ${W} \\d+$`));
    expect(svg.getAttribute('preserveAspectRatio')).toBe('none');
    // the canvas fills its region (styles.css), its lines as thick stretched or not
    const rule = (sel: string) => css.replace(/\/\*[\s\S]*?\*\//g, '').match(new RegExp(`(^|\\})\\s*${sel.replace(/[.]/g, '\\.')}\\s*\\{([^}]*)\\}`))?.[2] ?? '';
    expect(rule('.bracket-canvas')).toMatch(/width:\s*100%/);
    expect(rule('svg.connectors path')).toMatch(/vector-effect:\s*non-scaling-stroke/);
  });

  it('marks the entry that forfeited in its bracket box, and nobody in a match played', () => {
    // a knockout win by forfeit read as one played over the board
    const slot = (id: string, name: string) => ({ source: 'entry', entry: { id, name, seed: 0 } });
    const match = { id: 'M1-1', round: 1, state: 'done', slots: [slot('a', 'Ada'), slot('b', 'Bo')], winner: 'a', game_winners: ['a'], games: ['g1'] };
    const played = { id: 'M1-1', entries: ['a', 'b'], bye: false, status: 'finished', winner: 'a', game_winners: ['a'], sequences: [0, 0], games: ['g1'] };
    const slots = (forfeited?: string[]) => {
      const root = mount(<BracketDiagram rounds={[{ number: 1, name: 'Final', matches: [match] }]} matchSize={2} schedule={[{ number: 1, status: 'finished', matches: [{ ...played, forfeited }] }]} />);
      return [...root.querySelectorAll('.match-box[data-match="M1-1"] .slot')].map((li) => li.querySelector('.slot-tag')?.textContent ?? '');
    };
    expect(slots(['b'])).toEqual(['', 'forfeited']);
    expect(slots([])).toEqual(['', '']);
    expect(slots()).toEqual(['', '']);
    // a fill-in bot stood in for Bo's player: the box said nothing, as if Bo had played
    const standIn = (stand_ins: { entry_id: string; games: string[]; players: { user: string; username: string }[] }[]) => {
      const root = mount(<BracketDiagram rounds={[{ number: 1, name: 'Final', matches: [match] }]} matchSize={2} schedule={[{ number: 1, status: 'finished', matches: [{ ...played, stand_ins }] }]} />);
      return [...root.querySelectorAll('.match-box[data-match="M1-1"] .slot')].map((li) => li.querySelector('.slot-tag')?.textContent ?? '');
    };
    expect(standIn([{ entry_id: 'b', games: ['g1'], players: [{ user: 'u2', username: 'bo' }] }])).toEqual(['', 'bot stood in']);
  });

  it('shows groups then playoffs: group rounds and the playoff bracket', async () => {
    stub(tournamentRoutes(gp as unknown as typeof se));
    const root = mount(<TournamentPage id={gp.tournament.id} />);
    await settle();
    expect([...root.querySelectorAll('h3.stage')].map((h) => h.textContent)).toEqual(['Group stage', 'Playoffs']);
    expect(root.querySelector('.round-block thead')!.textContent).toContain('Group');
    expect(root.querySelectorAll('.match-box')).toHaveLength(gp.bracket.playoffs!.reduce((n, r) => n + r.matches.length, 0));
  });

  it('shows a table per group in groups then playoffs, each ranked as its group, the playoffs being the bracket', async () => {
    // The standings were one table of both groups: the entries in the playoffs
    // first (four at rank 1, a runner-up on 4 points above a winner on 6),
    // and nothing said which group a row was of.
    stub(tournamentRoutes(gp as unknown as typeof se));
    let root = mount(<TournamentPage id={gp.tournament.id} />);
    await settle();
    const standings = () => root.querySelector('#standings-title')!.closest('section')!;
    const tables = () =>
      [...standings().querySelectorAll('.group-standings')].map((g) => ({
        heading: g.querySelector('h3')!.textContent,
        caption: g.querySelector('caption')!.textContent,
        rows: [...g.querySelectorAll('tbody tr')].map((tr) => `${tr.querySelector('td')!.textContent} ${tr.querySelector('th')!.textContent}`),
      }));
    expect(tables().map((g) => g.heading)).toEqual(['Group A', 'Group B']);
    expect(tables()[0].caption).toMatch(/^Group A: ranked by points, then Head-to-head/);
    expect(tables()[0].rows).toEqual(['1 gp bot 3', '2 gp bot 7', '3 gp bot 6', '4 gp bot 8']);
    expect(tables()[1].rows).toEqual(['1 gp bot 1', '2 gp bot 4', '3 gp bot 5', '4 gp bot 2']);
    // and, the tournament being over, its final places: the playoffs' first, then the group stage's
    // (the page showed none, and nothing said why two group winners scored differently in the season)
    const places = [...standings().querySelectorAll('.final-places tbody tr')].map((tr) => `${tr.querySelector('td')!.textContent} ${tr.querySelector('th')!.textContent}`);
    expect(places).toEqual(['1 gp bot 1', '2 gp bot 4', '3 gp bot 3', '3 gp bot 7', '5 gp bot 5', '6 gp bot 6', '7 gp bot 2', '8 gp bot 8']);
    expect(standings().querySelectorAll('table')).toHaveLength(3);
    unmountAll();
    // before the start no group is drawn: one table, ranked by points
    const registration = { ...structuredClone(gp), standings: gp.standings.map(({ group: _g, group_rank: _r, ...r }) => ({ ...r, rank: 1 })) };
    registration.tournament.status = 'registration';
    stub(tournamentRoutes(registration as unknown as typeof se));
    root = mount(<TournamentPage id={gp.tournament.id} />);
    await settle();
    expect(standings().querySelectorAll('.group-standings')).toHaveLength(0);
    // nor a table of every entry at rank 1, which read as a ranking
    expect(standings().querySelector('table')).toBeNull();
    expect(standings().textContent).toContain('The standings begin with round 1.');
  });

  it("shows in a group's table its group stage's matches, not the playoffs' too", async () => {
    // A finalist's row counts its playoff matches (P 4, Seq. 9) while its
    // points and tie-breaks are the group stage's: its group's table read
    // "P 4, Seq. 9" beside a Sequences tie-break of 7.
    const finalist = structuredClone(gp);
    const row = finalist.standings.find((r) => r.name === 'gp bot 1')!;
    Object.assign(row, { played: 4, wins: 4, sequences: 9, group_stage: { played: 3, wins: 3, draws: 0, losses: 0, byes: 0, sequences: 7 } });
    stub(tournamentRoutes(finalist as unknown as typeof se));
    const root = mount(<TournamentPage id={gp.tournament.id} />);
    await settle();
    const groupB = root.querySelector('.group-standings[data-group=B]')!;
    const cells = [...groupB.querySelectorAll('tbody tr')].find((tr) => tr.querySelector('th')!.textContent === 'gp bot 1')!.querySelectorAll('td');
    const head = [...groupB.querySelectorAll('thead th')].map((th) => th.textContent);
    const at = (col: string) => cells[head.indexOf(col) - 1].textContent; // the row's th (Entry) is not a td
    // the group stage's sequences, once: the Sequences tie-break says what a Seq. column would
    expect(head).not.toContain('Seq.');
    expect([at('P'), at('W'), at('Sequences'), at('Points')]).toEqual(['3', '3', '7', '6']);
  });

  it('marks in the group tables the entries that reached the playoffs, a tie at the cut among them', async () => {
    // Three entries of a group tied at the cut shared group rank 1, and nothing said which two went through.
    const tied = structuredClone(gp);
    const groupA = tied.standings.filter((r) => r.group === 'A');
    groupA.slice(0, 3).forEach((r) => Object.assign(r, { group_rank: 1 }));
    groupA.slice(0, 2).forEach((r) => Object.assign(r, { qualified: true }));
    stub(tournamentRoutes(tied as unknown as typeof se));
    const root = mount(<TournamentPage id={gp.tournament.id} />);
    await settle();
    const rows = [...root.querySelectorAll('.group-standings[data-group=A] tbody tr')].map((tr) => ({
      rank: tr.querySelector('td')!.textContent,
      playoffs: tr.querySelector('th .tag-won')?.textContent ?? '',
    }));
    expect(rows.map((r) => r.rank)).toEqual(['1', '1', '1', '4']);
    expect(rows.filter((r) => r.playoffs === 'playoffs')).toHaveLength(2);
    expect(rows[3].playoffs).toBe('');
  });

  it("counts a started tournament's rounds as the server does, where the page cannot", async () => {
    // A three-team round robin said "Round 1" with no total, and its schedule form offered 1 round.
    const fx = structuredClone(se);
    Object.assign(fx.tournament, { status: 'running', current_round: 1, format: 'round-robin', match_size: 3, rounds_planned: 5 });
    stub(tournamentRoutes(fx));
    const root = mount(<TournamentPage id={fx.tournament.id} />);
    await settle();
    expect(root.querySelector('.round-now')!.textContent).toBe('Round 1 of 5');
    // the entries' ratings are those read at the start (Swiss Open still listed 1500 after bob fell to 1472)
    expect(root.querySelector('table.entries thead')!.textContent).toContain('Rating at start');
  });

  it('polls while running and stops once finished', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      let status = 'running';
      const routes = tournamentRoutes(se);
      routes[`GET /tournaments/${se.tournament.id}`] = () => ({ ...se.tournament, status });
      stub(routes);
      mount(<TournamentPage id={se.tournament.id} />);
      await settle();
      const loads = () => calls.filter((c) => c.path === `/tournaments/${se.tournament.id}`).length;
      expect(loads()).toBe(1);
      await act(async () => void vi.advanceTimersByTime(3000));
      await settle();
      expect(loads()).toBe(2);
      status = 'finished';
      await act(async () => void vi.advanceTimersByTime(3000));
      await settle();
      expect(loads()).toBe(3);
      await act(async () => void vi.advanceTimersByTime(9000));
      await settle();
      expect(loads()).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  // An organizer's page in open registration never showed a member's new entry, and a registered
  // player's never showed the tournament started by "Start now" (round 1, their game), without a reload.
  it('polls during open registration with no round scheduled, less often, and shows the start', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const fx = structuredClone(se);
      fx.tournament.status = 'registration';
      let started = false;
      const routes = tournamentRoutes(fx);
      routes[`GET /tournaments/${fx.tournament.id}`] = () => ({ ...fx.tournament, status: started ? 'running' : 'registration', current_round: started ? 1 : 0 });
      routes[`GET /tournaments/${fx.tournament.id}/rounds`] = () => ({ rounds: started ? se.rounds : [] });
      stub(routes);
      const root = mount(<TournamentPage id={fx.tournament.id} />);
      await settle();
      const loads = () => calls.filter((c) => c.path === `/tournaments/${fx.tournament.id}`).length;
      expect(loads()).toBe(1);
      await act(async () => void vi.advanceTimersByTime(POLL_MS));
      await settle();
      expect(loads()).toBe(1); // not every 3 s: nothing is due
      started = true;
      await act(async () => void vi.advanceTimersByTime(REGISTRATION_POLL_MS - POLL_MS));
      await settle();
      expect(loads()).toBe(2);
      expect(root.querySelector('.tournament-head')!.getAttribute('data-status')).toBe('running');
      await act(async () => void vi.advanceTimersByTime(POLL_MS)); // running: every 3 s again
      await settle();
      expect(loads()).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the tournament page, signed in', () => {
  const me: User = { id: 'me1', username: 'mate', kind: 'human', is_admin: false, created_at: '' };
  const t = swiss.tournament;
  // A team of two: someone else is its captain, I am its second player.
  const team = { id: 'e-team', name: 'Our Team', captain_id: 'cap1', seed: 0, rating: 1500, status: 'active', members: [{ user: 'cap1', username: 'cap' }, { user: 'me1', username: 'mate' }] };
  const page = (over: { status?: string; role?: string; entries?: unknown[]; patch?: Handler }) => {
    const routes: Record<string, Handler> = {
      ...tournamentRoutes(swiss as unknown as typeof se),
      'GET /me': () => me,
      [`GET /tournaments/${t.id}`]: () => ({ ...t, status: over.status ?? 'running', entries: 5 }),
      [`GET /tournaments/${t.id}/entries\\?limit=100`]: () => ({ items: over.entries ?? [team, ...swiss.entries.slice(1)] }),
      [`GET /clubs/${t.club_id}`]: () => ({ id: t.club_id, name: 'Dev Club', viewer_role: over.role ?? 'member' }),
      [`GET /clubs/${t.club_id}/members\\?limit=100`]: () => ({ items: [] }),
      [`DELETE /tournaments/${t.id}/entries\\?entry=.*`]: () => undefined,
    };
    if (over.patch) routes[`PATCH /tournaments/${t.id}`] = over.patch;
    return routes;
  };
  beforeEach(() => {
    vi.spyOn(api, 'refresh').mockResolvedValue(true);
  });
  afterEach(signOutAndUnmount);

  it("offers the viewer's own game in play as \"play\", not \"watch live\", and marks the match as theirs", async () => {
    // Alice's own game, her turn, read "● watch live" in the rounds and the bracket.
    const fx = structuredClone(swiss);
    const live = (i: number, mine: boolean) => {
      const m = fx.bracket.rounds[0].matches[i] as { state: string; winner?: string; game_winners: string[]; slots: { entry: { id: string } }[] };
      m.state = 'ready';
      delete m.winner;
      m.game_winners = [];
      if (mine) m.slots[0].entry.id = 'e-team';
      Object.assign(fx.rounds[0].matches[i], { status: 'playing', game_winners: [] });
    };
    live(0, true);
    live(1, false);
    fx.rounds[0].status = 'running';
    stub({ ...page({}), [`GET /tournaments/${t.id}/rounds`]: () => ({ rounds: fx.rounds }), [`GET /tournaments/${t.id}/bracket`]: () => fx.bracket });
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    const link = (id: string) => root.querySelector(`tr[data-match="${id}"] td.links a`)!;
    expect(link('R1-1').textContent).toBe('● play');
    expect(link('R1-1').getAttribute('aria-label')).toMatch(/: Game: play$/);
    expect(link('R1-1').getAttribute('href')).toBe(`/games/${fx.bracket.rounds[0].matches[0].games[0]}`);
    expect(root.querySelector('tr[data-match="R1-1"]')!.classList.contains('mine')).toBe(true);
    expect(link('R1-2').textContent).toBe('● watch live');
    expect(root.querySelector('tr[data-match="R1-2"]')!.classList.contains('mine')).toBe(false);
  });

  it('lets any player named in an entry withdraw it, not only its captain', async () => {
    stub(page({}));
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    const buttons = [...root.querySelectorAll('table.entries button')];
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual(['Withdraw Our Team…']);
    await click(buttons[0]);
    await settle();
    await click(root.querySelector('table.entries button[aria-label="Withdraw for good: Our Team"]'));
    await settle();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/tournaments/${t.id}/entries?entry=e-team`]);
  });

  it('asks once more before a withdrawal from a running tournament, which only an organizer can undo, with the focus on Cancel and back', async () => {
    stub(page({}));
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    const withdraw = root.querySelector('table.entries button') as HTMLButtonElement;
    withdraw.focus();
    await click(withdraw);
    await settle();
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    const cancel = byText(root, 'table.entries button', 'Cancel') as HTMLButtonElement;
    expect(root.querySelector('table.entries [role=group]')!.getAttribute('aria-label')).toBe('Withdraw Our Team? Only an organizer can reinstate it');
    expect(document.activeElement).toBe(cancel);
    await click(cancel);
    await settle();
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    expect(document.activeElement).toBe(root.querySelector('table.entries button[aria-label="Withdraw Our Team…"]'));
  });

  it('asks too when an organizer removes an entry from a paused tournament', async () => {
    stub(page({ status: 'paused', role: 'organizer' }));
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    const first = root.querySelector('table.entries button') as HTMLButtonElement;
    expect(first.getAttribute('aria-label')).toBe('Withdraw Our Team…');
    await click(first);
    await settle();
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    expect(byText(root, 'table.entries button', 'Withdraw for good')).not.toBeNull();
  });

  it("gives an organizer, and nobody else, a withdrawn entry's Reinstate", async () => {
    const gone = { ...team, status: 'withdrawn' };
    for (const [role, want] of [
      ['organizer', ['Reinstate Our Team']],
      ['member', []],
    ] as const) {
      stub({ ...page({ role, entries: [gone, ...swiss.entries.slice(1)] }), [`POST /tournaments/${t.id}/entries/e-team/reinstate`]: () => ({ ...team, status: 'active' }) });
      await restore();
      const root = mount(<TournamentPage id={t.id} />);
      await settle();
      const buttons = [...root.querySelectorAll('table.entries tr[data-status=withdrawn] button')];
      expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual(want);
      if (role === 'organizer') {
        resetCalls();
        await click(buttons[0]);
        await settle();
        expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`/tournaments/${t.id}/entries/e-team/reinstate`]);
        expect(document.activeElement).toBe(root.querySelector('#entries-title'));
      }
      unmountAll();
    }
  });

  it('holds a removal final once started, or once registration has closed', () => {
    const now = Date.parse('2026-05-01T12:00:00Z');
    expect(removalFinal({ status: 'registration' }, now)).toBe(false);
    expect(removalFinal({ status: 'registration', registration_closes: '2026-05-01T13:00:00Z' }, now)).toBe(false);
    expect(removalFinal({ status: 'registration', registration_closes: '2026-05-01T11:00:00Z' }, now)).toBe(true);
    expect(removalFinal({ status: 'running' }, now)).toBe(true);
    expect(removalFinal({ status: 'paused' }, now)).toBe(true);
  });

  it('removes an entry at one click during open registration, where one registers again', async () => {
    stub(page({ status: 'registration' }));
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    const remove = root.querySelector('table.entries button') as HTMLButtonElement;
    expect(remove.getAttribute('aria-label')).toBe('Remove Our Team');
    await click(remove);
    await settle();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/tournaments/${t.id}/entries?entry=e-team`]);
  });

  // At a 390 px phone the entries table's last column, one's only "Remove", was scrolled out of sight.
  it('offers my own removal on the line that says I am entered, outside the entries table', async () => {
    stub(page({ status: 'registration' }));
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    const line = root.querySelector('.entered-line')!;
    expect(line.querySelector('#entered')!.textContent).toBe('You are entered as Our Team.');
    const mine = byText(line, 'button', 'Remove my entry') as HTMLButtonElement;
    expect(mine.closest('table')).toBeNull();
    await click(mine);
    await settle();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/tournaments/${t.id}/entries?entry=e-team`]);
  });

  it('offers my own withdrawal under way too, outside the table, asking once more', async () => {
    stub(page({}));
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    const line = root.querySelector('.entered-line')!;
    expect(line.querySelector('.muted')!.textContent).toBe('You play as Our Team.');
    await click(byText(line, 'button', 'Withdraw my entry…'));
    await settle();
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    expect(line.querySelector('[role=group]')!.getAttribute('aria-label')).toBe('Withdraw my entry? Only an organizer can reinstate it');
    await click(byText(line, 'button', 'Withdraw for good'));
    await settle();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/tournaments/${t.id}/entries?entry=e-team`]);
  });

  // "Withdraw for good" was named "Withdraw Our Team for good" (and "Withdraw my entry for good"):
  // a speech user saying the words shown pressed nothing (WCAG 2.5.3, label in name).
  it('names each "Withdraw for good" beginning with the words it shows, then the entry', async () => {
    stub(page({}));
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    await click(root.querySelector('table.entries button[data-action=remove-entry]'));
    await click(byText(root, '.entered-line button', 'Withdraw my entry…'));
    await settle();
    const confirms = [...root.querySelectorAll('button')].filter((b) => b.textContent === 'Withdraw for good');
    expect(confirms.map((b) => b.getAttribute('aria-label'))).toEqual(['Withdraw for good: Our Team', 'Withdraw for good: my entry']);
  });

  it('moves the keyboard focus to the heading of the entries once a withdrawn entry\'s button has gone', async () => {
    let entries: unknown[] = [team, ...swiss.entries.slice(1)];
    stub({
      ...page({}),
      [`GET /tournaments/${t.id}/entries\\?limit=100`]: () => ({ items: entries }),
      [`DELETE /tournaments/${t.id}/entries\\?entry=.*`]: () => void (entries = [{ ...team, status: 'withdrawn' }, ...swiss.entries.slice(1)]),
    });
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    await click(root.querySelector('table.entries button'));
    await settle();
    const withdraw = root.querySelector('table.entries button[aria-label="Withdraw for good: Our Team"]') as HTMLButtonElement;
    withdraw.focus();
    await click(withdraw);
    await settle();
    expect(root.querySelector('table.entries button')).toBeNull();
    expect(document.activeElement).toBe(root.querySelector('#entries-title'));
  });

  it('counts the active entries everywhere and marks the withdrawn ones it lists', async () => {
    const entries = [team, ...swiss.entries.slice(1, 4), { ...swiss.entries[4], status: 'withdrawn' }];
    stub(page({ entries }));
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    expect(root.querySelectorAll('table.entries tbody tr')).toHaveLength(5);
    expect(root.querySelector('#entries-title')!.textContent).toBe('Entries (4 active, 1 withdrawn)');
    const fact = [...root.querySelectorAll('.facts div')].find((d) => d.querySelector('dt')!.textContent === 'Entries')!;
    expect(fact.querySelector('dd')!.textContent).toBe('4 active, 1 withdrawn');
    const gone = root.querySelector(`table.entries tr[data-entry="${swiss.entries[4].id}"]`)!;
    expect(gone.getAttribute('data-status')).toBe('withdrawn');
    expect(gone.querySelector('th')!.textContent).toContain('(withdrawn)');
    expect(gone.querySelector('.tag.status-withdrawn')!.textContent).toBe('withdrawn');
    expect(gone.querySelector('button')).toBeNull();
  });

  // a tournament in registration that I have not entered
  const registration = (over: { role?: string; teamSize?: number; members?: unknown[]; post?: Handler }) => ({
    ...page({ status: 'registration', role: over.role, entries: swiss.entries.slice(1) }),
    [`GET /tournaments/${t.id}`]: () => ({ ...t, status: 'registration', team_size: over.teamSize ?? 1, entries: 4 }),
    [`GET /clubs/${t.club_id}/members\\?limit=100`]: () => ({ items: over.members ?? [] }),
    [`POST /tournaments/${t.id}/entries`]: over.post ?? (() => ({})),
  });
  const submitForm = async (form: Element | null) => {
    await act(async () => void (form as HTMLFormElement).dispatchEvent(new Event('submit', { cancelable: true })));
    await settle();
  };

  it('moves the keyboard focus to "You are entered as …" once "Register me" has done its work and gone', async () => {
    let entries = swiss.entries.slice(1);
    const mine = { id: 'e-me', name: 'mate', captain_id: 'me1', seed: 0, rating: 1500, status: 'active', members: [{ user: 'me1', username: 'mate' }] };
    stub({
      ...registration({ role: 'member', post: () => void (entries = [...entries, mine as never]) }),
      [`GET /tournaments/${t.id}/entries\\?limit=100`]: () => ({ items: entries }),
    });
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    const register = byText(root, 'button', 'Register me') as HTMLButtonElement;
    register.focus();
    await submitForm(register.closest('form'));
    await settle();
    expect(byText(root, 'button', 'Register me')).toBeNull();
    const line = root.querySelector('#entered')!;
    expect(line.textContent).toBe('You are entered as mate.');
    expect(document.activeElement).toBe(line);
  });

  it("tells someone outside the tournament's club that only members enter, instead of offering to register", async () => {
    stub(registration({ role: '' }));
    await restore();
    let root = mount(<TournamentPage id={t.id} />);
    await settle();
    expect(byText(root, 'button', 'Register me')).toBeNull();
    const line = root.querySelector('.members-only')!;
    expect(line.textContent).toBe('Only members of the club enter its tournaments: see the club.');
    expect(line.querySelector('a')!.getAttribute('href')).toBe(`/clubs/${t.club_id}`);
    unmountAll();
    stub(registration({ role: 'member' }));
    root = mount(<TournamentPage id={t.id} />);
    await settle();
    expect(byText(root, 'button', 'Register me')).not.toBeNull();
    expect(root.querySelector('.members-only')).toBeNull();
  });

  it('asks for the teammate left on "Choose", and shows the server\'s objections at the team name and the teammate', async () => {
    const members = [{ user_id: 'me1', username: 'mate', role: 'member' }, { user_id: 'u9', username: 'nina', role: 'member' }];
    const post = () => {
      throw new ApiError(400, {
        title: 'Invalid input', detail: 'the entry cannot be made',
        errors: [{ field: 'members[1].user', message: 'nina is entered already' }, { field: 'name', message: 'another entry has this name' }],
      });
    };
    stub(registration({ teamSize: 2, members, post }));
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    const form = root.querySelector('form[aria-label=Register]');
    await submitForm(form);
    expect(root.querySelector('#rm-mate-0-err')!.textContent).toBe('Choose your teammate');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    choose(root, '#rm-mate-0', 'u9');
    expect(root.querySelector('#rm-mate-0-err')).toBeNull();
    await submitForm(form);
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ name: '', members: [{ user: 'me' }, { user: 'u9' }] }]);
    expect(root.querySelector('#rm-mate-0-err')!.textContent).toBe('nina is entered already');
    expect(root.querySelector('#rm-name-err')!.textContent).toBe('another entry has this name');
    expect(form!.querySelector('.error')).toBeNull(); // each said once, at its field
  });

  it('leaves players already entered out of the teammate and player lists, saying so, and one teammate out of the other fields', async () => {
    // The lists offered every club member, those already in another entry
    // too, whom the server then refused ("a player of this entry already plays").
    const members = [
      { user_id: 'me1', username: 'mate', role: 'member' },
      { user_id: 'u9', username: 'nina', role: 'member' },
      { user_id: 'u7', username: 'olga', role: 'member' },
      { user_id: 'u8', username: 'pete', role: 'member' },
    ];
    const olgas = { id: 'e-olga', name: 'Olga', captain_id: 'u7', seed: 0, rating: 1500, status: 'active', members: [{ user: 'u7', username: 'olga' }] };
    const routes = (role: string) => ({
      ...registration({ role, teamSize: 3, members }),
      [`GET /tournaments/${t.id}/entries\\?limit=100`]: () => ({ items: [...swiss.entries.slice(1), olgas] }),
    });
    const offered = (root: Element, sel: string) => [...root.querySelectorAll(`${sel} option`)].map((o) => o.textContent);
    stub(routes('member'));
    await restore();
    let root = mount(<TournamentPage id={t.id} />);
    await settle();
    expect(offered(root, '#rm-mate-0')).toEqual(['Choose', 'nina', 'pete']);
    expect(root.querySelector('#rm-mate-0-hint')!.textContent).toBe('Players already entered in this tournament are not listed.');
    choose(root, '#rm-mate-0', 'u9');
    expect(offered(root, '#rm-mate-1')).toEqual(['Choose', 'pete']); // nina is teammate 1 already
    unmountAll();
    stub(routes('owner'));
    root = mount(<TournamentPage id={t.id} />);
    await settle();
    expect(offered(root, '#ae-member-0').filter((o) => !o!.startsWith('Bot'))).toEqual(['mate', 'nina', 'pete']);
    expect(root.querySelector('#ae-member-0-hint')!.textContent).toBe('Players already entered in this tournament are not listed.');
  });

  it("shows an organizer's refused entry name once, next to the name", async () => {
    const post = () => {
      throw new ApiError(409, { title: 'Conflict', detail: 'another entry has this name', errors: [{ field: 'name', message: 'another entry has this name' }] });
    };
    stub(registration({ role: 'owner', post }));
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    const form = root.querySelector('form.add-entry');
    await submitForm(form);
    await submitForm(form);
    expect(root.querySelector('#ae-name-err')!.textContent).toBe('another entry has this name');
    expect(form!.textContent!.split('another entry has this name')).toHaveLength(2); // said once
    expect(form!.querySelector('.error')).toBeNull();
  });

  it('keeps the keyboard focus in the entry forms after a refusal (at the field at fault) and after an added entry (at Add entry)', async () => {
    // Both submit buttons are disabled while the request runs, which takes the
    // focus from them: a refused team name left it on the page's <body>.
    const members = [{ user_id: 'me1', username: 'mate', role: 'member' }, { user_id: 'u9', username: 'nina', role: 'member' }];
    const taken = () => {
      throw new ApiError(409, { title: 'Conflict', detail: 'another entry has this name', errors: [{ field: 'name', message: 'is taken' }] });
    };
    stub(registration({ teamSize: 2, members, post: taken }));
    await restore();
    let root = mount(<TournamentPage id={t.id} />);
    await settle();
    choose(root, '#rm-mate-0', 'u9');
    (byText(root, 'button', 'Register our team') as HTMLButtonElement).focus();
    await submitForm(root.querySelector('form[aria-label=Register]'));
    expect(root.querySelector('#rm-name-err')!.textContent).toBe('is taken');
    expect(document.activeElement).toBe(root.querySelector('#rm-name'));
    unmountAll();

    let posted = 0;
    stub(registration({ role: 'owner', post: () => (++posted === 1 ? taken() : {}) }));
    root = mount(<TournamentPage id={t.id} />);
    await settle();
    const add = byText(root, 'button', 'Add entry') as HTMLButtonElement;
    add.focus();
    await submitForm(root.querySelector('form.add-entry'));
    expect(document.activeElement).toBe(root.querySelector('#ae-name'));
    add.focus();
    await submitForm(root.querySelector('form.add-entry'));
    await settle();
    expect(posted).toBe(2);
    expect(document.activeElement).toBe(byText(root, 'button', 'Add entry'));
  });

  describe('the schedule form', () => {
    const schedule = (post: Handler) => ({ ...registration({ role: 'owner' }), [`POST /tournaments/${t.id}/rounds`]: post });
    const local = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);

    it('asks before scheduling a first start in the past, which would start the tournament at once', async () => {
      stub(schedule(() => ({ rounds: [] })));
      await restore();
      const root = mount(<TournamentPage id={t.id} />);
      await settle();
      const form = root.querySelector('form.schedule-form')!;
      type(root, '#sc-first', local(new Date(Date.now() - 3_600_000)));
      await submitForm(form);
      expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
      expect(form.querySelector('.confirm-past')!.textContent).toMatch(/^The first round would start in the past: .*and so does the tournament/);
      // the question takes the place of Schedule: the focus on its Cancel, and from there back to Schedule
      const scheduleButton = () => byText(form, 'button', 'Schedule');
      expect(document.activeElement).toBe(byText(form, 'button', 'Cancel'));
      await click(byText(form, 'button', 'Cancel'));
      expect(form.querySelector('.confirm-past')).toBeNull();
      expect(document.activeElement).toBe(scheduleButton());
      await submitForm(form);
      await click(byText(form, 'button', 'Schedule anyway'));
      await settle();
      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
      expect(document.activeElement).toBe(scheduleButton());
      // a start to come is sent at once
      resetCalls();
      type(root, '#sc-first', local(new Date(Date.now() + 3_600_000)));
      await submitForm(form);
      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
      expect(form.querySelector('.confirm-past')).toBeNull();
    });

    it('sends one request for two submits before the answer, saying it is under way', async () => {
      // A double click on Schedule scheduled the rounds twice (or the second was refused, its error under the first's success).
      stub(schedule(() => ({ rounds: [] })));
      await restore();
      const root = mount(<TournamentPage id={t.id} />);
      await settle();
      const answered = vi.mocked(api.post).getMockImplementation()!;
      let answer = () => {};
      const sent = vi.spyOn(api, 'post').mockImplementation(((path: string, body: unknown) => new Promise((r) => (answer = () => r(answered(path, body))))) as never);
      const form = root.querySelector('form.schedule-form')!;
      await submitForm(form);
      await submitForm(form);
      expect(sent).toHaveBeenCalledTimes(1);
      expect(form.querySelector('[data-action=schedule]')!.textContent).toBe('Scheduling…');
      expect(form.querySelector('[data-action=schedule]')!.getAttribute('aria-disabled')).toBe('true');
      answer();
      await settle();
      expect(form.querySelector('[data-action=schedule]')!.textContent).toBe('Schedule');
      expect(form.textContent).toContain('Scheduled');
      await submitForm(form);
      expect(sent).toHaveBeenCalledTimes(2);
    });

    it('moves the focus to the first field its own checks find at fault, sending nothing', async () => {
      stub(schedule(() => ({ rounds: [] })));
      await restore();
      const root = mount(<TournamentPage id={t.id} />);
      await settle();
      const form = root.querySelector('form.schedule-form')!;
      type(root, '#sc-count', '0');
      type(root, '#sc-interval', '0');
      (byText(form, 'button', 'Schedule') as HTMLButtonElement).focus();
      await submitForm(form);
      expect(root.querySelector('#sc-count-err')!.textContent).toBe('From 1 to 200 rounds.');
      expect(root.querySelector('#sc-interval-err')).not.toBeNull();
      expect(document.activeElement).toBe(root.querySelector('#sc-count'));
      expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    });

    it("shows the server's schedule objections next to their fields, once", async () => {
      let fields: { field: string; message: string }[] = [];
      stub(schedule(() => {
        throw new ApiError(400, { title: 'Invalid input', detail: 'bad round', errors: fields });
      }));
      await restore();
      const root = mount(<TournamentPage id={t.id} />);
      await settle();
      const form = root.querySelector('form.schedule-form')!;
      fields = [{ field: 'first_start', message: 'must be within five years' }, { field: 'count', message: 'round 3 is listed twice' }, { field: 'deadline_seconds', message: 'must be after starts_at' }];
      await submitForm(form);
      expect(root.querySelector('#sc-first-err')!.textContent).toBe('must be within five years');
      expect(document.activeElement).toBe(root.querySelector('#sc-first')); // the first field at fault
      expect(root.querySelector('#sc-count-err')!.textContent).toBe('round 3 is listed twice');
      expect(root.querySelector('#sc-deadline-after-err')!.textContent).toBe('must be after starts_at');
      expect(form.querySelector('.error')).toBeNull();
      await click(form.querySelectorAll('input[name=sched-mode]')[1]);
      fields = [{ field: 'rounds[0].number', message: 'round 2 is listed twice (rounds[0])' }, { field: 'rounds[0].starts_at', message: "must be after round 1's start" }];
      await submitForm(form);
      expect(root.querySelector('#sc-number-err')!.textContent).toBe('round 2 is listed twice (rounds[0])');
      expect(root.querySelector('#sc-starts-err')!.textContent).toBe("must be after round 1's start");
      expect(form.querySelector('.error')).toBeNull();
      fields = [{ field: 'rounds', message: 'too many' }];
      await submitForm(form);
      expect(form.querySelector('.error')!.textContent).toBe('Bad round.'); // no field for it: the box says it
    });

    // A three-round Swiss whose round `round` is being played (0: still taking entries).
    const playingRound = (round: number, over: Record<string, Handler> = {}) => {
      let now = { ...t, status: round ? 'running' : 'registration', rounds: 3, current_round: round, rounds_planned: round ? 3 : undefined, entries: 5 };
      const rounds = () => swiss.rounds.slice(0, now.current_round).map((r) => ({ ...r, status: r.number === now.current_round ? 'running' : 'finished' }));
      return {
        routes: {
          ...page({ role: 'owner', status: now.status }),
          [`GET /tournaments/${t.id}`]: () => now,
          [`GET /tournaments/${t.id}/rounds`]: () => ({ rounds: rounds() }),
          [`PATCH /tournaments/${t.id}`]: () => (now = { ...now, status: 'running', current_round: 1, rounds_planned: 3 }),
          [`POST /tournaments/${t.id}/rounds`]: () => ({ rounds: [] }),
          ...over,
        },
        startRound: (n: number) => void (now = { ...now, current_round: n }),
      };
    };
    const firstLabel = (root: Element) => root.querySelector('label[for=sc-first]')!.textContent;
    const count = (root: Element) => (root.querySelector('#sc-count') as HTMLInputElement).value;

    // After "Start now" the form still said "First round starts", Rounds 3, and its Schedule was refused (409).
    it('numbers its rounds from the next one to be paired once the tournament starts, and as each round starts', async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      try {
        const { routes, startRound } = playingRound(0);
        stub(routes);
        await restore();
        const root = mount(<TournamentPage id={t.id} />);
        await settle();
        expect([firstLabel(root), count(root)]).toEqual(['First round starts', '3']);
        await click(byText(root, 'button', 'Start now'));
        await settle();
        expect([firstLabel(root), count(root)]).toEqual(['Round 2 starts', '2']);
        type(root, '#sc-first', local(new Date(Date.now() + 3_600_000)));
        await submitForm(root.querySelector('form.schedule-form'));
        expect(calls.filter((c) => c.method === 'POST').map((c) => (c.body as { first_round?: number }).first_round)).toEqual([2]);
        // round 2 starts with the page open: the form goes on to round 3
        startRound(2);
        await act(async () => void vi.advanceTimersByTime(POLL_MS));
        await settle();
        expect([firstLabel(root), count(root)]).toEqual(['Round 3 starts', '1']);
      } finally {
        vi.useRealTimers();
      }
    });

    // In the last round it offered "Round 4 starts", which the server refuses.
    it('is not offered once the last round has started', async () => {
      stub(playingRound(3).routes);
      await restore();
      const root = mount(<TournamentPage id={t.id} />);
      await settle();
      expect(root.querySelector('form.schedule-form')).toBeNull();
      expect(root.querySelector('.organizer')!.textContent).toContain('Every round has started: none is left to schedule.');
      expect(root.querySelector('form.deadline-form')).not.toBeNull();
    });

    it("shows a refused first round of a series at the start that names it, not only as \"Bad round.\"", async () => {
      const message = "the series is rounds 2–3, and a round's number must be 1–2";
      stub(
        playingRound(1, {
          [`POST /tournaments/${t.id}/rounds`]: () => {
            throw new ApiError(400, { title: 'Invalid input', detail: 'bad round', errors: [{ field: 'first_round', message }] });
          },
        }).routes,
      );
      await restore();
      const root = mount(<TournamentPage id={t.id} />);
      await settle();
      const form = root.querySelector('form.schedule-form')!;
      type(root, '#sc-first', local(new Date(Date.now() + 3_600_000)));
      await submitForm(form);
      expect(root.querySelector('#sc-first-err')!.textContent).toBe(message);
      expect(document.activeElement).toBe(root.querySelector('#sc-first'));
      expect(form.querySelector('.error')).toBeNull();
    });
  });

  describe("the round's deadline", () => {
    const rounds = [
      { ...swiss.rounds[0], status: 'finished' },
      { ...swiss.rounds[1], number: 2, status: 'running', deadline: '2030-01-31T18:00:00Z' },
    ];
    const playing = (over: { role?: string; rounds?: unknown[]; patch?: Handler }) => ({
      ...page({ role: over.role ?? 'owner' }),
      [`GET /tournaments/${t.id}/rounds`]: () => ({ rounds: over.rounds ?? rounds }),
      [`PATCH /tournaments/${t.id}/rounds/2`]: over.patch ?? ((_: string, body: unknown) => ({ ...rounds[1], ...(body as object) })),
    });
    const type = (root: Element, v: string) =>
      act(() => {
        const el = root.querySelector('#dl-deadline') as HTMLInputElement;
        el.value = v;
        el.dispatchEvent(new Event('input', { bubbles: true }));
      });
    const local = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);

    it('moves the deadline of the round being played, starting from the one it has', async () => {
      stub(playing({}));
      await restore();
      const root = mount(<TournamentPage id={t.id} />);
      await settle();
      const form = root.querySelector('form.deadline-form')!;
      expect(form.querySelector('h3')!.textContent).toBe('Deadline of round 2');
      // a datetime-local value, read as local time (the input drops ":00" seconds)
      expect(new Date((root.querySelector('#dl-deadline') as HTMLInputElement).value).toISOString()).toBe('2030-01-31T18:00:00.000Z');
      const later = new Date(Date.now() + 2 * 3_600_000);
      later.setMilliseconds(0);
      type(root, local(later));
      await submitForm(form);
      expect(calls.filter((c) => c.method === 'PATCH')).toEqual([{ method: 'PATCH', path: `/tournaments/${t.id}/rounds/2`, body: { deadline: later.toISOString() } }]);
      expect(form.querySelector('[role=status]')!.textContent).toMatch(/^Round 2's deadline is now /);
    });

    it('asks again for a deadline in the past instead of sending it, and shows the server\'s objection at the field', async () => {
      stub(
        playing({
          patch: () => {
            throw new ApiError(422, { title: 'Unprocessable Entity', detail: 'the deadline cannot be moved there', errors: [{ field: 'deadline', message: 'must be in the future' }] });
          },
        }),
      );
      await restore();
      const root = mount(<TournamentPage id={t.id} />);
      await settle();
      const form = root.querySelector('form.deadline-form')!;
      const field = root.querySelector('#dl-deadline');
      const button = () => form.querySelector('button[type=submit]') as HTMLButtonElement;
      type(root, local(new Date(Date.now() - 60_000)));
      button().focus();
      await submitForm(form);
      expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);
      expect(root.querySelector('#dl-deadline-err')!.textContent).toBe('The deadline must be in the future.');
      expect(document.activeElement).toBe(field); // the focus on the field at fault
      type(root, local(new Date(Date.now() + 3_600_000)));
      button().focus();
      await submitForm(form);
      expect(root.querySelector('#dl-deadline-err')!.textContent).toBe('must be in the future');
      expect(form.querySelector('.error')).toBeNull(); // said at the field, once
      expect(document.activeElement).toBe(field);
    });

    it('is offered to organizers only, and only while a round is being played', async () => {
      stub(playing({ role: 'member' }));
      await restore();
      let root = mount(<TournamentPage id={t.id} />);
      await settle();
      expect(root.querySelector('form.deadline-form')).toBeNull();
      unmountAll();
      stub(playing({ rounds: [rounds[0]] }));
      root = mount(<TournamentPage id={t.id} />);
      await settle();
      expect(root.querySelector('.organizer')).not.toBeNull();
      expect(root.querySelector('form.deadline-form')).toBeNull();
    });
  });

  it("shows the problem's detail when the tournament cannot start", async () => {
    const detail = 'the tournament cannot start with 0 entries';
    stub(
      page({
        status: 'registration',
        role: 'owner',
        entries: [],
        patch: () => {
          throw new ApiError(409, { title: 'Conflict', detail, errors: [] });
        },
      }),
    );
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    await click(byText(root, 'button', 'Start now'));
    await settle();
    // as a sentence, not the server's raw lowercase text
    expect(root.querySelector('.organizer .error')!.textContent).toBe('The tournament cannot start with 0 entries.');
  });

  // "cannot start with 1 entry" stayed on screen after the page, reading
  // itself again, showed a second entry come in.
  it('drops a refusal to start once the tournament it answered has changed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      let entries = 1;
      const routes = page({
        status: 'registration',
        role: 'owner',
        entries: [],
        patch: () => {
          throw new ApiError(409, { title: 'Conflict', detail: 'the tournament cannot start with 1 entry', errors: [] });
        },
      });
      routes[`GET /tournaments/${t.id}`] = () => ({ ...t, status: 'registration', entries });
      stub(routes);
      await restore();
      const root = mount(<TournamentPage id={t.id} />);
      await settle();
      await click(byText(root, 'button', 'Start now'));
      await settle();
      const error = () => root.querySelector('.organizer .error');
      expect(error()!.textContent).toBe('The tournament cannot start with 1 entry.');
      await act(async () => void vi.advanceTimersByTime(REGISTRATION_POLL_MS)); // read again, unchanged: it stands
      await settle();
      expect(error()).not.toBeNull();
      entries = 2;
      await act(async () => void vi.advanceTimersByTime(REGISTRATION_POLL_MS));
      await settle();
      expect(error()).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the new-tournament form', () => {
  const me: User = { id: 'me1', username: 'orga', kind: 'human', is_admin: false, created_at: '' };
  const routes: Record<string, Handler> = {
    'GET /me': () => me,
    'GET /users/me1/clubs\\?limit=100': () => ({ items: [{ id: 'c1', name: 'Dev Club', role: 'owner' }, { id: 'c2', name: 'Other', role: 'member' }] }),
    'GET /clubs/c1/leagues\\?limit=100': () => ({ items: [{ id: 'l1', name: 'Monday' }] }),
    'GET /leagues/l1/seasons\\?limit=100': () => ({ items: [{ id: 's1', name: 'Spring', status: 'open' }, { id: 's0', name: 'Winter', status: 'closed' }] }),
    'POST /tournaments': () => ({ id: 't-new' }),
  };
  beforeEach(async () => {
    vi.spyOn(api, 'refresh').mockResolvedValue(true);
    stub(routes);
    await restore();
  });
  afterEach(signOutAndUnmount);

  it('offers only clubs I organize and their open seasons, and posts the set-up', async () => {
    history.replaceState(null, '', '/tournaments/new?club=c1');
    const root = mount(<NewTournament />);
    await settle();
    const opts = (sel: string) => [...root.querySelectorAll(`${sel} option`)].map((o) => o.textContent);
    expect(opts('#nt-club')).toEqual(['Choose a club', 'Dev Club']);
    expect(opts('#nt-season')).toEqual(['None', 'Monday: Spring']);
    const set = (sel: string, v: string, ev = 'input') =>
      act(() => {
        const el = root.querySelector(sel) as HTMLInputElement;
        el.value = v;
        el.dispatchEvent(new Event(ev, { bubbles: true }));
      });
    set('#nt-name', 'Friday Knockout');
    set('#nt-format', 'double-elimination', 'change');
    await act(async () => (root.querySelector('#nt-reset') as HTMLInputElement).click());
    set('#nt-opens', '2026-05-01T18:00');
    await act(async () => void (root.querySelector('form') as HTMLFormElement).dispatchEvent(new Event('submit', { cancelable: true })));
    await settle();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe('/tournaments');
    expect(post.body).toMatchObject({ club_id: 'c1', name: 'Friday Knockout', format: 'double-elimination', reset: true, registration_opens: new Date(2026, 4, 1, 18).toISOString() });
    expect(location.pathname).toBe('/tournaments/t-new');
  });

  it('refuses a rating limit past 4000 at its field, as the server would, without sending', async () => {
    history.replaceState(null, '', '/tournaments/new?club=c1');
    const root = mount(<NewTournament />);
    await settle();
    for (const [sel, v] of [['#nt-name', 'Friday Knockout'], ['#nt-max-rating', '4001']]) {
      act(() => {
        const el = root.querySelector(sel) as HTMLInputElement;
        el.value = v;
        el.dispatchEvent(new Event('input', { bubbles: true }));
      });
    }
    await act(async () => void (root.querySelector('form') as HTMLFormElement).dispatchEvent(new Event('submit', { cancelable: true })));
    await settle();
    expect(root.querySelector('#nt-max-rating-err')!.textContent).toBe('must be 0–4000');
    expect(root.querySelector('#nt-max-rating')!.getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('shows the season named in the link once the seasons arrive', async () => {
    history.replaceState(null, '', '/tournaments/new?club=c1&season=s1');
    const root = mount(<NewTournament />);
    await settle();
    expect((root.querySelector('#nt-season') as HTMLSelectElement).value).toBe('s1');
  });

  it("shows the server's objection next to its field and stays on the form", async () => {
    stub({
      ...routes,
      'POST /tournaments': () => {
        throw new ApiError(422, { title: 'Invalid input', errors: [{ field: 'name', message: 'name: a tournament of that name is running' }] });
      },
    });
    history.replaceState(null, '', '/tournaments/new?club=c1');
    const root = mount(<NewTournament />);
    await settle();
    act(() => {
      const el = root.querySelector('#nt-name') as HTMLInputElement;
      el.value = 'Friday Knockout';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await act(async () => void (root.querySelector('form') as HTMLFormElement).dispatchEvent(new Event('submit', { cancelable: true })));
    await settle();
    expect(root.querySelector('#nt-name-err')!.textContent).toBe('name: a tournament of that name is running');
    expect((root.querySelector('button[type=submit]') as HTMLButtonElement).disabled).toBe(false);
    expect(location.pathname).toBe('/tournaments/new');
  });

  it('sets a time bank with an increment as the clock, and shows a clock objection next to the clock', async () => {
    let refuse = false;
    stub({
      ...routes,
      'POST /tournaments': () => {
        if (refuse) throw new ApiError(400, { title: 'Invalid input', detail: 'the tournament cannot be set up', errors: [{ field: 'clock', message: 'too long' }] });
        return { id: 't-new' };
      },
    });
    history.replaceState(null, '', '/tournaments/new?club=c1');
    const root = mount(<NewTournament />);
    await settle();
    const set = (sel: string, v: string, ev = 'change') =>
      act(() => {
        const el = root.querySelector(sel) as HTMLInputElement;
        el.value = v;
        el.dispatchEvent(new Event(ev, { bubbles: true }));
      });
    const submit = async () => {
      await act(async () => void (root.querySelector('form') as HTMLFormElement).dispatchEvent(new Event('submit', { cancelable: true })));
      await settle();
    };
    set('#nt-name', 'Bank Cup', 'input');
    expect([...root.querySelectorAll('#nt-clock option')].map((o) => (o as HTMLOptionElement).value)).toEqual(['untimed', 'turn', 'bank']);
    set('#nt-clock', 'bank');
    expect(root.querySelector('#nt-turn')).toBeNull();
    set('#nt-bank', '600');
    set('#nt-increment', '10');
    refuse = true;
    await submit();
    expect(root.querySelector('#nt-clock-err')!.textContent).toBe('too long');
    refuse = false;
    await submit();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => (c.body as { clock?: unknown }).clock)).toEqual([
      { bank_seconds: 600, increment_seconds: 10 },
      { bank_seconds: 600, increment_seconds: 10 },
    ]);
    expect(location.pathname).toBe('/tournaments/t-new');
  });

  it('shows what is missing instead of posting', async () => {
    history.replaceState(null, '', '/tournaments/new');
    const root = mount(<NewTournament />);
    await settle();
    await act(async () => void (root.querySelector('form') as HTMLFormElement).dispatchEvent(new Event('submit', { cancelable: true })));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    expect(root.querySelector('#nt-name')!.getAttribute('aria-invalid')).toBe('true');
    expect(root.querySelector('#nt-name-err')!.textContent).toBe('Give the tournament a name.');
    expect(root.querySelector('#nt-club-err')!.textContent).toBe('Choose the club that runs it.');
  });
});

describe('my next rounds', () => {
  const t = (id: string, status: string, next_start?: string): UserTournament =>
    ({ id, name: id, status, next_start, next_round: next_start ? 2 : undefined, created_at: '2026-01-01T00:00:00Z', current_round: 1, entry_name: 'me' }) as UserTournament;
  it('lists what is ahead, soonest first, and leaves finished ones out', () => {
    const items = [t('reg', 'registration'), t('later', 'running', '2026-03-02T00:00:00Z'), t('done', 'finished'), t('playing', 'running'), t('soon', 'registration', '2026-03-01T00:00:00Z')];
    expect(upcoming(items).map((x) => x.id)).toEqual(['soon', 'later', 'playing', 'reg']);
    expect(roundLine(items[1])).toBe('round 2');
    expect(roundLine(items[3])).toBe('round 1 in play');
    expect(roundLine(items[0])).toBe('registration open, no date yet');
  });

  it('leaves out a tournament the player withdrew from, still running', () => {
    const gone = { ...t('swiss', 'running'), withdrawn: true };
    expect(upcoming([gone, t('playing', 'running')]).map((x) => x.id)).toEqual(['playing']);
  });
});

describe("the league page's leaderboard link", () => {
  const league = (withRows: string[]) => {
    stub({
      'GET /leagues/l1': () => ({ id: 'l1', club_id: 'c1', name: 'Stacks night' }),
      'GET /clubs/c1': () => ({ id: 'c1', name: 'Dev Club' }),
      'GET /leagues/l1/seasons\\?limit=20': () => ({ items: [], next_cursor: '' }),
      'GET /leaderboards/([a-z0-9-]+)\\?.*': (p) => {
        const pool = p.split('/')[2].split('?')[0];
        return { pool, items: withRows.includes(pool) ? [{ ...row(1, 1), pool }] : [], next_cursor: '' };
      },
    });
    return mount(<LeaguePage id="l1" />);
  };
  const links = (root: Element) => [...root.querySelectorAll('a[href^="/leaderboards/"]')].map((a) => [a.textContent, a.getAttribute('href')]);

  it('opens the pool the league was played in, not always Sequence with two teams', async () => {
    const root = league(['stacks']);
    await settle();
    expect(links(root)).toEqual([['League leaderboard (Sequence Stacks)', '/leaderboards/stacks?club=c1&league=l1&provisional=1']]);
    const asked = calls.filter((c) => c.path.startsWith('/leaderboards/')).map((c) => new URLSearchParams(c.path.split('?')[1]));
    expect(asked.every((q) => q.get('league') === 'l1' && q.get('provisional') === 'true')).toBe(true);
  });

  it('names its club in the breadcrumb, with no › after it', async () => {
    const root = league([]);
    await settle();
    expect(root.querySelector('.crumbs')!.textContent).toBe('Dev Club');
  });

  it('links every pool the league has players in', async () => {
    const root = league(['sequence-2team', 'stacks']);
    await settle();
    expect(links(root).map((l) => l[1])).toEqual(['/leaderboards/sequence-2team?club=c1&league=l1&provisional=1', '/leaderboards/stacks?club=c1&league=l1&provisional=1']);
  });
});

describe("a season's breadcrumb", () => {
  it('names its club and league, with a › between them and none after', async () => {
    stub({
      'GET /seasons/s1/standings': () => ({ season: { id: 's1', league_id: 'l1', name: 'Spring', status: 'open', created_at: '' }, frozen: false, tie_breaks: [], rows: [] }),
      'GET /leagues/l1': () => ({ id: 'l1', club_id: 'c1', name: 'Monday', description: '', created_at: '' }),
      'GET /clubs/c1': () => ({ id: 'c1', name: 'Dev Club' }),
      'GET /tournaments\\?season=.*': () => ({ items: [], next_cursor: '' }),
    });
    const root = mount(<SeasonPage id="s1" />);
    await settle();
    const crumbs = root.querySelector('.crumbs')!;
    expect(crumbs.textContent).toBe('Dev Club › Monday');
    expect([...crumbs.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['/clubs/c1', '/leagues/l1']);
  });
});

describe('a paged list', () => {
  it('shows the first page and adds the next one on "More seasons" until next_cursor is empty', async () => {
    stub({
      'GET /leagues/l1': () => ({ id: 'l1', club_id: 'c1', name: 'Monday' }),
      'GET /clubs/c1': () => ({ id: 'c1', name: 'Dev Club' }),
      'GET /leagues/l1/seasons\\?limit=20': () => ({ items: [{ id: 's2', name: 'Spring', status: 'open', created_at: '2026-03-01T00:00:00Z' }], next_cursor: 'N1' }),
      'GET /leagues/l1/seasons\\?limit=20&cursor=N1': () => ({ items: [{ id: 's1', name: 'Winter', status: 'closed', created_at: '2026-01-01T00:00:00Z' }], next_cursor: '' }),
    });
    const root = mount(<LeaguePage id="l1" />);
    await settle();
    const seasons = () => [...root.querySelectorAll('a[href^="/seasons/"]')].map((a) => a.textContent);
    expect(seasons()).toEqual(['Spring']);
    await click(byText(root, 'button', 'More seasons'));
    await settle();
    expect(seasons()).toEqual(['Spring', 'Winter']);
    expect(byText(root, 'button', 'More seasons')).toBeNull();
  });
});
