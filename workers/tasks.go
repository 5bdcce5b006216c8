package workers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/seqleague/seqleague/league"
)

// Task types.
const (
	TypeTurnTimeout = "turn:timeout" // a seat's turn (or a block window) ran out
	TypeBotMove     = "bot:move"     // a bot seat is to move
	TypeGameStart   = "game:start"   // a scheduled game's start time came
	TypeGameSettle  = "game:settle"  // a finished game's results are to be applied

	TypeRoundStart    = "round:start"    // a tournament round's start time came
	TypeRoundDeadline = "round:deadline" // a tournament round's deadline came
)

// gamePayload carries IDs only: handlers read everything else from the
// database, so a stale task can never act on stale data.
type gamePayload struct {
	Game string `json:"game"`
	Ply  int    `json:"ply,omitempty"`
}

// Enqueuer schedules game tasks on asynq. It implements league.GameTasks.
type Enqueuer struct {
	rdb       redis.UniversalClient
	client    *asynq.Client
	inspector *asynq.Inspector
}

// NewEnqueuer builds an enqueuer on an existing Redis client. It has nothing of
// its own to close: the connection is shared, and its owner closes it.
func NewEnqueuer(rdb redis.UniversalClient) *Enqueuer {
	return &Enqueuer{rdb: rdb, client: asynq.NewClientFromRedisClient(rdb), inspector: asynq.NewInspectorFromRedisClient(rdb)}
}

// asynqQueues is the set in which asynq lists the queues (its
// base.AllQueues): the inspector finds a queue's tasks only through it.
const asynqQueues = "asynq:queues"

// listQueues lists queues again in asynqQueues. A client adds a queue there
// once per process, at its first enqueue; a Redis that lost its data while
// the process ran (a restart without persistence, a flush) loses the list,
// and every lookup of the queue's tasks then fails with ErrQueueNotFound
// (the metrics no longer see the queue either), though new tasks are
// queued and run.
func listQueues(ctx context.Context, rdb redis.UniversalClient, queues ...string) error {
	members := make([]any, len(queues))
	for i, q := range queues {
		members[i] = q
	}
	return rdb.SAdd(ctx, asynqQueues, members...).Err()
}

var _ league.GameTasks = (*Enqueuer)(nil)

// submit enqueues a task of taskType carrying payload under id on queue,
// due at at. A task waiting or running under that id makes this a no-op.
// One that is over — archived after its last retry, or (a round's task)
// completed and kept for its retention — is replaced: whoever schedules
// the key again (the sweep, finding a game's state still waiting for it)
// needs it to run again, and an id held by a dead task would otherwise
// leave the game stuck until that task is purged. One waiting out its back-off after a
// failure (PostgreSQL was down, say) when it is asked for now runs now:
// the back-off grows to minutes and then hours, and the game would wait
// that long after the outage, with its clock run out, while the sweep's
// call found the key taken. The check costs a round trip only on a
// conflict.
func (e *Enqueuer) submit(ctx context.Context, queue, taskType, id string, payload any, at time.Time, opts ...asynq.Option) error {
	b, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("enqueue %s: %w", id, err)
	}
	task := asynq.NewTask(taskType, b)
	opts = append(opts, asynq.Queue(queue), asynq.TaskID(id), asynq.ProcessAt(at))
	_, err = e.client.EnqueueContext(ctx, task, opts...)
	if errors.Is(err, asynq.ErrTaskIDConflict) {
		var replaced bool
		replaced, err = e.resolveConflict(queue, id, at)
		if errors.Is(err, asynq.ErrQueueNotFound) {
			if err = listQueues(ctx, e.rdb, queue); err == nil {
				replaced, err = e.resolveConflict(queue, id, at)
			}
		}
		if err == nil && replaced {
			_, err = e.client.EnqueueContext(ctx, task, opts...)
		}
	}
	if errors.Is(err, asynq.ErrTaskIDConflict) || errors.Is(err, asynq.ErrDuplicateTask) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("enqueue %s: %w", id, err)
	}
	return nil
}

