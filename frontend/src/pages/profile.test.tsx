// Changing one's password from one's own profile against a stubbed API:
// the request sent, the new tokens kept as signing in keeps them, the
// success message, and the server's field errors next to their fields.
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import type { User } from '../api/types';
import { api, currentUser, restore } from '../session';
import Profile, { ChangeEmail, ChangePassword } from './Profile';
import { fetchRatings, RatingCharts } from '../competition/RatingChart';

import { browserFocus, focusRefused, pressInBrowser } from '../testing/browserFocus';
import { calls, type Handler, mount, resetCalls, settle, stub, signOutAndUnmount } from '../testing/stubApi';
import { typeInto as type } from '../testing/dom';

const ann: User = { id: 'u-ann', username: 'ann', kind: 'human', is_admin: false, created_at: '2026-01-01T00:00:00Z' };
const bob: User = { id: 'u-bob', username: 'bob', kind: 'human', is_admin: false, created_at: '2026-01-01T00:00:00Z' };
const newPair = { access_token: 'access-after-change', token_type: 'Bearer', expires_in: 900, refresh_token: 'refresh-after-change' };

const submit = async (root: Element) => {
  const form = root.querySelector('form[aria-label="Change password"]') as HTMLFormElement;
  expect(form).not.toBeNull();
  await act(async () => void form.dispatchEvent(new Event('submit', { cancelable: true })));
  await settle();
};
const fill = (root: Element, current: string, next: string) => {
  type(root, 'input[name="current_password"]', current);
  type(root, 'input[name="new_password"]', next);
};
const fieldError = (root: Element, name: string) => root.querySelector(`#f-${name}-err`)?.textContent ?? '';
const success = (root: Element) => root.querySelector('[role="status"].ok');

async function signInAs(me: User, routes: Record<string, Handler>) {
  vi.spyOn(api, 'refresh').mockImplementation(async () => {
    api.setTokens({ access_token: 'access-before-change', expires_in: 900 });
    return true;
  });
  stub({ 'GET /me': () => me, ...routes });
  await restore();
  resetCalls();
}

const refused = (field: string, message: string) => () => {
  throw new ApiError(400, { title: 'Bad Request', status: 400, detail: 'the password change is not valid', errors: [{ field, message }] });
};

beforeEach(() => {
  vi.restoreAllMocks();
  resetCalls();
});
afterEach(signOutAndUnmount);

describe('the keyboard focus after a password change', () => {
  // as in Chromium: the submit button, disabled while its request runs, loses the focus
  browserFocus();
  const submitButton = (root: Element) => root.querySelector('button[type=submit]') as HTMLButtonElement;

  it('goes to the message that it worked', async () => {
    await signInAs(ann, { 'POST /me/password': () => newPair });
    const root = mount(<ChangePassword username="ann" />);
    fill(root, 'old secret 1', 'new secret 22');
    await pressInBrowser(submitButton(root));
    expect(success(root)?.textContent).toMatch(/Password changed/);
    expect(document.activeElement).toBe(success(root));
    expect(focusRefused).toEqual([]);
  });

  it('goes to the field the server objects to', async () => {
    await signInAs(ann, { 'POST /me/password': refused('current_password', 'is not right') });
    const root = mount(<ChangePassword username="ann" />);
    fill(root, 'a wrong guess', 'new secret 22');
    await pressInBrowser(submitButton(root));
    expect(fieldError(root, 'current_password')).toBe('is not right');
    expect(document.activeElement).toBe(root.querySelector('input[name="current_password"]'));
    expect(focusRefused).toEqual([]);
  });
});

describe('a refused password change', () => {
  it('drops the stale field error once the field is edited, and after a new submit', async () => {
    let answer: Handler = refused('current_password', 'is not right');
    await signInAs(ann, { 'POST /me/password': (...a) => answer(...a) });
    const root = mount(<ChangePassword username="ann" />);
    fill(root, 'a wrong guess', 'new secret 22');
    await submit(root);
    expect(fieldError(root, 'current_password')).toBe('is not right');
    type(root, 'input[name="current_password"]', 'old secret 1');
    expect(fieldError(root, 'current_password')).toBe('');
    expect(root.querySelector('input[name="current_password"]')!.getAttribute('aria-invalid')).not.toBe('true');
    answer = () => newPair;
    await submit(root);
    expect(fieldError(root, 'current_password')).toBe('');
    expect(success(root)?.textContent).toMatch(/Password changed/);
  });
});

