-- +goose Up
-- A tournament's members and a person's entries had no index of their
-- own: the one that starts with tournament_id (entry_members_person_key)
-- is partial (people, not bots), so reading a tournament's entries with
-- their members, its standings, bracket and CSV, a season's table, and a
-- person's tournaments on Home scanned the whole table. At 500,000
-- members (5,000 old tournaments of 100; EXPLAIN ANALYZE) a tournament's
-- members took 41-43 ms and a person's tournaments 43 ms; with these
-- indexes 0.26-0.29 and 0.64 ms. The first also gives the members in
-- their order. (The league leaderboard's filter names its tournaments,
-- leagueMembersFilter: joined, the planner took the second index to probe
-- every rated player's entries, 600-790 ms.)
CREATE INDEX entry_members_tournament_idx ON entry_members (tournament_id, entry_id, position);
CREATE INDEX entry_members_user_idx ON entry_members (user_id, tournament_id) WHERE user_id IS NOT NULL;

-- +goose Down
DROP INDEX entry_members_user_idx;
DROP INDEX entry_members_tournament_idx;
