import { afterEach, describe, expect, it } from 'vitest';
import type { Game, Seat } from '../api/types';
import { calls, mount, resetCalls, settle, stub, unmountAll } from '../testing/stubApi';
import { Lobby, who } from './Lobby';

const seat = (n: number, over: Partial<Seat>): Seat => ({ seat: n, team: n % 2, user: null, open: false, filled_by_bot: false, abandoned: false, ...over });
const ann = (n: number) => seat(n, { user: { id: 'u1', username: 'ann' } });
const bob = (n: number) => seat(n, { user: { id: 'u2', username: 'bob' } });
const open = (n: number) => seat(n, { open: true });

function game(id: string, over: Partial<Game>): Game {
  return { id, game: 'sequence', players: 2, teams: 2, status: 'open', rated: false, clock: { turn_seconds: 60 }, created_at: new Date().toISOString(), seed_hash: '', ply: 0, seats: [], ...over };
}

afterEach(unmountAll);

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
        items: [game('g4', { status: 'active', players: 4, seats: [bob(0), seat(1, { user: { id: 'b', username: 'bot-greedy' }, bot: 'greedy' }), ann(2), open(3)] })],
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
    expect(watch.textContent).toMatch(/^Sequence · 4 players in 2 teams bob, bot-greedy, ann, 1 open seat started /);
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
});
