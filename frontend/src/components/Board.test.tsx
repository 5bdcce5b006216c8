import { afterEach, describe, expect, it } from 'vitest';
import { act } from 'preact/test-utils';
import { useState } from 'preact/hooks';
import { Board, moveFocus } from './Board';
import { targetsFor } from '../game/sequenceMoves';
import { mount, unmountAll } from '../testing/stubApi';

const empty = ['*........*', '..........', '..........', '..........', '..........', '..........', '..........', '..........', '..........', '*........*'];

afterEach(unmountAll);

describe('the board', () => {
  it('renders 100 cells with their cards, chips and locks', () => {
    const rows = [...empty];
    rows[4] = 'a...b.....';
    const root = mount(<Board rows={rows} locked={new Set(['a5'])} />);
    expect(root.querySelectorAll('[role=gridcell]')).toHaveLength(100);
    const a5 = root.querySelector('[data-cell=a5]')!;
    expect(a5.getAttribute('aria-label')).toBe('a5, 9 of clubs, Blue chip, locked in a sequence');
    expect(a5.classList.contains('locked')).toBe(true);
    expect(a5.querySelector('.chip')!.textContent).toBe('●'); // not colour alone
    expect(root.querySelector('[data-cell=e5] .chip')!.textContent).toBe('▲');
    expect(root.querySelector('[data-cell=a1]')!.classList.contains('corner')).toBe(true);
  });

  it('highlights exactly the legal targets of the selected card', () => {
    const targets = targetsFor(['7H@i5', '7H@d6', 'JSxe5', '2S@b1'], '7H');
    const root = mount(<Board rows={empty} locked={new Set()} targets={targets} onActivate={() => {}} />);
    const lit = [...root.querySelectorAll('.target')].map((e) => e.getAttribute('data-cell')).sort();
    expect(lit).toEqual(['d6', 'i5']);
    expect(root.querySelector('[data-cell=i5]')!.getAttribute('aria-selected')).toBe('true');
    expect(root.querySelector('[data-cell=b1]')!.getAttribute('aria-selected')).toBe('false');
  });

  it('plays by click and by Enter on the focused cell', () => {
    const played: string[] = [];
    let focus = { row: 4, col: 4 };
    const root = mount(
      <Board rows={empty} locked={new Set()} focus={focus} onFocus={(r, c) => (focus = { row: r, col: c })} onActivate={(c) => played.push(c)} />,
    );
    act(() => (root.querySelector('[data-cell=d6]') as HTMLElement).click());
    expect(played).toEqual(['d6']);
    expect(root.querySelector('[data-cell=e5]')!.getAttribute('tabindex')).toBe('0');
    act(() => {
      root.querySelector('[role=grid]')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    });
    expect(played).toEqual(['d6', 'e5']);
  });

  it('moves the focus with the arrow keys and stops at the edges', () => {
    expect(moveFocus({ row: 0, col: 0 }, 'ArrowUp')).toEqual({ row: 0, col: 0 });
    expect(moveFocus({ row: 0, col: 0 }, 'ArrowRight')).toEqual({ row: 0, col: 1 });
    expect(moveFocus({ row: 9, col: 9 }, 'ArrowDown')).toEqual({ row: 9, col: 9 });
    expect(moveFocus({ row: 3, col: 3 }, 'End')).toEqual({ row: 3, col: 9 });
    expect(moveFocus({ row: 3, col: 3 }, 'x')).toBeNull();
  });

  it('keeps up with keys typed faster than it renders', () => {
    const played: string[] = [];
    function Harness() {
      const [f, setF] = useState({ row: 3, col: 0 });
      return <Board rows={empty} locked={new Set()} focus={f} onFocus={(row, col) => setF({ row, col })} onActivate={(c) => played.push(c)} />;
    }
    const root = mount(<Harness />);
    (root.querySelector('[data-cell=a4]') as HTMLElement).focus();
    const key = (k: string) => document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
    // no render between the presses (act renders once, at its end)
    act(() => {
      key('ArrowDown');
      key('ArrowRight');
      key('ArrowUp');
      key('Enter');
      expect(document.activeElement!.getAttribute('data-cell')).toBe('b4');
    });
    expect(played).toEqual(['b4']);
    expect(root.querySelector('[tabindex="0"]')!.getAttribute('data-cell')).toBe('b4');
  });
});
