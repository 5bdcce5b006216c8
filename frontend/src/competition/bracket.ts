// Bracket layout: GET /tournaments/{id}/bracket (kind "bracket") drawn as
// columns of match boxes, one block per section (single elimination's main
// bracket; double elimination's winners, losers and grand final; the
// third-place match). Pure functions, so the geometry is unit-tested.
import type { BracketMatch, BracketRound, BracketSlot } from '../api/types';

export const SECTION_ORDER = ['main', 'winners', 'losers', 'final', 'third-place'];
export const SECTION_TITLES: Record<string, string> = {
  main: 'Bracket',
  winners: 'Winners bracket',
  losers: 'Losers bracket',
  final: 'Grand final',
  'third-place': 'Third place',
};

export interface Geometry {
  boxW: number; // a match box's width
  colGap: number; // the space between columns (the connectors run there)
  headH: number; // the box's title row
  slotH: number; // one slot
  footH: number; // the games row
  vGap: number; // the least space between two boxes of a column
}

export const GEOMETRY: Geometry = { boxW: 200, colGap: 40, headH: 26, slotH: 30, footH: 26, vGap: 16 };

export interface PlacedMatch {
  match: BracketMatch;
  /** "Semifinal 1", "Final", "Losers round 2 · 3" */
  title: string;
  col: number;
  x: number;
  /** the box's top edge */
  y: number;
  h: number;
}

export interface Connector {
  from: string;
  to: string;
  /** an SVG path from the right edge of `from` to the left edge of `to` */
  d: string;
}

export interface SectionLayout {
  id: string;
  title: string;
  columns: { name: string; x: number }[];
  matches: PlacedMatch[];
  connectors: Connector[];
  width: number;
  height: number;
}

function sectionOf(r: BracketRound): string {
  return r.section || 'main';
}

/**
 * matchTitles names every match for its box and for the slots fed by it:
 * the round's name, and the position when the round has several matches
 * ("Semifinal 2", "Winners R1 #2", "Losers round 3", "Final"): short
 * enough to read in a box, "Winner of Winners R1 #2".
 */
export function matchTitles(rounds: BracketRound[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of rounds) {
    // "Semifinals" → "Semifinal 2"; "Winners round 1" → "Winners R1 #2"
    const base = r.name.replace(/finals$/, 'final').replace(/\bround (\d+)$/i, 'R$1');
    const sep = /\d$/.test(base) ? ' #' : ' ';
    r.matches.forEach((m, i) => {
      out.set(m.id, r.matches.length > 1 ? `${base}${sep}${m.position || i + 1}` : r.name);
    });
  }
  return out;
}

/** slotLabel says who is in a slot, or where its entry will come from. */
export function slotLabel(slot: BracketSlot, titles: Map<string, string>): string {
  if (slot.entry) return slot.entry.name;
  const from = (id?: string) => (id ? titles.get(id) ?? id : '?');
  switch (slot.source) {
    case 'bye':
      return 'Bye';
    case 'seed':
      return `Seed ${slot.seed ?? '?'}`;
    case 'winner':
      return slot.empty ? 'Nobody (no winner)' : `Winner of ${from(slot.match)}`;
    case 'loser':
      return slot.empty ? 'Nobody (walkover)' : `Loser of ${from(slot.match)}`;
  }
  return slot.empty ? 'Nobody' : 'To be decided';
}

/** matchStatus is the short status shown on a match box. */
export function matchStatus(m: BracketMatch): string {
  const played = (m.games ?? []).length;
  switch (m.state) {
    case 'pending':
      return 'waiting';
    case 'ready':
      return played > 0 ? 'playing' : 'ready';
    case 'playing':
      return 'playing';
    case 'done':
    case 'finished':
      return 'done';
    case 'walkover':
      return 'walkover';
    case 'void':
      return 'void';
    case 'skipped':
      return 'not needed';
    case 'bye':
      return 'bye';
    case 'cancelled':
      return 'cancelled';
  }
  return m.state;
}

/** groupSections splits a bracket's rounds by section, in drawing order. */
export function groupSections(rounds: BracketRound[]): { id: string; rounds: BracketRound[] }[] {
  const by = new Map<string, BracketRound[]>();
  for (const r of rounds) {
    const s = sectionOf(r);
    if (!by.has(s)) by.set(s, []);
    by.get(s)!.push(r);
  }
  const ids = [...by.keys()].sort((a, b) => rank(a) - rank(b));
  return ids.map((id) => ({ id, rounds: [...by.get(id)!].sort((a, b) => a.number - b.number) }));
}

