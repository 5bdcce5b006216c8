// Editing a league (name, description) and renaming an open season from
// their pages against a stubbed API: the request sent, the page showing
// the answer, the server's objections at their fields, and who is offered
// the form (the club's owner, organizers and site admins; while the season
// is open).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import type { League, Season, User } from '../api/types';
import { api, restore } from '../session';
import { LeaguePage, SeasonPage } from './Leagues';

import { browserFocus, focusRefused, pressInBrowser } from '../testing/browserFocus';
import { calls, type Handler, mount, resetCalls, settle, stub, signOutAndUnmount } from '../testing/stubApi';
import { press as click, submitForm as submit, typeInto as type } from '../testing/dom';

const user = (id: string, username: string, is_admin = false): User => ({ id, username, kind: 'human', is_admin, created_at: '' });
const olga = user('u-olga', 'olga');
const root_ = user('u-root', 'root', true);

const button = (root: Element, name: string) => ([...root.querySelectorAll('button')].find((b) => b.textContent?.trim() === name) as HTMLButtonElement | undefined) ?? null;
const errorOf = (root: Element, sel: string) => {
  const el = root.querySelector(sel)!;
  const ids = (el.getAttribute('aria-describedby') ?? '').split(' ').filter((i) => i.endsWith('-err'));
  return ids.length ? root.querySelector('#' + ids[0])!.textContent : '';
};

/** A league of Dev Club with an open season, seen by me with role in the club; PATCHes apply. */
function world(me: User | null, role: string | undefined, season: Partial<Season> = {}) {
  const league: League = { id: 'l1', club_id: 'c1', name: 'Monday League', description: 'Mondays at eight', created_at: '2026-01-01T00:00:00Z' };
  const s: Season = { id: 's1', league_id: 'l1', name: '2030', status: 'open', created_at: '2026-01-01T00:00:00Z', ...season };
  const routes: Record<string, Handler> = {
    'GET /me': () => me,
    'GET /leagues/l1': () => league,
    'GET /clubs/c1': () => ({ id: 'c1', name: 'Dev Club', ...(role ? { viewer_role: role } : {}) }),
    'GET /seasons/s1/standings': () => ({ season: s, frozen: s.status === 'closed', tie_breaks: [], rows: [] }),
    'PATCH /leagues/l1': (_p, body) => Object.assign(league, body),
    'PATCH /seasons/s1': (_p, body) => Object.assign(s, body),
    'GET /.*': () => ({ items: [], next_cursor: '' }), // seasons, tournaments, leaderboards
  };
  return routes;
}

async function open(page: 'league' | 'season', me: User | null, role: string | undefined, extra: Record<string, Handler> = {}, season: Partial<Season> = {}) {
  vi.spyOn(api, 'refresh').mockResolvedValue(!!me);
  stub({ ...world(me, role, season), ...extra });
  await restore();
  const root = mount(page === 'league' ? <LeaguePage id="l1" /> : <SeasonPage id="s1" />);
  await settle();
  resetCalls();
  return root;
}

beforeEach(() => {
  vi.restoreAllMocks();
  resetCalls();
});
afterEach(signOutAndUnmount);

