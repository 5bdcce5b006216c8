import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'preact/test-utils';
import { ApiError, networkError } from '../api/client';
import { api, restore } from '../session';
import type { GameView, MoveRecord, Seat, StacksState } from '../api/types';
import { NEXT_GAME_POLL_MS, NextInTournament } from './NextInTournament';
import GamePage, { ConnBadge, MOVE_RETRY_MS, OpenGame, RATING_POLL_MS, SeatNotices } from './GamePage';
import { calls, type Handler, mount, resetCalls, settle, signOutAndUnmount, stub, unmountAll } from '../testing/stubApi';
import { browserFocus, focusRefused, pressInBrowser } from '../testing/browserFocus';
import { spokenText } from '../testing/spoken';

// what a lapsed table's page says (the server cancelled it: nobody joined in time)
const LAPSED = 'The table lapsed: nobody joined it in time, so it was cancelled.';

const ann: Seat = { seat: 0, team: 0, user: { id: 'u1', username: 'ann' }, open: false, filled_by_bot: false, abandoned: false };
const bob: Seat = { seat: 1, team: 1, user: { id: 'u2', username: 'bob' }, open: false, filled_by_bot: false, abandoned: false };
const open: Seat = { seat: 1, team: 1, user: null, open: true, filled_by_bot: false, abandoned: false };
const bot: Seat = { seat: 1, team: 1, user: { id: 'b', username: 'bot-random' }, bot: 'random', open: false, filled_by_bot: false, abandoned: false };

function view(over: Partial<GameView>): GameView {
  return {
    id: 'g1', game: 'sequence', players: 2, teams: 2, status: 'open', rated: false, clock: {}, created_at: '', seed_hash: '', ply: 0,
    created_by: 'u1', seats: [ann, open], your_seat: 0, to_move: [], state: null, ...over,
  };
}

const sequenceState = {
  game: 'sequence', variant: 'classic', seat: 0, players: 2, teams: 2, sequences_to_win: 2, board: ['*........*', ...Array(8).fill('..........'), '*........*'],
  sequences: {}, locked: [], discards: [[], []], hand_sizes: [3, 7], deck_size: 80, hand: ['7H', '2S', 'JS'], turn: 0, ply: 4, exchanged: false,
  penalty_owed: [0, 0], plays: 4, status: 'playing', winner: null,
} as unknown as GameView['state'];

/** stacksGame is ann's 2-seat Stacks game against bob, ann holding R3, B1 and SKIP. */
function stacksGame(over: Partial<GameView>): GameView {
  const state = {
    game: 'stacks', ply: 4, seat: 0, players: 2, play_cap: 500, turns: 3, turn: 0, direction: 1, phase: 'play', status: 'playing', winner: -1,
    piles: [{ color: 'red', cards: ['R1', 'R2'] }], discards: [['B4'], []], setaside: [], chips: [{ red: 0, blue: 0 }, { red: 1, blue: 0 }],
    supply: { red: 19, blue: 20 }, hand_sizes: [3, 5], deck_size: 90, skipped: [false, false], hand: ['R3', 'B1', 'SKIP'],
  } as unknown as GameView['state'];
  return view({ game: 'stacks', seats: [ann, bob], ply: 4, state, ...over });
}

/** openTable shows game g1 to ann, a move answered by onMove (which may throw), the moves played before (GET /games/g1/moves) by earlier. */
async function openTable(current: GameView, onMove: () => GameView, earlier: MoveRecord[] = [], more: Record<string, Handler> = {}) {
  vi.spyOn(api, 'refresh').mockResolvedValue(true);
  vi.stubGlobal('EventSource', class { close() {} addEventListener() {} });
  const movesAfter = (path: string) => ({ moves: earlier.filter((m) => m.ply > Number(new URL(path, 'http://x').searchParams.get('after') ?? -1)) });
  stub({ 'GET /me': () => ({ id: 'u1', username: 'ann' }), 'GET /games/g1': () => current, 'POST /games/g1/moves': onMove, 'GET /games/g1/moves\\?.*': movesAfter, ...more });
  await restore();
  const root = mount(<GamePage id="g1" />);
  await settle();
  return root;
}

const press = (key: string) => act(() => void window.dispatchEvent(new KeyboardEvent('keydown', { key })));

afterEach(unmountAll);
const buttons = (root: Element) => [...root.querySelectorAll('button')].map((b) => b.textContent);

