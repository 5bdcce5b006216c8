// Leaderboards by pool (GET /leaderboards/{pool}): club and league filters,
// provisional players on request, keyset pages ("Next page" follows
// next_cursor, kept in the URL as ?cursor=), ranks as the API gives them,
// and the page around a player (?around=, "Show my place").
import { useEffect, useRef } from 'preact/hooks';
import { ApiError } from '../api/client';
import { POOLS, type Club, type LeaderboardPage, type League, type UserClub, type UserRatings } from '../api/types';
import { TableWrap } from '../competition/Standings';
import { cursorOf, fetchAll, firstPage, leaderboardPath, next, pagePath, prev, type Pager } from '../competition/pager';
import { ErrorBox, Loading, Missing, Page, useLoad } from '../components/ui';
import { navigate, useLocation } from '../router';
import { api, useSession } from '../session';

export const PAGE_SIZE = 25;

/** AROUND marks, in the trail of pages seen, the page around a player. */
const AROUND = 'around:';

/**
 * LeaderboardTable draws a page; the row of current (the player a page around a player is about) is marked aria-current, and takes the focus when focusCurrent is set.
 * An empty page with the provisional players hidden (provisionalHidden) says that they are: a new pool's players are all
 * provisional, and "Nobody here yet" read as if nobody had played.
 */
