package workers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func redisFor(t testing.TB) *redis.Client {
	opt, err := redis.ParseURL(testenv.Redis(t))
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	t.Cleanup(func() { c.Close() })
	return c
}

func TestATaskScheduledTwiceIsQueuedOnce(t *testing.T) {
	rdb := redisFor(t)
	e := NewEnqueuer(rdb)
	ctx := context.Background()
	at := time.Now().Add(time.Hour)
	for i := 0; i < 3; i++ {
		if err := e.TurnTimeout(ctx, "g1", 7, at); err != nil {
			t.Fatalf("enqueue %d: %v", i, err)
		}
		if err := e.RoundStart(ctx, "t1", 2, at); err != nil {
			t.Fatal(err)
		}
	}
	ins := asynq.NewInspectorFromRedisClient(rdb)
	total := 0
	for _, q := range []string{QueueGames, QueueSchedule} {
		tasks, err := ins.ListScheduledTasks(q)
		if err != nil {
			t.Fatal(err)
		}
		total += len(tasks)
	}
	if total != 2 {
		t.Fatalf("%d scheduled tasks after enqueueing two keys three times each, want 2", total)
	}
}

// Redis losing its data (a restart without persistence, a flush) while the
// processes run also loses asynq's list of queues, which a client writes
// once per process: a task scheduled twice afterwards found its ID taken,
// and looking the task up failed with "queue not found", so the second
// call failed where it is a no-op (and the sweep stopped at that game,
// the audit's timers 108–131 s late). The queue is listed again and the
// call is the no-op it should be; the queue's tasks show again too.
func TestATaskScheduledTwiceAfterRedisLostItsDataIsQueuedOnce(t *testing.T) {
	rdb := redisFor(t)
	e := NewEnqueuer(rdb)
	ctx := context.Background()
	at := time.Now().Add(time.Hour)
	if err := e.TurnTimeout(ctx, "g0", 1, at); err != nil {
		t.Fatal(err)
	}
	if err := rdb.FlushDB(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := e.TurnTimeout(ctx, "g1", 7, at); err != nil {
			t.Fatalf("enqueue %d after the flush: %v", i, err)
		}
	}
	tasks, err := asynq.NewInspectorFromRedisClient(rdb).ListScheduledTasks(QueueGames)
	if err != nil || len(tasks) != 1 {
		t.Fatalf("%d scheduled tasks (%v), want the one", len(tasks), err)
	}
}

// ForgetRound deletes the round's start and deadline tasks at the times
// given, and nothing else; forgetting what is not there (never made, run
// already, a Redis that never had the queue) is no error.
func TestForgettingARoundDeletesItsTasksAndNoOthers(t *testing.T) {
	rdb := redisFor(t)
	e := NewEnqueuer(rdb)
	ctx := context.Background()
	start := time.Now().Add(time.Hour).Truncate(time.Second)
	deadline := start.Add(time.Hour)
	if err := e.ForgetRound(ctx, "t0", 1, []time.Time{start}, []time.Time{deadline}); err != nil {
		t.Fatalf("forgetting a round of an empty Redis: %v", err)
	}
	for round := 1; round <= 2; round++ {
		if err := e.RoundStart(ctx, "t1", round, start); err != nil {
			t.Fatal(err)
		}
		if err := e.RoundDeadline(ctx, "t1", round, deadline); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		if err := e.ForgetRound(ctx, "t1", 1, []time.Time{start}, []time.Time{deadline, deadline.Add(time.Minute)}); err != nil {
			t.Fatalf("forget round 1: %v", err)
		}
	}
	tasks, err := asynq.NewInspectorFromRedisClient(rdb).ListScheduledTasks(QueueSchedule)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, task := range tasks {
		left = append(left, task.ID)
	}
	slices.Sort(left)
	want := []string{fmt.Sprintf("deadline:t1:2:%d", deadline.Unix()), fmt.Sprintf("round:t1:2:%d", start.Unix())}
	if !slices.Equal(left, want) {
		t.Fatalf("scheduled after forgetting round 1: %v; want round 2's %v", left, want)
	}
}

