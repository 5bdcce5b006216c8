// A rated knockout, "No-shows: bots play for them": bob never opened his
// final, and the bot in his seat won it. The bracket and the standings said
// his entry won, his profile "abandoned" and a loss: the tournament page
// says the result was won with a stand-in bot, and what his rating made of it.
// The rounds mark the entries a fill-in bot stood in for (stand_ins): the
// page reads no game of its own (it read the latest 64 finished games).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Entry, Round } from '../api/types';
import TournamentPage from '../pages/Tournament';
import { calls, mount, resetCalls, settle, unmountAll, stub } from '../testing/stubApi';
import { tournamentRoutes } from '../testing/tournament';
import { standIns, standInText } from './StandIns';
import se from './testdata/se.json';

const entries: Entry[] = [
  { id: 'e-ann', name: 'ann', seed: 1, rating: 1500, status: 'active', members: [{ user: 'u-ann', username: 'ann' }] },
  { id: 'e-bob', name: 'bob', seed: 2, rating: 1500, status: 'active', members: [{ user: 'u-bob', username: 'bob' }] },
];
const bobStoodIn = [{ entry_id: 'e-bob', games: ['g1'], players: [{ user: 'u-bob', username: 'bob' }] }];
const final = (over: Partial<Round['matches'][number]> = {}): Round[] => [
  {
    number: 2, status: 'finished',
    matches: [{ id: 'F', entries: ['e-ann', 'e-bob'], bye: false, status: 'finished', winner: 'e-bob', game_winners: ['e-bob'], sequences: [0, 2], games: ['g1'], stand_ins: bobStoodIn, ...over }],
  },
];

beforeEach(() => {
  vi.restoreAllMocks();
  resetCalls();
});
afterEach(unmountAll);

describe('results a stand-in bot played', () => {
  it('lists the entries the rounds mark as played by a fill-in bot, and says the result stands and how it was rated', () => {
    const found = standIns(final(), entries);
    expect(found).toEqual([{ round: 2, match: 'F', entry: 'e-bob', entryName: 'bob', players: ['bob'], result: 'won', games: ['g1'] }]);
    expect(standInText(found[0], true)).toBe(
      "Round 2: bob won with a stand-in bot. A fill-in bot played bob's seat (bob did not play it out); the result stands in the tournament, and bob's rating counts the game as a loss.",
    );
    expect(standInText({ ...found[0], result: 'lost' }, false)).toBe(
      "Round 2: bob lost with a stand-in bot. A fill-in bot played bob's seat (bob did not play it out); the result stands in the tournament.",
    );
    // a forfeit is said by the round tables already; a match the players played, or one still being played, says nothing
    expect(standIns(final({ forfeited: ['e-bob'], winner: 'e-ann' }), entries)).toEqual([]);
    expect(standIns(final({ stand_ins: [] }), entries)).toEqual([]);
    expect(standIns(final({ status: 'playing', winner: undefined }), entries)).toEqual([]);
    // a match with no winner: a draw, but a loss for an entry below those level at the top
    expect(standIns(final({ winner: undefined }), entries)[0].result).toBe('drew');
    expect(standIns(final({ winner: undefined, beaten: ['e-bob'] }), entries)[0].result).toBe('lost');
  });

  it('finds them in every round of a long Swiss, past the 64 games the page used to read', () => {
    // 20 rounds of 4 matches (80 games); bob's stand-in is in round 1, the oldest
    const rounds: Round[] = Array.from({ length: 20 }, (_, i) => ({
      number: i + 1, status: 'finished',
      matches: Array.from({ length: 4 }, (_, j) => ({
        id: `m${i + 1}-${j}`, entries: j === 0 ? ['e-ann', 'e-bob'] : [`x${j}`, `y${j}`], bye: false, status: 'finished', winner: j === 0 ? 'e-ann' : `x${j}`,
        game_winners: [], sequences: [], games: [`g${i + 1}-${j}`], stand_ins: i === 0 && j === 0 ? [{ ...bobStoodIn[0], games: ['g1-0'] }] : [],
      })),
    }));
    expect(standIns(rounds, entries)).toEqual([{ round: 1, match: 'm1-0', entry: 'e-bob', entryName: 'bob', players: ['bob'], result: 'lost', games: ['g1-0'] }]);
  });

  it('are marked on the tournament page, which reads no game for them', async () => {
    const fx = structuredClone(se) as typeof se;
    const t = fx.tournament;
    const last = fx.rounds[fx.rounds.length - 1].matches[0] as Round['matches'][number];
    const [a, b] = last.entries;
    // the final's entries are ann's and bob's; bob's, the winner, was played by a stand-in bot
    fx.entries = fx.entries.map((e) => (e.id === a ? { ...e, name: 'ann', members: [{ user: 'u-ann', username: 'ann' }] } : e.id === b ? { ...e, name: 'bob', members: [{ user: 'u-bob', username: 'bob' }] } : e)) as never;
    last.winner = b;
    last.stand_ins = [{ entry_id: b, games: [last.games[0]], players: [{ user: 'u-bob', username: 'bob' }] }];
    stub(tournamentRoutes(fx));
    const root = mount(<TournamentPage id={t.id} />);
    await settle();
    await settle();
    const item = root.querySelector(`.stand-ins li[data-entry="${b}"]`)!;
    expect(item.textContent).toContain(`Round ${fx.rounds.length}: bob won with a stand-in bot.`);
    expect(item.textContent).toContain("bob's rating counts the game as a loss");
    expect(item.querySelector(`a[href="/games/${last.games[0]}/replay"]`)).not.toBeNull();
    expect(root.querySelectorAll('.stand-ins li')).toHaveLength(1);
    expect(calls.filter((c) => c.path.startsWith('/games/'))).toEqual([]);
  });
});
