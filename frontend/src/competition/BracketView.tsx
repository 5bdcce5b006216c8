// Drawing GET /tournaments/{id}/bracket: kind "bracket" as columns of
// match boxes joined by connectors (bracket.ts does the geometry), kind
// "rounds" as one table of matches per round; groups-then-playoffs has both.
import type { BracketMatch, BracketRound, BracketView, Round, RoundMatch } from '../api/types';
import { when } from '../components/ui';
import { isElimination } from './tournamentForm';
import { entryNames, finalMatch, GEOMETRY, gameLinks, groupOf, groupsOfEntries, layoutBracket, matchGroup, matchStatus, seedsOf, slotLabel } from './bracket';

const HEAD_ROW = 30; // the column titles above the boxes
/**
 * STRETCH: how much wider than GEOMETRY a section may be drawn. A section
 * takes the width there is, its columns (boxes and the gaps between them)
 * widening in proportion, up to this: at 1280 px an 8-entry bracket kept
 * its 200 px boxes in a 1,100 px page and cut "Winner of Quarterfinal 2"
 * to "Winner of Quarterfi…". Narrower than GEOMETRY (a phone) it scrolls
 * sideways in its region as before.
 */
export const STRETCH = 1.8;

/** pct is a length of a section's geometry as a share of its width, for a canvas that stretches. */
const pct = (v: number, width: number) => `${+((v / (width || 1)) * 100).toFixed(4)}%`;

/** playsIn: the viewer's entry (mine, its id) is in the match. */
function playsIn(m: BracketMatch, mine?: string): boolean {
  return !!mine && (m.slots ?? []).some((s) => s.entry?.id === mine);
}

function GameLinks({ m, title, rm, mine }: { m: BracketMatch; title: string; rm?: RoundMatch; mine?: string }) {
  const links = gameLinks(m, rm, playsIn(m, mine));
  if (!links.length) return null;
  return (
    <>
      {links.map((l) => (
        <a key={l.href} href={l.href} class={l.live ? 'game-link live' : 'game-link'} aria-label={`${title}: ${l.text}`}>
          {l.live ? '● ' : ''}
          {l.short}
        </a>
      ))}
    </>
  );
}

function MatchBox(props: {
  m: BracketMatch;
  rm?: RoundMatch;
  title: string;
  titles: Map<string, string>;
  seeds: Map<string, number>;
  champion?: string;
  final: boolean;
  style: Record<string, string>;
  mine?: string;
}) {
  const { m, title, titles, seeds, champion, final, style } = props;
  const status = matchStatus(m);
  return (
    <article class={`match-box state-${m.state}`} style={style} aria-label={`${title}, ${status}`} data-match={m.id} data-state={m.state}>
      <header>
        <span class="match-title">{title}</span>
        <span class={`match-state ms-${status.replace(/\s/g, '-')}`}>{status}</span>
      </header>
      <ol class="slots">
        {(m.slots ?? []).map((s, i) => {
          const won = !!m.winner && s.entry?.id === m.winner;
          const lost = !!m.winner && !!s.entry && !won && (m.state === 'done' || m.state === 'walkover');
          const champ = final && !!champion && s.entry?.id === champion;
          // found absent: its loss was no game played, which the box must not read as one
          const forfeited = !!s.entry && !!props.rm?.forfeited?.includes(s.entry.id);
          // a fill-in bot played for its player, who is rated as having lost: the result is the entry's, the play was not
          const stoodIn = !!s.entry && !forfeited && !!props.rm?.stand_ins?.some((x) => x.entry_id === s.entry!.id);
          const label = slotLabel(s, titles);
          const seed = s.entry ? seeds.get(s.entry.id) || s.entry.seed : 0;
          const cls = ['slot', s.entry ? 'known' : 'tbd', won ? 'won' : '', lost ? 'lost' : '', champ ? 'champion' : '', s.empty || s.source === 'bye' ? 'empty' : '']
            .filter(Boolean)
            .join(' ');
          const from = s.entry && (s.source === 'winner' || s.source === 'loser') && s.match ? `${s.source === 'winner' ? 'Winner' : 'Loser'} of ${titles.get(s.match) ?? s.match}` : undefined;
          return (
            <li key={i} class={cls} title={from ? `${label} (${from})` : label} data-entry={s.entry?.id}>
              {seed ? (
                <span class="seed">
                  <span class="sr-only">seed </span>
                  {seed}
                </span>
              ) : (
                <span class="seed" aria-hidden="true" />
              )}
              <span class="name">{label}</span>
              {forfeited && <span class="slot-tag">forfeited</span>}
              {stoodIn && (
                <span class="slot-tag" title="a fill-in bot played for this entry’s player">
                  bot stood in
                </span>
              )}
              {won && (
                <span class="mark">
                  <span aria-hidden="true">{champ ? '★' : '✓'}</span>
                  <span class="sr-only">{champ ? ', champion' : ', winner'}</span>
                </span>
              )}
            </li>
          );
        })}
      </ol>
      <footer>
        <GameLinks m={m} title={title} rm={props.rm} mine={props.mine} />
      </footer>
    </article>
  );
}

