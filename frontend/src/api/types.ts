// The API's JSON shapes (server/openapi/*.json, server/*.go).

export interface User {
  id: string;
  username: string;
  kind: 'human' | 'bot' | string;
  bot_level?: string;
  email?: string;
  is_admin: boolean;
  created_at: string;
  /** Set once the account is closed; its games and ratings stay. */
  closed_at?: string;
}

export interface Clock {
  turn_seconds?: number;
  bank_seconds?: number;
  increment_seconds?: number;
}

export interface Seat {
  seat: number;
  team: number;
  /** rating: the person's rating in the game's pool now (the lobby's lists only) */
  user: { id: string; username: string; rating?: { rating: number; display: string; games: number; provisional: boolean } } | null;
  bot?: string;
  open: boolean;
  filled_by_bot: boolean;
  abandoned: boolean;
  /** why an abandoned seat was (absent on one abandoned before the server kept the reason) */
  abandoned_why?: AbandonedWhy;
  bank_ms?: number;
  /** the person at this seat of an active game has had no page following it for a while (no connection); only in a game's view, only when true, never on a bot's seat */
  away?: boolean;
  /** an open seat kept for this person until kept_until (a rematch keeps the other players' seats for them for a while), or with no kept_until until the game starts (kept by its creator) */
  kept_for?: { id: string; username: string };
  kept_until?: string;
  /** the seat's rating before and after, once a finished rated game has been rated */
  rating?: { before: number; after: number };
}

export type AbandonedWhy = 'left' | 'timed_out' | 'no_show' | 'account_closed';

export type GameKind = 'sequence' | 'stacks';

export interface Game {
  id: string;
  game: GameKind;
  variant?: string;
  players: number;
  teams: number;
  sequences_to_win?: number;
  status: 'open' | 'active' | 'finished' | 'aborted' | string;
  rated: boolean;
  clock: Clock;
  block_window_seconds?: number;
  created_by?: string;
  /** the creator's username, in a player's list of invitations (?invited=true) */
  created_by_name?: string;
  created_at: string;
  scheduled_start?: string;
  started_at?: string;
  finished_at?: string;
  /** when the finished game was settled (archive, ratings, tournament result): from then on a rated game's seats carry their rating change, if it changed any */
  settled_at?: string;
  seed_hash: string;
  seed?: string;
  ply: number;
  turn_deadline?: string;
  /** the seat whose turn it is while the game is active (in a Stacks block window still the completer's); null otherwise */
  turn_seat?: number | null;
  result?: { status: 'finished' | 'drawn' | string; winner: number | null };
  /** How the game ended, once it has: by the rules, by a tournament round's deadline, by the losing side resigning, aborted, or lapsed (an open table nobody joined in time, cancelled by the server). */
  ended_by?: 'play' | 'adjudication' | 'resign' | 'abort' | 'lapse' | string;
  /** The game its players were offered next, once one of them asked for a rematch. */
  rematch_id?: string;
  /** the tournament whose match this game is of; absent for a casual game */
  tournament_id?: string;
  /** in lists: a tournament game's tournament and round */
  tournament?: { name: string; round?: number };
  /** never listed in the lobby nor found by a quick match: only people with its link find it */
  private?: boolean;
  seats: Seat[];
}

export interface SequenceState {
  game: 'sequence';
  variant: string;
  seat: number;
  players: number;
  teams: number;
  sequences_to_win: number;
  board: string[];
  sequences: Record<string, [string, string][]>;
  locked: string[];
  discards: string[][];
  hand_sizes: number[];
  deck_size: number;
  hand: string[];
  turn: number;
  ply: number;
  exchanged: boolean;
  penalty_owed: number[];
  plays: number;
  status: string;
  winner: string | null;
}

export interface StacksPile {
  color: 'red' | 'blue';
  cards: string[];
}

export interface Chips {
  red: number;
  blue: number;
}

export interface StacksState {
  game: 'stacks';
  ply: number;
  seat: number;
  players: number;
  play_cap: number;
  turns: number;
  turn: number;
  direction: number;
  phase: 'play' | 'block-window' | 'won' | 'drawn' | string;
  status: string;
  winner: number;
  window?: { completer: number; color: 'red' | 'blue'; eligible: number[]; answered: number[] };
  piles: StacksPile[];
  discards: string[][];
  setaside: string[];
  chips: Chips[];
  supply: Chips;
  hand_sizes: number[];
  deck_size: number;
  skipped: boolean[];
  hand: string[];
}

