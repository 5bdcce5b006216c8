import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'preact/test-utils';
import { ApiError } from '../api/client';
import type { GameView, Seat } from '../api/types';
import { App } from '../app';
import { navigate } from '../router';
import { api, restore } from '../session';
import { OpenGame } from './GamePage';
import { Rematch } from './Rematch';
import { calls, mount, resetCalls, settle, signOutAndUnmount, stub, unmountAll } from '../testing/stubApi';

const ann: Seat = { seat: 0, team: 0, user: { id: 'u1', username: 'ann' }, open: false, filled_by_bot: false, abandoned: false };
const bot: Seat = { seat: 1, team: 1, user: { id: 'b', username: 'bot-greedy' }, bot: 'greedy', open: false, filled_by_bot: false, abandoned: false };

function finished(over: Partial<GameView> = {}): GameView {
  return {
    id: 'g1', game: 'sequence', players: 2, teams: 2, status: 'finished', rated: false, clock: {}, created_at: '', seed_hash: '', ply: 80,
    created_by: 'u1', seats: [ann, bot], your_seat: 0, to_move: [], state: null, result: { status: 'finished', winner: 0 }, ...over,
  };
}

const texts = (root: Element, sel: string) => [...root.querySelectorAll(sel)].map((e) => e.textContent);

afterEach(() => {
  unmountAll();
  history.replaceState(null, '', '/');
});

describe('play again', () => {
  it('asks for the rematch and goes to it', async () => {
    stub({ 'POST /games/g1/rematch': () => ({ id: 'g2' }) });
    resetCalls();
    const root = mount(<Rematch view={finished()} />);
    expect(texts(root, 'button')).toEqual(['Play again']);
    act(() => root.querySelector('button')!.click());
    await settle();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /games/g1/rematch']);
    expect(location.pathname).toBe('/games/g2');
  });

  it('tells the players once a rematch is set up, and seats the one who asks next', () => {
    const root = mount(<Rematch view={finished({ rematch_id: 'g2' })} />);
    expect(texts(root, '[role=status]')).toEqual(['A rematch is set up.']);
    expect(texts(root, 'button')).toEqual(['Play the rematch']);
  });

  it('lets a spectator watch the rematch, and offers nothing before there is one', () => {
    const watching = mount(<Rematch view={finished({ your_seat: null, rematch_id: 'g2' })} />);
    expect(texts(watching, 'button')).toEqual([]);
    expect(watching.querySelector('a')!.getAttribute('href')).toBe('/games/g2');
    expect(mount(<Rematch view={finished({ your_seat: null })} />).textContent).toBe('');
  });

  it('is not offered for a game in play or a tournament game', () => {
    expect(mount(<Rematch view={finished({ status: 'active' })} />).textContent).toBe('');
    expect(mount(<Rematch view={finished({ created_by: undefined })} />).textContent).toBe('');
  });

  it("says why the server refused, as an alert", async () => {
    stub({
      'POST /games/g1/rematch': () => {
        throw new ApiError(422, { title: 'Unprocessable Entity', detail: "a tournament game's next game is the tournament's to make" });
      },
    });
    const root = mount(<Rematch view={finished()} />);
    act(() => root.querySelector('button')!.click());
    await settle();
    expect(texts(root, '[role=alert]')[0]).toContain("A tournament game's next game is the tournament's to make");
    expect(location.pathname).toBe('/');
  });
});

describe('going from a game to its rematch', () => {
  it('starts the page afresh: nothing of the finished game stays on the new one', async () => {
    vi.spyOn(api, 'refresh').mockResolvedValue(true);
    vi.stubGlobal('EventSource', class { close() {} addEventListener() {} });
    stub({
      'GET /me': () => ({ id: 'u1', username: 'ann' }),
      'GET /games/g1': () => finished(),
      'GET /games/g2': () => {
        throw new ApiError(503, { title: 'Service Unavailable', detail: 'try again' });
      },
    });
    await restore();
    history.replaceState(null, '', '/games/g1');
    const root = mount(<App />);
    await settle();
    expect(root.querySelector('.game')?.getAttribute('data-status')).toBe('finished');
    act(() => navigate('/games/g2'));
    await settle();
    // the finished game's table (and its "Play again") was still shown under the rematch's address
    expect(root.querySelector('.game')).toBeNull();
    expect(root.querySelector('h1')!.textContent).toBe('Game');
    expect(texts(root, '[role=alert]').join(' ')).toContain('Try again');
    await signOutAndUnmount();
    vi.unstubAllGlobals();
  });
});

describe("a rematch's seats kept for the other players", () => {
  const keptForBob = (until: number): GameView =>
    finished({
      id: 'g2', status: 'open', result: undefined, your_seat: null,
      seats: [{ ...ann, seat: 0 }, { seat: 1, team: 1, user: null, open: true, filled_by_bot: false, abandoned: false, kept_for: { id: 'u2', username: 'bob' }, kept_until: new Date(until).toISOString() }],
    });

  it('name who the seat is kept for, and offer it to nobody else', () => {
    const soon = Date.now() + 4.5 * 60_000;
    const cat = mount(<OpenGame view={keptForBob(soon)} me="u3" busy={false} onAction={() => {}} />);
    // "kept for bob (in 5 min)" read as bob arriving in 5 min: it says when the hold ends and what then
    const at = new Date(soon).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
    expect(cat.querySelector('[data-seat="1"]')!.textContent).toContain(`kept for bob until ${at} (5 min left), then open to anyone`);
    expect(texts(cat, 'button')).not.toContain('Take a seat');
    const bob = mount(<OpenGame view={keptForBob(soon)} me="u2" busy={false} onAction={() => {}} />);
    expect(texts(bob, 'button')).toContain('Take a seat');
  });

  it('open to anyone once the time is up', () => {
    const cat = mount(<OpenGame view={keptForBob(Date.now() - 1000)} me="u3" busy={false} onAction={() => {}} />);
    expect(cat.querySelector('[data-seat="1"]')!.textContent).toMatch(/: open$/);
    expect(texts(cat, 'button')).toContain('Take a seat');
  });
});
