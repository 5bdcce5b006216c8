import { afterEach, describe, expect, it } from 'vitest';
import { act } from 'preact/test-utils';
import { useState } from 'preact/hooks';
import { Board, moveFocus } from './Board';
import { targetsFor } from '../game/sequenceMoves';
import { mount, unmountAll } from '../testing/stubApi';
import css from '../styles.css?raw';

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

  // The move log said "on f2", the replay "JD@c5" and "b6–f6", and the board had no coordinates to find them by.
  it('names its columns a–j along the top and its rows 1–10 down the left, as the cells are named, hidden from screen readers', () => {
    const root = mount(<Board rows={empty} locked={new Set()} />);
    const wrap = root.querySelector('.board-wrap')!;
    const cols = wrap.querySelector('.board-cols')!;
    const rowsEl = wrap.querySelector('.board-rows')!;
    expect([...cols.children].map((e) => e.textContent)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
    expect([...rowsEl.children].map((e) => e.textContent)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    // the k-th letter heads the k-th column of cells, the k-th number the k-th row, as the notation names them
    const gridRows = [...root.querySelectorAll('[role=row]')];
    gridRows.forEach((row, r) =>
      [...row.querySelectorAll('[role=gridcell]')].forEach((cell, c) => {
        expect(cell.getAttribute('data-cell')).toBe(cols.children[c].textContent! + rowsEl.children[r].textContent!);
        expect(cell.getAttribute('aria-label')!.startsWith(`${cell.getAttribute('data-cell')}, `)).toBe(true);
      }),
    );
    // the cells' labels name them: the coordinates are not read again, and stay out of the grid
    for (const el of [cols, rowsEl]) {
      expect(el.getAttribute('aria-hidden')).toBe('true');
      expect(el.closest('[role=grid]')).toBeNull();
    }
  });

  it('gives its coordinates a gutter of their own beside the board, their type readable at a phone\'s width', () => {
    const body = (sel: string) => css.replace(/\/\*[\s\S]*?\*\//g, '').match(new RegExp(`(^|\\})\\s*${sel.replace(/[.]/g, '\\.')}\\s*\\{([^}]*)\\}`))?.[2] ?? '';
    const wrap = body('.board-wrap');
    expect(wrap).toMatch(/display:\s*grid/);
    expect(wrap).toMatch(/grid-template-areas:\s*'\. cols'\s*'rows board'/);
    // at least 11 px, whatever the board's width; the gutter at most 1.25rem, ~4% of a 359 px board
    expect(body('.board-coords')).toMatch(/font-size:\s*clamp\(0\.6875rem,/);
    expect(wrap).toMatch(/--coord:\s*clamp\(0\.9rem,\s*3\.6cqw,\s*1\.25rem\)/);
    // the letters and numbers are spaced as the cells are
    const board = body('.board');
    const gap = board.match(/gap:\s*([\d.]+cqw)/)![1];
    const pad = board.match(/padding:\s*([\d.]+cqw)/)![1];
    expect(body('.board-cols')).toMatch(new RegExp(`column-gap:\\s*${gap};[\\s\\S]*padding:\\s*0 ${pad}`));
    expect(body('.board-rows')).toMatch(new RegExp(`row-gap:\\s*${gap};[\\s\\S]*padding:\\s*${pad} 0`));
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
