import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'preact/test-utils';
import { render } from 'preact';
import type { GameView, SequenceState, StacksState } from '../api/types';
import { SequenceTable, lockedCells } from './SequenceTable';
import { StacksTable, chipsToWin } from './StacksTable';
import { mount, unmountAll } from '../testing/stubApi';
import { spokenText } from '../testing/spoken';

const seats = [
  { seat: 0, team: 0, user: { id: 'u1', username: 'ann' }, open: false, filled_by_bot: false, abandoned: false },
  { seat: 1, team: 1, user: { id: 'b', username: 'bot-random' }, bot: 'random', open: false, filled_by_bot: false, abandoned: false },
];

function seqView(state: Partial<SequenceState>, legal: string[]): GameView {
  const board = ['*........*', ...Array(8).fill('..........'), '*........*'];
  return {
    id: 'g', game: 'sequence', players: 2, teams: 2, status: 'active', rated: false, clock: {}, created_at: '', seed_hash: '', ply: 4,
    seats, your_seat: 0, to_move: [0], legal_moves: legal,
    state: {
      game: 'sequence', variant: 'classic', seat: 0, players: 2, teams: 2, sequences_to_win: 2, board, sequences: {}, locked: [],
      discards: [[], []], hand_sizes: [3, 7], deck_size: 80, hand: ['7H', '2S', 'JS'], turn: 0, ply: 4, exchanged: false,
      penalty_owed: [0, 0], plays: 4, status: 'playing', winner: null, ...state,
    },
  };
}

afterEach(unmountAll);
const press = (key: string) => act(() => void window.dispatchEvent(new KeyboardEvent('keydown', { key })));
const lit = (root: Element) => [...root.querySelectorAll('.cell.target')].map((e) => e.getAttribute('data-cell')).sort();

describe('the Sequence table', () => {
  it('picks a card by number key, lights its targets and plays a click', () => {
    const moves: string[] = [];
    const root = mount(<SequenceTable view={seqView({}, ['7H@i5', '7H@d6', 'JSxe5', 'x2S'])} onMove={(m) => moves.push(m)} busy={false} />);
    expect(lit(root)).toEqual([]);
    // the hint names the keys of the hand's three cards
    expect(root.querySelector('.status-line')!.textContent).toBe('Your turn: pick a card (keys 1–3), then a highlighted cell (arrows, Enter).');
    press('1');
    expect(lit(root)).toEqual(['d6', 'i5']);
    expect(root.querySelector('.hand-card[aria-pressed=true]')!.textContent).toContain('7♥');
    // a sentence, the card named as everywhere else ("for 7 of hearts" once)
    expect(root.querySelector('.status-line')!.textContent).toBe('Your turn: choose a highlighted cell for the 7 of hearts.');
    // the keyboard focus went to the first target
    expect(root.querySelector('[role=gridcell][tabindex="0"]')!.getAttribute('data-cell')).toBe('i5');
    act(() => (root.querySelector('[data-cell=e5]') as HTMLElement).click()); // not a target: nothing
    expect(moves).toEqual([]);
    act(() => (root.querySelector('[data-cell=d6]') as HTMLElement).click());
    expect(moves).toEqual(['7H@d6']);
    press('3');
    expect(root.querySelector('.cell.target.remove')!.getAttribute('data-cell')).toBe('e5');
  });

  it('moves the page focus to the first target on a number key, and keeps it on the board after Enter plays', () => {
    const moves: string[] = [];
    const view = seqView({}, ['7H@i5', '7H@d6', 'JSxe5', 'x2S']);
    const root = mount(<SequenceTable view={view} onMove={(m) => moves.push(m)} busy={false} />);
    expect(document.activeElement).toBe(document.body);
    press('1');
    expect(document.activeElement!.getAttribute('data-cell')).toBe('i5');
    // Enter on the focused cell plays it
    act(() => void document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true })));
    expect(moves).toEqual(['7H@i5']);
    // the next position, the opponent to move: the played cell keeps the focus
    const after = { ...seqView({ hand: ['2S', 'JS', '4D'] }, []), to_move: [1] };
    act(() => render(<SequenceTable view={after} onMove={(m) => moves.push(m)} busy={false} />, root));
    const cell = root.querySelector('[data-cell=i5]')!;
    expect(cell.getAttribute('tabindex')).toBe('0');
    expect(document.activeElement).toBe(cell);
  });

  it('moves the focus to the turn-in button when the number key picks a dead card', () => {
    mount(<SequenceTable view={seqView({}, ['7H@i5', 'x2S'])} onMove={() => {}} busy={false} />);
    press('2');
    expect(document.activeElement!.textContent).toBe('Turn in dead 2♠');
    // read as the hand's card is ("2 of spades"), not as "2 black spade suit"
    expect(spokenText(document.activeElement!)).toBe('Turn in dead 2 of spades');
    // the status line is a sentence with a capital ("2 of spades has no place…" once)
    expect(document.querySelector('.status-line')!.textContent).toBe('The 2 of spades has no place to go: it is dead, turn it in.');
  });

  it('offers the dead-card exchange and pass only when legal', () => {
    const moves: string[] = [];
    let root = mount(<SequenceTable view={seqView({}, ['7H@i5', 'x2S'])} onMove={(m) => moves.push(m)} busy={false} />);
    const buttons = () => [...root.querySelectorAll('.actions button')].map((b) => b.textContent);
    expect(buttons()).toEqual(['Turn in dead 2♠']);
    act(() => (root.querySelector('.actions button') as HTMLElement).click());
    expect(moves).toEqual(['x2S']);
    root = mount(<SequenceTable view={seqView({}, ['pass'])} onMove={(m) => moves.push(m)} busy={false} />);
    expect(buttons()).toEqual(['Pass (no legal play)']);
    root = mount(<SequenceTable view={{ ...seqView({}, []), to_move: [1] }} onMove={() => {}} busy={false} />);
    expect(buttons()).toEqual([]);
    expect(root.querySelector('.status-line')!.textContent).toBe('bot-random to move.');
  });

  it('marks the chips of completed sequences as locked, never the corners', () => {
    expect([...lockedCells({ locked: [], sequences: { a: [['a1', 'e1']] } })].sort()).toEqual(['b1', 'c1', 'd1', 'e1']);
  });
});