export interface GameView extends Game {
  your_seat: number | null;
  to_move: number[];
  state: SequenceState | StacksState | null;
  legal_moves?: string[];
  /** the viewer may resign now (POST /games/{id}/resign): two sides, and nobody else of theirs plays on */
  may_resign?: boolean;
}

export interface MoveRecord {
  ply: number;
  seat: number;
  move: string;
  by: string;
  user_id?: string;
  at: string;
}

export interface GameEventData {
  kind: 'state' | 'move' | 'seat' | 'start' | 'end' | 'rematch' | string;
  move?: MoveRecord;
  view: GameView;
}

export interface SeatRequest {
  user?: string;
  bot?: string;
  open?: boolean;
  /** with open: the username of the player the seat is kept for until the game starts */
  for?: string;
}

export interface NewGame {
  game: GameKind;
  variant?: string;
  players: number;
  teams?: number;
  sequences_to_win?: number;
  seats: SeatRequest[];
  clock?: Clock;
  rated?: boolean;
  block_window_seconds?: number;
  /** a table for the people the creator sends the link to: not in the lobby, not quick-matched */
  private?: boolean;
}

/** QuickMatchRequest is the body of POST /games/quick: the set-up to play now. */
export interface QuickMatchRequest {
  game: GameKind;
  variant?: 'classic' | 'bordered';
  players: number;
  teams?: number;
}

export interface Club {
  id: string;
  name: string;
  description: string;
  owner_id: string;
  member_count: number;
  created_at: string;
  updated_at: string;
  viewer_role?: string;
}

export interface Member {
  user_id: string;
  username: string;
  role: string;
  joined_at: string;
}

export interface Invite {
  club_id: string;
  code: string;
  expires_at: string;
  max_uses: number;
}

export interface Page<T> {
  items: T[];
  next_cursor: string;
}

// ---- ratings (server/openapi/50-ratings.json) ----

export type Pool = 'sequence-2team' | 'sequence-3team' | 'stacks';
export const POOLS: { id: Pool; name: string }[] = [
  { id: 'sequence-2team', name: 'Sequence, 2 teams' },
  { id: 'sequence-3team', name: 'Sequence, 3 teams' },
  { id: 'stacks', name: 'Sequence Stacks' },
];

export interface RatingState {
  pool: string;
  rating: number;
  /** the rating as shown: "1540", or "1540?" while provisional */
  display: string;
  games: number;
  peak: number;
  provisional: boolean;
}

export interface RatingChange {
  game_id: string;
  pool: string;
  before: number;
  after: number;
  k: number;
  at: string;
}

/** A player's rating in one pool with their record there and their place on its leaderboard. */
export interface PoolStanding extends RatingState {
  /** rated games won, lost and drawn, as the rating counted them (an abandoner lost); they sum to games */
  wins: number;
  losses: number;
  draws: number;
  /** the rank GET /leaderboards/{pool} (no filters) shows the player at; null when not on it (provisional, closed) */
  rank: number | null;
}

export interface UserRatings {
  user_id: string;
  /** every pool the player is rated in, on every page */
  pools: PoolStanding[];
  /** one page of the history, newest first */
  history: RatingChange[];
  /** continues history; '' on its last page */
  next_cursor: string;
}

export interface LeaderboardRow extends RatingState {
  rank: number;
  user_id: string;
  username: string;
  kind: string;
}

export interface LeaderboardPage {
  pool: string;
  items: LeaderboardRow[];
  next_cursor: string;
}

// ---- clubs and the caller's lists ----

export interface UserClub extends Club {
  role: 'owner' | 'organizer' | 'member' | string;
}

// ---- competitions (server/openapi/60-competitions.json) ----

export interface League {
  id: string;
  club_id: string;
  name: string;
  description: string;
  created_at: string;
}

export interface Season {
  id: string;
  league_id: string;
  name: string;
  status: 'open' | 'closed' | string;
  created_at: string;
  closed_at?: string;
}

/** LeagueUpdate is PATCH /leagues/{id}: only the fields sent change. */
export interface LeagueUpdate {
  name?: string;
  description?: string;
}

