-- +goose Up
-- The lobby's filters (GET /games?game=&players=) and the quick match's
-- search for the oldest table of a set-up read the live games of one
-- kind and table size in the order of their making. games_status_idx
-- (status, created_at DESC) would filter them out of every live game of
-- the status, one heap fetch a game, however few match.
CREATE INDEX games_lobby_setup_idx ON games (status, kind, players, created_at DESC, id DESC)
	WHERE status IN ('open', 'active');

-- +goose Down
DROP INDEX games_lobby_setup_idx;