describe('the Sequence players', () => {
  it('says the team of a same-named bot once, and gives screen readers hand sizes and discards', () => {
    const bot = (seat: number, team: number) => ({ seat, team, user: null, bot: 'greedy', open: false, filled_by_bot: false, abandoned: false });
    const four = { ...seqView({ players: 4, hand_sizes: [3, 1, 6, 6], discards: [[], ['7H'], [], []] }, []), players: 4, seats: [seats[0], bot(1, 1), { ...seats[0], seat: 2, user: { id: 'u3', username: 'cy' } }, bot(3, 1)] };
    const root = mount(<SequenceTable view={four} onMove={() => {}} busy={false} />);
    const players = [...root.querySelectorAll('.players .player')];
    const heard = (i: number) => spokenText(players[i].querySelector('.player-name')!);
    expect(heard(1)).toBe('bot-greedy (seat 2, Green team)');
    expect(heard(3)).toBe('bot-greedy (seat 4, Green team)');
    expect(heard(0)).toBe('ann (you), Blue teamto move'); // the badge follows
    expect(players[1].querySelector('.muted')!.textContent).toBe('1 card in hand');
    expect(players[1].querySelector('.discard-top')!.getAttribute('role')).toBe('img');
    expect(root.querySelectorAll('.players span[aria-label]:not([role])')).toHaveLength(0);
  });
});

describe('the Sequence seat list of a 12-player table', () => {
  // 3 teams of 4: the viewer (seat 1, Blue) and eleven bot-random, one of them a fill-in bot
  const twelve = Array.from({ length: 12 }, (_, i) =>
    i === 0 ? { ...seats[0] } : { seat: i, team: i % 3, user: null, bot: 'random', open: false, filled_by_bot: i === 7, abandoned: false },
  );
  const view = (over: Partial<GameView> = {}): GameView => ({
    ...seqView({ players: 12, teams: 3, hand_sizes: Array(12).fill(3), discards: Array.from({ length: 12 }, (_, i) => (i === 4 ? ['7H', 'QS'] : [])), turn: 4 }, []),
    players: 12, teams: 3, seats: twelve, to_move: [4], ...over,
  });
  const lines = (root: Element) => [...root.querySelectorAll('.players.seat-lines > .player')];

  it('gives every seat a line of its own: turn marker, seat number, short name, the viewer marked', () => {
    const root = mount(<SequenceTable view={view()} onMove={() => {}} busy={false} />);
    const seatLines = lines(root);
    expect(seatLines).toHaveLength(12);
    // the number and the marker lead each line; only the seat to move has the marker
    expect(seatLines.map((l) => l.querySelector('.seat-lead')!.textContent)).toEqual(['1', '2', '3', '4', '▶5', '6', '7', '8', '9', '10', '11', '12']);
    expect(seatLines.map((l) => l.classList.contains('to-move'))).toEqual(seatLines.map((_, i) => i === 4));
    // the name without what the number and chip already say; "you" on the viewer's own line only
    expect(seatLines.map((l) => l.querySelector('.short-name')!.textContent)).toEqual(['ann', ...Array(11).fill('bot-random')]);
    expect(seatLines.map((l) => l.classList.contains('mine'))).toEqual(seatLines.map((_, i) => i === 0));
    expect(root.querySelectorAll('.mini-tag.you')).toHaveLength(1);
    expect(seatLines[0].querySelector('.mini-tag.you')).not.toBeNull();
    expect(seatLines[7].querySelector('.mini-tag.fill-in')).not.toBeNull();
    // the compact pieces are for the eyes: a screen reader has the full words
    for (const l of seatLines) for (const el of l.querySelectorAll('.seat-lead, .compact-name')) expect(el.getAttribute('aria-hidden')).toBe('true');
  });

  it('reads every seat to a screen reader in full, as on a wide screen', () => {
    const root = mount(<SequenceTable view={view()} onMove={() => {}} busy={false} />);
    const heard = lines(root).map((l) => spokenText(l));
    expect(heard[0]).toBe('ann (you), Blue team3 cards in handdiscard pile empty');
    expect(heard[4]).toBe('bot-random (seat 5, Green team)to move3 cards in handdiscard pile: 2 cards, top queen of spades');
    expect(heard[7]).toBe('bot-random (seat 8, Green team)fill-in bot3 cards in handdiscard pile empty');
    expect(heard[11]).toBe('bot-random (seat 12, Red team)3 cards in handdiscard pile empty');
  });

  it('shows the seat details on demand, and hides them again', () => {
    const root = mount(<SequenceTable view={view()} onMove={() => {}} busy={false} />);
    const list = root.querySelector('.players.seat-lines')!;
    const toggle = root.querySelector<HTMLButtonElement>('button.seat-details-toggle')!;
    expect(toggle.textContent).toContain('Seat details');
    expect(toggle.getAttribute('aria-controls')).toBe(list.id);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(list.classList.contains('details')).toBe(false);
    act(() => toggle.click());
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(list.classList.contains('details')).toBe(true);
    // the full rows: the name with its team, the badges, "3 cards"
    expect(lines(root)[4].querySelector('.full-name')!.textContent).toBe('bot-random (seat 5, Green team)');
    expect(lines(root)[4].querySelector('.badge')!.textContent).toBe('to move');
    expect(lines(root)[4].querySelector('.hand-size')!.textContent).toBe('3 cards in hand');
    act(() => toggle.click());
    expect(list.classList.contains('details')).toBe(false);
  });

  it('keeps the short status line for the eyes and the keys for screen readers', () => {
    const root = mount(<SequenceTable view={view({ to_move: [0], legal_moves: ['7H@i5'] })} onMove={() => {}} busy={false} />);
    const status = root.querySelector('.status-line')!;
    expect(status.textContent).toBe('Your turn: pick a card (keys 1–3), then a highlighted cell (arrows, Enter).');
    const shown = [...status.childNodes].filter((n) => !(n as Element).classList?.contains('wide-only')).map((n) => n.textContent).join('');
    expect(shown).toBe('Your turn: pick a card, then a highlighted cell.');
  });
});