function rank(section: string): number {
  const i = SECTION_ORDER.indexOf(section);
  return i < 0 ? SECTION_ORDER.length : i;
}

/** boxHeight is a match box's height for its number of slots. */
export function boxHeight(slots: number, g: Geometry = GEOMETRY): number {
  return g.headH + slots * g.slotH + g.footH;
}

/**
 * layoutSection places one section's matches: round r is column r; the
 * first column is evenly spaced; a later match is centred on the matches
 * of its own section that feed it (so a final sits between its
 * semifinals), or evenly spaced when it has none there (a losers round fed
 * from the winners bracket); boxes of a column never overlap.
 */
export function layoutSection(id: string, rounds: BracketRound[], matchSize: number, titles: Map<string, string>, g: Geometry = GEOMETRY): SectionLayout {
  const slotsOf = (m: BracketMatch) => Math.max(m.slots?.length ?? 0, matchSize, 2);
  const h = Math.max(...rounds.flatMap((r) => r.matches.map((m) => boxHeight(slotsOf(m), g))), boxHeight(matchSize, g));
  const unit = h + g.vGap;
  const centre = new Map<string, number>();
  const col = new Map<string, number>();
  const placed: PlacedMatch[] = [];
  const columns: { name: string; x: number }[] = [];
  const inSection = new Set(rounds.flatMap((r) => r.matches.map((m) => m.id)));

  rounds.forEach((r, c) => {
    const x = c * (g.boxW + g.colGap);
    columns.push({ name: r.name, x });
    let prev = -Infinity;
    r.matches.forEach((m, i) => {
      const feeders = (m.slots ?? []).map((s) => s.match).filter((f): f is string => !!f && inSection.has(f) && centre.has(f));
      const uniq = [...new Set(feeders)];
      let y = uniq.length ? uniq.reduce((a, f) => a + centre.get(f)!, 0) / uniq.length : i * unit + unit / 2;
      y = Math.max(y, prev + unit);
      prev = y;
      centre.set(m.id, y);
      col.set(m.id, c);
      placed.push({ match: m, title: titles.get(m.id) ?? m.id, col: c, x, y: y - h / 2, h });
    });
  });

  const connectors: Connector[] = [];
  const seen = new Set<string>();
  for (const p of placed) {
    for (const s of p.match.slots ?? []) {
      const f = s.match;
      if (!f || !centre.has(f) || seen.has(f + '>' + p.match.id)) continue;
      seen.add(f + '>' + p.match.id);
      const x1 = col.get(f)! * (g.boxW + g.colGap) + g.boxW;
      const y1 = centre.get(f)!;
      const x2 = p.x;
      const y2 = centre.get(p.match.id)!;
      const mid = x2 - g.colGap / 2;
      connectors.push({ from: f, to: p.match.id, d: `M${x1} ${y1}H${mid}V${y2}H${x2}` });
    }
  }
  const height = placed.length ? Math.max(...placed.map((p) => p.y + p.h)) + g.vGap / 2 : 0;
  const width = rounds.length ? rounds.length * g.boxW + (rounds.length - 1) * g.colGap : 0;
  return { id, title: SECTION_TITLES[id] ?? id, columns, matches: placed, connectors, width, height };
}

/** layoutBracket lays out every section of a bracket. */
export function layoutBracket(rounds: BracketRound[], matchSize: number, g: Geometry = GEOMETRY): { sections: SectionLayout[]; titles: Map<string, string> } {
  const titles = matchTitles(rounds);
  const sections = groupSections(rounds).map((s) => layoutSection(s.id, s.rounds, matchSize, titles, g));
  return { sections, titles };
}

/**
 * finalMatch is the match that decides the title: the grand-final reset
 * when it was played, else the grand final, else the main bracket's last
 * match.
 */