export function BracketDiagram(props: { rounds: BracketRound[]; matchSize: number; champion?: string; label?: string; schedule?: Round[]; mine?: string }) {
  const { rounds, matchSize, champion, label } = props;
  const g = GEOMETRY;
  const { sections, titles } = layoutBracket(rounds, matchSize, g);
  const fin = finalMatch(rounds);
  const seeds = seedsOf(rounds);
  const played = new Map((props.schedule ?? []).flatMap((r) => (r.matches ?? []).map((m) => [m.id, m] as const)));
  return (
    <div class="bracket">
      {sections.map((s) => (
        <section key={s.id} class={`bracket-section section-${s.id}`} aria-labelledby={`bs-${s.id}`}>
          <h3 id={`bs-${s.id}`} class={sections.length === 1 ? 'sr-only' : undefined}>
            {label ? `${label}: ` : ''}
            {s.title}
          </h3>
          <div class="bracket-scroll" role="region" aria-label={`${s.title} (scrolls sideways)`} tabIndex={0}>
            <div
              class="bracket-canvas"
              style={{ minWidth: `${s.width}px`, maxWidth: `${Math.round(s.width * STRETCH)}px`, height: `${s.height + HEAD_ROW}px` }}
            >
              {s.columns.map((c) => (
                <div key={c.x} class="bracket-col-head" style={{ left: pct(c.x, s.width), width: pct(g.boxW, s.width) }} aria-hidden="true">
                  {c.name}
                </div>
              ))}
              {/* stretched sideways with the canvas, its lines as thick (styles.css: non-scaling-stroke) */}
              <svg
                class="connectors"
                width="100%"
                height={s.height + HEAD_ROW}
                viewBox={`0 0 ${s.width || 1} ${s.height + HEAD_ROW}`}
                preserveAspectRatio="none"
                aria-hidden="true"
              >
                <g transform={`translate(0 ${HEAD_ROW})`}>
                  {s.connectors.map((c) => (
                    <path key={c.from + c.to} d={c.d} />
                  ))}
                </g>
              </svg>
              {s.matches.map((p) => (
                <MatchBox
                  key={p.match.id}
                  m={p.match}
                  rm={played.get(p.match.id)}
                  title={p.title}
                  titles={titles}
                  seeds={seeds}
                  champion={champion}
                  final={p.match.id === fin?.id}
                  mine={props.mine}
                  style={{ left: pct(p.x, s.width), top: `${p.y + HEAD_ROW}px`, width: pct(g.boxW, s.width), height: `${p.h}px` }}
                />
              ))}
            </div>
          </div>
        </section>
      ))}
    </div>
  );
}

