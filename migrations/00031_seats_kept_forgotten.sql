-- +goose Up
-- A game that starts or is called off now forgets the seats it kept for
-- players (forgetWaiting); this clears those that games which started or
-- ended before kept, so that game_seats_kept_for_idx holds only the seats
-- of tables still waiting.
UPDATE game_seats s SET kept_for = NULL, kept_until = NULL
FROM games g
WHERE g.id = s.game_id AND g.status <> 'open' AND (s.kept_for IS NOT NULL OR s.kept_until IS NOT NULL);

-- +goose Down
-- Nothing to restore: who a finished game's seat was once kept for is not
-- read anywhere.
SELECT 1;
