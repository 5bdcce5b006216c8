import type { Club, Game, Page as ListPage } from '../api/types';
import { GameList } from '../components/GameList';
import { ErrorBox, Loading, Page, useLoad } from '../components/ui';
import { api, useSession } from '../session';
import { NewGameForm } from './NewGameForm';

/**
 * myClubs finds the caller's clubs. The API has no "my clubs" list yet, so
 * it reads each club of the first page for the caller's role.
 */
async function myClubs(): Promise<Club[]> {
  const page = await api.get<ListPage<Club>>('/clubs?limit=50');
  const full = await Promise.all(page.items.map((c) => api.get<Club>(`/clubs/${c.id}`).catch(() => c)));
  return full.filter((c) => c.viewer_role);
}

export default function Home() {
  const { user } = useSession();
  const games = useLoad(async () => (user ? (await api.get<{ games: Game[] }>(`/users/${user.id}/games?limit=20`)).games : []), [user?.id]);
  const clubs = useLoad(async () => (user ? myClubs() : []), [user?.id]);

  if (!user) {
    return (
      <Page title="Welcome">
        <h1>Seqleague</h1>
        <p class="lead">Leagues, tournaments and timed online games of Sequence and Sequence Stacks — against people and bots.</p>
        <p>
          <a class="button primary" href="/signup">
            Create an account
          </a>{' '}
          <a class="button" href="/signin">
            Sign in
          </a>
        </p>
        <p>
          Or browse the <a href="/clubs">clubs</a>.
        </p>
      </Page>
    );
  }

  return (
    <Page title="Home" wide>
      <h1>Hello, {user.username}</h1>
      <div class="home-grid">
        <section class="card-box" aria-labelledby="my-games">
          <h2 id="my-games">My games</h2>
          <ErrorBox error={games.error} />
          {games.loading && !games.data ? <Loading /> : <GameList games={games.data ?? []} me={user.id} empty="No games yet: start one." />}
        </section>
        <section class="card-box">
          <NewGameForm />
        </section>
        <section class="card-box" aria-labelledby="my-clubs">
          <h2 id="my-clubs">My clubs</h2>
          <ErrorBox error={clubs.error} />
          {clubs.loading && !clubs.data ? (
            <Loading />
          ) : clubs.data?.length ? (
            <ul>
              {clubs.data.map((c) => (
                <li key={c.id}>
                  <a href={`/clubs/${c.id}`}>{c.name}</a> <span class="muted">· {c.viewer_role}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">You are in no club yet.</p>
          )}
          <p>
            <a href="/clubs">Find or create a club</a>
          </p>
        </section>
      </div>
    </Page>
  );
}