describe('editing a league', () => {
  it('sends the trimmed name and description and shows what the server answers', async () => {
    const root = await open('league', olga, 'organizer');
    await click(button(root, 'Edit name and description…'));
    expect((root.querySelector('#f-league-edit-name') as HTMLInputElement).value).toBe('Monday League');
    expect((root.querySelector('#league-edit-description') as HTMLTextAreaElement).value).toBe('Mondays at eight');
    type(root, '#f-league-edit-name', '  Tuesday League ');
    type(root, '#league-edit-description', 'Tuesdays at nine ');
    await submit(root.querySelector('.league-edit form'));
    expect(calls).toEqual([{ method: 'PATCH', path: '/leagues/l1', body: { name: 'Tuesday League', description: 'Tuesdays at nine' } }]);
    expect(root.querySelector('h1')!.textContent).toBe('Tuesday League');
    expect(root.querySelector('.lead')!.textContent).toBe('Tuesdays at nine');
    expect(root.querySelector('.league-edit form')).toBeNull();
    expect(root.querySelector('.league-edit [role=status]')!.textContent).toBe('Saved.');
  });

  it("shows a taken name at the name field and keeps the form and what was typed", async () => {
    const root = await open('league', olga, 'owner', {
      'PATCH /leagues/l1': () => {
        throw new ApiError(409, { title: 'Conflict', status: 409, detail: 'the club has a league of this name', errors: [{ field: 'name', message: 'is taken' }] });
      },
    });
    await click(button(root, 'Edit name and description…'));
    type(root, '#f-league-edit-name', 'Friday League');
    await submit(root.querySelector('.league-edit form'));
    const name = root.querySelector('#f-league-edit-name') as HTMLInputElement;
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(root, '#f-league-edit-name')).toBe('is taken');
    expect(name.value).toBe('Friday League');
    expect(root.querySelector('.league-edit [role=alert]')).toBeNull(); // said once, at the field
    expect(root.querySelector('h1')!.textContent).toBe('Monday League');
  });

  it('shows a description refused at the description, and an error of no field above the buttons', async () => {
    let answer: Handler = () => {
      throw new ApiError(400, { title: 'Invalid input', status: 400, detail: 'bad description', errors: [{ field: 'description', message: 'must be at most 2000 characters' }] });
    };
    const root = await open('league', olga, 'owner', { 'PATCH /leagues/l1': (...a) => answer(...a) });
    await click(button(root, 'Edit name and description…'));
    await submit(root.querySelector('.league-edit form'));
    expect(root.querySelector('#league-edit-description')!.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(root, '#league-edit-description')).toBe('must be at most 2000 characters');
    answer = () => {
      throw new ApiError(403, { title: 'Forbidden', status: 403, detail: "only the club's owner and organizers may do this" });
    };
    await submit(root.querySelector('.league-edit form'));
    expect(root.querySelector('.league-edit [role=alert]')!.textContent).toBe("Only the club's owner and organizers may do this.");
    expect(root.querySelector('#league-edit-description')!.getAttribute('aria-invalid')).toBeNull();
  });

  it('cancels without a request, and opens again on what the league holds', async () => {
    const root = await open('league', root_, undefined); // a site admin, no member
    await click(button(root, 'Edit name and description…'));
    type(root, '#f-league-edit-name', 'Scratch');
    await click(button(root, 'Cancel'));
    expect(calls).toEqual([]);
    await click(button(root, 'Edit name and description…'));
    expect((root.querySelector('#f-league-edit-name') as HTMLInputElement).value).toBe('Monday League');
  });

  it('is not offered to a member, someone outside the club or someone signed out', async () => {
    for (const [me, role] of [
      [user('u-mia', 'mia'), 'member'],
      [user('u-sam', 'sam'), undefined],
      [null, undefined],
    ] as const) {
      const root = await open('league', me, role);
      expect(root.querySelector('h1')!.textContent).toBe('Monday League');
      expect(root.querySelector('.league-edit')).toBeNull();
      expect(button(root, 'Edit name and description…')).toBeNull();
      await signOutAndUnmount();
    }
  });
});

