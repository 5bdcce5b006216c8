-- +goose Up
-- revision counts the changes to a game's row and seats. A person's move
-- reads the game without a lock and stores itself with one statement that
-- applies only if the revision is still the one it read (optimistic
-- concurrency): two round trips and no row lock for the commonest write.
ALTER TABLE games ADD COLUMN revision bigint NOT NULL DEFAULT 0;

-- A live game's row is updated on every move. Leaving a quarter of each
-- page free lets PostgreSQL keep those updates on the same page (HOT
-- updates: none of the columns a move changes is indexed), so a move
-- writes no index entries for the game row.
ALTER TABLE games SET (fillfactor = 75);

-- +goose Down
ALTER TABLE games RESET (fillfactor);
ALTER TABLE games DROP COLUMN revision;
