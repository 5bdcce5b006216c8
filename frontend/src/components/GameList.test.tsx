import { describe, expect, it } from 'vitest';
import type { Game } from '../api/types';
import { gameName, outcome, outcomeDetail, versus, yourMove } from './GameList';

const game = (over: Partial<Game>, abandoned: boolean): Game => ({
  id: 'g', game: 'sequence', players: 2, teams: 2, status: 'finished', rated: true, clock: {}, created_at: '', seed_hash: '', ply: 40,
  result: { status: 'finished', winner: 0 },
  seats: [
    { seat: 0, team: 0, user: { id: 'u1', username: 'ann' }, bot: abandoned ? 'greedy' : undefined, open: false, filled_by_bot: abandoned, abandoned },
    { seat: 1, team: 1, user: { id: 'u2', username: 'bob' }, open: false, filled_by_bot: false, abandoned: false },
  ],
  ...over,
});

describe('"My games" outcome', () => {
  it('is "abandoned", never "won", for a person whose seat a fill-in bot took over', () => {
    expect(outcome(game({}, false), 'u1')).toBe('won');
    expect(outcome(game({}, true), 'u1')).toBe('abandoned');
    expect(outcome(game({ game: 'stacks' }, true), 'u1')).toBe('abandoned');
    expect(outcome(game({ status: 'active', result: undefined }, true), 'u1')).toBe('abandoned');
    expect(outcome(game({ rated: false }, true), 'u2')).toBe('lost');
  });
});

// bob never opened his game: the bot in his seat won it, the replay and the
// bracket said he won, and his profile said "abandoned" and "0 W · 2 L" with
// no word of why. The line says the board's result and the rating's.
describe('"My games" line of a game a fill-in bot played for a player who left', () => {
  it("says the board's result, that a bot played the seat, and that the rating counts a loss", () => {
    expect(outcomeDetail(game({}, true), 'u1', true)).toBe('a bot played your seat and won; rated a loss');
    expect(outcomeDetail(game({ result: { status: 'finished', winner: 1 } }, true), 'u1', true)).toBe('a bot played your seat and lost; rated a loss');
    expect(outcomeDetail(game({ result: { status: 'drawn', winner: null } }, true), 'u1')).toBe('a bot played their seat and drew; rated a loss');
    expect(outcomeDetail(game({ rated: false }, true), 'u1', true)).toBe('a bot played your seat and won');
    expect(outcomeDetail(game({ status: 'active', result: undefined }, true), 'u1', true)).toBe('a bot plays your seat now; rated a loss');
    expect(outcomeDetail(game({}, false), 'u1', true)).toBe('');
  });
  it('says a game every side left is rated a draw', () => {
    const g = game({}, true);
    g.seats[1] = { ...g.seats[1], bot: 'greedy', filled_by_bot: true, abandoned: true };
    expect(outcomeDetail(g, 'u1', true)).toBe('a bot played your seat and won; rated a draw (every side left)');
  });
  it("says to the one who stayed that the opponent left and is rated a win, whatever the bot made of the board", () => {
    expect(outcomeDetail(game({}, true), 'u2', true)).toBe('your opponent left; a bot played for them, and it won; rated a win');
    expect(outcomeDetail(game({ result: { status: 'finished', winner: 1 } }, true), 'u2')).toBe('their opponent left; a bot played for them; rated a win');
  });
  it('tags a rated game whose opponent left "rated win", not "lost", whatever the bot made of the board', async () => {
    // the one who stayed read a red "lost" beside "rated a win"
    expect(outcome(game({}, true), 'u2')).toBe('rated win');
    expect(outcome(game({ result: { status: 'drawn', winner: null } }, true), 'u2')).toBe('rated win');
    expect(outcome(game({ result: { status: 'finished', winner: 1 } }, true), 'u2')).toBe('won');
    expect(outcome(game({ rated: false }, true), 'u2')).toBe('lost');
    const { render } = await import('preact');
    const { GameList } = await import('./GameList');
    const root = document.createElement('div');
    render(<GameList games={[game({}, true)]} me="u2" self empty="" />, root);
    expect(root.querySelector('.tag')!.textContent).toBe('rated win');
    expect(root.querySelector('.tag')!.classList.contains('tag-won')).toBe(true);
  });
  it('is shown after the tag in the list', async () => {
    const { render } = await import('preact');
    const { GameList } = await import('./GameList');
    const root = document.createElement('div');
    render(<GameList games={[game({}, true)]} me="u1" self empty="" />, root);
    expect(root.querySelector('li')!.textContent).toContain('abandoned — a bot played your seat and won; rated a loss');
    expect(root.querySelector('.tag')!.textContent).toBe('abandoned');
  });
});

describe('"My games" outcome of a table nobody joined', () => {
  it('is "lapsed" for one the server cancelled, "aborted" for one its creator did', () => {
    const waited = { status: 'aborted', result: undefined, ply: 0 };
    expect(outcome(game({ ...waited, ended_by: 'lapse' }, false), 'u1')).toBe('lapsed');
    expect(outcome(game({ ...waited, ended_by: 'abort' }, false), 'u1')).toBe('aborted');
  });
});

