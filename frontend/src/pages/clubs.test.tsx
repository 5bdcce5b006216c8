// Managing a club from its page against a stubbed API: editing the club,
// members' roles, removing a member, handing the club over, field errors,
// and who sees which controls (as the server allows: owner and site admins
// manage, organizers remove plain members, members see nothing); and the
// profile's close-account section, which names the clubs to hand over first.
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import type { Club, Member, User } from '../api/types';
import { api, restore } from '../session';
import { ClubList, ClubPage } from './Clubs';
import { CloseAccount } from './Profile';

import { browserFocus, focusRefused, pressInBrowser } from '../testing/browserFocus';
import { calls, type Handler, mount, resetCalls, settle, stub, signOutAndUnmount } from '../testing/stubApi';
import { press as click, submitForm as submit, typeInto as type } from '../testing/dom';

/** button finds a button by its accessible name (aria-label, else its text). */
const button = (root: Element, name: string) =>
  ([...root.querySelectorAll('button')].find((b) => (b.getAttribute('aria-label') ?? b.textContent?.trim()) === name) as HTMLButtonElement | undefined) ?? null;
const row = (root: Element, username: string) => root.querySelector(`.member-list li[data-user="${username}"]`);
const tagOf = (root: Element, username: string) => row(root, username)?.querySelector('.tag')?.textContent ?? '';

const user = (id: string, username: string, is_admin = false): User => ({ id, username, kind: 'human', is_admin, created_at: '' });
const member = (user_id: string, username: string, role: string): Member => ({ user_id, username, role, joined_at: '2026-01-01T00:00:00Z' });

/**
 * A club owned by olga, with ollie organizing and two plain members, served
 * by a small in-memory API that applies the changes it is sent.
 */
