-- +goose Up
-- A rematch everyone left before it started is aborted, and the game it
-- was the rematch of forgets it (rematch_id = NULL), so that its page no
-- longer says "A rematch is set up" nor sends spectators to the aborted
-- game: this index finds that game among the few with a rematch.
CREATE INDEX games_rematch_idx ON games (rematch_id) WHERE rematch_id IS NOT NULL;

-- +goose Down
DROP INDEX games_rematch_idx;