// resolveConflict deals with the task id on queue that an enqueue due at
// at found: it deletes one that is archived or completed, and reports
// that it did (the caller enqueues again); it runs now one waiting for a
// retry later than at, if at has come.
func (e *Enqueuer) resolveConflict(queue, id string, at time.Time) (bool, error) {
	info, err := e.inspector.GetTaskInfo(queue, id)
	if errors.Is(err, asynq.ErrTaskNotFound) {
		return true, nil // gone since the conflict: enqueue again
	}
	if err != nil {
		return false, err
	}
	switch info.State {
	case asynq.TaskStateArchived, asynq.TaskStateCompleted:
		if err := e.inspector.DeleteTask(queue, id); err != nil && !errors.Is(err, asynq.ErrTaskNotFound) {
			return false, err
		}
		return true, nil
	case asynq.TaskStateRetry:
		if now := time.Now(); !at.After(now) && info.NextProcessAt.After(now) {
			if err := e.inspector.RunTask(queue, id); err != nil && !errors.Is(err, asynq.ErrTaskNotFound) {
				// Unless it has just become pending or active by itself.
				if info, ierr := e.inspector.GetTaskInfo(queue, id); ierr != nil || info.State == asynq.TaskStateRetry {
					return false, err
				}
			}
		}
	}
	return false, nil
}

// The game tasks below are submitted with their business key as ID and no
// asynq.Retention: a game task that succeeded is deleted at once, not
// retained. Nothing reads a completed one (submit replaces it, so keeping
// it dedupes nothing), while every move leaves one, and an hour of them
// held about 460 bytes each in Redis (17 MB at 10 moves/s), past what
// asynq's janitor clears (100 a queue every 8 s) once games pass 12 tasks
// a second. A duplicate run after its first is harmless: the task names
// its ply, and a handler finding the game past it does nothing.

func (e *Enqueuer) TurnTimeout(ctx context.Context, gameID string, ply int, at time.Time) error {
	return e.submit(ctx, QueueGames, TypeTurnTimeout, fmt.Sprintf("turn:%s:%d", gameID, ply), gamePayload{Game: gameID, Ply: ply},
		at, asynq.MaxRetry(10))
}

func (e *Enqueuer) BotMove(ctx context.Context, gameID string, ply int, delay time.Duration) error {
	return e.submit(ctx, QueueGames, TypeBotMove, fmt.Sprintf("bot:%s:%d", gameID, ply), gamePayload{Game: gameID, Ply: ply},
		time.Now().Add(delay), asynq.MaxRetry(10))
}

func (e *Enqueuer) StartGame(ctx context.Context, gameID string, at time.Time) error {
	return e.submit(ctx, QueueSchedule, TypeGameStart, fmt.Sprintf("start:%s:%d", gameID, at.UnixMilli()), gamePayload{Game: gameID},
		at, asynq.MaxRetry(20))
}

func (e *Enqueuer) Settle(ctx context.Context, gameID string) error {
	return e.submit(ctx, QueueDefault, TypeGameSettle, "settle:"+gameID, gamePayload{Game: gameID},
		time.Now(), asynq.MaxRetry(25))
}

var _ league.CompetitionTasks = (*Enqueuer)(nil)

// roundPayload names a tournament round; a deadline's task names its
// deadline too (Unix seconds, as its ID does), so that it can tell a
// deadline moved since, which has a task of its own.
type roundPayload struct {
	Tournament string `json:"tournament"`
	Round      int    `json:"round"`
	At         int64  `json:"at,omitempty"`
}

// due is the deadline the task was scheduled for; zero for a task
// enqueued before tasks named it.
func (p roundPayload) due() time.Time {
	if p.At == 0 {
		return time.Time{}
	}
	return time.Unix(p.At, 0)
}

// roundStartID and roundDeadlineID are the IDs of a round's start and
// deadline tasks due at at: RoundStart and RoundDeadline enqueue them, and
// ForgetRound deletes them.
func roundStartID(tournamentID string, round int, at time.Time) string {
	return fmt.Sprintf("round:%s:%d:%d", tournamentID, round, at.Unix())
}

func roundDeadlineID(tournamentID string, round int, at time.Time) string {
	return fmt.Sprintf("deadline:%s:%d:%d", tournamentID, round, at.Unix())
}

func (e *Enqueuer) enqueueRound(ctx context.Context, taskType, id string, p roundPayload, at time.Time) error {
	return e.submit(ctx, QueueSchedule, taskType, id, p, at,
		asynq.Retention(24*time.Hour), asynq.MaxRetry(20))
}

// RoundStart schedules a round's start; the time is part of the task ID so
// that a rescheduled round gets a task of its own (the stale one finds the
// round not due, or already paired, and does nothing).
func (e *Enqueuer) RoundStart(ctx context.Context, tournamentID string, round int, at time.Time) error {
	return e.enqueueRound(ctx, TypeRoundStart, roundStartID(tournamentID, round, at), roundPayload{Tournament: tournamentID, Round: round}, at)
}

