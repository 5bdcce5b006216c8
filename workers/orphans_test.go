package workers

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/seqleague/seqleague/league/testenv"
)

// deadWorkerEnv names, for the test binary run as a worker process to be
// killed, the Redis it works on.
const deadWorkerEnv = "SEQLEAGUE_TEST_DEAD_WORKER_REDIS"

// A worker process killed with -9 while it runs a task (a bot's move, a
// timer waiting out its last second) left it leased to the dead process:
// asynq recovers it only once the 30 s lease has run out and its
// recoverer, which looks once a minute, has found it. Another worker,
// alive all along or started again at once, did not run it: the game
// stood still 60-80 s (the resilience audit). It runs again within
// seconds of the dead worker's last heartbeat record expiring.
func TestATaskAKilledWorkerHeldRunsAgainSoon(t *testing.T) {
	url := testenv.Redis(t)
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	t.Cleanup(func() { rdb.Close() })
	if _, err := asynq.NewClientFromRedisClient(rdb).Enqueue(asynq.NewTask("test:held", []byte(`{"game":"g1","ply":7}`)),
		asynq.Queue(QueueGames), asynq.TaskID("bot:g1:7"), asynq.MaxRetry(10)); err != nil {
		t.Fatal(err)
	}

	killWorkerHolding(t, rdb, url)

	// A worker started at once runs it.
	w := New(rdb, Config{Concurrency: 2, PollInterval: 50 * time.Millisecond, ShutdownTimeout: time.Second}, slog.New(slog.DiscardHandler))
	ran := make(chan string, 4)
	w.Handle("test:held", func(ctx context.Context, task *asynq.Task) error {
		id, _ := asynq.GetTaskID(ctx)
		ran <- id
		return nil
	})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Shutdown)
	select {
	case id := <-ran:
		t.Logf("the task ran again as %s", id)
	case <-time.After(45 * time.Second):
		// asynq alone runs it a minute after the worker started, at its
		// recoverer's second look.
		t.Fatal("the task the killed worker held had not run again 45 s after it was killed")
	}
}

// A Redis that hung longer than the 10 s an asynq server's record lasts
// let every live server's record lapse: for a few seconds after, until
// each server's next heartbeat went through, every task running looked
// held by a dead worker, and got a copy (the binary, after a 15 s kill
// -STOP of Redis). After a check that Redis did not answer, no copy is
// made for afterOutage; a real orphan gets its copy after that.
func TestNoCopyIsMadeWhileServersMayNotHaveBeatenSinceRedisAnswered(t *testing.T) {
	directURL, pausedURL, hang, resume := testenv.RedisThatPauses(t)
	opt, err := redis.ParseURL(directURL)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	t.Cleanup(func() { rdb.Close() })
	if _, err := asynq.NewClientFromRedisClient(rdb).Enqueue(asynq.NewTask("test:held", nil),
		asynq.Queue(QueueGames), asynq.TaskID("bot:g1:7"), asynq.MaxRetry(10)); err != nil {
		t.Fatal(err)
	}
	killWorkerHolding(t, rdb, directURL)

	popt, err := redis.ParseURL(pausedURL)
	if err != nil {
		t.Fatal(err)
	}
	popt.ReadTimeout, popt.WriteTimeout, popt.MaxRetries = 300*time.Millisecond, 300*time.Millisecond, -1
	paused := redis.NewClient(popt)
	t.Cleanup(func() { paused.Close() })
	o := newOrphans(asynq.NewInspectorFromRedisClient(paused), asynq.NewClientFromRedisClient(paused), slog.New(slog.DiscardHandler))
	clock := time.Now()
	o.now = func() time.Time { return clock }
	ctx := context.Background()
	queues := []string{QueueGames}
	// Once the dead worker's record has lapsed, the task is held by nobody.
	for end := time.Now().Add(60 * time.Second); len(o.unheld) == 0; time.Sleep(200 * time.Millisecond) {
		if err := o.check(ctx, queues); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(end) {
			t.Fatal("the task the killed worker held was still listed as held 60 s after the kill")
		}
	}
	hang()
	if err := o.check(ctx, queues); err == nil {
		t.Fatal("a check with Redis hung did not fail")
	}
	resume()
	copied := func() bool {
		t.Helper()
		_, err := asynq.NewInspectorFromRedisClient(rdb).GetTaskInfo(QueueGames, "bot:g1:7"+orphanSuffix)
		if err != nil && !errors.Is(err, asynq.ErrTaskNotFound) {
			t.Fatal(err)
		}
		return err == nil
	}
	// The checks go on every orphanCheck.
	failedAt := clock
	for !copied() {
		clock = clock.Add(orphanCheck)
		if err := o.check(ctx, queues); err != nil {
			t.Fatal(err)
		}
		if !copied() {
			continue
		}
		if after := clock.Sub(failedAt); after < afterOutage {
			t.Fatalf("a copy was made %v after a check Redis did not answer; the live servers may not have beaten since", after)
		}
		if after := clock.Sub(failedAt); after > afterOutage+orphanCheck {
			t.Fatalf("the copy was made only %v after the check that failed", after)
		}
	}

	// A check that ends late (its calls waited for a Redis that hung,
	// answering at last) starts a quiet time too, though it did not fail.
	o.lastDone = clock
	clock = clock.Add(20 * time.Second)
	if o.ended(); !o.quietUntil.Equal(clock.Add(afterOutage)) {
		t.Fatalf("a check that ended 20 s after the last left the quiet time at %v, want %v", o.quietUntil, clock.Add(afterOutage))
	}
}

// killWorkerHolding runs a worker process on the Redis at url (the test
// binary, as TestHelperWorkerThatIsKilled), waits for it to take the
// test:held task enqueued, and kills it with -9.
func killWorkerHolding(t *testing.T, rdb *redis.Client, url string) {
	t.Helper()
	ctx := context.Background()
	child := exec.Command(os.Args[0], "-test.run=^TestHelperWorkerThatIsKilled$")
	child.Env = append(os.Environ(), deadWorkerEnv+"="+url)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { child.Process.Kill(); child.Wait() })
	for end := time.Now().Add(60 * time.Second); rdb.Exists(ctx, "test:held").Val() == 0; {
		if time.Now().After(end) {
			t.Fatal("the worker process never took the task")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	child.Wait()

}

// TestHelperWorkerThatIsKilled is the worker process that
// TestATaskAKilledWorkerHeldRunsAgainSoon kills: it takes test:held tasks,
// says so in Redis, and never finishes them.
func TestHelperWorkerThatIsKilled(t *testing.T) {
	url := os.Getenv(deadWorkerEnv)
	if url == "" {
		t.Skip("run by TestATaskAKilledWorkerHeldRunsAgainSoon")
	}
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	w := New(rdb, Config{Concurrency: 2, PollInterval: 50 * time.Millisecond, ShutdownTimeout: time.Second}, slog.New(slog.DiscardHandler))
	w.Handle("test:held", func(ctx context.Context, task *asynq.Task) error {
		rdb.Set(ctx, "test:held", "1", 0)
		select {} // until killed
	})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	select {}
}