func TestABadPayloadIsNotRetriedAndAMissingGameIsDone(t *testing.T) {
	h := withPayload(func(ctx context.Context, p gamePayload) error {
		return league.Errorf(league.ENOTFOUND, "no such game")
	})
	if err := h(context.Background(), asynq.NewTask(TypeBotMove, []byte("{"))); !errors.Is(err, asynq.SkipRetry) {
		t.Fatalf("bad payload: %v, want SkipRetry", err)
	}
	if err := h(context.Background(), asynq.NewTask(TypeBotMove, []byte(`{"game":"x","ply":1}`))); !errors.Is(err, asynq.SkipRetry) {
		t.Fatalf("missing game: %v, want SkipRetry", err)
	}
	failing := withPayload(func(ctx context.Context, p gamePayload) error { return errors.New("database down") })
	if err := failing(context.Background(), asynq.NewTask(TypeBotMove, []byte(`{"game":"x","ply":1}`))); err == nil || errors.Is(err, asynq.SkipRetry) {
		t.Fatalf("an outage: %v, want an error that is retried", err)
	}
}

// A task whose worker was killed is run again at once; a task that failed
// backs off as asynq's default does.
func TestATaskWhoseWorkerDiedIsRetriedAtOnce(t *testing.T) {
	task := asynq.NewTask(TypeBotMove, nil)
	retryDelay := retryDelayFor(nil)
	if d := retryDelay(0, asynq.ErrLeaseExpired, task); d != 0 {
		t.Fatalf("retry after a dead worker in %v, want at once", d)
	}
	if d := retryDelay(0, errors.New("database down"), task); d < 15*time.Second {
		t.Fatalf("retry after a failure in %v, want asynq's back-off (15 s or more)", d)
	}
}

// A task that failed because a store was down for a moment (a database
// restart) is retried within seconds, doubling up to transientRetry; any
// other failure still backs off as asynq's default does.
func TestATaskThatMetAnOutageIsRetriedSoon(t *testing.T) {
	task := asynq.NewTask(TypeBotMove, nil)
	outage := errors.New("the database system is shutting down")
	retryDelay := retryDelayFor(func(err error) bool { return errors.Is(err, outage) })
	for n, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, transientRetry, transientRetry, transientRetry} {
		if d := retryDelay(n, fmt.Errorf("bot move: %w", outage), task); d != want {
			t.Errorf("retry %d after an outage in %v, want %v", n, d, want)
		}
	}
	if d := retryDelay(0, errors.New("a bug"), task); d < 15*time.Second {
		t.Fatalf("retry after another failure in %v, want asynq's back-off (15 s or more)", d)
	}
}

