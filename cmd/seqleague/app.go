package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/postgres"
	"github.com/seqleague/seqleague/league/ratelimit"
	"github.com/seqleague/seqleague/league/redisbus"
	"github.com/seqleague/seqleague/migrations"
	"github.com/seqleague/seqleague/server"
	"github.com/seqleague/seqleague/workers"
)

// Mode selects which parts of the program run.
type Mode struct {
	API     bool
	Workers bool
}

// App is the whole program, started by Start and stopped by Shutdown; tests
// boot it on port 0.
type App struct {
	cfg    Config
	mode   Mode
	logger *slog.Logger
	infra  *infra

	listener net.Listener
	http     *http.Server
	workers  *workers.Workers
	enqueuer *workers.Enqueuer
	hub      *server.Hub
	stopBus  context.CancelFunc
	// stopRetries ends the tries again of tasks not scheduled after a commit.
	stopRetries func()
	serveErr    chan error

	shutdownOnce sync.Once
	shutdownErr  error

	// wrap lets tests put a handler of their own in front of the API's (a
	// deliberately slow route, say), and startedHook tells them when Start
	// has finished.
	wrap        func(http.Handler) http.Handler
	startedHook func()
}

// reconcileEvery is how often a worker process looks for game and round
// tasks that were lost (see Games.Reconcile, Tournaments.Reconcile).
const reconcileEvery = 30 * time.Second

// redisLossCheck is how often a worker process looks whether Redis lost
// its data (workers.WhenRedisLost): one SETNX.
const redisLossCheck = 5 * time.Second

