// Sequence Stacks move notation (engine/stacks/doc.go), grouped the way the
// table offers it: per card, where it can go.
import type { MoveRecord } from '../api/types';

export type StacksMove =
  | { kind: 'pile'; card: string; fromDiscard: boolean; pile: number | 'new' }
  | { kind: 'special'; card: string; fromDiscard: boolean; target?: number; option?: string }
  | { kind: 'discard'; card: string }
  | { kind: 'endEmpty' }
  | { kind: 'block' }
  | { kind: 'noblock' }
  | { kind: 'close' };

const CARD = '(R[1-5]|B[1-5]|RW|BW|SKIP|REVERSE|STEAL_CARD|STEAL_CHIP|BLOCK)';

export function parseStacksMove(text: string): StacksMove | null {
  let m: RegExpExecArray | null;
  if (text === 'BLOCK') return { kind: 'block' };
  if (text === 'noblock') return { kind: 'noblock' };
  if (text === 'close') return { kind: 'close' };
  if (text === '/') return { kind: 'endEmpty' };
  if ((m = new RegExp(`^/${CARD}$`).exec(text))) return { kind: 'discard', card: m[1] };
  if ((m = new RegExp(`^(\\^?)${CARD}>(new|\\d+)$`).exec(text)))
    return { kind: 'pile', card: m[2], fromDiscard: m[1] === '^', pile: m[3] === 'new' ? 'new' : Number(m[3]) };
  if ((m = /^(\^?)(SKIP|REVERSE)$/.exec(text))) return { kind: 'special', card: m[2], fromDiscard: m[1] === '^' };
  if ((m = /^(\^?)(STEAL_CARD|STEAL_CHIP)@(\d+):(discard|hand|red|blue)$/.exec(text)))
    return { kind: 'special', card: m[2], fromDiscard: m[1] === '^', target: Number(m[3]), option: m[4] };
  return null;
}

/** The card a move takes and where from, for grouping ("hand:R3", "discard:R3"). */
export function sourceKey(m: StacksMove): string | null {
  if (m.kind === 'pile' || m.kind === 'special') return `${m.fromDiscard ? 'discard' : 'hand'}:${m.card}`;
  if (m.kind === 'discard') return `hand:${m.card}`;
  return null;
}

export interface StacksOptions {
  /** per source key: the plays (not the end-of-turn discard) it allows */
  plays: Map<string, { text: string; move: StacksMove }[]>;
  /** cards that may end the turn as the discard */
  discards: Set<string>;
  endEmpty: boolean;
  block: boolean;
  noblock: boolean;
}

export function stacksOptions(legal: readonly string[] | undefined): StacksOptions {
  const o: StacksOptions = { plays: new Map(), discards: new Set(), endEmpty: false, block: false, noblock: false };
  for (const text of legal ?? []) {
    const m = parseStacksMove(text);
    if (!m) continue;
    if (m.kind === 'discard') o.discards.add(m.card);
    else if (m.kind === 'endEmpty') o.endEmpty = true;
    else if (m.kind === 'block') o.block = true;
    else if (m.kind === 'noblock') o.noblock = true;
    else if (m.kind === 'pile' || m.kind === 'special') {
      const k = sourceKey(m)!;
      o.plays.set(k, [...(o.plays.get(k) ?? []), { text, move: m }]);
    }
  }
  return o;
}

const CARD_NAMES: Record<string, string> = {
  RW: 'red wild',
  BW: 'blue wild',
  SKIP: 'Skip',
  REVERSE: 'Reverse',
  STEAL_CARD: 'Steal a Card',
  STEAL_CHIP: 'Steal a Chip',
  BLOCK: 'Block',
};

export function stacksCardName(card: string): string {
  if (CARD_NAMES[card]) return CARD_NAMES[card];
  const m = /^([RB])([1-5])$/.exec(card);
  if (m) return `${m[1] === 'R' ? 'red' : 'blue'} ${m[2]}`;
  return card;
}

export function stacksCardColour(card: string): 'red' | 'blue' | 'special' {
  if (card[0] === 'R' && card !== 'REVERSE') return 'red';
  if (card[0] === 'B' && card !== 'BLOCK') return 'blue';
  return 'special';
}

