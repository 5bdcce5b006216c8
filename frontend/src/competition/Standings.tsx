// Standings tables: a tournament's (points, then every tie-break with its
// value, as GET /tournaments/{id}/standings gives them) and a season's.
import type { ComponentChildren } from 'preact';
import type { SeasonTable, Standing } from '../api/types';

export const TIE_BREAK_NAMES: Record<string, string> = {
  buchholz: 'Buchholz',
  'median-buchholz': 'Median Buchholz',
  'sonneborn-berger': 'Sonneborn–Berger',
  'head-to-head': 'Head-to-head',
  wins: 'Wins',
  sequences: 'Sequences',
  titles: 'Titles',
  match_wins: 'Match wins',
};

export function tieBreakName(id: string): string {
  return TIE_BREAK_NAMES[id] ?? id.replace(/[-_]/g, ' ');
}

/** num shows whole numbers as they are and fractions to two places at most. */
export function num(v: number | undefined | null): string {
  if (v == null || !isFinite(v)) return '';
  if (Number.isInteger(v)) return String(v);
  return String(Math.round(v * 100) / 100);
}

/** tieBreakColumns lists the tie-breaks of a table, in the order they apply. */
export function tieBreakColumns(rows: Standing[]): string[] {
  const out: string[] = [];
  for (const r of rows) for (const t of r.tie_breaks ?? []) if (!out.includes(t.name)) out.push(t.name);
  return out;
}