// A task that is over — archived after its last retry, or completed and
// retained — no longer blocks its key: the sweep, scheduling the key
// again because the game still waits for it, gets a task that runs.
func TestATaskThatIsOverIsReplacedWhenScheduledAgain(t *testing.T) {
	rdb := redisFor(t)
	e := NewEnqueuer(rdb)
	ins := asynq.NewInspectorFromRedisClient(rdb)
	ctx := context.Background()
	gameID := "over-" + time.Now().Format("150405.000000000")
	id := "bot:" + gameID + ":3"
	if err := e.BotMove(ctx, gameID, 3, time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := ins.ArchiveTask(QueueGames, id); err != nil {
		t.Fatal(err)
	}
	if err := e.BotMove(ctx, gameID, 3, 0); err != nil {
		t.Fatalf("scheduling an archived key again: %v", err)
	}
	info, err := ins.GetTaskInfo(QueueGames, id)
	if err != nil {
		t.Fatal(err)
	}
	if info.State != asynq.TaskStatePending {
		t.Fatalf("task %s is %v after scheduling its archived key again, want pending", id, info.State)
	}
	// Waiting tasks still make scheduling their key a no-op.
	if err := e.BotMove(ctx, gameID, 3, time.Hour); err != nil {
		t.Fatal(err)
	}
	if info, err = ins.GetTaskInfo(QueueGames, id); err != nil || info.State != asynq.TaskStatePending {
		t.Fatalf("task %s: %v, %v after scheduling its pending key again, want it still pending", id, info, err)
	}
	if err := ins.DeleteTask(QueueGames, id); err != nil {
		t.Fatal(err)
	}
}

// A task that came before its time (league.NotYet: a worker whose clock is
// behind the forwarder's) is not dropped nor failed: it runs again at the
// time it gave, its retries untouched.
func TestATaskThatCameEarlyRunsAgainAtItsTime(t *testing.T) {
	rdb := redisFor(t)
	w := New(rdb, Config{Concurrency: 2, PollInterval: 50 * time.Millisecond, ShutdownTimeout: time.Second}, slog.New(slog.DiscardHandler))
	type run struct {
		at      time.Time
		retried int
	}
	runs := make(chan run, 4)
	due := time.Now().Add(2 * time.Second)
	var calls atomic.Int32
	w.Handle("test:early", func(ctx context.Context, task *asynq.Task) error {
		n, _ := asynq.GetRetryCount(ctx)
		runs <- run{time.Now(), n}
		if calls.Add(1) == 1 {
			return fmt.Errorf("round deadline: %w", &league.NotYet{At: due})
		}
		return nil
	})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Shutdown)
	if _, err := asynq.NewClientFromRedisClient(rdb).Enqueue(asynq.NewTask("test:early", nil), asynq.Queue(QueueSchedule), asynq.MaxRetry(20)); err != nil {
		t.Fatal(err)
	}
	var got []run
	for len(got) < 2 {
		select {
		case r := <-runs:
			got = append(got, r)
		case <-time.After(10 * time.Second):
			t.Fatalf("runs %+v; want the task again at %v", got, due)
		}
	}
	// asynq keeps schedule times in whole seconds.
	if got[1].at.Before(due.Add(-time.Second)) || got[1].at.After(due.Add(2*time.Second)) || got[1].retried != 0 {
		t.Fatalf("the early task ran again at %v (retried %d); want it at %v, no retry counted", got[1].at, got[1].retried, due)
	}
	task := asynq.NewTask("test:early", nil)
	if d := retryDelayFor(nil)(0, &league.NotYet{At: time.Now().Add(-time.Minute)}, task); d != minEarlyRetry {
		t.Fatalf("a task early for a time now past comes back in %v, want %v", d, minEarlyRetry)
	}
}

// deadlineRecorder is a tournament service that records the deadline each
// round:deadline task acts on.
type deadlineRecorder struct {
	league.Tournaments
	dues chan time.Time
}

func (d deadlineRecorder) RoundDeadline(ctx context.Context, id string, round int, due time.Time) error {
	d.dues <- due
	return nil
}

// A deadline's task names the deadline it was scheduled for, so that the
// task of a deadline moved since can tell; one enqueued before tasks named
// it acts on whatever deadline is stored (the zero time).
func TestARoundDeadlinesTaskNamesItsDeadline(t *testing.T) {
	rdb := redisFor(t)
	w := New(rdb, Config{Concurrency: 2, PollInterval: 50 * time.Millisecond, ShutdownTimeout: time.Second}, slog.New(slog.DiscardHandler))
	rec := deadlineRecorder{dues: make(chan time.Time, 2)}
	w.RegisterCompetitions(rec)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Shutdown)
	at := time.Now().Add(-time.Minute).Truncate(time.Second)
	if err := NewEnqueuer(rdb).RoundDeadline(context.Background(), "t1", 1, at); err != nil {
		t.Fatal(err)
	}
	old := asynq.NewTask(TypeRoundDeadline, []byte(`{"tournament":"t1","round":2}`))
	if _, err := asynq.NewClientFromRedisClient(rdb).Enqueue(old, asynq.Queue(QueueSchedule)); err != nil {
		t.Fatal(err)
	}
	var got []time.Time
	for len(got) < 2 {
		select {
		case due := <-rec.dues:
			got = append(got, due)
		case <-time.After(10 * time.Second):
			t.Fatalf("deadlines acted on: %v; want two tasks run", got)
		}
	}
	if !(got[0].Equal(at) && got[1].IsZero()) && !(got[1].Equal(at) && got[0].IsZero()) {
		t.Fatalf("deadlines acted on: %v; want %v and the zero time", got, at)
	}
}

