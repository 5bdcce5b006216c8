// Sequence move notation (engine/sequence/doc.go) and what the table
// highlights: the cells a selected card may go to or clear.
import { cardWords } from './board';

export type SequenceMove =
  | { kind: 'place'; card: string; cell: string; windows: string[] }
  | { kind: 'remove'; card: string; cell: string }
  | { kind: 'exchange'; card: string }
  | { kind: 'discard'; card: string }
  | { kind: 'pass' }
  | { kind: 'penalty'; team: string };

const CARD = '([2-9TJQKA][SHDC]|W[+-])';
const CELL = '([a-j](?:10|[1-9]))';
const PLACE = new RegExp(`^${CARD}@${CELL}(?:\\[([^\\]]*)\\])?$`);
const REMOVE = new RegExp(`^${CARD}x${CELL}$`);
const EXCHANGE = new RegExp(`^x${CARD}$`);
const DISCARD = new RegExp(`^d${CARD}$`);

/** parseSequenceMove reads one move; null if it is not notation. */
export function parseSequenceMove(text: string): SequenceMove | null {
  let m: RegExpExecArray | null;
  if (text === 'pass') return { kind: 'pass' };
  if ((m = PLACE.exec(text))) return { kind: 'place', card: m[1], cell: m[2], windows: m[3] ? m[3].split(',') : [] };
  if ((m = REMOVE.exec(text))) return { kind: 'remove', card: m[1], cell: m[2] };
  if ((m = EXCHANGE.exec(text))) return { kind: 'exchange', card: m[1] };
  if ((m = DISCARD.exec(text))) return { kind: 'discard', card: m[1] };
  if ((m = /^penalty-([abc])$/.exec(text))) return { kind: 'penalty', team: m[1] };
  return null;
}

export interface Targets {
  /** cells where the card places a chip */
  place: Set<string>;
  /** cells whose chip the card removes */
  remove: Set<string>;
}

/** targetsFor lists the cells a card may act on, from the legal moves. */
export function targetsFor(legal: readonly string[] | undefined, card: string | null): Targets {
  const t: Targets = { place: new Set(), remove: new Set() };
  if (!card || !legal) return t;
  for (const text of legal) {
    const m = parseSequenceMove(text);
    if (!m || !('card' in m) || m.card !== card) continue;
    if (m.kind === 'place') t.place.add(m.cell);
    else if (m.kind === 'remove') t.remove.add(m.cell);
  }
  return t;
}

/** moveAt is the legal move playing card on cell, if there is one. */
export function moveAt(legal: readonly string[] | undefined, card: string, cell: string): string | null {
  for (const text of legal ?? []) {
    const m = parseSequenceMove(text);
    if (m && (m.kind === 'place' || m.kind === 'remove') && m.card === card && m.cell === cell) return text;
  }
  return null;
}

/** What the legal moves allow besides placing and removing. */
export function specialMoves(legal: readonly string[] | undefined): {
  exchange: Set<string>;
  discard: Set<string>;
  pass: boolean;
  playable: Set<string>;
} {
  const out = { exchange: new Set<string>(), discard: new Set<string>(), pass: false, playable: new Set<string>() };
  for (const text of legal ?? []) {
    const m = parseSequenceMove(text);
    if (!m) continue;
    if (m.kind === 'exchange') out.exchange.add(m.card);
    else if (m.kind === 'discard') out.discard.add(m.card);
    else if (m.kind === 'pass') out.pass = true;
    else if (m.kind === 'place' || m.kind === 'remove') out.playable.add(m.card);
  }
  return out;
}

/** describeSequenceMove says a move in words, for the log and screen readers. */
export function describeSequenceMove(text: string): string {
  const m = parseSequenceMove(text);
  if (!m) return text;
  // the card's spoken name ("the 10 of diamonds"), not its notation ("TD")
  const card = (c: string) => `the ${cardWords(c)}`;
  switch (m.kind) {
    case 'place':
      return `played ${card(m.card)} on ${m.cell}`;
    case 'remove':
      return `removed the chip on ${m.cell} with ${card(m.card)}`;
    case 'exchange':
      return `turned in the dead card, ${card(m.card)}`;
    case 'discard':
      return `discarded ${card(m.card)} (penalty)`;
    case 'pass':
      return 'passed';
    case 'penalty':
      return `penalty on team ${m.team}`;
  }
}
