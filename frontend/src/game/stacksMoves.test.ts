import { describe, expect, it } from 'vitest';
import { describeStacksMove, parseStacksMove, playLabel, stacksOptions } from './stacksMoves';

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
});
