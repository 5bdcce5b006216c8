-- +goose Up
-- A player's rating history is read newest first across every pool, a page
-- at a time (GET /users/{id}/ratings): (user_id, seq) serves that order
-- without sorting all of a long career; the (user_id, pool, seq) index
-- serves the one-pool filter.
CREATE INDEX rating_changes_user_seq_idx ON rating_changes (user_id, seq);

-- +goose Down
DROP INDEX rating_changes_user_seq_idx;
