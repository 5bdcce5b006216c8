// "My next rounds" on the home page, from GET /users/{id}/tournaments.
import type { UserTournament } from '../api/types';

/**
 * upcoming keeps the tournaments still to play, soonest first: those with
 * a scheduled next round by its start, then those being played, then
 * those still taking entries without a date. Finished and cancelled ones
 * have nothing left to play, nor one the player's entry withdrew from (it
 * read "round 2 in play" as if they were still in it).
 */
export function upcoming(items: UserTournament[]): UserTournament[] {
  const live = items.filter((t) => t.status !== 'finished' && t.status !== 'cancelled' && !t.withdrawn);
  const key = (t: UserTournament): [number, number] => {
    if (t.next_start) return [0, Date.parse(t.next_start)];
    if (t.status === 'running' || t.status === 'paused') return [1, 0];
    return [2, Date.parse(t.created_at) || 0];
  };
  return live
    .map((t, i) => ({ t, i, k: key(t) }))
    .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.i - b.i)
    .map((x) => x.t);
}

/** roundLine says what comes next in one tournament. */
export function roundLine(t: UserTournament): string {
  if (t.status === 'paused') return 'paused by the organizers';
  if (t.next_start && t.next_round) return `round ${t.next_round}`;
  if (t.status === 'running') return t.current_round ? `round ${t.current_round} in play` : 'starting';
  return 'registration open, no date yet';
}
