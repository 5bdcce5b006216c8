package postgres

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

// isDuplicateDatabase reports a CREATE DATABASE that lost a race.
func isDuplicateDatabase(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "42P04" || pgErr.Code == "23505")
}