describe('an open game', () => {
  it('lets its creator cancel it while nobody else sits, and shows the link to share', () => {
    const acts: string[] = [];
    const root = mount(<OpenGame view={view({})} me="u1" busy={false} onAction={(a) => acts.push(a)} />);
    expect(buttons(root)).toContain('Cancel game');
    expect(root.querySelector('.share-hint')!.textContent).toContain('/games/g1');
    act(() => [...root.querySelectorAll('button')].find((b) => b.textContent === 'Cancel game')!.click());
    expect(acts).toEqual(['leave']);
  });

  it("tells a visitor with the game's link how to take an open seat, and comes back to the game", () => {
    history.replaceState(null, '', '/games/g1');
    const root = mount(<OpenGame view={view({ seats: [ann, { ...open, seat: 1 }] })} busy={false} onAction={() => {}} />);
    expect(buttons(root)).toEqual([]);
    const hint = root.querySelector('.join-hint')!;
    expect(hint.textContent).toBe('Sign in or create an account to take a seat.');
    expect([...hint.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['/signin?next=%2Fgames%2Fg1', '/signup?next=%2Fgames%2Fg1']);
    // a full game asks nothing of a visitor
    const full = mount(<OpenGame view={view({ seats: [ann, bob] })} busy={false} onAction={() => {}} />);
    expect(full.querySelector('.join-hint')).toBeNull();
    history.replaceState(null, '', '/');
  });

  // A rematch keeps its open seat for the other player: "so others can take the open seats" invited
  // people who could not.
  it('asks the creator to send the link to the people its kept seats wait for', () => {
    const kept = { ...open, seat: 1, kept_for: { id: 'u2', username: 'bob' } };
    const root = mount(<OpenGame view={view({ seats: [ann, kept] })} me="u1" busy={false} onAction={() => {}} />);
    expect(root.querySelector('.share-hint')!.textContent).toMatch(/^The open seats are kept: send bob this game's link: .*\/games\/g1/);
  });

  it('says a private table is private, and asks its creator to send the link', () => {
    const mine = mount(<OpenGame view={view({ private: true })} me="u1" busy={false} onAction={() => {}} />);
    expect(mine.querySelector('.private-note')!.textContent).toContain('Private table');
    expect(mine.querySelector('.share-hint')!.textContent).toMatch(/^Send this link to the people you want to play: .*\/games\/g1/);
    const visitor = mount(<OpenGame view={view({ private: true, your_seat: null })} me="u3" busy={false} onAction={() => {}} />);
    expect(visitor.querySelector('.private-note')!.textContent).toContain('only people with its link');
    expect(buttons(visitor)).toContain('Take a seat'); // the link is enough to join
    const public_ = mount(<OpenGame view={view({})} me="u1" busy={false} onAction={() => {}} />);
    expect(public_.querySelector('.private-note')).toBeNull();
  });

  it('tells a player waiting at a public table that it is offered while the page stays open', () => {
    const note = (root: Element) => root.querySelector('.here-note')?.textContent ?? null;
    const waiting = mount(<OpenGame view={view({})} me="u1" busy={false} onAction={() => {}} />);
    expect(note(waiting)).toMatch(/^This table is offered in the lobby and to quick matches while this page stays open/);
    // a joiner waiting for a third player is told too
    const joiner = mount(<OpenGame view={view({ seats: [ann, bob, { ...open, seat: 2 }], players: 3, teams: 3, your_seat: 1 })} me="u2" busy={false} onAction={() => {}} />);
    expect(note(joiner)).not.toBeNull();
    // not offered: a private table, a seat kept for a friend, a full table; nor told to a visitor
    expect(note(mount(<OpenGame view={view({ private: true })} me="u1" busy={false} onAction={() => {}} />))).toBeNull();
    const keptSeat = { ...open, kept_for: { id: 'u2', username: 'bob' } };
    expect(note(mount(<OpenGame view={view({ seats: [ann, keptSeat] })} me="u1" busy={false} onAction={() => {}} />))).toBeNull();
    expect(note(mount(<OpenGame view={view({ seats: [ann, bob] })} me="u1" busy={false} onAction={() => {}} />))).toBeNull();
    expect(note(mount(<OpenGame view={view({ your_seat: null })} me="u3" busy={false} onAction={() => {}} />))).toBeNull();
  });

  it('names the player a seat is kept for until the start, and offers it to them alone', () => {
    const kept = view({ your_seat: null, seats: [ann, { ...open, kept_for: { id: 'u2', username: 'bob' } }] });
    const carol = mount(<OpenGame view={kept} me="u3" busy={false} onAction={() => {}} />);
    expect(carol.querySelector('[data-seat="1"]')!.textContent).toMatch(/: kept for bob$/);
    expect(buttons(carol)).not.toContain('Take a seat');
    expect(carol.querySelector('.kept-note')!.textContent).toBe('The open seat is kept for bob: nobody else can take it.');
    const bobs = mount(<OpenGame view={kept} me="u2" busy={false} onAction={() => {}} />);
    expect(buttons(bobs)).toContain('Take a seat');
    expect(bobs.querySelector('.kept-note')).toBeNull();
  });

  it('counts bots as nobody: a creator alone with a bot still cancels', () => {
    const root = mount(<OpenGame view={view({ seats: [ann, bot, { ...open, seat: 2 }], players: 3, teams: 3 })} me="u1" busy={false} onAction={() => {}} />);
    expect(buttons(root)).toContain('Cancel game');
  });

  it('lets anyone seated leave it', () => {
    const acts: string[] = [];
    const full = view({ seats: [ann, bob, { ...open, seat: 2 }], players: 3, teams: 3, your_seat: 1 });
    const root = mount(<OpenGame view={full} me="u2" busy={false} onAction={(a) => acts.push(a)} />);
    expect(buttons(root)).toEqual(['Leave this game']);
    expect(root.querySelector('.share-hint')).toBeNull(); // only the creator is asked to share
    act(() => root.querySelector('button')!.click());
    expect(acts).toEqual(['leave']);
    // the creator, with someone else seated, leaves rather than cancels
    const creator = mount(<OpenGame view={{ ...full, your_seat: 0 }} me="u1" busy={false} onAction={() => {}} />);
    expect(buttons(creator)).toContain('Leave this game');
  });

  it("shows the game's settings before the seat is taken", () => {
    const settings = (v: GameView) => [...mount(<OpenGame view={v} me="u3" busy={false} onAction={() => {}} />).querySelectorAll('.game-settings div')].map((d) => `${d.querySelector('dt')!.textContent}: ${d.querySelector('dd')!.textContent}`);
    const team = view({ your_seat: null, players: 4, teams: 2, variant: 'bordered', sequences_to_win: 1, rated: true, clock: { bank_seconds: 600, increment_seconds: 5 } });
    expect(settings(team)).toEqual(['Game: Sequence', 'Variant: bordered', 'Players: 4: 2 teams of 2', 'To win: 1 sequence', 'Clock: 10 min bank + 5 s a move', 'Rated: yes']);
    const stacks = view({ your_seat: null, game: 'stacks', players: 3, teams: 3, clock: { turn_seconds: 30 }, block_window_seconds: 5 });
    // a Stacks table never said how to win
    expect(settings(stacks)).toEqual(['Game: Sequence Stacks', 'Players: 3', 'To win: 5 chips, at least 2 red and 2 blue', 'Clock: 30 s a turn', 'Block window: 5 s', 'Rated: no']);
    expect(settings(view({ your_seat: null }))).toContain('Clock: untimed');
    // the rules' target where the game sets none: one sequence with 3 teams, two with 2
    expect(settings(view({ your_seat: null, players: 6, teams: 3 }))).toContain('To win: 1 sequence');
    expect(settings(view({ your_seat: null }))).toContain('To win: 2 sequences');
  });

  it("names each seat's team in words before a Sequence team game starts, as the table names it", () => {
    // The seat list once read "Seat 1: ann", "Seat 2: open"…: in a 2v2 or a game of three teams of two,
    // who would play with whom showed nowhere until the game started.
    const seat = (n: number, team: number, over: Partial<Seat> = {}): Seat => ({ ...open, seat: n, team, ...over });
    const lines = (v: GameView) => [...mount(<OpenGame view={v} me="u1" busy={false} onAction={() => {}} />).querySelectorAll('.open-seats li')];
    const twoVtwo = view({ players: 4, teams: 2, seats: [ann, { ...bot, team: 1 }, seat(2, 0), { ...bot, seat: 3, team: 1 }] });
    const shown = lines(twoVtwo);
    expect(shown.map((l) => l.textContent)).toEqual([
      '●Seat 1, Blue team: ann (you)',
      '▲Seat 2, Green team: bot-random',
      '●Seat 3, Blue team: open',
      '▲Seat 4, Green team: bot-random',
    ]);
    // the chip is the team's colour and shape, for the eye only: the words say the team
    expect(shown.map((l) => spokenText(l))).toEqual(['Seat 1, Blue team: ann (you)', 'Seat 2, Green team: bot-random', 'Seat 3, Blue team: open', 'Seat 4, Green team: bot-random']);
    expect(shown.map((l) => l.querySelector('.chip')!.className)).toEqual(['chip small team-blue', 'chip small team-green', 'chip small team-blue', 'chip small team-green']);
    const threeTeams = view({ players: 6, teams: 3, seats: [0, 1, 2, 3, 4, 5].map((n) => (n === 0 ? ann : seat(n, n % 3))) });
    expect(lines(threeTeams).map((l) => spokenText(l))).toEqual([
      'Seat 1, Blue team: ann (you)',
      'Seat 2, Green team: open',
      'Seat 3, Red team: open',
      'Seat 4, Blue team: open',
      'Seat 5, Green team: open',
      'Seat 6, Red team: open',
    ]);
    // Stacks has no teams: no chip, no team
    const stacks = lines(view({ game: 'stacks', players: 2, teams: 2, seats: [ann, open] }));
    expect(stacks.map((l) => l.textContent)).toEqual(['Seat 1: ann (you)', 'Seat 2: open']);
    expect(stacks.some((l) => l.querySelector('.chip'))).toBe(false);
  });

  it('lets a player pick the team they sit on, where the seats they may take are on different teams', () => {
    // carol's 2-against-2 table: seat 1 (Blue) hers, 2 (Green) and 3 (Blue) open, 4 (Green) a bot
    const carol: Seat = { ...ann, user: { id: 'u3', username: 'carol' } };
    const seats = [carol, { ...open, seat: 1, team: 1 }, { ...open, seat: 2, team: 0 }, { ...bot, seat: 3, team: 1 }];
    const table = view({ players: 4, teams: 2, created_by: 'u3', seats, your_seat: null });
    const acts: [string, number | undefined][] = [];
    const dan = mount(<OpenGame view={table} me="u4" busy={false} onAction={(a, seat) => acts.push([a, seat])} />);
    const sit = [...dan.querySelectorAll<HTMLButtonElement>('button[data-seat]')];
    expect(sit.map((b) => [b.closest('.open-seat')!.getAttribute('data-seat'), b.textContent, b.getAttribute('aria-label')])).toEqual([
      ['1', 'Sit here', 'Sit here: seat 2, Green team'],
      ['2', 'Sit here', 'Sit here: seat 3, Blue team'],
    ]);
    act(() => sit[1].click());
    expect(acts).toEqual([['join', 2]]);
    expect(buttons(dan)).toContain('Take a seat'); // still: any seat will do
    // one team's seats open, a seat kept for another, a table of single seats, Stacks: nothing to pick
    const blueOnly = view({ ...table, seats: [carol, { ...bot, seat: 1 }, { ...open, seat: 2, team: 0 }, { ...bot, seat: 3, team: 1 }] });
    const kept = view({ ...table, seats: [carol, { ...open, seat: 1, team: 1, kept_for: { id: 'u5', username: 'eve' } }, { ...open, seat: 2, team: 0 }, { ...bot, seat: 3, team: 1 }] });
    const single = view({ players: 3, teams: 3, created_by: 'u3', seats: [carol, open, { ...open, seat: 2, team: 2 }], your_seat: null });
    const stacks = view({ ...table, game: 'stacks' });
    for (const v of [blueOnly, kept, single, stacks]) expect(mount(<OpenGame view={v} me="u4" busy={false} onAction={() => {}} />).querySelector('button[data-seat]')).toBeNull();
    // nor for someone seated, or signed out
    expect(mount(<OpenGame view={view({ ...table, your_seat: 0 })} me="u3" busy={false} onAction={() => {}} />).querySelector('button[data-seat]')).toBeNull();
    expect(mount(<OpenGame view={table} busy={false} onAction={() => {}} />).querySelector('button[data-seat]')).toBeNull();
  });

  it('offers no leave button to someone not seated', () => {
    const root = mount(<OpenGame view={view({ your_seat: null, seats: [ann, open] })} me="u3" busy={false} onAction={() => {}} />);
    expect(buttons(root)).toEqual(['Take a seat']);
  });
});

describe('the seat notices', () => {
  const active = (over: Partial<GameView>) => view({ status: 'active', seats: [ann, bob], to_move: [1], ...over });
  const mv = (ply: number, seat: number, by: string): MoveRecord => ({ ply, seat, move: 'pass', by, at: '' });
  const describe_ = (m: string) => (m === 'pass' ? 'passed' : m);

  it('tells a player the autopilot played their timed-out turn, until they move again', () => {
    let root = mount(<SeatNotices view={active({})} log={[mv(0, 1, 'player'), mv(1, 0, 'autopilot')]} describe={describe_} />);
    expect(root.textContent).toMatch(/^Your turn timed out; the autopilot played it for you: passed\./);
    root = mount(<SeatNotices view={active({})} log={[mv(1, 0, 'autopilot'), mv(2, 1, 'player'), mv(3, 0, 'player')]} describe={describe_} />);
    expect(root.textContent).toBe('');
  });

  it('offers to dismiss the autopilot\'s word, which stays dismissed until another turn times out', () => {
    // On a phone it floats over the top of the screen, as a refused move's error does (styles.css,
    // .notice-float): above the table it pushed the board (the piles) and the hand down.
    const log = [mv(0, 1, 'player'), mv(1, 0, 'autopilot')];
    const dismissed: number[] = [];
    let root = mount(<SeatNotices view={active({})} log={log} describe={describe_} onDismiss={(ply) => dismissed.push(ply)} />);
    const toast = root.querySelector('.notice-toast.seat-toast')!;
    expect([...toast.children].map((c) => `${c.tagName} ${c.textContent!.slice(0, 20)}`)).toEqual(['P Your turn timed out;', 'BUTTON Dismiss']);
    act(() => toast.querySelector('button')!.click());
    expect(dismissed).toEqual([1]);
    root = mount(<SeatNotices view={active({})} log={log} describe={describe_} dismissed={1} onDismiss={() => {}} />);
    expect(root.textContent).toBe('');
    // the next timed-out turn is told again
    const later = [...log, mv(2, 1, 'player'), mv(3, 0, 'autopilot')];
    root = mount(<SeatNotices view={active({})} log={later} describe={describe_} dismissed={1} onDismiss={() => {}} />);
    expect(root.querySelector('.seat-toast')?.textContent).toMatch(/^Your turn timed out; the autopilot played it for you: passed\./);
  });

  it('keeps telling a player whose seat a fill-in bot took that they can no longer move', () => {
    const gone = active({ seats: [{ ...ann, bot: 'greedy', filled_by_bot: true, abandoned: true }, bob] });
    const root = mount(<SeatNotices view={gone} log={[]} describe={describe_} />);
    expect(root.textContent).toMatch(/fill-in bot now plays your seat: .*You can no longer move/);
  });

  it('says what happened to the seat in this game: left, and a loss only where the game is rated', () => {
    const gone = active({ seats: [{ ...ann, bot: 'greedy', filled_by_bot: true, abandoned: true }, bob] });
    const left = active({ seats: [{ ...gone.seats[0], abandoned_why: 'left' }, bob] });
    let root = mount(<SeatNotices view={left} log={[]} describe={describe_} />);
    expect(root.textContent).toBe('A fill-in bot now plays your seat: you left the game. You can no longer move in this game.');
    root = mount(<SeatNotices view={{ ...left, rated: true }} log={[]} describe={describe_} />);
    expect(root.textContent).toMatch(/you left the game\. You can no longer move in this game, and it counts as a loss for your rating\.$/);
    // a casual game has no round deadline (a seat abandoned before the server kept why)
    root = mount(<SeatNotices view={gone} log={[]} describe={describe_} />);
    expect(root.textContent).not.toMatch(/deadline/);
  });

  it("tells a player the bots finish for at a round's deadline so, and offers no autopilot's word", () => {
    const handed = active({ tournament_id: 't1', seats: [{ ...ann, bot: 'greedy', filled_by_bot: true }, bob] });
    const root = mount(<SeatNotices view={handed} log={[mv(0, 1, 'player'), mv(1, 0, 'autopilot')]} describe={describe_} />);
    expect(root.textContent).toBe('A fill-in bot now plays your seat: the round’s deadline came, and it finishes the game for you. You can no longer move in this game.');
  });
});

describe('the connection badge', () => {
  it('shows only while the game is in play', () => {
    expect(mount(<ConnBadge status="active" connected wasConnected />).textContent).toBe('live');
    expect(mount(<ConnBadge status="active" connected={false} wasConnected />).textContent).toBe('reconnecting…');
    // the page just opened: not yet connected is not reconnecting
    expect(mount(<ConnBadge status="active" connected={false} wasConnected={false} />).textContent).toBe('connecting…');
    for (const status of ['open', 'finished', 'aborted'] as const) expect(mount(<ConnBadge status={status} connected wasConnected />).textContent).toBe('');
  });
});

describe('an unknown game', () => {
  it('says so in a heading, with a way on, not the server\'s "no such game"', async () => {
    vi.restoreAllMocks();
    vi.spyOn(api, 'refresh').mockResolvedValue(false);
    vi.stubGlobal('EventSource', class { close() {} addEventListener() {} });
    stub({ 'GET /games/nope': () => { throw new ApiError(404, { title: 'Not Found', detail: 'no such game' }); } });
    await restore();
    const root = mount(<GamePage id="nope" />);
    await settle();
    expect(root.querySelector('h1')!.textContent).toBe('No such game');
    expect(root.querySelector('a')!.getAttribute('href')).toBe('/');
    expect(root.textContent).not.toContain('no such game');
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('stops its event stream rather than reopen it for ever', async () => {
    vi.restoreAllMocks();
    vi.spyOn(api, 'refresh').mockResolvedValue(false);
    const streams: { closed: boolean }[] = [];
    vi.stubGlobal('EventSource', class { closed = false; constructor() { streams.push(this); } close() { this.closed = true; } addEventListener() {} });
    stub({ 'GET /games/nope': () => { throw new ApiError(404, { title: 'Not Found', detail: 'no such game' }); } });
    await restore();
    mount(<GamePage id="nope" />);
    await settle();
    expect(streams).toHaveLength(1);
    expect(streams[0].closed).toBe(true); // while the page still shows
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
});

describe("a tournament's game", () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await signOutAndUnmount();
  });

  it('leads back to its tournament by name, which the page had no way to but Back; a casual game has no such link', async () => {
    const game = view({ status: 'finished', seats: [ann, bob], result: { status: 'finished', winner: 0 }, tournament_id: 't1' });
    let root = await openTable(game, () => game);
    // the tournament not read (here: not stubbed), the link still says where it goes
    expect(root.querySelector('.crumbs a')!.getAttribute('href')).toBe('/tournaments/t1');
    expect(root.querySelector('.crumbs a')!.textContent).toBe('Tournament');
    await signOutAndUnmount();
    root = await openTable(game, () => game, [], { 'GET /tournaments/t1': () => ({ id: 't1', name: 'Spring Cup' }) });
    expect(root.querySelector('.crumbs a')!.textContent).toBe('Spring Cup');
    await signOutAndUnmount();
    const casual = { ...game, tournament_id: undefined };
    root = await openTable(casual, () => casual);
    expect(root.querySelector('.crumbs')).toBeNull();
  });

  // The match says its game is being played until a worker records the result: the page of that game,
  // just finished, said "Next for you: round 1: your game is being played" for a few seconds.
  it('says the result is on its way while the match still names the game just finished', async () => {
    const game = view({ status: 'finished', seats: [ann, bob], result: { status: 'finished', winner: 0 }, tournament_id: 't1' });
    const playing = { round: 1, match_id: 'R1-1', status: 'playing', bye: false, game_id: game.id };
    let root = await openTable(game, () => game, [], { 'GET /users/u1/tournaments\\?.*': () => ({ items: [{ id: 't1', status: 'running', current_round: 1, entry_match: playing }] }) });
    expect(root.querySelector('.way-on')!.textContent).toContain('Next for you: round 1: the result is being recorded');
    expect(root.querySelector('.way-on')!.textContent).not.toContain('being played');
    await signOutAndUnmount();
    root = await openTable(game, () => game, [], { 'GET /users/u1/tournaments\\?.*': () => ({ items: [{ id: 't1', status: 'running', current_round: 1, best_of: 3, entry_match: playing }] }) });
    expect(root.querySelector('.way-on')!.textContent).toContain("Next for you: round 1: your match's next game or its result, in a moment");
  });

  // Round 1 over, round 2 paired at once: the finished game's page (its stream ended with it) said nothing
  // more, and the player's clock ran in a game they were not shown.
  it("offers the player their next game as soon as it is being played, asking again until then", async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const game = view({ status: 'finished', seats: [ann, bob], result: { status: 'finished', winner: 0 }, tournament_id: 't1' });
      let mine = { id: 't1', status: 'running', current_round: 1, entry_match: { round: 1, match_id: 'R1-1', status: 'finished', bye: false, game_id: 'g1' } };
      const root = await openTable(game, () => game, [], { 'GET /users/u1/tournaments\\?.*': () => ({ items: [mine] }) });
      const wayOn = () => root.querySelector('.way-on')!;
      expect(wayOn().textContent).toContain('Next for you: round 1 in play; your match is over');
      expect(wayOn().querySelector('a.button.primary')!.textContent).toBe('Back to the tournament');
      mine = { ...mine, current_round: 2, entry_match: { round: 2, match_id: 'R2-1', status: 'playing', bye: false, game_id: 'g2' } };
      await act(async () => void vi.advanceTimersByTime(NEXT_GAME_POLL_MS));
      await settle();
      const play = wayOn().querySelector('a.button.primary')!;
      expect([play.textContent, play.getAttribute('href')]).toEqual(['Play your round 2 game', '/games/g2']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the way on from a finished tournament game", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('keeps the latest read of what comes next when an older read answers after it', async () => {
    // The reads had no order: the first read, answered after the poll's, took the next game offered away again.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const over = { id: 't1', status: 'running', current_round: 1, entry_match: { round: 1, match_id: 'R1-1', status: 'finished', bye: false, game_id: 'g1' } };
    const paired = { ...over, current_round: 2, entry_match: { round: 2, match_id: 'R2-1', status: 'playing', bye: false, game_id: 'g2' } };
    let answerFirst = () => {};
    let n = 0;
    vi.spyOn(api, 'get').mockImplementation((() =>
      ++n === 1 ? new Promise((r) => (answerFirst = () => r({ items: [over], next_cursor: '' }))) : Promise.resolve({ items: [paired], next_cursor: '' })) as never);
    const game = view({ status: 'finished', seats: [ann, bob], result: { status: 'finished', winner: 0 }, tournament_id: 't1' });
    const root = mount(<NextInTournament view={game} uid="u1" />);
    await settle();
    await act(async () => void vi.advanceTimersByTime(NEXT_GAME_POLL_MS));
    await settle();
    const play = () => root.querySelector('.way-on a.button.primary')!;
    expect(play().textContent).toBe('Play your round 2 game');
    answerFirst();
    await settle();
    expect(play().textContent).toBe('Play your round 2 game');
  });
});

describe('a public table nobody else has joined', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await signOutAndUnmount();
  });

  // The creator's table with seat 1 open; seating a bot there starts the game.
  const openTableABotStarts = () => {
    let current = view({});
    return openTable(current, () => current, [], {
      'GET /games/g1': () => current,
      'PUT /games/g1/seats/1': (_path, body) => {
        current = view({ status: 'active', seats: [ann, { ...bot, seat: 1 }], state: sequenceState, ply: 0 });
        return { body };
      },
    });
  };

  it('offers its creator a bot now, where the way to one was "Change" on each open seat; the game it starts has the focus', async () => {
    const root = await openTableABotStarts();
    const button = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Play a bot now') as HTMLButtonElement;
    // "A bot takes the open seat and the game starts." read as what would happen by itself: it is the button's offer
    expect(root.querySelector('#bots-now-note')!.textContent).toBe('Nobody yet? You can give the open seat to a bot and start at once; otherwise it stays open for a player.');
    button.focus();
    await act(async () => button.click());
    await settle();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.body])).toEqual([['/games/g1/seats/1', { bot: 'random' }]]);
    expect(root.querySelector('.game')!.getAttribute('data-status')).toBe('active');
    expect(document.activeElement).toBe(root.querySelector('h1'));
  });

  it('seats the level the player picks, where it was always the random bot', async () => {
    const root = await openTableABotStarts();
    const before = calls.length;
    const select = root.querySelector('.bots-now select') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['random (the easiest)', 'greedy', 'strong (the hardest)']);
    await act(async () => {
      select.value = 'strong';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    const button = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Play a bot now') as HTMLButtonElement;
    await act(async () => button.click());
    await settle();
    expect(calls.slice(before).filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ bot: 'strong' }]);
  });

  it('is not offered to others, at a private table, nor while a seat is kept for someone', () => {
    const none = (v: GameView, me: string) => !buttons(mount(<OpenGame view={v} me={me} busy={false} onAction={() => {}} onSeatChanged={async () => {}} />)).some((b) => /bot/.test(b ?? ''));
    expect(none(view({}), 'u1')).toBe(false); // the creator, at a public table: offered
    expect(none(view({ your_seat: null }), 'u3')).toBe(true);
    expect(none(view({ private: true }), 'u1')).toBe(true);
    expect(none(view({ players: 3, teams: 3, seats: [ann, open, { ...open, seat: 2, kept_for: { id: 'u2', username: 'bob' } }] }), 'u1')).toBe(true);
    // several open seats: bots for them all
    expect(buttons(mount(<OpenGame view={view({ players: 3, teams: 3, seats: [ann, open, { ...open, seat: 2 }] })} me="u1" busy={false} onAction={() => {}} onSeatChanged={async () => {}} />))).toContain('Play bots now');
  });
});

