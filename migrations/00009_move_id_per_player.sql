-- +goose Up
-- A move_id is an idempotency key for one player's retries, not a name for
-- the move in the game: two players who both count their moves "1", "2", …
-- must not collide. The key is per (game, user), as the lookup of an
-- earlier move with the same id is (loadGame). The new index is built
-- before the old one goes, so no moment is left without one.
CREATE UNIQUE INDEX game_moves_user_move_id_key ON game_moves (game_id, user_id, move_id) WHERE move_id IS NOT NULL;
DROP INDEX game_moves_move_id_key;

-- +goose Down
-- Ids two players of a game both used cannot all stay under the per-game
-- key: each id is kept on its first move and dropped from the later ones
-- (they only lose their idempotent retry).
UPDATE game_moves m SET move_id = NULL
WHERE m.move_id IS NOT NULL AND EXISTS (
    SELECT 1 FROM game_moves o WHERE o.game_id = m.game_id AND o.move_id = m.move_id AND o.ply < m.ply);
CREATE UNIQUE INDEX game_moves_move_id_key ON game_moves (game_id, move_id) WHERE move_id IS NOT NULL;
DROP INDEX game_moves_user_move_id_key;
