-- +goose Up
-- Why a round's start last failed for a reason no retry can cure (too few
-- entries, a set-up the game layer refuses), so that organizers see it
-- beside the round instead of only in the server's log. NULL once the round
-- is paired or scheduled again.
ALTER TABLE rounds ADD COLUMN start_error text;

-- +goose Down
ALTER TABLE rounds DROP COLUMN start_error;
