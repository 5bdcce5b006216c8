import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import type { Game, Seat, UserClub } from '../api/types';
import { api } from '../session';
import { calls, mount, resetCalls, settle, stub, unmountAll } from '../testing/stubApi';
import { filterOf, Lobby, lobbyPath, tableSizes, who } from './Lobby';

const seat = (n: number, over: Partial<Seat>): Seat => ({ seat: n, team: n % 2, user: null, open: false, filled_by_bot: false, abandoned: false, ...over });
const ann = (n: number) => seat(n, { user: { id: 'u1', username: 'ann' } });
const bob = (n: number) => seat(n, { user: { id: 'u2', username: 'bob' } });
const open = (n: number) => seat(n, { open: true });

const club = (id: string, name: string): UserClub => ({ id, name, description: '', owner_id: 'u9', member_count: 3, created_at: '', updated_at: '', role: 'member' });
const myClubs = [club('c1', "Ann's Club"), club('c2', 'Board Games Club')];

function game(id: string, over: Partial<Game>): Game {
  return { id, game: 'sequence', players: 2, teams: 2, status: 'open', rated: false, clock: { turn_seconds: 60 }, created_at: new Date().toISOString(), seed_hash: '', ply: 0, seats: [], ...over };
}

afterEach(() => {
  unmountAll();
  history.replaceState(null, '', '/');
});

