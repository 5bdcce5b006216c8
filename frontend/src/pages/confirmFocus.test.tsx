// Where the keyboard focus goes when a "…" button that asks once more is
// pressed: the button goes away, so without a hand-over the focus fell to
// the page (Enter on "Close account…" left a keyboard user at the top).
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import type { Season, User } from '../api/types';
import { api, restore } from '../session';
import { browserFocus, focusRefused } from '../testing/browserFocus';
import { submitForm, typeInto } from '../testing/dom';
import { calls, mount, resetCalls, settle, signOutAndUnmount, stub } from '../testing/stubApi';
import { CloseSeason, LeaguePage, SeasonPage } from './Leagues';
import { CloseAccount } from './Profile';

const focused = () => document.activeElement as HTMLElement;
const button = (root: Element, name: string) =>
  ([...root.querySelectorAll('button')].find((b) => (b.getAttribute('aria-label') ?? b.textContent?.trim()) === name) as HTMLButtonElement | undefined) ?? null;
/** press focuses a button and clicks it, as Enter on it does */
const press = async (el: HTMLElement | null) => {
  expect(el).not.toBeNull();
  el!.focus();
  act(() => el!.click());
  await settle();
};

beforeEach(() => {
  vi.restoreAllMocks();
  resetCalls();
});
afterEach(signOutAndUnmount);

describe('the keyboard focus in a confirmation', () => {
  browserFocus();
  afterEach(() => expect(focusRefused).toEqual([]));

  it('closing an account: goes to the password it asks for, and back to "Close account…" from "Keep it"', async () => {
    stub({ 'GET /users/u1/clubs\\?limit=100': () => ({ items: [], next_cursor: '' }) });
    const root = mount(<CloseAccount userId="u1" username="ann" />);
    await settle();
    await press(button(root, 'Close account…'));
    expect(button(root, 'Close my account')).not.toBeNull();
    expect(focused()).toBe(root.querySelector('#f-close-current-password'));
    await press(button(root, 'Keep it'));
    expect(focused()).toBe(button(root, 'Close account…'));
  });

  it('closing a season: goes to Cancel, and back to "Close the season…" from there', async () => {
    const season = { id: 's1', league_id: 'l1', name: 'Spring', status: 'open', created_at: '2026-01-01T00:00:00Z' } as Season;
    const root = mount(<CloseSeason season={season} onClosed={() => {}} long />);
    await settle();
    await press(button(root, 'Close the season…'));
    expect(button(root, 'Close it and freeze the table')).not.toBeNull();
    expect(focused()).toBe(button(root, 'Cancel'));
    await press(focused());
    expect(focused()).toBe(button(root, 'Close the season…'));
  });
});

// "Close the season…" under the season's heading was a small button (0.875rem), smaller than the form's
// buttons beside it; the short "Close…" in a list of seasons stays small, beside the season's name.
describe('the size of "Close the season…"', () => {
  const season = { id: 's1', league_id: 'l1', name: 'Spring', status: 'open', created_at: '2026-01-01T00:00:00Z' } as Season;
  it('is a full-size button, its answers too, on the season page', async () => {
    const root = mount(<CloseSeason season={season} onClosed={() => {}} long />);
    await settle();
    expect(button(root, 'Close the season…')!.classList.contains('small')).toBe(false);
    await press(button(root, 'Close the season…'));
    for (const name of ['Close it and freeze the table', 'Cancel']) expect(button(root, name)!.classList.contains('small'), name).toBe(false);
  });
  it('stays small in a list of seasons', async () => {
    const root = mount(<CloseSeason season={season} onClosed={() => {}} />);
    await settle();
    expect(button(root, 'Close the season Spring…')!.classList.contains('small')).toBe(true);
  });
});

