import { describe, expect, it } from 'vitest';
import type { RatingChange } from '../api/types';
import { CHART_BOX, niceStep, scale, seriesByPool } from './chart';

const change = (pool: string, before: number, after: number, at: string, game_id = at): RatingChange => ({ game_id, pool, before, after, k: 40, at });

describe('the rating chart', () => {
  it('makes one series per pool, in time order, starting from the rating before the first game', () => {
    const s = seriesByPool([
      change('sequence-2team', 1520, 1540, '2025-01-02T00:00:00Z'),
      change('stacks', 1500, 1480, '2025-01-01T12:00:00Z'),
      change('sequence-2team', 1500, 1520, '2025-01-01T00:00:00Z'),
    ]);
    expect([...s.keys()]).toEqual(['sequence-2team', 'stacks']);
    expect(s.get('sequence-2team')!.map((p) => [p.game, p.rating])).toEqual([
      [0, 1500],
      [1, 1520],
      [2, 1540],
    ]);
    expect(s.get('stacks')!.map((p) => p.rating)).toEqual([1500, 1480]);
  });

  it('maps the lowest rating to the bottom and the highest to the top, games left to right', () => {
    const pts = [0, 1, 2, 3, 4].map((g) => ({ game: g, rating: [1500, 1540, 1490, 1600, 1550][g] }));
    const s = scale(pts);
    const b = CHART_BOX;
    expect(s.min).toBeLessThanOrEqual(1490);
    expect(s.max).toBeGreaterThanOrEqual(1600);
    expect(s.y(s.min)).toBe(b.height - b.bottom);
    expect(s.y(s.max)).toBe(b.top);
    expect(s.x(0)).toBe(b.left);
    expect(s.x(4)).toBe(b.width - b.right);
    // higher ratings are drawn higher up
    expect(s.points[3].y).toBeLessThan(s.points[0].y);
    expect(s.path.startsWith(`M${b.left} `)).toBe(true);
    expect(s.path.match(/L/g)).toHaveLength(4);
    // ticks are round numbers inside the box
    for (const t of s.yTicks) {
      expect(t.value % 10).toBe(0);
      expect(t.y).toBeGreaterThanOrEqual(b.top);
      expect(t.y).toBeLessThanOrEqual(b.height - b.bottom);
    }
  });

  it('draws a flat or single-game history in the middle, never dividing by zero', () => {
    const s = scale([
      { game: 0, rating: 1500 },
      { game: 1, rating: 1500 },
    ]);
    expect(s.max - s.min).toBeGreaterThanOrEqual(40);
    const mid = (CHART_BOX.top + CHART_BOX.height - CHART_BOX.bottom) / 2;
    expect(Math.abs(s.points[0].y - mid)).toBeLessThan(1);
    expect(s.path).not.toMatch(/NaN|Infinity/);
  });

  it('picks tick steps of 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceStep(100, 4)).toBe(25);
    expect(niceStep(1000, 5)).toBe(200);
    expect(niceStep(37, 4)).toBe(10);
    expect(niceStep(0)).toBe(1);
    const many = scale(Array.from({ length: 101 }, (_, g) => ({ game: g, rating: 1500 + g })));
    expect(many.xTicks.length).toBeLessThanOrEqual(11);
    expect(many.xTicks[0].game).toBe(0);
  });
});
