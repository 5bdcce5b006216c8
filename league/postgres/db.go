package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/stdlib"
	gormpg "gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// DB is an open database: GORM for the services and the plain *sql.DB for
// migrations and health checks, over one connection pool.
type DB struct {
	Gorm *gorm.DB
	SQL  *sql.DB
}

// PoolConfig sizes the connection pool.
type PoolConfig struct {
	MaxOpen int
	MaxIdle int
}

// Open connects to dsn (a URL or key=value string) and checks the
// connection.
func Open(ctx context.Context, dsn string, pool PoolConfig) (*DB, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("database URL: %w", err)
	}
	// JIT compilation off unless the URL asks for it: it pays off for long
	// analytic queries, and for this service's short ones its compile time
	// is the cost (300-640 ms added to a prolific player's profile, whose
	// estimate crossed jit_above_cost, in the scale audit).
	if _, set := cfg.RuntimeParams["jit"]; !set {
		cfg.RuntimeParams["jit"] = "off"
	}
	// Times are read in UTC: pgx otherwise hands out timestamptz values in
	// the process's zone, and with TZ set (TZ=America/New_York) the API
	// answered created_at and the rest as 03:32:08-05:00, not RFC 3339 UTC.
	sqlDB := stdlib.OpenDB(*cfg, stdlib.OptionAfterConnect(func(_ context.Context, conn *pgx.Conn) error {
		conn.TypeMap().RegisterType(&pgtype.Type{Name: "timestamptz", OID: pgtype.TimestamptzOID, Codec: &pgtype.TimestamptzCodec{ScanLocation: time.UTC}})
		return nil
	}))
	if pool.MaxOpen == 0 {
		pool.MaxOpen = 20
	}
	if pool.MaxIdle == 0 {
		pool.MaxIdle = pool.MaxOpen
	}
	sqlDB.SetMaxOpenConns(pool.MaxOpen)
	sqlDB.SetMaxIdleConns(pool.MaxIdle)
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := sqlDB.PingContext(pingCtx); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	g, err := gorm.Open(gormpg.New(gormpg.Config{Conn: sqlDB}), &gorm.Config{
		TranslateError:         true,
		SkipDefaultTransaction: true, // service methods open their own
		Logger:                 logger.Discard,
		NowFunc:                func() time.Time { return time.Now().UTC() },
	})
	if err != nil {
		sqlDB.Close()
		return nil, err
	}
	return &DB{Gorm: g, SQL: sqlDB}, nil
}

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.SQL.PingContext(ctx) }

// Close closes the pool.
func (db *DB) Close() error { return db.SQL.Close() }

// EnsureDatabase creates database name if it does not exist, connecting
// through adminDSN (a connection to any existing database of the server).
func EnsureDatabase(ctx context.Context, adminDSN, name string) error {
	conn, err := pgx.Connect(ctx, adminDSN)
	if err != nil {
		return fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	if err != nil && !isDuplicateDatabase(err) {
		return fmt.Errorf("create database %s: %w", name, err)
	}
	return nil
}
