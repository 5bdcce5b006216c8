// Cancelling a tournament: the organizer's confirmation step, the request,
// a refusal, and how a cancelled tournament reads; starting, pausing and
// resuming one, and where the focus goes after each.
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import type { User, UserTournament } from '../api/types';
import { upcoming } from '../competition/nextRounds';
import se from '../competition/testdata/se.json';
import swiss from '../competition/testdata/swiss.json';
import { api, restore } from '../session';
import TournamentPage, { cancelNote, roundStatus } from './Tournament';
import { browserFocus, focusRefused, pressInBrowser } from '../testing/browserFocus';
import { calls, type Handler, mount, resetCalls, settle, stub, signOutAndUnmount } from '../testing/stubApi';

const click = (el: Element | null) => act(() => (el as HTMLElement).click());
const byText = (root: Element, sel: string, text: string) => [...root.querySelectorAll(sel)].find((e) => e.textContent?.trim() === text) ?? null;
/** cancelTournament asks to cancel from the organizer's tools and confirms. */
const cancelTournament = async (root: Element) => {
  await click(root.querySelector('.organizer button[data-action=cancel-tournament]'));
  await settle();
  await click(byText(root, '.organizer button', 'Cancel the tournament'));
  await settle();
};

const me: User = { id: 'me1', username: 'org', kind: 'human', is_admin: false, created_at: '' };
const t = swiss.tournament;

function routes(over: { status: string; role?: string; cancelled_at?: string; rounds?: unknown[]; patch?: Handler }): Record<string, Handler> {
  const r: Record<string, Handler> = {
    'GET /me': () => me,
    [`GET /tournaments/${t.id}`]: () => ({ ...t, status: over.status, cancelled_at: over.cancelled_at }),
    [`GET /tournaments/${t.id}/entries\\?limit=100`]: () => ({ items: swiss.entries }),
    [`GET /tournaments/${t.id}/rounds`]: () => ({ rounds: over.rounds ?? swiss.rounds }),
    [`GET /tournaments/${t.id}/bracket`]: () => swiss.bracket,
    [`GET /tournaments/${t.id}/standings`]: () => ({ items: swiss.standings }),
    [`GET /clubs/${t.club_id}`]: () => ({ id: t.club_id, name: 'Dev Club', viewer_role: over.role ?? 'organizer' }),
    [`GET /clubs/${t.club_id}/members\\?limit=100`]: () => ({ items: [] }),
  };
  if (over.patch) r[`PATCH /tournaments/${t.id}`] = over.patch;
  return r;
}

beforeEach(() => {
  vi.restoreAllMocks();
  resetCalls();
  history.replaceState(null, '', '/');
  vi.spyOn(api, 'refresh').mockResolvedValue(true);
});
afterEach(signOutAndUnmount);

