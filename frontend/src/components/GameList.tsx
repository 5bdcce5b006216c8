import type { Game, Seat } from '../api/types';
import { when } from './ui';

const seatLabel = (s: Seat) =>
  s.user?.username ?? (s.open ? (s.kept_for ? `open seat kept for ${s.kept_for.username}` : 'open seat') : s.bot ? `bot-${s.bot}` : '?');

/**
 * gameName names the game, the bordered variant included, as the lists and
 * the game's page (its heading, with stacks "Sequence Stacks") do: a list
 * that said "Sequence" of a bordered table (W+ and W− cards for the jacks)
 * let a player join or reopen it unaware.
 */
export const gameName = (g: Pick<Game, 'game' | 'variant'>, stacks = 'Stacks') =>
  g.game === 'sequence' ? (g.variant === 'bordered' ? 'Sequence (bordered)' : 'Sequence') : stacks;

/**
 * versus names the others at the table as me saw them: in a Sequence team
 * game, "with" the teammates "vs" the opponents ("with carol vs bob, dave"),
 * each opposing team apart in a 3-team one ("with carol vs bob, dave vs
 * erin, finn"): it listed both teams as one ("vs bob, dave, erin, finn").
 */
export function versus(g: Game, me?: string): string {
  const mine = me ? g.seats.find((s) => s.user?.id === me) : undefined;
  const others = g.seats.filter((s) => s !== mine && (!me || s.user?.id !== me));
  const teamGame = g.game === 'sequence' && !!mine && g.players > (g.teams ?? g.players);
  const mates = teamGame ? others.filter((s) => s.team === mine!.team) : [];
  const rivals = others.filter((s) => !mates.includes(s));
  const teams = teamGame ? [...new Set(rivals.map((s) => s.team))].sort() : [];
  const sides = teams.length > 1 ? teams.map((t) => rivals.filter((s) => s.team === t)) : [rivals];
  const vs = sides.map((side) => `vs ${side.map(seatLabel).join(', ') || '—'}`).join(' ');
  return mates.length ? `with ${mates.map(seatLabel).join(', ')} ${vs}` : vs;
}

export function outcome(g: Game, me?: string): string {
  const mine = me ? g.seats.find((s) => s.user?.id === me) : undefined;
  // A person whose seat a fill-in bot took over after their timeouts is
  // rated as losing, whatever the board's result: never "won".
  if (mine?.abandoned && (g.status === 'active' || g.status === 'finished')) return 'abandoned';
  if (g.status === 'open') return 'waiting for players';
  if (g.status === 'active') return 'in play';
  if (g.status === 'aborted') return g.ended_by === 'lapse' ? 'lapsed' : 'aborted';
  const r = g.result;
  if (!r) return g.status;
  const won = !!mine && r.status !== 'drawn' && (g.game === 'sequence' ? mine.team === r.winner : mine.seat === r.winner);
  // A rated game every opponent walked away from counts as my win whatever the bots made of the board
  // (outcomeDetail says both): a red "lost" (or "draw") beside "rated a win" contradicted it.
  if (mine && !won && g.rated && opponentsLeft(g, mine)) return 'rated win';
  if (r.status === 'drawn') return 'draw';
  if (!mine) return 'finished';
  return won ? 'won' : 'lost';
}

/**
 * isPerson says whether a person sat at the seat: a bot's seat, or an
 * open one a fill-in bot took at the start, names a bot account ("bot-…",
 * a name no person may take), and nobody walked away from it.
 */
export const isPerson = (s: Pick<Seat, 'user'>) => !!s.user && !s.user.username.toLowerCase().startsWith('bot-');

const teamOf = (g: Game, s: Seat) => (g.game === 'sequence' ? s.team : s.seat);

/** boardResult is the board's result for my seat (won, lost or drew), whoever played it. */
function boardResult(g: Game, mine: Seat): 'won' | 'lost' | 'drew' | '' {
  const r = g.result;
  if (g.status !== 'finished' || !r) return '';
  if (r.status === 'drawn') return 'drew';
  return teamOf(g, mine) === r.winner ? 'won' : 'lost';
}

/** walkedAway says whether every person of a team left the game to fill-in bots (a team of bots alone never walked away). */
function walkedAway(g: Game, team: number): boolean {
  const seats = g.seats.filter((s) => teamOf(g, s) === team && isPerson(s));
  return seats.length > 0 && seats.every((s) => s.abandoned);
}

/** opponentsLeft says whether every other team of a finished game walked away from it (fill-in bots played for them). */
function opponentsLeft(g: Game, mine: Seat): boolean {
  const others = [...new Set(g.seats.map((s) => teamOf(g, s)))].filter((t) => t !== teamOf(g, mine));
  return g.status === 'finished' && others.length > 0 && others.every((t) => walkedAway(g, t));
}

