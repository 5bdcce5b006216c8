import { describe, expect, it } from 'vitest';
import css from './styles.css?raw';
import { contrast } from './testing/contrast';

// The colour pairs the app puts text (or a chip's shape) on, read from the
// stylesheet's variables so a palette change is checked.
const vars = Object.fromEntries([...css.matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{3,6})/g)].map((m) => [m[1], m[2]]));
const v = (name: string) => {
  if (!vars[name]) throw new Error(`no --${name} in styles.css`);
  return vars[name];
};

describe('colour contrast', () => {
  it('computes the WCAG ratio', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  const pairs: [string, string][] = [
    ['text', 'bg'],
    ['muted', 'bg'],
    ['muted', 'surface'],
    ['accent', 'surface'],
    ['accent', 'bg'],
    ['danger', 'surface'],
    ['accent-text', 'accent'],
    ['card-red', 'cell-bg'],
    ['text', 'cell-bg'],
    ['card-red', 'target'],
    ['text', 'target'],
    ['target-border', 'target'],
    // status tags, bracket marks, my row
    ['ok-text', 'ok-bg'],
    ['info-text', 'info-bg'],
    ['warn-text', 'warn-bg'],
    ['cold-text', 'cold-bg'],
    ['text', 'mine-bg'],
    ['accent', 'mine-bg'],
    // the compact seat line of the seat to move (styles.css, .seat-lines)
    ['muted', 'warn-bg'],
    ['card-red', 'warn-bg'],
    ['danger', 'surface'],
  ];
  for (const [fg, bg] of pairs) {
    it(`--${fg} on --${bg} is at least 4.5:1`, () => {
      expect(contrast(v(fg), v(bg))).toBeGreaterThanOrEqual(4.5);
    });
  }
  it('bracket connectors and chart lines stand out at least 3:1 (non-text)', () => {
    expect(contrast(v('line'), v('surface'))).toBeGreaterThanOrEqual(3);
    expect(contrast(v('accent'), v('surface'))).toBeGreaterThanOrEqual(3);
  });
  for (const team of ['blue', 'green', 'red']) {
    it(`a chip's white shape on --${team} is at least 4.5:1`, () => {
      expect(contrast('#ffffff', v(team))).toBeGreaterThanOrEqual(4.5);
    });
  }
});
