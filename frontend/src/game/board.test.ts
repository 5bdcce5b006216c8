import { describe, expect, it } from 'vitest';
import { BOARD, cardAt, cellName, cellsOf, parseCell, windowCells, cardLabel, cardWords } from './board';

describe('the board layout of rules.md 1.2', () => {
  it('is 10 by 10 with free corners only at the corners', () => {
    expect(BOARD).toHaveLength(10);
    for (const row of BOARD) expect(row).toHaveLength(10);
    const corners = [];
    for (let r = 0; r < 10; r++) for (let c = 0; c < 10; c++) if (BOARD[r][c] === '**') corners.push(cellName(r, c));
    expect(corners).toEqual(['a1', 'j1', 'a10', 'j10']);
  });

  it('shows every non-jack card exactly twice and no jack', () => {
    const count = new Map<string, number>();
    for (const row of BOARD) for (const k of row) if (k !== '**') count.set(k, (count.get(k) ?? 0) + 1);
    const deck: string[] = [];
    for (const s of 'SHDC') for (const r of 'A23456789TQK') deck.push(r + s);
    expect([...count.keys()].sort()).toEqual(deck.sort());
    for (const [card, n] of count) expect(n, card).toBe(2);
    expect([...count.keys()].some((k) => k[0] === 'J')).toBe(false);
  });

  it('matches the spec rows at a few known cells', () => {
    expect(cardAt('b1')).toBe('2S');
    expect(cardAt('j2')).toBe('TS');
    expect(cardAt('e5')).toBe('5H');
    expect(cardAt('i9')).toBe('3H');
    expect(cardAt('b10')).toBe('AD');
    expect(cellsOf('7H')).toEqual(['i5', 'd6']);
    expect(cellsOf('JC')).toEqual([]);
  });

  it('names and parses cells like a spreadsheet', () => {
    expect(cellName(0, 0)).toBe('a1');
    expect(cellName(9, 9)).toBe('j10');
    expect(parseCell('j10')).toEqual({ row: 9, col: 9 });
    expect(parseCell('k1')).toBeNull();
    expect(parseCell('a11')).toBeNull();
  });

  it('lists the cells of a window in every direction', () => {
    expect(windowCells('a5', 'e5')).toEqual(['a5', 'b5', 'c5', 'd5', 'e5']);
    expect(windowCells('e1', 'e5')).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
    expect(windowCells('b2', 'f6')).toEqual(['b2', 'c3', 'd4', 'e5', 'f6']);
    expect(windowCells('j1', 'f5')).toEqual(['j1', 'i2', 'h3', 'g4', 'f5']);
  });

  it('labels cards for eyes and ears', () => {
    expect(cardLabel('TH')).toEqual({ face: '10♥', name: '10 of hearts', red: true });
    expect(cardLabel('JC').name).toContain('two-eyed');
    expect(cardLabel('JS').name).toContain('one-eyed');
  });

  it('names a number card by the number on its face, the 10 as the 9 (screen readers and tooltips said "ten of hearts" beside "9 of hearts")', () => {
    for (const rank of '23456789T') {
      const { face, name } = cardLabel(rank + 'S');
      expect(name).toBe(`${face.slice(0, -1)} of spades`);
    }
    expect(cardWords('TD')).toBe('10 of diamonds');
    expect(cardWords('JC')).toBe('jack of clubs');
  });
});