describe('an aborted game', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await signOutAndUnmount();
  });

  const wayOn = (root: Element) => [...root.querySelectorAll('.way-on a')].map((a) => [a.textContent, a.getAttribute('href')]);

  it('leads on, where its page said "aborted" and had no button nor link: home for a casual game, its tournament for a tournament\'s', async () => {
    // a casual game its creator cancelled before anyone joined
    const cancelled = view({ status: 'aborted', ended_by: 'abort' });
    let root = await openTable(cancelled, () => cancelled);
    expect(root.querySelector('.result')!.textContent).toBe('The game was aborted.');
    expect(wayOn(root)).toEqual([['Play another game', '/']]);
    await signOutAndUnmount();
    // a tournament's game, at the table, ended by the tournament's cancellation
    const ended = view({ status: 'aborted', ended_by: 'abort', seats: [ann, bob], state: sequenceState, tournament_id: 't1' });
    root = await openTable(ended, () => ended, [], { 'GET /tournaments/t1': () => ({ id: 't1', name: 'Spring Cup' }) });
    expect(wayOn(root)).toEqual([['Back to Spring Cup', '/tournaments/t1']]);
    // a game over by the rules has its own ways on (the replay, a rematch)
    await signOutAndUnmount();
    const finished = view({ status: 'finished', seats: [ann, bob], result: { status: 'finished', winner: 0 } });
    root = await openTable(finished, () => finished);
    expect(root.querySelector('.way-on')).toBeNull();
  });

  it('says a table the server cancelled lapsed because nobody joined it in time, and leads on home', async () => {
    const lapsed = view({ status: 'aborted', ended_by: 'lapse' });
    const root = await openTable(lapsed, () => lapsed);
    expect(root.querySelector('.result')!.textContent).toBe(LAPSED);
    expect(wayOn(root)).toEqual([['Play another game', '/']]);
  });
});