/** SeasonUpdate is PATCH /seasons/{id} (an open season): seasons have only a name. */
export interface SeasonUpdate {
  name?: string;
}

export interface SeasonRow {
  rank: number;
  user_id: string;
  username: string;
  points: number;
  tournaments: number;
  titles: number;
  match_wins: number;
  sequences: number;
}

/** SeasonTieBreak is a tie-break of a season's table (league.SeasonTieBreaks): the SeasonRow column it compares. */
export type SeasonTieBreak = 'titles' | 'match_wins' | 'sequences';

export interface SeasonTable {
  season: Season;
  frozen: boolean;
  /** the tie-break columns, in order */
  tie_breaks: SeasonTieBreak[];
  rows: SeasonRow[];
}

export type Format = 'round-robin' | 'swiss' | 'single-elimination' | 'double-elimination' | 'groups-playoffs';
export type TieBreak = 'buchholz' | 'median-buchholz' | 'sonneborn-berger' | 'head-to-head' | 'wins' | 'sequences';

export interface TournamentConfig {
  game: GameKind;
  variant?: string;
  sequences_to_win?: number;
  team_size: number;
  match_size: number;
  format: Format;
  best_of?: number;
  double?: boolean;
  rounds?: number;
  third_place?: boolean;
  reset?: boolean;
  groups?: number;
  advance?: number;
  tie_breaks?: TieBreak[];
  clock?: Clock;
  fill_level?: string;
  rated: boolean;
  registration_opens?: string;
  registration_closes?: string;
  min_rating?: number;
  max_rating?: number;
  min_games?: number;
  seeding?: 'rating' | 'manual' | 'random';
  no_show?: 'bots' | 'forfeit';
  at_deadline?: 'bots' | 'adjudicate';
  round_gap_seconds?: number;
}

export interface NewTournament extends TournamentConfig {
  club_id: string;
  season_id?: string;
  name: string;
}

export type TournamentStatus = 'registration' | 'running' | 'paused' | 'finished' | 'cancelled';

export interface Tournament extends TournamentConfig {
  id: string;
  club_id: string;
  season_id?: string;
  name: string;
  status: TournamentStatus | string;
  current_round: number;
  /** once started (GET /tournaments/{id}): the rounds it plays, which the page cannot count for every format */
  rounds_planned?: number;
  entries: number;
  created_at: string;
  started_at?: string;
  finished_at?: string;
  /** when an organizer called it off (status cancelled) */
  cancelled_at?: string;
}

/** GET /users/{id}/open-tournaments: a tournament of the user's clubs taking entries */
export interface OpenTournament extends Tournament {
  club_name: string;
  /** why the entry limits (rating band, least rated games) refuse me today */
  barred?: string;
}

export interface UserTournament extends Tournament {
  entry_id: string;
  entry_name: string;
  /** the entry withdrew after the start: nothing left to play */
  withdrawn?: boolean;
  /** the tournament's next round (its first not yet paired), whoever plays in it */
  next_round?: number;
  next_start?: string;
  /** the entry's match being played now (status playing, game_id to play or watch), else its match of the round in play */
  entry_match?: { round: number; match_id: string; status: string; bye: boolean; game_id?: string };
  /** the round the entry plays next, once it is the entry's (if_through: only if it wins its match being played) */
  entry_next_round?: { number: number; starts_at?: string; if_through: boolean };
  /** a knockout: the entry's next match waits for an opponent from a match not yet played */
  entry_waiting?: boolean;
  /** a knockout being played: no match left holds the entry or may */
  knocked_out?: boolean;
}

export interface EntryMember {
  user?: string;
  username?: string;
  bot?: string;
}

export interface Entry {
  id: string;
  name: string;
  captain_id?: string;
  seed: number;
  rating: number;
  status: 'active' | 'withdrawn' | string;
  members: EntryMember[];
}

export interface RoundMatch {
  id: string;
  entries: string[];
  bye: boolean;
  /** playing, finished; cancelled: the tournament was, before the match was decided */
  status: 'playing' | 'finished' | 'cancelled' | string;
  winner?: string;
  game_winners: string[];
  sequences: number[];
  /** the entries found absent under the forfeit no-show policy: they forfeited the rest of the series */
  forfeited?: string[];
  /** a match of three or more finished with no winner: the entries below those level at the top by game wins, who lost it (the others drew) */
  beaten?: string[];
  games: string[];
  /** the entries whose players a fill-in bot stood in for (their seats filled by a bot and abandoned), with the games and players */
  stand_ins?: MatchStandIn[];
}

