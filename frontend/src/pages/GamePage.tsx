import { useCallback, useEffect, useReducer, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { GameView } from '../api/types';
import { ErrorBox, Loading, Page } from '../components/ui';
import { initialLive, liveReducer } from '../game/reducer';
import { describeSequenceMove } from '../game/sequenceMoves';
import { describeStacksMove } from '../game/stacksMoves';
import { GameStream } from '../game/stream';
import { api, useSession } from '../session';
import { newMoveID, resultText, seatName } from './gameCommon';
import { SequenceTable } from './SequenceTable';
import { StacksTable } from './StacksTable';

export default function GamePage({ id }: { id: string }) {
  const session = useSession();
  const [live, dispatch] = useReducer(liveReducer, initialLive);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const uid = session.user?.id ?? '';

  const load = useCallback(() => {
    api.get<GameView>(`/games/${encodeURIComponent(id)}`).then(
      (v) => dispatch({ type: 'view', view: v }),
      (e) => setError(e),
    );
  }, [id, uid]);

  useEffect(() => {
    if (!session.ready) return;
    load();
    const s = new GameStream(id, {
      token: () => api.accessToken,
      refresh: () => api.refresh(),
      onEvent: (event) => dispatch({ type: 'event', event }),
      onConnected: (connected) => dispatch({ type: 'connected', connected }),
    }).start();
    return () => s.close();
  }, [id, uid, session.ready]);

  const view = live.view;

  const move = async (text: string) => {
    if (!view) return;
    setBusy(true);
    setError(null);
    try {
      const v = await api.post<GameView>(`/games/${encodeURIComponent(id)}/moves`, { ply: view.ply, move: text, move_id: newMoveID() });
      dispatch({ type: 'view', view: v });
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) load(); // someone moved first: catch up
      else setError(e);
    } finally {
      setBusy(false);
    }
  };

  const seatAction = async (path: 'join' | 'start') => {
    setBusy(true);
    setError(null);
    try {
      await api.post(`/games/${encodeURIComponent(id)}/${path}`, {});
      load();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  if (!view) {
    return (
      <Page title="Game">
        <ErrorBox error={error} />
        {!error && <Loading what="Loading the game" />}
      </Page>
    );
  }

  const title = view.game === 'sequence' ? `Sequence${view.variant === 'bordered' ? ' (bordered)' : ''}` : 'Sequence Stacks';
  const lastMove = live.log[live.log.length - 1];
  const describe = (m: string) => (view.game === 'sequence' ? describeSequenceMove(m) : describeStacksMove(m, (s) => seatName(view, s)));

  return (
    <Page title={title} wide>
      <div class="game" data-game={view.game} data-ply={view.ply} data-status={view.status} data-my-turn={String((view.legal_moves ?? []).length > 0)}>
      <div class="game-head">
        <h1>{title}</h1>
        <span class={`conn ${live.connected ? 'up' : 'down'}`} role="status">
          {live.connected ? 'live' : 'reconnecting…'}
        </span>
        {view.status === 'finished' && (
          <a class="button" href={`/games/${view.id}/replay`}>
            Open the replay
          </a>
        )}
      </div>
      <div class="sr-only" aria-live="polite" aria-atomic="true" id="announcer">
        {live.announcement}
      </div>
      <ErrorBox error={error} />

      {view.status === 'open' && (
        <section class="card-box">
          <h2>Waiting for players</h2>
          <ul>
            {view.seats.map((s) => (
              <li key={s.seat}>
                Seat {s.seat + 1}: {s.open ? 'open' : seatName(view, s.seat)}
              </li>
            ))}
          </ul>
          {session.user && view.your_seat == null && view.seats.some((s) => s.open) && (
            <button type="button" class="primary" disabled={busy} onClick={() => seatAction('join')}>
              Take a seat
            </button>
          )}
          {session.user && view.created_by === session.user.id && !view.seats.some((s) => s.open) && (
            <button type="button" class="primary" disabled={busy} onClick={() => seatAction('start')}>
              Start the game
            </button>
          )}
        </section>
      )}

      {view.status !== 'open' && (view.status === 'finished' || view.status === 'aborted') && (
        <p class="result" role="status">
          {resultText(view)}
        </p>
      )}

      {view.state && view.game === 'sequence' && <SequenceTable view={view} onMove={move} busy={busy} lastMove={lastMove} />}
      {view.state && view.game === 'stacks' && <StacksTable view={view} onMove={move} busy={busy} />}

      {live.log.length > 0 && (
        <details class="move-log" open={false}>
          <summary>Moves this session ({live.log.length})</summary>
          <ol start={live.log[0].ply + 1}>
            {live.log.map((m) => (
              <li key={m.ply}>
                {seatName(view, m.seat)} {describe(m.move)} <code>{m.move}</code>
              </li>
            ))}
          </ol>
        </details>
      )}
      </div>
    </Page>
  );
}
