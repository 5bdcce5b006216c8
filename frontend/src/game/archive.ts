// The archive of a finished game (GET /games/{id}/archive) and the
// positions of the replay (GET /games/{id}/vector?ply=N).
import type { AbandonedWhy, Chips, Game, GameKind, MoveRecord, StacksPile } from '../api/types';

type Obj = Record<string, unknown>;

function field(o: unknown, name: string): unknown {
  return o && typeof o === 'object' ? (o as Obj)[name] : undefined;
}
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown, d = 0) => (typeof v === 'number' ? v : d);

/** GET /games/{id}/archive as the API answers it. */
export interface ArchiveDoc {
  game: Game;
  setup: { game: GameKind; variant?: string; players: number; teams: number; sequences_to_win?: number; play_cap?: number };
  seed: string;
  seed_hash: string;
  moves: MoveRecord[];
  final_state?: unknown;
}

export interface ArchiveSeat {
  seat: number;
  team: number;
  username: string;
  userID: string;
  bot: string;
  /** a fill-in bot took the seat over (its player abandoned it, or it was open) */
  fillIn: boolean;
  /** its player left the game to the fill-in bot (after max_timeouts, "Leave the game", or a no-show): rated as losing it */
  abandoned: boolean;
  /** why its player abandoned it (absent: not abandoned, or before the server kept why) */
  abandonedWhy?: AbandonedWhy;
}

export interface Archive {
  id: string;
  game: GameKind;
  variant: string;
  players: number;
  teams: number;
  seats: ArchiveSeat[];
  result: string;
  winner: number | null;
  /** 'play', 'adjudication' (a round's deadline) or '' when the server does not say. */
  endedBy: string;
  /** the game was rated */
  rated: boolean;
  seed: string;
  seedHash: string;
  startedAt: string;
  finishedAt: string;
  moves: MoveRecord[];
  /** the final position (the archive's final_state), for what won the game */
  final?: Position;
  /** the game's cap of plays (Sequence) or turns (Stacks); 0 when the setup does not say */
  playCap: number;
}

export function normalizeArchive(doc: ArchiveDoc): Archive {
  const g = doc.game;
  return {
    id: g.id,
    game: doc.setup.game === 'stacks' ? 'stacks' : 'sequence',
    variant: doc.setup.variant ?? g.variant ?? '',
    players: doc.setup.players,
    teams: doc.setup.teams,
    seats: g.seats.map((s) => ({
      seat: s.seat,
      team: s.team,
      username: s.user?.username ?? '',
      userID: s.user?.id ?? '',
      bot: s.bot ?? '',
      fillIn: !!s.filled_by_bot,
      abandoned: !!s.abandoned,
      abandonedWhy: s.abandoned_why,
    })),
    result: g.result?.status ?? '',
    winner: g.result?.winner ?? null,
    endedBy: g.ended_by ?? '',
    rated: !!g.rated,
    seed: doc.seed,
    seedHash: doc.seed_hash,
    startedAt: g.started_at ?? '',
    finishedAt: g.finished_at ?? '',
    moves: doc.moves.map((m) => ({ ...m, user_id: m.user_id || undefined })),
    final: doc.final_state ? positionFromVector(doc.final_state) : undefined,
    playCap: doc.setup.play_cap ?? 0,
  };
}

/** A replay position: what the vector at a ply shows, every hand included. */
export interface SequencePosition {
  game: 'sequence';
  board: string[];
  sequences: Record<string, [string, string][]>;
  hands: string[][];
  discards: string[][];
  deckSize: number;
  turn: number;
  status: string;
  winner: string | null;
}

export interface StacksPosition {
  game: 'stacks';
  piles: StacksPile[];
  hands: string[][];
  discards: string[][];
  chips: Chips[];
  supply: Chips;
  deckSize: number;
  setaside: string[];
  turn: number;
  direction: number;
  status: string;
  winner: number | null;
}

export type Position = SequencePosition | StacksPosition;

export function positionFromVector(v: unknown): Position {
  const p = (field(v, 'position') ?? {}) as Obj;
  const ex = (field(v, 'expect') ?? {}) as Obj;
  const deck = (p.deck as unknown[] | undefined) ?? [];
  const deckSize = typeof ex.deck_size === 'number' ? ex.deck_size : deck.length;
  if (field(v, 'game') === 'stacks') {
    return {
      game: 'stacks',
      piles: (p.piles as StacksPile[]) ?? [],
      hands: (p.hands as string[][]) ?? [],
      discards: (p.discards as string[][]) ?? [],
      chips: (p.chips as Chips[]) ?? [],
      supply: (p.supply as Chips) ?? { red: 20, blue: 20 },
      deckSize,
      setaside: (p.setaside as string[]) ?? [],
      turn: num(p.turn),
      direction: num(p.direction, 1),
      status: str(ex.status) || str(p.status) || 'playing',
      winner: typeof ex.winner === 'number' ? ex.winner : null,
    };
  }
  return {
    game: 'sequence',
    board: (p.board as string[]) ?? [],
    sequences: (p.sequences as Record<string, [string, string][]>) ?? {},
    hands: (p.hands as string[][]) ?? [],
    discards: (p.discards as string[][]) ?? [],
    deckSize,
    turn: num(p.turn),
    status: str(ex.status) || 'playing',
    winner: typeof ex.winner === 'string' ? ex.winner : null,
  };
}

/** hexToBytes reads the archive's hex seed. */
export function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

/** SeedCheck is what checking the revealed seed found: it matches, it does not, or it could not be checked (no Web Crypto, no seed or hash). */
export type SeedCheck = 'match' | 'mismatch' | 'unchecked';

/** verifySeed checks that the revealed seed hashes to the hash published at the start. */
export async function verifySeed(seed: string, hash: string): Promise<SeedCheck> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle || !seed || !hash) return 'unchecked';
  const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('');
  const want = hash.toLowerCase();
  if (/^[0-9a-f]+$/i.test(seed) && seed.length % 2 === 0 && hex(await subtle.digest('SHA-256', hexToBytes(seed) as BufferSource)) === want) return 'match';
  return hex(await subtle.digest('SHA-256', new TextEncoder().encode(seed))) === want ? 'match' : 'mismatch';
}

/** seedCheckText says what checking the revealed seed against the hash published at the start found. */
export function seedCheckText(check: SeedCheck): string {
  if (check === 'match') return '✓ matches the hash published at the start';
  if (check === 'mismatch') return '✗ does NOT match the hash published at the start: this is not the seed the game was dealt from';
  return '(this browser could not check it against the published hash)';
}
