-- +goose Up
-- A casual table is offered to strangers (the lobby, quick matches) only
-- while every person seated at it is here: following the table's event
-- stream, which moves here_until on at every heartbeat, or just sat down
-- (a short grace for a table made through the API, or by a browser that
-- has not opened its stream yet). A player who closed the tab lapses by
-- itself, and nobody is seated across from an absent player any more.
-- NULL: not here (every seat from before this column, bots and open seats).
ALTER TABLE game_seats ADD COLUMN here_until timestamptz;
-- The lobby and the quick match start from the people here now, few
-- whatever the number of tables left open: read from the games' index
-- instead, a lobby of 20,000 open tables at none of which anyone is here
-- checked every one's seats (300 ms; 0.04 ms from this index).
CREATE INDEX game_seats_here_idx ON game_seats (here_until, game_id) WHERE here_until IS NOT NULL;

-- +goose Down
DROP INDEX game_seats_here_idx;
ALTER TABLE game_seats DROP COLUMN here_until;