function stacksView(state: Partial<StacksState>, legal: string[], toMove = [0]): GameView {
  return {
    id: 's', game: 'stacks', players: 2, teams: 2, status: 'active', rated: false, clock: {}, created_at: '', seed_hash: '', ply: 9,
    seats, your_seat: 0, to_move: toMove, legal_moves: legal,
    state: {
      game: 'stacks', ply: 9, seat: 0, players: 2, play_cap: 500, turns: 3, turn: 0, direction: 1, phase: 'play', status: 'playing', winner: -1,
      piles: [{ color: 'red', cards: ['R1', 'R2'] }], discards: [['B4'], []], setaside: [], chips: [{ red: 0, blue: 0 }, { red: 1, blue: 0 }],
      supply: { red: 19, blue: 20 }, hand_sizes: [3, 5], deck_size: 90, skipped: [false, false], hand: ['R3', 'B1', 'SKIP'], ...state,
    },
  };
}

describe('the Stacks table', () => {
  it("heads the status line with what the others did to the viewer since their last move, and keeps quiet once they move", () => {
    // a stolen chip showed only as a smaller count, a blocked completion not at all: the log that said it is folded away
    const log = [
      { ply: 5, seat: 0, move: '/R2', by: 'player', at: '' },
      { ply: 6, seat: 1, move: 'STEAL_CHIP@0:red', by: 'player', at: '' },
      { ply: 7, seat: 1, move: 'STEAL_CARD@0:hand', by: 'player', at: '' },
      { ply: 8, seat: 1, move: '/B3', by: 'player', at: '' },
    ];
    const root = mount(<StacksTable view={stacksView({}, ['R3>0', '/R3'])} log={log} onMove={() => {}} busy={false} />);
    expect(root.querySelector('.status-line')!.textContent).toBe(
      'bot-random stole a red chip from you. bot-random took a card from your hand. Your turn: play cards onto piles, then end the turn with a discard.',
    );
    const after = mount(<StacksTable view={stacksView({}, ['R3>0', '/R3'])} log={[...log, { ply: 9, seat: 0, move: 'R3>0', by: 'player', at: '' }]} onMove={() => {}} busy={false} />);
    expect(after.querySelector('.status-line')!.textContent).toBe('Your turn: play cards onto piles, then end the turn with a discard.');
  });

  it('says so when no card fits a pile, so that the turn is not stuck with nothing marked playable', () => {
    const stuck = mount(<StacksTable view={stacksView({}, ['/R3', '/B1', '/SKIP'])} onMove={() => {}} busy={false} />);
    expect(stuck.querySelector('.status-line')!.textContent).toBe('Your turn: no card of yours fits a pile now. Choose one to discard, which ends the turn.');
    expect(stuck.querySelectorAll('.hand-card.playable')).toHaveLength(0);
    const free = mount(<StacksTable view={stacksView({}, ['R3>0', '/R3', '/B1', '/SKIP'])} onMove={() => {}} busy={false} />);
    expect(free.querySelector('.status-line')!.textContent).toBe('Your turn: play cards onto piles, then end the turn with a discard.');
  });

  it('offers the plays of the chosen card and the end-of-turn discard', () => {
    const moves: string[] = [];
    const root = mount(<StacksTable view={stacksView({}, ['R3>0', 'B1>new', 'SKIP', '/R3', '/B1', '/SKIP'])} onMove={(m) => moves.push(m)} busy={false} />);
    press('1');
    const options = [...root.querySelectorAll('.actions button')].map((b) => b.textContent);
    expect(options).toEqual(['on pile 1', 'Discard it and end the turn']);
    act(() => (root.querySelector('.actions button') as HTMLElement).click());
    expect(moves).toEqual(['R3>0']);
  });

  it('moves the page focus to the first action on a number key, and keeps it on the table after a play', () => {
    const moves: string[] = [];
    const root = mount(<StacksTable view={stacksView({}, ['R3>0', 'B1>new', 'SKIP', '/R3', '/B1', '/SKIP'])} onMove={(m) => moves.push(m)} busy={false} />);
    expect(document.activeElement).toBe(document.body);
    press('2');
    expect(document.activeElement!.textContent).toBe('start a new pile');
    press('1');
    expect(document.activeElement!.textContent).toBe('on pile 1');
    act(() => (document.activeElement as HTMLElement).click());
    expect(moves).toEqual(['R3>0']);
    // the action buttons went with the play: the focus is on the hand, not the page
    expect(document.activeElement).toBe(root.querySelector('.hand'));
    // the request runs (every card disabled), then the next position: the first card to play next
    const rerender = (v: GameView, busy: boolean) => act(() => render(<StacksTable view={v} onMove={(m) => moves.push(m)} busy={busy} />, root));
    rerender(stacksView({}, ['R3>0', 'B1>new', 'SKIP', '/R3', '/B1', '/SKIP']), true);
    expect(document.activeElement).toBe(root.querySelector('.hand'));
    rerender({ ...stacksView({ hand: ['B1', 'SKIP'], ply: 10 }, ['B1>new', '/B1', '/SKIP', '/']), ply: 10 }, false);
    expect(document.activeElement!.getAttribute('aria-label')).toBe('1: blue 1');
  });

  it('keeps the focus on a card that only discards, so that Enter does not end the turn, and on a card that cannot be used', () => {
    const moves: string[] = [];
    const root = mount(<StacksTable view={stacksView({}, ['R3>0', '/R3', '/B1'])} onMove={(m) => moves.push(m)} busy={false} />);
    press('2');
    // picked, its discard offered a Tab away, but the focus stays on the card
    expect(root.querySelector('[data-hand="1"]')!.getAttribute('aria-pressed')).toBe('true');
    expect([...root.querySelectorAll('.actions button')].map((b) => b.textContent)).toEqual(['Discard it and end the turn']);
    expect(document.activeElement).toBe(root.querySelector('[data-hand="1"]'));
    // Enter on it (a click) puts the card down again: no move
    act(() => (document.activeElement as HTMLElement).click());
    expect(moves).toEqual([]);
    expect(root.querySelector('.actions button')).toBeNull();
    press('3');
    expect(document.activeElement).toBe(root.querySelector('[data-hand="2"]'));
    // Escape closes the actions; a focus among them goes back to the hand
    press('1');
    press('Escape');
    expect(root.querySelector('.actions button')).toBeNull();
    expect(document.activeElement).toBe(root.querySelector('.hand'));
  });

  it('tells apart the steal targets of three bots of one name', () => {
    const bot = (seat: number) => ({ seat, team: seat, user: { id: 'b' + seat, username: 'bot-greedy' }, bot: 'greedy', open: false, filled_by_bot: false, abandoned: false });
    const four = { seats: [seats[0], bot(1), bot(2), bot(3)], players: 4 };
    const st = { players: 4, hand_sizes: [3, 5, 5, 5], discards: [[], ['R1'], ['B2'], ['R3']], chips: Array(4).fill({ red: 0, blue: 0 }), skipped: Array(4).fill(false), hand: ['STEAL_CARD'] };
    const legal = ['STEAL_CARD@1:discard', 'STEAL_CARD@2:discard', 'STEAL_CARD@3:discard'];
    const root = mount(<StacksTable view={{ ...stacksView(st, legal), ...four }} onMove={() => {}} busy={false} />);
    press('1');
    expect([...root.querySelectorAll('.actions button')].map((b) => b.textContent)).toEqual([
      "steal from bot-greedy (seat 2)'s discard pile",
      "steal from bot-greedy (seat 3)'s discard pile",
      "steal from bot-greedy (seat 4)'s discard pile",
    ]);
  });

  it('shows the block window with a BLOCK button only for a seat that may block', () => {
    const win = { phase: 'block-window', window: { completer: 1, color: 'blue' as const, eligible: [0], answered: [] } };
    const moves: string[] = [];
    let root = mount(<StacksTable view={stacksView({ ...win, hand: ['BLOCK'] }, ['BLOCK'])} onMove={(m) => moves.push(m)} busy={false} />);
    expect(root.querySelector('.block-window')!.textContent).toContain('completed a blue pile');
    act(() => (root.querySelector('.block-window button') as HTMLElement).click());
    expect(moves).toEqual(['BLOCK']);
    root = mount(<StacksTable view={stacksView({ ...win, hand: ['R1'] }, [], [0])} onMove={() => {}} busy={false} />);
    expect(root.querySelector('.block-window')).not.toBeNull();
    expect(root.querySelector('.block-window button')).toBeNull();
  });

  it('picks the top of the own discard pile by "^", the key its corner shows, and by a click, the focus going to its first play', () => {
    const moves: string[] = [];
    const root = mount(<StacksTable view={stacksView({ discards: [['R3'], []] }, ['^R3>0', 'B1>new', '/R3', '/B1'])} onMove={(m) => moves.push(m)} busy={false} />);
    const top = root.querySelector<HTMLElement>('.hand-card.from-discard')!;
    expect(top.querySelector('.key')!.textContent).toBe('^');
    // "^" did nothing, and an Enter (a click) on the card left the focus on it, its play a Tab away
    press('^');
    expect(top.getAttribute('aria-pressed')).toBe('true');
    expect(document.activeElement!.textContent).toBe('on pile 1');
    press('Escape');
    top.focus();
    act(() => top.click());
    expect(document.activeElement!.textContent).toBe('on pile 1');
    act(() => (document.activeElement as HTMLElement).click());
    expect(moves).toEqual(['^R3>0']);
    // a top with no play now is not picked by its key
    const none = mount(<StacksTable view={stacksView({ discards: [['R5'], []] }, ['B1>new', '/R3', '/B1'])} onMove={() => {}} busy={false} />);
    press('^');
    expect(none.querySelector('.hand-card.from-discard')!.getAttribute('aria-pressed')).toBe('false');
  });

  it("offers the hand's Block card in a block window, its number key leading to BLOCK", () => {
    const win = { phase: 'block-window', window: { completer: 1, color: 'blue' as const, eligible: [0], answered: [] } };
    const moves: string[] = [];
    const root = mount(<StacksTable view={stacksView({ ...win, hand: ['R1', 'BLOCK'] }, ['BLOCK'])} onMove={(m) => moves.push(m)} busy={false} />);
    // the card said "2: Block, cannot be used now", and its key showed "Block: cannot be used now", the focus left on the card
    const cards = [...root.querySelectorAll('.hand [data-hand]')];
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual(['1: red 1, cannot be used now', '2: Block']);
    expect(cards[1].classList.contains('playable')).toBe(true);
    press('2');
    expect(document.activeElement).toBe(root.querySelector('.block-window button'));
    expect(root.querySelector('.actions')!.textContent).toBe('');
    act(() => (document.activeElement as HTMLElement).click());
    expect(moves).toEqual(['BLOCK']);
    // outside a window the Block card is no play
    const after = mount(<StacksTable view={stacksView({ hand: ['R1', 'BLOCK'] }, ['/R1', '/BLOCK'])} onMove={() => {}} busy={false} />);
    expect(after.querySelectorAll('.hand [data-hand].playable')).toHaveLength(0);
  });
});