describe('a finished rated game', () => {
  afterEach(async () => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    await signOutAndUnmount();
  });

  it('asks again for the rating only while the game is unsettled, and says when it changed none', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let current = view({ status: 'finished', rated: true, seats: [ann, bob], result: { status: 'finished', winner: 1 } });
    vi.spyOn(api, 'refresh').mockResolvedValue(true);
    vi.stubGlobal('EventSource', class { close() {} addEventListener() {} });
    stub({ 'GET /me': () => ({ id: 'u1', username: 'ann' }), 'GET /games/g1': () => current });
    await restore();
    const root = mount(<GamePage id="g1" />);
    await settle();
    const loads = () => calls.filter((c) => c.method === 'GET' && c.path === '/games/g1').length;
    const before = loads();
    expect(root.textContent).toContain('your rating is being updated…');
    // settled, and one bot account on both teams: no rating changed
    current = { ...current, settled_at: '2026-01-01T00:00:00Z' };
    await act(async () => void vi.advanceTimersByTime(RATING_POLL_MS));
    await settle();
    expect(loads()).toBe(before + 1);
    expect(root.textContent).toContain('this game changed no rating');
    expect(root.textContent).not.toContain('being updated');
    await act(async () => void vi.advanceTimersByTime(RATING_POLL_MS * 5));
    await settle();
    expect(loads()).toBe(before + 1);
  });
  // One of the reads for the rating that failed (a deploy's 502, a dropped connection) left "Cannot reach
  // the server" under the result for good, though the next read brought the rating.
  it('says nothing of a read for the rating that failed when a later one brings it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let current = view({ status: 'finished', rated: true, seats: [ann, bob], result: { status: 'finished', winner: 1 } });
    let down = false;
    vi.spyOn(api, 'refresh').mockResolvedValue(true);
    vi.stubGlobal('EventSource', class { close() {} addEventListener() {} });
    stub({
      'GET /me': () => ({ id: 'u1', username: 'ann' }),
      'GET /games/g1': () => {
        if (down) throw new ApiError(0, { title: 'Network error' });
        return current;
      },
    });
    await restore();
    const root = mount(<GamePage id="g1" />);
    await settle();
    down = true;
    await act(async () => void vi.advanceTimersByTime(RATING_POLL_MS));
    await settle();
    down = false;
    current = { ...current, seats: [{ ...ann, rating: { before: 1500, after: 1488 } }, bob], settled_at: '2026-01-01T00:00:00Z' };
    await act(async () => void vi.advanceTimersByTime(RATING_POLL_MS));
    await settle();
    expect(root.textContent).toContain('your rating 1500 → 1488');
    expect(root.querySelector('[role=alert]')).toBeNull();
  });
});

