-- +goose Up
-- bot_due_at is when a bot's bot:move task for the game's current ply is
-- due (NULL when no bot is to act). The reconciliation sweep schedules the
-- task again when it is long overdue, as it does for turn timers: in an
-- untimed game a lost bot:move would otherwise leave the game waiting for
-- ever. It is not indexed, so that moves stay HOT updates (00006); the
-- sweep reaches active games through games_status_idx.
ALTER TABLE games ADD COLUMN bot_due_at timestamptz;

-- +goose Down
ALTER TABLE games DROP COLUMN bot_due_at;