/** A table that scrolls sideways on a narrow screen (and by keyboard). */
export function TableWrap({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/**
 * StandingsTable: one table of standings; label names it (a group's table
 * among several) for its region and caption.
 */
export function StandingsTable({ rows, elimination, highlight, game, label }: { rows: Standing[]; elimination?: boolean; highlight?: string; game?: string; label?: string }) {
  if (rows.length === 0) return <p class="muted">No standings yet.</p>;
  const tbs = tieBreakColumns(rows);
  // Knockouts rank by how far an entry went. Their matches are counted once
  // played (the server adds every bracket match to P, W, D, L, byes and
  // sequences), but they score no points: a knockout's Points column would
  // read 0 for every entry, the champion's included, so it has none.
  const stats = !elimination || rows.some((r) => r.played > 0);
  const points = !elimination;
  // Stacks makes no sequences: its column would be a row of zeros. A
  // Sequences tie-break that says the same as the column shows it already
  // (the table read the same number twice, one more column to scroll on a phone).
  const sequencesTieBreak = tbs.includes('sequences') && rows.every((r) => r.tie_breaks?.find((t) => t.name === 'sequences')?.value === r.sequences);
  const sequences = game !== 'stacks' && !sequencesTieBreak;
  return (
    <TableWrap label={label ?? 'Standings'}>
      <table class={stats ? 'data standings' : 'data standings narrow'}>
        <caption class="sr-only">
          {label ? `${label}: ` : ''}
          {elimination ? 'Places' : label ? 'ranked by points' : 'Ranked by points'}
          {tbs.length ? `, then ${tbs.map(tieBreakName).join(', ')}` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col" class="num">
              {elimination ? 'Place' : 'Rank'}
            </th>
            <th scope="col">Entry</th>
            {/* the column that ranks, next to the name: on a phone the table scrolls, and Points came ninth */}
            {stats && points && (
              <th scope="col" class="num">
                Points
              </th>
            )}
            {stats && (
              <>
                <th scope="col" class="num">
                  <abbr title="played">P</abbr>
                </th>
                <th scope="col" class="num">
                  <abbr title="won">W</abbr>
                </th>
                <th scope="col" class="num">
                  <abbr title="drawn">D</abbr>
                </th>
                <th scope="col" class="num">
                  <abbr title="lost">L</abbr>
                </th>
                <th scope="col" class="num">
                  Byes
                </th>
                {sequences && (
                  <th scope="col" class="num">
                    <abbr title="sequences">Seq.</abbr>
                  </th>
                )}
              </>
            )}
            {tbs.map((t) => (
              <th scope="col" class="num tb" key={t} data-tie-break={t}>
                {tieBreakName(t)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const values = new Map((r.tie_breaks ?? []).map((t) => [t.name, t.value]));
            return (
              <tr key={r.entry_id} class={[r.entry_id === highlight ? 'mine' : '', r.withdrawn ? 'withdrawn' : ''].filter(Boolean).join(' ') || undefined} data-entry={r.entry_id}>
                <td class="num">{r.rank}</td>
                <th scope="row">
                  {r.name}
                  {/* it keeps its place and results (they count in its opponents' tie-breaks), but plays no more */}
                  {r.withdrawn && (
                    <>
                      {' '}
                      <span class="tag status-withdrawn">withdrawn</span>
                    </>
                  )}
                  {/* the group's top places, a tie at the cut going to the better seed, which a shared rank does not show */}
                  {r.qualified && (
                    <>
                      {' '}
                      <span class="tag tag-won" title="reached the playoffs">
                        playoffs
                      </span>
                    </>
                  )}
                </th>
                {stats && points && <td class="num strong">{num(r.points)}</td>}
                {stats && (
                  <>
                    <td class="num">{r.played}</td>
                    <td class="num">{r.wins}</td>
                    <td class="num">{r.draws}</td>
                    <td class="num">{r.losses}</td>
                    <td class="num">{r.byes}</td>
                    {sequences && <td class="num">{r.sequences}</td>}
                  </>
                )}
                {tbs.map((t) => (
                  <td class="num" key={t}>
                    {num(values.get(t))}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}

/**
 * groupTables splits the standings of groups then playoffs by group, A
 * first, each ranked as its group's own table (group_rank): the server's
 * rank is the place in the whole tournament, the playoffs first, which
 * put a group's runner-up above another group's winner. A row shows its
 * group stage's matches (group_stage): the row's own count the playoffs
 * too, and beside the group's points a finalist read "P 4, Seq. 8" with a
 * Sequences tie-break of 4. Empty before the groups are drawn.
 */
export function groupTables(rows: Standing[]): { group: string; rows: Standing[] }[] {
  const by = new Map<string, Standing[]>();
  for (const r of rows) {
    if (!r.group) continue;
    if (!by.has(r.group)) by.set(r.group, []);
    by.get(r.group)!.push({ ...r, ...r.group_stage, rank: r.group_rank ?? r.rank });
  }
  return [...by.entries()]
    .sort(([a], [b]) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)) // A … Z, then AA
    .map(([group, rs]) => ({ group, rows: rs.sort((a, b) => a.rank - b.rank) }));
}

/**
 * FinalPlaces: the places of a finished groups-then-playoffs tournament,
 * the playoffs deciding the top ones and the group stage the rest (the
 * server's rank), which the season's points follow. The page showed only
 * the group tables and the bracket, and nothing said why two group
 * winners scored 7 and 5 points in the season.
 */
export function FinalPlaces({ rows, highlight }: { rows: Standing[]; highlight?: string }) {
  const placed = [...rows].sort((a, b) => a.rank - b.rank);
  return (
    <div class="final-places">
      <h3>Final places</h3>
      <TableWrap label="Final places">
        <table class="data standings narrow">
          <caption class="sr-only">Final places: the playoffs decide the top places, the group stage the rest</caption>
          <thead>
            <tr>
              <th scope="col" class="num">
                Place
              </th>
              <th scope="col">Entry</th>
            </tr>
          </thead>
          <tbody>
            {placed.map((r) => (
              <tr key={r.entry_id} class={r.entry_id === highlight ? 'mine' : undefined} data-entry={r.entry_id}>
                <td class="num">{r.rank}</td>
                <th scope="row">{r.name}</th>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </div>
  );
}

/** GroupStandings: a table per group; the playoffs are the bracket's. */
export function GroupStandings({ rows, highlight, game }: { rows: Standing[]; highlight?: string; game?: string }) {
  return (
    <>
      {groupTables(rows).map((g) => (
        <div key={g.group} class="group-standings" data-group={g.group}>
          <h3>Group {g.group}</h3>
          <StandingsTable rows={g.rows} highlight={highlight} game={game} label={`Group ${g.group}`} />
        </div>
      ))}
    </>
  );
}

export function SeasonStandings({ table }: { table: SeasonTable }) {
  if (table.rows.length === 0) return <p class="muted">No player has placement points yet: they come from the season's finished tournaments (bots do not count).</p>;
  const tbs = table.tie_breaks ?? [];
  return (
    <TableWrap label="Season table">
      <table class="data standings">
        <caption class="sr-only">Ranked by placement points{tbs.length ? `, then ${tbs.map(tieBreakName).join(', ')}` : ''}</caption>
        <thead>
          <tr>
            <th scope="col" class="num">
              Rank
            </th>
            <th scope="col">Player</th>
            <th scope="col" class="num">
              Points
            </th>
            <th scope="col" class="num">
              Tournaments
            </th>
            {tbs.map((t) => (
              <th scope="col" class="num tb" key={t} data-tie-break={t}>
                {tieBreakName(t)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((r) => (
            <tr key={r.user_id}>
              <td class="num">{r.rank}</td>
              <th scope="row">
                <a href={`/users/${r.user_id}`}>{r.username}</a>
              </th>
              <td class="num strong">{num(r.points)}</td>
              <td class="num">{r.tournaments}</td>
              {tbs.map((t) => (
                <td class="num" key={t}>
                  {num(r[t])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
