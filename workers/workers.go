package workers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/seqleague/seqleague/league"
)

// Queues and their priorities: timers and bot moves keep games moving and
// must not wait behind settlement or scheduling.
const (
	QueueGames    = "games"
	QueueDefault  = "default"
	QueueSchedule = "schedule"
)

var queuePriorities = map[string]int{QueueGames: 6, QueueDefault: 3, QueueSchedule: 1}

// Config tunes the worker pool.
type Config struct {
	Concurrency int
	// PollInterval is how often asynq moves due scheduled tasks to their
	// queues; it bounds how late a turn timer can fire.
	PollInterval time.Duration
	// ShutdownTimeout bounds Shutdown: in-flight tasks may run for it
	// after a stop, less a margin for asynq's goodbyes to Redis
	// (shutdownMargin, at most a quarter of it).
	ShutdownTimeout time.Duration
	// Transient says whether a task's error is a moment's outage of a
	// store (postgres.Unavailable): such a task is retried within seconds
	// (transientRetry), not after asynq's back-off of up to a minute.
	Transient func(error) bool
}

// Workers is a running asynq server with Seqleague's handlers.
type Workers struct {
	rdb    redis.UniversalClient
	srv    *asynq.Server
	mux    *asynq.ServeMux
	logger *slog.Logger
	stop   context.CancelFunc
	sweeps []sweep
	done   chan struct{}
	grace  time.Duration // Config.ShutdownTimeout
	left   atomic.Bool   // Shutdown gave up waiting for asynq
}

// sweep is work a worker process does on a clock rather than from a task.
type sweep struct {
	name  string
	every time.Duration
	run   func(context.Context) error
}

// New builds the worker server on an existing Redis client.
func New(rdb redis.UniversalClient, cfg Config, logger *slog.Logger) *Workers {
	if cfg.Concurrency == 0 {
		// Timer tasks may wait up to a second for their exact deadline, so
		// the pool is sized for waiting goroutines, not for CPU.
		cfg.Concurrency = 100
	}
	if cfg.PollInterval == 0 {
		cfg.PollInterval = 200 * time.Millisecond
	}
	if cfg.ShutdownTimeout == 0 {
		cfg.ShutdownTimeout = 8 * time.Second
	}
	srv := asynq.NewServerFromRedisClient(rdb, asynq.Config{
		Concurrency:              cfg.Concurrency,
		Queues:                   queuePriorities,
		DelayedTaskCheckInterval: cfg.PollInterval,
		// Bot moves are enqueued for immediate processing; an idle worker
		// must notice them at once, not after asynq's default second.
		TaskCheckInterval: min(cfg.PollInterval, 20*time.Millisecond),
		ShutdownTimeout:   cfg.ShutdownTimeout - min(shutdownMargin, cfg.ShutdownTimeout/4),
		Logger:            asynqLogger{logger},
		LogLevel:          asynq.WarnLevel,
		RetryDelayFunc:    retryDelayFor(cfg.Transient),
		IsFailure:         func(err error) bool { return !isNotYet(err) },
		ErrorHandler: asynq.ErrorHandlerFunc(func(ctx context.Context, task *asynq.Task, err error) {
			if isNotYet(err) {
				logger.DebugContext(ctx, "task came early; it runs again at its time", slog.String("type", task.Type()), slog.String("error", err.Error()))
				return
			}
			// Which game or round waits, and for how many tries: the
			// payloads are a few ids, and the type alone told an operator
			// nothing of what was held up.
			retried, _ := asynq.GetRetryCount(ctx)
			id, _ := asynq.GetTaskID(ctx)
			logger.ErrorContext(ctx, "task failed", slog.String("type", task.Type()), slog.String("task_id", id),
				slog.String("payload", string(task.Payload())), slog.Int("retried", retried), slog.String("error", err.Error()))
		}),
	})
	w := &Workers{rdb: rdb, srv: srv, mux: asynq.NewServeMux(), logger: logger, grace: cfg.ShutdownTimeout}
	// After Redis lost its data the queues are listed again within a
	// minute, for the metrics and the inspector (see listQueues).
	w.Every(time.Minute, "list queues", func(ctx context.Context) error {
		return listQueues(ctx, rdb, slices.Collect(maps.Keys(queuePriorities))...)
	})
	// A task a dead worker held runs again within seconds (see orphans).
	orphans := newOrphans(asynq.NewInspectorFromRedisClient(rdb), asynq.NewClientFromRedisClient(rdb), logger)
	queues := slices.Sorted(maps.Keys(queuePriorities))
	w.Every(orphanCheck, "run again what dead workers held", func(ctx context.Context) error {
		return orphans.check(ctx, queues)
	})
	return w
}

// retryDelayFor is asynq's back-off, except for a task whose worker died
// holding it (its lease expired): that task did not fail, so it runs again
// at once. asynq finds such a task only 30-90 s after the crash, and a
// game waiting on its bot's move has waited long enough (a copy of it
// has run long since, see orphans; this run finds it done). A task that
// came early (league.NotYet) runs again at its time, and at least
// minEarlyRetry later: a worker whose clock is behind may be handed it
// again at once by a forwarder whose clock is right.
// An error transient says is a store's moment of outage (a database
// restart) is retried after 1, 2, 4 then every 8 seconds: asynq's back-off
// held a bot's move or a timeout 20-60 s after a restart of under a second
// (the faults audit).
func retryDelayFor(transient func(error) bool) asynq.RetryDelayFunc {
	return func(n int, err error, task *asynq.Task) time.Duration {
		var early *league.NotYet
		switch {
		case errors.As(err, &early):
			return max(time.Until(early.At), minEarlyRetry)
		case errors.Is(err, asynq.ErrLeaseExpired):
			return 0
		case transient != nil && transient(err):
			return min(time.Second<<min(n, 3), transientRetry)
		}
		return asynq.DefaultRetryDelayFunc(n, err, task)
	}
}