describe('"My games" table line', () => {
  const seat = (i: number, team: number, name: string) => ({ seat: i, team, user: { id: 'u-' + name, username: name }, open: false, filled_by_bot: false, abandoned: false });
  const twoVtwo = game({ players: 4, teams: 2, seats: [seat(0, 0, 'ann'), seat(1, 1, 'bob'), seat(2, 0, 'carol'), seat(3, 1, 'dave')] }, false);

  it('names the teammates apart from the opponents', () => {
    expect(versus(twoVtwo, 'u-ann')).toBe('with carol vs bob, dave');
    expect(versus(twoVtwo, 'u-bob')).toBe('with dave vs ann, carol');
  });

  it('names each opposing team apart in a 3-team game', () => {
    // the line read "with dave vs bob, carol, erin, finn": which of them played together, it did not say
    const threeTeams = game({ players: 6, teams: 3, seats: ['ann', 'bob', 'carol', 'dave', 'erin', 'finn'].map((n, i) => seat(i, i % 3, n)) }, false);
    expect(versus(threeTeams, 'u-ann')).toBe('with dave vs bob, erin vs carol, finn');
    expect(versus(threeTeams, 'u-carol')).toBe('with finn vs ann, dave vs bob, erin');
    expect(versus(threeTeams, 'u-zed')).toBe('vs ann, bob, carol, dave, erin, finn');
  });

  it('names only opponents in a game without teammates, and everyone for an onlooker', () => {
    expect(versus(game({}, false), 'u1')).toBe('vs bob');
    expect(versus({ ...twoVtwo, game: 'stacks', teams: 4 }, 'u-ann')).toBe('vs bob, carol, dave');
    expect(versus(twoVtwo, 'u-zed')).toBe('vs ann, bob, carol, dave');
  });

  it('says whom an open seat is kept for (a table made for a friend)', () => {
    const waiting = game({ status: 'open', result: undefined }, false);
    waiting.seats[1] = { seat: 1, team: 1, user: null, open: true, kept_for: { id: 'u2', username: 'bob' }, filled_by_bot: false, abandoned: false };
    expect(versus(waiting, 'u1')).toBe('vs open seat kept for bob');
    waiting.seats[1] = { ...waiting.seats[1], kept_for: undefined };
    expect(versus(waiting, 'u1')).toBe('vs open seat');
  });
});

describe('"My games" your move', () => {
  const active = (turn: number | null | undefined, abandoned = false) => game({ status: 'active', result: undefined, turn_seat: turn }, abandoned);

  it('is the turn of my own seat in a game being played', () => {
    expect(yourMove(active(0), 'u1')).toBe(true);
    expect(yourMove(active(1), 'u1')).toBe(false);
    expect(yourMove(active(1), 'u2')).toBe(true);
  });

  it('is never a seat a bot took over, a game not being played, or an unknown turn', () => {
    expect(yourMove(active(0, true), 'u1')).toBe(false);
    expect(yourMove(game({ turn_seat: 0 }, false), 'u1')).toBe(false); // finished
    expect(yourMove(active(null), 'u1')).toBe(false);
    expect(yourMove(active(undefined), 'u1')).toBe(false);
    expect(yourMove(active(0), undefined)).toBe(false);
  });
});

describe('a game named in a list', () => {
  it('says the bordered variant, as the game page heading does', () => {
    // a bordered table was "Sequence · 2 players" in the lobby, My games and invitations, as a classic one
    expect(gameName({ game: 'sequence', variant: 'bordered' })).toBe('Sequence (bordered)');
    expect(gameName({ game: 'sequence', variant: 'classic' })).toBe('Sequence');
    expect(gameName({ game: 'sequence' })).toBe('Sequence');
    expect(gameName({ game: 'stacks' })).toBe('Stacks');
  });
});

// A tournament game was listed as "Sequence · 2 players vs bob", with nothing of its tournament.
describe('"My games" line of a tournament game', () => {
  it('names its tournament and round', async () => {
    const { render } = await import('preact');
    const { GameList } = await import('./GameList');
    const root = document.createElement('div');
    render(<GameList games={[game({ tournament_id: 't1', tournament: { name: 'Spring Cup', round: 2 } }, false), game({ id: 'g2' }, false)]} me="u1" empty="" />, root);
    const [cup, other] = root.querySelectorAll('li');
    expect(cup.textContent).toMatch(/^Sequence · 2 players · rated · Spring Cup, round 2 vs bob/);
    expect(other.textContent).not.toMatch(/round/);
  });
});

// A profile's games did not say which of them moved the rating.
describe('a game line says a rated game is rated', () => {
  it('says "rated" of a rated game and nothing of a casual one', async () => {
    const { render } = await import('preact');
    const { GameList } = await import('./GameList');
    const root = document.createElement('div');
    render(<GameList games={[game({}, false), game({ id: 'g2', rated: false }, false)]} me="u1" empty="" />, root);
    const [rated, casual] = root.querySelectorAll('li');
    expect(rated.textContent).toMatch(/^Sequence · 2 players · rated vs bob/);
    expect(casual.textContent).toMatch(/^Sequence · 2 players vs bob/);
  });
});
