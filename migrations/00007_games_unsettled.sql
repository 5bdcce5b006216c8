-- +goose Up
-- The reconciliation sweep looks for finished games whose game:settle task
-- never ran (lost with Redis, say). A partial index keeps that look cheap
-- however many games the archive holds; its columns change only when a game
-- ends or is settled, never on a move, so moves stay HOT updates.
CREATE INDEX games_unsettled_idx ON games (finished_at) WHERE status = 'finished' AND settled_at IS NULL;

-- +goose Down
DROP INDEX games_unsettled_idx;
