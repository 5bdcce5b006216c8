-- +goose Up
-- A game at a table: its set-up, its clock, and where it stands. The engine
-- state is never stored: it is a pure function of (set-up, seed, moves) and
-- is rebuilt by replaying game_moves, so the moves are the single source of
-- truth.
CREATE TABLE games (
    id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    kind                 text NOT NULL CHECK (kind IN ('sequence', 'stacks')),
    variant              text NOT NULL DEFAULT '',
    players              int  NOT NULL,
    teams                int  NOT NULL,
    sequences_to_win     int  NOT NULL DEFAULT 0,
    play_cap             int  NOT NULL DEFAULT 0,
    turn_seconds         int  NOT NULL DEFAULT 0,
    bank_seconds         int  NOT NULL DEFAULT 0,
    increment_seconds    int  NOT NULL DEFAULT 0,
    block_window_seconds int  NOT NULL DEFAULT 5,
    autopilot_level      text NOT NULL DEFAULT 'greedy',
    fill_level           text NOT NULL DEFAULT 'greedy',
    max_timeouts         int  NOT NULL DEFAULT 3,
    rated                boolean NOT NULL DEFAULT false,
    status               text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'active', 'finished', 'aborted')),
    created_by           uuid REFERENCES users (id),
    created_at           timestamptz NOT NULL DEFAULT now(),
    scheduled_start      timestamptz,
    started_at           timestamptz,
    finished_at          timestamptz,
    -- The seed stays secret until the game ends; its hash is public from
    -- the start (commit and reveal).
    seed                 bytea NOT NULL,
    seed_hash            text  NOT NULL,
    ply                  int   NOT NULL DEFAULT 0,
    turn_started_at      timestamptz,
    turn_deadline        timestamptz,
    -- The turn owner's time left when a Stacks block window paused the turn.
    resume_ms            bigint,
    -- The engine's turn counter of the last turn played by the autopilot, so
    -- that one timed-out turn counts once however many plies it has.
    timed_out_turn       int NOT NULL DEFAULT -1,
    result_status        text,          -- finished or drawn
    winner               int,           -- team (sequence) or seat (stacks)
    settled_at           timestamptz
);
CREATE INDEX games_status_idx ON games (status, created_at DESC);
CREATE INDEX games_open_start_idx ON games (scheduled_start) WHERE status = 'open';

-- Who sits where. A seat is a person, a bot, or open. A person who times out
-- too often is replaced by a fill-in bot for the rest of the game and
-- recorded as having abandoned.
CREATE TABLE game_seats (
    game_id            uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat               int  NOT NULL,
    user_id            uuid REFERENCES users (id),
    bot_level          text,
    filled_by_bot      boolean NOT NULL DEFAULT false,
    abandoned          boolean NOT NULL DEFAULT false,
    timeouts_in_a_row  int  NOT NULL DEFAULT 0,
    bank_ms            bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seats_user_idx ON game_seats (user_id, game_id);

-- Every accepted move, one per ply. (game_id, ply) makes "exactly one move
-- per ply" a constraint, not just a hope; (game_id, move_id) makes a client's
-- retry idempotent.
CREATE TABLE game_moves (
    game_id    uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        int  NOT NULL,
    seat       int  NOT NULL,
    move       text NOT NULL,
    move_id    text,
    actor      text NOT NULL CHECK (actor IN ('player', 'bot', 'autopilot', 'fill-in', 'server')),
    user_id    uuid REFERENCES users (id),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, ply)
);
CREATE UNIQUE INDEX game_moves_move_id_key ON game_moves (game_id, move_id) WHERE move_id IS NOT NULL;

-- The archive of a finished game: set-up, revealed seed, every move and the
-- final position, kept as one document.
CREATE TABLE game_archive (
    game_id    uuid PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    record     jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE game_archive;
DROP TABLE game_moves;
DROP TABLE game_seats;
DROP TABLE games;
