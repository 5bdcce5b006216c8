package postgres

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/seqleague/seqleague/league"
)

// naming names field in a not-found refusal that names none: the thing
// missing was asked for by that field of the request (a query's ?club=),
// not by the path, so the client is told which of its inputs it was. Any
// other error, or one that already names its fields, passes through
// unchanged. A body's reference to nothing is a bad body: badReference.
func naming(field string, err error) error {
	var le *league.Error
	if errors.As(err, &le) && le.Code == league.ENOTFOUND && len(le.Fields) == 0 {
		return &league.Error{Code: le.Code, Message: le.Message, Data: le.Data,
			Fields: []league.FieldError{{Field: field, Message: le.Message}}}
	}
	return err
}

// isDuplicateDatabase reports a CREATE DATABASE that lost a race.
func isDuplicateDatabase(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "42P04" || pgErr.Code == "23505")
}

// badReference answers a not-found refusal of what a field of a request's
// body names (a club_id naming no club) as that body's fault: a 400 naming
// the field, as every reference in a body is refused (season_id,
// seats[i].user, members[i].user, owner_id). A 404 is for the resource
// the path names. Any other error passes through unchanged.
func badReference(field string, err error) error {
	var le *league.Error
	if errors.As(err, &le) && le.Code == league.ENOTFOUND {
		return league.Invalid(le.Message, league.FieldError{Field: field, Message: le.Message})
	}
	return err
}
