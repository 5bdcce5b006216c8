// A finished game's result line: all of it in the headline's bold and size
// took four lines at phone width and pushed the board down (seen at
// 360x740). The first sentence is the headline, the rest plain text.
import { afterEach, describe, expect, it } from 'vitest';
import { mount, unmountAll } from '../testing/stubApi';
import { ResultLine } from './gameCommon';

afterEach(unmountAll);

const parts = (text: string) => {
  const root = mount(<ResultLine text={text} />);
  const p = root.querySelector('p.result')!;
  return { head: p.querySelector('.result-head')?.textContent, detail: p.querySelector('.result-detail')?.textContent ?? null, all: p.textContent };
};

describe('the result line', () => {
  it('heads with who won and tells how after it, in plain text', () => {
    const text = 'Green team (▲) wins — that is you! bob (you) and bot-random completed the sequence i1–e5.';
    expect(parts(text)).toEqual({ head: 'Green team (▲) wins — that is you!', detail: 'bob (you) and bot-random completed the sequence i1–e5.', all: text });
    unmountAll();
    expect(parts('Green team (▲) wins. You abandoned your seat (a fill-in bot played it).').detail).toBe('You abandoned your seat (a fill-in bot played it).');
  });

  it('is all headline when it is one sentence', () => {
    expect(parts('ann wins with 2 red and 3 blue chips.')).toEqual({ head: 'ann wins with 2 red and 3 blue chips.', detail: null, all: 'ann wins with 2 red and 3 blue chips.' });
  });
});