export function finalMatch(rounds: BracketRound[]): BracketMatch | undefined {
  const all = rounds.flatMap((r) => r.matches.map((m) => ({ m, r })));
  const gf = all.filter((x) => sectionOf(x.r) === 'final' && x.m.state !== 'skipped').sort((a, b) => b.r.number - a.r.number);
  if (gf.length) return gf[0].m;
  const main = all.filter((x) => sectionOf(x.r) === 'main').sort((a, b) => b.r.number - a.r.number);
  return main[0]?.m;
}

/** entryNames maps entry IDs to names from every slot of the bracket. */
export function entryNames(rounds: BracketRound[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of rounds) for (const m of r.matches) for (const s of m.slots ?? []) if (s.entry) out.set(s.entry.id, s.entry.name);
  return out;
}

const FINISHED = new Set(['done', 'finished', 'walkover', 'void', 'skipped', 'bye']);

/**
 * gameLinks are the links of a match's games: the replays of the finished
 * ones and the live table of the one in play. A finished match has every
 * game finished; otherwise the games with a recorded winner (or draw) are
 * (the bracket view and GET …/rounds each know some of that: pass both).
 * A match of a cancelled tournament ("cancelled") has no game in play: the
 * cancel aborted the one being played, whose link (to its page, which says
 * so) reads "aborted", not "watch live".
 * mine: the viewer plays in the match, so its game in play is to play.
 */
export function gameLinks(
  m: { state?: string; status?: string; games: string[] | null; game_winners: string[] | null },
  also?: { game_winners?: string[] | null; status?: string },
  mine = false,
): { href: string; text: string; short: string; live: boolean }[] {
  const games = m.games ?? [];
  const over = FINISHED.has(m.state ?? '') || FINISHED.has(m.status ?? '') || also?.status === 'finished';
  const done = over ? games.length : Math.max((m.game_winners ?? []).length, (also?.game_winners ?? []).length);
  const cancelled = m.state === 'cancelled' || m.status === 'cancelled' || also?.status === 'cancelled';
  const many = games.length > 1;
  return games.map((id, i) => {
    if (cancelled && i >= done) {
      const short = many ? `G${i + 1} aborted` : 'aborted';
      return { href: `/games/${id}`, text: many ? `${short} (game ${i + 1})` : `Game: ${short}`, short, live: false };
    }
    const live = i >= done;
    // the viewer's own match: the game in play is theirs to play, not to watch
    const short = many ? `G${i + 1}${live ? (mine ? ' play' : ' live') : ''}` : live ? (mine ? 'play' : 'watch live') : 'replay';
    // the name holds the words shown ("G2 live"), so a speech user can say them (WCAG 2.5.3)
    const text = many ? `${short} (game ${i + 1}): ${live ? (mine ? 'play' : 'watch') : 'replay'}` : `Game: ${short}`;
    return { href: live ? `/games/${id}` : `/games/${id}/replay`, text, short, live };
  });
}

/** seedsOf maps entries to their bracket seeds (the "seed" slots of the first round). */
export function seedsOf(rounds: BracketRound[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of rounds) for (const m of r.matches) for (const s of m.slots ?? []) if (s.source === 'seed' && s.entry && s.seed) out.set(s.entry.id, s.seed);
  return out;
}

/** groupOf reads the group of a groups-stage match ("A-R1-1" is group A). */
export function groupOf(matchID: string): string {
  const m = /^([A-Z]{1,2})-R\d/.exec(matchID);
  return m ? m[1] : '';
}

/**
 * groupsOfEntries maps every entry of a group stage to its group, from its
 * matches there: a bye's ID ("R1-bye-…") names no group, its entry does.
 * known (the standings' groups) is taken first.
 */
export function groupsOfEntries(rounds: BracketRound[], known?: Map<string, string>): Map<string, string> {
  const out = new Map(known ?? []);
  for (const r of rounds)
    for (const m of r.matches) {
      const g = groupOf(m.id);
      if (g) for (const s of m.slots ?? []) if (s.entry && !out.has(s.entry.id)) out.set(s.entry.id, g);
    }
  return out;
}

/** matchGroup is the group of a group stage's match, a bye's being its entry's ('' when unknown). */
export function matchGroup(m: BracketMatch, entryGroups: Map<string, string>): string {
  const g = groupOf(m.id);
  if (g) return g;
  const entry = (m.slots ?? []).find((s) => s.entry)?.entry;
  return (entry && entryGroups.get(entry.id)) || '';
}
