package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/seqleague/seqleague/league/postgres"
	"github.com/seqleague/seqleague/league/postgres/pgcluster"
)

// infra is the program's connections to the outside world, and the
// embedded servers it started itself in the zero-config mode.
type infra struct {
	DB      *postgres.DB
	Redis   redis.UniversalClient
	cluster *pgcluster.Cluster
	mini    *miniredis.Miniredis
	// keepRedis leaves Redis open on Close, for goroutines still using it.
	keepRedis bool
	// lock is the zero-config mode's lock on the data directory (lockDataDir).
	lock *os.File
}

// databaseName is the database the private cluster serves.
const databaseName = "seqleague"

// openDatabase connects to DATABASE_URL, or starts the private cluster.
func openDatabase(ctx context.Context, cfg Config, logger *slog.Logger) (*postgres.DB, *pgcluster.Cluster, error) {
	url := cfg.DatabaseURL
	var cluster *pgcluster.Cluster
	if url == "" {
		dir := filepath.Join(cfg.DataDir, "postgres")
		logger.Info("DATABASE_URL is not set: starting a private PostgreSQL cluster", "dir", dir)
		c, err := pgcluster.Start(ctx, dir, pgcluster.Durable)
		if err != nil {
			return nil, nil, err
		}
		cluster = c
		if err := postgres.EnsureDatabase(ctx, c.DSN("postgres"), databaseName); err != nil {
			c.Stop()
			return nil, nil, err
		}
		url = c.DSN(databaseName)
	}
	db, err := postgres.Open(ctx, url, postgres.PoolConfig{MaxOpen: cfg.DBMaxConns})
	if err != nil {
		if cluster != nil {
			cluster.Stop()
		}
		return nil, nil, err
	}
	return db, cluster, nil
}

// openRedis connects to REDIS_URL, or runs miniredis in process.
func openRedis(ctx context.Context, cfg Config, logger *slog.Logger) (redis.UniversalClient, *miniredis.Miniredis, error) {
	if cfg.RedisURL == "" {
		m := miniredis.NewMiniRedis()
		m.ClockTTL(true) // so that TTLs (rate limits, leases) expire in real time
		if err := m.StartAddr("127.0.0.1:0"); err != nil {
			return nil, nil, fmt.Errorf("start miniredis: %w", err)
		}
		logger.Warn("REDIS_URL is not set: using an in-process miniredis; this is a single-process development mode (run `serve` and `work` against a real Redis in production)", "addr", m.Addr())
		return redis.NewClient(&redis.Options{Addr: m.Addr(), ContextTimeoutEnabled: true}), m, nil
	}
	opt, err := redis.ParseURL(cfg.RedisURL)
	if err != nil {
		// The parser's error quotes the URL, password and all.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, nil, fmt.Errorf("REDIS_URL is not a valid Redis URL: %v", err)
	}
	opt.PoolSize = 50
	// Deadlines that callers put on a context bound the wait for Redis (the
	// rate limiter's 250 ms, readiness's 3 s); without this go-redis waits
	// out its own read timeout and retries whatever the context says.
	opt.ContextTimeoutEnabled = true
	rdb := redis.NewClient(opt)
	if err := rdb.Ping(ctx).Err(); err != nil {
		rdb.Close()
		return nil, nil, fmt.Errorf("connect to Redis: %w", err)
	}
	return rdb, nil, nil
}

func openInfra(ctx context.Context, cfg Config, logger *slog.Logger) (*infra, error) {
	var lock *os.File
	if cfg.RedisURL == "" {
		var err error
		if lock, err = lockDataDir(cfg.DataDir); err != nil {
			return nil, err
		}
	}
	db, cluster, err := openDatabase(ctx, cfg, logger)
	if err != nil {
		lock.Close()
		return nil, err
	}
	if lock != nil && cluster != nil && !cluster.Started() {
		// Nobody holds the lock, yet the cluster runs: the process that
		// started it died without stopping it (kill -9, a closed terminal).
		// This one stops it on the way out, or nobody ever would.
		logger.Warn("the private PostgreSQL cluster was left running by a process that did not stop it; this one will")
		cluster.Adopt()
	}
	rdb, mini, err := openRedis(ctx, cfg, logger)
	if err != nil {
		db.Close()
		if cluster != nil {
			cluster.Stop()
		}
		lock.Close()
		return nil, err
	}
	return &infra{DB: db, Redis: rdb, cluster: cluster, mini: mini, lock: lock}, nil
}

// lockDataDir takes the zero-config mode's lock on dir, held until the file
// is closed (or the process ends). That mode's Redis lives in the process,
// so a second process on the same data joined the first one's database with
// a Redis of its own: the games' moves and events were split between the
// two, and the first to stop took the database from under the other.
func lockDataDir(dir string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "seqleague.lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("another seqleague (pid %s) runs on the data directory %s without REDIS_URL, whose Redis is inside that process: stop it first, or give this one its own SEQLEAGUE_DATA_DIR",
				strings.TrimSpace(string(holder)), dir)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		fmt.Fprintf(f, "%d\n", os.Getpid())
	}
	return f, nil
}

// Close releases connections and stops what openInfra started.
func (in *infra) Close(logger *slog.Logger) {
	if !in.keepRedis {
		in.Redis.Close()
		if in.mini != nil {
			in.mini.Close()
		}
	}
	in.DB.Close()
	if in.cluster != nil {
		if err := in.cluster.Stop(); err != nil {
			logger.Error("stop private PostgreSQL", "error", err)
		}
	}
	in.lock.Close() // last: the next process may take the data directory
}

// jwtSecret returns JWT_SECRET, or one generated once and kept in the data
// dir so that tokens survive restarts.
func jwtSecret(cfg Config, logger *slog.Logger) ([]byte, error) {
	if cfg.JWTSecret != "" {
		if len(cfg.JWTSecret) < 32 {
			return nil, fmt.Errorf("JWT_SECRET must be at least 32 characters")
		}
		return []byte(cfg.JWTSecret), nil
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	path := filepath.Join(cfg.DataDir, "jwt_secret")
	got, err := writeFileOnce(path, []byte(hex.EncodeToString(b)))
	if err != nil {
		return nil, fmt.Errorf("keep a generated JWT secret: %w", err)
	}
	logger.Warn("JWT_SECRET is not set: using a generated secret kept in the data dir; set JWT_SECRET when running more than one instance", "file", path)
	return []byte(strings.TrimSpace(string(got))), nil
}
