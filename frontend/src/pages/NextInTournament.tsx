import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { GameView, UserTournament } from '../api/types';
import { nextStep } from '../competition/nextRounds';
import { fetchAll } from '../competition/pager';
import { usePoll } from '../components/poll';
import { api } from '../session';

/** How often a finished tournament game's page asks whether the player's next game has started. */
export const NEXT_GAME_POLL_MS = 5000;

/**
 * NextInTournament leads a player on from their finished tournament game.
 * Its page said nothing more once the game ended (its event stream ends
 * with it): a player whose next round was paired at once, their clock
 * running, saw no sign of it but a count beside Home. It offers the way
 * back to the tournament, and to a seated player their next game as soon
 * as it is being played ("Play your round 2 game"), else what comes next
 * for them (the words of Home's "My next rounds"), asking again every few
 * seconds until there is nothing more to wait for.
 */
export function NextInTournament({ view, uid, tournamentName }: { view: GameView; uid: string; tournamentName?: string }) {
  const tournamentID = view.tournament_id!;
  const seated = view.your_seat != null && !!uid;
  const [mine, setMine] = useState<UserTournament | null>(null);
  // Only the latest read counts: a read spans pages, and an older one
  // answered last put back what a newer one had moved past (the next game
  // offered went again).
  const gen = useRef(0);
  const load = useCallback(() => {
    if (!seated) return;
    const my = ++gen.current;
    fetchAll<UserTournament>((path) => api.get(path), `/users/${encodeURIComponent(uid)}/tournaments`).then(
      (items) => my === gen.current && setMine(items.find((t) => t.id === tournamentID) ?? null),
      () => {},
    );
  }, [seated, uid, tournamentID]);
  useEffect(load, [load]);
  const step = mine ? nextStep(mine) : null;
  const next = step?.game && step.game !== view.id ? step.game : undefined;
  const over = !mine || mine.status === 'finished' || mine.status === 'cancelled' || !!mine.withdrawn || !!mine.knocked_out;
  usePoll(load, NEXT_GAME_POLL_MS, seated && !next && !(mine && over));
  const live = mine && !over;
  // The match still says this game is being played until a worker records
  // its result (or sets up the series' next game): "your game is being
  // played" of the game the player just finished read as wrong.
  const words = step?.game === view.id && mine?.entry_match ? thisGameOver(mine.entry_match.round, mine.best_of ?? 1) : step?.text;
  return (
    <p class="actions-row way-on">
      {next && (
        <a class="button primary" href={`/games/${encodeURIComponent(next)}`}>
          Play your round {mine!.entry_match!.round} game
        </a>
      )}
      <a class={next ? 'button' : 'button primary'} href={`/tournaments/${encodeURIComponent(tournamentID)}`}>
        Back to {tournamentName || 'the tournament'}
      </a>
      {live && !next && step && <span class="muted small">Next for you: {words}</span>}
      {mine?.knocked_out && <span class="muted small">You are out of this tournament.</span>}
    </p>
  );
}

/** thisGameOver is what comes next while the game just finished is still its match's game being played. */
function thisGameOver(round: number, bestOf: number): string {
  return bestOf > 1 ? `round ${round}: your match's next game or its result, in a moment` : `round ${round}: the result is being recorded`;
}
