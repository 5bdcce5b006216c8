import { useState } from 'preact/hooks';
import type { Game, GameKind, NewGame, SeatRequest } from '../api/types';
import { useFocusAfter } from '../components/focus';
import { Check, ClockFields, toClock, type ClockChoice } from '../components/form';
import { errorText, useAction } from '../components/ui';
import { TEAMS } from '../game/board';
import { navigate } from '../router';
import { api } from '../session';

/** Player counts and team counts of rules.md 1.3 and 2.1. */
export const SEQUENCE_TABLES: Record<number, number[]> = { 2: [2], 3: [3], 4: [2], 6: [2, 3], 8: [2], 9: [3], 10: [2], 12: [2, 3] };
export const STACKS_PLAYERS = [2, 3, 4, 5, 6];
export const BOT_LEVELS = ['random', 'greedy', 'strong'] as const;

/** 'kept' is an open seat kept for one player (by username) until the game starts. */
export type SeatChoice = 'me' | 'open' | 'kept' | (typeof BOT_LEVELS)[number];

export interface GameForm extends ClockChoice {
  game: GameKind;
  variant: 'classic' | 'bordered';
  players: number;
  teams: number;
  seats: SeatChoice[];
  /** keptFor[i] is the username seat i is kept for, when seats[i] is 'kept' */
  keptFor: string[];
  /** private: not in the lobby nor found by a quick match; only people with the link find it */
  private: boolean;
  /** rated: the result moves the players' ratings (the leaderboards); only the API could ask for it */
  rated: boolean;
}

export function defaultForm(): GameForm {
  return { game: 'sequence', variant: 'classic', players: 2, teams: 2, seats: ['me', 'random'], keptFor: [], clockMode: 'turn', turnSeconds: 60, bankSeconds: 300, incrementSeconds: 0, private: false, rated: false };
}

/**
 * resize keeps the seat choices in step with the player count. "Me" in a
 * seat that is cut moves to the first seat: the game is the creator's.
 */
export function resize(f: GameForm, players: number): GameForm {
  const seats = f.seats.slice(0, players);
  if (f.seats.includes('me') && !seats.includes('me') && seats.length > 0) seats[0] = 'me';
  while (seats.length < players) seats.push(seats.length === 0 ? 'me' : 'random');
  const teams = f.game === 'sequence' ? (SEQUENCE_TABLES[players]?.includes(f.teams) ? f.teams : SEQUENCE_TABLES[players]?.[0] ?? 2) : players;
  return { ...f, players, teams, seats };
}

/** meOffered: "Me" is offered in a seat that has it or when no seat has it (a person takes one seat). */
export function meOffered(seats: SeatChoice[], i: number): boolean {
  const at = seats.indexOf('me');
  return at < 0 || at === i;
}

/** SEAT_FIELD reads the seat a field error of POST /games is about: "seats[1].user" is seat index 1. */
const SEAT_FIELD = /^seats\[(\d+)\](?:\.(\w+))?$/;

/** seatMessage says a server objection to a seat in words, for that seat. */
export function seatMessage(part: string | undefined, message: string): string {
  if (part === 'user' && message === 'already seated') return 'You already have another seat: a person can take only one.';
  if (part === 'user' && message.startsWith('you can seat only yourself')) return 'You can seat only yourself; leave the seat open so this person can join.';
  return message.charAt(0).toUpperCase() + message.slice(1) + (/[.!?]$/.test(message) ? '' : '.');
}

/** seatErrors are the server's objections per seat index, in words. */
export function seatErrors(fields: { field: string; message: string }[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const x of fields) {
    const m = SEAT_FIELD.exec(x.field);
    if (!m) continue;
    const i = Number(m[1]);
    out.set(i, [...(out.get(i) ?? []), seatMessage(m[2], x.message)]);
  }
  return out;
}