export function LeaderboardTable({ page, me, current, focusCurrent, provisionalHidden }: { page: LeaderboardPage; me?: string; current?: string; focusCurrent?: boolean; provisionalHidden?: boolean }) {
  const currentRow = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (focusCurrent) currentRow.current?.focus();
  }, [focusCurrent, page]);
  if (page.items.length === 0)
    return <p class="muted">{provisionalHidden ? 'Nobody here has finished 30 rated games yet: tick “Show provisional players” to see everyone who has played.' : 'Nobody here yet.'}</p>;
  return (
    <TableWrap label="Leaderboard">
      <table class="data leaderboard">
        <thead>
          <tr>
            <th scope="col" class="num">
              Rank
            </th>
            <th scope="col">Player</th>
            <th scope="col" class="num">
              Rating
            </th>
            <th scope="col" class="num">
              Games
            </th>
            <th scope="col" class="num">
              Peak
            </th>
          </tr>
        </thead>
        <tbody>
          {page.items.map((r) => (
            <tr
              key={r.user_id}
              class={[r.user_id === me && 'mine', r.user_id === current && 'current'].filter(Boolean).join(' ') || undefined}
              data-rank={r.rank}
              aria-current={r.user_id === current ? 'true' : undefined}
              tabIndex={r.user_id === current ? -1 : undefined}
              ref={r.user_id === current ? currentRow : undefined}
            >
              <td class="num">{r.rank}</td>
              <th scope="row">
                <a href={`/users/${r.user_id}`}>{r.username}</a> {r.kind === 'bot' && <span class="tag">bot</span>}
                {r.user_id === me && <span class="sr-only"> (you)</span>}
              </th>
              <td class="num strong">
                {r.provisional ? (
                  <span title="provisional: fewer than 30 rated games">
                    {r.display}
                    <span class="sr-only"> (provisional)</span>
                  </span>
                ) : (
                  r.display
                )}
              </td>
              <td class="num">{r.games}</td>
              <td class="num">{Math.round(r.peak)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** seenTrail: the cursors of the pages turned through, kept across the page's remounts (base 0: unnumbered, after a page around a player). */
let seenTrail: { key: string; cursors: string[]; base: number } = { key: '', cursors: [''], base: 1 };

export default function Leaderboard({ pool = 'sequence-2team' }: { pool?: string }) {
  const { user } = useSession();
  const { query } = useLocation();
  const club = query.get('club') ?? '';
  const league = query.get('league') ?? '';
  const provisional = query.get('provisional') === '1' || query.get('provisional') === 'true';
  const key = `${pool}|${club}|${league}|${provisional}`;
  // The page is in the URL (?cursor=, and ?page= for its number), so that
  // Back, a reload or a link keeps it; the cursors of the pages seen on the
  // way are remembered outside the component (the router mounts the page
  // anew for each URL), for "Previous page".
  // ?around= (a user ID, or me) is the page that shows that player; the
  // trail keeps it as the cursor "around:<id>", so that "Previous page"
  // comes back to it. Pages after it are not numbered (the page around a
  // player starts anywhere), nor is a page of a URL without ?page=.
  const cursor = query.get('cursor') ?? '';
  const around = cursor ? '' : (query.get('around') ?? '');
  const here = around ? AROUND + around : cursor;
  const current = around === 'me' ? user?.id : around || undefined;
  const seen = seenTrail;
  const urlPage = query.get('page') ? Math.max(2, Math.floor(Number(query.get('page'))) || 2) : 0;
  // a page reached by a link or a reload: numbered as the URL says, the way back unknown
  const trail = seen.key === key && seen.cursors.includes(here) ? seen : here ? { cursors: [here], base: around ? 0 : urlPage } : { cursors: [''], base: 1 };
  const pager: Pager = { cursors: trail.cursors, index: trail.cursors.indexOf(here) };
  const pageNo = trail.base ? trail.base + pager.index : 0;
  const page = useLoad(() => api.get<LeaderboardPage>(leaderboardPath({ pool, club, league, provisional, cursor, around, limit: PAGE_SIZE })), [key, cursor, around]);
  // The signed-in player's standing in the pool: its rank is their place on
  // the default board, which leaves out the provisional and the closed.
  const standing = useLoad(
    async () => (user ? ((await api.get<UserRatings>(`/users/${encodeURIComponent(user.id)}/ratings?pool=${encodeURIComponent(pool)}&limit=1`)).pools ?? []).find((p) => p.pool === pool) ?? null : null),
    [pool, user?.id],
  );

  const myClubs = useLoad(async () => (user ? await fetchAll<UserClub>((path) => api.get(path), `/users/${user.id}/clubs`) : []), [user?.id]);
  // A club named in the URL that is not one of mine still gets its name.
  const urlClub = useLoad(async () => (club && !myClubs.data?.some((c) => c.id === club) ? api.get<Club>(`/clubs/${encodeURIComponent(club)}`).catch(() => null) : null), [club, myClubs.data]);
  const leagues = useLoad(async () => (club ? await fetchAll<League>((path) => api.get(path), `/clubs/${encodeURIComponent(club)}/leagues`) : []), [club]);

  // On this board as far as one can tell without asking for it (a
  // refusal would be an error on the page): rated in the pool, established
  // unless provisional players are shown, a member of the club filtered;
  // under a league filter, a refusal says they did not play in it.
  const mine = standing.data;
  const onBoard = !!mine && (provisional || mine.rank != null) && (!club || !!myClubs.data?.some((c) => c.id === club));
  const clubs: { id: string; name: string }[] = [...(myClubs.data ?? [])];
  if (urlClub.data) clubs.push(urlClub.data);

  const setFilter = (f: { pool?: string; club?: string; league?: string; provisional?: boolean }) => {
    const q = { pool, club, league, provisional, ...f };
    if (f.club !== undefined && f.club !== club) q.league = '';
    navigate(pagePath(q), true);
  };

  // After a page turn the focus goes to the results' heading, which says where we are.
  const results = useRef<HTMLHeadingElement>(null);
  const turned = useRef(false);
  useEffect(() => {
    if (turned.current && page.data) {
      results.current?.focus();
      turned.current = false;
    }
  }, [page.data]);
  const go = (p: Pager, base: number) => {
    turned.current = true;
    seenTrail = { key, cursors: p.cursors, base };
    const c = cursorOf(p);
    if (c.startsWith(AROUND)) navigate(pagePath({ pool, club, league, provisional, around: c.slice(AROUND.length) }));
    else navigate(pagePath({ pool, club, league, provisional, cursor: c, page: base ? base + p.index : undefined }));
  };
  // "Show my place": the page around me, where the trail of pages seen starts (its table focuses my row).
  const showMine = () => {
    seenTrail = { key, cursors: [AROUND + 'me'], base: 0 };
    navigate(pagePath({ pool, club, league, provisional, around: 'me' }));
  };
  // Without the way back (a reload on a later page), "previous" is the first page.
  const back = pager.index > 0 ? () => go(prev(pager), trail.base) : () => go(firstPage(), 1);

  // a pool of no game (a mistyped address) showed its name as a heading over the
  // server's "no pool "x" (pools: …)", with every filter beside it
  if (!POOLS.some((p) => p.id === pool)) return <Missing heading="No such leaderboard" wayOn={{ href: '/leaderboards', text: 'All leaderboards' }} />;
  const poolName = POOLS.find((p) => p.id === pool)?.name ?? pool;
  // A read that failed shows no rows: the last filter's (or page's) rows stayed under the error, unmarked,
  // as if they were the board asked for.
  const shown = page.error ? undefined : page.data;
  const first = shown?.items[0]?.rank;
  const last = shown?.items[shown.items.length - 1]?.rank;
  return (
    <Page title={`Leaderboard · ${poolName}`}>
      <h1>Leaderboards</h1>
      <nav class="tabs" aria-label="Rating pools">
        {POOLS.map((p) => (
          <a key={p.id} href={pagePath({ pool: p.id, club, league, provisional })} aria-current={p.id === pool ? 'page' : undefined}>
            {p.name}
          </a>
        ))}
      </nav>
      <form class="form inline filters" onSubmit={(e) => e.preventDefault()} aria-label="Filters">
        <div class="field">
          <label for="lb-club">Club</label>
          <select id="lb-club" value={club} onChange={(e) => setFilter({ club: (e.currentTarget as HTMLSelectElement).value })}>
            <option value="">All players</option>
            {clubs.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="lb-league">League</label>
          <select id="lb-league" value={league} disabled={!club} onChange={(e) => setFilter({ league: (e.currentTarget as HTMLSelectElement).value })}>
            <option value="">{club ? 'Every league of the club' : 'Choose a club first'}</option>
            {(leagues.data ?? []).map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field check">
          <input id="lb-prov" type="checkbox" checked={provisional} onChange={(e) => setFilter({ provisional: (e.currentTarget as HTMLInputElement).checked })} />
          <label for="lb-prov">Show provisional players</label>
        </div>
      </form>
      <h2 ref={results} tabIndex={-1} class="results-title">
        {poolName}
        {shown && !page.loading && first != null && (
          <span class="muted small">
            {' '}
            · {around ? (current === user?.id ? 'around you, ' : 'around the player, ') : pageNo ? `page ${pageNo}, ` : ''}ranks {first}–{last}
          </span>
        )}
      </h2>
      {onBoard && !(around && current === user?.id) && (
        <p>
          <button type="button" class="link" onClick={showMine}>
            Show my place
          </button>
          {!club && !league && !provisional && mine?.rank != null && <span class="muted small"> (#{mine.rank})</span>}
        </p>
      )}
      {around === 'me' && page.error instanceof ApiError && page.error.status === 404 ? (
        // "Show my place" is offered under a league filter without knowing whether the player
        // played in the league: the refusal says so as the player's own, not as an error
        <p class="muted" role="status">
          You are not on this board{league ? ': you have no rated game in this league' : ''}.
        </p>
      ) : (
        <ErrorBox error={page.error} />
      )}
      <div aria-busy={page.loading ? 'true' : undefined} class={page.loading ? 'stale' : undefined}>
        {page.loading && !shown ? <Loading /> : shown && <LeaderboardTable page={shown} me={user?.id} current={around ? current : undefined} focusCurrent={!!around} provisionalHidden={!provisional} />}
      </div>
      {(club || league) && (
        // the filters choose whose ratings are listed, not which games count: a league's
        // board read as league ratings, and a player's 4 games had 3 in the league (the journey audit)
        <p class="muted small" data-filter-note>
          Ratings and games are each player’s over every rated game in the pool; the {league ? 'league' : 'club'} filter chooses who is listed
          {league ? ' (the players with a rated game in the league)' : ' (the club’s members)'}.
        </p>
      )}
      <p class="muted small">
        A “?” after a rating: provisional, fewer than 30 rated games in the pool{provisional ? '' : ' (hidden unless you ask for them)'}. Equal ratings share a rank.
      </p>
      {/* a board of one page has no other: two disabled buttons under "Nobody here yet" were dead ends */}
      {(here || shown?.next_cursor) && (
        <nav class="pager" aria-label="Pages">
          <button type="button" disabled={!here || page.loading} onClick={back}>
            {here && pager.index === 0 ? '← First page' : '← Previous page'}
          </button>
          {pageNo > 0 && (
            <span class="muted" aria-hidden="true">
              Page {pageNo}
            </span>
          )}
          <button type="button" disabled={!shown?.next_cursor || page.loading} onClick={() => shown && go(next(pager, shown.next_cursor), trail.base)}>
            Next page →
          </button>
        </nav>
      )}
    </Page>
  );
}