describe('the lobby', () => {
  it('lists the games to join (not those I sit at) and those to watch, as they are set up', async () => {
    stub({
      'GET /games\\?status=open&limit=20': () => ({
        items: [
          game('g1', { seats: [bob(0), open(1)] }),
          game('g2', { seats: [ann(0), open(1)] }),
          game('g3', { game: 'stacks', players: 3, teams: 3, clock: { bank_seconds: 300, increment_seconds: 5 }, rated: true, seats: [bob(0), open(1), open(2)] }),
        ],
        next_cursor: '',
      }),
      'GET /games\\?status=active&limit=20': () => ({
        items: [game('g4', { status: 'active', variant: 'bordered', players: 4, seats: [bob(0), seat(1, { user: { id: 'b', username: 'bot-greedy' }, bot: 'greedy' }), ann(2), open(3)] })],
        next_cursor: '',
      }),
    });
    resetCalls();
    const root = mount(<Lobby me="u1" />);
    await settle();
    const [join, watch] = [...root.querySelectorAll('.game-list')];
    expect([...join.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^Sequence · 2 players bob, 1 open seat 1 min a turn set up /),
      expect.stringMatching(/^Stacks · 3 players bob, 2 open seats 5 min bank \+ 5 s a move · rated set up /),
    ]);
    expect(join.querySelector('a')!.getAttribute('href')).toBe('/games/g1');
    // a bordered table says so (it read "Sequence · 4 players", as a classic one)
    expect(watch.textContent).toMatch(/^Sequence \(bordered\) · 4 players in 2 teams bob, bot-greedy, ann, 1 open seat started /);
    expect(root.textContent).not.toContain('Sign in');
    expect(calls.map((c) => c.path).sort()).toEqual(['/games?status=active&limit=20', '/games?status=open&limit=20']);
  });

  it('tells a visitor to sign in to take a seat, and says when nothing is going on', async () => {
    stub({
      'GET /games\\?status=open&limit=20': () => ({ items: [game('g1', { seats: [bob(0), open(1)] })], next_cursor: '' }),
      'GET /games\\?status=active&limit=20': () => ({ items: [], next_cursor: '' }),
    });
    const root = mount(<Lobby />);
    await settle();
    expect(root.querySelector('a[href="/signin"]')).not.toBeNull();
    expect(root.textContent).toContain('No game is being played now.');
  });

  it('names the seats: people, bots, then the open ones counted', () => {
    expect(who(game('g', { seats: [ann(0), seat(1, { bot: 'random' }), open(2), open(3)] }))).toBe('ann, bot-random, 2 open seats');
  });

  it("gives each person's rating in the table's pool, as the lobby lists it", () => {
    const rated = (n: number, username: string, display: string) =>
      seat(n, { user: { id: username, username, rating: { rating: 0, display, games: 0, provisional: display.endsWith('?') } } });
    expect(who(game('g', { seats: [rated(0, 'ann', '1712'), rated(1, 'bob', '1500?'), open(2)] }))).toBe('ann (1712), bob (1500?), 1 open seat');
  });

  it('asks for the rated or the casual tables alone, and keeps the choice in the address', async () => {
    stub({ 'GET /games\\?status=(open|active)(&rated=true)?&limit=20': () => ({ items: [], next_cursor: '' }) });
    resetCalls();
    const root = mount(<Lobby me="u1" />);
    await settle();
    const rating = root.querySelector<HTMLSelectElement>('#lobby-rated')!;
    expect(root.querySelector('label[for=lobby-rated]')!.textContent).toBe('Rating');
    expect([...rating.options].map((o) => o.textContent)).toEqual(['Rated or casual', 'Rated only', 'Casual only']);
    resetCalls();
    act(() => {
      rating.value = 'true';
      rating.dispatchEvent(new Event('change'));
    });
    await settle();
    expect(calls.map((c) => c.path).sort()).toEqual(['/games?status=active&rated=true&limit=20', '/games?status=open&rated=true&limit=20']);
    expect(location.search).toBe('?rated=true');
    expect(root.textContent).toContain('No game of this kind is waiting for players');
  });

  it("shows none of the last choice's games while the chosen kind's are read", async () => {
    stub({ 'GET /games\\?status=(open|active)&limit=20': () => ({ items: [game('g1', { seats: [bob(0), open(1)] })], next_cursor: '' }) });
    const root = mount(<Lobby me="u1" />);
    await settle();
    expect(root.querySelector('.game-list a')!.textContent).toBe('Sequence · 2 players');
    // the Stacks tables are slow to come
    const answered = api.get;
    vi.spyOn(api, 'get').mockImplementation(((path: string) => (path.includes('game=stacks') ? new Promise(() => {}) : answered(path))) as never);
    act(() => {
      const g = root.querySelector<HTMLSelectElement>('#lobby-game')!;
      g.value = 'stacks';
      g.dispatchEvent(new Event('change'));
    });
    await settle();
    // the Sequence table stayed listed under "Stacks" until the answer came (or for good, if it failed)
    expect(root.querySelector('.game-list')).toBeNull();
    expect(root.textContent).toContain('Loading…');
  });

  it('asks for the games of the chosen kind and size, and keeps the choice in the address', async () => {
    history.replaceState(null, '', '/?game=stacks&players=3&x=1');
    stub({
      'GET /games\\?status=(open|active)&game=stacks&players=3&limit=20': () => ({ items: [], next_cursor: '' }),
      'GET /games\\?status=(open|active)&game=sequence&limit=20': () => ({ items: [game('g1', { seats: [bob(0), open(1)] })], next_cursor: '' }),
    });
    resetCalls();
    const root = mount(<Lobby me="u1" />);
    await settle();
    expect(calls.map((c) => c.path).sort()).toEqual(['/games?status=active&game=stacks&players=3&limit=20', '/games?status=open&game=stacks&players=3&limit=20']);
    expect(root.textContent).toContain('No game of this kind is waiting for players');
    const game_ = root.querySelector<HTMLSelectElement>('#lobby-game')!;
    const players = root.querySelector<HTMLSelectElement>('#lobby-players')!;
    expect(root.querySelector('label[for=lobby-game]')!.textContent).toBe('Game');
    expect(root.querySelector('label[for=lobby-players]')!.textContent).toBe('Players');
    expect([game_.value, players.value]).toEqual(['stacks', '3']);
    // Sequence has no 5-player table, and the 3 chosen stays (it has one of 3)
    expect([...players.options].map((o) => o.value)).toEqual(['0', '2', '3', '4', '5', '6']);
    resetCalls();
    act(() => {
      players.value = '0';
      players.dispatchEvent(new Event('change'));
    });
    act(() => {
      game_.value = 'sequence';
      game_.dispatchEvent(new Event('change'));
    });
    await settle();
    expect(calls.map((c) => c.path)).toContain('/games?status=open&game=sequence&limit=20');
    expect(location.search).toBe('?x=1&game=sequence');
    expect(root.querySelector('.game-list a')!.getAttribute('href')).toBe('/games/g1');
    expect([...players.options].map((o) => o.value)).toEqual(['0', '2', '3', '4', '6', '8', '9', '10', '12']);
  });

  it('reads only the kinds and sizes a game has from the address', () => {
    expect(filterOf(new URLSearchParams('game=stacks&players=3'))).toEqual({ game: 'stacks', players: 3 });
    expect(filterOf(new URLSearchParams('game=sequence&players=5'))).toEqual({ game: 'sequence' });
    expect(filterOf(new URLSearchParams('game=chess&players=12'))).toEqual({ players: 12 });
    expect(filterOf(new URLSearchParams('players=two'))).toEqual({});
    expect(filterOf(new URLSearchParams('rated=false'))).toEqual({ rated: false });
    expect(filterOf(new URLSearchParams('rated=yes'))).toEqual({});
    expect(lobbyPath('open', { game: 'sequence', rated: false })).toBe('/games?status=open&game=sequence&rated=false');
    expect(tableSizes()).toEqual([2, 3, 4, 5, 6, 8, 9, 10, 12]);
    expect(lobbyPath('active', { players: 4 })).toBe('/games?status=active&players=4');
    expect(lobbyPath('open', {})).toBe('/games?status=open');
    expect(filterOf(new URLSearchParams('club=c1&game=stacks'))).toEqual({ game: 'stacks', club: 'c1' });
    expect(filterOf(new URLSearchParams('club='))).toEqual({});
    expect(lobbyPath('active', { rated: true, club: 'c1' })).toBe('/games?status=active&rated=true&club=c1');
  });

  it("offers a player in clubs each of them, asks for the chosen club's tables alone, and keeps the choice in the address", async () => {
    stub({ 'GET /games\\?status=(open|active)(&club=c2)?&limit=20': () => ({ items: [], next_cursor: '' }) });
    resetCalls();
    const root = mount(<Lobby me="u1" clubs={myClubs} />);
    await settle();
    const select = root.querySelector<HTMLSelectElement>('#lobby-club')!;
    expect(root.querySelector('label[for=lobby-club]')!.textContent).toBe('Club');
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ['', 'All tables'],
      ['c1', "Ann's Club"],
      ['c2', 'Board Games Club'],
    ]);
    expect(calls.map((c) => c.path).sort()).toEqual(['/games?status=active&limit=20', '/games?status=open&limit=20']);
    resetCalls();
    act(() => {
      select.value = 'c2';
      select.dispatchEvent(new Event('change'));
    });
    await settle();
    expect(calls.map((c) => c.path).sort()).toEqual(['/games?status=active&club=c2&limit=20', '/games?status=open&club=c2&limit=20']);
    expect(location.search).toBe('?club=c2');
    // a quick match seats its player at any table, not one of this club's: the way to a game here is to start one
    expect(root.querySelector('.lobby p.muted')!.textContent).toBe('No game of this club is waiting for players: start one, with open seats, and it is listed here.');
    expect(root.textContent).toContain('No game of this club is being played now.');
    act(() => {
      select.value = '';
      select.dispatchEvent(new Event('change'));
    });
    await settle();
    expect(location.search).toBe('');
    expect(calls.map((c) => c.path)).toContain('/games?status=open&limit=20');
  });

  it('reads the club from the address; a club in it that is not mine can be let go, and a player in no club has no choice of club', async () => {
    stub({ 'GET /games\\?status=(open|active)(&club=c[0-9])?&limit=20': () => ({ items: [], next_cursor: '' }) });
    history.replaceState(null, '', '/?club=c1');
    resetCalls();
    let root = mount(<Lobby me="u1" clubs={myClubs} />);
    await settle();
    expect(root.querySelector<HTMLSelectElement>('#lobby-club')!.value).toBe('c1');
    expect(calls.map((c) => c.path).sort()).toEqual(['/games?status=active&club=c1&limit=20', '/games?status=open&club=c1&limit=20']);
    unmountAll();

    // a club I am not in, from a link: a table I start is not one of its members', and would not be listed here
    history.replaceState(null, '', '/?club=c7');
    root = mount(<Lobby me="u1" clubs={myClubs} />);
    await settle();
    expect(root.querySelector('.lobby p.muted')!.textContent).toBe('No game of this club is waiting for players.');
    unmountAll();

    // a link to another club's tables: they are listed, and the choice says so
    history.replaceState(null, '', '/?club=c7');
    resetCalls();
    root = mount(<Lobby clubs={undefined} />);
    await settle();
    const select = root.querySelector<HTMLSelectElement>('#lobby-club')!;
    expect([...select.options].map((o) => o.textContent)).toEqual(['All tables', 'Another club']);
    expect(select.value).toBe('c7');
    expect(calls.map((c) => c.path)).toContain('/games?status=open&club=c7&limit=20');
    act(() => {
      select.value = '';
      select.dispatchEvent(new Event('change'));
    });
    expect(location.search).toBe('');
    unmountAll();

    history.replaceState(null, '', '/');
    for (const clubs of [[], undefined]) {
      root = mount(<Lobby me="u1" clubs={clubs} />);
      await settle();
      expect(root.querySelector('#lobby-club')).toBeNull();
      unmountAll();
    }
  });

  it('says once that a club in the address does not exist, not under each list', async () => {
    stub({
      'GET /games\\?status=(open|active)&club=gone&limit=20': () => {
        throw new ApiError(404, { title: 'Not Found', detail: 'no such club', errors: [{ field: 'club', message: 'no such club' }] });
      },
    });
    history.replaceState(null, '', '/?club=gone');
    const root = mount(<Lobby me="u1" clubs={myClubs} />);
    await settle();
    expect([...root.querySelectorAll('[role=alert]')].map((e) => e.textContent)).toEqual(['No such club.']);
    // said under the choice that named it, before the lists' headings
    expect(root.querySelector('.lobby-filter + [role=alert]')).not.toBeNull();
    expect(root.querySelector<HTMLSelectElement>('#lobby-club')!.value).toBe('gone');
  });
});
