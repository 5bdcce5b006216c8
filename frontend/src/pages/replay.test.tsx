// The replay's step buttons as a keyboard user meets them: pressing
// "Previous move" down to the deal, or "Final position", once disabled the
// button pressed, and the focus fell to the page (seen in Chromium).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ArchiveDoc } from '../game/archive';
import { browserFocus, focusRefused } from '../testing/browserFocus';
import { press } from '../testing/dom';
import { mount, resetCalls, settle, signOutAndUnmount, stub, unmountAll } from '../testing/stubApi';
import Replay, { keepInView } from './Replay';
import { finishedArchive } from '../testing/archive';
import { spokenText } from '../testing/spoken';

const archive = finishedArchive;
const vector = () => ({
  game: 'sequence',
  position: { board: ['*........*'], sequences: {}, hands: [['TD'], ['2H']], discards: [[], []], deck: ['2D'], turn: 0 },
  expect: { status: 'playing', winner: null },
});
const button = (root: Element, label: string) => root.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`)!;

beforeEach(() => {
  vi.restoreAllMocks();
  resetCalls();
});
afterEach(signOutAndUnmount);

describe('the replay', () => {
  browserFocus();
  afterEach(() => expect(focusRefused).toEqual([]));

  async function open() {
    stub({ 'GET /games/g1/archive': () => archive, 'GET /games/g1/vector\\?ply=\\d+': vector });
    const root = mount(<Replay id="g1" />);
    await settle();
    expect(root.querySelector('.ply')!.textContent).toBe('Ply 2 of 2');
    return root;
  }

  it('keeps the focus on "Previous move" once it reaches the deal, and a press there does nothing', async () => {
    const root = await open();
    const prev = button(root, 'Previous move');
    prev.focus();
    await press(prev);
    await press(prev);
    expect(root.querySelector('.ply')!.textContent).toBe('Ply 0 of 2');
    expect(document.activeElement).toBe(prev);
    expect(prev.getAttribute('aria-disabled')).toBe('true');
    await press(prev);
    expect(root.querySelector('.ply')!.textContent).toBe('Ply 0 of 2');
    expect(document.activeElement).toBe(prev);
  });

  it('shows the board with its coordinates, as the list of moves names the cells', async () => {
    const root = await open();
    const grid = root.querySelector('[role=grid]')!;
    expect(grid.getAttribute('aria-label')).toMatch(/^Board after ply/);
    const wrap = grid.closest('.board-wrap')!;
    expect(wrap.querySelector('.board-cols')!.textContent).toBe('abcdefghij');
    expect(wrap.querySelector('.board-rows')!.textContent).toBe('12345678910');
  });

  it('keeps the focus on "Final position" once pressed', async () => {
    const root = await open();
    await press(button(root, 'First position'));
    const last = button(root, 'Final position');
    expect(last.getAttribute('aria-disabled')).toBeNull();
    last.focus();
    await press(last);
    expect(root.querySelector('.ply')!.textContent).toBe('Ply 2 of 2');
    expect(document.activeElement).toBe(last);
    expect(button(root, 'Next move').getAttribute('aria-disabled')).toBe('true');
  });
});

describe("the replay's list of moves", () => {
  // it read a move to a screen reader in notation ("1. ann: JC@f1", "J C at f 1") where the rest of the page
  // names the card in words, and showed no words on hover either
  it('reads each move in words, as the game log does, the notation shown and its words on hover', async () => {
    stub({ 'GET /games/g1/archive': () => archive, 'GET /games/g1/vector\\?ply=\\d+': vector });
    const root = mount(<Replay id="g1" />);
    await settle();
    const moves = [...root.querySelectorAll('.move-list li button')].slice(1);
    expect(moves.map((b) => spokenText(b))).toEqual(['1. ann: played the jack of clubs on f1', '2. bot-random: played the ace of hearts on g5']);
    expect(moves.map((b) => b.querySelector('code')!.textContent)).toEqual(['JC@f1', 'AH@g5']);
    expect(moves[0].querySelector('code')!.getAttribute('title')).toBe('played the jack of clubs on f1');
  });
});

describe("the replay's result", () => {
  it('names a winning seat a fill-in bot took over as the game page does', async () => {
    const stacks: ArchiveDoc = structuredClone(archive);
    stacks.game.game = 'stacks';
    stacks.setup = { game: 'stacks', players: 2, teams: 2 };
    stacks.game.seats[0] = { ...stacks.game.seats[0], filled_by_bot: true, abandoned: true, bot: 'greedy' };
    stacks.moves = [{ ply: 0, seat: 0, move: '/R5', by: 'fill-in', at: 't0' }];
    stub({
      'GET /games/g1/archive': () => stacks,
      'GET /games/g1/vector\\?ply=\\d+': () => ({ game: 'stacks', position: { piles: [], hands: [['R1'], ['B2']], discards: [[], []], chips: [], deck: [], turn: 1 }, expect: { status: 'finished', winner: 0 } }),
    });
    const root = mount(<Replay id="g1" />);
    await settle();
    expect(root.textContent).toContain('The fill-in bot that took over from ann won.');
    expect(root.textContent).toContain('ann left the game; a fill-in bot played that seat to the end.');
    expect(root.textContent).not.toMatch(/· ann won/);
  });

  // bob never opened his semifinal (a rated knockout, no-shows played by bots): the bot in his seat won it,
  // and the replay said "Blue team won. bob completed 2 sequences" while his profile said "abandoned", a loss
  it("says that a fill-in bot completed the sequences for the player who left, and that the rating counts it a loss for him", async () => {
    const doc: ArchiveDoc = structuredClone(archive);
    Object.assign(doc.game, { rated: true, tournament_id: 't1', result: { status: 'finished', winner: 1 } });
    doc.game.seats = [
      { seat: 0, team: 0, user: { id: 'u1', username: 'ann' }, open: false, filled_by_bot: false, abandoned: false },
      { seat: 1, team: 1, user: { id: 'u2', username: 'bob' }, bot: 'greedy', open: false, filled_by_bot: true, abandoned: true, abandoned_why: 'no_show' },
    ];
    const final = { game: 'sequence', position: { board: ['*........*'], sequences: { b: [['a1', 'a5'], ['b1', 'b5']] }, hands: [[], []], discards: [[], []], deck: [], turn: 0 }, expect: { status: 'won', winner: 'b' } };
    doc.final_state = final;
    stub({ 'GET /games/g1/archive': () => doc, 'GET /games/g1/vector\\?ply=\\d+': () => final });
    const root = mount(<Replay id="g1" />);
    await settle();
    const text = root.textContent!;
    expect(text).toContain('Green team (▲) won. The fill-in bot that took over from bob completed 2 sequences: a1–a5 and b1–b5.');
    expect(text).toContain('bob had not moved by the round’s deadline; a fill-in bot played that seat to the end (rated as a loss for bob, whatever the board says).');
    expect(text).not.toMatch(/\. bob completed/);
  });

  it('says a game every side left is rated a draw for all, and how each left', async () => {
    const doc: ArchiveDoc = structuredClone(archive);
    Object.assign(doc.game, { rated: true, result: { status: 'drawn', winner: null } });
    doc.game.seats = ['ann', 'bob'].map((n, i) => ({ seat: i, team: i, user: { id: `u${i}`, username: n }, bot: 'greedy', open: false, filled_by_bot: true, abandoned: true }));
    stub({ 'GET /games/g1/archive': () => doc, 'GET /games/g1/vector\\?ply=\\d+': vector });
    let root = mount(<Replay id="g1" />);
    await settle();
    // seats abandoned before the server kept why
    expect(root.textContent).toContain('ann and bob left the game; fill-in bots played those seats to the end (rated as a draw for all: every side left).');
    doc.game.seats[0].abandoned_why = 'left';
    doc.game.seats[1].abandoned_why = 'timed_out';
    root = mount(<Replay id="g1" />);
    await settle();
    expect(root.textContent).toContain('ann left the game and bob timed out too many turns in a row; fill-in bots played those seats to the end (rated as a draw for all: every side left).');
  });
});

describe("the replay of a resigned game", () => {
  it('says which side resigned, where it would say how the game was won', async () => {
    const doc: ArchiveDoc = structuredClone(archive);
    Object.assign(doc.game, { ended_by: 'resign', result: { status: 'finished', winner: 1 } });
    doc.game.seats = [
      { seat: 0, team: 0, user: { id: 'u1', username: 'ann' }, open: false, filled_by_bot: false, abandoned: false },
      { seat: 1, team: 1, user: { id: 'u2', username: 'bob' }, open: false, filled_by_bot: false, abandoned: false },
    ];
    stub({ 'GET /games/g1/archive': () => doc, 'GET /games/g1/vector\\?ply=\\d+': vector });
    const root = mount(<Replay id="g1" />);
    await settle();
    expect(root.textContent).toContain('Green team (▲) won. Blue team (●) resigned.');
  });
});

describe("the replay's word on how the game was won", () => {
  // it said only "Green team (▲) won." of a 3-team game and "annvi7u won." of a Stacks one (seen in Chromium)
  const openWith = async (doc: ArchiveDoc, vectorDoc: unknown) => {
    stub({ 'GET /games/g1/archive': () => doc, 'GET /games/g1/vector\\?ply=\\d+': () => vectorDoc });
    const root = mount(<Replay id="g1" />);
    await settle();
    return root.textContent!;
  };

  it('names the winning team and its sequences, and the Stacks winner\'s chips, from the final position', async () => {
    const three: ArchiveDoc = structuredClone(archive);
    three.setup = { game: 'sequence', variant: 'classic', players: 3, teams: 3 };
    Object.assign(three.game, { players: 3, teams: 3, result: { status: 'finished', winner: 1 } });
    three.game.seats = ['ann', 'bob', 'cat'].map((n, i) => ({ seat: i, team: i, user: { id: `u${i}`, username: n }, open: false, filled_by_bot: false, abandoned: false }));
    const seqFinal = { game: 'sequence', position: { board: ['*........*'], sequences: { b: [['i1', 'e5']] }, hands: [[], [], []], discards: [[], [], []], deck: [], turn: 1 }, expect: { status: 'won', winner: 'b' } };
    three.final_state = seqFinal;
    expect(await openWith(three, seqFinal)).toContain('Green team (▲) won. bob completed the sequence i1–e5.');
    unmountAll();

    const stacks: ArchiveDoc = structuredClone(archive);
    stacks.game.game = 'stacks';
    stacks.setup = { game: 'stacks', players: 2, teams: 2 };
    stacks.moves = [{ ply: 0, seat: 0, move: 'R5>0', by: 'player', at: 't0' }];
    const stFinal = { game: 'stacks', position: { piles: [], hands: [['R1'], ['B2']], discards: [[], []], chips: [{ red: 3, blue: 2 }, { red: 0, blue: 1 }], deck: [], turn: 0 }, expect: { status: 'won', winner: 0 } };
    stacks.final_state = stFinal;
    expect(await openWith(stacks, stFinal)).toContain('ann won with 3 red and 2 blue chips.');
  });
});

describe("the replay's word on why the game was drawn", () => {
  // it said only "Draw." where the game's page says why (seen with a full 3-team board)
  const drawn = (game: 'sequence' | 'stacks', moves: ArchiveDoc['moves'], playCap?: number): ArchiveDoc => {
    const doc: ArchiveDoc = structuredClone(archive);
    doc.game.game = game;
    doc.game.result = { status: 'drawn', winner: null };
    doc.setup = { game, players: 2, teams: 2, ...(playCap ? { play_cap: playCap } : {}) };
    doc.moves = moves;
    return doc;
  };
  const openWith = async (doc: ArchiveDoc) => {
    stub({ 'GET /games/g1/archive': () => doc, 'GET /games/g1/vector\\?ply=\\d+': vector });
    const root = mount(<Replay id="g1" />);
    await settle();
    const text = root.textContent!;
    unmountAll();
    return text;
  };

  it('says every seat passed, or the cap was reached', async () => {
    const passes = [
      { ply: 0, seat: 0, move: 'JC@f1', by: 'player', user_id: 'u1', at: 't0' },
      { ply: 1, seat: 1, move: 'x2H', by: 'bot', at: 't1' },
      { ply: 2, seat: 1, move: 'pass', by: 'bot', at: 't2' },
      { ply: 3, seat: 0, move: 'pass', by: 'player', user_id: 'u1', at: 't3' },
    ];
    expect(await openWith(drawn('sequence', passes))).toContain('Draw: every seat passed in one round, no legal play left.');
    expect(await openWith(drawn('sequence', passes.slice(0, 3), 300))).toContain('Draw: the play cap was reached (300).');
    expect(await openWith(drawn('stacks', [{ ply: 0, seat: 0, move: '/R5', by: 'player', at: 't0' }], 500))).toContain('Draw: the game reached its cap of turns (500).');
  });
});

describe('the move list', () => {
  // jsdom lays nothing out: each element's box is given.
  const boxed = (top: number, height: number) => {
    const el = document.createElement('div');
    el.getBoundingClientRect = () => ({ top, bottom: top + height, height, left: 0, right: 0, width: 0, x: 0, y: top, toJSON: () => ({}) });
    return el;
  };

  it('scrolls itself, not the page, to show the current move below or above its view', () => {
    const list = boxed(100, 300);
    list.scrollTop = 50;
    keepInView(list, boxed(420, 20)); // 40 px below the list's bottom (400)
    expect(list.scrollTop).toBe(90);
    keepInView(list, boxed(70, 20)); // 30 px above its top
    expect(list.scrollTop).toBe(60);
    keepInView(list, boxed(200, 20)); // in view: left alone
    expect(list.scrollTop).toBe(60);
  });

  it('is scrolled to the current move when the replay opens at the final position', async () => {
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const bottom = this.classList.contains('move-list') ? 100 : 500;
      return { top: bottom - 20, bottom, height: 20, left: 0, right: 0, width: 0, x: 0, y: 0, toJSON: () => ({}) };
    });
    stub({ 'GET /games/g1/archive': () => archive, 'GET /games/g1/vector\\?ply=\\d+': vector });
    const root = mount(<Replay id="g1" />);
    await settle();
    const list = root.querySelector<HTMLElement>('.move-list')!;
    expect(spokenText(list.querySelector('[aria-current=step]')!)).toBe('2. bot-random: played the ace of hearts on g5');
    expect(list.scrollTop).toBe(400);
  });
});
