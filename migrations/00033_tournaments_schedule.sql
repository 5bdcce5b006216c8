-- +goose Up
-- The rounds of a round robin, or of a group stage, as drawn when the
-- tournament started (competition.DrawSchedule). They were drawn again
-- from the entries for every round, so a change to the schedule search
-- between two rounds would reshuffle a tournament being played. Those
-- started before this column keep being drawn again (NULL).
ALTER TABLE tournaments ADD COLUMN schedule jsonb;

-- +goose Down
ALTER TABLE tournaments DROP COLUMN schedule;
