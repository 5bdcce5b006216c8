import { cardLabel } from '../game/board';
import { stacksCardColour, stacksCardName } from '../game/stacksMoves';

/** SeqCard is a Sequence card face (not interactive). */
export function SeqCard({ card, small }: { card: string; small?: boolean }) {
  const l = cardLabel(card);
  return (
    <span class={`card${l.red ? ' red-suit' : ''}${small ? ' small' : ''}`} title={l.name} aria-label={l.name} role="img">
      <span aria-hidden="true">{l.face}</span>
    </span>
  );
}

const SHORT: Record<string, string> = {
  RW: 'W',
  BW: 'W',
  SKIP: 'Skip',
  REVERSE: 'Rev',
  STEAL_CARD: 'Steal card',
  STEAL_CHIP: 'Steal chip',
  BLOCK: 'Block',
};

export function stacksFace(card: string): string {
  return SHORT[card] ?? card.slice(1);
}

/** StacksCard is a Stacks card face; colour plus a letter (R/B) for the colour-blind. */
export function StacksCard({ card, small }: { card: string; small?: boolean }) {
  const col = stacksCardColour(card);
  return (
    <span class={`scard scard-${col}${small ? ' small' : ''}`} title={stacksCardName(card)} aria-label={stacksCardName(card)} role="img">
      <span aria-hidden="true">
        {col !== 'special' && <span class="scard-col">{col === 'red' ? 'R' : 'B'}</span>}
        {stacksFace(card)}
      </span>
    </span>
  );
}
