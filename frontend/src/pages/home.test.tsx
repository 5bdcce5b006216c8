// Home's "My games" against a stubbed API: the games that wait for the
// signed-in player's move say "Your move" in words and are gathered at the
// top, from the server's ?to_move=true, and both lists page by cursor.
import { ApiError } from '../api/client';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Game, Seat, User } from '../api/types';
import { api, restore } from '../session';
import { calls, mount, resetCalls, settle, signOutAndUnmount, stub } from '../testing/stubApi';
import Home from './Home';
import { REFRESH_MS } from '../components/list';

const me: User = { id: 'u1', username: 'ann', kind: 'human', is_admin: false, created_at: '' };
const person = (seat: number, id: string, username: string, over: Partial<Seat> = {}): Seat => ({
  seat, team: seat, user: { id, username }, open: false, filled_by_bot: false, abandoned: false, ...over,
});
const game = (id: string, over: Partial<Game>): Game => ({
  id, game: 'sequence', players: 2, teams: 2, status: 'active', rated: false, clock: {}, created_at: '2026-03-01T10:00:00Z',
  seed_hash: '', ply: 3, turn_seat: 0, seats: [person(0, 'u1', 'ann'), person(1, 'u2', 'bob')], ...over,
});
const mine = game('g-mine', {});
const theirs = game('g-theirs', { turn_seat: 1 });
// ann's seat taken over by a fill-in bot: the bot moves, not ann
const takenOver = game('g-bot', { seats: [person(0, 'u1', 'ann', { bot: 'greedy', filled_by_bot: true, abandoned: true }), person(1, 'u2', 'bob')] });
const over = game('g-over', { status: 'finished', turn_seat: null, result: { status: 'finished', winner: 0 } });
const older = game('g-older', { turn_seat: 0 });
// carol's table for 2, its open seat kept for ann
const invitation = game('g-invite', {
  status: 'open', turn_seat: null, created_by: 'u3', created_by_name: 'carol', private: true,
  seats: [person(0, 'u3', 'carol'), { seat: 1, team: 1, user: null, open: true, filled_by_bot: false, abandoned: false, kept_for: { id: 'u1', username: 'ann' } }],
});

const lines = (list: Element | null | undefined) => [...(list?.querySelectorAll('li') ?? [])];
const lineOf = (root: Element, id: string) => lines(root.querySelector('section[aria-labelledby=my-games]')).filter((li) => li.querySelector(`a[href="/games/${id}"]`));

function home(toMove: Game[], all = [mine, theirs, takenOver, over], invited: Game[] = []) {
  stub({
    'GET /me': () => me,
    'GET /users/u1/games\\?invited=true&limit=20': () => ({ items: invited, next_cursor: '' }),
    'POST /games/g-invite/join': () => ({ ...invitation, status: 'active' }),
    'GET /users/u1/games\\?to_move=true&limit=20': () => ({ items: toMove, next_cursor: '' }),
    'GET /users/u1/games\\?limit=20': () => ({ items: all, next_cursor: 'c2' }),
    'GET /users/u1/games\\?limit=20&cursor=c2': () => ({ items: [older], next_cursor: '' }),
    'GET /users/u1/(clubs|tournaments|open-tournaments).*': () => ({ items: [], next_cursor: '' }),
  });
}

beforeEach(() => {
  vi.restoreAllMocks();
  resetCalls();
  vi.spyOn(api, 'refresh').mockResolvedValue(true);
});
afterEach(signOutAndUnmount);

describe('Home "My games"', () => {
  it('says "Your move", in words, on the games that wait for me alone, and gathers them at the top', async () => {
    home([mine]);
    await restore();
    const root = mount(<Home />);
    await settle();
    const section = root.querySelector('section[aria-labelledby=my-games]')!;
    const headings = [...section.querySelectorAll('h3')].map((h) => h.textContent);
    expect(headings).toEqual(['Your move', 'All my games']);
    const [top] = section.querySelectorAll('ul.game-list');
    expect(lines(top).map((li) => li.querySelector('a')!.getAttribute('href'))).toEqual(['/games/g-mine']);
    // in the full list too, the one game that waits for me says so
    for (const [id, want] of [['g-mine', true], ['g-theirs', false], ['g-bot', false], ['g-over', false]] as const) {
      const li = lineOf(root, id).at(-1)!;
      expect(li.textContent?.includes('Your move'), id).toBe(want);
      expect(li.classList.contains('your-move'), id).toBe(want);
    }
    expect(calls.map((c) => c.path)).toContain('/users/u1/games?to_move=true&limit=20');
  });

  it('pages the full list by its cursor, marking a later page the same way', async () => {
    home([mine, older]);
    await restore();
    const root = mount(<Home />);
    await settle();
    const more = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Older games')!;
    expect(more).toBeTruthy();
    await act(async () => void more.click());
    await settle();
    expect(calls.map((c) => c.path)).toContain('/users/u1/games?limit=20&cursor=c2');
    expect(lineOf(root, 'g-older').map((li) => li.textContent?.includes('Your move'))).toEqual([true, true]);
  });

  it('has no "Your move" part when no game waits for me', async () => {
    home([], [theirs, takenOver, over]);
    await restore();
    const root = mount(<Home />);
    await settle();
    const section = root.querySelector('section[aria-labelledby=my-games]')!;
    expect(section.querySelectorAll('h3')).toHaveLength(0);
    expect(section.textContent).not.toContain('Your move');
    expect(lines(section.querySelector('ul.game-list'))).toHaveLength(3);
  });
});

