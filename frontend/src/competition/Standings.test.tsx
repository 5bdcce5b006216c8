import { afterEach, describe, expect, it } from 'vitest';
import type { SeasonTable, Standing } from '../api/types';
import { num, SeasonStandings, StandingsTable, tieBreakColumns } from './Standings';
import swiss from './testdata/swiss.json';
import se from './testdata/se.json';
import { mount, unmountAll } from '../testing/stubApi';

afterEach(unmountAll);
const headers = (root: Element) => [...root.querySelectorAll('thead th')].map((th) => th.textContent);
const cells = (row: Element) => [...row.children].map((c) => c.textContent);

describe('the standings table', () => {
  it('shows points and every tie-break of a Swiss, in the order they apply', () => {
    const rows = swiss.standings as Standing[];
    const root = mount(<StandingsTable rows={rows} />);
    // Points beside the name: on a phone the table scrolls, and Points was the ninth column (the journey audit)
    expect(headers(root)).toEqual(['Rank', 'Entry', 'Points', 'P', 'W', 'D', 'L', 'Byes', 'Seq.', 'Buchholz', 'Median Buchholz', 'Sonneborn–Berger', 'Head-to-head', 'Wins']);
    const body = root.querySelectorAll('tbody tr');
    expect(body).toHaveLength(rows.length);
    const r0 = rows[0];
    const tb = Object.fromEntries(r0.tie_breaks.map((t) => [t.name, t.value]));
    expect(cells(body[0])).toEqual([
      String(r0.rank),
      r0.name,
      num(r0.points),
      String(r0.played),
      String(r0.wins),
      String(r0.draws),
      String(r0.losses),
      String(r0.byes),
      String(r0.sequences),
      num(tb.buchholz),
      num(tb['median-buchholz']),
      num(tb['sonneborn-berger']),
      num(tb['head-to-head']),
      num(tb.wins),
    ]);
    expect(root.querySelector('caption')!.textContent).toContain('then Buchholz, Median Buchholz');
  });

  it('shows sequences once when a Sequences tie-break says the same as the column (it read the same number twice)', () => {
    const row = (id: string, name: string, seq: number, sb?: number): Standing => ({
      rank: 1, entry_id: id, name, played: 2, wins: 1, draws: 0, losses: 1, byes: 0, sequences: seq, points: 1,
      tie_breaks: [{ name: 'sequences', value: sb ?? seq }],
    });
    let root = mount(<StandingsTable rows={[row('a', 'Ann', 3), row('b', 'Bob', 2)]} />);
    expect(headers(root)).toEqual(['Rank', 'Entry', 'Points', 'P', 'W', 'D', 'L', 'Byes', 'Sequences']);
    expect(cells(root.querySelector('tbody tr')!)).toEqual(['1', 'Ann', '1', '2', '1', '0', '1', '0', '3']);
    unmountAll();
    // where they differ (a group's table beside a whole event's tie-break), both stay
    root = mount(<StandingsTable rows={[row('a', 'Ann', 3, 5), row('b', 'Bob', 2)]} />);
    expect(headers(root)).toContain('Seq.');
  });

  it('says which entry withdrew, keeping its place', () => {
    // a withdrawn entry read like any other: nothing said it plays no more
    const rows: Standing[] = [
      { rank: 1, entry_id: 'a', name: 'Ann', played: 1, wins: 1, draws: 0, losses: 0, byes: 0, sequences: 2, points: 2, tie_breaks: [], withdrawn: true },
      { rank: 2, entry_id: 'b', name: 'Bob', played: 1, wins: 0, draws: 0, losses: 1, byes: 0, sequences: 1, points: 0, tie_breaks: [], withdrawn: false },
    ];
    const root = mount(<StandingsTable rows={rows} highlight="b" />);
    const [ann, bob] = root.querySelectorAll('tbody tr');
    expect(ann.querySelector('th')!.textContent).toBe('Ann withdrawn');
    expect(ann.className).toBe('withdrawn');
    expect(cells(ann)[0]).toBe('1');
    expect(bob.querySelector('th')!.textContent).toBe('Bob');
    expect(bob.className).toBe('mine');
  });

  it('lines up tie-break values by name, marks my entry and rounds fractions', () => {
    const rows: Standing[] = [
      { rank: 1, entry_id: 'a', name: 'Ann', played: 3, wins: 2, draws: 1, losses: 0, byes: 0, sequences: 5, points: 2.5, tie_breaks: [{ name: 'buchholz', value: 4.5 }, { name: 'wins', value: 2 }] },
      { rank: 1, entry_id: 'b', name: 'Bob', played: 3, wins: 2, draws: 1, losses: 0, byes: 0, sequences: 4, points: 2.5, tie_breaks: [{ name: 'wins', value: 2 }, { name: 'buchholz', value: 1 / 3 }] },
    ];
    expect(tieBreakColumns(rows)).toEqual(['buchholz', 'wins']);
    const root = mount(<StandingsTable rows={rows} highlight="b" />);
    const bob = root.querySelector('tr[data-entry=b]')!;
    expect(bob.className).toBe('mine');
    expect(cells(bob)[2]).toBe('2.5');
    expect(cells(bob).slice(-2)).toEqual(['0.33', '2']);
    expect(cells(root.querySelectorAll('tbody tr')[0])[0]).toBe('1'); // shared rank as given
  });

  it('shows a knockout as places only', () => {
    const root = mount(<StandingsTable rows={se.standings as Standing[]} elimination />);
    expect(headers(root)).toEqual(['Place', 'Entry']);
    expect([...root.querySelectorAll('tbody tr')].map((r) => cells(r)[0])).toEqual(['1', '2', '3', '3']);
  });

  it("counts a played knockout's matches but gives it no Points column (a knockout scores none: it read 0 for the champion)", () => {
    // a finished double elimination as the API serves it: bracket matches counted, points 0
    const rows: Standing[] = [
      { rank: 1, entry_id: 'c', name: 'Cleo', played: 4, wins: 3, draws: 0, losses: 1, byes: 0, sequences: 6, points: 0, tie_breaks: [] },
      { rank: 2, entry_id: 'f', name: 'Finn', played: 6, wins: 4, draws: 0, losses: 2, byes: 0, sequences: 8, points: 0, tie_breaks: [] },
    ];
    const root = mount(<StandingsTable rows={rows} elimination />);
    expect(headers(root)).toEqual(['Place', 'Entry', 'P', 'W', 'D', 'L', 'Byes', 'Seq.']);
    expect(cells(root.querySelector('tbody tr')!)).toEqual(['1', 'Cleo', '4', '3', '0', '1', '0', '6']);
  });

  it("leaves a Stacks tournament's Seq. column out: Stacks makes no sequences, and it read 0 on every row", () => {
    const rows: Standing[] = [
      { rank: 1, entry_id: 'a', name: 'Ann', played: 2, wins: 2, draws: 0, losses: 0, byes: 0, sequences: 0, points: 2, tie_breaks: [] },
      { rank: 2, entry_id: 'b', name: 'Bob', played: 2, wins: 0, draws: 0, losses: 2, byes: 0, sequences: 0, points: 0, tie_breaks: [] },
    ];
    const root = mount(<StandingsTable rows={rows} game="stacks" />);
    expect(headers(root)).toEqual(['Rank', 'Entry', 'Points', 'P', 'W', 'D', 'L', 'Byes']);
    expect(cells(root.querySelector('tbody tr')!)).toEqual(['1', 'Ann', '2', '2', '2', '0', '0', '0']);
    expect(headers(mount(<StandingsTable rows={rows} game="sequence" />))).toContain('Seq.');
  });

  it('says so when there is nothing to rank', () => {
    expect(mount(<StandingsTable rows={[]} />).textContent).toBe('No standings yet.');
  });
});

describe('the season table', () => {
  it('has a column per tie-break, in the order the API lists them', () => {
    const table: SeasonTable = {
      season: { id: 's', league_id: 'l', name: 'Spring', status: 'closed', created_at: '' },
      frozen: true,
      tie_breaks: ['titles', 'match_wins', 'sequences'],
      rows: [{ rank: 1, user_id: 'u1', username: 'ann', points: 17, tournaments: 2, titles: 1, match_wins: 5, sequences: 11 }],
    };
    const root = mount(<SeasonStandings table={table} />);
    expect(headers(root)).toEqual(['Rank', 'Player', 'Points', 'Tournaments', 'Titles', 'Match wins', 'Sequences']);
    expect(cells(root.querySelector('tbody tr')!)).toEqual(['1', 'ann', '17', '2', '1', '5', '11']);
    expect(root.querySelector('tbody a')!.getAttribute('href')).toBe('/users/u1');
  });
});