/**
 * outcomeDetail says, after outcome's tag, what the tag leaves out when a
 * fill-in bot played a seat for a person who left, as the README's
 * "Ratings" counts it: the leaver is rated as losing whatever the board
 * said, so "abandoned" of a game the replay says their seat won read as a
 * contradiction ("0 W · 2 L" on the profile, the bracket moving their entry
 * on). It says the board's result, that a bot played the seat, and what
 * the rating makes of it ("a bot played your seat and won; rated a loss");
 * of a game whose every opponent left, that bots played for them ("your
 * opponent left; a bot played for them, and it won; rated a win"). self
 * says me is the person reading (your seat), else theirs.
 */
export function outcomeDetail(g: Game, me?: string, self = false): string {
  const mine = me ? g.seats.find((s) => s.user?.id === me) : undefined;
  if (!mine || (g.status !== 'active' && g.status !== 'finished')) return '';
  const seat = self ? 'your seat' : 'their seat';
  const teams = [...new Set(g.seats.map((s) => teamOf(g, s)))];
  const others = teams.filter((t) => t !== teamOf(g, mine));
  const allLeft = teams.every((t) => walkedAway(g, t));
  if (mine.abandoned) {
    if (g.status === 'active') return `a bot plays ${seat} now${g.rated ? '; rated a loss' : ''}`;
    // a game every team walked away from is rated a draw for all
    const rating = !g.rated ? '' : allLeft ? '; rated a draw (every side left)' : '; rated a loss';
    const board = boardResult(g, mine);
    return `a bot played ${seat}${board && ` and ${board}`}${rating}`;
  }
  if (opponentsLeft(g, mine)) {
    const board = boardResult(g, mine);
    const many = g.seats.filter((s) => others.includes(teamOf(g, s)) && isPerson(s)).length > 1;
    const bots = many ? 'bots played for them' : 'a bot played for them';
    const them = board === 'lost' ? `, and ${many ? 'their bots' : 'it'} won` : board === 'drew' ? ' to a draw' : '';
    const whose = self ? 'your' : 'their';
    return `${whose} ${many ? 'opponents' : 'opponent'} left; ${bots}${them}${g.rated ? '; rated a win' : ''}`;
  }
  return '';
}

/**
 * yourMove says whether the game waits for me: it is being played and its
 * turn is at my seat, one I play myself (not one a fill-in bot took over).
 */
export function yourMove(g: Game, me?: string): boolean {
  if (!me || g.status !== 'active' || g.turn_seat == null) return false;
  const s = g.seats.find((s) => s.seat === g.turn_seat);
  return !!s && s.user?.id === me && !s.bot;
}

/**
 * GameList lists games as me sees them. With markMine (me is the person
 * signed in), a game that waits for my move says "Your move" in words, its
 * line set apart by a bar as well, so that colour is never the only cue.
 */
export function GameList({ games, me, empty, markMine = false, self = markMine }: { games: Game[]; me?: string; empty: string; markMine?: boolean; self?: boolean }) {
  if (games.length === 0) return <p class="muted">{empty}</p>;
  return (
    <ul class="game-list">
      {games.map((g) => {
        const o = outcome(g, me);
        const mine = markMine && yourMove(g, me);
        const detail = outcomeDetail(g, me, self);
        return (
          <li key={g.id} class={mine ? 'your-move' : undefined}>
            <a href={g.status === 'finished' ? `/games/${g.id}/replay` : `/games/${g.id}`}>
              {gameName(g)} · {g.players} players
            </a>{' '}
            {/* a profile did not say which games moved the rating */}
            {g.rated && <span class="small">· rated </span>}
            {/* a tournament game said only who played it */}
            {g.tournament && (
              <>
                <span class="small">
                  · {g.tournament.name}
                  {g.tournament.round ? `, round ${g.tournament.round}` : ''}
                </span>{' '}
              </>
            )}
            {mine && (
              <>
                <strong class="tag tag-move">Your move</strong>{' '}
              </>
            )}
            <span class="muted">{versus(g, me)}</span> <span class={`tag tag-${o === 'rated win' ? 'won' : o.replace(/\s.*/, '')}`}>{o}</span>
            {detail && <span class="outcome-detail small"> — {detail}</span>}{' '}
            <span class="muted small">{when(g.started_at ?? g.created_at)}</span>
            {g.status === 'finished' && (
              <>
                {' '}
                · <a href={`/games/${g.id}`}>final table</a>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}
