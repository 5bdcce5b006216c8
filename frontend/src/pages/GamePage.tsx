import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useReducer, useRef, useState } from 'preact/hooks';
import { ApiError, retrying } from '../api/client';
import type { GameView, MoveRecord } from '../api/types';
import { useFocusAfter } from '../components/focus';
import { gameName } from '../components/GameList';
import { ConfirmStep } from '../components/ConfirmStep';
import { CopyButton } from '../components/CopyButton';
import { Crumbs, ErrorBox, LoadFailed, LoadingPage, Page, useAction } from '../components/ui';
import { waitingChanged } from '../components/waiting';
import { LOG_SIZE, initialLive, liveReducer } from '../game/reducer';
import { TEAMS } from '../game/board';
import { autopilotTurn, keptFor, lateMoveText, mySeatTaken, seatTakenText, sequenceTeam, shortSeatName, timeoutText } from '../game/seats';
import { describeSequenceMove } from '../game/sequenceMoves';
import { describeStacksMove } from '../game/stacksMoves';
import { GameStream } from '../game/stream';
import { clockText, duration, relative, timeOfDay } from '../competition/time';
import { counted } from '../components/plural';
import { signInHref } from '../router';
import { api, useSession } from '../session';
import { newMoveID, ratingText, ResultLine, resultText, seatName } from './gameCommon';
import { NextInTournament } from './NextInTournament';
import { Rematch } from './Rematch';
import { BOT_LEVELS } from './NewGameForm';
import { SeatEditor } from './SeatEditor';
import { SequenceTable } from './SequenceTable';
import { STACKS_GOAL, StacksTable } from './StacksTable';

type SeatAction = 'join' | 'start' | 'leave' | 'decline';

/** How often, and how many times, a finished rated game is read again for its rating change. */
export const RATING_POLL_MS = 2000;
const RATING_POLLS = 10;

/**
 * A move whose answer was lost (no answer at all: the connection dropped)
 * may have been played: it is sent again, the same move_id, after each of
 * these pauses, and the server answers a move it played as it did the
 * first time, before the page says it cannot reach the server.
 */
export const MOVE_RETRY_MS = [300, 1000];

function postMove(path: string, body: { ply: number; move: string; move_id: string }): Promise<GameView> {
  return retrying(() => api.post<GameView>(path, body), MOVE_RETRY_MS, (e) => e instanceof ApiError && e.status === 0);
}

/** keptUntil says when a kept seat's hold lapses: "00:43 (5 min left)", or the time alone once it is due. */
function keptUntil(iso: string): string {
  const left = relative(iso);
  return left.startsWith('in ') ? `${timeOfDay(iso)} (${left.slice(3)} left)` : timeOfDay(iso);
}

/** gameLink is the address to share so others can join the game. */
export function gameLink(id: string): string {
  return `${globalThis.location?.origin ?? ''}/games/${encodeURIComponent(id)}`;
}

/** gameSettings are the facts of a game's set-up, for someone deciding to take a seat. */
export function gameSettings(g: GameView): [string, string][] {
  const rows: [string, string][] = [['Game', g.game === 'sequence' ? 'Sequence' : 'Sequence Stacks']];
  if (g.game === 'sequence') rows.push(['Variant', g.variant === 'bordered' ? 'bordered' : 'classic']);
  const perTeam = g.teams > 0 ? g.players / g.teams : 1;
  rows.push(['Players', g.game === 'sequence' && perTeam > 1 ? `${g.players}: ${g.teams} teams of ${perTeam}` : g.game === 'sequence' ? `${g.players}, each on their own team` : String(g.players)]);
  // The rules' target when the game sets none (rules 1.4): a 3-team table showed no "To win" at all, and a
  // player who knew the 2-sequence game sat down not knowing one sequence wins there.
  if (g.game === 'sequence') rows.push(['To win', counted(g.sequences_to_win || (g.teams === 3 ? 1 : 2), 'sequence')]);
  else rows.push(['To win', STACKS_GOAL]);
  rows.push(['Clock', clockText(g.clock)]);
  if (g.game === 'stacks' && g.block_window_seconds) rows.push(['Block window', duration(g.block_window_seconds)]);
  rows.push(['Rated', g.rated ? 'yes' : 'no']);
  return rows;
}

