// The profile's rating charts: one SVG line per pool from
// GET /users/{id}/ratings (before/after of every rated game, read page by
// page), with the numbers as a table for screen readers and keyboard users.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { POOLS, type PoolStanding, type UserRatings } from '../api/types';
import { ErrorBox, Loading, useLoad, when } from '../components/ui';
import { api } from '../session';
import { listPath, MAX_PAGES } from './pager';
import { counted } from '../components/plural';
import { CHART_BOX, scale, seriesByPool, type Point } from './chart';

/** useWidth follows an element's width (the chart draws at its real size, so its labels stay legible on a phone). */
function useWidth(fallback: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [w, setW] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => el.clientWidth > 0 && setW(Math.round(el.clientWidth));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, w] as const;
}

/**
 * Chart draws a pool's ratings, one point a rated game. The SVG is one image to a screen reader, named by
 * label (where the rating went) and described by its range and where the numbers are (PoolRatings' table):
 * its tick labels and the points' tooltips are not read.
 */
export function Chart({ points, label }: { points: Point[]; label: string }) {
  const [ref, width] = useWidth(CHART_BOX.width);
  const descId = useId();
  const ratings = points.map((p) => Math.round(p.rating));
  const description = `Lowest ${Math.min(...ratings)}, highest ${Math.max(...ratings)}; game by game in the table below, under “The numbers”.`;
  const box = { ...CHART_BOX, width: Math.max(260, width), height: width < 480 ? 200 : CHART_BOX.height };
  const s = scale(points, box);
  const last = s.points[s.points.length - 1];
  return (
    <div class="chart" ref={ref}>
      <svg width={box.width} height={box.height} viewBox={`0 0 ${box.width} ${box.height}`} role="img" aria-label={label} aria-describedby={descId} data-points={points.length}>
        <desc id={descId}>{description}</desc>
        <g class="grid">
          {s.yTicks.map((t) => (
            <g key={t.value}>
              <line x1={box.left} x2={box.width - box.right} y1={t.y} y2={t.y} />
              <text x={box.left - 6} y={t.y} dy="0.32em" text-anchor="end">
                {t.value}
              </text>
            </g>
          ))}
          {s.xTicks.map((t) => (
            <text key={t.game} x={t.x} y={box.height - 8} text-anchor="middle">
              {t.game}
            </text>
          ))}
        </g>
        <path class="line" d={s.path} />
        {s.points.map((p) => (
          <circle key={p.p.game} class={p === last ? 'dot last' : 'dot'} cx={p.x} cy={p.y} r={p === last ? 4.5 : 2.5}>
            <title>
              {p.p.game === 0 ? `Start: ${Math.round(p.p.rating)}` : `Game ${p.p.game}: ${Math.round(p.p.rating)} (${when(p.p.at)})`}
            </title>
          </circle>
        ))}
      </svg>
      <p class="chart-axis muted small" aria-hidden="true">
        rated games →
      </p>
    </div>
  );
}

/**
 * Standing says a pool's record, "12 W · 7 L · 1 D" (read as "12 wins, 7 losses, 1 draw"), and the player's
 * place on the pool's leaderboard, linked to the board's page that shows the player (?around=); nothing of the
 * place when the board leaves the player out.
 */
export function Standing({ pool, state, userId }: { pool: string; state: PoolStanding; userId: string }) {
  if (state.wins == null) return null; // an answer without the record
  return (
    <p class="pool-standing small">
      <span aria-hidden="true">
        {state.wins} W · {state.losses} L · {state.draws} D
      </span>
      <span class="sr-only">
        {counted(state.wins, 'win')}, {counted(state.losses, 'loss', 'losses')}, {counted(state.draws, 'draw')}
      </span>
      {state.rank != null && (
        <>
          {' · '}
          <a href={`/leaderboards/${encodeURIComponent(pool)}?around=${encodeURIComponent(userId)}`}>#{state.rank} on the leaderboard</a>
        </>
      )}
    </p>
  );
}

