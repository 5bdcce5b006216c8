// The rating-history chart's arithmetic: series per pool from
// GET /users/{id}/ratings, scales, ticks and the SVG path. No chart
// library: an SVG polyline is all a rating line needs.
import type { RatingChange } from '../api/types';

export interface Point {
  /** 0 is the rating before the first game; n is after game n */
  game: number;
  rating: number;
  /** when game n was settled (none for point 0) */
  at?: string;
  game_id?: string;
}

/**
 * seriesByPool turns the history (before/after per game, any order) into
 * one line per pool: the rating before the first game, then after each.
 */
export function seriesByPool(history: RatingChange[]): Map<string, Point[]> {
  const by = new Map<string, RatingChange[]>();
  for (const h of history) {
    if (!by.has(h.pool)) by.set(h.pool, []);
    by.get(h.pool)!.push(h);
  }
  const out = new Map<string, Point[]>();
  for (const [pool, changes] of by) {
    const sorted = changes.map((c, i) => ({ c, i })).sort((a, b) => Date.parse(a.c.at) - Date.parse(b.c.at) || a.i - b.i).map((x) => x.c);
    const pts: Point[] = [{ game: 0, rating: sorted[0].before }];
    sorted.forEach((c, i) => pts.push({ game: i + 1, rating: c.after, at: c.at, game_id: c.game_id }));
    out.set(pool, pts);
  }
  return out;
}

/** niceStep is 1, 2, 2.5 or 5 times a power of ten, about span/target. */
export function niceStep(span: number, target = 5): number {
  if (!(span > 0)) return 1;
  const raw = span / target;
  const p = 10 ** Math.floor(Math.log10(raw));
  const f = raw / p;
  const m = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
  return m * p;
}

export interface ChartBox {
  width: number;
  height: number;
  /** space for the axis labels */
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export const CHART_BOX: ChartBox = { width: 640, height: 240, left: 48, right: 12, top: 12, bottom: 28 };

export interface Scaled {
  /** the y domain, widened to whole ticks */
  min: number;
  max: number;
  yTicks: { value: number; y: number }[];
  xTicks: { game: number; x: number }[];
  x: (game: number) => number;
  y: (rating: number) => number;
  /** the line through every point */
  path: string;
  points: { x: number; y: number; p: Point }[];
}

/**
 * scale maps points to the box: games left to right, ratings bottom to
 * top. The y domain covers every rating and is rounded out to whole ticks,
 * at least 40 points tall, so a flat or one-game history is still drawn
 * in the middle rather than dividing by zero.
 */
export function scale(points: Point[], box: ChartBox = CHART_BOX): Scaled {
  const ratings = points.map((p) => p.rating);
  let lo = Math.min(...ratings);
  let hi = Math.max(...ratings);
  if (!isFinite(lo)) lo = hi = 1500;
  if (hi - lo < 40) {
    const mid = (hi + lo) / 2;
    lo = mid - 20;
    hi = mid + 20;
  }
  const step = niceStep(hi - lo, 4);
  const min = Math.floor(lo / step) * step;
  const max = Math.ceil(hi / step) * step;
  const games = Math.max(1, ...points.map((p) => p.game));
  const iw = box.width - box.left - box.right;
  const ih = box.height - box.top - box.bottom;
  const x = (g: number) => round(box.left + (g / games) * iw);
  const y = (r: number) => round(box.top + ((max - r) / (max - min)) * ih);
  const yTicks: Scaled['yTicks'] = [];
  for (let v = min; v <= max + step / 1e6; v += step) yTicks.push({ value: round(v), y: y(v) });
  const xStep = Math.max(1, Math.ceil(niceStep(games, 6)));
  const xTicks: Scaled['xTicks'] = [];
  for (let g = 0; g <= games; g += xStep) xTicks.push({ game: g, x: x(g) });
  const pts = points.map((p) => ({ x: x(p.game), y: y(p.rating), p }));
  const path = pts.map((p, i) => `${i ? 'L' : 'M'}${p.x} ${p.y}`).join('');
  return { min, max, yTicks, xTicks, x, y, path, points: pts };
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
