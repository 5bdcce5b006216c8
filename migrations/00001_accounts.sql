-- +goose Up
-- Accounts: people and bots. A bot is an account of kind 'bot' so that it
-- can sit at tables and hold ratings like anyone else.
CREATE TABLE users (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    username      text NOT NULL,
    email         text,
    password_hash text NOT NULL DEFAULT '',
    kind          text NOT NULL DEFAULT 'human' CHECK (kind IN ('human', 'bot')),
    bot_level     text,
    is_admin      boolean NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT now(),
    deleted_at    timestamptz
);
-- Usernames are unique without regard to case.
CREATE UNIQUE INDEX users_username_lower_key ON users (lower(username));

-- +goose Down
DROP TABLE users;
