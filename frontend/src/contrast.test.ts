import { describe, expect, it } from 'vitest';
import css from './styles.css?raw';

// WCAG 2 contrast of the colour pairs the app puts text (or a chip's shape)
// on, read from the stylesheet's variables so a palette change is checked.
function luminance(hex: string): number {
  const n = hex.replace('#', '');
  const full = n.length === 3 ? [...n].map((c) => c + c).join('') : n;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

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