// A game task that failed (PostgreSQL down, say) waits out asynq's
// back-off, which grows to minutes and then hours; while it waits, its key
// is taken, so the sweep's call for it (the game's clock ran out long ago)
// was a no-op, and the game stood still until the back-off ended. Asked
// for now, it now runs now; asked for later, it keeps its back-off.
func TestATaskBackingOffAfterAFailureRunsWhenTheSweepAsksForIt(t *testing.T) {
	rdb := redisFor(t)
	w := New(rdb, Config{Concurrency: 2, PollInterval: 50 * time.Millisecond, ShutdownTimeout: time.Second}, slog.New(slog.DiscardHandler))
	gameID := "backoff-" + time.Now().Format("150405.000000000")
	runs := make(chan time.Time, 4)
	var calls atomic.Int32
	w.RegisterGames(failingOnce{runs: runs, calls: &calls})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Shutdown)
	e := NewEnqueuer(rdb)
	ctx := context.Background()
	if err := e.TurnTimeout(ctx, gameID, 4, time.Now()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-runs:
	case <-time.After(10 * time.Second):
		t.Fatal("the timer never ran")
	}
	ins := asynq.NewInspectorFromRedisClient(rdb)
	id := fmt.Sprintf("turn:%s:4", gameID)
	var info *asynq.TaskInfo
	for end := time.Now().Add(5 * time.Second); ; {
		var err error
		if info, err = ins.GetTaskInfo(QueueGames, id); err == nil && info.State == asynq.TaskStateRetry {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("task %s after its failure: %+v, %v; want it waiting to retry", id, info, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if wait := time.Until(info.NextProcessAt); wait < 10*time.Second {
		t.Fatalf("the failed timer retries in %v; the test needs asynq's back-off (15 s or more)", wait)
	}
	// Asked for a later time, it keeps its back-off.
	if err := e.TurnTimeout(ctx, gameID, 4, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if info, err := ins.GetTaskInfo(QueueGames, id); err != nil || info.State != asynq.TaskStateRetry {
		t.Fatalf("task %s after a call for a later time: %+v, %v; want it still waiting to retry", id, info, err)
	}
	asked := time.Now()
	if err := e.TurnTimeout(ctx, gameID, 4, asked.Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	select {
	case at := <-runs:
		if calls.Load() != 2 {
			t.Fatalf("the timer ran %d times, want twice", calls.Load())
		}
		t.Logf("the timer ran again %v after the sweep asked for it", at.Sub(asked))
	case <-time.After(5 * time.Second):
		t.Fatalf("the timer did not run within 5 s of the sweep asking for it; it waits for its back-off until %v", info.NextProcessAt)
	}
}

// failingOnce is a game service whose timer fails the first time it runs.
type failingOnce struct {
	league.GameService
	runs  chan time.Time
	calls *atomic.Int32
}

func (f failingOnce) TimeOut(ctx context.Context, gameID string, ply int) error {
	// Count before reporting the run: the test reads the count as soon as
	// it receives from runs.
	n := f.calls.Add(1)
	f.runs <- time.Now()
	if n == 1 {
		return errors.New("database down")
	}
	return nil
}

// A sweep runs as the workers start, not only a period later: a worker
// back after an outage (Redis restarted empty, say) reschedules the
// overdue games' lost tasks at once; they waited 30 s more for its first
// tick.
func TestASweepRunsAsTheWorkersStart(t *testing.T) {
	w := New(redisFor(t), Config{Concurrency: 1, PollInterval: 50 * time.Millisecond, ShutdownTimeout: time.Second}, slog.New(slog.DiscardHandler))
	ran := make(chan struct{}, 1)
	w.Every(time.Hour, "test", func(context.Context) error {
		select {
		case ran <- struct{}{}:
		default:
		}
		return nil
	})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Shutdown)
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("an hourly sweep had not run 5 s after the workers started")
	}
}

// Workers started on a Redis that lost its data list the queues again, as
// they start: asynq's list is written once per process, and without it
// the metrics showed only the default queue while the games queue held
// the backlog.
func TestWorkersListTheQueuesAgainAfterRedisLostItsData(t *testing.T) {
	rdb := redisFor(t)
	ctx := context.Background()
	if err := NewEnqueuer(rdb).TurnTimeout(ctx, "g1", 1, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	rdb.FlushDB(ctx)
	w := New(rdb, Config{Concurrency: 1, PollInterval: 50 * time.Millisecond, ShutdownTimeout: time.Second}, slog.New(slog.DiscardHandler))
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Shutdown)
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		listed, err := asynq.NewInspectorFromRedisClient(rdb).Queues()
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(listed)
		if slices.Equal(listed, []string{QueueDefault, QueueGames, QueueSchedule}) {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("queues listed 5 s after the workers started: %v; want all three", listed)
		}
	}
}

// With Redis hung, asynq's shutdown waited out a Redis timeout in each of
// its loops and goodbyes, past any shutdown timeout (23 s measured with the
// binary, whose grace is 10 s). Shutdown now returns within the shutdown
// timeout, its margin for asynq included (it waited a margin past it).
func TestWorkersStopWithinTheShutdownTimeoutWhileRedisHangs(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: testenv.HungRedis(t), ContextTimeoutEnabled: true})
	grace := time.Second
	w := New(rdb, Config{Concurrency: 2, PollInterval: 50 * time.Millisecond, ShutdownTimeout: grace}, slog.New(slog.DiscardHandler))
	t.Cleanup(func() {
		if !w.Left() { // else asynq, still stopping, uses it
			rdb.Close()
		}
	})
	w.Every(time.Hour, "test", func(context.Context) error { return nil })
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // its loops are waiting on Redis
	start := time.Now()
	w.Shutdown()
	if took := time.Since(start); took > grace+shutdownLate {
		t.Fatalf("the workers took %v to stop with Redis hung, want at most %v", took, grace)
	}
	if !w.Left() {
		t.Fatal("Shutdown says asynq stopped, with Redis hung")
	}
}

