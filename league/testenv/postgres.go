package testenv

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/seqleague/seqleague/league/postgres/pgcluster"
	"github.com/seqleague/seqleague/migrations"
)

var pg struct {
	once     sync.Once
	adminDSN string // connection to the server's maintenance database
	cluster  *pgcluster.Cluster
	tmpDir   string
	err      error
}

func setupPostgres() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if url := os.Getenv("TEST_DATABASE_URL"); url != "" {
		pg.adminDSN = url
		return
	}
	const local = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
	if reachable("127.0.0.1:5432") {
		pg.adminDSN = local
		return
	}
	dir, err := os.MkdirTemp("", "seqleague-testpg-")
	if err != nil {
		pg.err = err
		return
	}
	// The cluster may run as the postgres user, which must reach into dir.
	_ = os.Chmod(dir, 0o755)
	pg.tmpDir = dir
	c, err := pgcluster.Start(ctx, dir+"/data", pgcluster.Throwaway)
	if err != nil {
		pg.err = fmt.Errorf("no PostgreSQL at 127.0.0.1:5432 and no throwaway cluster: %w", err)
		return
	}
	pg.cluster = c
	pg.adminDSN = c.DSN("postgres")
}

func reachable(addr string) bool {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// schemaVersion hashes the migration files, so that a changed schema gets a
// new template instead of a stale one.
func schemaVersion() string {
	h := sha256.New()
	names, _ := fs.Glob(migrations.Files(), "*.sql")
	sort.Strings(names)
	for _, n := range names {
		b, _ := fs.ReadFile(migrations.Files(), n)
		h.Write([]byte(n))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// ensureTemplate creates and migrates the template database once per schema
// version. An advisory lock keeps test processes of different packages from
// building it at the same time.
func ensureTemplate(ctx context.Context, admin *pgx.Conn) (string, error) {
	name := "seqleague_tmpl_" + schemaVersion()
	if _, err := admin.Exec(ctx, "SELECT pg_advisory_lock(727274)"); err != nil {
		return "", err
	}
	defer admin.Exec(context.Background(), "SELECT pg_advisory_unlock(727274)")
	var ready bool
	err := admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate)", name).Scan(&ready)
	if err != nil || ready {
		return name, err
	}
	// A half-built template from an interrupted run is rebuilt.
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", err
	}
	cfg, err := pgx.ParseConfig(withDatabase(pg.adminDSN, name))
	if err != nil {
		return "", err
	}
	db := stdlib.OpenDB(*cfg)
	err = migrations.Up(ctx, db, nil)
	db.Close()
	if err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+pgx.Identifier{name}.Sanitize()+" WITH is_template true"); err != nil {
		return "", err
	}
	return name, nil
}

// withDatabase points a DSN at another database of the same server.
func withDatabase(dsn, database string) string {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return dsn
	}
	return fmt.Sprintf("host=%s port=%d user=%s dbname=%s sslmode=disable", cfg.Host, cfg.Port, cfg.User, database) + passwordPart(cfg.Password)
}

func passwordPart(p string) string {
	if p == "" {
		return ""
	}
	return " password=" + p
}

// Postgres returns the DSN of a fresh, fully migrated database for this
// test; it is dropped when the test ends.
func Postgres(t TB) string {
	t.Helper()
	return newDatabase(t, true)
}

// EmptyPostgres returns the DSN of a fresh database with no schema at all,
// for tests of the migrations themselves.
func EmptyPostgres(t TB) string {
	t.Helper()
	return newDatabase(t, false)
}

// newDatabase creates a database for one test, cloned from the migrated
// template when migrated, and drops it when the test ends.
func newDatabase(t TB, migrated bool) string {
	t.Helper()
	pg.once.Do(setupPostgres)
	if pg.err != nil {
		unavailable(t, "PostgreSQL", pg.err)
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	admin, err := pgx.Connect(ctx, pg.adminDSN)
	if err != nil {
		unavailable(t, "PostgreSQL", err)
		return ""
	}
	defer admin.Close(context.Background())
	name := "seqleague_test_" + randomSuffix()
	create := "CREATE DATABASE " + pgx.Identifier{name}.Sanitize()
	if migrated {
		tmpl, err := ensureTemplate(ctx, admin)
		if err != nil {
			t.Fatalf("testenv: build template database: %v", err)
		}
		create += " TEMPLATE " + pgx.Identifier{tmpl}.Sanitize()
	}
	if _, err := admin.Exec(ctx, create); err != nil {
		t.Fatalf("testenv: create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, pg.adminDSN)
		if err != nil {
			return
		}
		defer conn.Close(ctx)
		conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
	})
	return withDatabase(pg.adminDSN, name)
}

func randomSuffix() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func stopPostgres() {
	if pg.cluster != nil {
		pg.cluster.Stop()
	}
	if pg.tmpDir != "" {
		os.RemoveAll(pg.tmpDir)
	}
}