export interface MatchStandIn {
  entry_id: string;
  /** the match's games where a bot played for the entry's players, in their order */
  games: string[];
  players: { user: string; username: string }[];
}

export interface Round {
  number: number;
  starts_at?: string;
  /** when the round was paired: its start if due then, later if the round before ran on, or when started by hand */
  started_at?: string;
  deadline?: string;
  /** the deadline as scheduled, given only while deadline is that one moved later because the round started late */
  planned_deadline?: string;
  status: 'scheduled' | 'running' | 'finished' | 'cancelled' | string;
  /** why the round could not start when it was due, until it starts or is scheduled again */
  start_error?: string;
  matches: RoundMatch[];
}

export interface ScheduleRequest {
  rounds?: { number: number; starts_at: string; deadline?: string }[];
  first_start?: string;
  /** the series' first round (1 if left out) */
  first_round?: number;
  count?: number;
  interval_seconds?: number;
  deadline_seconds?: number;
}

/** RoundDeadlineRequest moves the deadline of a round not yet over (PATCH /tournaments/{id}/rounds/{n}). */
export interface RoundDeadlineRequest {
  deadline: string;
}

export interface TieBreakValue {
  name: string;
  value: number;
}

/** An entry's matches: a standings row's, and its group stage's alone. */
export interface MatchRecord {
  played: number;
  wins: number;
  draws: number;
  losses: number;
  byes: number;
  sequences: number;
}

export interface Standing extends MatchRecord {
  rank: number;
  entry_id: string;
  name: string;
  points: number;
  tie_breaks: TieBreakValue[];
  /** groups then playoffs, once the groups are drawn: the entry's group and its rank there */
  group?: string;
  group_rank?: number;
  /** groups then playoffs, once the playoffs are drawn: the entry reached them (a tie at the cut goes to the better seed) */
  qualified?: boolean;
  /** with group: its matches in the group stage alone (played … sequences above count the playoffs too) */
  group_stage?: MatchRecord;
  /** the entry withdrew after the start: it keeps its results and place */
  withdrawn?: boolean;
}

// GET /tournaments/{id}/bracket (league/postgres/tournaments_views.go)

export interface BracketEntry {
  id: string;
  name: string;
  seed: number;
}

export interface BracketSlot {
  /** seed, winner, loser or bye in a bracket; entry in a round-based format */
  source: 'seed' | 'winner' | 'loser' | 'bye' | 'entry' | string;
  seed?: number;
  /** the match a winner/loser slot comes from */
  match?: string;
  entry: BracketEntry | null;
  /** known to hold nobody (a bye, or the loser of a walkover) */
  empty?: boolean;
}

export interface BracketMatch {
  id: string;
  section?: string;
  round: number;
  position?: number;
  /** pending, ready, done, walkover, void, skipped; rounds: playing, finished, bye; either: cancelled (the tournament was, before it was played) */
  state: string;
  slots: BracketSlot[] | null;
  winner?: string;
  game_winners: string[] | null;
  /** as RoundMatch's: who lost a match with no winner, below those level at the top */
  beaten?: string[];
  games: string[] | null;
  reset?: boolean;
}

export interface BracketRound {
  section?: string;
  number: number;
  name: string;
  matches: BracketMatch[];
}

export interface BracketView {
  format: Format | string;
  kind: 'bracket' | 'rounds';
  match_size: number;
  rounds: BracketRound[];
  playoffs?: BracketRound[];
  champion?: string;
}

// ---- club management (server/openapi/30-clubs.json) ----

export type ClubRole = 'owner' | 'organizer' | 'member';

/** ClubUpdate is PATCH /clubs/{id}: only the fields sent change; owner_id transfers the club. */
export interface ClubUpdate {
  name?: string;
  description?: string;
  owner_id?: string;
}

/** MemberRoleUpdate is PATCH /clubs/{id}/members/{user_id} (ownership moves by ClubUpdate.owner_id). */
export interface MemberRoleUpdate {
  role: Exclude<ClubRole, 'owner'>;
}
