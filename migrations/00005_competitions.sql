-- +goose Up
-- Leagues belong to a club and run seasons; a closed season's table is
-- frozen in standings and never changes again.
CREATE TABLE leagues (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    club_id     uuid NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    name        text NOT NULL,
    description text NOT NULL DEFAULT '',
    created_by  uuid REFERENCES users (id),
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX leagues_club_name_key ON leagues (club_id, lower(name));

CREATE TABLE seasons (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    league_id  uuid NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    name       text NOT NULL,
    status     text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    standings  jsonb,           -- frozen when the season closes
    created_at timestamptz NOT NULL DEFAULT now(),
    closed_at  timestamptz
);
CREATE UNIQUE INDEX seasons_league_name_key ON seasons (league_id, lower(name));

-- A tournament: its set-up is one document (config), its state the rows
-- below; for elimination formats the bracket is stored whole, as the pure
-- competition package advances it.
CREATE TABLE tournaments (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    club_id           uuid NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    season_id         uuid REFERENCES seasons (id) ON DELETE SET NULL,
    name              text NOT NULL,
    config            jsonb NOT NULL,
    status            text NOT NULL DEFAULT 'registration' CHECK (status IN ('registration', 'running', 'paused', 'finished')),
    bracket           jsonb,
    current_round     int NOT NULL DEFAULT 0,
    created_by        uuid REFERENCES users (id),
    created_at        timestamptz NOT NULL DEFAULT now(),
    started_at        timestamptz,
    finished_at       timestamptz
);
CREATE INDEX tournaments_club_idx ON tournaments (club_id, created_at DESC);
CREATE INDEX tournaments_season_idx ON tournaments (season_id);

-- An entry is an individual or a fixed team: its members are people or bots.
CREATE TABLE entries (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    tournament_id uuid NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    name          text NOT NULL,
    captain_id    uuid REFERENCES users (id),
    seed          int NOT NULL DEFAULT 0,
    rating        double precision NOT NULL DEFAULT 1500,
    status        text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'withdrawn')),
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX entries_tournament_idx ON entries (tournament_id, created_at);
CREATE UNIQUE INDEX entries_name_key ON entries (tournament_id, lower(name));

CREATE TABLE entry_members (
    entry_id      uuid NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
    tournament_id uuid NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    position      int  NOT NULL,
    user_id       uuid REFERENCES users (id),
    bot_level     text,
    PRIMARY KEY (entry_id, position),
    CHECK ((user_id IS NULL) <> (bot_level IS NULL))
);
-- A person plays for one entry of a tournament.
CREATE UNIQUE INDEX entry_members_person_key ON entry_members (tournament_id, user_id) WHERE user_id IS NOT NULL;

-- Rounds: scheduled times, and when they were paired (once, ever).
CREATE TABLE rounds (
    tournament_id uuid NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number        int  NOT NULL,
    starts_at     timestamptz,
    deadline      timestamptz,
    status        text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'running', 'finished')),
    paired_at     timestamptz,
    finished_at   timestamptz,
    PRIMARY KEY (tournament_id, number)
);

-- Matches: a pairing (round-based formats) or a bracket match, played as
-- one game or a best-of-N series.
CREATE TABLE matches (
    tournament_id uuid NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    id            text NOT NULL,     -- "R3-2", "B-R1-1", or the bracket's match ID
    round         int  NOT NULL,
    entries       jsonb NOT NULL,    -- entry IDs in seat order
    bye           boolean NOT NULL DEFAULT false,
    status        text NOT NULL DEFAULT 'playing' CHECK (status IN ('playing', 'finished')),
    winner        text,              -- entry ID; NULL for a draw
    game_winners  jsonb NOT NULL DEFAULT '[]',  -- each game's winning entry, "" for a draw
    sequences     jsonb NOT NULL DEFAULT '[]',  -- sequences scored per entry, summed over games
    finished_at   timestamptz,
    PRIMARY KEY (tournament_id, id)
);
CREATE INDEX matches_round_idx ON matches (tournament_id, round);

ALTER TABLE games ADD COLUMN tournament_id uuid REFERENCES tournaments (id) ON DELETE SET NULL;
ALTER TABLE games ADD COLUMN match_id text;
ALTER TABLE games ADD COLUMN match_game int;
CREATE UNIQUE INDEX games_match_game_key ON games (tournament_id, match_id, match_game) WHERE tournament_id IS NOT NULL;

-- +goose Down
DROP INDEX games_match_game_key;
ALTER TABLE games DROP COLUMN match_game;
ALTER TABLE games DROP COLUMN match_id;
ALTER TABLE games DROP COLUMN tournament_id;
DROP TABLE matches;
DROP TABLE rounds;
DROP TABLE entry_members;
DROP TABLE entries;
DROP TABLE tournaments;
DROP TABLE seasons;
DROP TABLE leagues;