/** The rounds of a round-based format (Swiss, round robin, a group stage), a table each. */
export function RoundsTables({ rounds, schedule, mine, entryGroups }: { rounds: BracketRound[]; schedule: Round[]; mine?: string; entryGroups?: Map<string, string> }) {
  if (rounds.length === 0) return <p class="muted">No round has been paired yet.</p>;
  const byNumber = new Map(schedule.map((r) => [r.number, r]));
  const seqs = new Map(schedule.flatMap((r) => r.matches.map((m) => [m.id, m] as const)));
  // a bye's row names its entry's group: its ID ("R1-bye-…") names none, and its cell was empty, sorted before A
  const groupsOf = groupsOfEntries(rounds, entryGroups);
  const group = (m: BracketMatch) => matchGroup(m, groupsOf);
  return (
    <div class="rounds">
      {rounds.map((r) => {
        const info = byNumber.get(r.number);
        const groups = r.matches.some((m) => groupOf(m.id));
        const names = entryNames([r]);
        const matches = [...r.matches].sort((a, b) => group(a).localeCompare(group(b)));
        return (
          <section key={r.number} class="round-block" aria-labelledby={`round-${r.number}`}>
            <h3 id={`round-${r.number}`}>
              {r.name} {info && <span class={`tag status-${info.status}`}>{info.status}</span>}{' '}
              {info?.starts_at && <span class="muted small">{when(info.starts_at)}</span>}
            </h3>
            {/* a round scheduled but not yet paired: a table of headers and no rows read as a broken table */}
            {matches.length === 0 ? (
              <p class="muted">Not paired yet.</p>
            ) : (
              <div class="table-wrap" role="region" aria-label={`${r.name} matches`} tabIndex={0}>
                <table class="data matches">
                  <thead>
                    <tr>
                      {groups && <th scope="col">Group</th>}
                      <th scope="col">Match</th>
                      <th scope="col">Result</th>
                      <th scope="col">Games</th>
                    </tr>
                  </thead>
                  <tbody>
                    {matches.map((m) => {
                      const rm = seqs.get(m.id);
                      const status = matchStatus(m);
                      const entries = (m.slots ?? []).map((s) => s.entry).filter((e): e is NonNullable<typeof e> => !!e);
                      let result: string = status;
                      if (m.state === 'bye') result = 'bye';
                      else if (m.winner) result = `${names.get(m.winner) ?? '?'} won`;
                      // a match of three drawn at the top: those below it lost
                      else if (status === 'done') result = m.beaten?.length ? `drawn; ${m.beaten.map((id) => names.get(id) ?? '?').join(', ')} lost` : 'drawn';
                      // entries found absent forfeited the rest of the series: say so, or a win read as played
                      const absent = (rm?.forfeited ?? []).map((id) => names.get(id) ?? '?');
                      if (absent.length) result += ` (${absent.join(', ')} forfeited)`;
                      const score = rm && rm.sequences?.length === entries.length && !m.state.includes('bye') && rm.sequences.some((x) => x > 0) ? ` (sequences ${rm.sequences.join('–')})` : '';
                      return (
                        <tr key={m.id} data-match={m.id} data-state={m.state} class={playsIn(m, mine) ? 'mine' : undefined}>
                          {groups && <td>{group(m)}</td>}
                          <th scope="row" class="match-entries">
                            {entries.map((e, i) => (
                              <span key={e.id}>
                                {i > 0 && <span class="muted"> v </span>}
                                <span class={m.winner === e.id ? 'won' : undefined}>
                                  {e.name}
                                  {m.winner === e.id && (
                                    <>
                                      <span aria-hidden="true"> ✓</span>
                                      <span class="sr-only"> (winner)</span>
                                    </>
                                  )}
                                </span>
                              </span>
                            ))}
                            {entries.length === 0 && <span class="muted">—</span>}
                          </th>
                          <td>
                            {result}
                            {score}
                          </td>
                          <td class="links">
                            <GameLinks m={m} rm={rm} mine={mine} title={`${r.name}, ${entries.map((e) => e.name).join(' v ')}`} />
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        );
      })}
    </div>
  );
}

/** The whole drawing of a tournament, whatever its format; mine is the viewer's entry, if any. */
export function TournamentDrawing({ view, schedule, mine, entryGroups }: { view: BracketView; schedule: Round[]; mine?: string; entryGroups?: Map<string, string> }) {
  const names = entryNames([...(view.rounds ?? []), ...(view.playoffs ?? [])]);
  const champion = view.champion;
  return (
    <div class="drawing">
      {champion && (
        <p class="champion-banner">
          <span aria-hidden="true">★</span> Champion: <strong>{names.get(champion) ?? 'decided'}</strong>
        </p>
      )}
      {view.kind === 'bracket' ? (
        view.rounds.length ? (
          <BracketDiagram rounds={view.rounds} matchSize={view.match_size} champion={champion} schedule={schedule} mine={mine} />
        ) : (
          <p class="muted">The bracket is drawn when the tournament starts.</p>
        )
      ) : (
        <>
          {view.format === 'groups-playoffs' && <h3 class="stage">Group stage</h3>}
          {view.rounds.length || !isElimination(view.format) ? (
            <RoundsTables rounds={view.rounds} schedule={schedule} mine={mine} entryGroups={entryGroups} />
          ) : (
            <p class="muted">The bracket is drawn when the tournament starts.</p>
          )}
          {view.playoffs && view.playoffs.length > 0 && (
            <>
              <h3 class="stage">Playoffs</h3>
              <BracketDiagram rounds={view.playoffs} matchSize={view.match_size} champion={champion} label="Playoffs" schedule={schedule} mine={mine} />
            </>
          )}
        </>
      )}
    </div>
  );
}