describe('the notices of a Sequence table in play', () => {
  // GamePage hands them to the table, which heads its seat column with them (beside the board on a wide
  // screen): the same live regions, read first as when they sat above the table.
  afterEach(async () => {
    vi.unstubAllGlobals();
    await signOutAndUnmount();
  });
  const state = sequenceState;
  const tablePage = (current: GameView, refuse = false) =>
    openTable(current, () => {
      if (refuse) throw new ApiError(422, { title: 'Unprocessable', detail: 'That move was refused.' });
      return current;
    });

  it("puts a refused move's error at the head of the table, an alert still", async () => {
    const root = await tablePage(view({ status: 'active', seats: [ann, bob], to_move: [0], ply: 4, legal_moves: ['7H@i5'], state }), true);
    act(() => root.querySelector<HTMLElement>('.hand-card')!.click());
    act(() => root.querySelector<HTMLElement>('[data-cell=i5]')!.click());
    await settle();
    const alert = root.querySelector('.sequence-table > .table-notices > .notice-float > .notice-toast > [role=alert]');
    expect(alert?.textContent).toBe('That move was refused.');
    expect(root.querySelectorAll('[role=alert]')).toHaveLength(1);
  });

  it("asks the header's waiting count again when the viewer's turn goes, not as the table opens", async () => {
    let asked = 0;
    const onAsk = () => asked++;
    window.addEventListener('seqleague:waiting', onAsk);
    try {
      const mine = view({ status: 'active', seats: [ann, bob], to_move: [0], ply: 4, legal_moves: ['7H@i5'], state });
      const root = await openTable(mine, () => ({ ...mine, ply: 5, to_move: [1], legal_moves: [] }));
      expect(asked).toBe(0);
      act(() => root.querySelector<HTMLElement>('.hand-card')!.click());
      act(() => root.querySelector<HTMLElement>('[data-cell=i5]')!.click());
      await settle();
      // "a game waits for your move" stayed beside Home until the next poll, 30 s on
      expect(asked).toBe(1);
    } finally {
      window.removeEventListener('seqleague:waiting', onAsk);
    }
  });

  it('keeps the picked card and its targets after a refused move, for another target', async () => {
    // the card was dropped with the refusal: the player had to pick it again
    const root = await tablePage(view({ status: 'active', seats: [ann, bob], to_move: [0], ply: 4, legal_moves: ['7H@i5', '7H@e5'], state }), true);
    act(() => root.querySelector<HTMLElement>('.hand-card')!.click());
    act(() => root.querySelector<HTMLElement>('[data-cell=i5]')!.click());
    await settle();
    expect(root.querySelector('[role=alert]')?.textContent).toBe('That move was refused.');
    expect([...root.querySelectorAll('.hand-card[aria-pressed=true]')].map((b) => b.textContent)).toEqual(['17♥']);
    expect([...root.querySelectorAll('.cell.target')].map((c) => c.getAttribute('data-cell')).sort()).toEqual(['e5', 'i5']);
  });

  it('puts the result and the rating change there, the rating change a status still', async () => {
    const over = view({ status: 'finished', rated: true, settled_at: '2026-01-01T00:00:00Z', seats: [ann, bob], result: { status: 'finished', winner: 1 }, state });
    const root = await tablePage(over);
    const notices = [...root.querySelectorAll('.sequence-table > .table-notices > *')].map((e) => `${e.className} ${e.getAttribute('role')}`);
    expect(notices).toEqual(['result null', 'rating-change status']);
    expect(root.querySelectorAll('.result')).toHaveLength(1);
  });
});

describe('the notices of a Stacks table in play', () => {
  // As on the Sequence table: GamePage hands them to the table, which heads its seat column with them (beside
  // the piles and the hand on a wide screen), the same live regions read first. Above the table they moved the
  // piles and the hand down by their own height.
  afterEach(async () => {
    vi.unstubAllGlobals();
    await signOutAndUnmount();
  });

  it("puts a refused move's error at the head of the table, an alert still, and the result and rating change there", async () => {
    let refuse = true;
    const playing = stacksGame({ status: 'active', to_move: [0], legal_moves: ['R3>0', '/R3'] });
    const root = await openTable(playing, () => {
      if (refuse) throw new ApiError(422, { title: 'Unprocessable', detail: 'That move was refused.' });
      return playing;
    });
    press('1');
    act(() => root.querySelector<HTMLElement>('.actions [data-play]')!.click());
    await settle();
    expect(root.querySelector('.stacks-table > .table-notices > .notice-float > .notice-toast > [role=alert]')?.textContent).toBe('That move was refused.');
    expect(root.querySelectorAll('[role=alert]')).toHaveLength(1);
    // the table keeps its reading order after the notices: seats, status line, then the piles and the hand
    const table = root.querySelector('.stacks-table')!;
    expect([...table.children].map((c) => c.className.split(' ')[0])).toEqual(['table-notices', 'players', 'status-line', 'table-main']);
    expect([...table.querySelector('.table-main')!.children].map((c) => c.className)).toEqual(['piles', 'hand-area']);
    refuse = false;
    unmountAll();
    const over = await openTable(stacksGame({ status: 'finished', rated: true, settled_at: '2026-01-01T00:00:00Z', result: { status: 'finished', winner: 1 } }), () => playing);
    const notices = [...over.querySelectorAll('.stacks-table > .table-notices > *')].map((e) => `${e.className} ${e.getAttribute('role')}`);
    expect(notices).toEqual(['result null', 'rating-change status']);
  });

  it('tells a player whose seat a fill-in bot took so after the hand, not above the piles', async () => {
    // Above the table it pushed the piles and the hand down by its own height on a phone (e2e/run.mjs measures it).
    const gone = { ...ann, bot: 'greedy', filled_by_bot: true, abandoned: true };
    const root = await openTable(stacksGame({ status: 'active', to_move: [1], seats: [gone, bob] }), () => stacksGame({}));
    const table = root.querySelector('.stacks-table')!;
    expect([...table.children].map((c) => c.className.split(' ')[0])).toEqual(['table-notices', 'players', 'status-line', 'table-main', 'seat-notice']);
    expect(table.querySelector('.table-notices')!.textContent).toBe('');
    expect(table.querySelector(':scope > .seat-notice')!.textContent).toMatch(/^A fill-in bot now plays your seat/);
    expect(root.querySelector('#announcer')!.textContent).toMatch(/^A fill-in bot now plays your seat/);
  });
});