describe('the keyboard focus once a season is closed', () => {
  browserFocus();
  afterEach(() => expect(focusRefused).toEqual([]));
  const me: User = { id: 'me1', username: 'org', kind: 'human', is_admin: false, created_at: '' };
  let status = 'open';
  let closedElsewhere = false;
  const season = () => ({ id: 's1', league_id: 'l1', name: 'Spring', status, created_at: '2026-01-01T00:00:00Z', closed_at: status === 'closed' ? '2026-05-01T00:00:00Z' : undefined });
  const table = () => ({ season: season(), frozen: status === 'closed', tie_breaks: [], rows: [] });
  beforeEach(async () => {
    status = 'open';
    closedElsewhere = false;
    vi.spyOn(api, 'refresh').mockResolvedValue(true);
    stub({
      'GET /me': () => me,
      'GET /leagues/l1': () => ({ id: 'l1', club_id: 'c1', name: 'Monday', description: '', created_at: '' }),
      'GET /clubs/c1': () => ({ id: 'c1', name: 'Dev Club', viewer_role: 'owner' }),
      'GET /leagues/l1/seasons\\?limit=20': () => ({ items: [season()], next_cursor: '' }),
      'GET /leaderboards/.*': () => ({ items: [], next_cursor: '' }),
      'GET /seasons/s1/standings': table,
      'GET /tournaments\\?season=.*': () => ({ items: [], next_cursor: '' }),
      'POST /seasons/s1/close': () => {
        if (closedElsewhere) throw new ApiError(422, { title: 'Unprocessable Entity', status: 422, detail: 'the season is already closed' });
        status = 'closed';
        return table();
      },
    });
    await restore();
  });

  it("on the league page, goes to the season's link, its Close button gone", async () => {
    const root = mount(<LeaguePage id="l1" />);
    await settle();
    await press(button(root, 'Close the season Spring…'));
    await press(button(root, 'Close Spring'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/seasons/s1/close']);
    expect(button(root, 'Close the season Spring…')).toBeNull();
    expect(focused()).toBe(root.querySelector('a[href="/seasons/s1"]'));
    // The tag says closed; the line says when, not "closed" again.
    expect(focused().parentElement!.textContent).toMatch(/^Spring closed on \S/);
  });

  it('on the league page, a season another organizer closed meanwhile shows closed, not "already closed" beside an open row', async () => {
    const root = mount(<LeaguePage id="l1" />);
    await settle();
    status = 'closed'; // closed elsewhere after this page read the list
    closedElsewhere = true;
    await press(button(root, 'Close the season Spring…'));
    await press(button(root, 'Close Spring'));
    expect(root.textContent).not.toContain('already closed');
    expect(button(root, 'Close the season Spring…')).toBeNull();
    expect(focused()).toBe(root.querySelector('a[href="/seasons/s1"]'));
    expect(focused().parentElement!.textContent).toMatch(/^Spring closed on \S/);
  });

  it('on the season page, goes to the heading that says it is closed, the close box gone', async () => {
    const root = mount(<SeasonPage id="s1" />);
    await settle();
    await press(button(root, 'Close the season…'));
    await press(button(root, 'Close it and freeze the table'));
    expect(root.querySelector('#close-title')).toBeNull();
    expect(focused()).toBe(root.querySelector('h1'));
    expect(focused().textContent).toMatch(/^Spring closed.*frozen/);
  });
});

// Closing one's account took a click alone: a device left signed in was
// enough to end the account for good. The server now asks for the
// password, and so does the form: a wrong one is said at its field and
// closes nothing; the right one is sent with the close.
describe('closing an account', () => {
  it('sends the password typed, and says at its field when it is not right', async () => {
    let tries = 0;
    stub({
      'GET /users/u1/clubs\\?limit=100': () => ({ items: [], next_cursor: '' }),
      'DELETE /me': () => {
        if (tries++ === 0) {
          throw new ApiError(400, { title: 'Bad Request', detail: 'the current password is not right', errors: [{ field: 'current_password', message: 'is not right' }] });
        }
        return undefined;
      },
    });
    const root = mount(<CloseAccount userId="u1" username="ann" />);
    await settle();
    await press(button(root, 'Close account…'));
    const field = root.querySelector('#f-close-current-password') as HTMLInputElement;
    expect(field.type).toBe('password');
    expect(field.required).toBe(true);
    typeInto(root, '#f-close-current-password', 'wrong one');
    await submitForm(root.querySelector('form'));
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([{ method: 'DELETE', path: '/me', body: { current_password: 'wrong one' } }]);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(root.textContent).toContain('is not right');
    expect(button(root, 'Close my account')).not.toBeNull(); // still asking
    typeInto(root, '#f-close-current-password', 'password-ann');
    await submitForm(root.querySelector('form'));
    expect(calls.filter((c) => c.method === 'DELETE').at(-1)).toEqual({ method: 'DELETE', path: '/me', body: { current_password: 'password-ann' } });
    expect(location.pathname).toBe('/');
  });
});
