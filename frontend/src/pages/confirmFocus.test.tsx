// Where the keyboard focus goes when a "…" button that asks once more is
// pressed: the button goes away, so without a hand-over the focus fell to
// the page (Enter on "Close account…" left a keyboard user at the top).
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Season } from '../api/types';
import { browserFocus, focusRefused } from '../testing/browserFocus';
import { mount, resetCalls, settle, signOutAndUnmount, stub } from '../testing/stubApi';
import { CloseSeason } from './Leagues';
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

  it('closing an account: goes to "Keep it", and back to "Close account…" from there', async () => {
    stub({ 'GET /users/u1/clubs\\?limit=100': () => ({ items: [], next_cursor: '' }) });
    const root = mount(<CloseAccount userId="u1" username="ann" />);
    await settle();
    await press(button(root, 'Close account…'));
    expect(button(root, 'Close my account')).not.toBeNull();
    expect(focused()).toBe(button(root, 'Keep it'));
    await press(focused());
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