describe('a move whose answer is lost', () => {
  // The server may have played it: every attempt had a new move_id, so the player read "Cannot reach the
  // server", and playing it again was refused as "Too late … It was not played" though it had been played.
  beforeEach(resetCalls);
  afterEach(async () => {
    vi.unstubAllGlobals();
    await signOutAndUnmount();
  });
  const playing = stacksGame({ status: 'active', to_move: [0], legal_moves: ['R3>0', '/R3'] });
  const played = { ...playing, ply: 5, to_move: [1], legal_moves: [] };
  const posts = () => calls.filter((c) => c.method === 'POST' && c.path === '/games/g1/moves').map((c) => c.body as { ply: number; move: string; move_id: string });
  const lost = () => {
    throw networkError(new TypeError('Failed to fetch'));
  };
  const playR3 = async () => {
    press('1');
    act(() => root!.querySelector<HTMLElement>('.actions [data-play]')!.click());
  };
  let root: HTMLElement | undefined;

  it('is sent again, the same move_id, before the page says it cannot reach the server', async () => {
    let n = 0;
    root = await openTable(playing, () => (++n < 3 ? lost() : played));
    await playR3();
    await vi.waitFor(() => expect(posts()).toHaveLength(3), { timeout: 3000 });
    await settle();
    expect(new Set(posts().map((p) => p.move_id)).size).toBe(1);
    expect(posts().map((p) => `${p.ply} ${p.move}`)).toEqual(['4 R3>0', '4 R3>0', '4 R3>0']);
    expect(root.querySelector('[role=alert]')).toBeNull();
    expect(root.querySelector('.status-line')!.textContent).not.toMatch(/your turn/i);
  });

  it('keeps its move_id when the player plays it again after "Cannot reach the server"', async () => {
    let down = true;
    root = await openTable(playing, () => (down ? lost() : played));
    await playR3();
    await vi.waitFor(() => expect(root!.querySelector('[role=alert]')?.textContent).toMatch(/^Cannot reach the server/), { timeout: 3000 });
    expect(posts()).toHaveLength(1 + MOVE_RETRY_MS.length);
    down = false;
    await playR3();
    await settle();
    expect(posts()).toHaveLength(2 + MOVE_RETRY_MS.length);
    expect(new Set(posts().map((p) => p.move_id)).size).toBe(1);
    expect(root.querySelector('[role=alert]')).toBeNull();
  });

  it('is a new move, with a new move_id, when another move is played instead', async () => {
    let down = true;
    root = await openTable(playing, () => (down ? lost() : played));
    await playR3();
    await vi.waitFor(() => expect(root!.querySelector('[role=alert]')).not.toBeNull(), { timeout: 3000 });
    down = false;
    press('1');
    act(() => [...root!.querySelectorAll<HTMLElement>('.actions [data-play]')].at(-1)!.click());
    await settle();
    const ids = posts().map((p) => p.move_id);
    expect(ids.at(-1)).not.toBe(ids[0]);
  });
});

describe('a player who comes back to a game in play', () => {
  const movesAsked = () => calls.filter((c) => c.method === 'GET' && c.path.startsWith('/games/g1/moves')).map((c) => c.path);
  beforeEach(resetCalls);
  afterEach(async () => {
    vi.unstubAllGlobals();
    await signOutAndUnmount();
  });

  it('is told what happened while they were away: the autopilot played their turn, then bob moved', async () => {
    // The log held only the moves seen live: on a reload (or coming back from Home) the page said nothing of
    // the timed-out turn, and its move log was empty.
    const away: MoveRecord[] = [
      { ply: 2, seat: 1, move: '/B4', by: 'player', at: '' },
      { ply: 3, seat: 0, move: '/B2', by: 'autopilot', at: '' },
      { ply: 4, seat: 1, move: 'R1>new', by: 'player', at: '' },
      { ply: 5, seat: 1, move: '/R5', by: 'player', at: '' },
    ];
    const root = await openTable(stacksGame({ status: 'active', ply: 6, to_move: [0], legal_moves: ['/R3'] }), () => stacksGame({}), away);
    expect(movesAsked()).toEqual(['/games/g1/moves?after=-1']);
    expect(root.querySelector('#seat-notice')?.textContent).toMatch(/^Your turn timed out; the autopilot played it for you: ended the turn discarding blue 2\./);
    const log = root.querySelector('details.move-log')!;
    expect(log.querySelector('summary')!.textContent).toBe('Latest moves (4)');
    expect([...log.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'bob ended the turn discarding blue 4 /B4',
      'ann (you) (autopilot, turn timed out) ended the turn discarding blue 2 /B2',
      'bob started a new pile with red 1 R1>new',
      'bob ended the turn discarding red 5 /R5',
    ]);
    expect(log.querySelector('ol')!.getAttribute('start')).toBe('3');
  });

  it('asks for the latest moves only, once, and not of a game nobody has moved in', async () => {
    await openTable(stacksGame({ status: 'active', ply: 450, to_move: [0], legal_moves: ['/R3'] }), () => stacksGame({}));
    expect(movesAsked()).toEqual(['/games/g1/moves?after=249']);
    unmountAll();
    resetCalls();
    await openTable(stacksGame({ status: 'active', ply: 0, to_move: [0], legal_moves: ['/R3'] }), () => stacksGame({}));
    expect(movesAsked()).toEqual([]);
  });
});

/**
 * openInPlay opens the game page of a game in play as ann, live, where POST /games/g1/{action} makes the game
 * after(it); with refusal, the game is after(it) all the same (it changed meanwhile) and the POST is refused so.
 */
async function openInPlay(first: GameView, action: string, after: (v: GameView) => GameView, refusal?: ApiError) {
  let current = first;
  vi.spyOn(api, 'refresh').mockResolvedValue(true);
  vi.stubGlobal('EventSource', class { close() {} addEventListener() {} });
  stub({
    'GET /me': () => ({ id: 'u1', username: 'ann' }),
    'GET /games/g1': () => current,
    'GET /games/g1/moves\\?.*': () => ({ moves: [] }),
    [`POST /games/g1/${action}`]: () => {
      current = after(current);
      if (refusal) throw refusal;
      return current;
    },
  });
  await restore();
  const root = mount(<GamePage id="g1" />);
  await settle();
  return root;
}

/** ask presses a game in play's ConfirmStep button (data-action and class action, reading asking) and returns its question's group. */
async function ask(root: Element, action: string, asking: string): Promise<Element> {
  const button = root.querySelector<HTMLElement>(`.leave-table [data-action=${action}]`)!;
  expect(button.textContent).toBe(asking);
  act(() => button.click());
  await settle();
  return root.querySelector(`.${action} [role=group]`)!; // the step's class is its action
}

/** answer presses the button of a ConfirmStep's question that reads text. */
async function answer(group: Element, text: string) {
  act(() => [...group.querySelectorAll('button')].find((b) => b.textContent === text)!.click());
  await settle();
}

describe('leaving a game in play', () => {
  // A player who had to go could only walk away: the table waited out their clock until repeated timeouts
  // handed the seat to a bot.
  beforeEach(resetCalls);
  afterEach(async () => {
    vi.unstubAllGlobals();
    await signOutAndUnmount();
  });

  it('asks once more, then hands the seat to a fill-in bot and says so, the focus on that word', async () => {
    const root = await openInPlay(stacksGame({ status: 'active', rated: true, to_move: [1], legal_moves: [] }), 'leave', (v) => ({
      ...v,
      seats: [{ ...ann, bot: 'greedy', filled_by_bot: true, abandoned: true, abandoned_why: 'left' }, bob],
    }));
    const group = await ask(root, 'leave-game', 'Leave the game…');
    expect(group.getAttribute('aria-label')).toBe('Leave the game? A fill-in bot takes your seat for the rest of it');
    expect(group.textContent).toContain('it counts as a loss for your rating');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await answer(group, 'Leave, a bot takes my seat');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/games/g1/leave']);
    expect(root.querySelector('#seat-notice')!.textContent).toBe(
      'A fill-in bot now plays your seat: you left the game. You can no longer move in this game, and it counts as a loss for your rating.',
    );
    expect(document.activeElement).toBe(root.querySelector('#seat-notice'));
    expect(root.querySelector('.leave-table')).toBeNull();
    // the server sends a seat a bot plays no hand: no empty "Your cards" for a screen reader to read
    expect(root.querySelector('.hand-area')).toBeNull();
  });

  // A lost game had to be played out, or left to a fill-in bot that played it out against the opponent.
  it('offers to resign where the server says the player may, asks once more, and then shows the result', async () => {
    const root = await openInPlay(stacksGame({ status: 'active', rated: true, to_move: [1], legal_moves: [], may_resign: true }), 'resign', (v) => ({
      ...v,
      status: 'finished',
      ended_by: 'resign',
      result: { status: 'finished', winner: 1 },
      to_move: [],
      may_resign: undefined,
    }));
    const group = await ask(root, 'resign-game', 'Resign…');
    expect(group.getAttribute('aria-label')).toBe('Resign the game? The other side wins at once');
    expect(group.textContent).toContain('The game ends now, won by the other side, and it counts as a loss for your rating.');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await answer(group, 'Resign');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/games/g1/resign']);
    const result = root.querySelector('.result')!;
    expect(result.textContent).toBe('bob wins. You resigned.');
    expect(document.activeElement).toBe(result);
    expect(root.querySelector('.leave-table')).toBeNull();
  });

  // A second press of "Resign" before the first was answered sent a second resignation, which the server
  // refused (the game was over by then): "The game is over" showed as an error under the result.
  it('sends one resignation for two presses of Resign, and shows no refusal of the second', async () => {
    const root = await openInPlay(stacksGame({ status: 'active', rated: true, to_move: [1], legal_moves: [], may_resign: true }), 'resign', (v) => v);
    let resign = () => {};
    const sent = vi.spyOn(api, 'post').mockImplementation((() =>
      sent.mock.calls.length === 1
        ? new Promise<void>((resolve) => (resign = resolve))
        : Promise.reject(new ApiError(422, { title: 'Unprocessable Entity', detail: 'the game is over' }))) as never);
    const group = await ask(root, 'resign-game', 'Resign…');
    await answer(group, 'Resign');
    await answer(group, 'Resign');
    resign();
    await settle();
    expect(sent).toHaveBeenCalledTimes(1);
    expect(root.querySelector('[role=alert]')).toBeNull();
  });

  it('does not offer to resign where the server does not say the player may (a teammate plays on, three sides)', async () => {
    const root = await openTable(stacksGame({ status: 'active', to_move: [1] }), () => stacksGame({}));
    expect(root.querySelector('.leave-table [data-action=leave-game]')).not.toBeNull();
    expect(root.querySelector('[data-action=resign-game]')).toBeNull();
  });

  // A refused leave (the game ended meanwhile) kept showing the game in play with its Leave button; a
  // refused resignation already read the game again.
  it('shows the game as it is when leaving is refused because it ended meanwhile', async () => {
    const over = stacksGame({ status: 'finished', result: { status: 'finished', winner: 1 } });
    const root = await openInPlay(stacksGame({ status: 'active', rated: true, to_move: [1], legal_moves: [] }), 'leave', () => over,
      new ApiError(422, { title: 'Unprocessable Entity', detail: 'the game is over' }));
    await answer(await ask(root, 'leave-game', 'Leave the game…'), 'Leave, a bot takes my seat');
    expect(root.textContent).toContain('The game is over');
    expect(root.querySelector('.leave-table')).toBeNull();
  });

  it('is offered to no spectator, nor once the game is over', async () => {
    const watched = await openTable(stacksGame({ status: 'active', your_seat: null, to_move: [1] }), () => stacksGame({}));
    expect(watched.querySelector('.leave-table')).toBeNull();
    unmountAll();
    const over = await openTable(stacksGame({ status: 'finished', result: { status: 'finished', winner: 1 } }), () => stacksGame({}));
    expect(over.querySelector('.leave-table')).toBeNull();
  });
});