/**
 * OpenSeat is one seat of a game waiting for players: its number, who holds
 * it (or "open"), and at a Sequence table its team, named as the table
 * names it ("Blue team") beside the team's chip and shape, so that a team
 * game's sides are plain before it starts, in words and not by colour alone.
 */
export function OpenSeat({ view, seat, children }: { view: GameView; seat: number; children?: ComponentChildren }) {
  const s = view.seats[seat];
  const team = sequenceTeam(view.game, s?.team);
  const t = team ? TEAMS[s.team] : undefined;
  // the line says the seat and the team: a name two seats share needs neither again
  const kept = s ? keptFor(s) : null;
  const who = s?.open
    ? kept
      ? s.kept_until
        ? `kept for ${kept} until ${keptUntil(s.kept_until)}, then open to anyone`
        : `kept for ${kept}`
      : 'open'
    : `${shortSeatName(view, seat)}${view.your_seat === seat ? ' (you)' : ''}`;
  return (
    <li class="open-seat" data-seat={seat}>
      {t && (
        <span class={`chip small team-${t.colour}`} aria-hidden="true">
          {t.shape}
        </span>
      )}
      Seat {seat + 1}
      {team && <span class="seat-team">, {team}</span>}: {who}
      {children}
    </li>
  );
}

/** keptNames names the people the open seats are kept for ("bob and cat"). */
function keptNames(view: GameView): string {
  return [...new Set(view.seats.filter((s) => s.open).map((s) => keptFor(s)).filter((n): n is string => n != null))].join(' and ');
}

/** keptNote tells a player who cannot sit down that the open seats are kept for others, naming them. */
export function keptNote(view: GameView): string {
  const open = view.seats.filter((s) => s.open);
  const names = keptNames(view);
  return open.length === 1 ? `The open seat is kept for ${names}: nobody else can take it.` : `The open seats are kept for ${names}: nobody else can take them.`;
}

/**
 * OpenGame is a game waiting for players: its seats, and joining, starting,
 * leaving or cancelling it; its creator may change a seat no person holds
 * (SeatEditor, then onSeatChanged) or give the open seats to bots (BotsNow,
 * then onBotsSeated, else onSeatChanged), and a player a seat is kept for may
 * decline it.
 */