function world(me: User, viewerRole: string | undefined) {
  const club: Club = { id: 'c1', name: 'Dev Club', description: 'We play', owner_id: 'u-olga', member_count: 4, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
  let members = [member('u-mia', 'mia', 'member'), member('u-olga', 'olga', 'owner'), member('u-ollie', 'ollie', 'organizer'), member('u-pat', 'pat', 'member')];
  let role = viewerRole;
  const uid = (p: string) => decodeURIComponent(p.split('/').pop()!);
  const routes: Record<string, Handler> = {
    'GET /me': () => me,
    'GET /clubs/c1': () => ({ ...club, member_count: members.length, ...(role ? { viewer_role: role } : {}) }),
    'GET /clubs/c1/members\\?limit=20': () => ({ items: members, next_cursor: '' }),
    'PATCH /clubs/c1': (_p, body) => {
      const b = body as { name?: string; description?: string; owner_id?: string };
      if (b.name !== undefined) club.name = b.name;
      if (b.description !== undefined) club.description = b.description;
      if (b.owner_id) {
        members = members.map((m) => (m.role === 'owner' ? { ...m, role: 'organizer' } : m.user_id === b.owner_id ? { ...m, role: 'owner' } : m));
        if (role === 'owner') role = 'organizer';
        club.owner_id = b.owner_id;
      }
      return { ...club, member_count: members.length }; // no viewer_role, as the server
    },
    'PATCH /clubs/c1/members/[^/]+': (p, body) => {
      const m = members.find((x) => x.user_id === uid(p))!;
      m.role = (body as { role: string }).role;
      return m;
    },
    'DELETE /clubs/c1/members/[^/]+': (p) => {
      members = members.filter((x) => x.user_id !== uid(p));
      return undefined;
    },
    // the club's leagues and tournaments
    'GET /.*': () => ({ items: [], next_cursor: '' }),
  };
  return routes;
}

async function signInAs(routes: Record<string, Handler>) {
  vi.spyOn(api, 'refresh').mockResolvedValue(true);
  stub(routes);
  await restore();
}

async function openClub(me: User, viewerRole: string | undefined, extra: Record<string, Handler> = {}) {
  const routes = { ...world(me, viewerRole), ...extra };
  await signInAs(routes);
  history.replaceState(null, '', '/clubs/c1');
  const root = mount(<ClubPage id="c1" />);
  await settle();
  expect(row(root, 'mia')).not.toBeNull();
  resetCalls();
  return root;
}

const olga = user('u-olga', 'olga');
const ollie = user('u-ollie', 'ollie');
const mia = user('u-mia', 'mia');

beforeEach(() => {
  vi.restoreAllMocks();
  resetCalls();
});
afterEach(signOutAndUnmount);

describe('the club page for its owner', () => {
  it('edits the name and description', async () => {
    const root = await openClub(olga, 'owner');
    await click(button(root, 'Edit name and description…'));
    expect((root.querySelector('#f-club-edit-name') as HTMLInputElement).value).toBe('Dev Club');
    type(root, '#f-club-edit-name', '  Dev Club Two ');
    type(root, '#club-edit-description', 'We play on Mondays');
    await submit(root.querySelector('.club-manage form'));
    expect(calls).toContainEqual({ method: 'PATCH', path: '/clubs/c1', body: { name: 'Dev Club Two', description: 'We play on Mondays' } });
    expect(root.querySelector('h1')!.textContent).toBe('Dev Club Two');
    expect(root.querySelector('.lead')!.textContent).toBe('We play on Mondays');
    expect(root.querySelector('.club-manage form')).toBeNull();
    expect(root.querySelector('.club-manage [role=status]')!.textContent).toBe('Saved.');
    // still the owner's page: the PATCH answer has no viewer_role
    expect(button(root, 'Make organizer: mia')).not.toBeNull();
  });

  it("shows the server's field errors next to the fields and keeps the form", async () => {
    const root = await openClub(olga, 'owner', {
      'PATCH /clubs/c1': () => {
        throw new ApiError(409, {
          title: 'Conflict',
          detail: 'a club of that name exists',
          errors: [
            { field: 'name', message: 'is taken' },
            { field: 'description', message: 'must be at most 2000 characters' },
          ],
        });
      },
    });
    await click(button(root, 'Edit name and description…'));
    type(root, '#f-club-edit-name', 'Other Club');
    await submit(root.querySelector('.club-manage form'));
    const name = root.querySelector('#f-club-edit-name')!;
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(root.querySelector('#' + name.getAttribute('aria-describedby'))!.textContent).toBe('is taken');
    const desc = root.querySelector('#club-edit-description')!;
    expect(root.querySelector('#' + desc.getAttribute('aria-describedby'))!.textContent).toBe('must be at most 2000 characters');
    // said once, at the fields: the server's sentence for the same refusal is not said again below them
    expect(root.querySelector('.club-manage [role=alert]')).toBeNull();
    expect(root.textContent).not.toContain('a club of that name exists');
    expect(root.querySelector('h1')!.textContent).toBe('Dev Club');
    expect((name as HTMLInputElement).value).toBe('Other Club');
  });

  it('makes a member an organizer and an organizer a member again', async () => {
    const root = await openClub(olga, 'owner');
    await click(button(root, 'Make organizer: mia'));
    expect(calls).toEqual([{ method: 'PATCH', path: '/clubs/c1/members/u-mia', body: { role: 'organizer' } }]);
    expect(tagOf(root, 'mia')).toBe('organizer');
    await click(button(root, 'Make member: mia'));
    expect(calls[1]).toEqual({ method: 'PATCH', path: '/clubs/c1/members/u-mia', body: { role: 'member' } });
    expect(tagOf(root, 'mia')).toBe('');
    expect(button(root, 'Make organizer: mia')).not.toBeNull();
    // no member list read again: a long list keeps the pages shown
    expect(calls.filter((c) => c.method === 'GET' && c.path.includes('/members'))).toEqual([]);
  });

  it('removes a member only after a confirmation', async () => {
    const root = await openClub(olga, 'owner');
    await click(button(root, 'Remove pat from the club…'));
    const confirm = row(root, 'pat')!.querySelector('[role=group]')!;
    expect(confirm.getAttribute('aria-label')).toBe('Remove pat?');
    expect(calls).toEqual([]);
    await click(button(root, 'Cancel'));
    expect(row(root, 'pat')!.querySelector('[role=group]')).toBeNull();
    expect(calls).toEqual([]);
    await click(button(root, 'Remove pat from the club…'));
    await click(button(root, 'Remove pat'));
    expect(calls).toEqual([{ method: 'DELETE', path: '/clubs/c1/members/u-pat', body: undefined }]);
    expect(row(root, 'pat')).toBeNull();
    expect(root.querySelector('p.muted')!.textContent).toMatch(/^3 members/);
  });

  it('hands the club to a member after a confirmation, and stays on as an organizer', async () => {
    const root = await openClub(olga, 'owner');
    expect(root.querySelector('#owner-note')!.textContent).toMatch(/cannot leave it or close your account.*Make owner…/);
    expect(button(root, 'Leave the club…')).toBeNull();
    expect(root.querySelector('p.muted')!.textContent).toContain('you are the owner');
    await click(button(root, 'Make owner: mia…'));
    expect(row(root, 'mia')!.querySelector('[role=group]')!.textContent).toMatch(/you stay on as an organizer/);
    expect(calls).toEqual([]);
    await click(button(root, 'Hand the club to mia'));
    expect(calls[0]).toEqual({ method: 'PATCH', path: '/clubs/c1', body: { owner_id: 'u-mia' } });
    expect(tagOf(root, 'mia')).toBe('owner');
    expect(tagOf(root, 'olga')).toBe('organizer');
    // olga is an organizer now: she may leave, and manages no more
    expect(root.querySelector('p.muted')!.textContent).toContain('you are an organizer');
    expect(button(root, 'Leave the club…')).not.toBeNull();
    expect(root.querySelector('#owner-note')).toBeNull();
    expect(root.querySelector('.club-manage')).toBeNull();
    expect(button(root, 'Make organizer: pat')).toBeNull();
    expect(button(root, 'Remove pat from the club…')).not.toBeNull();
    expect(button(root, 'Remove ollie from the club…')).toBeNull();
  });

  it("shows a refused change on the member's row", async () => {
    const root = await openClub(olga, 'owner', {
      'PATCH /clubs/c1': () => {
        throw new ApiError(422, { title: 'Invalid input', detail: 'the change is not valid', errors: [{ field: 'owner_id', message: 'must be a member of the club' }] });
      },
    });
    await click(button(root, 'Make owner: pat…'));
    await click(button(root, 'Hand the club to pat'));
    expect(row(root, 'pat')!.querySelector('[role=alert]')!.textContent).toBe('The change is not valid. Must be a member of the club.');
    expect(tagOf(root, 'pat')).toBe('');
    expect(tagOf(root, 'olga')).toBe('owner');
  });

  it('offers nothing on her own row or on the owner', async () => {
    const root = await openClub(olga, 'owner');
    expect(row(root, 'olga')!.querySelectorAll('button')).toHaveLength(0);
    expect([...row(root, 'ollie')!.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Make member', 'Make owner…', 'Remove…']);
  });
});

describe('the keyboard focus on the club page', () => {
  // as in Chromium: the pressed button, disabled while its request runs, loses the focus
  browserFocus();
  afterEach(() => expect(focusRefused).toEqual([]));
  /** press focuses a button and clicks it, as Enter on it does */
  const press = async (el: HTMLElement | null) => {
    el?.focus();
    await click(el);
  };
  const focused = () => document.activeElement as HTMLElement;

  it('goes into a confirmation, back to its button on Cancel, and to the next member after a removal', async () => {
    const root = await openClub(olga, 'owner');
    await press(button(root, 'Remove pat from the club…'));
    expect(focused().textContent).toBe('Cancel');
    expect(focused().closest('[role=group]')!.getAttribute('aria-label')).toBe('Remove pat?');
    await press(focused());
    expect(focused()).toBe(button(root, 'Remove pat from the club…'));
    await press(button(root, 'Make owner: pat…'));
    expect(focused().closest('[role=group]')!.getAttribute('aria-label')).toBe('Hand the club to pat?');
    await press(focused());
    expect(focused()).toBe(button(root, 'Make owner: pat…'));
    await press(button(root, 'Remove pat from the club…'));
    await press(button(root, 'Remove pat'));
    expect(row(root, 'pat')).toBeNull();
    expect(focused()).toBe(row(root, 'ollie')!.querySelector('a'));
  });

  it('stays on the role button after a role change and on the name after a handover', async () => {
    const root = await openClub(olga, 'owner');
    await press(button(root, 'Make organizer: mia'));
    expect(focused()).toBe(button(root, 'Make member: mia'));
    // renders and effects one by one, as in a browser: the focus waits for the button to be enabled again
    await pressInBrowser(button(root, 'Make member: mia'));
    expect(focused()).toBe(button(root, 'Make organizer: mia'));
    await pressInBrowser(button(root, 'Make organizer: mia'));
    expect(focused()).toBe(button(root, 'Make member: mia'));
    await press(button(root, 'Make owner: mia…'));
    await press(button(root, 'Hand the club to mia'));
    expect(tagOf(root, 'mia')).toBe('owner');
    expect(focused()).toBe(row(root, 'mia')!.querySelector('a'));
  });

  it('goes to the first field of the club form and back to its button', async () => {
    const root = await openClub(olga, 'owner');
    await press(button(root, 'Edit name and description…'));
    expect(focused().id).toBe('f-club-edit-name');
    await press(button(root, 'Cancel'));
    expect(focused()).toBe(button(root, 'Edit name and description…'));
    await press(button(root, 'Edit name and description…'));
    await submit(root.querySelector('.club-manage form'));
    expect(focused()).toBe(button(root, 'Edit name and description…'));
  });
});

describe('the club page for others', () => {
  it('lets an organizer remove plain members only', async () => {
    const root = await openClub(ollie, 'organizer');
    expect(root.querySelector('.club-manage')).toBeNull();
    expect(root.querySelector('#owner-note')).toBeNull();
    expect([...row(root, 'mia')!.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Remove…']);
    expect(row(root, 'olga')!.querySelectorAll('button')).toHaveLength(0);
    expect(row(root, 'ollie')!.querySelectorAll('button')).toHaveLength(0);
    await click(button(root, 'Remove mia from the club…'));
    await click(button(root, 'Remove mia'));
    expect(calls).toEqual([{ method: 'DELETE', path: '/clubs/c1/members/u-mia', body: undefined }]);
    expect(row(root, 'mia')).toBeNull();
  });

  it('shows a plain member none of the controls', async () => {
    const root = await openClub(mia, 'member');
    expect(root.querySelector('.club-manage')).toBeNull();
    expect(root.querySelector('#owner-note')).toBeNull();
    expect(root.querySelector('.member-actions')).toBeNull();
    expect([...root.querySelectorAll('.member-list button')]).toHaveLength(0);
    expect(button(root, 'Make an invite code')).toBeNull();
    expect(button(root, 'Leave the club…')).not.toBeNull();
  });

  it('shows a signed-out visitor none of the controls', async () => {
    stub(world(mia, undefined));
    history.replaceState(null, '', '/clubs/c1');
    const root = mount(<ClubPage id="c1" />);
    await settle();
    expect(row(root, 'mia')).not.toBeNull();
    expect(root.querySelector('.club-manage')).toBeNull();
    expect([...root.querySelectorAll('.member-list button')]).toHaveLength(0);
  });

  it("lets a site admin who is not a member manage the club, naming the present owner's new role", async () => {
    const root = await openClub(user('u-root', 'root', true), undefined);
    expect(root.querySelector('.club-manage')).not.toBeNull();
    expect(root.querySelector('#owner-note')).toBeNull();
    expect([...row(root, 'pat')!.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Make organizer', 'Make owner…', 'Remove…']);
    expect(row(root, 'olga')!.querySelectorAll('button')).toHaveLength(0);
    await click(button(root, 'Make owner: pat…'));
    expect(row(root, 'pat')!.querySelector('[role=group]')!.textContent).toMatch(/the present owner stays on as an organizer/);
    await click(button(root, 'Hand the club to pat'));
    expect(calls[0]).toEqual({ method: 'PATCH', path: '/clubs/c1', body: { owner_id: 'u-pat' } });
    expect(tagOf(root, 'pat')).toBe('owner');
    expect(tagOf(root, 'olga')).toBe('organizer');
  });
});

describe("closing one's account", () => {
  it('names the clubs to hand over first, with links to them, instead of offering a close the server refuses', async () => {
    stub({
      'GET /users/u1/clubs\\?limit=100': () => ({
        items: [
          { id: 'c1', name: 'Big Club', role: 'owner' },
          { id: 'c2', name: 'Other Club', role: 'member' },
        ],
        next_cursor: '',
      }),
    });
    const root = mount(<CloseAccount userId="u1" username="ann" />);
    await settle();
    const note = root.querySelector('[role=note]')!;
    expect(note.textContent).toContain('You own a club');
    expect([...note.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['/clubs/c1']);
    expect(button(root, 'Close account…')).toBeNull();
  });

  it('offers the close when the person owns no club', async () => {
    stub({ 'GET /users/u1/clubs\\?limit=100': () => ({ items: [{ id: 'c2', name: 'Other Club', role: 'member' }], next_cursor: '' }) });
    const root = mount(<CloseAccount userId="u1" username="ann" />);
    await settle();
    expect(button(root, 'Close account…')).not.toBeNull();
  });

  it('drops a refused password\'s error once the password is edited, as the other forms do', async () => {
    stub({
      'GET /users/u1/clubs\\?limit=100': () => ({ items: [], next_cursor: '' }),
      'DELETE /me': () => {
        throw new ApiError(403, { title: 'Forbidden', detail: 'the current password is not right', errors: [{ field: 'current_password', message: 'is not right' }] });
      },
    });
    const root = mount(<CloseAccount userId="u1" username="ann" />);
    await settle();
    await click(button(root, 'Close account…'));
    type(root, '#f-close-current-password', 'a wrong guess');
    await submit(root.querySelector('#f-close-current-password')!.closest('form'));
    expect(root.querySelector('#f-close-current-password-err')!.textContent).toBe('is not right');
    type(root, '#f-close-current-password', 'a wrong guess2');
    expect(root.querySelector('#f-close-current-password-err')).toBeNull();
    expect(root.querySelector('#f-close-current-password')!.getAttribute('aria-invalid')).not.toBe('true');
  });
});

describe('counts on the club page', () => {
  it('says "1 member" and "1 use", not "1 members" and "1 uses" (a new club has one member)', async () => {
    const root = await openClub(olga, 'owner', {
      'GET /clubs/c1': () => ({ id: 'c1', name: 'Dev Club', description: '', owner_id: 'u-olga', member_count: 1, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', viewer_role: 'owner' }),
      'POST /clubs/c1/invites': () => ({ club_id: 'c1', code: 'ABCD1234', expires_at: '2026-01-02T00:00:00Z', max_uses: 1 }),
    });
    const info = root.querySelector('h1 ~ p.muted')!.textContent!;
    expect(info).toMatch(/^1 member · founded/);
    act(() => {
      const sel = root.querySelector('#inv-uses') as HTMLSelectElement;
      sel.value = '1';
      sel.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await submit(root.querySelector('#inv-uses')!.closest('form'));
    expect(root.querySelector('.invite')!.textContent).toMatch(/, 1 use\)/);
  });

  it("copies the invite's link with a button, and says so", async () => {
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (t: string) => void copied.push(t) } });
    try {
      const root = await openClub(olga, 'owner', {
        'GET /clubs/c1': () => ({ id: 'c1', name: 'Dev Club', description: '', owner_id: 'u-olga', member_count: 1, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', viewer_role: 'owner' }),
        'POST /clubs/c1/invites': () => ({ club_id: 'c1', code: 'ABCD1234', expires_at: '2026-01-02T00:00:00Z', max_uses: 1 }),
      });
      await submit(root.querySelector('#inv-uses')!.closest('form'));
      await act(async () => button(root, 'Copy the link')!.click());
      expect(copied).toEqual([`${location.origin}/clubs/c1?code=ABCD1234`]);
      expect(button(root, 'Link copied')).not.toBeNull();
    } finally {
      delete (navigator as { clipboard?: unknown }).clipboard;
    }
  });
});

describe('joining a club', () => {
  browserFocus();
  afterEach(() => expect(focusRefused).toEqual([]));

  it('says that it worked, and the keyboard focus goes there (the join form is gone)', async () => {
    let role: string | undefined;
    const root = await openClub(mia, undefined, {
      'GET /clubs/c1': () => ({ id: 'c1', name: 'Dev Club', description: '', owner_id: 'u-olga', member_count: 4, created_at: '', updated_at: '', ...(role ? { viewer_role: role } : {}) }),
      'POST /clubs/c1/members': () => void (role = 'member'),
    });
    type(root, 'input[name=invite-code]', 'ABC123');
    (root.querySelector('input[name=invite-code]') as HTMLInputElement).focus();
    await submit(root.querySelector('input[name=invite-code]')!.closest('form'));
    expect(calls).toContainEqual({ method: 'POST', path: '/clubs/c1/members', body: { code: 'ABC123' } });
    expect(root.querySelector('input[name=invite-code]')).toBeNull();
    const done = root.querySelector('#joined-club')!;
    expect(done.textContent).toBe('You have joined the club.');
    expect(document.activeElement).toBe(done);
  });
});

describe('leaving a club', () => {
  browserFocus();
  afterEach(() => expect(focusRefused).toEqual([]));
  const clubAs = (role: () => string | undefined) => () => ({
    id: 'c1', name: 'Dev Club', description: '', owner_id: 'u-olga', member_count: 4, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', ...(role() ? { viewer_role: role() } : {}),
  });

  it('says that it worked, where the button was, and the keyboard focus goes there', async () => {
    let role: string | undefined = 'member';
    const root = await openClub(mia, 'member', {
      'GET /clubs/c1': clubAs(() => role),
      'DELETE /clubs/c1/members/[^/]+': () => void (role = undefined),
    });
    await click(button(root, 'Leave the club…'));
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]); // asked first
    const leave = button(root, 'Leave the club')!;
    leave.focus();
    await click(leave);
    expect(calls).toContainEqual({ method: 'DELETE', path: '/clubs/c1/members/me', body: undefined });
    expect(button(root, 'Leave the club')).toBeNull();
    const done = root.querySelector('#left-club')!;
    expect(done.textContent).toMatch(/^You have left the club/);
    expect(document.activeElement).toBe(done);
  });

  it('hands the focus to the word that it worked even while the club is still being read again', async () => {
    // In a browser the club's reload answers after the render that follows
    // the leave (seen: the focus fell to <body>); the stub answers it late.
    let role: string | undefined = 'member';
    const root = await openClub(mia, 'member', {
      'GET /clubs/c1': clubAs(() => role),
      'DELETE /clubs/c1/members/[^/]+': () => void (role = undefined),
    });
    const answer = vi.mocked(api.get).getMockImplementation()!;
    vi.mocked(api.get).mockImplementation(async (path: string) => {
      if (path === '/clubs/c1') await new Promise((r) => setTimeout(r, 40));
      return answer(path) as never;
    });
    await click(button(root, 'Leave the club…'));
    const leave = button(root, 'Leave the club')!;
    leave.focus();
    await click(leave);
    await act(async () => void (await new Promise((r) => setTimeout(r, 60))));
    await settle();
    const done = root.querySelector('#left-club')!;
    expect(done.textContent).toBe(
      'You have left the club, and its tournaments not yet started no longer have you entered. To join again you need an invite code.',
    );
    expect(document.activeElement).toBe(done);
  });

  it('shows a refusal beside the button, not in the hidden join form', async () => {
    const root = await openClub(mia, 'member', {
      'GET /clubs/c1': clubAs(() => 'member'),
      'DELETE /clubs/c1/members/[^/]+': () => {
        throw new ApiError(409, { title: 'Conflict', detail: 'you play in a running tournament of this club' });
      },
    });
    await click(button(root, 'Leave the club…'));
    await click(button(root, 'Leave the club'));
    expect(button(root, 'Leave the club')).not.toBeNull();
    expect(root.querySelector('[aria-labelledby=members-title]')!.textContent).toContain('You play in a running tournament of this club');
  });
  it('asks first, since joining again takes a new invite code, and Stay leaves the viewer a member', async () => {
    // One press of "Leave the club" left it, with no way back but a new invite code.
    resetCalls();
    const root = await openClub(mia, 'member', { 'GET /clubs/c1': clubAs(() => 'member') });
    await click(button(root, 'Leave the club…'));
    const question = root.querySelector('[role=group][aria-label^="Leave the club?"]')!;
    expect(question.textContent).toContain('to join again you need a new invite code');
    expect(document.activeElement).toBe(button(root, 'Stay'));
    await click(button(root, 'Stay'));
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    expect(document.activeElement).toBe(button(root, 'Leave the club…'));
  });
});

// Joining and making an invite code sent a second request when submitted again before the first was answered:
// a double click on "Make an invite code" made two codes.
describe('the join and invite forms submitted twice', () => {
  it('make one invite code', async () => {
    const root = await openClub(olga, 'owner');
    const sent = vi.spyOn(api, 'post').mockImplementation((() => new Promise(() => {})) as never);
    const form = button(root, 'Make an invite code')!.closest('form');
    await submit(form);
    await submit(form);
    expect(sent).toHaveBeenCalledTimes(1);
    expect(button(root, 'Making a code…')?.getAttribute('aria-disabled')).toBe('true');
  });

  it('join once', async () => {
    const root = await openClub(mia, undefined);
    const sent = vi.spyOn(api, 'post').mockImplementation((() => new Promise(() => {})) as never);
    type(root, 'input[name=invite-code]', 'ABC123');
    const form = root.querySelector('input[name=invite-code]')!.closest('form');
    await submit(form);
    await submit(form);
    expect(sent).toHaveBeenCalledTimes(1);
    expect(button(root, 'Joining…')?.getAttribute('aria-disabled')).toBe('true');
  });
});

// A taken name was said twice: "is taken" at the field, and the server's sentence for it in a box below.
describe('a create form refused for a taken name', () => {
  const taken = (detail: string) => () => {
    throw new ApiError(409, { title: 'Conflict', status: 409, detail, errors: [{ field: 'name', message: 'is taken' }] });
  };

  it('says it once, at the name: a club', async () => {
    await signInAs({ 'GET /me': () => olga, 'GET /clubs.*': () => ({ items: [], next_cursor: '' }), 'POST /clubs': taken('a club of that name exists') });
    const root = mount(<ClubList />);
    await settle();
    type(root, '#f-club-name', 'Dev Club');
    await submit(root.querySelector('#f-club-name')!.closest('form'));
    expect(root.querySelector('#f-club-name-err')!.textContent).toBe('is taken');
    expect(root.querySelector('[role=alert]')).toBeNull();
    expect(root.textContent).not.toContain('a club of that name exists');
  });

  it('says it once, at the name: a league', async () => {
    const root = await openClub(olga, 'owner', { 'POST /clubs/c1/leagues': taken('the club has a league of this name') });
    type(root, '#f-league-name', 'Monday League');
    await submit(root.querySelector('form[aria-label="Create a league"]'));
    expect(root.querySelector('#f-league-name-err')!.textContent).toBe('is taken');
    expect(root.textContent).not.toContain('the club has a league of this name');
  });

  it('still says a refusal of no field: a club', async () => {
    await signInAs({
      'GET /me': () => olga,
      'GET /clubs.*': () => ({ items: [], next_cursor: '' }),
      'POST /clubs': () => {
        throw new ApiError(429, { title: 'Too Many Requests', status: 429, detail: 'you have created 10 clubs today' });
      },
    });
    const root = mount(<ClubList />);
    await settle();
    type(root, '#f-club-name', 'Dev Club');
    await submit(root.querySelector('#f-club-name')!.closest('form'));
    expect(root.querySelector('[role=alert]')!.textContent).toBe('You have created 10 clubs today.');
  });
});

// A create form sent a second request when submitted again (a double click, Enter pressed twice) before the first was answered.
describe('a create form submitted twice', () => {
  it('sends a second submit, while the first is under way, nowhere: it made the league, then said its name was taken', async () => {
    const root = await openClub(olga, 'owner');
    let answer = () => {};
    const sent = vi.spyOn(api, 'post').mockImplementation((() => new Promise<void>((resolve) => (answer = resolve))) as never);
    type(root, '#f-league-name', 'Monday League');
    const form = root.querySelector('form[aria-label="Create a league"]');
    await submit(form);
    await submit(form); // a double click, or Enter pressed again
    answer();
    await settle();
    expect(sent).toHaveBeenCalledTimes(1);
  });

  it('sends a second submit, while the first is under way, nowhere: a club', async () => {
    await signInAs({ 'GET /me': () => olga, 'GET /clubs.*': () => ({ items: [], next_cursor: '' }) });
    const root = mount(<ClubList />);
    await settle();
    const sent = vi.spyOn(api, 'post').mockImplementation((() => new Promise(() => {})) as never);
    type(root, '#f-club-name', 'Dev Club');
    const form = root.querySelector('#f-club-name')!.closest('form');
    await submit(form);
    await submit(form);
    expect(sent).toHaveBeenCalledTimes(1);
  });
});
