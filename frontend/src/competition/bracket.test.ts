import { describe, expect, it } from 'vitest';
import type { BracketRound, BracketView } from '../api/types';
import { boxHeight, finalMatch, gameLinks, GEOMETRY, groupOf, groupSections, layoutBracket, matchStatus, matchTitles, seedsOf, slotLabel } from './bracket';
import de from './testdata/de.json';
import se from './testdata/se.json';
import se3 from './testdata/se3.json';

// Fixtures are real GET /tournaments/{id}/bracket answers (4-entry single
// elimination, 6-entry double elimination with reset and byes, 9 entries
// in matches of three).
const seBracket = se.bracket as BracketView;
const deBracket = de.bracket as BracketView;
const se3Bracket = se3.bracket as BracketView;

const centre = (p: { y: number; h: number }) => p.y + p.h / 2;

describe('bracket layout', () => {
  it('draws a 4-entry knockout as two columns, the final between its semifinals', () => {
    const { sections } = layoutBracket(seBracket.rounds, 2);
    expect(sections.map((s) => s.id)).toEqual(['main']);
    const s = sections[0];
    expect(s.columns.map((c) => c.name)).toEqual(['Semifinals', 'Final']);
    const [a, b, fin] = s.matches;
    expect([a.col, b.col, fin.col]).toEqual([0, 0, 1]);
    expect(centre(fin)).toBe((centre(a) + centre(b)) / 2);
    expect(b.y).toBeGreaterThanOrEqual(a.y + a.h + GEOMETRY.vGap); // no overlap
    expect(fin.x).toBe(GEOMETRY.boxW + GEOMETRY.colGap);
    expect(s.width).toBe(2 * GEOMETRY.boxW + GEOMETRY.colGap);
    expect(s.height).toBeGreaterThanOrEqual(b.y + b.h);
    // a connector from each semifinal to the final, right edge to left edge
    expect(s.connectors.map((c) => `${c.from}>${c.to}`)).toEqual(['M1-1>M2-1', 'M1-2>M2-1']);
    expect(s.connectors[0].d).toBe(`M${GEOMETRY.boxW} ${centre(a)}H${fin.x - GEOMETRY.colGap / 2}V${centre(fin)}H${fin.x}`);
  });

  it('gives 3-team matches three slots and centres each on its three feeders', () => {
    const { sections } = layoutBracket(se3Bracket.rounds, 3);
    const s = sections[0];
    expect(s.matches[0].h).toBe(boxHeight(3));
    const first = s.matches.filter((m) => m.col === 0);
    const fin = s.matches.find((m) => m.col === 1)!;
    expect(first).toHaveLength(3);
    expect(fin.match.slots).toHaveLength(3);
    expect(centre(fin)).toBeCloseTo(centre(first[1]), 6);
    expect(s.connectors).toHaveLength(3);
  });

  it('splits double elimination into winners, losers and grand final, in that order', () => {
    const { sections, titles } = layoutBracket(deBracket.rounds, 2);
    expect(sections.map((s) => s.title)).toEqual(['Winners bracket', 'Losers bracket', 'Grand final']);
    const losers = sections[1];
    // Losers round 1 takes only losers of the winners bracket: no connector into it.
    expect(losers.connectors.some((c) => c.to.startsWith('L1-'))).toBe(false);
    // Losers round 2 takes the winner of a losers-round-1 match: level with it.
    const l11 = losers.matches.find((m) => m.match.id === 'L1-1')!;
    const l21 = losers.matches.find((m) => m.match.id === 'L2-1')!;
    expect(centre(l21)).toBe(centre(l11));
    // The reset is fed by the grand final (both slots): one connector.
    expect(sections[2].connectors.map((c) => `${c.from}>${c.to}`)).toEqual(['GF>GF2']);
    expect(titles.get('W1-2')).toBe('Winners R1 #2');
    expect(titles.get('L3-1')).toBe('Losers round 3');
    expect(titles.get('W3-1')).toBe('Winners final');
  });

  it('keeps the boxes of a column apart even when their feeders would stack them', () => {
    const rounds: BracketRound[] = [
      { section: 'main', number: 1, name: 'Round 1', matches: [mk('a', []), mk('b', [])] },
      // both fed by match a: the second is pushed below the first
      { section: 'main', number: 2, name: 'Round 2', matches: [mk('c', ['a']), mk('d', ['a'])] },
    ];
    const s = layoutBracket(rounds, 2).sections[0];
    const [, , c, d] = s.matches;
    expect(d.y - c.y).toBe(c.h + GEOMETRY.vGap);
  });

  it('orders sections whatever order the rounds come in', () => {
    const r = (section: string) => ({ section, number: 1, name: section, matches: [] });
    expect(groupSections([r('final'), r('third-place'), r('losers'), r('winners')]).map((s) => s.id)).toEqual(['winners', 'losers', 'final', 'third-place']);
  });
});

function mk(id: string, from: string[]) {
  return {
    id,
    round: 1,
    state: 'pending',
    slots: from.length ? from.map((m) => ({ source: 'winner', match: m, entry: null })) : [{ source: 'bye', entry: null }],
    game_winners: [],
    games: [],
  };
}

