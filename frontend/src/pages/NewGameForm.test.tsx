import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import type { NewGame } from '../api/types';
import { api } from '../session';
import { browserFocus, focusRefused } from '../testing/browserFocus';
import { defaultForm, missingNames, NewGameForm, resize, toRequest, type SeatChoice } from './NewGameForm';

describe('the new-game form', () => {
  it('asks for a 1 v 1 Sequence game against a random bot by default', () => {
    expect(toRequest(defaultForm())).toEqual({
      game: 'sequence',
      variant: 'classic',
      players: 2,
      teams: 2,
      seats: [{ user: 'me' }, { bot: 'random' }],
      clock: { turn_seconds: 60 },
    });
  });

  it('keeps seats and teams valid when the player count changes', () => {
    const six = resize(defaultForm(), 6);
    expect(six.seats).toHaveLength(6);
    expect(six.teams).toBe(2);
    const three = resize({ ...six, teams: 3 }, 3);
    expect(three.teams).toBe(3);
    expect(three.seats).toEqual(['me', 'random', 'random']);
  });

  it('keeps "Me" when its seat is cut, in the first seat', () => {
    const four = { ...resize(defaultForm(), 4), seats: ['open', 'random', 'me', 'greedy'] as SeatChoice[] };
    expect(resize(four, 2).seats).toEqual(['me', 'random']);
    expect(resize({ ...four, game: 'stacks' }, 2).seats).toEqual(['me', 'random']);
    // "Me" in a seat that stays stays there; no "Me" is made up
    expect(resize({ ...four, seats: ['open', 'me', 'random', 'random'] }, 2).seats).toEqual(['open', 'me']);
    expect(resize({ ...four, seats: ['open', 'random', 'greedy', 'strong'] }, 2).seats).toEqual(['open', 'random']);
  });

  it('sends a kept seat as open for its trimmed username, and keeps names in step with the seats', () => {
    const f = { ...resize(defaultForm(), 4), seats: ['me', 'kept', 'open', 'kept'] as SeatChoice[], keptFor: ['', ' bob', 'x', 'cat'] };
    expect(toRequest(f).seats).toEqual([{ user: 'me' }, { open: true, for: 'bob' }, { open: true }, { open: true, for: 'cat' }]);
    expect(missingNames({ ...f, keptFor: ['', '  '] })).toEqual([1, 3]);
  });

  it('sends no teams or variant for Stacks', () => {
    const f = resize({ ...defaultForm(), game: 'stacks' }, 4);
    const req = toRequest({ ...f, seats: ['me', 'greedy', 'open', 'strong'], turnSeconds: 30 });
    expect(req).toEqual({ game: 'stacks', players: 4, seats: [{ user: 'me' }, { bot: 'greedy' }, { open: true }, { bot: 'strong' }], clock: { turn_seconds: 30 } });
  });
});

describe('the new-game clock', () => {
  it('sends one clock, as the API accepts it: untimed, a time per turn, or a bank with its increment', () => {
    const all = { ...defaultForm(), turnSeconds: 30, bankSeconds: 300, incrementSeconds: 5 };
    expect(toRequest({ ...all, clockMode: 'untimed' }).clock).toBeUndefined();
    expect(toRequest({ ...all, clockMode: 'turn' }).clock).toEqual({ turn_seconds: 30 });
    expect(toRequest({ ...all, clockMode: 'bank' }).clock).toEqual({ bank_seconds: 300, increment_seconds: 5 });
    expect(toRequest({ ...all, clockMode: 'bank', incrementSeconds: 0 }).clock).toEqual({ bank_seconds: 300 });
  });
});

