-- +goose Up
-- A person seated at an active game is seen while they follow it: their
-- event stream moves seen_until on (three heartbeats ahead) at its opening
-- and at its heartbeats, and the game's view says a person's seat whose
-- mark ran out (or was never set) is away: a player who closed the page
-- or lost the connection, whose turn the autopilot is going to play.
-- Neither column is in an index, so a heartbeat's write stays a HOT update
-- (see 00027); the workers' sweep finds lapsed marks through the active
-- games (games_status_idx), which are few next to the seats of all games.
-- away_told: the sweep has told the game's viewers (a seat event) that the
-- seat is away; a mark written again clears it (and tells them it is back).
-- Both are metadata-only additions: no rewrite of game_seats.
ALTER TABLE game_seats ADD COLUMN seen_until timestamptz;
ALTER TABLE game_seats ADD COLUMN away_told boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE game_seats DROP COLUMN away_told;
ALTER TABLE game_seats DROP COLUMN seen_until;