describe('slots, titles and links', () => {
  const titles = matchTitles(seBracket.rounds);

  it('names matches by their round, with the position when there are several', () => {
    expect(titles.get('M1-1')).toBe('Semifinal 1');
    expect(titles.get('M1-2')).toBe('Semifinal 2');
    expect(titles.get('M2-1')).toBe('Final');
  });

  it('labels slots whose entry is not known yet by where it comes from', () => {
    expect(slotLabel({ source: 'winner', match: 'M1-2', entry: null }, titles)).toBe('Winner of Semifinal 2');
    expect(slotLabel({ source: 'loser', match: 'M1-1', entry: null }, titles)).toBe('Loser of Semifinal 1');
    expect(slotLabel({ source: 'seed', seed: 3, entry: null }, titles)).toBe('Seed 3');
    expect(slotLabel({ source: 'bye', entry: null, empty: true }, titles)).toBe('Bye');
    expect(slotLabel({ source: 'loser', match: 'M1-1', entry: null, empty: true }, titles)).toBe('Nobody (walkover)');
    expect(slotLabel({ source: 'winner', match: 'M1-1', entry: { id: 'x', name: 'Ann', seed: 0 } }, titles)).toBe('Ann');
  });

  it('finds the title-deciding match and the seeds', () => {
    expect(finalMatch(seBracket.rounds)!.id).toBe('M2-1');
    // the reset was not needed: the grand final decided it
    expect(finalMatch(deBracket.rounds)!.id).toBe('GF');
    const played = structuredClone(deBracket.rounds);
    played.find((r) => r.name === 'Grand final reset')!.matches[0].state = 'done';
    expect(finalMatch(played)!.id).toBe('GF2');
    const seeds = seedsOf(seBracket.rounds);
    expect([...seeds.values()].sort()).toEqual([1, 2, 3, 4]);
    const fin = seBracket.rounds[1].matches[0];
    expect(seeds.get(fin.winner!)).toBeGreaterThan(0);
  });

  it('links finished games to their replay and the game in play to its table', () => {
    expect(gameLinks({ state: 'done', games: ['g1'], game_winners: [] })).toEqual([{ href: '/games/g1/replay', text: 'Game: replay', short: 'replay', live: false }]);
    expect(gameLinks({ state: 'ready', games: ['g1', 'g2'], game_winners: ['e1'] }).map((l) => l.short)).toEqual(['G1', 'G2 live']);
    // each name holds the words shown, at its start (label in name)
    expect(gameLinks({ state: 'ready', games: ['g1', 'g2'], game_winners: ['e1'] }).map((l) => l.text)).toEqual(['G1 (game 1): replay', 'G2 live (game 2): watch']);
    expect(gameLinks({ state: 'ready', games: ['g1'], game_winners: [] })[0].text).toBe('Game: watch live');
    // the viewer plays in the match: its game in play is to play
    expect(gameLinks({ state: 'ready', games: ['g1'], game_winners: [] }, undefined, true)[0]).toEqual({ href: '/games/g1', text: 'Game: play', short: 'play', live: true });
    expect(gameLinks({ state: 'ready', games: ['g1', 'g2'], game_winners: ['e1'] }, undefined, true).map((l) => l.text)).toEqual(['G1 (game 1): replay', 'G2 play (game 2): play']);
    expect(gameLinks({ state: 'ready', games: ['g1', 'g2'], game_winners: ['e1'] }).map((l) => l.href)).toEqual(['/games/g1/replay', '/games/g2']);
    // the bracket view may not know a series' game results yet; GET …/rounds does
    expect(gameLinks({ state: 'ready', games: ['g1', 'g2'], game_winners: [] }, { game_winners: ['e1'] })[0].live).toBe(false);
    expect(gameLinks({ state: 'ready', games: null, game_winners: null })).toEqual([]);
  });

  it("links a cancelled match's aborted game as aborted, never live", () => {
    expect(gameLinks({ state: 'cancelled', games: ['g1'], game_winners: [] })).toEqual([{ href: '/games/g1', text: 'Game: aborted', short: 'aborted', live: false }]);
    expect(gameLinks({ state: 'cancelled', games: ['g1'], game_winners: [] }, undefined, true)[0].live).toBe(false);
    // a series: the games played before the cancel keep their replays
    expect(gameLinks({ state: 'cancelled', games: ['g1', 'g2'], game_winners: ['e1'] }).map((l) => [l.short, l.text, l.href, l.live])).toEqual([
      ['G1', 'G1 (game 1): replay', '/games/g1/replay', false],
      ['G2 aborted', 'G2 aborted (game 2)', '/games/g2', false],
    ]);
    // GET …/rounds says cancelled where the bracket view is read alongside
    expect(gameLinks({ status: 'cancelled', games: ['g1'], game_winners: [] }).map((l) => l.live)).toEqual([false]);
    expect(gameLinks({ state: 'ready', games: ['g1'], game_winners: [] }, { status: 'cancelled' }).map((l) => l.short)).toEqual(['aborted']);
  });

  it('says where a match stands', () => {
    const m = (state: string, games: string[] = []) => ({ id: 'x', round: 1, state, slots: [], game_winners: [], games });
    expect(matchStatus(m('pending'))).toBe('waiting');
    expect(matchStatus(m('ready'))).toBe('ready');
    expect(matchStatus(m('ready', ['g']))).toBe('playing');
    expect(matchStatus(m('skipped'))).toBe('not needed');
    expect(matchStatus(m('cancelled', ['g']))).toBe('cancelled');
    expect(groupOf('B-R2-1')).toBe('B');
    expect(groupOf('R2-1')).toBe('');
    expect(groupOf('M1-1')).toBe('');
  });
});
