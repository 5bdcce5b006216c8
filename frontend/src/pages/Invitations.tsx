import { useEffect, useRef } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { Game } from '../api/types';
import { gameName } from '../components/GameList';
import { ShowMore, usePagedList, useRefresh } from '../components/list';
import { ErrorBox, useAction } from '../components/ui';
import { waitingChanged } from '../components/waiting';
import { navigate } from '../router';
import { api } from '../session';

/** tableName names a game's kind and size, as the game lists do. */
export const tableName = (g: Game) => `${gameName(g)} · ${g.players} players`;

/**
 * Invitations lists the games waiting for players with a seat kept for me
 * (a table made for me, a rematch), each with who made it, "Join", which
 * takes the seat kept for me and goes to the game, and "Decline", which
 * gives it up (open to anyone from then on) and drops it from the list.
 * Nothing is shown while there are none.
 */
export function Invitations({ me }: { me: string }) {
  const list = usePagedList<Game>(`/users/${me}/games?invited=true`, [me]);
  useRefresh(list);
  const { busy, error, run } = useAction();
  // Decline takes its line away, and with it the focused button: the focus
  // went to the page. It goes to the next invitation's Join once the list
  // is read again, or to "My games" when none is left.
  const refocus = useRef(false);
  // A refused Join says the invitation is not what the list shows (the game
  // started, was called off, the seat given to another): the list is read
  // again, which it was not (its Join offered again the game refused).
  const join = (id: string) =>
    void run(async () => {
      try {
        await api.post(`/games/${encodeURIComponent(id)}/join`, {});
        navigate(`/games/${id}`);
      } catch (e) {
        if (e instanceof ApiError && e.status >= 400 && e.status < 500) {
          refocus.current = true;
          list.reload();
          waitingChanged();
        }
        throw e;
      }
    });
  useEffect(() => {
    if (!refocus.current || list.loading || busy) return;
    refocus.current = false;
    (document.querySelector<HTMLElement>('ul.invitations button') ?? document.getElementById('my-games'))?.focus();
  });
  const decline = (id: string) =>
    void run(async () => {
      await api.post(`/games/${encodeURIComponent(id)}/decline`, {});
      refocus.current = true;
      list.reload();
      waitingChanged();
    });
  if (list.error) return <ErrorBox error={list.error} />;
  // (the refusal of a Join is said even when the list read again is empty)
  if (!list.data?.length) return error ? <ErrorBox error={error} /> : null;
  return (
    <>
      <h3 id="invited">Invited</h3>
      <ul class="game-list invitations" aria-labelledby="invited">
        {list.data.map((g) => {
          const table = `${tableName(g)} by ${g.created_by_name || 'another player'}`;
          return (
            <li key={g.id}>
              <strong>Invited:</strong> <a href={`/games/${g.id}`}>{tableName(g)}</a> by {g.created_by_name || 'another player'} —{' '}
              <button type="button" class="primary" disabled={busy} onClick={() => join(g.id)} aria-label={`Join ${table}`}>
                Join
              </button>{' '}
              <button type="button" class="secondary" disabled={busy} onClick={() => decline(g.id)} aria-label={`Decline ${table}`}>
                Decline
              </button>
            </li>
          );
        })}
      </ul>
      <ErrorBox error={error} />
      <ShowMore list={list} label="More invitations" />
    </>
  );
}