// Start connects to (or starts) PostgreSQL and Redis, applies migrations
// and starts the HTTP server and/or the workers.
func (a *App) Start(ctx context.Context) (err error) {
	// A serving process keeps a small live heap (tens of MB) and allocates
	// per request; at Go's default target it collects several times a
	// second, and on a small machine each collection takes a whole core
	// from the requests for its duration. Measured in
	// BenchmarkLiveMoveThroughput: about a fifth more moves per second.
	debug.SetGCPercent(a.cfg.GCPercent)
	if a.cfg.RedisURL == "" && !(a.mode.API && a.mode.Workers) {
		// An in-process Redis is the one-process development mode: an API
		// without workers (or workers without an API) on its own Redis
		// would enqueue tasks nobody runs and publish moves nobody hears.
		return errors.New("REDIS_URL is required for `serve` and `work`: they share their queue and events with the other processes through it (only `all` may run on an in-process Redis)")
	}
	if a.mode.API {
		// Listened on first: a port in use was found only after the
		// private cluster had started, the migrations run and the workers
		// begun (the make run audit), whose failures then filled the log
		// above the one line that said why.
		l, lerr := net.Listen("tcp", a.cfg.Addr)
		if lerr != nil {
			return fmt.Errorf("listen on %s: %w", a.cfg.Addr, lerr)
		}
		a.listener = l
		defer func() {
			if err != nil { // Start's own error: the port is let go
				l.Close()
			}
		}()
	}
	in, err := openInfra(ctx, a.cfg, a.logger)
	if err != nil {
		return err
	}
	a.infra = in
	defer func() {
		if err != nil {
			a.infra.Close(a.logger)
		}
	}()
	if err := migrations.Up(ctx, in.DB.SQL, a.logger); err != nil {
		return err
	}
	secret, err := jwtSecret(a.cfg, a.logger)
	if err != nil {
		return err
	}
	accounts := postgres.NewAccounts(in.DB, league.NewPasswordHasher(league.DefaultArgon2Params, runtime.GOMAXPROCS(0)), a.cfg.RefreshTokenTTL)
	if err := accounts.EnsureBots(ctx); err != nil {
		return err
	}
	authConfig := server.AuthConfig{
		Secret: secret, Issuer: a.cfg.PublicURL, AccessTokenTTL: a.cfg.AccessTokenTTL,
		RateWindow: a.cfg.AuthRateWindow, RatePerIP: a.cfg.AuthRatePerIP, RatePerUsername: a.cfg.AuthRatePerUser,
	}

	bus := redisbus.New(in.Redis)
	a.enqueuer = workers.NewEnqueuer(in.Redis)
	games := postgres.NewGames(in.DB, bus, a.enqueuer, postgres.GameConfig{
		BotDelay:      a.cfg.BotDelay,
		BotThinkLimit: a.cfg.BotThinkLimit,
		FillGrace:     a.cfg.FillGrace,
		MaxLiveGames:  a.cfg.MaxLiveGames,
		// The sweep cancels the tables left open past it, and the bound's
		// refusal names it.
		OpenTableLifetime: a.cfg.OpenTableLifetime,
	}, a.logger)
	// A task Redis did not take after a commit (a hiccup) is tried again
	// within seconds, not left to the sweep's 30 s.
	a.stopRetries = games.RetryFailedTasks()
	accounts.HandSeatsTo(games) // a closed account's seats go to fill-in bots at once
	// Every instance signs leaderboard cursors with a key from the shared
	// secret, so a page's cursor works on whichever instance gets the next.
	ratings := postgres.NewRatings(in.DB).WithCursorKey(secret)
	games.AddSettler(ratings)
	tournaments := postgres.NewTournaments(in.DB, games, a.enqueuer, a.logger).WithDailyLimit(a.cfg.TournamentsPerDay)
	leagues := postgres.NewLeagues(in.DB)

	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	reg.MustRegister(workers.NewQueueCollector(asynq.NewInspectorFromRedisClient(in.Redis)))

	if a.mode.Workers {
		a.workers = workers.New(in.Redis, workers.Config{
			Concurrency:  a.cfg.WorkerConcurrency,
			PollInterval: a.cfg.TimerPollInterval,
			// The whole of it: the workers keep their margin for asynq's
			// goodbyes out of it. Given the timeout less a second, a
			// timeout of 1 s left them none, which meant asynq's 8 s.
			ShutdownTimeout: a.cfg.ShutdownTimeout,
			Transient:       postgres.Unavailable,
		}, a.logger)
		a.workers.RegisterGames(games)
		a.workers.RegisterCompetitions(tournaments)
		a.workers.Every(reconcileEvery, "reconcile games", func(ctx context.Context) error {
			done, err := games.Reconcile(ctx)
			if done.Total() > 0 {
				// "Asked for", not "rescheduled": a task a dead worker still
				// holds is the workers' to run again (see workers'
				// orphans), and asking for it is a no-op the sweep cannot
				// tell from a new task.
				a.logger.WarnContext(ctx, "asked again for overdue game tasks",
					"settlements", done.Settlements, "timers", done.Timers, "bot_moves", done.BotMoves, "starts", done.Starts)
			}
			return err
		})
		a.workers.Every(reconcileEvery, "forget lapsed presence", func(ctx context.Context) error {
			_, err := games.ForgetLapsed(ctx)
			return err
		})
		// Players of active games whose pages stopped following them are
		// shown away to the others (postgres.Games.TellAway).
		a.workers.Every(reconcileEvery, "tell away players", func(ctx context.Context) error {
			_, err := games.TellAway(ctx)
			return err
		})
		a.workers.Every(reconcileEvery, "lapse open tables", func(ctx context.Context) error {
			n, err := games.LapseOpenTables(ctx)
			if n > 0 {
				a.logger.InfoContext(ctx, "cancelled open tables nobody joined", "tables", n, "lifetime", a.cfg.OpenTableLifetime)
			}
			return err
		})
		a.workers.Every(reconcileEvery, "reconcile rounds", func(ctx context.Context) error {
			done, err := tournaments.Reconcile(ctx)
			if done.Total() > 0 {
				a.logger.WarnContext(ctx, "asked again for overdue round tasks",
					"starts", done.Starts, "deadlines", done.Deadlines)
			}
			return err
		})
		// A Redis with none of the tasks the games and rounds under way
		// wait for (the in-process one at every start, a real one that
		// restarted without persistence) has them all scheduled again
		// within redisLossCheck.
		a.workers.WhenRedisLost(redisLossCheck, "schedule what a lost Redis held", func(ctx context.Context) error {
			g, err := games.RescheduleAll(ctx)
			if err != nil {
				return err
			}
			r, err := tournaments.RescheduleAll(ctx)
			if err != nil {
				return err
			}
			a.logger.Info("Redis was new or had lost its data: scheduled the tasks of the games and rounds under way",
				"game_tasks", g.Total(), "round_tasks", r.Total())
			return nil
		})
		if err := a.workers.Start(); err != nil {
			return err
		}
	}
	if a.mode.API {
		a.hub = server.NewHub(games, a.logger)
		a.hub.LimitStreams(a.cfg.MaxStreams)
		busCtx, stopBus := context.WithCancel(context.WithoutCancel(ctx))
		a.stopBus = stopBus
		go bus.Subscribe(busCtx, a.hub.Deliver, a.hub.Resync)
		var api http.Handler = server.New(server.Deps{
			Games:          games,
			Ratings:        ratings,
			Leagues:        leagues,
			Tournaments:    tournaments,
			Hub:            a.hub,
			Accounts:       accounts,
			Clubs:          postgres.NewClubs(in.DB).WithDailyLimit(a.cfg.ClubsPerDay),
			Limiter:        ratelimit.New(in.Redis, a.logger),
			Auth:           authConfig,
			Logger:         a.logger,
			Unavailable:    postgres.Unavailable,
			Metrics:        reg,
			TrustedProxies: a.cfg.TrustedProxies,
			PublicURL:      a.cfg.PublicURL,
			Ready: map[string]server.Check{
				"postgres": in.DB.Ping,
				"redis":    func(ctx context.Context) error { return in.Redis.Ping(ctx).Err() },
			},
		})
		if a.wrap != nil {
			api = a.wrap(api)
		}
		l := a.listener
		a.http = &http.Server{Handler: api, ReadHeaderTimeout: 10 * time.Second}
		a.http.RegisterOnShutdown(a.hub.Close) // end event streams so shutdown need not wait for them
		a.serveErr = make(chan error, 1)
		go func() { a.serveErr <- a.http.Serve(l) }()
		a.logger.Info("serving HTTP", "addr", l.Addr().String())
	}
	if a.startedHook != nil {
		a.startedHook()
	}
	return nil
}

