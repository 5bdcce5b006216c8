-- +goose Up
-- rematch_id names the game a finished casual game's players were offered
-- to play next (POST /games/{id}/rematch): the first player to ask makes
-- it, the others are seated in it.
ALTER TABLE games ADD COLUMN rematch_id uuid REFERENCES games (id) ON DELETE SET NULL;

-- +goose Down
ALTER TABLE games DROP COLUMN rematch_id;