export function OpenGame(props: {
  view: GameView;
  me?: string;
  busy: boolean;
  onAction: (a: SeatAction, seat?: number) => void;
  onSeatChanged?: () => Promise<unknown>;
  onBotsSeated?: () => Promise<unknown>;
}) {
  const { view, me, busy, onAction, onSeatChanged } = props;
  const onBotsSeated = props.onBotsSeated ?? onSeatChanged;
  const creator = me != null && view.created_by === me;
  const open = view.seats.some((s) => s.open);
  // a seat kept for someone else is not one this viewer can take (a seat kept for them is)
  const freeSeats = me && view.your_seat == null ? view.seats.filter((s) => s.open && (keptFor(s) == null || s.kept_for?.id === me)) : [];
  const free = freeSeats.length > 0;
  const choose = chooseSeat(view, freeSeats);
  const people = view.seats.filter((s) => s.user && !s.bot);
  const keptForMe = view.your_seat == null && view.seats.some((s) => keptFor(s) != null && s.kept_for?.id === me);
  // The lobby and quick matches offer a public table with a seat anyone may
  // take only while everyone seated follows it (the server counts a player
  // here while this page's event stream is open): a player waiting there
  // is told to keep the page open.
  // a seat anyone may take (a rematch's are kept for its players, whom the link is for)
  const anyoneMaySit = view.seats.some((s) => s.open && keptFor(s) == null);
  const offered = view.your_seat != null && !view.private && anyoneMaySit;
  // Leaving as the only person seated leaves nobody to play: the server
  // aborts the game, so the creator's button says what it does.
  const cancels = view.your_seat != null && people.length === 1 && people[0].seat === view.your_seat;
  const link = gameLink(view.id);
  return (
    <section class="card-box">
      <h2>Waiting for players</h2>
      <dl class="facts game-settings">
        {gameSettings(view).map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <ul class="open-seats">
        {view.seats.map((s) => (
          <OpenSeat key={s.seat} view={view} seat={s.seat}>
            {choose && freeSeats.includes(s) && (
              <button
                type="button"
                class="small sit-here"
                data-seat-action="join"
                data-seat={s.seat}
                aria-label={`Sit here: seat ${s.seat + 1}${sequenceTeam(view.game, s.team) ? `, ${sequenceTeam(view.game, s.team)}` : ''}`}
                disabled={busy}
                onClick={() => onAction('join', s.seat)}
              >
                Sit here
              </button>
            )}
            {creator && onSeatChanged && (s.open || s.bot) && <SeatEditor view={view} seat={s.seat} onSaved={onSeatChanged} />}
          </OpenSeat>
        ))}
      </ul>
      {view.private && (
        <p class="private-note">
          <strong>Private table:</strong> it is not listed to join or watch, and no quick match seats anyone at it; only people with its link find it.
        </p>
      )}
      {offered && (
        <p class="here-note">
          This table is offered in the lobby and to quick matches while this page stays open: strangers are seated only across from players who are
          there.
        </p>
      )}
      {creator && onBotsSeated && offered && <BotsNow view={view} onSeated={onBotsSeated} />}
      {creator && open && (
        <p class="share-hint">
          {view.private
            ? 'Send this link to the people you want to play: '
            : anyoneMaySit
              ? "Share this game's link so others can take the open seats: "
              : `The open seats are kept: send ${keptNames(view)} this game's link: `}
          <a href={link}>{link}</a>{' '}
          <CopyButton text={link} />
        </p>
      )}
      {me && view.your_seat == null && open && !free && <p class="kept-note">{keptNote(view)}</p>}
      <div class="actions">
        {me && view.your_seat == null && free && (
          <button type="button" class="primary" data-seat-action="join" disabled={busy} onClick={() => onAction('join')}>
            Take a seat
          </button>
        )}
        {keptForMe && (
          <button type="button" class="secondary" data-seat-action="decline" disabled={busy} onClick={() => onAction('decline')}>
            Decline
          </button>
        )}
        {me && creator && !open && (
          <button type="button" class="primary" data-seat-action="start" disabled={busy} onClick={() => onAction('start')}>
            Start the game
          </button>
        )}
        {me && view.your_seat != null && (
          <button type="button" class={cancels ? 'danger' : 'secondary'} data-seat-action="leave" disabled={busy} onClick={() => onAction('leave')}>
            {cancels ? 'Cancel game' : 'Leave this game'}
          </button>
        )}
      </div>
      {me && cancels && <p class="muted small">Nobody else has joined yet: cancelling ends the game for good.</p>}
      {!me && open && (
        <p class="join-hint">
          <a href={signInHref()}>Sign in</a> or <a href={signInHref().replace('/signin', '/signup')}>create an account</a> to take a seat.
        </p>
      )}
    </section>
  );
}

/**
 * BotsNow gives a public table's open seats to bots, which fills the table and so starts it. A new player
 * whose quick match found nobody (a quiet hour, a new site) waited at "Waiting for players" with no word
 * that a bot could play: the way to one was "Change" on each open seat, "Bot: random", "Save seat". Not
 * offered while a seat is kept for someone, whom the table waits for anyway.
 */
export function BotsNow({ view, onSeated }: { view: GameView; onSeated: () => Promise<unknown> }) {
  const { busy, error, run } = useAction();
  const [level, setLevel] = useState<(typeof BOT_LEVELS)[number]>('random');
  const open = view.seats.filter((s) => s.open);
  if (!open.length || open.some((s) => keptFor(s) != null)) return null;
  const play = () =>
    run(async () => {
      for (const s of open) await api.put(`/games/${encodeURIComponent(view.id)}/seats/${s.seat}`, { bot: level });
      await onSeated();
    });
  return (
    <div class="bots-now">
      <p class="muted small" id="bots-now-note">
        {/* it read as a promise ("A bot takes the open seat and the game starts."): it is what the button does */}
        Nobody yet?{' '}
        {open.length === 1
          ? 'You can give the open seat to a bot and start at once; otherwise it stays open for a player.'
          : 'You can give the open seats to bots and start at once; otherwise they stay open for players.'}
      </p>
      <label>
        Bot level{' '}
        <select value={level} disabled={busy} onChange={(e) => setLevel((e.target as HTMLSelectElement).value as (typeof BOT_LEVELS)[number])}>
          {BOT_LEVELS.map((b) => (
            <option value={b}>{BOT_LEVEL_NAMES[b]}</option>
          ))}
        </select>
      </label>{' '}
      <button type="button" class="secondary" aria-describedby="bots-now-note" disabled={busy} onClick={play}>
        {busy ? 'Seating…' : open.length === 1 ? 'Play a bot now' : 'Play bots now'}
      </button>
      <ErrorBox error={error} />
    </div>
  );
}

/** What each bot level is, in a player's words. */
const BOT_LEVEL_NAMES: Record<(typeof BOT_LEVELS)[number], string> = {
  random: 'random (the easiest)',
  greedy: 'greedy',
  strong: 'strong (the hardest)',
};

/**
 * chooseSeat says whether a player about to sit down picks the seat: where
 * the seats they may take are on different teams. "Take a seat" took the
 * first of them, so at a 2-against-2 table with seats 2 (Green) and 3
 * (Blue) open, a player could not join their friend's Blue team.
 */
export function chooseSeat(view: GameView, freeSeats: GameView['seats']): boolean {
  if (view.game !== 'sequence' || view.teams >= view.players) return false;
  return new Set(freeSeats.map((s) => s.team)).size > 1;
}

/**
 * ConnBadge shows the event stream's state ("connecting…" as the page opens,
 * then "live", or "reconnecting…" once it was live), which matters only
 * while the game is in play.
 */
export function ConnBadge({ status, connected, wasConnected }: { status: GameView['status']; connected: boolean; wasConnected: boolean }) {
  if (status !== 'active') return null;
  return (
    <span class={`conn ${connected ? 'up' : 'down'}`} role="status">
      {connected ? 'live' : wasConnected ? 'reconnecting…' : 'connecting…'}
    </span>
  );
}

/**
 * SeatNotices tell the viewer what happened to their seat without them: the
 * autopilot played a timed-out turn, or a fill-in bot took the seat over.
 * Given onDismiss, the autopilot's word comes with a Dismiss button, as a
 * refused move's error does: on a phone-width screen both float over the
 * top of the screen (styles.css, .notice-float) rather than push the board
 * (the piles) and the hand down. A dismissed turn (its last ply, dismissed)
 * stays dismissed; the next timed-out turn is told again.
 */
export function SeatNotices(props: {
  view: GameView;
  log: MoveRecord[];
  describe: (move: string) => string;
  dismissed?: number | null;
  onDismiss?: (ply: number) => void;
}) {
  const { view, log, describe, onDismiss } = props;
  if (view.status !== 'active' || view.your_seat == null) return null;
  if (mySeatTaken(view)) {
    return (
      <p class="seat-notice abandoned" id="seat-notice" tabIndex={-1}>
        {seatTakenText(view)}
      </p>
    );
  }
  const turn = autopilotTurn(view, log);
  const timedOut = timeoutText(turn, describe);
  if (!timedOut) return null;
  const ply = turn[turn.length - 1].ply;
  if (props.dismissed === ply) return null;
  const notice = (
    <p class="seat-notice" id="seat-notice">
      {timedOut} Move before the clock runs out, or a bot will take your seat after repeated timeouts.
    </p>
  );
  if (!onDismiss) return notice;
  return (
    <div class="notice-toast seat-toast">
      {notice}
      <button type="button" class="small" onClick={() => onDismiss(ply)}>
        Dismiss
      </button>
    </div>
  );
}

/** useWaitingAt asks the header's waiting count again when whether the seated viewer is to move, or the game's status, changes. */
function useWaitingAt(view: GameView | null) {
  const key = view && view.your_seat != null ? `${view.status} ${(view.legal_moves ?? []).length > 0}` : null;
  const last = useRef(key);
  useEffect(() => {
    // the count was read as the page opened: only a change asks again
    if (key != null && last.current != null && key !== last.current) waitingChanged();
    last.current = key;
  }, [key]);
}

/**
 * WayOn leads on from an aborted game: a casual game its creator cancelled before anyone joined, one that
 * lapsed (nobody joined it in time), or a tournament's game the tournament's cancellation ended. Its page said "The game was aborted." and had
 * nothing else, no button and no link but the site's header: a dead end. A tournament's game leads back to
 * its tournament (by name once read); a casual one to Home, where a quick match or a new table starts.
 */
export function WayOn({ view, tournamentName }: { view: GameView; tournamentName?: string }) {
  return (
    <p class="actions-row way-on">
      {view.tournament_id ? (
        <a class="button primary" href={`/tournaments/${encodeURIComponent(view.tournament_id)}`}>
          Back to {tournamentName || 'the tournament'}
        </a>
      ) : (
        <>
          <a class="button primary" href="/">
            Play another game
          </a>
          <span class="muted small">a quick match or a new table, on Home</span>
        </>
      )}
    </p>
  );
}

export default function GamePage({ id }: { id: string }) {
  const session = useSession();
  const [live, dispatch] = useReducer(liveReducer, initialLive);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // the last ply of the autopilot's turn whose notice the viewer dismissed
  const [seatNoticeDismissed, setSeatNoticeDismissed] = useState<number | null>(null);
  const uid = session.user?.id ?? '';

  /**
   * load gets the game anew; it answers the error, if any, shown on the page
   * unless quiet (a read in the background, which the next one makes good).
   */
  const load = useCallback(
    (quiet = false) => {
      return api.get<GameView>(`/games/${encodeURIComponent(id)}`).then(
        (v): unknown => void dispatch({ type: 'view', view: v }),
        (e: unknown) => {
          if (!quiet) setError(e);
          return e;
        },
      );
    },
    [id, uid],
  );

  useEffect(() => {
    if (!session.ready) return;
    const s = new GameStream(id, {
      token: () => api.accessToken,
      refresh: () => api.refresh(),
      onEvent: (event) => dispatch({ type: 'event', event }),
      onConnected: (connected) => dispatch({ type: 'connected', connected }),
    }).start();
    // No such game: its event stream would be refused (404) and reopened for ever.
    load().then((e) => {
      if (e instanceof ApiError && e.status === 404) s.close();
    });
    return () => s.close();
  }, [id, uid, session.ready]);

  const view = live.view;
  // A tournament's game names its tournament on the way back to it: "Tournament"
  // alone did not say which (until the name is read, or if it cannot be, it stays).
  const tournamentID = view?.tournament_id;
  const [tournamentName, setTournamentName] = useState('');
  useEffect(() => {
    if (!tournamentID) return;
    let current = true;
    api.get<{ name: string }>(`/tournaments/${encodeURIComponent(tournamentID)}`).then(
      (t) => current && setTournamentName(t.name),
      () => {},
    );
    return () => void (current = false);
  }, [tournamentID]);
  // The log holds the moves seen live: a player who opens (or reloads) the
  // page of a game in play was told nothing of what happened while they
  // were away, not even that the autopilot had played their timed-out turn
  // (SeatNotices reads the log). The latest moves are read once as the game
  // is first shown in play; the stream's moves join them.
  const historyOf = useRef<string | null>(null);
  const started = !!view && view.id === id && view.status !== 'open' && view.ply > 0;
  useEffect(() => {
    if (!started || historyOf.current === id) return;
    historyOf.current = id;
    const after = Math.max(-1, view!.ply - 1 - LOG_SIZE);
    api.get<{ moves: MoveRecord[] }>(`/games/${encodeURIComponent(id)}/moves?after=${after}`).then(
      (r) => dispatch({ type: 'history', moves: r.moves ?? [] }),
      () => {}, // the log then starts with the moves seen live, as it did
    );
  }, [started, id]);
  // A rated game is rated by a task just after it ends: ask again a few
  // times while it is unsettled (no settled_at), until the viewer's rating
  // change, or the word that it changed none, is there to show. A read that
  // fails says nothing: "Cannot reach the server" stayed under the result
  // after the next read had brought the rating.
  const awaitingRating = !!view && ratingText(view).endsWith('…');
  useEffect(() => {
    if (!awaitingRating) return;
    let tries = 0;
    const timer = setInterval(() => {
      if (++tries > RATING_POLLS) clearInterval(timer);
      else load(true);
    }, RATING_POLL_MS);
    return () => clearInterval(timer);
  }, [awaitingRating, load]);
  // The header's count of games waiting for the viewer's move is read when the page changes and every
  // 30 s: at a table, the viewer's turn coming or going and the game ending change it now, else a player
  // who had just moved, or won, read "a game waits for your move" beside Home for up to 30 s more.
  useWaitingAt(view);
  // After a seat action the pressed button is gone or disabled (and a
  // browser drops the focus of a disabled button): the focus goes to what
  // the page shows next, never to the page itself.
  const { root, focusNext } = useFocusAfter<HTMLDivElement>();

  // The last move sent: played again at the same ply (the player's "try
  // again" after "Cannot reach the server"), it keeps its move_id, so that a
  // move the server played but whose answer was lost is answered as played,
  // not refused as "Too late … It was not played".
  const sent = useRef<{ ply: number; move: string; id: string } | null>(null);

  /** move sends a move; it answers whether the move was played (a table keeps the picked card when not). */
  const move = async (text: string): Promise<boolean> => {
    if (!view) return false;
    setBusy(true);
    setError(null);
    const last = sent.current;
    const moveID = last && last.ply === view.ply && last.move === text ? last.id : newMoveID();
    sent.current = { ply: view.ply, move: text, id: moveID };
    try {
      const v = await postMove(`/games/${encodeURIComponent(id)}/moves`, { ply: view.ply, move: text, move_id: moveID });
      dispatch({ type: 'view', view: v });
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        // someone moved first: catch up, and say what beat the move
        load();
        const first = await api.get<{ moves: MoveRecord[] }>(`/games/${encodeURIComponent(id)}/moves?after=${view.ply - 1}`).then(
          (r) => r.moves ?? [],
          () => [],
        );
        dispatch({ type: 'history', moves: first });
        setError(new Error(lateMoveText(view, text, first, describe, (s) => seatName(view, s))));
      } else setError(e);
      return false;
    } finally {
      setBusy(false);
    }
  };

  /**
   * stepAway posts the viewer's leaving (leave: a fill-in bot takes the seat
   * of the game in play) or resignation (resign: the side loses at once),
   * then moves the focus to what says so; it answers whether it was done.
   * Refused, the game is not what the page showed (a move ended it, a
   * teammate came back): it is shown as it is.
   */
  const stepAway = async (action: 'leave' | 'resign', said: string): Promise<boolean> => {
    setError(null);
    try {
      await api.post(`/games/${encodeURIComponent(id)}/${action}`, {});
      // asked before the view that shows it comes: that render is the last (nothing follows to move the focus)
      focusNext(said, 'h1');
      await load();
      return true;
    } catch (e) {
      setError(e);
      if (e instanceof ApiError && e.status >= 400 && e.status < 500) await load();
      return false;
    }
  };

  const seatAction = async (path: SeatAction, seat?: number) => {
    setBusy(true);
    setError(null);
    try {
      // Leaving before the start must not, if a last join started the game meanwhile, hand the seat to a bot.
      const body = path === 'leave' ? { only_if_open: true } : seat == null ? {} : { seat };
      await api.post(`/games/${encodeURIComponent(id)}/${path}`, body);
      await load();
      // a cancelled game's "aborted", the button that undoes the action, else the heading
      if (path === 'leave') focusNext('.result', '[data-seat-action=join]', 'h1');
      else if (path === 'join') focusNext('[data-seat-action=leave]', 'h1');
      else if (path === 'decline') focusNext('[data-seat-action=join]', 'h1');
      else focusNext('h1');
    } catch (e) {
      setError(e);
      // A refusal says the game is not what this page shows (taken, started,
      // called off while its event stream was down): the page that said
      // "Waiting for players" and "Take a seat" beside "the game has started"
      // shows the game as it is, the objection above it.
      if (e instanceof ApiError && e.status >= 400 && e.status < 500) await load();
      focusNext(`[data-seat-action=${path}]`, 'h1');
    } finally {
      setBusy(false);
    }
  };

  if (!view) {
    if (error) return <LoadFailed error={error} title="Game" missing="No such game" wayOn={{ href: '/', text: 'Back home' }} />;
    return <LoadingPage title="Game" what="Loading the game" />;
  }

  const title = gameName(view, 'Sequence Stacks');
  const lastMove = live.log[live.log.length - 1];
  const describe = (m: string) => (view.game === 'sequence' ? describeSequenceMove(m) : describeStacksMove(m, (s) => seatName(view, s)));

  // The notices: a refused request, what happened to the viewer's seat without them, the result and the
  // rating change. Live regions (role alert or status, the seat's timeout in #announcer) but the result:
  // where they sit changes nothing of what a screen reader hears. The result is shown here only (a table's
  // status line gives way to it once the game is over) and is no live region: #announcer says the end once
  // ("The game is over: …", "The game was aborted."), and a status region here read it a second time.
  // At a table in play, a refused request's error and the autopilot's word on a timed-out turn can be
  // dismissed: on a phone-width screen they float over the top of the screen (styles.css, .notice-float)
  // rather than push the piles or the board and the hand down, so they must not stay there for good.
  // Dismissed, the focus goes on to the hand.
  const atTable = !!view.state;
  const errorNotice =
    atTable && error ? (
      <div class="notice-toast error-toast">
        <ErrorBox error={error} />
        <button
          type="button"
          class="small"
          onClick={() => {
            setError(null);
            focusNext('.hand .hand-card', 'h1');
          }}
        >
          Dismiss
        </button>
      </div>
    ) : (
      <ErrorBox error={error} />
    );
  // The autopilot's word on the viewer's timed-out turn floats with the error on a phone, dismissed the same way.
  const seatNotice = (
    <SeatNotices
      view={view}
      log={live.log}
      describe={describe}
      dismissed={seatNoticeDismissed}
      onDismiss={(ply) => {
        setSeatNoticeDismissed(ply);
        focusNext('.hand .hand-card', 'h1');
      }}
    />
  );
  // The word that a fill-in bot took the viewer's seat stays for the rest of the game: the table shows it
  // after the hand, where below 60rem it takes no room from the board (the piles) and the hand. Above the
  // table it pushed a 2-player Sequence board from 337 to 531 px down at 360x740. #announcer says it when
  // it comes, and when the page opens on it.
  const lostSeat = atTable && mySeatTaken(view);
  const timedOut = autopilotTurn(view, live.log);
  const timeoutShown = view.status === 'active' && view.your_seat != null && timedOut.length > 0 && timedOut[timedOut.length - 1].ply !== seatNoticeDismissed;
  const floating = atTable && (error != null || timeoutShown);
  const notices = (
    <>
      {floating ? (
        <div class="notice-float">
          {errorNotice}
          {!lostSeat && seatNotice}
        </div>
      ) : (
        <>
          {errorNotice}
          {!lostSeat && seatNotice}
        </>
      )}
      {(view.status === 'finished' || view.status === 'aborted') && (
        <ResultLine text={resultText(view, live.log)} />
      )}
      {view.status === 'aborted' && <WayOn view={view} tournamentName={tournamentName} />}
      {view.status === 'finished' && view.tournament_id && <NextInTournament view={view} uid={uid} tournamentName={tournamentName} />}
      {ratingText(view) && (
        <p class="rating-change" role="status">
          {ratingText(view)}
        </p>
      )}
    </>
  );
  // a table in play shows them itself, at the head of its seat column (beside the board or the piles on a wide screen)

  return (
    <Page title={title} wide>
      {/* a tournament's game leads back to its tournament: the page had no way there but Back */}
      <Crumbs items={[!!view.tournament_id && { href: `/tournaments/${encodeURIComponent(view.tournament_id)}`, text: tournamentName || 'Tournament' }]} />
      <div class="game" ref={root} data-game={view.game} data-ply={view.ply} data-status={view.status} data-my-turn={String((view.legal_moves ?? []).length > 0)}>
      <div class="game-head">
        <h1 tabIndex={-1}>{title}</h1>
        <ConnBadge status={view.status} connected={live.connected} wasConnected={live.wasConnected} />
        {view.status === 'finished' && (
          <a class="button" href={`/games/${view.id}/replay`}>
            Open the replay
          </a>
        )}
        <Rematch view={view} />
      </div>
      <div class="sr-only" aria-live="polite" aria-atomic="true" id="announcer">
        {live.announcement}
      </div>
      {!atTable && notices}

      {view.status === 'open' && (
        <OpenGame
          view={view}
          me={session.user?.id}
          busy={busy}
          onAction={seatAction}
          onSeatChanged={load}
          // the button goes with the waiting screen: the focus goes to the heading of the game it started
          onBotsSeated={async () => {
            focusNext('h1');
            await load();
          }}
        />
      )}

      {atTable && view.game === 'sequence' && (
        <SequenceTable view={view} onMove={move} busy={busy} lastMove={lastMove} notices={notices} seatNotice={lostSeat && seatNotice} />
      )}
      {atTable && view.game === 'stacks' && <StacksTable view={view} onMove={move} busy={busy} log={live.log} notices={notices} seatNotice={lostSeat && seatNotice} />}

      {live.log.length > 0 && (
        <details class="move-log" open={false}>
          <summary>Latest moves ({live.log.length})</summary>
          <ol start={live.log[0].ply + 1}>
            {live.log.map((m) => (
              <li key={m.ply}>
                {seatName(view, m.seat)}
                {m.by === 'autopilot' ? ' (autopilot, turn timed out)' : m.by === 'fill-in' ? ' (fill-in bot)' : ''} {describe(m.move)} <code>{m.move}</code>
              </li>
            ))}
          </ol>
        </details>
      )}
      {/* Last on the page, where it moves nothing of the table: a player who has to go hands the seat to a
          bot at once. Walking away, they left the table waiting out their clock until repeated timeouts did. */}
      {view.status === 'active' && view.your_seat != null && !mySeatTaken(view) && (
        <p class="actions-row leave-table">
          {/* A lost game need not be played out, nor left to a fill-in bot to play out against an opponent kept at the table. */}
          {view.may_resign && (
            <ConfirmStep
              class="resign-game"
              action="resign-game"
              ask="Resign…"
              question="Resign the game? The other side wins at once"
              note={<span class="muted small">The game ends now, won by the other side{view.rated ? ', and it counts as a loss for your rating' : ''}.</span>}
              confirm="Resign"
              dismiss="Play on"
              onConfirm={() => stepAway('resign', '.result')}
            />
          )}{' '}
          <ConfirmStep
            class="leave-game"
            action="leave-game"
            ask="Leave the game…"
            question="Leave the game? A fill-in bot takes your seat for the rest of it"
            note={<span class="muted small">A fill-in bot plays your seat for the rest of the game{view.rated ? ', and it counts as a loss for your rating' : ''}. You cannot come back to it.</span>}
            confirm="Leave, a bot takes my seat"
            dismiss="Stay"
            onConfirm={() => stepAway('leave', '#seat-notice')}
          />
        </p>
      )}
      </div>
    </Page>
  );
}
