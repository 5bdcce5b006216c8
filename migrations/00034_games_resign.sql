-- +goose Up
-- A game of two sides may be resigned (POST /games/{id}/resign): it ends
-- at once, the resigning side losing, and ended_by says so: 'resign'. The
-- CHECK of 00030 is replaced.
ALTER TABLE games DROP CONSTRAINT games_ended_by_check;
ALTER TABLE games ADD CONSTRAINT games_ended_by_check CHECK (ended_by IN ('play', 'adjudication', 'abort', 'lapse', 'resign'));

-- +goose Down
-- A resigned game was won by the other side, whose result stands; without
-- the word it reads as a game the rules ended.
UPDATE games SET ended_by = 'play' WHERE ended_by = 'resign';
ALTER TABLE games DROP CONSTRAINT games_ended_by_check;
ALTER TABLE games ADD CONSTRAINT games_ended_by_check CHECK (ended_by IN ('play', 'adjudication', 'abort', 'lapse'));
