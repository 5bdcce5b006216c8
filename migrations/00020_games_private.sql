-- +goose Up
-- A private game (POST /games {"private": true}) is a table for the people
-- its creator sends the link to: the lobby (GET /games) never lists it and
-- a quick match never seats a stranger at it. The lobby's partial index
-- holds the public live games only, so its plans stay as they were.
ALTER TABLE games ADD COLUMN private boolean NOT NULL DEFAULT false;
DROP INDEX games_lobby_setup_idx;
CREATE INDEX games_lobby_setup_idx ON games (status, kind, players, created_at DESC, id DESC)
	WHERE status IN ('open', 'active') AND NOT private;

-- +goose Down
DROP INDEX games_lobby_setup_idx;
CREATE INDEX games_lobby_setup_idx ON games (status, kind, players, created_at DESC, id DESC)
	WHERE status IN ('open', 'active');
ALTER TABLE games DROP COLUMN private;
