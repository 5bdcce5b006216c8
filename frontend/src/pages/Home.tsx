import { serverClock } from '../api/serverClock';
import type { Game, OpenTournament, Tournament, UserClub, UserTournament } from '../api/types';
import { nextStep, upcoming, type NextStep } from '../competition/nextRounds';
import { fetchAll } from '../competition/pager';
import { relative } from '../competition/time';
import { GameList } from '../components/GameList';
import { counted } from '../components/plural';
import { Lobby } from '../components/Lobby';
import { REFRESH_MS, ShowMore, usePagedList, useRefresh, type PagedList } from '../components/list';
import { usePoll } from '../components/poll';
import { ErrorBox, Loading, Page, useLoad, when } from '../components/ui';
import { api, useSession } from '../session';
import { Invitations } from './Invitations';
import { NewGameForm } from './NewGameForm';
import { QuickMatch } from './QuickMatch';

export default function Home() {
  const { user } = useSession();
  const games = usePagedList<Game>(user ? `/users/${user.id}/games` : null, [user?.id]);
  // the games that wait for my move, apart at the top: the server filters
  // them, so a later page of the full list holds none that is missing here
  const toMove = usePagedList<Game>(user ? `/users/${user.id}/games?to_move=true` : null, [user?.id]);
  // a Home left open keeps up with the games (a move due, a game over)
  useRefresh(games);
  useRefresh(toMove);
  const clubs = usePagedList<UserClub>(user ? `/users/${user.id}/clubs` : null, [user?.id]);
  // every tournament: the next rounds are sorted by date across all of them
  const tournaments = useLoad(async () => (user ? await fetchAll<UserTournament>((path) => api.get(path), `/users/${user.id}/tournaments`) : []), [user?.id]);
  // read again with the games: read once, a Home left open said "round 1 in play" through round 2
  usePoll(tournaments.reload, REFRESH_MS, !!user);
  const open = usePagedList<OpenTournament>(user ? `/users/${user.id}/open-tournaments` : null, [user?.id]);
  useRefresh(open);

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
        <Lobby />
      </Page>
    );
  }

  return (
    <Page title="Home" wide>
      <h1>Hello, {user.username}</h1>
      <div class="home-grid">
        <section class="card-box" aria-labelledby="my-games">
          <h2 id="my-games" tabIndex={-1}>
            My games
          </h2>
          <Invitations me={user.id} />
          {!games.error && <ErrorBox error={toMove.error} />}
          {!!toMove.data?.length && (
            <>
              <h3>Your move</h3>
              <GameList games={toMove.data} me={user.id} empty="" markMine />
              <ShowMore list={toMove} label="More games waiting for you" />
              <h3>All my games</h3>
            </>
          )}
          <ErrorBox error={games.error} />
          {games.data ? <GameList games={games.data} me={user.id} empty="No games yet: start one." markMine /> : !games.error && <Loading />}
          <ShowMore list={games} label="Older games" />
        </section>
        <section class="card-box">
          <QuickMatch />
        </section>
        <section class="card-box">
          <NewGameForm />
        </section>
        <Lobby me={user.id} clubs={clubs.data} />
        <section class="card-box" aria-labelledby="my-rounds">
          <h2 id="my-rounds">My next rounds</h2>
          <ErrorBox error={tournaments.error} />
          {tournaments.data ? <NextRounds items={tournaments.data} inAClub={!!clubs.data?.length} openBelow={!!open.data?.some((t) => !t.barred)} /> : !tournaments.error && <Loading />}
          {/* one error in the section: the open list's when the rounds were read */}
          {!tournaments.error && <OpenForEntries open={open} />}
        </section>
        <section class="card-box" aria-labelledby="my-clubs">
          <h2 id="my-clubs">My clubs</h2>
          <ErrorBox error={clubs.error} />
          {!clubs.data ? (
            !clubs.error && <Loading />
          ) : clubs.data.length ? (
            <ul>
              {clubs.data.map((c) => (
                <li key={c.id}>
                  <a href={`/clubs/${c.id}`}>{c.name}</a> <span class="muted">· {c.role}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">You are in no club yet.</p>
          )}
          <ShowMore list={clubs} label="More clubs" />
          <p>
            <a href="/clubs">Find or create a club</a>
          </p>
        </section>
      </div>
    </Page>
  );
}

function NextRounds({ items, inAClub, openBelow }: { items: UserTournament[]; inAClub: boolean; openBelow: boolean }) {
  const next = upcoming(items);
  const past = items.filter((t) => t.status === 'finished').slice(0, 3);
  return (
    <>
      {next.length === 0 ? (
        // to a member of a club, where to enter; "join one" said to one already in a club sent them looking for another
        <p class="muted">
          {openBelow
            ? 'No tournament ahead: enter one of those below.'
            : inAClub
              ? 'No tournament ahead. Your clubs list their tournaments on their pages: enter one there.'
              : 'No tournament ahead. Clubs run them: join one and enter.'}
        </p>
      ) : (
        <ul class="plain-list next-rounds">
          {next.map((t) => (
            <li key={t.id}>
              <a href={`/tournaments/${t.id}`}>{t.name}</a> <span class="muted small">as {t.entry_name}</span>
              <NextLine step={nextStep(t)} />
            </li>
          ))}
        </ul>
      )}
      {past.length > 0 && (
        <p class="small muted">
          Finished:{' '}
          {past.map((t, i) => (
            <span key={t.id}>
              {i > 0 && ', '}
              <a href={`/tournaments/${t.id}`}>{t.name}</a>
            </span>
          ))}
        </p>
      )}
    </>
  );
}

/** NextLine is one tournament's line under its name: what comes next, with the game to play or the start of the round. */
function NextLine({ step }: { step: NextStep }) {
  return (
    <div class="small">
      {step.text}
      {step.game && (
        <>
          {' '}
          · <a href={`/games/${step.game}`}>Play it</a>
        </>
      )}
      {step.start && (
        <>
          {' '}
          · <time dateTime={step.start}>{when(step.start)}</time> <span class="muted">({relative(step.start)})</span>
        </>
      )}
    </div>
  );
}

/**
 * OpenForEntries lists the tournaments of my clubs that take entries and
 * that I have not entered, so that a member finds one to enter without
 * visiting each club's page; nothing when there is none. One whose rating
 * band or least number of rated games bars me says why, rather than
 * leaving me to find out from a refused entry.
 */
function OpenForEntries({ open }: { open: PagedList<OpenTournament> }) {
  if (open.error) return <ErrorBox error={open.error} />;
  if (!open.data?.length) return null;
  return (
    <>
      <h3>Open for entries</h3>
      <ul class="plain-list open-tournaments">
        {open.data.map((t) => (
          <li key={t.id}>
            <a href={`/tournaments/${t.id}`}>{t.name}</a>{' '}
            <span class="muted small">{[t.club_name, counted(t.entries, 'entry', 'entries'), entryWindow(t)].filter(Boolean).join(' · ')}</span>
            {t.barred && <span class="small"> · not open to you: {t.barred}</span>}
          </li>
        ))}
      </ul>
      <ShowMore list={open} label="More open tournaments" />
    </>
  );
}

/** entryWindow says when a tournament's registration opens, if later, or closes. */
function entryWindow(t: Pick<Tournament, 'registration_opens' | 'registration_closes'>, now = serverClock.now()): string {
  if (t.registration_opens && Date.parse(t.registration_opens) > now) return `entries open ${relative(t.registration_opens, now)}`;
  if (t.registration_closes) return `entries close ${relative(t.registration_closes, now)}`;
  return '';
}
