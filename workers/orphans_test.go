package workers

import (
	"context"
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
	ctx := context.Background()
	if _, err := asynq.NewClientFromRedisClient(rdb).Enqueue(asynq.NewTask("test:held", []byte(`{"game":"g1","ply":7}`)),
		asynq.Queue(QueueGames), asynq.TaskID("bot:g1:7"), asynq.MaxRetry(10)); err != nil {
		t.Fatal(err)
	}

	// A worker process takes the task and is killed while it runs it.
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