describe('cancelling a tournament', () => {
  // "Cancel tournament…" was a small button (0.875rem) beside "Start now", "Pause" and "Resume" at full size.
  for (const status of ['registration', 'running', 'paused']) {
    it(`sets "Cancel tournament…" and its answers at the size of the buttons beside it (${status})`, async () => {
      stub(routes({ status }));
      await restore();
      const root = mount(<TournamentPage id={t.id} />);
      await settle();
      const buttons = [...root.querySelectorAll('.organizer .actions-row button')] as HTMLButtonElement[];
      expect(buttons.map((b) => b.textContent)).toContain('Cancel tournament…');
      expect(buttons.length).toBeGreaterThan(1);
      for (const b of buttons) expect(b.classList.contains('small'), b.textContent!).toBe(false);
      await click(root.querySelector('.organizer button[data-action=cancel-tournament]'));
      await settle();
      const answers = [...root.querySelectorAll('.organizer .cancel-tournament [role=group] button')];
      expect(answers.map((b) => b.textContent)).toEqual(['Cancel the tournament', 'Keep it']);
      for (const b of answers) expect(b.classList.contains('small'), b.textContent!).toBe(false);
    });
  }

  for (const status of ['registration', 'running', 'paused']) {
    it(`asks once more, then cancels a ${status} tournament, the focus on "Keep it" and back`, async () => {
      stub(routes({ status, patch: () => ({ ...t, status: 'cancelled', cancelled_at: '2030-01-02T10:00:00Z' }) }));
      await restore();
      const root = mount(<TournamentPage id={t.id} />);
      await settle();
      const ask = root.querySelector('.organizer button[data-action=cancel-tournament]') as HTMLButtonElement;
      expect(ask.textContent).toBe('Cancel tournament…');
      ask.focus();
      await click(ask);
      await settle();
      expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);
      const group = root.querySelector('.organizer .cancel-tournament [role=group]')!;
      expect(group.getAttribute('aria-label')).toBe(`Cancel ${t.name}? It cannot be undone`);
      expect(group.textContent).toContain(cancelNote({ status }));
      const keep = byText(group, 'button', 'Keep it') as HTMLButtonElement;
      expect(document.activeElement).toBe(keep);
      await click(keep);
      await settle();
      expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);
      expect(document.activeElement).toBe(root.querySelector('.organizer button[data-action=cancel-tournament]'));

      await click(root.querySelector('.organizer button[data-action=cancel-tournament]'));
      await settle();
      await click(byText(root, '.organizer button', 'Cancel the tournament'));
      await settle();
      expect(calls.filter((c) => c.method === 'PATCH')).toEqual([{ method: 'PATCH', path: `/tournaments/${t.id}`, body: { status: 'cancelled' } }]);
    });
  }

  it('moves the focus to the note that the tournament was cancelled, the button pressed having gone with the organizer tools', async () => {
    let status = 'running';
    stub({
      ...routes({ status }),
      [`GET /tournaments/${t.id}`]: () => ({ ...t, status, cancelled_at: status === 'cancelled' ? '2030-01-02T10:00:00Z' : undefined }),
      [`PATCH /tournaments/${t.id}`]: () => {
        status = 'cancelled';
        return { ...t, status, cancelled_at: '2030-01-02T10:00:00Z' };
      },
    });
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    await cancelTournament(root);
    expect(root.querySelector('.organizer')).toBeNull();
    expect(document.activeElement).toBe(root.querySelector('.cancelled-note'));
  });

  it("keeps the question and shows the server's refusal as a sentence", async () => {
    stub(
      routes({
        status: 'running',
        patch: () => {
          throw new ApiError(422, { title: 'Unprocessable Entity', detail: 'the tournament was cancelled already', errors: [{ field: 'status', message: 'the tournament was cancelled already' }] });
        },
      }),
    );
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    await cancelTournament(root);
    expect(root.querySelector('.organizer .error')!.textContent).toBe('The tournament was cancelled already.');
    expect(byText(root, '.organizer button', 'Cancel the tournament')).not.toBeNull();
  });

  it('shows a cancelled tournament as such: the tag, when, no organizer tools, its rounds not played out marked, no polling', async () => {
    const rounds = swiss.rounds.map((r, i) => (i === swiss.rounds.length - 1 ? { ...r, status: 'running' } : r));
    stub(routes({ status: 'cancelled', cancelled_at: '2030-01-02T10:00:00Z', rounds }));
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    expect(root.querySelector('.tournament-head .tag')!.textContent).toBe('cancelled');
    expect(root.querySelector('.tournament-head .conn')).toBeNull();
    const note = root.querySelector('.cancelled-note')!;
    expect(note.textContent).toMatch(/^This tournament was cancelled on .*\. Games still being played then were aborted, unrated; the results of games already over stand\.$/);
    expect(note.querySelector('time')!.getAttribute('datetime')).toBe('2030-01-02T10:00:00Z');
    expect(root.querySelector('.organizer')).toBeNull();
    expect(root.querySelector('table.entries button')).toBeNull();
    const shown = [...root.querySelectorAll('tr[data-round]')].map((tr) => tr.getAttribute('data-status'));
    expect(shown).toEqual([...swiss.rounds.slice(1).map(() => 'finished'), 'cancelled']);
  });

  it('shows a final cancelled mid-game as cancelled, its game aborted, with no live link', async () => {
    const fin = se.bracket.rounds[1].matches[0];
    const cancelledFinal = { ...fin, state: 'cancelled', winner: undefined, game_winners: [], games: ['g-final'] };
    const bracket = { ...se.bracket, champion: undefined, rounds: [se.bracket.rounds[0], { ...se.bracket.rounds[1], matches: [cancelledFinal] }] };
    const rounds = [
      se.rounds[0],
      { ...se.rounds[1], status: 'cancelled', matches: [{ ...se.rounds[1].matches[0], status: 'cancelled', winner: undefined, game_winners: [], sequences: [0, 0], games: ['g-final'] }] },
    ];
    const st = se.tournament;
    stub({
      'GET /me': () => me,
      [`GET /tournaments/${st.id}`]: () => ({ ...st, status: 'cancelled', cancelled_at: '2030-01-02T10:00:00Z' }),
      [`GET /tournaments/${st.id}/entries\\?limit=100`]: () => ({ items: se.entries }),
      [`GET /tournaments/${st.id}/rounds`]: () => ({ rounds }),
      [`GET /tournaments/${st.id}/bracket`]: () => bracket,
      [`GET /tournaments/${st.id}/standings`]: () => ({ items: se.standings }),
      [`GET /clubs/${st.club_id}`]: () => ({ id: st.club_id, name: 'Dev Club', viewer_role: 'member' }),
    });
    await restore();
    const root = mount(<TournamentPage id={st.id} />);
    await settle();
    const box = root.querySelector(`.match-box[data-match="${fin.id}"]`)!;
    expect(box.querySelector('.match-state')!.textContent).toBe('cancelled');
    expect(box.getAttribute('aria-label')).toBe('Final, cancelled');
    expect(root.querySelector('.game-link.live')).toBeNull();
    expect(root.textContent).not.toMatch(/watch live|● play/);
    const link = box.querySelector('a.game-link') as HTMLAnchorElement;
    expect([link.textContent, link.getAttribute('href'), link.getAttribute('aria-label')]).toEqual(['aborted', '/games/g-final', 'Final: Game: aborted']);
    expect(root.querySelector('tr[data-round="2"]')!.getAttribute('data-status')).toBe('cancelled');
  });

  // The API ranks every entry of a cancelled knockout 1: its table read "Place 1" for the losers too.
  for (const status of ['cancelled', 'finished'] as const) {
    it(`says a cancelled knockout never decided its places, where a finished one shows them (${status})`, async () => {
      const st = se.tournament;
      const ranks = status === 'cancelled' ? se.standings.map(() => 1) : se.standings.map((r) => r.rank);
      stub({
        'GET /me': () => me,
        [`GET /tournaments/${st.id}`]: () => ({ ...st, status, cancelled_at: status === 'cancelled' ? '2030-01-02T10:00:00Z' : undefined }),
        [`GET /tournaments/${st.id}/entries\\?limit=100`]: () => ({ items: se.entries }),
        [`GET /tournaments/${st.id}/rounds`]: () => ({ rounds: se.rounds }),
        [`GET /tournaments/${st.id}/bracket`]: () => se.bracket,
        [`GET /tournaments/${st.id}/standings`]: () => ({ items: se.standings.map((r, i) => ({ ...r, rank: ranks[i] })) }),
        [`GET /clubs/${st.club_id}`]: () => ({ id: st.club_id, name: 'Dev Club', viewer_role: 'member' }),
      });
      await restore();
      const root = mount(<TournamentPage id={st.id} />);
      await settle();
      const standings = root.querySelector('section[aria-labelledby=standings-title]')!;
      if (status === 'cancelled') {
        expect(standings.querySelector('table')).toBeNull();
        expect(standings.textContent).toContain('The knockout was cancelled before it ended: its places were never decided.');
      } else {
        expect([...standings.querySelectorAll('tbody tr')].map((tr) => tr.querySelector('td, th')!.textContent)).toEqual(ranks.map(String));
      }
    });
  }

  it('marks only the rounds not played out', () => {
    expect(roundStatus({ status: 'cancelled' }, { status: 'finished' })).toBe('finished');
    expect(roundStatus({ status: 'cancelled' }, { status: 'running' })).toBe('cancelled');
    expect(roundStatus({ status: 'cancelled' }, { status: 'scheduled' })).toBe('cancelled');
    expect(roundStatus({ status: 'running' }, { status: 'scheduled' })).toBe('scheduled');
  });

  it('leaves a cancelled tournament out of my next rounds', () => {
    const item = (id: string, status: string): UserTournament => ({ id, name: id, status, created_at: '2026-01-01T00:00:00Z', current_round: 1, entry_name: 'me' }) as UserTournament;
    expect(upcoming([item('off', 'cancelled'), item('on', 'running'), item('done', 'finished')]).map((x) => x.id)).toEqual(['on']);
  });
});