describe('Home\'s invitations', () => {
  it('says "Invited: <game> by <creator>" with Join, which takes the seat and goes to the game', async () => {
    home([], [theirs], [invitation]);
    await restore();
    const root = mount(<Home />);
    await settle();
    const section = root.querySelector('section[aria-labelledby=my-games]')!;
    expect([...section.querySelectorAll('h3')].map((h) => h.textContent)).toEqual(['Invited']);
    const li = section.querySelector('ul.invitations li')!;
    expect(li.textContent).toMatch(/^Invited: Sequence · 2 players by carol — Join Decline$/);
    expect(li.querySelector('a')!.getAttribute('href')).toBe('/games/g-invite');
    const join = li.querySelector('button')!;
    expect(join.getAttribute('aria-label')).toBe('Join Sequence · 2 players by carol');
    await act(async () => void join.click());
    await settle();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/games/g-invite/join']);
    expect(location.pathname).toBe('/games/g-invite');
    history.replaceState(null, '', '/');
  });

  /** homeDeclining shows Home with the invitations before, which are those after once carol's is declined. */
  async function homeDeclining(before: Game[], after: Game[]) {
    let invited = before;
    stub({
      'GET /me': () => me,
      'GET /users/u1/games\\?invited=true&limit=20': () => ({ items: invited, next_cursor: '' }),
      'POST /games/g-invite/decline': () => {
        invited = after;
        return invitation;
      },
      'GET /users/u1/games.*': () => ({ items: [theirs], next_cursor: '' }),
      'GET /users/u1/(clubs|tournaments|open-tournaments).*': () => ({ items: [], next_cursor: '' }),
    });
    await restore();
    const root = mount(<Home />);
    await settle();
    return root;
  }

  it('declines with Decline: the seat is given up, the list read again without it, and the header count too', async () => {
    const root = await homeDeclining([invitation], []);
    const decline = root.querySelector('ul.invitations button[aria-label="Decline Sequence · 2 players by carol"]') as HTMLButtonElement;
    expect(decline.textContent).toBe('Decline');
    const counted = new Promise<void>((resolve) => window.addEventListener('seqleague:waiting', () => resolve(), { once: true }));
    resetCalls();
    await act(async () => void decline.click());
    await settle();
    await counted;
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/games/g-invite/decline']);
    expect(calls.filter((c) => c.path.includes('invited=true')).length).toBeGreaterThanOrEqual(1);
    expect(root.querySelector('ul.invitations')).toBeNull();
    expect(location.pathname).toBe('/');
    // the declined line and its button are gone: the focus is on "My games", not the page
    expect(document.activeElement).toBe(root.querySelector('#my-games'));
  });

  it("hands the focus to the next invitation's Join after a Decline", async () => {
    const second = { ...invitation, id: 'g-invite2', created_by_name: 'dave' };
    const root = await homeDeclining([invitation, second], [second]);
    const decline = root.querySelector('ul.invitations button[aria-label="Decline Sequence · 2 players by carol"]') as HTMLButtonElement;
    decline.focus();
    await act(async () => void decline.click());
    await settle();
    expect(document.activeElement!.getAttribute('aria-label')).toBe('Join Sequence · 2 players by dave');
  });

  it('reads the list again after a refused Join, and still says why', async () => {
    // The list kept offering the game the server had refused (started, called off) until the next poll.
    let invited = [invitation];
    stub({
      'GET /me': () => me,
      'GET /users/u1/games\\?invited=true&limit=20': () => ({ items: invited, next_cursor: '' }),
      'POST /games/g-invite/join': () => {
        invited = [];
        throw new ApiError(409, { title: 'Conflict', detail: 'the game has started' });
      },
      'GET /users/u1/games.*': () => ({ items: [theirs], next_cursor: '' }),
      'GET /users/u1/(clubs|tournaments|open-tournaments).*': () => ({ items: [], next_cursor: '' }),
    });
    await restore();
    const root = mount(<Home />);
    await settle();
    resetCalls();
    const join = root.querySelector('ul.invitations button[aria-label="Join Sequence · 2 players by carol"]') as HTMLButtonElement;
    join.focus();
    await act(async () => void join.click());
    await settle();
    expect(calls.filter((c) => c.path.includes('invited=true')).length).toBeGreaterThanOrEqual(1);
    expect(root.querySelector('ul.invitations')).toBeNull();
    expect(root.querySelector('[role=alert]')!.textContent).toBe('The game has started.');
    expect(location.pathname).toBe('/');
    expect(document.activeElement).toBe(root.querySelector('#my-games'));
  });

  it('shows nothing of invitations while there are none', async () => {
    home([], [theirs]);
    await restore();
    const root = mount(<Home />);
    await settle();
    expect(root.querySelector('ul.invitations')).toBeNull();
    expect(root.textContent).not.toContain('Invited');
    expect(calls.map((c) => c.path)).toContain('/users/u1/games?invited=true&limit=20');
  });
});