// RoundDeadline schedules a round's deadline; a moved deadline gets a task
// of its own, and the old one does nothing.
func (e *Enqueuer) RoundDeadline(ctx context.Context, tournamentID string, round int, at time.Time) error {
	return e.enqueueRound(ctx, TypeRoundDeadline, roundDeadlineID(tournamentID, round, at),
		roundPayload{Tournament: tournamentID, Round: round, At: at.Unix()}, at)
}

// ForgetRound deletes the round's start and deadline tasks due at the
// times given, of a tournament called off: they would each have run once,
// found it cancelled and done nothing, and kept their place in Redis until
// then (a Swiss scheduled a season ahead holds one per round for months).
// One not there (run already, or never made) or running now is left.
func (e *Enqueuer) ForgetRound(ctx context.Context, tournamentID string, round int, starts, deadlines []time.Time) error {
	var ids []string
	for _, at := range starts {
		ids = append(ids, roundStartID(tournamentID, round, at))
	}
	for _, at := range deadlines {
		ids = append(ids, roundDeadlineID(tournamentID, round, at))
	}
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := e.inspector.DeleteTask(QueueSchedule, id)
		if err == nil || errors.Is(err, asynq.ErrTaskNotFound) || errors.Is(err, asynq.ErrQueueNotFound) {
			continue
		}
		if info, ierr := e.inspector.GetTaskInfo(QueueSchedule, id); ierr == nil && info.State == asynq.TaskStateActive {
			continue // running: asynq deletes no active task
		}
		return fmt.Errorf("forget %s: %w", id, err)
	}
	return nil
}

// RegisterCompetitions installs the tournament task handlers.
func (w *Workers) RegisterCompetitions(t league.Tournaments) {
	handle := func(f func(ctx context.Context, p roundPayload) error) asynq.HandlerFunc {
		return func(ctx context.Context, task *asynq.Task) error {
			var p roundPayload
			if err := json.Unmarshal(task.Payload(), &p); err != nil || p.Tournament == "" || p.Round < 1 {
				return fmt.Errorf("bad payload %q: %w", task.Payload(), asynq.SkipRetry)
			}
			err := f(ctx, p)
			if code := league.ErrorCode(err); code == league.ENOTFOUND || code == league.EINVALID {
				return fmt.Errorf("%v: %w", err, asynq.SkipRetry)
			}
			return err
		}
	}
	w.Handle(TypeRoundStart, handle(func(ctx context.Context, p roundPayload) error { return t.StartRound(ctx, p.Tournament, p.Round) }))
	w.Handle(TypeRoundDeadline, handle(func(ctx context.Context, p roundPayload) error {
		return t.RoundDeadline(ctx, p.Tournament, p.Round, p.due())
	}))
}

// RegisterGames installs the game task handlers.
func (w *Workers) RegisterGames(games league.GameService) {
	w.Handle(TypeTurnTimeout, withPayload(func(ctx context.Context, p gamePayload) error {
		return games.TimeOut(ctx, p.Game, p.Ply)
	}))
	w.Handle(TypeBotMove, withPayload(func(ctx context.Context, p gamePayload) error {
		return games.PlayBot(ctx, p.Game, p.Ply)
	}))
	w.Handle(TypeGameStart, withPayload(func(ctx context.Context, p gamePayload) error {
		return games.StartScheduled(ctx, p.Game)
	}))
	w.Handle(TypeGameSettle, withPayload(func(ctx context.Context, p gamePayload) error {
		return games.Settle(ctx, p.Game)
	}))
}

// withPayload decodes the payload, refusing a malformed one for good, and
// treats "not found" as done: the game is gone, there is nothing to retry.
func withPayload(h func(context.Context, gamePayload) error) asynq.HandlerFunc {
	return func(ctx context.Context, t *asynq.Task) error {
		var p gamePayload
		if err := json.Unmarshal(t.Payload(), &p); err != nil || p.Game == "" {
			return fmt.Errorf("bad payload %q: %w", t.Payload(), asynq.SkipRetry)
		}
		err := h(ctx, p)
		if code := league.ErrorCode(err); code == league.ENOTFOUND || code == league.EINVALID {
			return fmt.Errorf("%v: %w", err, asynq.SkipRetry)
		}
		return err
	}
}