// shutdownLate is how late past its timeout a shutdown may end in a test:
// a timer's lateness on a machine shared with other tests.
const shutdownLate = 300 * time.Millisecond

// WhenRedisLost's f runs once as the workers start on a Redis without
// their marker, not again while the marker stays, and again once Redis
// lost its data while they ran; two worker processes run it once between
// them.
func TestWhatARedisLostIsScheduledOnceWhenItIsLost(t *testing.T) {
	rdb := redisFor(t)
	ctx := context.Background()
	ran := make(chan struct{}, 8)
	for range 2 { // two worker processes on one Redis
		w := New(rdb, Config{Concurrency: 1, PollInterval: 50 * time.Millisecond, ShutdownTimeout: time.Second}, slog.New(slog.DiscardHandler))
		w.WhenRedisLost(20*time.Millisecond, "test", func(context.Context) error {
			ran <- struct{}{}
			return nil
		})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Shutdown)
	}
	count := func(wait time.Duration) int {
		n := 0
		deadline := time.After(wait)
		for {
			select {
			case <-ran:
				n++
			case <-deadline:
				return n
			}
		}
	}
	if n := count(2 * time.Second); n != 1 {
		t.Fatalf("at the start on an empty Redis f ran %d times, want once", n)
	}
	rdb.FlushDB(ctx)
	if n := count(2 * time.Second); n != 1 {
		t.Fatalf("after Redis lost its data f ran %d times, want once", n)
	}
}