describe('renaming a season', () => {
  it('sends the trimmed name and shows it in the heading', async () => {
    const root = await open('season', olga, 'organizer');
    await click(button(root, 'Rename the season…'));
    expect(root.querySelector('#league-edit-description')).toBeNull();
    expect((root.querySelector('#f-season-edit-name') as HTMLInputElement).value).toBe('2030');
    type(root, '#f-season-edit-name', ' Spring 2030 ');
    await submit(root.querySelector('.season-edit form'));
    expect(calls).toEqual([{ method: 'PATCH', path: '/seasons/s1', body: { name: 'Spring 2030' } }]);
    expect(root.querySelector('h1')!.textContent).toMatch(/^Spring 2030/);
    expect(root.querySelector('.season-edit [role=status]')!.textContent).toBe('Saved.');
    expect(document.title).toMatch(/^Spring 2030/);
  });

  it("shows the server's word that the season closed meanwhile", async () => {
    const root = await open('season', olga, 'owner', {
      'PATCH /seasons/s1': () => {
        throw new ApiError(422, { title: 'Unprocessable Entity', status: 422, detail: 'the season is closed; a closed season stays as it was closed' });
      },
    });
    await click(button(root, 'Rename the season…'));
    type(root, '#f-season-edit-name', 'Late');
    await submit(root.querySelector('.season-edit form'));
    expect(root.querySelector('.season-edit [role=alert]')!.textContent).toMatch(/The season is closed/);
  });

  it('is offered only while the season is open, and only to organizers', async () => {
    let root = await open('season', olga, 'owner', {}, { status: 'closed', closed_at: '2026-02-01T00:00:00Z' });
    expect(root.querySelector('h1')!.textContent).toMatch(/2030/);
    expect(root.querySelector('.season-edit')).toBeNull();
    await signOutAndUnmount();
    root = await open('season', user('u-mia', 'mia'), 'member');
    expect(root.querySelector('.season-edit')).toBeNull();
  });
});

describe('the keyboard focus when editing', () => {
  browserFocus();

  it('goes to the name field on opening, and to the button again once saved', async () => {
    const root = await open('league', olga, 'organizer');
    await pressInBrowser(button(root, 'Edit name and description…')!);
    await settle();
    expect(document.activeElement).toBe(root.querySelector('#f-league-edit-name'));
    await pressInBrowser(root.querySelector('.league-edit button[type=submit]') as HTMLButtonElement);
    await settle();
    expect(document.activeElement).toBe(button(root, 'Edit name and description…'));
    expect(focusRefused).toEqual([]);
  });

  it('goes to the field the server objects to', async () => {
    const root = await open('season', olga, 'organizer', {
      'PATCH /seasons/s1': () => {
        throw new ApiError(409, { title: 'Conflict', status: 409, detail: 'the league has a season of this name', errors: [{ field: 'name', message: 'is taken' }] });
      },
    });
    await pressInBrowser(button(root, 'Rename the season…')!);
    await settle();
    await pressInBrowser(root.querySelector('.season-edit button[type=submit]') as HTMLButtonElement);
    await settle();
    expect(document.activeElement).toBe(root.querySelector('#f-season-edit-name'));
    expect(focusRefused).toEqual([]);
  });
});

describe('creating a season', () => {
  it('says a taken name once, at the name, not again as "the league has a season of this name"', async () => {
    const root = await open('league', olga, 'organizer', {
      'POST /leagues/l1/seasons': () => {
        throw new ApiError(409, { title: 'Conflict', status: 409, detail: 'the league has a season of this name', errors: [{ field: 'name', message: 'is taken' }] });
      },
    });
    type(root, '#f-season-name', '2030');
    await submit(root.querySelector('form[aria-label="Create a season"]'));
    expect(errorOf(root, '#f-season-name')).toBe('is taken');
    expect(root.textContent).not.toContain('the league has a season of this name');
  });
  it('sends a second submit, while the first is under way, nowhere: it made the season, then said its name was taken', async () => {
    const root = await open('league', olga, 'organizer');
    let answer = () => {};
    const sent = vi.spyOn(api, 'post').mockImplementation((() => new Promise<void>((resolve) => (answer = resolve))) as never);
    type(root, '#f-season-name', '2031');
    const form = root.querySelector('form[aria-label="Create a season"]');
    await submit(form);
    await submit(form); // a double click, or Enter pressed again
    answer();
    await settle();
    expect(sent).toHaveBeenCalledTimes(1);
  });
});
