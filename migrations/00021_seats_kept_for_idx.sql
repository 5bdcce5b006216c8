-- +goose Up
-- A seat may be kept for a named player until the game starts (POST /games
-- {"seats": [{"open": true, "for": "bob"}]}), and GET /users/{id}/games
-- ?invited=true lists a player's games with such a seat: this index finds
-- them among the few seats kept at any time, not every seat.
CREATE INDEX game_seats_kept_for_idx ON game_seats (kept_for) WHERE kept_for IS NOT NULL;

-- +goose Down
DROP INDEX game_seats_kept_for_idx;