describe('starting, pausing and resuming', () => {
  // as in Chromium: the pressed button, disabled while its request runs, loses the focus
  browserFocus();
  afterEach(() => expect(focusRefused).toEqual([]));

  it('hands the focus from Start now to Pause, to Resume and back to Pause, each taking the place of the one pressed', async () => {
    let status = 'registration';
    stub({
      ...routes({ status }),
      [`GET /tournaments/${t.id}`]: () => ({ ...t, status }),
      [`PATCH /tournaments/${t.id}`]: (_path, body) => {
        status = (body as { status: string }).status;
        return { ...t, status };
      },
    });
    await restore();
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    const press = async (action: string) => {
      const b = root.querySelector(`.organizer button[data-action=${action}]`) as HTMLButtonElement;
      b.focus();
      await click(b);
      await settle();
    };
    await press('start');
    expect(document.activeElement).toBe(byText(root, '.organizer button', 'Pause'));
    await press('pause');
    expect(document.activeElement).toBe(byText(root, '.organizer button', 'Resume'));
    await press('resume');
    expect(document.activeElement).toBe(byText(root, '.organizer button', 'Pause'));
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ status: 'running' }, { status: 'paused' }, { status: 'running' }]);
  });

  // A refused "Start now" left the focus on the page's <body>, the button having been disabled while the request ran.
  for (const [status, action, detail, shown] of [
    ['registration', 'start', 'the tournament cannot start with 0 entries', 'The tournament cannot start with 0 entries.'],
    ['running', 'pause', 'the tournament is finished', 'The tournament is finished.'],
  ] as const) {
    it(`gives the focus back to ${action} when the server refuses`, async () => {
      stub(
        routes({
          status,
          patch: () => {
            throw new ApiError(409, { title: 'Conflict', detail, errors: [] });
          },
        }),
      );
      await restore();
      const root = mount(<TournamentPage id={t.id} />);
      await settle();
      const button = root.querySelector(`.organizer button[data-action=${action}]`) as HTMLButtonElement;
      // renders and effects one by one, as in a browser: the focus waits for the button to be enabled again
      await pressInBrowser(button);
      expect(root.querySelector('.organizer .error')!.textContent).toBe(shown);
      expect(document.activeElement).toBe(root.querySelector(`.organizer button[data-action=${action}]`));
    });
  }
});
