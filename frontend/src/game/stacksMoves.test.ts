import { describe, expect, it } from 'vitest';
import type { MoveRecord } from '../api/types';
import { describeStacksMove, doneToYou, parseStacksMove, playLabel, stacksOptions } from './stacksMoves';

describe('Stacks move notation', () => {
  it('reads every kind of move', () => {
    expect(parseStacksMove('R3>0')).toEqual({ kind: 'pile', card: 'R3', fromDiscard: false, pile: 0 });
    expect(parseStacksMove('RW>new')).toEqual({ kind: 'pile', card: 'RW', fromDiscard: false, pile: 'new' });
    expect(parseStacksMove('^R3>1')).toEqual({ kind: 'pile', card: 'R3', fromDiscard: true, pile: 1 });
    expect(parseStacksMove('SKIP')).toEqual({ kind: 'special', card: 'SKIP', fromDiscard: false });
    expect(parseStacksMove('STEAL_CARD@2:discard')).toEqual({ kind: 'special', card: 'STEAL_CARD', fromDiscard: false, target: 2, option: 'discard' });
    expect(parseStacksMove('^STEAL_CHIP@1:red')).toEqual({ kind: 'special', card: 'STEAL_CHIP', fromDiscard: true, target: 1, option: 'red' });
    expect(parseStacksMove('/B2')).toEqual({ kind: 'discard', card: 'B2' });
    expect(parseStacksMove('/')).toEqual({ kind: 'endEmpty' });
    expect(parseStacksMove('BLOCK')).toEqual({ kind: 'block' });
    expect(parseStacksMove('noblock')).toEqual({ kind: 'noblock' });
    expect(parseStacksMove('R6>0')).toBeNull();
    expect(parseStacksMove('R3>')).toBeNull();
  });

  it('groups legal moves by the card they take', () => {
    const o = stacksOptions(['R1>new', 'R1>0', '^B2>1', 'SKIP', '/R1', '/B3', 'noblock']);
    expect([...o.plays.keys()].sort()).toEqual(['discard:B2', 'hand:R1', 'hand:SKIP']);
    expect(o.plays.get('hand:R1')!.map((p) => p.text)).toEqual(['R1>new', 'R1>0']);
    expect([...o.discards]).toEqual(['R1', 'B3']);
    expect(o.block).toBe(false);
    expect(o.noblock).toBe(true);
    expect(stacksOptions(['BLOCK']).block).toBe(true);
  });

  it('says moves in words', () => {
    expect(describeStacksMove('R3>0')).toBe('played red 3 on pile 1');
    expect(describeStacksMove('STEAL_CHIP@1:red', (s) => ['ann', 'bob'][s])).toBe('stole a red chip from bob');
    // of the viewer's own hand: "from your hand", not "from ann (you)'s hand"
    expect(describeStacksMove('STEAL_CARD@0:hand', (s) => ['ann (you)', 'bob'][s])).toBe('stole a card from your hand');
    expect(describeStacksMove('STEAL_CARD@1:hand', (s) => ['ann (you)', 'bob'][s])).toBe("stole a card from bob's hand");
    // what a block and the window's closing did to the chip (the log read "the table block window closed")
    expect(describeStacksMove('BLOCK')).toBe('BLOCKED the completion: its completer gets no chip');
    expect(describeStacksMove('close')).toBe('closed the block window: nobody blocked, the chip goes to the completer');
  });

  it('labels the buttons that offer a chosen card', () => {
    const names = (s: number) => ['ann', 'bob'][s];
    expect(playLabel('R3>0')).toBe('on pile 1');
    expect(playLabel('^RW>new')).toBe('start a new pile');
    expect(playLabel('STEAL_CARD@1:hand', names)).toBe("steal from bob's hand");
    expect(playLabel('STEAL_CHIP@1:blue', names)).toBe('steal a blue chip from bob');
    expect(playLabel('SKIP')).toBe('play Skip');
  });

  it('says what the others did to a player since their last move: steals, a block of their completion', () => {
    const names = (s: number) => ['ann', 'bob', 'cat'][s];
    const mv = (ply: number, seat: number, move: string): MoveRecord => ({ ply, seat, move, by: seat < 0 ? 'server' : 'player', at: '' });
    // ann completes a pile, bob blocks it; cat steals from ann, and from bob; bob takes ann's discard top
    const log = [mv(0, 0, 'R4>0'), mv(1, 0, 'R5>0'), mv(2, 2, 'noblock'), mv(3, 1, 'BLOCK'), mv(4, 0, '/B2'), mv(5, 1, '/B1'), mv(6, 2, 'STEAL_CHIP@0:red'), mv(7, 2, 'STEAL_CARD@1:hand'), mv(8, 2, '/R1'), mv(9, 1, 'STEAL_CARD@0:discard')];
    expect(doneToYou(log.slice(0, 4), 0, names)).toEqual(['bob BLOCKED your completion: no chip for you']);
    expect(doneToYou(log, 0, names)).toEqual(['cat stole a red chip from you', 'bob took the top card of your discard pile']);
    expect(doneToYou(log.slice(0, 9), 1, names)).toEqual(['cat took a card from your hand']);
    expect(doneToYou(log, 1, names)).toEqual([]); // bob has moved since
    // a block of someone else's completion, or the window closing, is nothing done to ann
    expect(doneToYou([mv(0, 1, 'B5>0'), mv(1, 2, 'BLOCK')], 0, names)).toEqual([]);
    expect(doneToYou([mv(0, 0, 'B5>0'), mv(1, -1, 'close')], 0, names)).toEqual([]);
    // a spectator has nothing done to them
    expect(doneToYou(log, null, names)).toEqual([]);
  });
});