describe('changing the password', () => {
  it('sends both passwords, keeps the new tokens and says it worked', async () => {
    await signInAs(ann, { 'POST /me/password': () => newPair });
    const root = mount(<ChangePassword username="ann" />);
    expect(root.querySelector('input[name="current_password"]')?.getAttribute('autocomplete')).toBe('current-password');
    expect(root.querySelector('input[name="new_password"]')?.getAttribute('autocomplete')).toBe('new-password');
    fill(root, 'old secret 1', 'new secret 22');
    await submit(root);

    expect(calls).toEqual([{ method: 'POST', path: '/me/password', body: { current_password: 'old secret 1', new_password: 'new secret 22' } }]);
    expect(api.accessToken).toBe('access-after-change');
    expect(success(root)?.textContent).toMatch(/Password changed/);
    expect((root.querySelector('input[name="current_password"]') as HTMLInputElement).value).toBe('');
    expect((root.querySelector('input[name="new_password"]') as HTMLInputElement).value).toBe('');
    expect(root.querySelector('[role="alert"]')).toBeNull();
  });

  it('shows a wrong current password next to that field and keeps the session as it was', async () => {
    await signInAs(ann, { 'POST /me/password': refused('current_password', 'is not right') });
    const root = mount(<ChangePassword username="ann" />);
    fill(root, 'a wrong guess', 'new secret 22');
    await submit(root);

    expect(fieldError(root, 'current_password')).toBe('is not right');
    expect(root.querySelector('input[name="current_password"]')?.getAttribute('aria-invalid')).toBe('true');
    expect(fieldError(root, 'new_password')).toBe('');
    expect(success(root)).toBeNull();
    expect(api.accessToken).toBe('access-before-change');
    // What was typed stays, to be corrected.
    expect((root.querySelector('input[name="new_password"]') as HTMLInputElement).value).toBe('new secret 22');
  });

  it('shows a refused new password next to that field', async () => {
    await signInAs(ann, { 'POST /me/password': refused('new_password', 'must be 8 to 128 characters') });
    const root = mount(<ChangePassword username="ann" />);
    fill(root, 'old secret 1', 'short');
    await submit(root);

    expect(fieldError(root, 'new_password')).toBe('must be 8 to 128 characters');
    expect(fieldError(root, 'current_password')).toBe('');
    expect(success(root)).toBeNull();
  });

  it('shows an error that names no field above the button', async () => {
    await signInAs(ann, {
      'POST /me/password': () => {
        throw new ApiError(429, { title: 'Too Many Requests', status: 429, detail: 'too many attempts; try again in 30 seconds' });
      },
    });
    const root = mount(<ChangePassword username="ann" />);
    fill(root, 'old secret 1', 'new secret 22');
    await submit(root);
    expect(root.querySelector('[role="alert"]')?.textContent).toMatch(/Too many attempts/);
    expect(success(root)).toBeNull();
  });
});

describe('changing the e-mail address', () => {
  const submitEmail = async (root: Element) => {
    const form = root.querySelector('form[aria-label="Change e-mail address"]') as HTMLFormElement;
    expect(form).not.toBeNull();
    await act(async () => void form.dispatchEvent(new Event('submit', { cancelable: true })));
    await settle();
  };
  const fillEmail = (root: Element, email: string, current: string) => {
    type(root, 'input[name="email"]', email);
    type(root, 'input[name="email-current-password"]', current);
  };
  const emailRefused = (field: string, message: string) => () => {
    throw new ApiError(400, { title: 'Bad Request', status: 400, detail: 'the e-mail change is not valid', errors: [{ field, message }] });
  };

  it('sends the trimmed address with the password, keeps the session and says it worked', async () => {
    let saved: User | undefined;
    await signInAs(ann, { 'PATCH /me': (_p, body) => ({ ...ann, email: (body as { email: string }).email }) });
    const root = mount(<ChangeEmail username="ann" email="" onSaved={(u) => (saved = u)} />);
    expect(root.querySelector('input[name="email"]')?.getAttribute('type')).toBe('email');
    expect(root.querySelector('input[name="email"]')?.getAttribute('autocomplete')).toBe('email');
    expect(root.querySelector('input[name="email-current-password"]')?.getAttribute('autocomplete')).toBe('current-password');
    fillEmail(root, ' ann@example.org ', 'my secret 1');
    await submitEmail(root);

    expect(calls).toEqual([{ method: 'PATCH', path: '/me', body: { email: 'ann@example.org', current_password: 'my secret 1' } }]);
    expect(success(root)?.textContent).toBe('E-mail address saved.');
    expect((root.querySelector('input[name="email"]') as HTMLInputElement).value).toBe('ann@example.org');
    expect((root.querySelector('input[name="email-current-password"]') as HTMLInputElement).value).toBe('');
    expect(saved?.email).toBe('ann@example.org');
    expect(currentUser()?.email).toBe('ann@example.org');
    expect(api.accessToken).toBe('access-before-change'); // the session carries on as it was
  });

  it('removes the address when the field is left empty', async () => {
    await signInAs(ann, { 'PATCH /me': () => ({ ...ann }) });
    const root = mount(<ChangeEmail username="ann" email="ann@example.org" />);
    expect((root.querySelector('input[name="email"]') as HTMLInputElement).value).toBe('ann@example.org');
    fillEmail(root, '', 'my secret 1');
    await submitEmail(root);
    expect(calls).toEqual([{ method: 'PATCH', path: '/me', body: { email: '', current_password: 'my secret 1' } }]);
    expect(success(root)?.textContent).toBe('E-mail address removed.');
  });

  it("shows the server's objections at their fields, and drops them once the field is edited", async () => {
    let answer: Handler = emailRefused('current_password', 'is not right');
    await signInAs(ann, { 'PATCH /me': (...a) => answer(...a) });
    const root = mount(<ChangeEmail username="ann" email="" />);
    fillEmail(root, 'ann@example.org', 'a wrong guess');
    await submitEmail(root);
    expect(fieldError(root, 'email-current-password')).toBe('is not right');
    expect(root.querySelector('input[name="email-current-password"]')?.getAttribute('aria-invalid')).toBe('true');
    expect(root.querySelector('[role="alert"]')).toBeNull();
    expect(success(root)).toBeNull();
    type(root, 'input[name="email-current-password"]', 'my secret 1');
    expect(fieldError(root, 'email-current-password')).toBe('');

    answer = emailRefused('email', 'must be a plain e-mail address such as ann@example.org');
    await submitEmail(root);
    expect(fieldError(root, 'email')).toBe('must be a plain e-mail address such as ann@example.org');
    expect(root.querySelector('input[name="email"]')?.getAttribute('aria-invalid')).toBe('true');
    // the password change's own field is not the one marked
    expect(fieldError(root, 'current_password')).toBe('');

    answer = () => {
      throw new ApiError(429, { title: 'Too Many Requests', status: 429, detail: 'too many attempts; try again in 30 seconds' });
    };
    await submitEmail(root);
    expect(root.querySelector('[role="alert"]')?.textContent).toMatch(/Too many attempts/);
  });
});

