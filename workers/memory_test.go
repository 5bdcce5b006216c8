package workers

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/seqleague/seqleague/league"
)

// BenchmarkRedisHeldByCompletedGameTasks runs 1,000 turn timers an
// iteration through real workers on the test's own Redis database and
// reports what they leave in Redis once done: keys and bytes per task
// (MEMORY USAGE of every key of the database, which other tests sharing
// the server do not disturb) and the server's used_memory per task (which
// they do: a second opinion only).
func BenchmarkRedisHeldByCompletedGameTasks(b *testing.B) {
	const tasks = 1000
	rdb := redisFor(b)
	w := New(rdb, Config{Concurrency: 50, PollInterval: 50 * time.Millisecond, ShutdownTimeout: time.Second}, slog.New(slog.DiscardHandler))
	ran := make(chan struct{}, tasks)
	w.RegisterGames(timersThatRun{ran: ran})
	if err := w.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(w.Shutdown)
	e := NewEnqueuer(rdb)
	ins := asynq.NewInspectorFromRedisClient(rdb)
	ctx := context.Background()
	var keys, bytes, used float64
	for i := range b.N {
		before := measureRedis(b, rdb)
		for j := range tasks {
			if err := e.TurnTimeout(ctx, fmt.Sprintf("mem-%d-%d", i, j), 1, time.Now()); err != nil {
				b.Fatal(err)
			}
		}
		for range tasks {
			select {
			case <-ran:
			case <-time.After(30 * time.Second):
				b.Fatal("the timers did not all run within 30 s")
			}
		}
		waitForQueueDone(b, ins, QueueGames)
		after := measureRedis(b, rdb)
		keys += float64(after.keys - before.keys)
		bytes += float64(after.bytes - before.bytes)
		used += float64(after.used - before.used)
	}
	n := float64(b.N * tasks)
	b.ReportMetric(keys/n, "keys/task")
	b.ReportMetric(bytes/n, "B/task")
	b.ReportMetric(used/n, "used_memory-B/task")
}

// timersThatRun is a game service whose timers only say that they ran.
type timersThatRun struct {
	league.GameService
	ran chan struct{}
}

func (t timersThatRun) TimeOut(context.Context, string, int) error {
	t.ran <- struct{}{}
	return nil
}

// waitForQueueDone waits until queue has no task waiting or running: a
// handler has returned a moment before asynq records the task done.
func waitForQueueDone(tb testing.TB, ins *asynq.Inspector, queue string) {
	tb.Helper()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		q, err := ins.GetQueueInfo(queue)
		if err == nil && q.Pending+q.Active+q.Scheduled+q.Retry == 0 {
			return
		}
		if time.Now().After(end) {
			tb.Fatalf("queue %s still busy after 10 s: %+v, %v", queue, q, err)
		}
	}
}

// redisUse is what a Redis database holds at one moment.
type redisUse struct {
	keys  int64 // keys in the database
	bytes int64 // their MEMORY USAGE, summed
	used  int64 // the whole server's used_memory
}

func measureRedis(tb testing.TB, rdb *redis.Client) redisUse {
	tb.Helper()
	ctx := context.Background()
	var u redisUse
	iter := rdb.Scan(ctx, 0, "*", 1000).Iterator()
	for iter.Next(ctx) {
		n, err := rdb.MemoryUsage(ctx, iter.Val()).Result()
		if err == redis.Nil {
			continue // gone since the scan
		}
		if err != nil {
			tb.Fatal(err)
		}
		u.keys++
		u.bytes += n
	}
	if err := iter.Err(); err != nil {
		tb.Fatal(err)
	}
	info, err := rdb.Info(ctx, "memory").Result()
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(info, "\r\n") {
		if v, ok := strings.CutPrefix(line, "used_memory:"); ok {
			u.used, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	return u
}
