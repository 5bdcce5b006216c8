-- +goose Up
-- Why a player's seat was abandoned to a fill-in bot: they left the game,
-- their turns timed out max_timeouts times in a row, they never moved in a
-- tournament game by the round's deadline, or their account was closed.
-- The game said only "abandoned", and the web app had to name every cause
-- the game allowed. Seats abandoned before this column stay NULL (unknown).
ALTER TABLE game_seats ADD COLUMN abandoned_why text
  CHECK (abandoned_why IN ('left', 'timed_out', 'no_show', 'account_closed'));

-- +goose Down
ALTER TABLE game_seats DROP COLUMN abandoned_why;
