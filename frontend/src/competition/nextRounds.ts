// "My next rounds" on the home page, from GET /users/{id}/tournaments,
// whose items say the entry's own next step (entry_match,
// entry_next_round, entry_waiting, knocked_out) beside the tournament's
// next round: Home reads nothing else.
import type { UserTournament } from '../api/types';

/** What comes next for the player in one tournament: the words, and the game to play or the start to show. */
export interface NextStep {
  text: string;
  /** the entry's game being played now, to link to */
  game?: string;
  /** the start of the entry's next round, to show beside the words */
  start?: string;
}

/** live says whether the tournament is being played. */
const live = (t: UserTournament) => t.status === 'running' || t.status === 'paused';

/** playingNow is the entry's match being played, as the list says it. */
const playingNow = (t: UserTournament) => (live(t) && t.entry_match?.status === 'playing' && !t.entry_match.bye ? t.entry_match : undefined);

/**
 * nextStep says what comes next for the player in one tournament. Home said
 * "round 3 · in 3 min" to bob while his round 2 game was still being
 * played, and of a knockout round he had not reached: the list's
 * next_round is the tournament's first round not yet paired, whoever plays
 * in it. The server says the entry's own step: a match of the entry's
 * being played comes first ("round 2: your game is being played", with
 * the game to play); in a knockout, a later round is the entry's only once
 * the bracket seats it there, reads "if your entry goes through" while its
 * match is undecided, and is not offered at all once it is knocked out.
 */
export function nextStep(t: UserTournament): NextStep {
  const now = playingNow(t);
  if (now) return now.game_id ? { text: `round ${now.round}: your game is being played`, game: now.game_id } : { text: `round ${now.round}: your match is being played` };
  if (t.status === 'paused') return { text: 'paused by the organizers' };
  if (live(t) && t.knocked_out) return { text: 'knocked out: no round left for you' };
  if (live(t) && t.entry_waiting) return { text: 'your next match waits for its opponent' };
  const mine = t.entry_next_round;
  if (mine?.starts_at) return { text: mine.if_through ? `round ${mine.number} if your entry goes through` : `round ${mine.number}`, start: mine.starts_at };
  // the tournament's next round, where the list says nothing of the entry's own (registration; a bracket not drawn yet)
  if (!mine && !(live(t) && t.entry_match) && t.next_start && t.next_round) return { text: `round ${t.next_round}`, start: t.next_start };
  if (t.status === 'running') {
    if (!t.current_round) return { text: 'starting' };
    const m = t.entry_match;
    if (m?.round === t.current_round && m.bye) return { text: `round ${t.current_round} in play; you have a bye` };
    if (m?.round === t.current_round && m.status !== 'playing') return { text: `round ${t.current_round} in play; your match is over` };
    return { text: `round ${t.current_round} in play` };
  }
  return { text: 'registration open, no date yet' };
}

/**
 * upcoming keeps the tournaments still to play, soonest first: those where
 * the entry's game is being played, then those with a scheduled next round
 * for the entry by its start, then those being played, then those still
 * taking entries without a date. Finished and cancelled ones have nothing
 * left to play, nor one the player's entry withdrew from (it read "round 2
 * in play" as if they were still in it).
 */
export function upcoming(items: UserTournament[]): UserTournament[] {
  const left = items.filter((t) => t.status !== 'finished' && t.status !== 'cancelled' && !t.withdrawn);
  const key = (t: UserTournament): [number, number] => {
    if (playingNow(t)) return [0, 0];
    const step = nextStep(t);
    if (step.start) return [1, Date.parse(step.start)];
    if (live(t)) return [2, 0];
    return [3, Date.parse(t.created_at) || 0];
  };
  return left
    .map((t, i) => ({ t, i, k: key(t) }))
    .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.i - b.i)
    .map((x) => x.t);
}

/** roundLine says what comes next in one tournament, in words. */
export function roundLine(t: UserTournament): string {
  return nextStep(t).text;
}
