-- +goose Up
-- An organizer's change to a published round's times (rescheduled, or its
-- deadline moved) counts one revision, stamped when it was made, so that
-- calendar.ics raises the event's SEQUENCE and subscribed calendars take
-- the new times over the copy they hold.
ALTER TABLE rounds ADD COLUMN revision integer NOT NULL DEFAULT 0, ADD COLUMN revised_at timestamptz;

-- +goose Down
ALTER TABLE rounds DROP COLUMN revision, DROP COLUMN revised_at;
