package workers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/hibiken/asynq"
)

// A worker process that dies (kill -9, a crash, a lost machine) leaves the
// tasks it was running active in Redis, leased to it. asynq hands such a
// task to another worker only once its lease has run out (30 s, fixed in
// asynq: rdb.LeaseDuration) and its recoverer, which looks once a minute
// (not configurable either), has found it: 30-90 s in which the game
// waiting on that bot move or timer stood still, however many other
// workers were alive (the resilience audit: stalls of 60-80 s). Nor could
// the sweep help: a task asked for again under its ID while it is active
// is "already there".
//
// orphans finds such tasks sooner, from what live workers say they hold:
// every asynq server writes the tasks it runs to Redis at each heartbeat
// (every heartbeatEvery), under a key that expires soon after its last
// heartbeat. An active task that no live server has listed for orphanAfter
// is held by a dead one, and orphans enqueues a copy of it under an ID of
// its own (the original's plus orphanSuffix), to run at once. Every
// handler is idempotent (a game task names its ply, and finds the game past
// it if it ran), so a copy of a task that was in fact still running
// somewhere, and the original when asynq recovers it in the end, do
// nothing. The copy is retained a while once done, so that the checks that
// still find the original active meanwhile find its ID taken and do not
// run it again and again.
type orphans struct {
	ins    *asynq.Inspector
	client *asynq.Client
	logger *slog.Logger
	// unheld is when each active task (by queue and ID) was first seen
	// held by no live server, of the tasks still so at the last check.
	unheld map[taskKey]time.Time
	// quietUntil is when copies may be made again after a check that
	// failed or came late (see afterOutage); lastDone is when the last
	// check that did not fail ended.
	quietUntil, lastDone time.Time
	now                  func() time.Time
}

type taskKey struct{ queue, id string }

const (
	// orphanCheck is how often a worker process looks for orphans.
	orphanCheck = 3 * time.Second
	// heartbeatEvery is how often asynq's servers write what they hold
	// (asynq's heartbeater interval); their record lasts twice that.
	heartbeatEvery = 5 * time.Second
	// orphanAfter is how long an active task must stay unlisted by every
	// live server to be taken for an orphan: past a heartbeat, since a task
	// that has just started is listed only at its server's next one.
	orphanAfter = heartbeatEvery + time.Second
	// orphanSuffix makes a copy's ID: a later enqueue of the original
	// business key still finds the original (active, or recovered and
	// run), and a copy of a copy gets one more suffix.
	orphanSuffix = ":orphan"
	// orphanRetention keeps a finished copy past the time asynq takes to
	// recover the original (a 30 s lease and a recoverer every minute).
	orphanRetention = 2 * time.Minute
	// afterOutage is how long no copy is made after a check that failed
	// (Redis did not answer it) or that ended late (its calls waited for
	// a Redis that hung, or the previous one did): the live servers could
	// not write what they hold either, and a hang of Redis longer than
	// their record's 10 s lets every record lapse, so that every task
	// running looked held by nobody until each server's next heartbeat
	// went through (30 copies of tasks running fine after three 15 s kill
	// -STOPs of Redis). Past it a server not listed again is gone.
	afterOutage = 3 * heartbeatEvery
	// lateCheck is how long after the last check one may end before it is
	// taken for late.
	lateCheck = orphanCheck + 2*time.Second
	// listPage is the page size for listing active tasks.
	listPage = 500
)

func newOrphans(ins *asynq.Inspector, client *asynq.Client, logger *slog.Logger) *orphans {
	return &orphans{ins: ins, client: client, logger: logger, unheld: map[taskKey]time.Time{}, now: time.Now}
}

// check runs once every orphanCheck (a sweep: one goroutine, never two at
// once) and enqueues a copy of each task held by a dead worker.
func (o *orphans) check(ctx context.Context, queues []string) error {
	err := o.find(ctx, queues)
	if err != nil && ctx.Err() == nil {
		o.quietUntil = o.now().Add(afterOutage)
	}
	return err
}

func (o *orphans) find(ctx context.Context, queues []string) error {
	// Active tasks first, then what the servers hold: a task that ends in
	// between looks unheld once, and is gone from the list at the next
	// check. One that has just started is not listed by its server yet;
	// orphanAfter waits for its next heartbeat.
	var active []*asynq.TaskInfo
	for _, q := range queues {
		for page := 1; ; page++ {
			tasks, err := o.ins.ListActiveTasks(q, asynq.PageSize(listPage), asynq.Page(page))
			if errors.Is(err, asynq.ErrQueueNotFound) {
				break
			}
			if err != nil {
				return err
			}
			active = append(active, tasks...)
			if len(tasks) < listPage {
				break
			}
		}
	}
	if len(active) == 0 {
		o.ended()
		clear(o.unheld)
		return nil
	}
	servers, err := o.ins.Servers()
	if err != nil {
		return err
	}
	held := map[taskKey]bool{}
	for _, s := range servers {
		for _, w := range s.ActiveWorkers {
			held[taskKey{w.Queue, w.TaskID}] = true
		}
	}
	now := o.ended()
	still := make(map[taskKey]time.Time, len(o.unheld))
	var failed []error
	for _, t := range active {
		k := taskKey{t.Queue, t.ID}
		if held[k] {
			continue
		}
		since, ok := o.unheld[k]
		if !ok {
			since = now
		}
		if now.Sub(since) < orphanAfter || now.Before(o.quietUntil) {
			still[k] = since
			continue
		}
		if err := o.rerun(ctx, t); err != nil {
			still[k] = since // try again at the next check
			failed = append(failed, err)
		}
	}
	o.unheld = still
	return errors.Join(failed...)
}

// ended notes that a check has read what it needs, and returns the time:
// one that ends late starts a quiet time (afterOutage).
func (o *orphans) ended() time.Time {
	now := o.now()
	if !o.lastDone.IsZero() && now.Sub(o.lastDone) > lateCheck && now.Add(afterOutage).After(o.quietUntil) {
		o.quietUntil = now.Add(afterOutage)
	}
	o.lastDone = now
	return now
}

// rerun enqueues a copy of the orphan t, to run now. A copy already there
// (made by another worker process's check, or by this one and run) is left.
func (o *orphans) rerun(ctx context.Context, t *asynq.TaskInfo) error {
	id := t.ID + orphanSuffix
	opts := []asynq.Option{asynq.Queue(t.Queue), asynq.TaskID(id), asynq.MaxRetry(t.MaxRetry), asynq.Retention(orphanRetention)}
	if t.Timeout > 0 {
		opts = append(opts, asynq.Timeout(t.Timeout))
	}
	if !t.Deadline.IsZero() {
		opts = append(opts, asynq.Deadline(t.Deadline))
	}
	_, err := o.client.EnqueueContext(ctx, asynq.NewTask(t.Type, t.Payload), opts...)
	if errors.Is(err, asynq.ErrTaskIDConflict) || errors.Is(err, asynq.ErrDuplicateTask) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("run again %s, held by a worker that is gone: %w", t.ID, err)
	}
	o.logger.WarnContext(ctx, "a task is held by a worker that is gone: running it again",
		slog.String("task_id", t.ID), slog.String("type", t.Type), slog.String("payload", string(t.Payload)))
	return nil
}