// On a 390 px phone a compact seat line showed an unlabelled "▯6" (cards in hand) and a bare "—" (an empty
// discard pile), and the table facts "Blue ●: 0/1" with no word of what was counted.
describe('the compact seat lines on a phone', () => {
  const shown = (el: Element): string =>
    [...el.childNodes].map((n) => (n.nodeType === 3 ? n.textContent : (n as Element).classList.contains('wide-only') ? '' : shown(n as Element))).join('');
  it('name their columns, for the eye only (each line says it all to a screen reader)', () => {
    const seq = mount(<SequenceTable view={seqView({}, [])} onMove={() => {}} busy={false} />).querySelector('.players > .seat-lines-head')!;
    expect([...seq.children].map((c) => c.textContent)).toEqual(['cards', 'discard']);
    expect(seq.getAttribute('aria-hidden')).toBe('true');
    unmountAll();
    const stacks = mount(<StacksTable view={stacksView({}, [])} onMove={() => {}} busy={false} />).querySelector('.players > .seat-lines-head')!;
    expect([...stacks.children].map((c) => c.textContent)).toEqual(['cards', 'chips', 'discard']);
    expect(stacks.getAttribute('aria-hidden')).toBe('true');
  });
  it('say what the sequence counts count', () => {
    const facts = mount(<SequenceTable view={seqView({}, [])} onMove={() => {}} busy={false} />).querySelector('.table-facts')!;
    const counts = [...facts.children].slice(0, 2);
    expect(counts.map((c) => shown(c)).join(' ')).toBe('Sequences: ●: 0/2 ▲: 0/2');
    expect(counts.map((c) => spokenText(c)).join(' ')).toBe('Blue ●: 0/2 sequences Green ▲: 0/2 sequences');
  });
});

