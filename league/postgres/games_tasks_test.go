package postgres

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/workers"
)

// A game task that has run is gone from Redis at once (every move leaves
// one, and an hour of them were kept, about 460 bytes each), and the same
// task delivered again afterwards — its key free, so it runs — does
// nothing: a timer and a bot task for a ply already moved leave the game
// as it was.
func TestAGameTaskIsGoneOnceDoneAndRunningItAgainIsHarmless(t *testing.T) {
	r := newGameRig(t, true)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.seat(t, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2, Clock: league.Clock{TurnSeconds: 60},
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {}}}, map[int]league.Actor{1: bob})
	r.playFirstMoves(t, g.ID, ann)
	ins := asynq.NewInspectorFromRedisClient(r.rdb)
	timer := fmt.Sprintf("turn:%s:0", g.ID)
	processed := r.gameTasksProcessed(t, ins)
	if err := ins.RunTask(workers.QueueGames, timer); err != nil { // ply 0's timer, due in a minute
		t.Fatalf("run ply 0's timer now: %v", err)
	}
	r.waitForGameTasks(t, ins, processed+1, timer)
	before := r.gameState(t, g.ID)

	enq := workers.NewEnqueuer(r.rdb)
	processed = r.gameTasksProcessed(t, ins)
	if err := enq.TurnTimeout(ctx, g.ID, 0, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := enq.BotMove(ctx, g.ID, 0, 0); err != nil {
		t.Fatal(err)
	}
	r.waitForGameTasks(t, ins, processed+2, timer, "bot:"+g.ID+":0")
	if after := r.gameState(t, g.ID); after != before {
		t.Fatalf("the game after ply 0's timer and bot task ran again: %+v, want it as it was: %+v", after, before)
	}
}

// gameTasksProcessed is how many tasks the games queue has ever run.
func (r *gameRig) gameTasksProcessed(t *testing.T, ins *asynq.Inspector) int {
	t.Helper()
	q, err := ins.GetQueueInfo(workers.QueueGames)
	if err != nil {
		t.Fatal(err)
	}
	return q.ProcessedTotal
}

// waitForGameTasks waits until the games queue has run processed tasks in
// all, and then for the tasks named ids to be gone from Redis.
func (r *gameRig) waitForGameTasks(t *testing.T, ins *asynq.Inspector, processed int, ids ...string) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); r.gameTasksProcessed(t, ins) < processed; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the games queue ran %d tasks in 5 s, want %d", r.gameTasksProcessed(t, ins), processed)
		}
	}
	for _, id := range ids {
		for end := time.Now().Add(2 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			info, err := ins.GetTaskInfo(workers.QueueGames, id)
			if errors.Is(err, asynq.ErrTaskNotFound) {
				break
			}
			if time.Now().After(end) {
				t.Fatalf("task %s is still in Redis 2 s after it ran: %v, %v", id, info.State, err)
			}
		}
	}
}

// gameState is what a task acting on a game would change.
type gameState struct {
	Revision, Ply, TimedOutTurn, Moves, TimeoutsInARow int
}

func (r *gameRig) gameState(t *testing.T, gameID string) gameState {
	t.Helper()
	var s gameState
	if err := r.db.Gorm.Raw(`SELECT revision, ply, timed_out_turn,
		(SELECT count(*) FROM game_moves WHERE game_id = games.id) AS moves,
		(SELECT sum(timeouts_in_a_row) FROM game_seats WHERE game_id = games.id) AS timeouts_in_a_row
		FROM games WHERE id = ?`, gameID).Scan(&s).Error; err != nil {
		t.Fatal(err)
	}
	return s
}
