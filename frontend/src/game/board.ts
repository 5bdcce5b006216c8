// The Sequence board (rules.md 1.2): row 1 is the top, column a the left;
// "**" marks the four free corners. Every non-jack card appears exactly
// twice; no jack is on the board.
export const BOARD: readonly (readonly string[])[] = [
  ['**', '2S', '3S', '4S', '5S', '6S', '7S', '8S', '9S', '**'],
  ['6C', '5C', '4C', '3C', '2C', 'AH', 'KH', 'QH', 'TH', 'TS'],
  ['7C', 'AS', '2D', '3D', '4D', '5D', '6D', '7D', '9H', 'QS'],
  ['8C', 'KS', '6C', '5C', '4C', '3C', '2C', '8D', '8H', 'KS'],
  ['9C', 'QS', '7C', '6H', '5H', '4H', 'AH', '9D', '7H', 'AS'],
  ['TC', 'TS', '8C', '7H', '2H', '3H', 'KH', 'TD', '6H', '2D'],
  ['QC', '9S', '9C', '8H', '9H', 'TH', 'QH', 'QD', '5H', '3D'],
  ['KC', '8S', 'TC', 'QC', 'KC', 'AC', 'AD', 'KD', '4H', '4D'],
  ['AC', '7S', '6S', '5S', '4S', '3S', '2S', '2H', '3H', '5D'],
  ['**', 'AD', 'KD', 'QD', 'TD', '9D', '8D', '7D', '6D', '**'],
];

export const SIZE = 10;
const COLS = 'abcdefghij';

/** cellName(row, col) with 0-based indices: (0, 0) is "a1". */
export function cellName(row: number, col: number): string {
  return COLS[col] + String(row + 1);
}

/** parseCell("e5") is {row: 4, col: 4}; null for anything else. */
export function parseCell(s: string): { row: number; col: number } | null {
  const m = /^([a-j])(10|[1-9])$/.exec(s);
  if (!m) return null;
  return { row: Number(m[2]) - 1, col: COLS.indexOf(m[1]) };
}

/** cardAt("e5") is the card printed on a cell ("**" for a corner). */
export function cardAt(cell: string): string {
  const p = parseCell(cell);
  if (!p) throw new Error(`no such cell ${cell}`);
  return BOARD[p.row][p.col];
}

let byCard: Map<string, string[]> | null = null;

/** cellsOf("7H") lists the two cells showing a card (none for a jack). */
export function cellsOf(card: string): string[] {
  if (!byCard) {
    byCard = new Map();
    for (let r = 0; r < SIZE; r++)
      for (let c = 0; c < SIZE; c++) {
        const k = BOARD[r][c];
        if (k === '**') continue;
        byCard.set(k, [...(byCard.get(k) ?? []), cellName(r, c)]);
      }
  }
  return byCard.get(card) ?? [];
}

/** windowCells("a5", "e5") lists the five cells of a window, first to last. */
export function windowCells(first: string, last: string): string[] {
  const a = parseCell(first);
  const b = parseCell(last);
  if (!a || !b) return [];
  const dr = Math.sign(b.row - a.row);
  const dc = Math.sign(b.col - a.col);
  const n = Math.max(Math.abs(b.row - a.row), Math.abs(b.col - a.col));
  const out: string[] = [];
  for (let i = 0; i <= n; i++) out.push(cellName(a.row + dr * i, a.col + dc * i));
  return out;
}

const RANKS: Record<string, string> = { A: 'A', T: '10', J: 'J', Q: 'Q', K: 'K' };
const SUITS: Record<string, { sym: string; name: string; red: boolean }> = {
  S: { sym: '♠', name: 'spades', red: false },
  H: { sym: '♥', name: 'hearts', red: true },
  D: { sym: '♦', name: 'diamonds', red: true },
  C: { sym: '♣', name: 'clubs', red: false },
};
// A number card is named by the number on its face ("10 of hearts", as "9 of hearts"): "ten" beside "9" read
// as two ways of counting, in a hand's labels and the board's tooltips alike.
const RANK_NAMES: Record<string, string> = { A: 'ace', T: '10', J: 'jack', Q: 'queen', K: 'king' };

/** cardLabel gives a card's short face ("10♥") and spoken name. */
export function cardLabel(card: string): { face: string; name: string; red: boolean } {
  if (card === 'W+') return { face: 'W+', name: 'wild card (place anywhere)', red: false };
  if (card === 'W-') return { face: 'W−', name: 'anti-wild card (remove a chip)', red: false };
  if (card === '**') return { face: '★', name: 'free corner', red: false };
  const rank = card[0];
  const suit = SUITS[card[1]];
  if (!suit) return { face: card, name: card, red: false };
  const face = (RANKS[rank] ?? rank) + suit.sym;
  let name = `${RANK_NAMES[rank] ?? rank} of ${suit.name}`;
  if (card === 'JC' || card === 'JD') name += ' (two-eyed jack: wild)';
  if (card === 'JH' || card === 'JS') name += ' (one-eyed jack: remove)';
  return { face, name, red: suit.red };
}

/** cardWords is a card's spoken name without the jacks' note on their use ("jack of clubs"), for a sentence or a button. */
export function cardWords(card: string): string {
  return cardLabel(card).name.replace(/ \(.*\)$/, '');
}

/** Team letters, colours and shapes (rules.md 1.3), so colour is never the only cue. */
export const TEAMS = [
  { letter: 'a', colour: 'blue', shape: '●', name: 'Blue' },
  { letter: 'b', colour: 'green', shape: '▲', name: 'Green' },
  { letter: 'c', colour: 'red', shape: '■', name: 'Red' },
] as const;
