-- +goose Up
-- Who created a club, so that one account's creations can be counted
-- against its daily budget (the owner may change hands; the creator does
-- not). Existing clubs are credited to their owner of now, which matters
-- only for the clubs of the last day.
ALTER TABLE clubs ADD COLUMN created_by uuid REFERENCES users (id);
UPDATE clubs SET created_by = m.user_id FROM club_members m WHERE m.club_id = clubs.id AND m.role = 'owner';
-- A budget reads an account's creations of the last day, newest first.
CREATE INDEX clubs_created_by_idx ON clubs (created_by, created_at);
CREATE INDEX tournaments_created_by_idx ON tournaments (created_by, created_at);

-- +goose Down
DROP INDEX tournaments_created_by_idx;
DROP INDEX clubs_created_by_idx;
ALTER TABLE clubs DROP COLUMN created_by;
