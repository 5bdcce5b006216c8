// Package migrations holds the database schema as goose SQL files, embedded
// in the binary, and applies them under goose's PostgreSQL advisory lock so
// that several instances starting together take turns instead of racing.
package migrations

import (
	"context"
	"database/sql"
	"embed"
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

// Up applies every pending migration.
func Up(ctx context.Context, db *sql.DB, logger *slog.Logger) error {
	p, err := provider(db, logger)
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate up: %w", err)
	}
	return nil
}

// DownAll rolls back every applied migration.
func DownAll(ctx context.Context, db *sql.DB, logger *slog.Logger) error {
	p, err := provider(db, logger)
	if err != nil {
		return err
	}
	if _, err := p.DownTo(ctx, 0); err != nil {
		return fmt.Errorf("migrate down: %w", err)
	}
	return nil
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
	return out, nil
}

// Files is the embedded migration files (for tooling that fingerprints the
// schema, such as the test harness).
func Files() fs.FS { return files }
