import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { usePoll } from './poll';

let hidden = false;
const show = (h: boolean) => {
  hidden = h;
  act(() => void document.dispatchEvent(new Event('visibilitychange')));
};

function Poller({ fn }: { fn: () => void }) {
  usePoll(fn, 30_000);
  return null;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('polling', () => {
  it('skips the calls while the tab is hidden and catches up as soon as it is shown again', () => {
    vi.useFakeTimers();
    vi.spyOn(document, 'hidden', 'get').mockImplementation(() => hidden);
    const fn = vi.fn();
    const root = document.createElement('div');
    act(() => render(<Poller fn={fn} />, root));
    act(() => void vi.advanceTimersByTime(30_000));
    expect(fn).toHaveBeenCalledTimes(1);
    // the player goes to another tab for a while, and comes back 5 s after a skipped call
    show(true);
    act(() => void vi.advanceTimersByTime(30_000));
    expect(fn).toHaveBeenCalledTimes(1);
    act(() => void vi.advanceTimersByTime(5_000));
    show(false);
    expect(fn).toHaveBeenCalledTimes(2); // was read only 25 s later
    // hidden and shown again between two calls: nothing was missed, nothing is asked
    show(true);
    show(false);
    expect(fn).toHaveBeenCalledTimes(2);
    render(null, root);
  });
});
