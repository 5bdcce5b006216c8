import { cardLabel, cardWords } from '../game/board';
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

/**
 * CardFace is a Sequence card's short face within a button's words ("Turn in dead 2♠"), read by its name as the
 * hand's card is ("2 of spades", not "2 black spade suit").
 */
export function CardFace({ card }: { card: string }) {
  return (
    <span role="img" aria-label={cardWords(card)}>
      {cardLabel(card).face}
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
