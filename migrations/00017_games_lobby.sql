-- +goose Up
-- GET /games lists the games waiting for players (status open) and those
-- being played (active), newest first, a page at a time: a partial index
-- per list serves its order without sorting every live game. Moves change
-- neither status nor created_at, so they stay HOT updates.
CREATE INDEX games_open_newest ON games (created_at DESC, id DESC) WHERE status = 'open';
CREATE INDEX games_active_newest ON games (created_at DESC, id DESC) WHERE status = 'active';

-- +goose Down
DROP INDEX games_active_newest;
DROP INDEX games_open_newest;
