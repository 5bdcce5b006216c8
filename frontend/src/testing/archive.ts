import type { ArchiveDoc } from '../game/archive';

/**
 * finishedArchive is GET /games/{id}/archive as the server answers it
 * (server/games.go archiveResponse) for a short two-player Sequence game
 * ann won against a random bot: two moves, unrated.
 */
export const finishedArchive: ArchiveDoc = {
  game: {
    id: 'g1', game: 'sequence', variant: 'classic', players: 2, teams: 2, status: 'finished', rated: false,
    clock: { turn_seconds: 60 }, created_at: 't', seed_hash: 'x', ply: 2,
    started_at: '2026-01-01T00:00:00Z', finished_at: '2026-01-01T00:05:00Z',
    result: { status: 'finished', winner: 0 },
    seats: [
      { seat: 0, team: 0, user: { id: 'u1', username: 'ann' }, open: false, filled_by_bot: false, abandoned: false },
      { seat: 1, team: 1, user: { id: 'b1', username: 'bot-random' }, bot: 'random', open: false, filled_by_bot: false, abandoned: false },
    ],
  },
  setup: { game: 'sequence', variant: 'classic', players: 2, teams: 2 },
  seed: 'ab', seed_hash: 'x',
  moves: [
    { ply: 0, seat: 0, move: 'JC@f1', by: 'player', user_id: 'u1', at: 't0' },
    { ply: 1, seat: 1, move: 'AH@g5', by: 'bot', user_id: '', at: 't1' },
  ],
};
