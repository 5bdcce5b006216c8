-- +goose Up
-- turn_seat is the seat whose turn it is in an active game (the engine's
-- Turn(): in a Stacks block window still the completer, whose turn goes on
-- once the window closes), NULL in a game that is not being played. Lists
-- of games (GET /users/{id}/games) show it without replaying any game.
--
-- Every save of an active game's turn writes it. It cannot be computed
-- here (a Sequence turn is one or two plies, a Stacks turn many), so the
-- games active at this migration keep NULL until the sweep (every 30 s,
-- Games.Reconcile) replays each and fills it in, or their next turn is
-- saved, whichever comes first. Adding a nullable column rewrites nothing,
-- and it is not indexed, so moves stay HOT updates.
ALTER TABLE games ADD COLUMN turn_seat integer CONSTRAINT games_turn_seat_check CHECK (turn_seat >= 0);

-- +goose Down
ALTER TABLE games DROP COLUMN turn_seat;