describe('the new-game form on the page', () => {
  beforeEach(() => vi.restoreAllMocks());
  afterEach(() => {
    act(() => render(null, document.body));
    document.body.innerHTML = '';
  });

  const change = (sel: string, v: string) =>
    act(() => {
      const el = document.querySelector(sel) as HTMLSelectElement;
      el.value = v;
      el.dispatchEvent(new Event('change', { bubbles: true }));
    });
  const submit = async () => {
    await act(async () => void (document.querySelector('form') as HTMLFormElement).dispatchEvent(new Event('submit', { cancelable: true })));
    for (let i = 0; i < 4; i++) await act(async () => void (await new Promise((r) => setTimeout(r, 0))));
  };

  it('offers the clock as one choice and posts a time bank with its increment alone', async () => {
    const post = vi.spyOn(api, 'post').mockResolvedValue({ id: 'g1' } as never);
    act(() => render(<NewGameForm />, document.body));
    const opts = (sel: string) => [...document.querySelectorAll(`${sel} option`)].map((o) => (o as HTMLOptionElement).value);
    expect(opts('#ng-clock')).toEqual(['untimed', 'turn', 'bank']);
    expect(document.querySelector('#ng-bank')).toBeNull(); // a time per turn by default: no bank to set
    change('#ng-clock', 'bank');
    expect(document.querySelector('#ng-turn')).toBeNull();
    change('#ng-bank', '600');
    change('#ng-increment', '5');
    await submit();
    expect(post).toHaveBeenCalledTimes(1);
    expect((post.mock.calls[0][1] as NewGame).clock).toEqual({ bank_seconds: 600, increment_seconds: 5 });
  });

  it("shows the server's clock objections next to the clock controls", async () => {
    vi.spyOn(api, 'post').mockRejectedValue(
      new ApiError(400, {
        title: 'Invalid input',
        detail: 'the game cannot be set up',
        errors: [
          { field: 'clock', message: 'use turn_seconds or bank_seconds, not both' },
          { field: 'sequences_to_win', message: 'must be 1 or 2' },
        ],
      }),
    );
    act(() => render(<NewGameForm />, document.body));
    await submit();
    expect(document.querySelector('#ng-clock-err')!.textContent).toBe('use turn_seconds or bank_seconds, not both');
    expect(document.querySelector('#ng-clock')!.getAttribute('aria-invalid')).toBe('true');
    // a field without a control of its own is still named, under the summary
    expect(document.querySelector('.error')!.textContent).toContain('The game cannot be set up');
    expect(document.querySelector('.error')!.textContent).toContain('must be 1 or 2');
  });

  it('asks for a private table when its box is ticked, and says what that means', async () => {
    const post = vi.spyOn(api, 'post').mockResolvedValue({ id: 'g1' } as never);
    act(() => render(<NewGameForm />, document.body));
    const box = document.querySelector('#ng-private') as HTMLInputElement;
    expect(document.querySelector('label[for="ng-private"]')!.textContent).toBe('Private table (only people with the link)');
    expect(document.getElementById(box.getAttribute('aria-describedby')!)!.textContent).toContain('send its link');
    expect(box.checked).toBe(false);
    await submit();
    expect((post.mock.calls[0][1] as NewGame).private).toBeUndefined();
    act(() => box.click());
    await submit();
    expect((post.mock.calls[1][1] as NewGame).private).toBe(true);
  });

  it('asks for a rated game when its box is ticked, and shows the objection to it at the box', async () => {
    const post = vi.spyOn(api, 'post').mockResolvedValue({ id: 'g1' } as never);
    act(() => render(<NewGameForm />, document.body));
    const box = document.querySelector('#ng-rated') as HTMLInputElement;
    expect(document.querySelector('label[for="ng-rated"]')!.textContent).toBe('Rated game');
    expect(box.checked).toBe(false);
    await submit();
    expect((post.mock.calls[0][1] as NewGame).rated).toBeUndefined();
    act(() => box.click());
    await submit();
    expect((post.mock.calls[1][1] as NewGame).rated).toBe(true);
    post.mockRejectedValue(
      new ApiError(400, {
        title: 'Invalid input',
        detail: 'a rated game needs a person',
        errors: [{ field: 'rated', message: 'a rated game needs a person at the table: take a seat or leave one open' }],
      }),
    );
    await submit();
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(box.getAttribute('aria-describedby')!.split(' ')[0])!.textContent).toBe(
      'a rated game needs a person at the table: take a seat or leave one open',
    );
    expect(document.querySelector('.error ul')).toBeNull(); // said at the box, not again under the summary
  });

  it('keeps a seat for a player by username: "Open, kept for…" asks the name and posts it', async () => {
    const post = vi.spyOn(api, 'post').mockResolvedValue({ id: 'g1' } as never);
    act(() => render(<NewGameForm />, document.body));
    expect([...document.querySelectorAll('#ng-seat-1 option')].map((o) => o.textContent)).toContain('Open, kept for…');
    expect(document.querySelector('#ng-seat-1-for')).toBeNull();
    change('#ng-seat-1', 'kept');
    const name = document.querySelector('#ng-seat-1-for') as HTMLInputElement;
    expect(document.querySelector('label[for="ng-seat-1-for"]')!.textContent).toBe('Kept for (username)');
    // no name yet: said at the seat, the focus there, nothing posted
    await submit();
    expect(post).not.toHaveBeenCalled();
    expect(document.querySelector('#ng-seat-1-err')!.textContent).toBe('Enter the username of the player to keep this seat for.');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(name);
    act(() => {
      name.value = ' bob ';
      name.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(document.querySelector('#ng-seat-1-err')).toBeNull();
    await submit();
    expect((post.mock.calls[0][1] as NewGame).seats).toEqual([{ user: 'me' }, { open: true, for: 'bob' }]);
  });

  it("shows the server's objection to a kept seat's player at that seat", async () => {
    vi.spyOn(api, 'post').mockRejectedValue(
      new ApiError(422, { title: 'Precondition failed', detail: 'a seat cannot be kept for that player', errors: [{ field: 'seats[1].for', message: 'no player has this username' }] }),
    );
    act(() => render(<NewGameForm />, document.body));
    change('#ng-seat-1', 'kept');
    act(() => {
      const name = document.querySelector('#ng-seat-1-for') as HTMLInputElement;
      name.value = 'nobody';
      name.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await submit();
    expect(document.querySelector('#ng-seat-1-err')!.textContent).toBe('No player has this username.');
    expect(document.querySelector('#ng-seat-1-for')!.getAttribute('aria-describedby')).toBe('ng-seat-1-err');
  });

  it('offers "Me" in one seat at a time', () => {
    act(() => render(<NewGameForm />, document.body));
    change('#ng-players', '4');
    const offersMe = () => [0, 1, 2, 3].map((i) => [...document.querySelectorAll(`#ng-seat-${i} option`)].some((o) => (o as HTMLOptionElement).value === 'me'));
    expect(offersMe()).toEqual([true, false, false, false]);
    change('#ng-seat-0', 'open');
    expect(offersMe()).toEqual([true, true, true, true]);
    change('#ng-seat-2', 'me');
    expect(offersMe()).toEqual([false, false, true, false]);
  });

  it('keeps "Me" seated when fewer players or another game cuts its seat', async () => {
    const post = vi.spyOn(api, 'post').mockResolvedValue({ id: 'g1' } as never);
    act(() => render(<NewGameForm />, document.body));
    const seats = () => [0, 1, 2, 3].map((i) => (document.querySelector(`#ng-seat-${i}`) as HTMLSelectElement | null)?.value).filter(Boolean);
    change('#ng-players', '4');
    change('#ng-seat-0', 'open');
    change('#ng-seat-2', 'me');
    change('#ng-players', '2');
    expect(seats()).toEqual(['me', 'random']);
    change('#ng-players', '4');
    change('#ng-seat-0', 'open');
    change('#ng-seat-3', 'me');
    change('#ng-game', 'stacks');
    expect(seats()).toEqual(['me', 'random']);
    await submit();
    expect((post.mock.calls[0][1] as NewGame).seats).toEqual([{ user: 'me' }, { bot: 'random' }]);
  });

  it("shows the server's seat objections at their seats, in words", async () => {
    vi.spyOn(api, 'post').mockRejectedValue(
      new ApiError(400, {
        title: 'Invalid input',
        detail: 'a person can take only one seat',
        errors: [
          { field: 'seats[1].user', message: 'already seated' },
          { field: 'seats[0].bot', message: 'must be random, greedy or strong' },
        ],
      }),
    );
    act(() => render(<NewGameForm />, document.body));
    await submit();
    const seat2 = document.querySelector('#ng-seat-1')!;
    expect(seat2.getAttribute('aria-invalid')).toBe('true');
    expect(document.querySelector('#' + seat2.getAttribute('aria-describedby'))!.textContent).toBe('You already have another seat: a person can take only one.');
    expect(document.querySelector('#ng-seat-0-err')!.textContent).toBe('Must be random, greedy or strong.');
    const summary = document.querySelector('.error')!.textContent!;
    expect(summary).toBe('A person can take only one seat.');
    expect(summary).not.toContain('seats[');
  });

  it('moves an increment objection to the clock choice when its control is hidden', async () => {
    vi.spyOn(api, 'post').mockRejectedValue(
      new ApiError(400, { title: 'Invalid input', detail: 'the game cannot be set up', errors: [{ field: 'clock.increment_seconds', message: 'needs bank_seconds' }] }),
    );
    act(() => render(<NewGameForm />, document.body));
    await submit();
    expect(document.querySelector('#ng-increment')).toBeNull();
    expect(document.querySelector('#ng-clock-err')!.textContent).toBe('needs bank_seconds');
  });
});

// The button is disabled while the game is asked for, which drops its focus to the page; a refusal left it there.
describe('the keyboard focus after a refused new game', () => {
  browserFocus();
  afterEach(() => {
    expect(focusRefused).toEqual([]);
    act(() => render(null, document.body));
    document.body.innerHTML = '';
    vi.restoreAllMocks();
  });
  const submit = async () => {
    await act(async () => void (document.querySelector('form') as HTMLFormElement).dispatchEvent(new Event('submit', { cancelable: true })));
    for (let i = 0; i < 4; i++) await act(async () => void (await new Promise((r) => setTimeout(r, 0))));
  };

  it('goes back to the button when the refusal names no field', async () => {
    vi.spyOn(api, 'post').mockRejectedValue(new ApiError(429, { title: 'Too Many Requests', detail: 'you have 20 open tables' }));
    act(() => render(<NewGameForm />, document.body));
    const button = document.querySelector('button[type=submit]') as HTMLButtonElement;
    button.focus();
    await submit();
    expect(document.querySelector('[role=alert]')!.textContent).toContain('20 open tables');
    expect(document.activeElement).toBe(button);
  });

  it('goes to the first control at fault', async () => {
    vi.spyOn(api, 'post').mockRejectedValue(
      new ApiError(400, { title: 'Invalid input', detail: 'bad seat', errors: [{ field: 'seats[1].bot', message: 'no such bot' }] }),
    );
    act(() => render(<NewGameForm />, document.body));
    (document.querySelector('button[type=submit]') as HTMLButtonElement).focus();
    await submit();
    expect(document.activeElement).toBe(document.querySelector('#ng-seat-1'));
  });
});
