package postgres

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// laterTries holds the work after a commit (a task to schedule on Redis)
// that failed, and tries it again in the background until it succeeds.
// Without it a task not scheduled waited for the sweep, which finds a game
// only once its task is reconcileGrace overdue (and the restart marker
// only when Redis lost its data): a Redis that hung for 5 s held a game
// 35 s on the bot's lost move (the resilience audit). Tried again, a
// hiccup of Redis costs the game about as long as the hiccup.
//
// One goroutine tries the oldest first, and on the first failure leaves
// the rest for the next round: while Redis is down every try would wait
// out effectsTimeout, one after another. The wait between rounds doubles
// from retryFirst to retryMax, and starts again at retryFirst once a round
// went through. What is held is bounded twice: a task held retryFor (the
// sweep's grace: by then the sweep finds its game, or soon will) is
// dropped, and past retryHold held tasks a new failure is dropped at once
// (the sweep is there for those too). Stop drops what is held: the
// process is ending, and the sweep of another finds the games.
type laterTries struct {
	logger *slog.Logger
	ctx    context.Context // cancelled by stop
	stop   context.CancelFunc

	mu      sync.Mutex
	held    []laterTry
	running bool          // a goroutine is trying them
	done    chan struct{} // closed when that goroutine ends
}

type laterTry struct {
	f     func(context.Context) error
	until time.Time
}

const (
	retryFirst = 250 * time.Millisecond
	retryMax   = 4 * time.Second
	retryFor   = reconcileGrace
	retryHold  = 10000 // a closure over a few IDs each
)

func newLaterTries(logger *slog.Logger) *laterTries {
	ctx, stop := context.WithCancel(context.Background())
	return &laterTries{logger: logger, ctx: ctx, stop: stop}
}

// add holds f, which has just failed, to be tried again.
func (l *laterTries) add(f func(context.Context) error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ctx.Err() != nil {
		return
	}
	if len(l.held) >= retryHold {
		l.logger.Error("too many game tasks waiting to be scheduled again: leaving this one to the sweep", "held", len(l.held))
		return
	}
	l.held = append(l.held, laterTry{f: f, until: time.Now().Add(retryFor)})
	if !l.running {
		l.running, l.done = true, make(chan struct{})
		go l.run(l.done)
	}
}

// run tries what is held until nothing is, or until Stop.
func (l *laterTries) run(done chan struct{}) {
	defer close(done)
	wait := retryFirst
	for {
		select {
		case <-time.After(wait):
		case <-l.ctx.Done():
			return
		}
		l.mu.Lock()
		round := l.held
		l.held = nil
		l.mu.Unlock()

		var left []laterTry
		var failed *laterTry
		scheduled, dropped := 0, 0
		now := time.Now()
		for i, t := range round {
			if now.After(t.until) {
				dropped++
				continue
			}
			if failed != nil {
				left = append(left, t)
				continue
			}
			ctx, cancel := context.WithTimeout(l.ctx, effectsTimeout)
			err := t.f(ctx)
			cancel()
			if err != nil {
				failed = &round[i]
				continue
			}
			scheduled++
		}
		if failed != nil {
			// Last: a task failing for a reason of its own does not keep
			// the others waiting behind it.
			left = append(left, *failed)
		}
		if scheduled > 0 {
			l.logger.Info("scheduled game tasks on a later try", "tasks", scheduled)
		}
		if dropped > 0 {
			l.logger.Error("gave up scheduling game tasks again: the sweep will find their games", "tasks", dropped)
		}

		l.mu.Lock()
		l.held = append(left, l.held...)
		if l.ctx.Err() != nil {
			l.held = nil // Stop dropped them
		}
		if len(l.held) == 0 {
			l.running = false
			l.mu.Unlock()
			return
		}
		l.mu.Unlock()
		if failed != nil {
			wait = min(2*wait, retryMax)
		} else {
			wait = retryFirst
		}
	}
}

// Stop drops what is held, ends the tries (one under way is cancelled) and
// waits for their goroutine to end.
func (l *laterTries) Stop() {
	l.mu.Lock()
	l.stop()
	n := len(l.held)
	l.held = nil
	done := l.done
	running := l.running
	l.mu.Unlock()
	if n > 0 {
		l.logger.Warn("stopping with game tasks not scheduled: the sweep will find their games", "tasks", n)
	}
	if running {
		<-done
	}
}
