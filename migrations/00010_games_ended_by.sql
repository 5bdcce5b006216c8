-- +goose Up
-- ended_by says how a game ended, which its result does not: 'play' (the
-- rules ended it), 'adjudication' (a tournament round's deadline scored
-- the board as it stood; the rule vector of such a game shows it still
-- being played) or 'abort'. NULL while the game is open or active.
--
-- Every game already ended is taken to have ended by play, bar the
-- aborted ones. The column is added with a default so that the existing
-- rows get 'play' without a rewrite of the table, the default is dropped
-- at once (games that have not ended have none), and only the few rows
-- not finished are updated. It is not indexed, so moves stay HOT updates.
ALTER TABLE games ADD COLUMN ended_by text DEFAULT 'play'
    CONSTRAINT games_ended_by_check CHECK (ended_by IN ('play', 'adjudication', 'abort'));
ALTER TABLE games ALTER COLUMN ended_by DROP DEFAULT;
UPDATE games SET ended_by = NULL WHERE status IN ('open', 'active');
UPDATE games SET ended_by = 'abort' WHERE status = 'aborted';

-- +goose Down
ALTER TABLE games DROP COLUMN ended_by;
