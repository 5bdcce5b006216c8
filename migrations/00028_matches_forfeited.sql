-- +goose Up
-- The entries of a match found absent under the forfeit no-show policy (a
-- fill-in bot played every seat of theirs that had a turn). An entry found
-- absent forfeits the rest of its series: no later game of the match seats
-- it, and the match is decided at once for the one entry left present. The
-- standings read it too: a forfeited match was not played, and counts in
-- the tie-breaks as FIDE counts unplayed rounds (league/competition).
ALTER TABLE matches ADD COLUMN forfeited jsonb NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE matches DROP COLUMN forfeited;
