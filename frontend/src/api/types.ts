// The API's JSON shapes (server/openapi/*.json, server/*.go).

export interface User {
  id: string;
  username: string;
  kind: 'human' | 'bot' | string;
  bot_level?: string;
  email?: string;
  is_admin: boolean;
  created_at: string;
}

export interface TokenPair {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
}

export interface Clock {
  turn_seconds?: number;
  bank_seconds?: number;
  increment_seconds?: number;
}

export interface Seat {
  seat: number;
  team: number;
  user: { id: string; username: string } | null;
  bot?: string;
  open: boolean;
  filled_by_bot: boolean;
  abandoned: boolean;
  bank_ms?: number;
}

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
  created_at: string;
  scheduled_start?: string;
  started_at?: string;
  finished_at?: string;
  seed_hash: string;
  seed?: string;
  ply: number;
  turn_deadline?: string;
  result?: { status: 'finished' | 'drawn' | string; winner: number | null };
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
  phase: 'play' | 'window' | string;
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
  kind: 'state' | 'move' | 'seat' | 'start' | 'end' | string;
  move?: MoveRecord;
  view: GameView;
}

export interface SeatRequest {
  user?: string;
  bot?: string;
  open?: boolean;
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
