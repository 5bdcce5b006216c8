package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"
)

// txAttempts bounds how many times inTx runs a transaction that PostgreSQL
// keeps aborting.
const txAttempts = 5

// inTx runs f in one transaction of db, and runs it again, whole, in a new
// transaction when PostgreSQL aborted it for a deadlock (40P01) or a
// serialization failure (40001). Such an abort undoes everything the
// transaction did and says nothing against the request: two transactions
// took the same rows in opposite orders (a tournament's cancellation takes
// its live games, then its row, then the games made meanwhile; a game's
// settlement may hold one of those and wait for the row), PostgreSQL killed
// one so that the other could go on, and the killed one succeeds when run
// again. Without this the loser's request failed as an internal error and
// the user's action was lost.
//
// f may therefore run more than once: whatever it leaves outside the
// transaction (results, effects to run after the commit) must be set afresh
// on each run. Any other error, a refusal (league.Error) above all, ends at
// once after one run. Up to txAttempts runs are made, a short random pause
// apart so that the two rivals do not meet again; ctx's end stops the
// retries. Inside a transaction already (tx given as db) f runs once: the
// abort undid the enclosing transaction, which only its own inTx can retry.
func inTx(ctx context.Context, db *gorm.DB, f func(tx *gorm.DB) error, opts ...*sql.TxOptions) error {
	db = db.WithContext(ctx)
	if committer, ok := db.Statement.ConnPool.(gorm.TxCommitter); ok && committer != nil {
		return db.Transaction(f, opts...)
	}
	for attempt := 1; ; attempt++ {
		err := db.Transaction(f, opts...)
		if err == nil || !retryableAbort(err) {
			return err
		}
		if attempt == txAttempts {
			return fmt.Errorf("transaction aborted %d times: %w", attempt, err)
		}
		// 0–10 ms, then up to 20, 40, 80 ms.
		pause := time.NewTimer(rand.N(time.Duration(5<<attempt) * time.Millisecond))
		select {
		case <-pause.C:
		case <-ctx.Done():
			pause.Stop()
			return fmt.Errorf("%w (not retried: %w)", err, ctx.Err())
		}
	}
}

// retryableAbort says whether err is PostgreSQL aborting a transaction for a
// deadlock or a serialization failure, which a new run of it may not meet.
func retryableAbort(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}

// Unavailable reports whether err says PostgreSQL could not be reached or
// dropped the connection (shutting down, restarting, starting up, out of
// connection slots): a moment's outage, not a fault of the request, so the
// API answers 503 with Retry-After and the workers retry soon, where a
// restart of under a second answered 500s and held tasks in asynq's
// back-off for up to a minute (the faults audit).
func Unavailable(err error) bool {
	if err == nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		// A request's own deadline (a slow query, or its client gone),
		// which net.Error would otherwise match.
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// 57P01-03: admin shutdown, crash shutdown, cannot connect now;
		// 53300: too many connections; class 08: connection exceptions.
		return strings.HasPrefix(pgErr.Code, "08") || pgErr.Code == "57P01" || pgErr.Code == "57P02" ||
			pgErr.Code == "57P03" || pgErr.Code == "53300"
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	return errors.As(err, &connectErr) || errors.As(err, &netErr) || errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET)
}