// "My next rounds" was read once: a Home left open said "round 1 in play" after round 1 had ended and
// round 2 begun (and never showed a tournament that started meanwhile), while the games above it kept up.
describe('Home "My next rounds"', () => {
  afterEach(() => vi.useRealTimers());

  it('is read again with the games, so a Home left open keeps up with the rounds', async () => {
    let round = 1;
    stub({
      'GET /me': () => me,
      'GET /users/u1/(games|clubs|open-tournaments)\\?.*': () => ({ items: [], next_cursor: '' }),
      'GET /users/u1/tournaments.*': () => ({
        items: [{ id: 't1', name: 'Swiss Cup', status: 'running', current_round: round, entry_name: 'ann', created_at: '2026-01-01T00:00:00Z' }],
        next_cursor: '',
      }),
    });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    await restore();
    const root = mount(<Home />);
    await settle();
    const next = () => root.querySelector('.next-rounds')!.textContent;
    expect(next()).toContain('round 1 in play');
    round = 2;
    await act(async () => void vi.advanceTimersByTime(REFRESH_MS));
    await settle();
    expect(next()).toContain('round 2 in play');
  });
});

// bob's Home said "round 3 · in 3 min" while his round 2 game was still being played, of a knockout
// round he had not reached: it shows the game being played, with a link to play it, from the list
// alone (no request per tournament).
describe('Home "My next rounds" in a knockout', () => {
  it('shows the game being played now, not a round the entry may not reach', async () => {
    const start = new Date(Date.now() + 3 * 60_000).toISOString();
    const t = {
      id: 't1', name: 'Cup', status: 'running', format: 'single-elimination', current_round: 2, entry_id: 'e-ann', entry_name: 'ann', created_at: '2026-01-01T00:00:00Z',
      next_round: 3, next_start: start,
      entry_match: { round: 2, match_id: 's1', status: 'playing', bye: false, game_id: 'g-semi' },
      entry_next_round: { number: 3, starts_at: start, if_through: true },
    };
    const out = { ...t, id: 't2', name: 'Plate', entry_match: { round: 2, match_id: 's2', status: 'finished', bye: false }, entry_next_round: undefined, knocked_out: true };
    stub({
      'GET /me': () => me,
      'GET /users/u1/(games|clubs|open-tournaments)\\?.*': () => ({ items: [], next_cursor: '' }),
      'GET /users/u1/tournaments.*': () => ({ items: [out, t], next_cursor: '' }),
    });
    await restore();
    const root = mount(<Home />);
    await settle();
    const [line, other] = root.querySelectorAll('.next-rounds li');
    expect(line.textContent).toContain('round 2: your game is being played');
    expect(line.textContent).not.toMatch(/round 3/);
    expect(line.querySelector<HTMLAnchorElement>('a[href="/games/g-semi"]')!.textContent).toBe('Play it');
    expect(other.textContent).toContain('knocked out: no round left for you');
    expect(other.textContent).not.toMatch(/round 3/);
    expect(calls.filter((c) => c.path.startsWith('/tournaments/'))).toEqual([]);
  });
});

