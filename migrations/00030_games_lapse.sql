-- +goose Up
-- An open casual table that nobody joined, nor was at, within the
-- open-table lifetime (SEQLEAGUE_OPEN_TABLE_LIFETIME) is aborted by the
-- sweep, and ended_by says so: 'lapse', where its creator's cancel says
-- 'abort'. The CHECK of 00010 is replaced.
ALTER TABLE games DROP CONSTRAINT games_ended_by_check;
ALTER TABLE games ADD CONSTRAINT games_ended_by_check CHECK (ended_by IN ('play', 'adjudication', 'abort', 'lapse'));
-- When a seat's presence mark ran out, once the sweep of lapsed marks
-- cleared it (here_until itself is cleared, to keep game_seats_here_idx
-- the size of the people here now): "was somebody at the table within
-- the lifetime" reads it. It is written in the same update as the
-- clearing, and is in no index, so a heartbeat stays a HOT update.
ALTER TABLE game_seats ADD COLUMN was_here_until timestamptz;

-- +goose Down
ALTER TABLE game_seats DROP COLUMN was_here_until;
UPDATE games SET ended_by = 'abort' WHERE ended_by = 'lapse';
ALTER TABLE games DROP CONSTRAINT games_ended_by_check;
ALTER TABLE games ADD CONSTRAINT games_ended_by_check CHECK (ended_by IN ('play', 'adjudication', 'abort'));