// A Stacks player was never told how to win (rules 2.4): the table says it, and what the viewer still needs.
describe("the Stacks table's goal", () => {
  const goalEl = (v: GameView) => mount(<StacksTable view={v} onMove={() => {}} busy={false} />).querySelector('.stacks-goal')!;
  const goal = (v: GameView) => spokenText(goalEl(v));
  it('says the win and what the viewer still needs, and only the win to an onlooker or once the game is over', () => {
    expect(goal(stacksView({}, []))).toBe('To win: 5 chips, at least 2 red and 2 blue (you need 5 more: 2 red, 2 blue, 1 of either)');
    unmountAll();
    expect(goal(stacksView({ chips: [{ red: 3, blue: 1 }, { red: 0, blue: 0 }] }, []))).toBe('To win: 5 chips, at least 2 red and 2 blue (you need 1 more: 1 blue)');
    unmountAll();
    expect(goal({ ...stacksView({}, []), your_seat: null })).toBe('To win: 5 chips, at least 2 red and 2 blue');
    unmountAll();
    // a phone shows it in one short line
    const shown = (el: Element): string =>
      [...el.childNodes].map((n) => (n.nodeType === 3 ? n.textContent : (n as Element).classList.contains('wide-only') ? '' : shown(n as Element))).join('');
    expect(shown(goalEl(stacksView({}, [])))).toBe('To win: 5 chips, 2+ red, 2+ blue');
  });
  it('counts the chips still needed', () => {
    expect(chipsToWin(0, 0)).toBe('5 more: 2 red, 2 blue, 1 of either');
    expect(chipsToWin(4, 0)).toBe('2 more: 2 blue');
    expect(chipsToWin(2, 2)).toBe('1 more: 1 of either');
    expect(chipsToWin(5, 1)).toBe('1 more: 1 blue');
    expect(chipsToWin(3, 2)).toBe('');
  });
});

describe('an empty table of piles', () => {
  const says = (v: GameView) => mount(<StacksTable view={v} onMove={() => {}} busy={false} />).querySelector('.piles p')!.textContent;
  it('invites a first pile only while none was completed, and no pile once the game is over', () => {
    expect(says(stacksView({ piles: [] }, []))).toBe('No piles yet. A 1 (or a wild) starts one.');
    expect(says(stacksView({ piles: [], setaside: ['R1', 'R2', 'R3', 'R4', 'R5'] }, []))).toBe('No piles on the table: a 1 (or a wild) starts a new one.');
    // the winning move set the last pile aside: the finished game once said "No piles yet. A 1 (or a wild) starts one."
    const over = { ...stacksView({ piles: [], setaside: ['B1', 'B2', 'BW', 'B4', 'B5'], status: 'won', winner: 0 }, [], []), status: 'finished' as const };
    expect(says(over)).toBe('No piles were left on the table.');
  });
});

// The discard top ("Q♦", or "—" when empty) beside each seat said what it was only to screen readers.
describe("a seat's discard top", () => {
  const shown = (el: Element) => el.textContent;
  it('is named to the eye too: "discard" before it on a full row, and its words on hover', () => {
    const seq = mount(<SequenceTable view={seqView({ discards: [['QD'], []] }, [])} onMove={() => {}} busy={false} />);
    const stacks = mount(<StacksTable view={stacksView({ hand_sizes: [1, 5], discards: [[], ['R7', 'B4']] }, [])} onMove={() => {}} busy={false} />);
    const tops = [...seq.querySelectorAll('.players .discard-top'), ...stacks.querySelectorAll('.players .discard-top')];
    expect(tops.map(shown)).toEqual(['discard Q♦', 'discard —', 'discard —', expect.stringMatching(/^discard \S/)]);
    expect(tops.map((t) => t.getAttribute('title'))).toEqual(['discard pile: 1 card, top queen of diamonds', 'discard pile empty', 'discard pile empty', 'discard pile: 2 cards, top blue 4']);
    for (const t of tops) {
      // the same words as the label, so that a screen reader does not read them twice
      expect(t.getAttribute('title')).toBe(t.getAttribute('aria-label'));
      // the word is one a compact phone line leaves out, as it does "cards"
      expect(t.querySelector('.count-unit')!.textContent).toBe('discard ');
    }
  });
});