describe('the profile page', () => {
  const routes: Record<string, Handler> = {
    'GET /users/u-(ann|bob)': (p) => (p.endsWith('u-ann') ? ann : bob),
    'GET /users/u-(ann|bob)/games.*': () => ({ items: [], next_cursor: '' }),
    'GET /users/u-(ann|bob)/ratings.*': (p) => ({ user_id: p.split(/[/?]/)[2], pools: [], history: [], next_cursor: '' }),
    'GET /users/u-(ann|bob)/clubs.*': () => ({ items: [], next_cursor: '' }),
  };
  const heading = (root: Element) => [...root.querySelectorAll('h2')].map((h) => h.textContent);

  it('offers the change beside the account section on one\'s own profile', async () => {
    await signInAs(ann, routes);
    const root = mount(<Profile id="u-ann" />);
    await settle();
    expect(heading(root)).toEqual(expect.arrayContaining(['E-mail address', 'Change password', 'Account']));
  });

  it('shows one\'s own address in the e-mail field, and no id twice beside the password change', async () => {
    await signInAs(ann, { ...routes, 'GET /users/u-(ann|bob)': (p) => (p.endsWith('u-ann') ? { ...ann, email: 'ann@example.org' } : bob) });
    const root = mount(<Profile id="u-ann" />);
    await settle();
    expect((root.querySelector('input[name="email"]') as HTMLInputElement).value).toBe('ann@example.org');
    const ids = [...root.querySelectorAll('[id]')].map((e) => e.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    // and no two fields of one name: "Current password" is the password change's
    const labels = [...root.querySelectorAll('label')].map((l) => l.textContent);
    expect(labels.filter((l, i) => labels.indexOf(l) !== i)).toEqual([]);
  });

  it("says a closed account is closed, and still shows its ratings and games", async () => {
    const cleo: User = { id: 'u-cleo', username: 'cleo', kind: 'human', is_admin: false, created_at: '2026-01-01T00:00:00Z', closed_at: '2026-03-01T00:00:00Z' };
    stub({
      'GET /users/u-cleo': () => cleo,
      'GET /users/u-cleo/games.*': () => ({ items: [], next_cursor: '' }),
      'GET /users/u-cleo/ratings.*': () => ({ user_id: 'u-cleo', pools: [], history: [], next_cursor: '' }),
    });
    const root = mount(<Profile id="u-cleo" />);
    await settle();
    expect(root.querySelector('h1')?.textContent).toMatch(/cleo/);
    expect(root.querySelector('p.muted')?.textContent).toMatch(/account closed/);
    expect(heading(root)).toEqual(expect.arrayContaining(['Ratings', 'Games']));
  });

  it('does not offer it on someone else\'s', async () => {
    await signInAs(ann, routes);
    const root = mount(<Profile id="u-bob" />);
    await settle();
    expect(root.querySelector('h1')?.textContent).toMatch(/bob/);
    expect(heading(root)).not.toContain('Change password');
    expect(heading(root)).not.toContain('E-mail address');
  });
});

describe('the rating history', () => {
  it("names each game's replay link by what it opens, not by its number alone", async () => {
    const change = (game_id: string, before: number, after: number, at: string) => ({ game_id, pool: 'sequence-2team', before, after, k: 40, at });
    stub({
      'GET /users/u-ann/ratings.*': () => ({
        user_id: 'u-ann',
        pools: [],
        history: [change('g2', 1520, 1505, '2026-01-02T10:00:00Z'), change('g1', 1500, 1520, '2026-01-01T10:00:00Z')],
        next_cursor: '',
      }),
    });
    const root = mount(<RatingCharts userId="u-ann" />);
    await settle();
    const links = [...root.querySelectorAll('a[href$="/replay"]')];
    expect(links.map((a) => a.textContent)).toEqual(['1', '2']);
    expect(links.map((a) => a.getAttribute('aria-label'))).toEqual(['Replay of rated game 1', 'Replay of rated game 2']);
    // the chart is one image, named by where the rating went and described by its range and the table
    const svg = root.querySelector('.chart svg')!;
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.getAttribute('aria-label')).toMatch(/: from 1500 to 1505 over 2 rated games$/);
    expect(root.querySelector(`[id="${svg.getAttribute('aria-describedby')}"]`)?.textContent).toBe('Lowest 1500, highest 1520; game by game in the table below, under “The numbers”.');
  });
});

