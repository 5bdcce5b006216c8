// Leagues and seasons: a club's competitions section (its leagues and
// tournaments), a league's page (seasons: create, close; the league: edit)
// and a season's table (GET /seasons/{id}/standings: placement points and
// tie-breaks, frozen once the season is closed; an open season: rename).
import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { POOLS, type Club, type LeaderboardPage, type League, type LeagueUpdate, type Season, type SeasonTable, type SeasonUpdate, type Tournament, type User } from '../api/types';
import { leaderboardPath, pagePath } from '../competition/pager';
import { SeasonStandings } from '../competition/Standings';
import { FORMAT_NAMES } from '../competition/tournamentForm';
import { ConfirmStep } from '../components/ConfirmStep';
import { EditNamed } from '../components/EditNamed';
import { useFocusAfter } from '../components/focus';
import { counted } from '../components/plural';
import { ShowMore, usePagedList } from '../components/list';
import { Crumbs, ErrorBox, Field, LoadFailed, Loading, LoadingPage, Page, unplaced, useAction, useLoad, when } from '../components/ui';
import { api, useSession } from '../session';

export function canOrganize(role: string | undefined, user: User | null): boolean {
  return !!user && (role === 'owner' || role === 'organizer' || user.is_admin);
}

const enc = encodeURIComponent;
/** NAME_MAX is the longest league or season name the API takes, in characters. */
const NAME_MAX = 100;

export function StatusTag({ status }: { status: string }) {
  const text: Record<string, string> = { registration: 'registration open', running: 'running', paused: 'paused', finished: 'finished', open: 'open', closed: 'closed' };
  return <span class={`tag status-${status}`}>{text[status] ?? status}</span>;
}

