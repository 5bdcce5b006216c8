-- +goose Up
-- The closed accounts, which a rank (a player's own, and the page of the
-- leaderboard around them) leaves out of its count of the players above:
-- the count's anti-join hashes them from this index instead of reading
-- every account to find the few closed ones (BenchmarkPlayerRank: a rank
-- near the top of 100,000 players took 11-15 ms, most of it that read;
-- 1.1 ms with this index).
CREATE INDEX users_closed_idx ON users (id) WHERE deleted_at IS NOT NULL;

-- +goose Down
DROP INDEX users_closed_idx;
