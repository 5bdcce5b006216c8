-- +goose Up
-- A rematch keeps the other people's seats for them for a while
-- (kept_for, kept_until): nobody else may take such a seat before then, so
-- a spectator of the finished game cannot sit down in a player's place.
ALTER TABLE game_seats
	ADD COLUMN kept_for uuid REFERENCES users (id) ON DELETE SET NULL,
	ADD COLUMN kept_until timestamptz;

-- +goose Down
ALTER TABLE game_seats DROP COLUMN kept_for, DROP COLUMN kept_until;