describe("the Stacks players' counts", () => {
  it('gives screen readers the hand sizes, chips and discard piles, with no label on a plain span', () => {
    const root = mount(<StacksTable view={stacksView({ hand_sizes: [1, 5], discards: [['B4'], []] }, [])} onMove={() => {}} busy={false} />);
    const players = root.querySelector('.players')!;
    // ARIA allows no aria-label on a span without a role
    expect([...players.querySelectorAll('span[aria-label]:not([role])')].map((e) => e.outerHTML)).toEqual([]);
    const first = players.querySelectorAll('.player')[0];
    expect(first.querySelector('.muted')!.textContent).toBe('1 card in hand');
    expect(first.querySelector('.sr-only')!.textContent).toBe(' in hand');
    expect(first.querySelector('.chips')!.getAttribute('role')).toBe('img');
    expect(first.querySelector('.chips')!.getAttribute('aria-label')).toBe('0 red and 0 blue chips');
    expect(first.querySelector('.discard-top')!.getAttribute('role')).toBe('img');
    expect(first.querySelector('.discard-top')!.getAttribute('aria-label')).toBe('discard pile: 1 card, top blue 4');
    expect(players.querySelectorAll('.player')[1].querySelector('.muted')!.textContent).toBe('5 cards in hand');
  });

  it('tags the viewer\'s own seat "may block" in a block window only when they hold a BLOCK', () => {
    const win = { phase: 'block-window', window: { completer: 1, color: 'blue' as const, eligible: [0], answered: [] } };
    const badges = (root: Element) => [...root.querySelectorAll('.player')[0].querySelectorAll('.badge')].map((b) => b.textContent);
    expect(badges(mount(<StacksTable view={stacksView({ ...win, hand: ['BLOCK'] }, ['BLOCK', 'noblock'])} onMove={() => {}} busy={false} />))).toEqual(['may block']);
    expect(badges(mount(<StacksTable view={stacksView({ ...win, hand: ['R1'] }, [], [0])} onMove={() => {}} busy={false} />))).toEqual([]);
    // another viewer sees every eligible seat as one that may block (its hand is hidden)
    const other = { ...stacksView({ ...win, hand: [] }, [], [0]), your_seat: 1 };
    expect(badges(mount(<StacksTable view={other} onMove={() => {}} busy={false} />))).toEqual(['may block']);
  });
});

describe('a seat a fill-in bot took over', () => {
  const gone = [{ ...seats[0], bot: 'greedy', filled_by_bot: true, abandoned: true }, seats[1]];

  it('no longer tells its person that they are to move', () => {
    const root = mount(<SequenceTable view={{ ...seqView({}, []), seats: gone, to_move: [0] }} onMove={() => {}} busy={false} />);
    const status = root.querySelector('.status-line')!.textContent!;
    expect(status).toBe('A fill-in bot now plays your seat; you can no longer move.');
    const badges = [...root.querySelectorAll('.player')[0].querySelectorAll('.badge')].map((b) => b.textContent);
    expect(badges).toEqual(['fill-in bot (seat abandoned)', 'bot to move']); // the bot moves, not them
    const stacks = mount(<StacksTable view={{ ...stacksView({}, []), seats: gone, to_move: [0] }} onMove={() => {}} busy={false} />);
    expect(stacks.querySelector('.status-line')!.textContent).toBe('A fill-in bot now plays your seat; you can no longer move.');
  });

  it('is tagged for other viewers, with why its player abandoned it', () => {
    const root = mount(<SequenceTable view={{ ...seqView({}, []), seats: gone, to_move: [0], your_seat: 1 }} onMove={() => {}} busy={false} />);
    expect(root.querySelector('.status-line')!.textContent).toBe('ann (fill-in bot) to move.');
    const badges = [...root.querySelectorAll('.player')[0].querySelectorAll('.badge')].map((b) => b.textContent);
    expect(badges).toEqual(['fill-in bot (seat abandoned)', 'bot to move']);
    const timedOut = [{ ...gone[0], abandoned_why: 'timed_out' as const }, seats[1]];
    const why = mount(<SequenceTable view={{ ...seqView({}, []), seats: timedOut, to_move: [1], your_seat: 1 }} onMove={() => {}} busy={false} />);
    expect([...why.querySelectorAll('.player')[0].querySelectorAll('.badge')].map((b) => b.textContent)).toEqual(['fill-in bot (player timed out)']);
  });
});