/** missingNames are the seats kept for someone whose username is still empty. */
export function missingNames(f: GameForm): number[] {
  return f.seats.flatMap((s, i) => (s === 'kept' && !(f.keptFor[i] ?? '').trim() ? [i] : []));
}

/** toRequest builds the POST /games body. */
export function toRequest(f: GameForm): NewGame {
  const seats: SeatRequest[] = f.seats.map((s, i) =>
    s === 'me' ? { user: 'me' } : s === 'open' ? { open: true } : s === 'kept' ? { open: true, for: (f.keptFor[i] ?? '').trim() } : { bot: s },
  );
  const req: NewGame = { game: f.game, players: f.players, seats };
  if (f.game === 'sequence') {
    req.variant = f.variant;
    req.teams = f.teams;
  }
  const clock = toClock(f);
  if (clock) req.clock = clock;
  if (f.private) req.private = true;
  if (f.rated) req.rated = true;
  return req;
}

export function NewGameForm() {
  const [f, setF] = useState<GameForm>(defaultForm);
  const { busy, error, fieldErrors, run } = useAction();
  // The button is disabled while the request runs, and a browser drops the
  // focus of a disabled button to the page: a refusal hands it to the first
  // control at fault, else back to the button (as the sign-in form does).
  const { root, focusNext } = useFocusAfter<HTMLFormElement>();
  // kept seats with no username yet: said at their seats, nothing posted
  const [unnamed, setUnnamed] = useState<number[]>([]);
  // The server's objections with no control of their own here (the clock's
  // are shown at the clock), listed under the summary.
  // Seats' objections are shown at their seats.
  const fields = fieldErrors?.fields ?? [];
  const bySeat = seatErrors(fields);
  for (const i of unnamed) bySeat.set(i, ['Enter the username of the player to keep this seat for.', ...(bySeat.get(i) ?? [])]);
  const unplaced = fields.filter((x) => x.field !== 'clock' && !x.field.startsWith('clock.') && x.field !== 'rated' && !SEAT_FIELD.test(x.field));
  const ratedError = fieldErrors?.fieldError('rated');
  const playerCounts = f.game === 'sequence' ? Object.keys(SEQUENCE_TABLES).map(Number) : STACKS_PLAYERS;

  const submit = (e: Event) => {
    e.preventDefault();
    const missing = missingNames(f);
    setUnnamed(missing);
    if (missing.length) {
      (document.getElementById(`ng-seat-${missing[0]}-for`) as HTMLInputElement | null)?.focus();
      return;
    }
    void run(async () => {
      try {
        const g = await api.post<Game>('/games', toRequest(f));
        navigate(`/games/${g.id}`);
      } catch (err) {
        focusNext('[aria-invalid=true]', 'button[type=submit]');
        throw err;
      }
    });
  };

  return (
    <form class="form new-game" onSubmit={submit} aria-labelledby="new-game-title" ref={root}>
      <h2 id="new-game-title">New game</h2>
      <div class="row">
        <div class="field">
          <label for="ng-game">Game</label>
          <select id="ng-game" value={f.game} onChange={(e) => setF(resize({ ...f, game: (e.currentTarget as HTMLSelectElement).value as GameKind }, 2))}>
            <option value="sequence">Sequence (board)</option>
            <option value="stacks">Sequence Stacks (cards)</option>
          </select>
        </div>
        {f.game === 'sequence' && (
          <div class="field">
            <label for="ng-variant">Variant</label>
            <select id="ng-variant" value={f.variant} onChange={(e) => setF({ ...f, variant: (e.currentTarget as HTMLSelectElement).value as GameForm['variant'] })}>
              <option value="classic">Classic (jacks)</option>
              <option value="bordered">Bordered (W+ / W−)</option>
            </select>
          </div>
        )}
        <div class="field">
          <label for="ng-players">Players</label>
          <select id="ng-players" value={String(f.players)} onChange={(e) => setF(resize(f, Number((e.currentTarget as HTMLSelectElement).value)))}>
            {playerCounts.map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </select>
        </div>
        {f.game === 'sequence' && (
          <div class="field">
            <label for="ng-teams">Teams</label>
            <select id="ng-teams" value={String(f.teams)} onChange={(e) => setF({ ...f, teams: Number((e.currentTarget as HTMLSelectElement).value) })}>
              {(SEQUENCE_TABLES[f.players] ?? [2]).map((t) => (
                <option key={t} value={String(t)}>
                  {t}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <fieldset>
        <legend>Seats</legend>
        {f.seats.map((s, i) => {
          const errs = bySeat.get(i);
          const errId = `ng-seat-${i}-err`;
          return (
            <div class="field seat-field" key={i}>
              <label for={`ng-seat-${i}`}>
                Seat {i + 1}
                {f.game === 'sequence' && (
                  <span class="muted">
                    {' '}
                    · {TEAMS[i % f.teams].name} {TEAMS[i % f.teams].shape}
                  </span>
                )}
              </label>
              <select
                id={`ng-seat-${i}`}
                value={s}
                aria-invalid={errs ? 'true' : undefined}
                aria-describedby={errs ? errId : undefined}
                onChange={(e) => {
                  const seats = [...f.seats];
                  seats[i] = (e.currentTarget as HTMLSelectElement).value as SeatChoice;
                  setF({ ...f, seats });
                }}
              >
                {meOffered(f.seats, i) && <option value="me">Me</option>}
                <option value="open">Open seat (someone joins)</option>
                <option value="kept">Open, kept for…</option>
                {BOT_LEVELS.map((b) => (
                  <option key={b} value={b}>
                    Bot: {b}
                  </option>
                ))}
              </select>
              {s === 'kept' && (
                <>
                  <label for={`ng-seat-${i}-for`} class="small">
                    Kept for (username)
                  </label>
                  <input
                    id={`ng-seat-${i}-for`}
                    type="text"
                    autocomplete="off"
                    spellcheck={false}
                    maxLength={24}
                    value={f.keptFor[i] ?? ''}
                    aria-invalid={errs ? 'true' : undefined}
                    aria-describedby={errs ? errId : undefined}
                    onInput={(e) => {
                      const keptFor = [...f.keptFor];
                      keptFor[i] = (e.currentTarget as HTMLInputElement).value;
                      setF({ ...f, keptFor });
                      setUnnamed(unnamed.filter((j) => j !== i));
                    }}
                  />
                </>
              )}
              {errs && (
                <small id={errId} class="field-error">
                  {errs.join(' ')}
                </small>
              )}
            </div>
          );
        })}
        {f.seats.includes('me') && <p class="muted small">You can take one seat: to sit elsewhere, first give your seat to a bot or leave it open.</p>}
      </fieldset>
      <Check
        id="ng-private"
        label="Private table (only people with the link)"
        checked={f.private}
        onChange={(v) => setF({ ...f, private: v })}
        hint="A private table is not listed to join or watch, and no quick match seats a stranger at it: send its link to the people you want to play."
      />
      <Check
        id="ng-rated"
        label="Rated game"
        checked={f.rated}
        onChange={(v) => setF({ ...f, rated: v })}
        hint="The result moves the Elo rating of everyone at the table on the game's leaderboard; leaving early counts as a loss. A rated game needs a person at the table: you, or an open seat."
        error={ratedError}
      />
      <div class="row">
        <ClockFields idPrefix="ng" value={f} onChange={(patch) => setF({ ...f, ...patch })} fieldError={(k) => fieldErrors?.fieldError(k)} />
      </div>
      {!!error && (
        <div class="error" role="alert">
          {errorText(error)}
          {unplaced.length > 0 && (
            <ul>
              {unplaced.map((x) => (
                <li key={x.field}>
                  {x.field}: {x.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Starting…' : 'Start the game'}
      </button>
    </form>
  );
}
