-- +goose Up
-- One bot account per level. A bot has no password, so it cannot log in.
CREATE UNIQUE INDEX users_bot_level_key ON users (bot_level) WHERE kind = 'bot';
INSERT INTO users (username, kind, bot_level)
VALUES ('bot-random', 'bot', 'random'), ('bot-greedy', 'bot', 'greedy'), ('bot-strong', 'bot', 'strong')
ON CONFLICT DO NOTHING;

-- Refresh tokens, stored only as SHA-256 hashes. Each login starts a family;
-- every refresh spends the presented token (used_at) and adds the next one
-- to the family. Presenting a spent token revokes the family.
CREATE TABLE refresh_tokens (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    family_id  uuid NOT NULL,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash bytea NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    revoked_at timestamptz
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id);

CREATE TABLE clubs (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name        text NOT NULL,
    description text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
-- Names are unique without regard to case; the index also serves the
-- name-ordered keyset pagination of the club list.
CREATE UNIQUE INDEX clubs_name_lower_key ON clubs (lower(name));

CREATE TABLE club_members (
    club_id   uuid NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    user_id   uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role      text NOT NULL CHECK (role IN ('owner', 'organizer', 'member')),
    joined_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, user_id)
);
-- Exactly one owner per club (at most one here; the service keeps one).
CREATE UNIQUE INDEX club_members_one_owner ON club_members (club_id) WHERE role = 'owner';
CREATE INDEX club_members_user_idx ON club_members (user_id);

-- Invite codes, stored only as SHA-256 hashes.
CREATE TABLE club_invites (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    club_id    uuid NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    code_hash  bytea NOT NULL UNIQUE,
    created_by uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    max_uses   integer NOT NULL CHECK (max_uses > 0),
    uses       integer NOT NULL DEFAULT 0 CHECK (uses >= 0 AND uses <= max_uses)
);
CREATE INDEX club_invites_club_idx ON club_invites (club_id);

-- +goose Down
DROP TABLE club_invites;
DROP TABLE club_members;
DROP TABLE clubs;
DROP TABLE refresh_tokens;
DELETE FROM users WHERE kind = 'bot' AND bot_level IN ('random', 'greedy', 'strong');
DROP INDEX users_bot_level_key;
