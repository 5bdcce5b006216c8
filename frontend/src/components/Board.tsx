import { useRef } from 'preact/hooks';
import { BOARD, SIZE, TEAMS, cardLabel, cellName, parseCell } from '../game/board';
import type { Targets } from '../game/sequenceMoves';

export interface BoardProps {
  /** the view's board: 10 rows of "." empty, "*" corner, "a" "b" "c" chips */
  rows: string[];
  locked: Set<string>;
  targets?: Targets;
  /** the cell the last move touched */
  last?: string | null;
  focus?: { row: number; col: number };
  onFocus?: (row: number, col: number) => void;
  onActivate?: (cell: string) => void;
  /**
   * keeps the cells focusable and the arrow keys working while nothing can
   * be played (between one's turns), so that the focus stays on the board
   * after a move instead of falling back to the page
   */
  navigable?: boolean;
  label?: string;
}

/** moveFocus is where an arrow key takes the focus (it stops at the edges). */
export function moveFocus(f: { row: number; col: number }, key: string): { row: number; col: number } | null {
  const clamp = (n: number) => Math.max(0, Math.min(SIZE - 1, n));
  switch (key) {
    case 'ArrowUp':
      return { row: clamp(f.row - 1), col: f.col };
    case 'ArrowDown':
      return { row: clamp(f.row + 1), col: f.col };
    case 'ArrowLeft':
      return { row: f.row, col: clamp(f.col - 1) };
    case 'ArrowRight':
      return { row: f.row, col: clamp(f.col + 1) };
    case 'Home':
      return { row: f.row, col: 0 };
    case 'End':
      return { row: f.row, col: SIZE - 1 };
  }
  return null;
}

export function Board({ rows, locked, targets, last, focus, onFocus, onActivate, navigable, label = 'Board' }: BoardProps) {
  const grid = useRef<HTMLDivElement>(null);
  const interactive = !!onActivate;
  const keyboard = interactive || !!navigable;
  const f = focus ?? { row: 4, col: 4 };
  // Keys act on the cell that has the DOM focus (not on props, which lag a
  // render behind fast typing), and the focus moves at once.
  const onKeyDown = (e: KeyboardEvent) => {
    if (!keyboard) return;
    const at = parseCell((e.target as HTMLElement).closest?.('[data-cell]')?.getAttribute('data-cell') ?? '') ?? f;
    const next = moveFocus(at, e.key);
    if (next) {
      e.preventDefault();
      grid.current?.querySelector<HTMLElement>(`[data-cell="${cellName(next.row, next.col)}"]`)?.focus();
      onFocus?.(next.row, next.col);
      return;
    }
    if (interactive && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      onFocus?.(at.row, at.col);
      onActivate?.(cellName(at.row, at.col));
    }
  };

  // The coordinates along the top (columns a–j) and the left (rows 1–10, row 1 at the top) name the cells as
  // the move log, the notices and the replay's list do ("on f2", "JD@c5", "b6–f6"): without them a player
  // counted cells to find one. Screen readers hear each cell's name in its label, so they are hidden from them.
  return (
    <div class="board-wrap">
      <div class="board-coords board-cols" aria-hidden="true">
        {Array.from({ length: SIZE }, (_, c) => (
          <span key={c}>{cellName(0, c)[0]}</span>
        ))}
      </div>
      <div class="board-coords board-rows" aria-hidden="true">
        {Array.from({ length: SIZE }, (_, r) => (
          <span key={r}>{cellName(r, 0).slice(1)}</span>
        ))}
      </div>
      <div class="board" role="grid" aria-label={label} ref={grid} onKeyDown={onKeyDown}>
        {BOARD.map((cards, r) => (
          <div role="row" class="board-row" key={r}>
            {cards.map((card, c) => {
              const cell = cellName(r, c);
              const mark = rows[r]?.[c] ?? '.';
              const team = 'abc'.indexOf(mark);
              const isLocked = locked.has(cell);
              const canPlace = targets?.place.has(cell) ?? false;
              const canRemove = targets?.remove.has(cell) ?? false;
              const lbl = cardLabel(card);
              const parts = [cell, lbl.name];
              if (team >= 0) parts.push(`${TEAMS[team].name} chip${isLocked ? ', locked in a sequence' : ''}`);
              if (canPlace) parts.push('you can place a chip here');
              if (canRemove) parts.push('you can remove this chip');
              if (last === cell) parts.push('last move');
              const focused = f.row === r && f.col === c;
              const cls = ['cell', card === '**' ? 'corner' : '', lbl.red ? 'red-suit' : '', canPlace ? 'target' : '', canRemove ? 'target remove' : '', isLocked ? 'locked' : '', last === cell ? 'last' : '']
                .filter(Boolean)
                .join(' ');
              return (
                <div
                  role="gridcell"
                  key={cell}
                  data-cell={cell}
                  class={cls}
                  tabIndex={keyboard ? (focused ? 0 : -1) : undefined}
                  aria-label={parts.join(', ')}
                  aria-selected={interactive ? canPlace || canRemove : undefined}
                  onClick={interactive ? () => (onFocus?.(r, c), onActivate?.(cell)) : undefined}
                >
                  <span class="card-face" aria-hidden="true">
                    {lbl.face}
                  </span>
                  {team >= 0 && (
                    <span class={`chip team-${TEAMS[team].colour}`} aria-hidden="true">
                      {TEAMS[team].shape}
                    </span>
                  )}
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
