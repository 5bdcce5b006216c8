-- +goose Up
-- A tournament an organizer calls off is 'cancelled', and says when in
-- cancelled_at: its games still being played were aborted then, and
-- nothing of it is played any more. The status CHECK of 00005 is
-- replaced.
ALTER TABLE tournaments DROP CONSTRAINT tournaments_status_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_status_check
    CHECK (status IN ('registration', 'running', 'paused', 'finished', 'cancelled'));
ALTER TABLE tournaments ADD COLUMN cancelled_at timestamptz;

-- +goose Down
-- The old schema has no word for a cancelled tournament; the nearest is
-- one that is over, at the time it was called off.
UPDATE tournaments SET status = 'finished', finished_at = COALESCE(finished_at, cancelled_at)
    WHERE status = 'cancelled';
ALTER TABLE tournaments DROP COLUMN cancelled_at;
ALTER TABLE tournaments DROP CONSTRAINT tournaments_status_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_status_check
    CHECK (status IN ('registration', 'running', 'paused', 'finished'));