export function TournamentList({ items, empty }: { items: Tournament[]; empty: string }) {
  if (items.length === 0) return <p class="muted">{empty}</p>;
  return (
    <ul class="plain-list tournament-list">
      {items.map((t) => (
        <li key={t.id}>
          <a href={`/tournaments/${t.id}`}>{t.name}</a> <StatusTag status={t.status} />{' '}
          <span class="muted small">
            {t.game === 'stacks' ? 'Stacks' : 'Sequence'} · {FORMAT_NAMES[t.format] ?? t.format} · {counted(t.entries, 'entry', 'entries')}
            {t.status === 'running' && t.current_round > 0 ? ` · round ${t.current_round}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The club page's competitions: leagues (organizers create them) and tournaments. */
export function ClubCompetitions({ club }: { club: Club }) {
  const { user } = useSession();
  const organizer = canOrganize(club.viewer_role, user);
  const leagues = usePagedList<League>(`/clubs/${enc(club.id)}/leagues`, [club.id]);
  const tournaments = usePagedList<Tournament>(`/tournaments?club=${enc(club.id)}`, [club.id]);
  const [name, setName] = useState('');
  const [desc, setDesc] = useState('');
  // one request at a time: a second submit made no second league, but said its name was taken under the one made
  const { busy, error, fieldErrors: fe, run } = useAction();
  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      await api.post<League>(`/clubs/${enc(club.id)}/leagues`, { name: name.trim(), description: desc.trim() });
      setName('');
      setDesc('');
      leagues.reload();
    });
  };
  return (
    <>
      <section class="card-box" aria-labelledby="tournaments-title">
        <h2 id="tournaments-title">Tournaments</h2>
        <ErrorBox error={tournaments.error} />
        {tournaments.data ? <TournamentList items={tournaments.data} empty="No tournaments yet." /> : !tournaments.error && <Loading />}
        <ShowMore list={tournaments} label="More tournaments" />
        <p class="actions-row">
          {organizer && (
            <a class="button primary" href={`/tournaments/new?club=${enc(club.id)}`}>
              New tournament
            </a>
          )}
          <a class="button" href={`/leaderboards/sequence-2team?club=${enc(club.id)}&provisional=1`}>
            Club leaderboard
          </a>
        </p>
      </section>
      <section class="card-box" aria-labelledby="leagues-title">
        <h2 id="leagues-title">Leagues</h2>
        <ErrorBox error={leagues.error} />
        {leagues.data ? (
          leagues.data.length ? (
            <ul class="plain-list">
              {leagues.data.map((l) => (
                <li key={l.id}>
                  <a href={`/leagues/${l.id}`}>{l.name}</a>
                  {l.description && <span class="muted small"> · {l.description}</span>}
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">No leagues yet.</p>
          )
        ) : (
          !leagues.error && <Loading />
        )}
        <ShowMore list={leagues} label="More leagues" />
        {organizer && (
          <form class="form inline" onSubmit={create} aria-label="Create a league">
            <Field label="League name" name="league-name" value={name} onInput={setName} required maxLength={NAME_MAX} error={fe?.fieldError('name')} />
            <Field label="Description" name="league-description" value={desc} onInput={setDesc} error={fe?.fieldError('description')} />
            <button type="submit" class="primary" aria-disabled={busy ? 'true' : undefined}>
              {busy ? 'Creating…' : 'Create league'}
            </button>
            {/* said once: "is taken" at the name, not again as "the club has a league of this name" */}
            <ErrorBox error={unplaced(error, (f) => f === 'name' || f === 'description')} />
          </form>
        )}
      </section>
    </>
  );
}

/** CloseSeason asks once more, then closes the season (its table freezes). */
export function CloseSeason({ season, onClosed, long }: { season: Season; onClosed: (t: SeasonTable) => void; long?: boolean }) {
  const [error, setError] = useState<unknown>(null);
  const close = async () => {
    setError(null);
    try {
      onClosed(await api.post<SeasonTable>(`/seasons/${enc(season.id)}/close`, {}));
      return true;
    } catch (err) {
      // Another organizer closed it meanwhile: the season is as asked, and
      // the page shows it so rather than "already closed" beside a row
      // still marked open.
      const now = err instanceof ApiError && err.status === 422 ? await api.get<SeasonTable>(`/seasons/${enc(season.id)}/standings`).catch(() => null) : null;
      if (now?.season.status === 'closed') {
        onClosed(now);
        return true;
      }
      setError(err);
      return false;
    }
  };
  return (
    <ConfirmStep
      class="close-season"
      action="close-season"
      ask={long ? 'Close the season…' : 'Close…'}
      askLabel={long ? undefined : `Close the season ${season.name}…`}
      question={`Close ${season.name}?`}
      confirm={long ? 'Close it and freeze the table' : `Close ${season.name}`}
      onConfirm={close}
      small={!long}
    >
      <ErrorBox error={error} />
    </ConfirmStep>
  );
}

/** EditLeague renames a league and changes its description (the club's organizers, owner and site admins). */
export function EditLeague({ league: l, onSaved }: { league: League; onSaved: (l: League) => void }) {
  return (
    <EditNamed
      id="league-edit"
      heading="Manage the league"
      ask="Edit name and description…"
      nameLabel="League name"
      nameMax={NAME_MAX}
      name={l.name}
      description={l.description}
      save={async (body: LeagueUpdate) => onSaved(await api.patch<League>(`/leagues/${enc(l.id)}`, body))}
    />
  );
}

/** EditSeason renames an open season (the club's organizers, owner and site admins). */
export function EditSeason({ season, onSaved }: { season: Season; onSaved: (s: Season) => void }) {
  return (
    <EditNamed
      id="season-edit"
      heading="Manage the season"
      ask="Rename the season…"
      nameLabel="Season name"
      nameMax={NAME_MAX}
      name={season.name}
      save={async (body: SeasonUpdate) => onSaved(await api.patch<Season>(`/seasons/${enc(season.id)}`, body))}
    />
  );
}

/** useClub loads a club for the caller's role in it. */
function useClub(clubId: string | undefined) {
  const { user } = useSession();
  return useLoad(async () => (clubId ? api.get<Club>(`/clubs/${enc(clubId)}`) : null), [clubId, user?.id]);
}

/**
 * useLeaguePools finds the rating pools a league's games were rated in
 * (a Stacks league has no one in the Sequence pools): each pool's
 * leaderboard with the league filter, one row is enough.
 */
function useLeaguePools(clubId: string | undefined, league: string) {
  return useLoad(async () => {
    if (!clubId) return undefined;
    const has = await Promise.all(
      POOLS.map((p) =>
        api.get<LeaderboardPage>(leaderboardPath({ pool: p.id, club: clubId, league, provisional: true, limit: 1 })).then(
          (page) => (page.items ?? []).length > 0,
          () => false,
        ),
      ),
    );
    return POOLS.filter((_, i) => has[i]);
  }, [clubId, league]);
}

/** LeagueBoards links the league's leaderboard in each pool it has players in (the first pool while there is none, or while it is not known). */
function LeagueBoards({ league: l, pools }: { league: League; pools?: typeof POOLS }) {
  const href = (pool: string) => pagePath({ pool, club: l.club_id, league: l.id, provisional: true });
  if (!pools || pools.length <= 1) {
    const pool = pools?.[0] ?? POOLS[0];
    return (
      <p>
        <a href={href(pool.id)}>League leaderboard{pools?.length ? ` (${pool.name})` : ''}</a>
      </p>
    );
  }
  return (
    <p>
      League leaderboards:{' '}
      {pools.map((p, i) => (
        <span key={p.id}>
          {i > 0 && ' · '}
          <a href={href(p.id)}>{p.name}</a>
        </span>
      ))}
    </p>
  );
}

export function LeaguePage({ id }: { id: string }) {
  const { user } = useSession();
  const league = useLoad(() => api.get<League>(`/leagues/${enc(id)}`), [id]);
  const club = useClub(league.data?.club_id);
  const seasons = usePagedList<Season>(`/leagues/${enc(id)}/seasons`, [id]);
  const pools = useLeaguePools(league.data?.club_id, id);
  const [name, setName] = useState('');
  // one request at a time, as for a league
  const { busy, error, fieldErrors: fe, run } = useAction();
  // A season closed takes its Close button (and the question in its place)
  // away: the focus goes to the season's link on the same line.
  const { root: seasonsBox, focusNext } = useFocusAfter<HTMLElement>();
  if (league.error) return <LoadFailed error={league.error} title="League" missing="No such league" wayOn={{ href: '/clubs', text: 'Clubs and their leagues' }} />;
  if (!league.data) return <LoadingPage title="League" />;
  const l = league.data;
  const organizer = canOrganize(club.data?.viewer_role, user);
  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      await api.post<Season>(`/leagues/${enc(id)}/seasons`, { name: name.trim() });
      setName('');
      seasons.reload();
    });
  };
  return (
    <Page title={l.name} wide>
      <Crumbs items={[{ href: `/clubs/${l.club_id}`, text: club.data?.name ?? 'Club' }]} />
      <h1>{l.name}</h1>
      {l.description && <p class="lead">{l.description}</p>}
      <LeagueBoards league={l} pools={pools.data} />
      <section class="card-box" aria-labelledby="seasons-title" ref={seasonsBox}>
        <h2 id="seasons-title">Seasons</h2>
        <ErrorBox error={seasons.error} />
        {seasons.data ? (
          seasons.data.length ? (
            <ul class="plain-list">
              {seasons.data.map((s) => (
                <li key={s.id}>
                  <a href={`/seasons/${s.id}`}>{s.name}</a> <StatusTag status={s.status} />{' '}
                  <span class="muted small">{s.closed_at ? `on ${when(s.closed_at)}` : `since ${when(s.created_at)}`}</span>
                  {organizer && s.status === 'open' && (
                    <>
                      {' '}
                      <CloseSeason
                        season={s}
                        onClosed={() => {
                          focusNext(`a[href="/seasons/${s.id}"]`);
                          seasons.reload();
                        }}
                      />
                    </>
                  )}
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">No seasons yet.</p>
          )
        ) : (
          !seasons.error && <Loading />
        )}
        <ShowMore list={seasons} label="More seasons" />
        {organizer && (
          <form class="form inline" onSubmit={create} aria-label="Create a season">
            <Field label="Season name" name="season-name" value={name} onInput={setName} required maxLength={NAME_MAX} error={fe?.fieldError('name')} />
            <button type="submit" class="primary" aria-disabled={busy ? 'true' : undefined}>
              {busy ? 'Creating…' : 'Create season'}
            </button>
            <ErrorBox error={unplaced(error, (f) => f === 'name')} />
          </form>
        )}
      </section>
      {organizer && <EditLeague league={l} onSaved={(nl) => league.setData(nl)} />}
    </Page>
  );
}

export function SeasonPage({ id }: { id: string }) {
  const { user } = useSession();
  const table = useLoad(() => api.get<SeasonTable>(`/seasons/${enc(id)}/standings`), [id]);
  const league = useLoad(async () => (table.data ? api.get<League>(`/leagues/${enc(table.data.season.league_id)}`) : null), [table.data?.season.league_id]);
  const club = useClub(league.data?.club_id);
  const tournaments = usePagedList<Tournament>(`/tournaments?season=${enc(id)}`, [id]);
  // Closing takes the whole "Close the season" box away with the button
  // pressed: the focus goes to the heading, which now reads "closed, frozen".
  const { root: heading, focusNext } = useFocusAfter<HTMLHeadingElement>();
  if (table.error) return <LoadFailed error={table.error} title="Season" missing="No such season" wayOn={{ href: '/clubs', text: 'Clubs and their leagues' }} />;
  if (!table.data) return <LoadingPage title="Season" />;
  const t = table.data;
  const organizer = canOrganize(club.data?.viewer_role, user);
  return (
    <Page title={t.season.name} wide>
      <Crumbs items={[club.data && { href: `/clubs/${club.data.id}`, text: club.data.name }, league.data && { href: `/leagues/${league.data.id}`, text: league.data.name }]} />
      <h1 tabIndex={-1} ref={heading}>
        {t.season.name} <StatusTag status={t.season.status} />{' '}
        {t.frozen && (
          <span class="tag frozen" title="The season is closed: its table no longer changes">
            ❄ frozen
          </span>
        )}
      </h1>
      <p class="muted">
        Placement points summed over the season's finished tournaments (10, 7, 5, 4 for places 1–4, 2 for 5–8, 1 for taking part); ties broken by titles, match
        wins, then sequences.
        {t.season.closed_at && ` Closed ${when(t.season.closed_at)}.`}
      </p>
      <section class="card-box" aria-labelledby="table-title">
        <h2 id="table-title">Table</h2>
        <SeasonStandings table={t} />
      </section>
      <section class="card-box" aria-labelledby="season-tournaments">
        <h2 id="season-tournaments">Tournaments</h2>
        <ErrorBox error={tournaments.error} />
        {tournaments.data ? <TournamentList items={tournaments.data} empty="No tournaments in this season yet." /> : !tournaments.error && <Loading />}
        <ShowMore list={tournaments} label="More tournaments" />
        {organizer && t.season.status === 'open' && club.data && (
          <p>
            <a class="button primary" href={`/tournaments/new?club=${enc(club.data.id)}&season=${enc(id)}`}>
              New tournament in this season
            </a>
          </p>
        )}
      </section>
      {organizer && t.season.status === 'open' && (
        <>
          <EditSeason season={t.season} onSaved={(s) => table.setData({ ...t, season: s })} />
          <section class="card-box" aria-labelledby="close-title">
            <h2 id="close-title">Close the season</h2>
            <p class="muted">Closing freezes the table as it stands now.</p>
            <CloseSeason
              season={t.season}
              onClosed={(nt) => {
                focusNext('h1');
                table.setData(nt);
              }}
              long
            />
          </section>
        </>
      )}
    </Page>
  );
}
