import { useState } from 'preact/hooks';
import type { Game, User, UserClub } from '../api/types';
import { fetchAll } from '../competition/pager';
import { GameList } from '../components/GameList';
import { ShowMore, usePagedList } from '../components/list';
import { ErrorBox, Loading, Page, useAction, useLoad, when } from '../components/ui';
import { RatingCharts } from '../competition/RatingChart';
import { navigate } from '../router';
import { api, closeAccount, useSession } from '../session';

export default function Profile({ id }: { id: string }) {
  const { user: me } = useSession();
  const user = useLoad(() => api.get<User>(`/users/${encodeURIComponent(id)}`), [id, me?.id]);
  const games = usePagedList<Game>(`/users/${encodeURIComponent(id)}/games`, [id, me?.id]);
  if (user.error) {
    return (
      <Page title="Player">
        <h1>Player</h1>
        <ErrorBox error={user.error} />
      </Page>
    );
  }
  if (!user.data) return <Loading />;
  const u = user.data;
  return (
    <Page title={u.username} wide>
      <h1>
        {u.username} {u.kind === 'bot' && <span class="tag">bot · {u.bot_level}</span>} {u.is_admin && <span class="tag">admin</span>}
      </h1>
      <p class="muted">Member since {when(u.created_at)}</p>
      <section class="card-box" aria-labelledby="ratings-title" id="ratings" data-slot="rating-chart">
        <h2 id="ratings-title">Ratings</h2>
        <RatingCharts userId={u.id} />
        <p class="small">
          <a href="/leaderboards">Leaderboards</a>
        </p>
      </section>
      <section class="card-box" aria-labelledby="games-title">
        <h2 id="games-title">Games</h2>
        <ErrorBox error={games.error} />
        {games.data ? <GameList games={games.data} me={u.id} empty="No games yet." /> : !games.error && <Loading />}
        <ShowMore list={games} label="Older games" />
      </section>
      {me?.id === u.id && <CloseAccount userId={u.id} username={u.username} />}
    </Page>
  );
}

/**
 * CloseAccount lets people close their own account, after a second click.
 * The server refuses while they own a club, so the clubs to hand over
 * first are named, with links to their pages (where "Make owner…" is).
 */
export function CloseAccount({ userId, username }: { userId: string; username: string }) {
  const [confirming, setConfirming] = useState(false);
  const { busy, error, run } = useAction();
  const owned = useLoad(async () => (await fetchAll<UserClub>((path) => api.get(path), `/users/${encodeURIComponent(userId)}/clubs`)).filter((c) => c.role === 'owner'), [userId]);
  if (owned.data?.length) {
    return (
      <section class="card-box" aria-labelledby="account-title">
        <h2 id="account-title">Account</h2>
        <p role="note">
          You own {owned.data.length === 1 ? 'a club' : `${owned.data.length} clubs`}. Make another member its owner before closing your account:{' '}
          {owned.data.map((c, i) => (
            <span key={c.id}>
              {i > 0 && ', '}
              <a href={`/clubs/${c.id}`}>{c.name}</a>
            </span>
          ))}
          .
        </p>
      </section>
    );
  }
  return (
    <section class="card-box" aria-labelledby="account-title">
      <h2 id="account-title">Account</h2>
      <ErrorBox error={error} />
      {confirming ? (
        <>
          <p>
            Closing <strong>{username}</strong> signs you out everywhere and for good. Your games, ratings and results stay on record under
            this name.
          </p>
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={() =>
              run(async () => {
                await closeAccount();
                navigate('/');
              })
            }
          >
            {busy ? 'Closing…' : 'Close my account'}
          </button>{' '}
          <button type="button" disabled={busy} onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>
          Close account…
        </button>
      )}
    </section>
  );
}
