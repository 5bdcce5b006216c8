-- +goose Up
-- A person waiting at an open table has their presence mark (here_until)
-- moved on at every heartbeat of the table's event stream, every 15 s for
-- every such viewer. With here_until in an index (game_seats_here_idx) no
-- such write could be a HOT update: each was a new row version and a new
-- entry in every index of game_seats (0 % HOT; 952 KiB of indexes and
-- 616 KiB of table for 200 seats after 20,000 heartbeats). The index now
-- holds the seats marked at all, named by a column that changes only when
-- a mark is set or cleared (a sitting down, a leaving, the start, the
-- sweep of lapsed marks), so a heartbeat renewing a mark rewrites no index.
-- The people marked are few whatever the number of tables left open, and
-- lapsed marks are cleared by the sweep every 30 s: the lobby and quick
-- matches read them from here, and check the time on each.
-- fillfactor 90 leaves room on each page for a renewed mark's new version.
-- Adding the stored column rewrites game_seats under its lock: 2.9 s for a
-- million seats, measured.
ALTER TABLE game_seats SET (fillfactor = 90);
ALTER TABLE game_seats ADD COLUMN here boolean GENERATED ALWAYS AS (here_until IS NOT NULL) STORED;
DROP INDEX game_seats_here_idx;
CREATE INDEX game_seats_here_idx ON game_seats (game_id) WHERE here;

-- +goose Down
ALTER TABLE game_seats RESET (fillfactor);
DROP INDEX game_seats_here_idx;
ALTER TABLE game_seats DROP COLUMN here;
CREATE INDEX game_seats_here_idx ON game_seats (here_until, game_id) WHERE here_until IS NOT NULL;
