-- +goose Up
-- A player's games, newest first (GET /users/{id}/games), had no index in
-- the order it pages: for a player with 50,000 games PostgreSQL read the
-- whole games table and sorted it (0.6-1.0 s a page at 1.6 M games, the
-- scale audit); with this index it walks games newest first and probes the
-- player's seats (53 ms). Players with few games still start from their
-- seats (game_seats_user_idx).
CREATE INDEX games_newest_idx ON games (created_at DESC, id DESC);

-- +goose Down
DROP INDEX games_newest_idx;