describe('a move that lost a race', () => {
  beforeEach(resetCalls);
  afterEach(async () => {
    vi.unstubAllGlobals();
    await signOutAndUnmount();
  });
  const late = () => {
    throw new ApiError(409, { title: 'Conflict', detail: 'ply 6 has already been played; the game is at ply 7' });
  };
  // bob completed a red pile at ply 5: ann, holding a BLOCK, may block until the window closes
  const windowOpen = (over: Partial<GameView> = {}) => {
    const v = stacksGame({ status: 'active', ply: 6, to_move: [0], legal_moves: ['BLOCK', 'noblock'], ...over });
    const st = v.state as StacksState;
    st.phase = 'block-window';
    st.turn = 1;
    st.window = { completer: 1, color: 'red', eligible: [0], answered: [] };
    st.hand = ['BLOCK', 'R3'];
    return v;
  };

  it('says the block window closed before the BLOCK arrived: the page reloaded in silence, the BLOCK gone', async () => {
    const earlier: MoveRecord[] = [{ ply: 6, seat: -1, move: 'close', by: 'server', at: '' }];
    const root = await openTable(windowOpen(), late, earlier);
    act(() => root.querySelector<HTMLElement>('.block-window button')!.click());
    await settle();
    expect(root.querySelector('[role=alert]')?.textContent).toBe('Too late: the block window closed (nobody had blocked), before your BLOCK arrived. It was not played.');
    expect(calls.filter((c) => c.method === 'GET').map((c) => c.path)).toContain('/games/g1/moves?after=5');
  });

  it('names the player who moved first, and the autopilot that played a timed-out turn', async () => {
    const root = await openTable(windowOpen(), late, [{ ply: 6, seat: 1, move: 'BLOCK', by: 'player', at: '' }]);
    act(() => root.querySelector<HTMLElement>('.block-window button')!.click());
    await settle();
    expect(root.querySelector('[role=alert]')?.textContent).toBe('Too late: bob BLOCKED the completion: its completer gets no chip, before your BLOCK arrived. It was not played.');
    unmountAll();
    const timedOut: MoveRecord[] = [
      { ply: 4, seat: 0, move: 'R3>0', by: 'autopilot', at: '' },
      { ply: 5, seat: 0, move: '/B1', by: 'autopilot', at: '' },
      { ply: 6, seat: 1, move: 'R4>0', by: 'player', at: '' },
    ];
    const mine = await openTable(stacksGame({ status: 'active', to_move: [0], legal_moves: ['R3>0', '/R3'] }), late, timedOut);
    press('1');
    act(() => mine.querySelector<HTMLElement>('.actions [data-play="R3>0"]')!.click());
    await settle();
    expect(mine.querySelector('[role=alert]')?.textContent).toBe(
      'Too late: your turn timed out and the autopilot played red 3 on pile 1, ended the turn discarding blue 1, then bob played red 4 on pile 1, before your move (played red 3 on pile 1) arrived. It was not played.',
    );
  });
});

/** LIVE matches a live region: what a screen reader says when its words change. */
const LIVE = '[role=status], [role=alert], [role=log], [aria-live]:not([aria-live=off])';
const liveRegions = (root: Element) => [...root.querySelectorAll(LIVE)];

describe('a refused play at the Stacks table', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await signOutAndUnmount();
  });

  it('keeps the picked card and its plays, for another', async () => {
    // the card was dropped with the refusal: the player had to pick it again
    let played = false;
    const playing = stacksGame({ status: 'active', to_move: [0], legal_moves: ['R3>0', 'R3>new', '/R3'] });
    const root = await openTable(playing, () => {
      if (!played) throw new ApiError(422, { title: 'Unprocessable', detail: 'That move was refused.' });
      return { ...playing, ply: 5, to_move: [1], legal_moves: [] };
    });
    press('1');
    act(() => root.querySelector<HTMLElement>('.actions [data-play]')!.click());
    await settle();
    expect(root.querySelector('[role=alert]')?.textContent).toBe('That move was refused.');
    expect([...root.querySelectorAll('.hand-card[aria-pressed=true]')].map((b) => b.getAttribute('data-hand'))).toEqual(['0']);
    expect([...root.querySelectorAll('.actions [data-play]')].map((b) => b.getAttribute('data-play'))).toEqual(['R3>0', 'R3>new', '/R3']);
    // played, the card is put down
    played = true;
    act(() => root.querySelector<HTMLElement>('.actions [data-play="R3>new"]')!.click());
    await settle();
    expect(root.querySelector('.hand-card[aria-pressed=true]')).toBeNull();
    expect(root.querySelector('.actions [data-play]')).toBeNull();
  });
});

describe("a refused move's error at a table in play", () => {
  // On a phone it floats over the top of the screen (styles.css, .notice-float) instead of pushing the piles
  // or the board and the hand down, so it can be dismissed; the focus then goes on to the hand.
  browserFocus();
  afterEach(async () => {
    vi.unstubAllGlobals();
    await signOutAndUnmount();
  });

  it('is dismissed by its button, the focus going on to the hand', async () => {
    const playing = stacksGame({ status: 'active', to_move: [0], legal_moves: ['R3>0', '/R3'] });
    const root = await openTable(playing, () => {
      throw new ApiError(422, { title: 'Unprocessable', detail: 'That move was refused.' });
    });
    press('1');
    act(() => root.querySelector<HTMLElement>('.actions [data-play]')!.click());
    await settle();
    const toast = root.querySelector('.table-notices > .notice-float > .notice-toast')!;
    expect([...toast.children].map((c) => `${c.tagName} ${c.getAttribute('role') ?? c.textContent}`)).toEqual(['DIV alert', 'BUTTON Dismiss']);
    await pressInBrowser(toast.querySelector('button')!);
    expect(root.querySelector('[role=alert]')).toBeNull();
    expect(root.querySelector('.notice-toast')).toBeNull();
    expect(root.querySelector('.notice-float')).toBeNull();
    expect(document.activeElement).toBe(root.querySelector('.hand .hand-card'));
    expect(focusRefused).toEqual([]);
  });
});

