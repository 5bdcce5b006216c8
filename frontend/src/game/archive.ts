// The archive of a finished game (GET /games/{id}/archive) and the
// positions of the replay (GET /games/{id}/vector?ply=N). The archive's
// record nests the stored game with Go field names (ID, Seats, …); read
// both spellings so a later cleanup of the server's JSON does not break
// the replay.
import type { Chips, MoveRecord, StacksPile } from '../api/types';

type Obj = Record<string, unknown>;

function field(o: unknown, ...names: string[]): unknown {
  if (!o || typeof o !== 'object') return undefined;
  for (const n of names) {
    if (n in (o as Obj)) return (o as Obj)[n];
  }
  return undefined;
}
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown, d = 0) => (typeof v === 'number' ? v : d);

export interface ArchiveSeat {
  seat: number;
  team: number;
  username: string;
  userID: string;
  bot: string;
}

export interface Archive {
  id: string;
  game: 'sequence' | 'stacks';
  variant: string;
  players: number;
  teams: number;
  seats: ArchiveSeat[];
  result: string;
  winner: number | null;
  seed: string;
  seedHash: string;
  startedAt: string;
  finishedAt: string;
  moves: MoveRecord[];
}

export function normalizeArchive(doc: unknown): Archive {
  const g = field(doc, 'game', 'Game');
  const setup = field(doc, 'setup', 'Setup');
  const seats = (field(g, 'seats', 'Seats') as unknown[] | undefined) ?? [];
  const moves = (field(doc, 'moves', 'Moves') as unknown[] | undefined) ?? [];
  const winner = field(g, 'winner', 'Winner');
  const game = str(field(setup, 'game', 'Game')) || str(field(g, 'game', 'Game'));
  return {
    id: str(field(g, 'id', 'ID')),
    game: game === 'stacks' ? 'stacks' : 'sequence',
    variant: str(field(setup, 'variant', 'Variant')) || str(field(g, 'variant', 'Variant')),
    players: num(field(setup, 'players', 'Players'), seats.length),
    teams: num(field(setup, 'teams', 'Teams'), 2),
    seats: seats.map((s, i) => {
      const u = field(s, 'user') as Obj | undefined;
      return {
        seat: num(field(s, 'seat', 'Seat'), i),
        team: num(field(s, 'team', 'Team'), i),
        username: str(field(s, 'Username', 'username')) || str(u?.username),
        userID: str(field(s, 'UserID', 'user_id')) || str(u?.id),
        bot: str(field(s, 'bot', 'Bot')),
      };
    }),
    result: str(field(g, 'ResultStatus', 'result_status')) || str(field(field(g, 'result'), 'status')),
    winner: typeof winner === 'number' ? winner : ((field(field(g, 'result'), 'winner') as number | null | undefined) ?? null),
    seed: str(field(doc, 'seed', 'Seed')),
    seedHash: str(field(doc, 'seed_hash', 'SeedHash')),
    startedAt: str(field(g, 'started_at', 'StartedAt')),
    finishedAt: str(field(g, 'finished_at', 'FinishedAt')),
    moves: moves.map((m, i) => ({
      ply: num(field(m, 'ply', 'Ply'), i),
      seat: num(field(m, 'seat', 'Seat')),
      move: str(field(m, 'move', 'Move')),
      by: str(field(m, 'by', 'Actor', 'actor')),
      user_id: str(field(m, 'user_id', 'UserID')) || undefined,
      at: str(field(m, 'at', 'At')),
    })),
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

/** verifySeed checks that the revealed seed hashes to the hash published at the start. */
export async function verifySeed(seed: string, hash: string): Promise<boolean> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle || !seed || !hash || !/^[0-9a-f]+$/i.test(seed)) return false;
  const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('');
  const bytes = hexToBytes(seed);
  if (hex(await subtle.digest('SHA-256', bytes as BufferSource)) === hash.toLowerCase()) return true;
  return hex(await subtle.digest('SHA-256', new TextEncoder().encode(seed))) === hash.toLowerCase();
}
