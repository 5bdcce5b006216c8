-- +goose Up
-- sessions_since ends every access token issued before it (to the second,
-- as a token's iat): a password change signs out every other device at
-- once, not only when its short access token expires.
ALTER TABLE users ADD COLUMN sessions_since timestamptz;

-- +goose Down
ALTER TABLE users DROP COLUMN sessions_since;
