// A table's seats before the start: its creator changes a seat no person
// holds (kept for another player, open to anyone, a bot) in place, and a
// player a seat is kept for may decline it. Against a stubbed API.
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import type { GameView, Seat } from '../api/types';
import { calls, mount, resetCalls, stub, unmountAll } from '../testing/stubApi';
import { choose, press, submitForm, typeInto } from '../testing/dom';
import { OpenGame } from './GamePage';

const ann: Seat = { seat: 0, team: 0, user: { id: 'u1', username: 'ann' }, open: false, filled_by_bot: false, abandoned: false };
const keptForBob: Seat = { seat: 1, team: 1, user: null, open: true, filled_by_bot: false, abandoned: false, kept_for: { id: 'u2', username: 'bob' } };
const open: Seat = { seat: 2, team: 2, user: null, open: true, filled_by_bot: false, abandoned: false };
const cat: Seat = { seat: 3, team: 3, user: { id: 'u3', username: 'cat' }, open: false, filled_by_bot: false, abandoned: false };

// ann's Stacks table for four: seat 1 kept for bob, seat 2 open, cat in seat 3
const table = (over: Partial<GameView> = {}): GameView => ({
  id: 'g1', game: 'stacks', players: 4, teams: 4, status: 'open', rated: false, clock: {}, created_at: '', seed_hash: '', ply: 0,
  created_by: 'u1', seats: [ann, keptForBob, open, cat], your_seat: 0, to_move: [], state: null, ...over,
});

const button = (root: Element, label: string) => root.querySelector(`button[aria-label="${label}"]`) as HTMLButtonElement | null;
beforeEach(() => {
  vi.restoreAllMocks();
  resetCalls();
});
afterEach(unmountAll);

describe("the creator's seat changes", () => {
  it('offer Change on the seats no person holds, to the creator alone', () => {
    const mine = mount(<OpenGame view={table()} me="u1" busy={false} onAction={() => {}} onSeatChanged={async () => {}} />);
    expect([...mine.querySelectorAll('button[data-action^=seat-]')].map((b) => b.getAttribute('aria-label'))).toEqual(['Change seat 2', 'Change seat 3']);
    const theirs = mount(<OpenGame view={table({ your_seat: 3 })} me="u3" busy={false} onAction={() => {}} onSeatChanged={async () => {}} />);
    expect(theirs.querySelector('button[data-action^=seat-]')).toBeNull();
  });

  it('keep a seat for another player: the request, then the table read again', async () => {
    const changed = vi.fn(async () => {});
    stub({ 'PUT /games/g1/seats/1': () => table() });
    const root = mount(<OpenGame view={table()} me="u1" busy={false} onAction={() => {}} onSeatChanged={changed} />);
    await press(button(root, 'Change seat 2'));
    expect((root.querySelector('#seat-1-to') as HTMLSelectElement).value).toBe('kept');
    expect((root.querySelector('#f-seat-1-for') as HTMLInputElement).value).toBe('bob');
    expect(document.activeElement?.id).toBe('seat-1-to');
    typeInto(root, '#f-seat-1-for', ' dan ');
    await submitForm(root.querySelector('form'));
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([['PUT', '/games/g1/seats/1', { open: true, for: 'dan' }]]);
    expect(changed).toHaveBeenCalledTimes(1);
    expect(root.querySelector('form')).toBeNull();
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Change seat 2');
  });

  it('open a seat to anyone, or give it to a bot', async () => {
    stub({ 'PUT /games/g1/seats/.*': () => table() });
    const root = mount(<OpenGame view={table()} me="u1" busy={false} onAction={() => {}} onSeatChanged={async () => {}} />);
    await press(button(root, 'Change seat 2'));
    choose(root, '#seat-1-to', 'open');
    expect(root.querySelector('#f-seat-1-for')).toBeNull();
    await submitForm(root.querySelector('form'));
    await press(button(root, 'Change seat 3'));
    choose(root, '#seat-2-to', 'strong');
    await submitForm(root.querySelector('form'));
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ['/games/g1/seats/1', { open: true }],
      ['/games/g1/seats/2', { bot: 'strong' }],
    ]);
  });

  it("say the server's objection at the username, with the focus there, and keep the form open", async () => {
    stub({
      'PUT /games/g1/seats/2': () => {
        throw new ApiError(422, { title: 'a seat cannot be kept for that player', errors: [{ field: 'for', message: 'no player has this username' }] });
      },
    });
    const changed = vi.fn(async () => {});
    const root = mount(<OpenGame view={table()} me="u1" busy={false} onAction={() => {}} onSeatChanged={changed} />);
    await press(button(root, 'Change seat 3'));
    choose(root, '#seat-2-to', 'kept');
    typeInto(root, '#f-seat-2-for', 'zed');
    await submitForm(root.querySelector('form'));
    const name = root.querySelector('#f-seat-2-for') as HTMLInputElement;
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(root.querySelector('#f-seat-2-for-err')!.textContent).toBe('no player has this username');
    expect(document.activeElement).toBe(name);
    expect(changed).not.toHaveBeenCalled();
  });
});

describe('declining a seat kept for me', () => {
  it('is offered to the player it is kept for, beside Take a seat, and to nobody else', () => {
    const onAction = vi.fn();
    const bob = mount(<OpenGame view={table({ your_seat: null })} me="u2" busy={false} onAction={onAction} />);
    const decline = bob.querySelector('[data-seat-action=decline]') as HTMLButtonElement;
    expect(decline.textContent).toBe('Decline');
    act(() => decline.click());
    expect(onAction).toHaveBeenCalledWith('decline');
    const dan = mount(<OpenGame view={table({ your_seat: null })} me="u4" busy={false} onAction={() => {}} />);
    expect(dan.querySelector('[data-seat-action=decline]')).toBeNull();
    const annView = mount(<OpenGame view={table()} me="u1" busy={false} onAction={() => {}} />);
    expect(annView.querySelector('[data-seat-action=decline]')).toBeNull();
  });
});
