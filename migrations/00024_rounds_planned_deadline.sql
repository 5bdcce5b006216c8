-- +goose Up
-- A round paired after its scheduled start keeps its planned length: its
-- deadline moves later by the lateness, in the transaction that pairs it.
-- planned_deadline is the deadline as it was before that move, so that the
-- rounds view and the web app can say the deadline moved and why; an
-- organizer's later move of the deadline clears it (the organizer's time
-- is then the plan). NULL: the deadline is as planned.
ALTER TABLE rounds ADD COLUMN planned_deadline timestamptz;

-- +goose Down
ALTER TABLE rounds DROP COLUMN planned_deadline;