describe('a game that ends at the table', () => {
  // The status line once repeated the result the notices show: "Green team (▲) wins." twice on a finished
  // Sequence table, "bot-random wins." twice on a Stacks table. The result is now shown once, in the notices
  // (read first); the status line gives way to it. What a screen reader hears as the game ends is the
  // announcer's one sentence: the result line was a status region too, and said the end a second time.
  afterEach(async () => {
    vi.unstubAllGlobals();
    await signOutAndUnmount();
  });

  /** copies are the innermost elements whose text holds text. */
  const copies = (root: Element, text: string) =>
    [...root.querySelectorAll('*')].filter((e) => e.textContent!.includes(text) && ![...e.children].some((c) => c.textContent!.includes(text)));

  const cases = [
    {
      game: 'sequence',
      playing: view({ status: 'active', seats: [ann, bob], to_move: [0], ply: 4, legal_moves: ['7H@i5'], state: sequenceState }),
      play: (root: Element) => {
        act(() => root.querySelector<HTMLElement>('.hand-card')!.click());
        act(() => root.querySelector<HTMLElement>('[data-cell=i5]')!.click());
      },
      result: 'Blue team (●) wins — that is you!',
      heard: 'The game is over: your team won!',
    },
    {
      game: 'stacks',
      playing: stacksGame({ status: 'active', to_move: [0], legal_moves: ['R3>0', '/R3'] }),
      play: (root: Element) => {
        press('1');
        act(() => root.querySelector<HTMLElement>('.actions [data-play]')!.click());
      },
      // ann's chips as the winning play leaves them
      final: { chips: [{ red: 2, blue: 3 }, { red: 1, blue: 0 }] },
      result: 'ann (you) wins with 2 red and 3 blue chips — well played!',
      heard: 'The game is over: you won!',
    },
  ];
  for (const c of cases) {
    it(`shows the ${c.game} result once, in the notices, and the screen reader hears the end once`, async () => {
      const state = { ...c.playing.state, ...('final' in c ? c.final : {}) } as GameView['state'];
      const won = { ...c.playing, state, status: 'finished' as const, ply: 5, to_move: [], legal_moves: [], result: { status: 'finished' as const, winner: 0 } };
      const root = await openTable(c.playing, () => won);
      expect(root.querySelector('.status-line')!.textContent).toMatch(/^Your turn/);
      c.play(root);
      await settle();
      expect(root.querySelector('.game')!.getAttribute('data-status')).toBe('finished');
      // the headline is a span of the result line: count its line
      const shown = copies(root, c.result).map((e) => e.closest('p.result') ?? e);
      expect(shown.map((e) => `${e.className} ${e.getAttribute('role')}`)).toEqual(['result null']);
      expect(shown[0].parentElement!.className).toBe('table-notices');
      expect(root.querySelector('.status-line')).toBeNull();
      expect(root.querySelector('#announcer')!.textContent).toBe(c.heard);
      // the end is in one live region, the announcer: the result line is none, nor inside one
      expect(liveRegions(root).map((e) => e.textContent).filter(Boolean)).toEqual([c.heard]);
      expect(shown[0].closest(LIVE)).toBeNull();
    });
  }
});

describe('the keyboard focus after a seat action', () => {
  // as in Chromium: the pressed button, disabled while its request runs, loses the focus
  browserFocus();
  afterEach(async () => {
    vi.unstubAllGlobals();
    await signOutAndUnmount();
  });

  async function openGamePage(first: GameView, next: (path: string) => GameView) {
    let current = first;
    vi.spyOn(api, 'refresh').mockResolvedValue(true);
    vi.stubGlobal('EventSource', class { close() {} addEventListener() {} });
    stub({
      'GET /me': () => ({ id: 'u1', username: 'ann' }),
      'GET /games/g1': () => current,
      'POST /games/g1/(leave|join|start)': (p) => void (current = next(p)),
    });
    await restore();
    const root = mount(<GamePage id="g1" />);
    await settle();
    return root;
  }

  it('goes to the "aborted" status after "Cancel game", not to the page', async () => {
    const root = await openGamePage(view({}), () => view({ status: 'aborted', your_seat: null }));
    await pressInBrowser([...root.querySelectorAll('button')].find((b) => b.textContent === 'Cancel game')!);
    expect(root.querySelector('.result')!.textContent).toBe('The game was aborted.');
    expect(document.activeElement).toBe(root.querySelector('.result'));
    expect(focusRefused).toEqual([]);
    // the focus reads the result line: no live region says it again
    expect(root.querySelector('.result')!.closest(LIVE)).toBeNull();
    expect(liveRegions(root).map((e) => e.textContent).filter(Boolean)).toEqual([]);
  });

  it('cancels only a table still open: a join that started the game first leaves the creator seated in it', async () => {
    resetCalls();
    const root = await openGamePage(view({}), () => view({ status: 'aborted', your_seat: null }));
    await pressInBrowser([...root.querySelectorAll('button')].find((b) => b.textContent === 'Cancel game')!);
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([['/games/g1/leave', { only_if_open: true }]]);
  });

  it('tells someone who opens a called-off game so, once', async () => {
    const aborted = await openGamePage(view({ status: 'aborted', your_seat: null, created_by: 'u2', seats: [bob, open] }), () => view({}));
    expect(aborted.querySelector('.result')!.textContent).toBe('The game was aborted.');
    expect(liveRegions(aborted).map((e) => e.textContent).filter(Boolean)).toEqual(['The game was aborted.']);
  });

  it('sends the seat picked with "Sit here", and goes to "Leave this game"', async () => {
    // bob's 2-against-2 table, ann looking: she sits on seat 3, bob's Blue team, not the first open seat
    const bobs = { players: 4, teams: 2, created_by: 'u2' };
    const seats = [{ ...bob, seat: 0, team: 0 }, { ...open, seat: 1, team: 1 }, { ...open, seat: 2, team: 0 }, { ...bot, seat: 3, team: 1 }];
    const root = await openGamePage(view({ ...bobs, seats, your_seat: null }), () =>
      view({ ...bobs, seats: seats.map((s) => (s.seat === 2 ? { ...ann, seat: 2, team: 0 } : s)), your_seat: 2 }),
    );
    calls.length = 0;
    await pressInBrowser(root.querySelector<HTMLButtonElement>('button[data-seat="2"]')!);
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([['/games/g1/join', { seat: 2 }]]);
    expect(root.querySelector('[data-seat="2"]')!.textContent).toContain('ann (you)');
    expect(document.activeElement!.textContent).toBe('Leave this game');
    expect(focusRefused).toEqual([]);
  });

  it('goes to "Take a seat" after leaving a game others sit at', async () => {
    // ann sits with bob at bob's game: she leaves rather than cancels
    const three = { players: 3, teams: 3, created_by: 'u2' };
    const root = await openGamePage(view({ ...three, seats: [ann, bob, { ...open, seat: 2 }] }), () =>
      view({ ...three, seats: [{ ...open, seat: 0 }, bob, { ...open, seat: 2 }], your_seat: null }),
    );
    await pressInBrowser([...root.querySelectorAll('button')].find((b) => b.textContent === 'Leave this game')!);
    expect(document.activeElement!.textContent).toBe('Take a seat');
    expect(focusRefused).toEqual([]);
  });

  it('shows the game as it is after a refused "Take a seat": started meanwhile, its stream down', async () => {
    // bob's table, ann looking; carol took the last seat and the game started, but ann's page never heard
    const waiting = view({ created_by: 'u2', seats: [{ ...bob, seat: 0, team: 0 }, open], your_seat: null });
    const started = view({ ...waiting, status: 'active', seats: [{ ...bob, seat: 0, team: 0 }, { ...bob, seat: 1, user: { id: 'u3', username: 'carol' } }], state: sequenceState, to_move: [0] });
    let current = waiting;
    vi.spyOn(api, 'refresh').mockResolvedValue(true);
    vi.stubGlobal('EventSource', class { close() {} addEventListener() {} });
    stub({
      'GET /me': () => ({ id: 'u1', username: 'ann' }),
      'GET /games/g1': () => current,
      'POST /games/g1/join': () => {
        current = started;
        throw new ApiError(422, { title: 'Unprocessable', detail: 'the game has started; seats can no longer be taken or left' });
      },
    });
    await restore();
    const root = mount(<GamePage id="g1" />);
    await settle();
    await pressInBrowser([...root.querySelectorAll('button')].find((b) => b.textContent === 'Take a seat')!);
    await settle();
    expect(root.textContent).toContain('The game has started');
    expect(root.textContent).not.toContain('Waiting for players');
    expect(buttons(root)).not.toContain('Take a seat');
    expect(document.activeElement!.tagName).toBe('H1');
  });
});
