-- +goose Up
-- A player's current rating in each pool. Everyone starts at 1500; a row
-- exists once a player has played a rated game in the pool.
CREATE TABLE ratings (
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    pool       text NOT NULL,
    rating     double precision NOT NULL,
    games      int  NOT NULL,
    peak       double precision NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, pool)
);
-- Leaderboards read a pool in rating order with a keyset cursor; the
-- partial index serves the default view, which hides provisional players.
CREATE INDEX ratings_board_idx ON ratings (pool, rating DESC, games DESC, user_id DESC);
CREATE INDEX ratings_board_established_idx ON ratings (pool, rating DESC, games DESC, user_id DESC) WHERE games >= 30;

-- Every rating change, in the order results were settled (seq). The unique
-- key makes settling a game exactly-once per player, and the rows are the
-- history that `seqleague ratings recompute` replays.
CREATE TABLE rating_changes (
    seq        bigserial PRIMARY KEY,
    game_id    uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    pool       text NOT NULL,
    team       int  NOT NULL,
    abandoned  boolean NOT NULL,
    winner     int,             -- the game's winning team, NULL for a draw
    k          double precision NOT NULL,
    before     double precision NOT NULL,
    after      double precision NOT NULL,
    games      int  NOT NULL,   -- rated games in the pool after this one
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (game_id, user_id)
);
CREATE INDEX rating_changes_history_idx ON rating_changes (user_id, pool, seq);

-- +goose Down
DROP TABLE rating_changes;
DROP TABLE ratings;
