import { describe, expect, it } from 'vitest';
import css from './styles.css?raw';

// styles.css once wrote the visually hidden declarations twice: in .sr-only, and again in a media query for the
// words a phone leaves out (.wide-only, a compact seat line's full name, badges and "cards").
describe('styles.css', () => {
  /** rules are the stylesheet's innermost rules: selector and declarations, comments dropped. */
  const rules = [...css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/([^{}]+)\{([^{}]*)\}/g)].map((m) => ({ selector: m[1].trim().replace(/\s+/g, ' '), body: m[2] }));

  it('writes the visually hidden declarations once, for every element a screen reader alone should read', () => {
    const hidden = rules.filter((r) => /clip:\s*rect\(0,\s*0,\s*0,\s*0\)/.test(r.body));
    expect(hidden.map((r) => r.selector)).toEqual(['.sr-only, .wide-only, .seat-lines:not(.details) :is(.full-name, .badges, .count-unit)']);
    // from 60rem the phone's hidden words show again, by one rule that gives them no box
    const shown = rules.filter((r) => /display:\s*contents/.test(r.body)).map((r) => r.selector);
    expect(shown).toEqual(['.wide-only, .seat-lines:not(.details) :is(.full-name, .badges, .count-unit)']);
  });
});