describe("a pool's standing", () => {
  const state = (pool: string, wins: number, losses: number, draws: number, rank: number | null, games = wins + losses + draws) => ({
    pool,
    rating: 1540,
    display: games < 30 ? '1540?' : '1540',
    games,
    peak: 1560,
    provisional: games < 30,
    wins,
    losses,
    draws,
    rank,
  });
  const render = async () => {
    stub({
      'GET /users/u-ann/ratings.*': () => ({
        user_id: 'u-ann',
        pools: [state('sequence-2team', 22, 7, 1, 5), state('stacks', 1, 0, 0, null)],
        history: [],
        next_cursor: '',
      }),
    });
    const root = mount(<RatingCharts userId="u-ann" />);
    await settle();
    return (name: string) => root.querySelector(`section.pool-ratings[aria-label="${name}"] .pool-standing`)!;
  };

  it('says the record in letters to the eye and in words to a screen reader', async () => {
    const standing = await render();
    const two = standing('Sequence, 2 teams');
    expect(two.querySelector('[aria-hidden="true"]')?.textContent).toBe('22 W · 7 L · 1 D');
    expect(two.querySelector('.sr-only')?.textContent).toBe('22 wins, 7 losses, 1 draw');
    expect(standing('Sequence Stacks').querySelector('.sr-only')?.textContent).toBe('1 win, 0 losses, 0 draws');
  });

  it("links the place on the leaderboard to the pool's board around the player, and says none when the board leaves the player out", async () => {
    const standing = await render();
    const link = standing('Sequence, 2 teams').querySelector('a')!;
    expect(link.textContent).toBe('#5 on the leaderboard');
    expect(link.getAttribute('href')).toBe('/leaderboards/sequence-2team?around=u-ann');
    const stacks = standing('Sequence Stacks');
    expect(stacks.querySelector('a')).toBeNull();
    expect(stacks.textContent).not.toMatch(/leaderboard|#/);
  });
});

describe('fetchRatings', () => {
  it('follows next_cursor through the pages of the history and returns it oldest first', async () => {
    const change = (game_id: string, at: string) => ({ game_id, pool: 'stacks', before: 1500, after: 1510, k: 40, at });
    const pages: Record<string, object> = {
      '': { user_id: 'u-ann', pools: [], history: [change('g3', '2026-01-03T10:00:00Z'), change('g2', '2026-01-02T10:00:00Z')], next_cursor: 'c1' },
      c1: { user_id: 'u-ann', pools: [], history: [change('g1', '2026-01-01T10:00:00Z')], next_cursor: '' },
    };
    stub({ 'GET /users/u-ann/ratings.*': (p) => pages[new URLSearchParams(p.split('?')[1]).get('cursor') ?? ''] });
    const r = await fetchRatings('u-ann');
    expect(r.history.map((h) => h.game_id)).toEqual(['g1', 'g2', 'g3']);
    expect(calls.map((c) => c.path)).toEqual(['/users/u-ann/ratings?limit=100', '/users/u-ann/ratings?limit=100&cursor=c1']);
  });
});
