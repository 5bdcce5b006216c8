import { useState } from 'preact/hooks';
import type { GameKind, QuickMatchRequest } from '../api/types';
import { Select } from '../components/form';
import { ErrorBox, useAction } from '../components/ui';
import { navigate } from '../router';
import { api } from '../session';
import { SEQUENCE_TABLES, STACKS_PLAYERS } from './NewGameForm';

/** QuickChoice is the set-up a quick match asks for. */
export interface QuickChoice {
  game: GameKind;
  variant: 'classic' | 'bordered';
  players: number;
  teams: number;
}

export const defaultQuick = (): QuickChoice => ({ game: 'sequence', variant: 'classic', players: 2, teams: 2 });

/** choose applies a change, keeping the players and teams ones the game has (the first, else). */
export function choose(c: QuickChoice, patch: Partial<QuickChoice>): QuickChoice {
  const n = { ...c, ...patch };
  const sizes = n.game === 'sequence' ? Object.keys(SEQUENCE_TABLES).map(Number) : STACKS_PLAYERS;
  if (!sizes.includes(n.players)) n.players = sizes[0];
  const teams = n.game === 'sequence' ? SEQUENCE_TABLES[n.players] : [n.players];
  if (!teams.includes(n.teams)) n.teams = teams[0];
  return n;
}

/** quickRequest is the POST /games/quick body: Stacks has no variant and no teams to choose. */
export function quickRequest(c: QuickChoice): QuickMatchRequest {
  return c.game === 'sequence' ? { game: 'sequence', variant: c.variant, players: c.players, teams: c.teams } : { game: 'stacks', players: c.players };
}

/**
 * QuickMatch plays someone now: a seat at the oldest table of the chosen
 * set-up that waits for players, or a new one that the next player to ask
 * joins; either way it goes to the game's page, which shows the seats
 * filling and the game starting.
 */
export function QuickMatch() {
  const [c, setC] = useState<QuickChoice>(defaultQuick);
  const { busy, error, run, clear } = useAction();
  const set = (patch: Partial<QuickChoice>) => {
    clear();
    setC(choose(c, patch));
  };
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const g = await api.quickMatch(quickRequest(c));
      navigate(`/games/${g.id}`);
    });
  };
  const sizes = c.game === 'sequence' ? Object.keys(SEQUENCE_TABLES).map(Number) : STACKS_PLAYERS;
  const teams = c.game === 'sequence' ? SEQUENCE_TABLES[c.players] ?? [2] : [];
  return (
    <form class="form quick-match" onSubmit={submit} aria-labelledby="qm-title" aria-describedby="qm-about">
      <h2 id="qm-title">Quick match</h2>
      <p id="qm-about" class="muted small">
        Play someone now: a seat at the table of this kind that has waited longest for players, or a new table for the next player who asks. 60 s a turn, unrated.
      </p>
      <div class="row">
        <Select<GameKind>
          id="qm-game"
          label="Game"
          value={c.game}
          options={[
            ['sequence', 'Sequence (board)'],
            ['stacks', 'Sequence Stacks (cards)'],
          ]}
          onChange={(game) => set({ game })}
        />
        {c.game === 'sequence' && (
          <Select<QuickChoice['variant']>
            id="qm-variant"
            label="Variant"
            value={c.variant}
            options={[
              ['classic', 'Classic (jacks)'],
              ['bordered', 'Bordered (W+ / W−)'],
            ]}
            onChange={(variant) => set({ variant })}
          />
        )}
        <Select<number> id="qm-players" label="Players" value={c.players} options={sizes.map((n) => [n, String(n)] as const)} onChange={(players) => set({ players })} />
        {teams.length > 1 && <Select<number> id="qm-teams" label="Teams" value={c.teams} options={teams.map((n) => [n, String(n)] as const)} onChange={(t) => set({ teams: t })} />}
      </div>
      <ErrorBox error={error} />
      <button type="submit" class="primary" aria-disabled={busy ? 'true' : undefined}>
        {busy ? 'Finding a table…' : 'Quick match'}
      </button>
    </form>
  );
}
