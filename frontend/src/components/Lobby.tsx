import type { Game } from '../api/types';
import { clockText, relative } from '../competition/time';
import { counted } from './plural';
import { ShowMore, usePagedList, useRefresh } from './list';
import { ErrorBox, Loading } from './ui';

const kind = (g: Game) => `${g.game === 'sequence' ? 'Sequence' : 'Stacks'} · ${g.players} players${g.game === 'sequence' && g.players > g.teams ? ` in ${g.teams} teams` : ''}`;

/** who names the people and bots at a table, and how many seats are open. */
export function who(g: Game): string {
  const taken = g.seats.filter((s) => !s.open).map((s) => s.user?.username ?? `bot-${s.bot}`);
  const open = g.seats.filter((s) => s.open).length;
  return [...taken, ...(open ? [`${counted(open, 'open seat')}`] : [])].join(', ');
}

/**
 * Lobby lists everyone's games: those waiting for players, to join (the
 * ones me already sits at are in "My games" instead), and those being
 * played, to watch. Signed out, the joinable ones say to sign in first.
 */
export function Lobby({ me }: { me?: string }) {
  const open = usePagedList<Game>('/games?status=open', []);
  const live = usePagedList<Game>('/games?status=active', []);
  useRefresh(open);
  useRefresh(live);
  const joinable = open.data?.filter((g) => !me || !g.seats.some((s) => s.user?.id === me));
  return (
    <section class="card-box lobby" aria-labelledby="lobby">
      <h2 id="lobby">Join or watch a game</h2>
      <h3>Waiting for players</h3>
      <ErrorBox error={open.error} />
      {!joinable ? (
        !open.error && <Loading />
      ) : joinable.length ? (
        <ul class="game-list">
          {joinable.map((g) => (
            <li key={g.id}>
              <a href={`/games/${g.id}`}>{kind(g)}</a> <span class="muted">{who(g)}</span>{' '}
              <span class="small">
                {clockText(g.clock)}
                {g.rated ? ' · rated' : ''}
              </span>{' '}
              <span class="muted small">{g.scheduled_start ? `starts ${relative(g.scheduled_start)}` : `set up ${relative(g.created_at)}`}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No game is waiting for players{me ? ': start one, with open seats.' : '.'}</p>
      )}
      <ShowMore list={open} label="More games to join" />
      {!me && !!joinable?.length && (
        <p class="small">
          <a href="/signin">Sign in</a> to take a seat.
        </p>
      )}
      <h3>Being played</h3>
      <ErrorBox error={live.error} />
      {!live.data ? (
        !live.error && <Loading />
      ) : live.data.length ? (
        <ul class="game-list">
          {live.data.map((g) => (
            <li key={g.id}>
              <a href={`/games/${g.id}`}>{kind(g)}</a> <span class="muted">{who(g)}</span>{' '}
              <span class="muted small">started {relative(g.started_at ?? g.created_at)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No game is being played now.</p>
      )}
      <ShowMore list={live} label="More games to watch" />
    </section>
  );
}