// Addr is the address the API listens on (useful with port 0).
func (a *App) Addr() string {
	if a.listener == nil {
		return ""
	}
	return a.listener.Addr().String()
}

// Wait blocks until ctx ends or the HTTP server fails.
func (a *App) Wait(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return nil
	case err := <-a.serveErr:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}

// Shutdown stops accepting requests, lets in-flight ones finish, stops the
// workers gracefully, then closes connections and embedded servers. It may
// be called more than once; only the first call does the work.
func (a *App) Shutdown() error {
	a.shutdownOnce.Do(func() { a.shutdownErr = a.shutdown() })
	return a.shutdownErr
}

func (a *App) shutdown() error {
	ctx, cancel := context.WithTimeout(context.Background(), a.cfg.ShutdownTimeout)
	defer cancel()
	// The workers stop alongside the HTTP server, not after it: each may
	// take the whole grace period (a slow request; a task, or a Redis that
	// hangs), and one after the other they took twice the time given.
	workersStopped := make(chan struct{})
	go func() {
		defer close(workersStopped)
		if a.workers != nil {
			a.workers.Shutdown()
		}
	}()
	var errs []error
	if a.http != nil {
		a.logger.Info("shutting down HTTP: waiting for in-flight requests")
		if err := a.http.Shutdown(ctx); errors.Is(err, context.DeadlineExceeded) {
			// A client that never finishes its request must not turn a
			// shutdown on schedule into a failure: its connection is cut.
			a.logger.Warn("shutdown grace period over: closing the connections still open", "grace", a.cfg.ShutdownTimeout)
			a.http.Close()
		} else if err != nil {
			errs = append(errs, fmt.Errorf("http shutdown: %w", err))
		}
	}
	if a.stopBus != nil {
		a.stopBus()
	}
	<-workersStopped
	if a.stopRetries != nil {
		a.stopRetries() // after the last request and task that might add one
	}
	if a.infra != nil {
		// Workers left stopping still use Redis; the process is ending.
		a.infra.keepRedis = a.workers != nil && a.workers.Left()
		a.infra.Close(a.logger)
	}
	a.logger.Info("stopped")
	return errors.Join(errs...)
}
