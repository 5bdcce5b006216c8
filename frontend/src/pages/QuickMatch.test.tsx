import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { calls, mount, resetCalls, settle, stub, unmountAll } from '../testing/stubApi';
import { choose, defaultQuick, QuickMatch, quickRequest } from './QuickMatch';

afterEach(() => {
  unmountAll();
  history.replaceState(null, '', '/');
});

const pick = (root: HTMLElement, label: string, value: string) => {
  const id = [...root.querySelectorAll('label')].find((l) => l.textContent === label)?.htmlFor;
  const select = root.querySelector<HTMLSelectElement>(`#${id}`)!;
  act(() => {
    select.value = value;
    select.dispatchEvent(new Event('change'));
  });
};

describe('the quick match', () => {
  it('asks for a 2-player classic Sequence game by default, and no variant or teams for Stacks', () => {
    expect(quickRequest(defaultQuick())).toEqual({ game: 'sequence', variant: 'classic', players: 2, teams: 2 });
    expect(quickRequest(choose(defaultQuick(), { game: 'stacks' }))).toEqual({ game: 'stacks', players: 2 });
  });

  it('keeps the players and teams to ones the game has', () => {
    const five = choose(choose(defaultQuick(), { game: 'stacks' }), { players: 5 });
    expect(five.players).toBe(5);
    expect(choose(five, { game: 'sequence' })).toMatchObject({ players: 2, teams: 2 }); // Sequence has no 5-player table
    const six = choose(defaultQuick(), { players: 6, teams: 3 });
    expect(six.teams).toBe(3);
    expect(choose(six, { players: 4 }).teams).toBe(2);
  });

  it('posts the chosen set-up and goes to the game it is answered', async () => {
    stub({ 'POST /games/quick': () => ({ id: 'g7', game: 'stacks', players: 4, teams: 4, status: 'open', seats: [] }) });
    resetCalls();
    const root = mount(<QuickMatch />);
    expect([...root.querySelectorAll('label')].map((l) => l.textContent)).toEqual(['Game', 'Variant', 'Players']);
    pick(root, 'Players', '6');
    expect([...root.querySelectorAll('label')].map((l) => l.textContent)).toEqual(['Game', 'Variant', 'Players', 'Teams']); // 6 choose 2 or 3 teams
    pick(root, 'Game', 'stacks');
    expect([...root.querySelectorAll('label')].map((l) => l.textContent)).toEqual(['Game', 'Players']);
    pick(root, 'Players', '4');
    const button = root.querySelector('button')!;
    expect(button.textContent).toBe('Quick match');
    act(() => button.click());
    await settle();
    expect(calls).toEqual([{ method: 'POST', path: '/games/quick', body: { game: 'stacks', players: 4 } }]);
    expect(location.pathname).toBe('/games/g7');
  });

  it("says the server's refusal and stays", async () => {
    stub({
      'POST /games/quick': () => {
        throw new ApiError(422, { title: 'Unprocessable Entity', detail: 'you have 20 games waiting for players or being played, the most one may have' });
      },
    });
    const root = mount(<QuickMatch />);
    act(() => root.querySelector('button')!.click());
    await settle();
    expect(root.querySelector('[role=alert]')!.textContent).toContain('You have 20 games waiting');
    expect(location.pathname).toBe('/');
  });
});
