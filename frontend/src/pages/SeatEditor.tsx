import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { GameView } from '../api/types';
import { useEditForm } from '../components/editForm';
import { SaveCancel, Select } from '../components/form';
import { ErrorBox, Field } from '../components/ui';
import { keptFor } from '../game/seats';
import { api } from '../session';
import { BOT_LEVELS } from './NewGameForm';

type SeatTo = 'open' | 'kept' | (typeof BOT_LEVELS)[number];

const SEAT_TO: readonly (readonly [SeatTo, string])[] = [
  ['open', 'Open seat (someone joins)'],
  ['kept', 'Open, kept for…'],
  ...BOT_LEVELS.map((b) => [b, `Bot: ${b}`] as const),
];

/** seatBody is the seat as PUT /games/{id}/seats/{n} takes it. */
export function seatBody(to: SeatTo, name: string): { open: true; for?: string } | { bot: string } {
  if (to === 'open') return { open: true };
  if (to === 'kept') return { open: true, for: name.trim() };
  return { bot: to };
}

/**
 * SeatEditor lets a table's creator change a seat no person holds before
 * the start (PUT /games/{id}/seats/{n}): a friend who does not come leaves
 * the table waiting for good, so the seat can be kept for someone else,
 * opened to anyone, or given to a bot (which starts the game when it fills
 * the table). It opens in place from "Change", as the club's forms do.
 */
export function SeatEditor({ view, seat, onSaved }: { view: GameView; seat: number; onSaved: () => Promise<unknown> }) {
  const s = view.seats[seat];
  const id = `seat-${seat}`;
  const now = (): SeatTo => (s.bot ? (s.bot as SeatTo) : keptFor(s) ? 'kept' : 'open');
  const [to, setTo] = useState<SeatTo>(now);
  const [name, setName] = useState('');
  const { open, busy, error, root, start, close, submit } = useEditForm<HTMLDivElement>({
    first: `#${id}-to`,
    opener: `[data-action=${id}]`,
    reset: () => {
      setTo(now());
      setName(keptFor(s) ?? '');
    },
    save: async () => {
      await api.put(`/games/${encodeURIComponent(view.id)}/seats/${seat}`, seatBody(to, name));
      await onSaved();
    },
    focusInvalid: true,
  });
  const fe = error instanceof ApiError ? error : null;
  const forErr = fe?.fieldError('for');
  const toErr = fe?.fieldError('bot') ?? fe?.fieldError('open');
  const rest = forErr || toErr ? null : error;
  return (
    <div class={open ? 'seat-editor editing' : 'seat-editor'} ref={root}>
      {open ? (
        <form class="form narrow" onSubmit={submit} aria-label={`Change seat ${seat + 1}`}>
          <Select id={`${id}-to`} label={`Seat ${seat + 1} goes to`} value={to} options={SEAT_TO} onChange={setTo} error={toErr} />
          {to === 'kept' && <Field label="Kept for (username)" name={`${id}-for`} value={name} onInput={setName} required maxLength={24} error={forErr} />}
          <ErrorBox error={rest} />
          <SaveCancel busy={busy} label="Save seat" onCancel={close} />
        </form>
      ) : (
        <button type="button" class="small" data-action={id} onClick={start} aria-label={`Change seat ${seat + 1}`}>
          Change
        </button>
      )}
    </div>
  );
}