// The lobby's Club choice is made of "My clubs" as Home reads them: the
// lobby asks for no list of clubs of its own.
describe('Home lobby', () => {
  it("offers my clubs in the lobby's Club choice, from the one request for my clubs", async () => {
    stub({
      'GET /me': () => me,
      'GET /users/u1/(games|tournaments|open-tournaments)\\?.*': () => ({ items: [], next_cursor: '' }),
      'GET /users/u1/clubs\\?limit=20': () => ({
        items: [{ id: 'c1', name: 'Sequence Club', description: '', owner_id: 'u1', member_count: 4, created_at: '', updated_at: '', role: 'owner' }],
        next_cursor: '',
      }),
      'GET /games\\?status=(open|active)(&club=c1)?&limit=20': () => ({ items: [], next_cursor: '' }),
    });
    await restore();
    const root = mount(<Home />);
    await settle();
    const select = root.querySelector<HTMLSelectElement>('section.lobby #lobby-club')!;
    expect([...select.options].map((o) => o.textContent)).toEqual(['All tables', 'Sequence Club']);
    act(() => {
      select.value = 'c1';
      select.dispatchEvent(new Event('change'));
    });
    await settle();
    expect(calls.map((c) => c.path)).toContain('/games?status=active&club=c1&limit=20');
    expect(calls.filter((c) => c.path.startsWith('/users/u1/clubs'))).toHaveLength(1);
    // with no tournament ahead, a member of a club is told where to enter, not to join a club
    expect(root.textContent).toContain('Your clubs list their tournaments on their pages: enter one there.');
    history.replaceState(null, '', '/');
  });
});

// A member found a tournament to enter only on each club's page: Home lists
// its clubs' tournaments that take entries and that the member has not
// entered, under the next rounds, with when the entries open or close.
describe('Home "Open for entries"', () => {
  /** myRoundsWithOpen mounts Home for a member of one club, with these tournaments open for entries, and answers its "My next rounds" section. */
  async function myRoundsWithOpen(open: object[]): Promise<Element> {
    stub({
      'GET /me': () => me,
      'GET /users/u1/(games|tournaments)\\?.*': () => ({ items: [], next_cursor: '' }),
      'GET /users/u1/clubs\\?limit=20': () => ({
        items: [{ id: 'c1', name: 'Sequence Club', description: '', owner_id: 'u2', member_count: 4, created_at: '', updated_at: '', role: 'member' }],
        next_cursor: '',
      }),
      'GET /users/u1/open-tournaments\\?limit=20': () => ({ items: open, next_cursor: '' }),
      'GET /games\\?.*': () => ({ items: [], next_cursor: '' }),
    });
    await restore();
    const root = mount(<Home />);
    await settle();
    return root.querySelector('section[aria-labelledby=my-rounds]')!;
  }

  it("lists my clubs' tournaments I may enter, with their club, entries and window, and says to enter one", async () => {
    const inTwoDays = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const inThreeHours = new Date(Date.now() + 3 * 3_600_000).toISOString();
    const cup = { id: 't1', club_id: 'c1', club_name: 'Sequence Club', name: 'Spring Cup', status: 'registration', current_round: 0, entries: 1, created_at: '', registration_closes: inThreeHours };
    const later = { id: 't2', club_id: 'c9', club_name: 'Night Owls', name: 'Summer Swiss', status: 'registration', current_round: 0, entries: 0, created_at: '', registration_opens: inTwoDays };
    const section = await myRoundsWithOpen([cup, later]);
    const [first, second] = section.querySelectorAll('.open-tournaments li');
    expect(first.querySelector('a')!.getAttribute('href')).toBe('/tournaments/t1');
    expect(first.textContent).toBe('Spring Cup Sequence Club · 1 entry · entries close in 3 h');
    // a club past the first page of my clubs is named too (from the list's club_name)
    expect(second.textContent).toBe('Summer Swiss Night Owls · 0 entries · entries open in 2 days');
    expect(section.textContent).toContain('No tournament ahead: enter one of those below.');
    history.replaceState(null, '', '/');
  });

  it("says why a tournament's entry limits bar me, and does not send me below when every one does", async () => {
    const band = { id: 't3', club_id: 'c1', club_name: 'Sequence Club', name: 'Masters', status: 'registration', current_round: 0, entries: 2, created_at: '', barred: "rating 1500 is outside the tournament's band" };
    const section = await myRoundsWithOpen([band]);
    expect(section.querySelector('.open-tournaments li')!.textContent).toBe("Masters Sequence Club · 2 entries · not open to you: rating 1500 is outside the tournament's band");
    expect(section.textContent).not.toContain('enter one of those below');
    expect(section.textContent).toContain('Your clubs list their tournaments on their pages');
    history.replaceState(null, '', '/');
  });
});
