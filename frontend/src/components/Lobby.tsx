import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { Game, GameKind, UserClub } from '../api/types';
import { clockText, relative } from '../competition/time';
import { SEQUENCE_TABLES, STACKS_PLAYERS } from '../pages/NewGameForm';
import { Select } from './form';
import { counted } from './plural';
import { ShowMore, usePagedList, useRefresh } from './list';
import { gameName } from './GameList';
import { ErrorBox, Loading } from './ui';

const kind = (g: Game) => `${gameName(g)} · ${g.players} players${g.game === 'sequence' && g.players > g.teams ? ` in ${g.teams} teams` : ''}`;

/** who names the people (with their rating in the table's pool, when the lobby gives it) and bots at a table, and how many seats are open. */
export function who(g: Game): string {
  const taken = g.seats
    .filter((s) => !s.open)
    .map((s) => (s.user ? `${s.user.username}${s.user.rating ? ` (${s.user.rating.display})` : ''}` : `bot-${s.bot}`));
  const open = g.seats.filter((s) => s.open).length;
  return [...taken, ...(open ? [`${counted(open, 'open seat')}`] : [])].join(', ');
}

/** LobbyFilter keeps the lobby's games of one kind, table size, the rated or casual ones, or one club's (undefined: any). */
export interface LobbyFilter {
  game?: GameKind;
  players?: number;
  rated?: boolean;
  /** a club's ID: the tables its members made, and its tournaments' games */
  club?: string;
}

/** tableSizes are the player counts a game is played by (either game's when none is named). */
export function tableSizes(game?: GameKind): number[] {
  const sequence = Object.keys(SEQUENCE_TABLES).map(Number);
  if (game === 'sequence') return sequence;
  if (game === 'stacks') return STACKS_PLAYERS;
  return [...new Set([...sequence, ...STACKS_PLAYERS])].sort((a, b) => a - b);
}

/** filterOf reads a filter from a page's query (?game=&players=&rated=&club=), leaving out what no game has. */
export function filterOf(q: URLSearchParams): LobbyFilter {
  const f: LobbyFilter = {};
  const game = q.get('game');
  if (game === 'sequence' || game === 'stacks') f.game = game;
  const players = Number(q.get('players'));
  if (tableSizes(f.game).includes(players)) f.players = players;
  const rated = q.get('rated');
  if (rated === 'true' || rated === 'false') f.rated = rated === 'true';
  // any club named: the server says if there is no such club
  const club = q.get('club');
  if (club) f.club = club;
  return f;
}

/** filterParams are the query parameters a filter makes, in the order the lobby writes them. */
function filterParams(f: LobbyFilter): [string, string][] {
  const out: [string, string][] = [];
  if (f.game) out.push(['game', f.game]);
  if (f.players) out.push(['players', String(f.players)]);
  if (f.rated !== undefined) out.push(['rated', String(f.rated)]);
  if (f.club) out.push(['club', f.club]);
  return out;
}

/** lobbyPath is the GET /games of one list of the lobby, filtered. */
export function lobbyPath(status: 'open' | 'active', f: LobbyFilter): string {
  return `/games?${new URLSearchParams([['status', status], ...filterParams(f)])}`;
}

/**
 * remember writes the filter into the page's address (replacing the entry:
 * no history step per choice, and no scroll), so that a reload or a link
 * shows the same games.
 */
function remember(f: LobbyFilter) {
  const q = new URLSearchParams(location.search);
  for (const key of ['game', 'players', 'rated', 'club']) q.delete(key);
  for (const [key, value] of filterParams(f)) q.set(key, value);
  const s = q.toString();
  history.replaceState(history.state, '', location.pathname + (s ? `?${s}` : '') + location.hash);
}

/**
 * clubOptions are the Club select's choices: every table, or one of
 * clubs'; a club the address names that is not among them (a link from
 * someone else, or clubs not read yet) is kept as "Another club", so the
 * choice shows what is listed and can be let go.
 */
function clubOptions(clubs: UserClub[], chosen?: string): (readonly [string, string])[] {
  const options: (readonly [string, string])[] = [['', 'All tables'], ...clubs.map((c) => [c.id, c.name] as const)];
  if (chosen && !clubs.some((c) => c.id === chosen)) options.push([chosen, 'Another club']);
  return options;
}