describe('a game on a time bank', () => {
  afterEach(() => vi.useRealTimers());

  it("shows every player's bank, the one to move counting down with the turn", () => {
    vi.useFakeTimers();
    const t0 = Date.parse('2030-01-01T00:00:00Z');
    vi.setSystemTime(t0);
    const banked = seats.map((s, i) => ({ ...s, bank_ms: [90000, 4000000][i] }));
    // the turn deadline is the turn's start plus the mover's bank: 61 s left of seat 0's 90
    const view = (state: Partial<StacksState>, over: Partial<GameView> = {}): GameView => ({
      ...stacksView(state, []), clock: { bank_seconds: 600 }, seats: banked, turn_deadline: new Date(t0 + 61000).toISOString(), ...over,
    });
    const banks = (root: Element) => [...root.querySelectorAll('.player')].map((p) => p.querySelector('.bank')?.textContent);
    const root = mount(<StacksTable view={view({ turn: 0 })} onMove={() => {}} busy={false} />);
    expect(banks(root)).toEqual(['1:01', '1:06:40']);
    expect(root.querySelectorAll('.player')[1].querySelector('.bank')!.getAttribute('aria-label')).toBe("bot-random's bank: 1:06:40");
    // a label on a span needs a role (ARIA names no plain span)
    expect(root.querySelectorAll('.players span[aria-label]:not([role])')).toHaveLength(0);
    act(() => void vi.advanceTimersByTime(2000));
    expect(banks(root)).toEqual(['0:59', '1:06:40']);
    // a block window pauses the mover's bank
    const win = { phase: 'block-window', window: { completer: 0, color: 'red' as const, eligible: [1], answered: [] } };
    const paused = mount(<StacksTable view={view({ turn: 0, ...win }, { to_move: [1] })} onMove={() => {}} busy={false} />);
    expect(banks(paused)).toEqual(['bank paused', '1:06:40']);
    // a game on a time per turn has no banks
    const perTurn = mount(<SequenceTable view={{ ...seqView({}, []), clock: { turn_seconds: 30 }, seats: banked }} onMove={() => {}} busy={false} />);
    expect(perTurn.querySelector('.bank')).toBeNull();
    const seq = mount(<SequenceTable view={{ ...seqView({ turn: 1 }, []), clock: { bank_seconds: 600 }, seats: banked }} onMove={() => {}} busy={false} />);
    expect(banks(seq)).toEqual(['1:30', '1:06:40']); // seat 1 moves, but without a turn deadline: its bank as it stands
  });
});

describe('the Stacks seat list of a 6-player table', () => {
  // the viewer (seat 1, skipped next), five bot-random, seat 4 a fill-in bot with chips, seat 3 with a discard pile
  const six = Array.from({ length: 6 }, (_, i) =>
    i === 0 ? { ...seats[0] } : { seat: i, team: i, user: null, bot: 'random', open: false, filled_by_bot: i === 3, abandoned: i === 3 },
  );
  const view = (state: Partial<StacksState> = {}, over: Partial<GameView> = {}): GameView => ({
    ...stacksView(
      {
        players: 6, turn: 2, hand_sizes: [3, 5, 1, 5, 5, 0], discards: [[], [], ['R2', 'B4'], [], [], []],
        chips: [{ red: 0, blue: 1 }, { red: 0, blue: 0 }, { red: 2, blue: 0 }, { red: 1, blue: 1 }, { red: 0, blue: 0 }, { red: 0, blue: 0 }],
        skipped: [true, false, false, false, false, false], ...state,
      },
      [],
      [2],
    ),
    players: 6, seats: six, ...over,
  });
  const lines = (root: Element) => [...root.querySelectorAll('.players > .player')];
  const win = { phase: 'block-window', window: { completer: 2, color: 'red' as const, eligible: [1, 3], answered: [] } };

  it('reads every seat to a screen reader in full', () => {
    const heard = lines(mount(<StacksTable view={view()} onMove={() => {}} busy={false} />)).map((l) => spokenText(l));
    expect(heard).toEqual([
      'ann (you)skipped next3 cards in hand0 red and 1 blue chipdiscard pile empty',
      'bot-random (seat 2)5 cards in hand0 red and 0 blue chipsdiscard pile empty',
      'bot-random (seat 3)to move1 card in hand2 red and 0 blue chipsdiscard pile: 2 cards, top blue 4',
      'bot-random (seat 4)fill-in bot (seat abandoned)5 cards in hand1 red and 1 blue chipsdiscard pile empty',
      'bot-random (seat 5)5 cards in hand0 red and 0 blue chipsdiscard pile empty',
      'bot-random (seat 6)0 cards in hand0 red and 0 blue chipsdiscard pile empty',
    ]);
    const blocking = lines(mount(<StacksTable view={view(win, { to_move: [1, 3] })} onMove={() => {}} busy={false} />)).map((l) => spokenText(l));
    expect(blocking[1]).toBe('bot-random (seat 2)may block5 cards in hand0 red and 0 blue chipsdiscard pile empty');
    expect(blocking[3]).toBe('bot-random (seat 4)fill-in bot (seat abandoned)bot may block5 cards in hand1 red and 1 blue chipsdiscard pile empty');
    // the table's facts too, though a phone shows them shorter
    const facts = mount(<StacksTable view={view()} onMove={() => {}} busy={false} />).querySelector('.table-facts')!;
    expect(spokenText(facts)).toBe('Draw pile: 90Set aside: 0Supply: R 19 · B 20To win: 5 chips, at least 2 red and 2 blue (you need 4 more: 2 red, 1 blue, 1 of either)Direction: clockwise ↻Seat details');
    const shown = (el: Element): string =>
      [...el.childNodes].map((n) => (n.nodeType === 3 ? n.textContent : (n as Element).classList.contains('wide-only') ? '' : shown(n as Element))).join('');
    expect(shown(facts)).toBe('Draw: 90Set aside: 0Supply: R 19 · B 20To win: 5 chips, 2+ red, 2+ blueclockwise ↻▸ Seat details');
  });

  it('gives every seat a line of its own: turn marker, seat number, short name, tags for the badges', () => {
    const root = mount(<StacksTable view={view()} onMove={() => {}} busy={false} />);
    const seatLines = [...root.querySelectorAll('.players.seat-lines.stacks-lines > .player')];
    expect(seatLines).toHaveLength(6);
    expect(seatLines.map((l) => l.querySelector('.seat-lead')!.textContent)).toEqual(['1', '2', '▶3', '4', '5', '6']);
    expect(seatLines.map((l) => l.querySelector('.short-name')!.textContent)).toEqual(['ann', ...Array(5).fill('bot-random')]);
    expect(seatLines.map((l) => l.classList.contains('mine'))).toEqual([true, false, false, false, false, false]);
    const tags = (l: Element) => [...l.querySelectorAll('.mini-tag')].map((t) => t.textContent);
    expect(seatLines.map(tags)).toEqual([['you', 'skipped'], [], [], ['fill-in'], [], []]);
    expect(seatLines[0].querySelector('.mini-tag.warn')!.textContent).toBe('skipped');
    // the numbers a compact line keeps: cards in hand, chips, the discard top
    expect(seatLines.map((l) => l.querySelector('.hand-size')!.firstChild!.textContent)).toEqual(['3', '5', '1', '5', '5', '0']);
    expect(seatLines[2].querySelector('.chips')!.textContent).toBe('R 2B 0');
    expect(seatLines[2].querySelector('.discard-top .scard')!.getAttribute('aria-label')).toBe('blue 4');
    // the compact pieces are for the eyes: a screen reader has the full words
    for (const l of seatLines) for (const el of l.querySelectorAll('.seat-lead, .compact-name')) expect(el.getAttribute('aria-hidden')).toBe('true');
  });

  it('marks the seats that may block in a block window, not the viewer without a BLOCK', () => {
    const blocking = (v: GameView) => {
      const seatLines = lines(mount(<StacksTable view={v} onMove={() => {}} busy={false} />));
      return seatLines.flatMap((l, i) => (l.querySelector('.seat-lead')!.textContent!.startsWith('▶') ? [i] : [])).join() + ' / ' + seatLines.map((l) => [...l.querySelectorAll('.mini-tag')].map((t) => t.textContent).join('+')).join(',');
    };
    expect(blocking(view(win, { to_move: [1, 3] }))).toBe('1,3 / you+skipped,may block,,fill-in+may block,,');
    // the viewer may be asked (to_move) but holds no BLOCK: no marker, no tag on their line
    expect(blocking(view({ ...win, window: { ...win.window, eligible: [0, 1] } }, { to_move: [0, 1] }))).toBe('1 / you+skipped,may block,,fill-in,,');
  });

  it('shows the seat details on demand, and hides them again', () => {
    const root = mount(<StacksTable view={view()} onMove={() => {}} busy={false} />);
    const list = root.querySelector('.players.seat-lines')!;
    const toggle = root.querySelector<HTMLButtonElement>('button.seat-details-toggle')!;
    expect(toggle.getAttribute('aria-controls')).toBe(list.id);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    act(() => toggle.click());
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(list.classList.contains('details')).toBe(true);
    expect(lines(root)[0].querySelector('.full-name')!.textContent).toBe('ann (you)');
    expect([...lines(root)[0].querySelectorAll('.badge')].map((b) => b.textContent)).toEqual(['skipped next']);
    // the table's own badge shares the seat's badge wrapper, which a compact line hides visually (styles.css)
    expect([...lines(root)[0].querySelectorAll('.player-name > .badges > .badge')].map((b) => b.textContent)).toEqual(['skipped next']);
    act(() => toggle.click());
    expect(list.classList.contains('details')).toBe(false);
  });
});

