import type { GameView, Seat } from '../api/types';
import { TEAMS } from '../game/board';

export function seatName(view: { seats: Seat[]; your_seat?: number | null }, seat: number): string {
  const s = view.seats[seat];
  const base = s?.user?.username ?? (s?.bot ? `bot-${s.bot}` : s?.open ? 'open seat' : `seat ${seat + 1}`);
  return view.your_seat === seat ? `${base} (you)` : base;
}

export function resultText(view: GameView): string {
  const r = view.result;
  if (view.status === 'aborted') return 'The game was aborted.';
  if (!r) return '';
  // An adjudicated game's board shows no end: say what ended it.
  const how = view.ended_by === 'adjudication' ? ', adjudicated at the round deadline' : '';
  if (r.status === 'drawn') return `Draw${how}.`;
  if (view.game === 'sequence') {
    const t = TEAMS[r.winner ?? 0];
    const mine = view.your_seat != null && view.seats[view.your_seat]?.team === r.winner;
    return `${t.name} team (${t.shape}) wins${how}${mine ? ' — that is you!' : '.'}`;
  }
  return `${seatName(view, r.winner ?? 0)} wins${how}${r.winner === view.your_seat ? ' — well played!' : '.'}`;
}

export function newMoveID(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c?.randomUUID) return c.randomUUID();
  return Math.random().toString(36).slice(2) + Date.now().toString(36);
}

/** isTypingTarget says whether a key press belongs to a form field. */
export function isTypingTarget(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}