// transientRetry is the longest a task waits between tries while a store
// is down.
const transientRetry = 8 * time.Second

// minEarlyRetry is the least a task that came early waits to run again.
const minEarlyRetry = time.Second

// isNotYet reports whether a task's error says it came before its time:
// not a failure, so it counts no retry and is not logged as one.
func isNotYet(err error) bool {
	var early *league.NotYet
	return errors.As(err, &early)
}

// WhenRedisLost runs f, once among all worker processes, when the workers
// find Redis without the marker they leave in it: as they start on a new
// Redis or one that lost its data while they were down, and, checked every
// d, when it loses its data while they run (a restart without
// persistence, a flush). f is to schedule every task the games and rounds
// under way wait for: they were lost with the data, and the sweep finds a
// game only once its task is 30 s overdue, which held every game 36-63 s
// after a Redis restart (the faults audit). The marker goes again if f
// fails, so the next check tries again.
func (w *Workers) WhenRedisLost(d time.Duration, name string, f func(context.Context) error) {
	w.Every(d, name, func(ctx context.Context) error {
		fresh, err := w.rdb.SetNX(ctx, redisMarker, time.Now().UTC().Format(time.RFC3339), 0).Result()
		if err != nil || !fresh {
			return err
		}
		if err := f(ctx); err != nil {
			w.rdb.Del(context.WithoutCancel(ctx), redisMarker)
			return err
		}
		return nil
	})
}

// redisMarker is the key whose absence says Redis lost what the workers
// left in it.
const redisMarker = "seqleague:redis-marker"

// Every runs f as the workers start and then every d while they run
// (register before Start). Every worker process runs its own, so f must be
// safe to run at once in several: the sweeps only enqueue tasks under
// their business keys. The run at the start is for a worker coming back
// after an outage (Redis lost its queue, say): the games it finds overdue
// have waited long enough without waiting for its first tick too.
func (w *Workers) Every(d time.Duration, name string, f func(context.Context) error) {
	w.sweeps = append(w.sweeps, sweep{name: name, every: d, run: f})
}

// Handle registers the handler of one task type.
func (w *Workers) Handle(taskType string, h asynq.HandlerFunc) { w.mux.HandleFunc(taskType, h) }

// Start begins processing in the background.
func (w *Workers) Start() error {
	if err := w.srv.Start(w.mux); err != nil {
		return fmt.Errorf("start workers: %w", err)
	}
	ctx, stop := context.WithCancel(context.Background())
	w.stop, w.done = stop, make(chan struct{})
	go w.runSweeps(ctx)
	return nil
}

func (w *Workers) runSweeps(ctx context.Context) {
	defer close(w.done)
	var wg sync.WaitGroup
	for _, s := range w.sweeps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run := func() {
				if err := s.run(ctx); err != nil && ctx.Err() == nil {
					w.logger.ErrorContext(ctx, "sweep failed", "sweep", s.name, "error", err)
				}
			}
			run()
			t := time.NewTicker(s.every)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					run()
				}
			}
		}()
	}
	wg.Wait()
}

// Shutdown stops the sweeps and stops taking tasks, and waits for running
// ones (the shutdown timeout less its margin); unfinished tasks return to
// their queue. asynq bounds only the wait for running tasks: its own
// goodbyes to Redis (each of its loops' last call, the server's state)
// each wait out a Redis timeout when Redis hangs, 23 s in all measured
// with the binary. So Shutdown returns within the shutdown timeout,
// counted from its call, and leaves asynq to it: a task still held comes
// back when its lease runs out (retried at once, see retryDelayFor), and
// every handler is idempotent. A sweep caught in a call to a hung Redis
// is left the same way.
func (w *Workers) Shutdown() {
	deadline := time.After(w.grace)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		if w.stop != nil {
			w.stop()
			<-w.done
		}
		w.srv.Shutdown()
	}()
	select {
	case <-stopped:
	case <-deadline:
		w.left.Store(true)
		w.logger.Warn("workers did not stop within the shutdown timeout (is Redis answering?): leaving; the tasks they held run again when their lease runs out",
			"timeout", w.grace)
	}
}

// Left reports whether Shutdown gave up waiting for asynq to stop: its
// goroutines still use the Redis client, which must then stay open (asynq's
// subscriber of cancellations panics on a closed one).
func (w *Workers) Left() bool { return w.left.Load() }

// shutdownMargin is how long of the shutdown timeout Shutdown keeps for
// asynq's goodbyes past its wait for running tasks: enough for a Redis
// that answers. A timeout under 4 s keeps a quarter of itself instead.
const shutdownMargin = time.Second

// asynqLogger routes asynq's logs into slog.
type asynqLogger struct{ l *slog.Logger }

func (a asynqLogger) Debug(args ...any) { a.l.Debug(fmt.Sprint(args...), "component", "asynq") }
func (a asynqLogger) Info(args ...any)  { a.l.Info(fmt.Sprint(args...), "component", "asynq") }
func (a asynqLogger) Warn(args ...any)  { a.l.Warn(fmt.Sprint(args...), "component", "asynq") }
func (a asynqLogger) Error(args ...any) { a.l.Error(fmt.Sprint(args...), "component", "asynq") }
func (a asynqLogger) Fatal(args ...any) {
	a.l.Error(fmt.Sprint(args...), "component", "asynq", "fatal", true)
}