function PoolRatings({ id, name, state, points, userId }: { id: string; name: string; state?: PoolStanding; points?: Point[]; userId: string }) {
  const summary = points
    ? `Rating in ${name}: from ${Math.round(points[0].rating)} to ${Math.round(points[points.length - 1].rating)} over ${points.length - 1} rated game${points.length === 2 ? '' : 's'}`
    : `Rating in ${name}`;
  return (
    <section class="pool-ratings" aria-label={name}>
      <h3>
        {name}{' '}
        {state && (
          <span class="rating" title={state.provisional ? 'provisional: fewer than 30 rated games' : undefined}>
            {state.display}
          </span>
        )}
      </h3>
      {state && (
        <p class="muted small">
          {counted(state.games, 'rated game')} · peak {Math.round(state.peak)}
          {state.provisional && ' · provisional (“?”) until 30 games'}
        </p>
      )}
      {state && <Standing pool={id} state={state} userId={userId} />}
      {points && points.length > 1 ? (
        <>
          <Chart points={points} label={summary} />
          <details>
            <summary>The numbers</summary>
            <table class="data compact">
              <thead>
                <tr>
                  <th scope="col" class="num">
                    Game
                  </th>
                  <th scope="col">When</th>
                  <th scope="col" class="num">
                    Rating
                  </th>
                  <th scope="col" class="num">
                    Change
                  </th>
                </tr>
              </thead>
              <tbody>
                {points.slice(1).map((p, i) => {
                  const d = p.rating - points[i].rating;
                  return (
                    <tr key={p.game}>
                      <td class="num">{p.game_id ? <a href={`/games/${p.game_id}/replay`} aria-label={`Replay of rated game ${p.game}`}>{p.game}</a> : p.game}</td>
                      <td>{when(p.at)}</td>
                      <td class="num">{Math.round(p.rating)}</td>
                      <td class="num">{(d >= 0 ? '+' : '−') + Math.abs(d).toFixed(1)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </details>
        </>
      ) : state?.games ? (
        <p class="muted">No rating history recorded in this pool yet.</p>
      ) : (
        <p class="muted">No rated games in this pool yet.</p>
      )}
    </section>
  );
}

/**
 * fetchRatings reads a player's ratings and their whole history: the API
 * pages the history newest first, and a chart needs every game, so it
 * follows next_cursor (at most MAX_PAGES pages) and hands back the history
 * oldest first.
 */
export async function fetchRatings(userId: string): Promise<UserRatings> {
  const path = `/users/${encodeURIComponent(userId)}/ratings`;
  const first = await api.get<UserRatings>(listPath(path, '', 100));
  const history = [...(first.history ?? [])];
  let cursor = first.next_cursor ?? '';
  for (let i = 1; cursor && i < MAX_PAGES; i++) {
    const page = await api.get<UserRatings>(listPath(path, cursor, 100));
    history.push(...(page.history ?? []));
    cursor = page.next_cursor ?? '';
  }
  return { ...first, history: history.reverse(), next_cursor: '' };
}

export function RatingCharts({ userId }: { userId: string }) {
  const r = useLoad(() => fetchRatings(userId), [userId]);
  if (r.error) return <ErrorBox error={r.error} />;
  if (!r.data) return <Loading what="Loading the ratings" />;
  const series = seriesByPool(r.data.history ?? []);
  const states = new Map((r.data.pools ?? []).map((p) => [p.pool, p]));
  const shown = POOLS.filter((p) => states.has(p.id) || series.has(p.id));
  if (shown.length === 0) return <p class="muted">No rated games yet: everyone starts at 1500.</p>;
  return (
    <div class="pools">
      {shown.map((p) => (
        <PoolRatings key={p.id} id={p.id} name={p.name} state={states.get(p.id)} points={series.get(p.id)} userId={userId} />
      ))}
    </div>
  );
}
