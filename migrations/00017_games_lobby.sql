-- +goose Up
-- A player may have a bounded number of casual games waiting for players
-- or in play (Games.Create counts them at every new game): the count reads
-- this index of the live games by their creator, not every live game.
-- (The lobby, GET /games, needs no index of its own: games_status_idx,
-- on (status, created_at DESC), serves its order.)
CREATE INDEX games_live_by_creator ON games (created_by) WHERE status IN ('open', 'active');

-- +goose Down
DROP INDEX games_live_by_creator;