describe('the Sequence table on a wide screen', () => {
  it('keeps the seats, the status line, the board and the hand in reading order, the board and hand together', () => {
    const root = mount(<SequenceTable view={seqView({}, ['7H@i5'])} onMove={() => {}} busy={false} />);
    const table = root.querySelector('.sequence-table')!;
    expect([...table.children].map((c) => c.className)).toEqual(['table-notices', 'players seat-lines', 'status-line mine', 'table-main']);
    const main = table.querySelector('.table-main')!;
    expect([...main.children].map((c) => c.className.split(' ')[0])).toEqual(['board-wrap', 'hand-area', 'discards']);
  });

  it('heads the seat column with the notices it is given, read first as above the table', () => {
    const notice = (
      <p class="result">
        Blue team wins.
      </p>
    );
    const root = mount(<SequenceTable view={seqView({}, [])} onMove={() => {}} busy={false} notices={notice} />);
    const first = root.querySelector('.sequence-table')!.firstElementChild!;
    expect(first.className).toBe('table-notices');
    expect(first.innerHTML).toBe('<p class="result">Blue team wins.</p>');
  });
});

describe('the Stacks table on a wide screen', () => {
  it('keeps the notices, the seats, the status line, then the block window, the piles and the hand in reading order', () => {
    const win = { phase: 'block-window', window: { completer: 1, color: 'blue' as const, eligible: [0], answered: [] } };
    const notice = <div class="error" role="alert">That move was refused.</div>;
    const root = mount(<StacksTable view={stacksView({ ...win, hand: ['BLOCK'] }, ['BLOCK'])} onMove={() => {}} busy={false} notices={notice} />);
    const table = root.querySelector('.stacks-table')!;
    expect([...table.children].map((c) => c.className)).toEqual(['table-notices', 'players seat-lines stacks-lines', 'status-line mine', 'table-main']);
    expect(table.firstElementChild!.innerHTML).toBe('<div class="error" role="alert">That move was refused.</div>');
    expect([...table.querySelector('.table-main')!.children].map((c) => c.className)).toEqual(['block-window', 'piles', 'hand-area']);
  });
});

describe('a table whose game is over', () => {
  // the result is GamePage's notice at the head of the table; a status line repeating it showed it twice
  it('has no status line', () => {
    const notice = <p class="result">bot-random wins.</p>;
    const over = { status: 'finished' as const, to_move: [], result: { status: 'finished' as const, winner: 1 } };
    const seq = mount(<SequenceTable view={{ ...seqView({}, []), ...over }} onMove={() => {}} busy={false} notices={notice} />);
    const stacks = mount(<StacksTable view={{ ...stacksView({}, []), ...over }} onMove={() => {}} busy={false} notices={notice} />);
    for (const root of [seq, stacks]) {
      expect(root.querySelector('.status-line')).toBeNull();
      expect(root.textContent!.split('bot-random wins.')).toHaveLength(2);
    }
    const aborted = mount(<StacksTable view={{ ...stacksView({}, []), status: 'aborted' }} onMove={() => {}} busy={false} />);
    expect(aborted.querySelector('.status-line')).toBeNull();
  });
});
