import type { Game, GameView } from '../api/types';
import { errorText, useAction } from '../components/ui';
import { navigate } from '../router';
import { api } from '../session';

/**
 * Rematch is "Play again" at the head of a finished casual game (on the
 * heading's line, so that the table below stays where it was). The rematch
 * has the same set-up with everyone one seat on. A player asks for
 * the rematch (the first one to ask makes it; a later ask seats them in it)
 * and is taken to it; everyone else watching is told it exists once one
 * player has asked (the rematch event brings rematch_id). Tournament games
 * (no creator) have none: the tournament makes the next game.
 */
export function Rematch({ view }: { view: GameView }) {
  const { busy, error, run } = useAction();
  if (view.status !== 'finished' || !view.created_by) return null;
  const player = view.your_seat != null;
  if (!player && !view.rematch_id) return null;
  const ask = () =>
    run(async () => {
      const g = await api.post<Game>(`/games/${encodeURIComponent(view.id)}/rematch`);
      navigate(`/games/${g.id}`);
    });
  return (
    <div class="rematch">
      {view.rematch_id && (
        <p role="status">
          {player ? 'A rematch is set up.' : 'The players are playing a rematch.'}
        </p>
      )}
      {player ? (
        <button type="button" class="primary" disabled={busy} onClick={ask}>
          {busy ? 'Setting up…' : view.rematch_id ? 'Play the rematch' : 'Play again'}
        </button>
      ) : (
        <a class="button" href={`/games/${view.rematch_id}`}>
          Watch the rematch
        </a>
      )}
      {!!error && (
        <p class="error" role="alert">
          {errorText(error)}
        </p>
      )}
    </div>
  );
}