/** describeStacksMove says a move in words; names maps seats to player names. */
export function describeStacksMove(text: string, names: (seat: number) => string = (s) => `seat ${s}`): string {
  const m = parseStacksMove(text);
  if (!m) return text;
  const from = (d: boolean) => (d ? ' from the discard pile' : '');
  switch (m.kind) {
    case 'pile':
      return m.pile === 'new'
        ? `started a new pile with ${stacksCardName(m.card)}${from(m.fromDiscard)}`
        : `played ${stacksCardName(m.card)} on pile ${m.pile + 1}${from(m.fromDiscard)}`;
    case 'special':
      if (m.card === 'STEAL_CARD') return `stole a card from ${possessive(names(m.target!))} ${m.option}`;
      if (m.card === 'STEAL_CHIP') return `stole a ${m.option} chip from ${names(m.target!)}`;
      return `played ${stacksCardName(m.card)}${from(m.fromDiscard)}`;
    case 'discard':
      return `ended the turn discarding ${stacksCardName(m.card)}`;
    case 'endEmpty':
      return 'ended the turn';
    case 'block':
      return 'BLOCKED the completion: its completer gets no chip';
    case 'noblock':
      return 'did not block';
    case 'close':
      // the server's move (seat -1, "the table"): a BLOCK would have closed the window itself
      return 'closed the block window: nobody blocked, the chip goes to the completer';
  }
}

/** playLabel is the button text offering a play of an already chosen card. */
export function playLabel(text: string, names: (seat: number) => string = (s) => `seat ${s}`): string {
  const m = parseStacksMove(text);
  if (!m) return text;
  if (m.kind === 'pile') return m.pile === 'new' ? 'start a new pile' : `on pile ${m.pile + 1}`;
  if (m.kind === 'special') {
    if (m.card === 'STEAL_CARD') return `steal from ${names(m.target!)}'s ${m.option === 'hand' ? 'hand' : 'discard pile'}`;
    if (m.card === 'STEAL_CHIP') return `steal a ${m.option} chip from ${names(m.target!)}`;
    return `play ${stacksCardName(m.card)}`;
  }
  return describeStacksMove(text, names);
}

/**
 * doneToYou says what the other players did to seat me since its own last
 * move in log: a chip or a card stolen from it, its completion blocked
 * ("bob BLOCKED your completion: no chip for you"). The table showed only
 * the changed chip count, or nothing at all for a block; the move log that
 * said it is folded away. The completer a BLOCK answers is the seat of the
 * last move before it that was no answer to a block window.
 */
export function doneToYou(log: readonly MoveRecord[], me: number | null | undefined, names: (seat: number) => string): string[] {
  if (me == null || me < 0) return [];
  let from = log.length;
  while (from > 0 && log[from - 1].seat !== me) from--;
  const out: string[] = [];
  for (let i = from; i < log.length; i++) {
    const rec = log[i];
    if (rec.seat === me || rec.seat < 0) continue;
    const m = parseStacksMove(rec.move);
    if (!m) continue;
    if (m.kind === 'special' && m.target === me) {
      if (m.card === 'STEAL_CHIP') out.push(`${names(rec.seat)} stole a ${m.option} chip from you`);
      if (m.card === 'STEAL_CARD') out.push(`${names(rec.seat)} took ${m.option === 'hand' ? 'a card from your hand' : 'the top card of your discard pile'}`);
    } else if (m.kind === 'block') {
      // the completion it answers: the last move before the window's answers (the viewer's own, before `from`)
      let j = i - 1;
      while (j >= 0 && ['BLOCK', 'noblock', 'close'].includes(log[j].move)) j--;
      if (j >= 0 && log[j].seat === me) out.push(`${names(rec.seat)} BLOCKED your completion: no chip for you`);
    }
  }
  return out;
}

/** possessive is a seat's name as an owner: "bob's", and "your" of the viewer's own ("alice (you)"). */
function possessive(name: string): string {
  return name.endsWith(' (you)') ? 'your' : `${name}'s`;
}