/**
 * Lobby lists everyone's games: those waiting for players, to join (the
 * ones me already sits at are in "My games" instead), and those being
 * played, to watch. Signed out, the joinable ones say to sign in first.
 * clubs, the player's clubs as Home has read them (no request of the
 * lobby's own), offer a Club choice: the tables of one club's members and
 * its tournaments' games.
 */
export function Lobby({ me, clubs }: { me?: string; clubs?: UserClub[] }) {
  const [filter, setFilter] = useState<LobbyFilter>(() => filterOf(new URLSearchParams(location.search)));
  const openPath = lobbyPath('open', filter);
  const livePath = lobbyPath('active', filter);
  const open = usePagedList<Game>(openPath, [openPath]);
  const live = usePagedList<Game>(livePath, [livePath]);
  useRefresh(open);
  useRefresh(live);
  const joinable = open.data?.filter((g) => !me || !g.seats.some((s) => s.user?.id === me));
  const choose = (f: LobbyFilter) => {
    // a size the newly chosen game is not played by is dropped
    const next = { ...f, players: f.players && tableSizes(f.game).includes(f.players) ? f.players : undefined };
    setFilter(next);
    remember(next);
  };
  // A club that does not exist (a stale link) fails both lists alike: it is said once, under the
  // choice that named it, not under each heading.
  const noSuchClub = !!filter.club && [open.error, live.error].find((e) => e instanceof ApiError && e.status === 404);
  const ofKind = !!(filter.game || filter.players || filter.rated !== undefined);
  const which = filter.club ? (ofKind ? 'of this kind in this club ' : 'of this club ') : ofKind ? 'of this kind ' : '';
  // What to do about an empty list: a quick match seats its player at any table, not one of a club's, so with a
  // club chosen the way is to start a table, which is listed here if me is in the club (the tables of its members).
  const waysOn = !me
    ? '.'
    : !filter.club
      ? ': start one, with open seats, or ask for a quick match.'
      : clubs?.some((c) => c.id === filter.club)
        ? ': start one, with open seats, and it is listed here.'
        : '.';
  return (
    <section class="card-box lobby" aria-labelledby="lobby">
      <h2 id="lobby">Join or watch a game</h2>
      <div class="form lobby-filter">
        <div class="row" role="group" aria-label="Show only">
          <Select<string>
            id="lobby-game"
            label="Game"
            value={filter.game ?? ''}
            options={[
              ['', 'Any game'],
              ['sequence', 'Sequence (board)'],
              ['stacks', 'Sequence Stacks (cards)'],
            ]}
            onChange={(v) => choose({ ...filter, game: (v || undefined) as GameKind | undefined })}
          />
          <Select<number>
            id="lobby-players"
            label="Players"
            value={filter.players ?? 0}
            options={[[0, 'Any number'], ...tableSizes(filter.game).map((n) => [n, String(n)] as const)]}
            onChange={(v) => choose({ ...filter, players: v || undefined })}
          />
          <Select<string>
            id="lobby-rated"
            label="Rating"
            value={filter.rated === undefined ? '' : String(filter.rated)}
            options={[
              ['', 'Rated or casual'],
              ['true', 'Rated only'],
              ['false', 'Casual only'],
            ]}
            onChange={(v) => choose({ ...filter, rated: v === '' ? undefined : v === 'true' })}
          />
          {(!!clubs?.length || !!filter.club) && (
            <Select<string>
              id="lobby-club"
              label="Club"
              value={filter.club ?? ''}
              options={clubOptions(clubs ?? [], filter.club)}
              onChange={(v) => choose({ ...filter, club: v || undefined })}
            />
          )}
        </div>
      </div>
      <ErrorBox error={noSuchClub} />
      <h3>Waiting for players</h3>
      {!noSuchClub && <ErrorBox error={open.error} />}
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
        <p class="muted">
          No game {which}is waiting for players{waysOn}
        </p>
      )}
      <ShowMore list={open} label="More games to join" />
      {!me && !!joinable?.length && (
        <p class="small">
          <a href="/signin">Sign in</a> to take a seat.
        </p>
      )}
      <h3>Being played</h3>
      {!noSuchClub && <ErrorBox error={live.error} />}
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
        <p class="muted">No game {which}is being played now.</p>
      )}
      <ShowMore list={live} label="More games to watch" />
    </section>
  );
}
