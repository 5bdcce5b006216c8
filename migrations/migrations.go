// Package migrations holds the database schema as goose SQL files, embedded
// in the binary, and applies them under goose's PostgreSQL advisory lock so
// that several instances starting together take turns instead of racing.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

//go:embed *.sql
var files embed.FS

// lockRetrySeconds and lockRetries bound how long an instance waits for
// another instance's migration run: one try a second for a minute.
const (
	lockRetrySeconds = 1
	lockRetries      = 60
)

func provider(db *sql.DB, logger *slog.Logger) (*goose.Provider, error) {
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(lockRetrySeconds, lockRetries))
	if err != nil {
		return nil, err
	}
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return goose.NewProvider(goose.DialectPostgres, db, files,
		goose.WithSessionLocker(locker),
		goose.WithDisableGlobalRegistry(true),
		goose.WithSlog(logger),
	)
}

// Up applies every pending migration. A database whose schema is newer
// than this binary's migrations is refused: an older binary (a rollback, an
// instance left behind in a rolling deploy) would run against tables it
// does not know.
func Up(ctx context.Context, db *sql.DB, logger *slog.Logger) error {
	p, err := provider(db, logger)
	if err != nil {
		return err
	}
	if err := notAhead(ctx, p); err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate up: %w", err)
	}
	return nil
}

// ErrSchemaAhead: the database has migrations this binary does not have.
var ErrSchemaAhead = errors.New("the database schema is newer than this binary")

func notAhead(ctx context.Context, p *goose.Provider) error {
	db, err := p.GetDBVersion(ctx)
	if err != nil {
		return fmt.Errorf("read the schema version: %w", err)
	}
	if known := latest(p); db > known {
		return fmt.Errorf("%w: it is at migration %d, this binary knows up to %d; run a binary at least as new", ErrSchemaAhead, db, known)
	}
	return nil
}

func latest(p *goose.Provider) int64 {
	var v int64
	for _, s := range p.ListSources() {
		v = max(v, s.Version)
	}
	return v
}

// Down rolls back the most recent migration.
func Down(ctx context.Context, db *sql.DB, logger *slog.Logger) error {
	p, err := provider(db, logger)
	if err != nil {
		return err
	}
	if _, err := p.Down(ctx); err != nil {
		return fmt.Errorf("migrate down: %w", err)
	}
	return nil
}

// Status describes one migration file and whether it is applied.
type Status struct {
	Version int64
	Name    string
	Applied bool
}

// List reports every migration with its state.
func List(ctx context.Context, db *sql.DB) ([]Status, error) {
	p, err := provider(db, nil)
	if err != nil {
		return nil, err
	}
	st, err := p.Status(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Status, 0, len(st))
	for _, s := range st {
		out = append(out, Status{Version: s.Source.Version, Name: s.Source.Path, Applied: s.State == goose.StateApplied})
	}
	// Migrations applied by a newer binary have no file here: say so.
	if err := notAhead(ctx, p); errors.Is(err, ErrSchemaAhead) {
		v, _ := p.GetDBVersion(ctx)
		out = append(out, Status{Version: v, Name: "(unknown to this binary: " + err.Error() + ")", Applied: true})
	} else if err != nil {
		return nil, err
	}
	return out, nil
}

// Files is the embedded migration files (for tooling that fingerprints the
// schema, such as the test harness).
func Files() fs.FS { return files }
