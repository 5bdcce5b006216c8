import { describe, expect, it } from 'vitest';
import { moveAt, parseSequenceMove, specialMoves, targetsFor, describeSequenceMove, type SequenceMove } from './sequenceMoves';

/** formatSequenceMove writes a move back in notation: the app only reads moves, the test checks the reading against it. */
function formatSequenceMove(m: SequenceMove): string {
  switch (m.kind) {
    case 'place':
      return `${m.card}@${m.cell}${m.windows.length ? `[${m.windows.join(',')}]` : ''}`;
    case 'remove':
      return `${m.card}x${m.cell}`;
    case 'exchange':
      return `x${m.card}`;
    case 'discard':
      return `d${m.card}`;
    case 'pass':
      return 'pass';
    case 'penalty':
      return `penalty-${m.team}`;
  }
}

describe('Sequence move notation', () => {
  it('reads and writes every kind of move', () => {
    for (const text of ['7H@e5', 'JC@a2', 'W+@a2', '7H@e5[a5-e5,e1-e5]', 'JSxe5', 'W-xe5', 'x7H', 'd7H', 'pass', 'penalty-a', 'TD@j10']) {
      const m = parseSequenceMove(text);
      expect(m, text).not.toBeNull();
      expect(formatSequenceMove(m!)).toBe(text);
    }
    expect(parseSequenceMove('7H@e5')).toEqual({ kind: 'place', card: '7H', cell: 'e5', windows: [] });
    expect(parseSequenceMove('JSxe5')).toEqual({ kind: 'remove', card: 'JS', cell: 'e5' });
  });

  it('refuses what is not notation', () => {
    for (const text of ['', '7H', '7H@k5', '1H@a1', '7Z@a1', 'xx7H', 'Pass', '7H@e11']) {
      expect(parseSequenceMove(text), text).toBeNull();
    }
  });

  it('says moves in words', () => {
    expect(describeSequenceMove('7H@e5')).toBe('played the 7 of hearts on e5');
    expect(describeSequenceMove('TD@h6')).toBe('played the 10 of diamonds on h6');
    expect(describeSequenceMove('JC@b1')).toBe('played the jack of clubs on b1');
    expect(describeSequenceMove('JSxe5')).toBe('removed the chip on e5 with the jack of spades');
    expect(describeSequenceMove('x2S')).toBe('turned in the dead card, the 2 of spades');
    expect(describeSequenceMove('W+@a2')).toBe('played the wild card on a2');
    expect(describeSequenceMove('pass')).toBe('passed');
  });
});

describe('legal-target highlighting', () => {
  const legal = ['7H@i5', '7H@d6', 'JC@b1', 'JC@c1', 'JSxe5', 'x2S', 'TD@h6'];

  it('highlights the cells the selected card may take', () => {
    const t = targetsFor(legal, '7H');
    expect([...t.place].sort()).toEqual(['d6', 'i5']);
    expect(t.remove.size).toBe(0);
  });

  it('highlights chips a one-eyed jack may remove', () => {
    const t = targetsFor(legal, 'JS');
    expect([...t.remove]).toEqual(['e5']);
    expect(t.place.size).toBe(0);
  });

  it('highlights nothing without a selection, legal moves or a playable card', () => {
    expect(targetsFor(legal, null).place.size).toBe(0);
    expect(targetsFor(undefined, '7H').place.size).toBe(0);
    expect(targetsFor(legal, '2S').place.size).toBe(0); // dead: exchange only
  });

  it('finds the move for a click', () => {
    expect(moveAt(legal, '7H', 'd6')).toBe('7H@d6');
    expect(moveAt(legal, 'JS', 'e5')).toBe('JSxe5');
    expect(moveAt(legal, '7H', 'e5')).toBeNull();
  });

  it('offers exchange and pass only when legal', () => {
    const s = specialMoves(legal);
    expect([...s.exchange]).toEqual(['2S']);
    expect(s.pass).toBe(false);
    expect([...s.playable].sort()).toEqual(['7H', 'JC', 'JS', 'TD']);
    expect(specialMoves(['pass']).pass).toBe(true);
  });
});
