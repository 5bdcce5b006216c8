package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/redisbus"
	"github.com/seqleague/seqleague/league/testenv"
	"github.com/seqleague/seqleague/workers"
)

// A Redis that hung for a few seconds as a move committed lost the bot's
// task after it: the failure was logged, and the game waited for the
// sweep, which finds a bot only once it is 30 s overdue (35 s in the
// resilience audit). The task is tried again, and the bot moves once
// Redis answers again. No sweep runs here: only the try again can move it.
func TestABotTaskRedisDidNotTakeIsScheduledOnceItAnswersAgain(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, testenv.Postgres(t), PoolConfig{MaxOpen: 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	directURL, url, hang, resume := testenv.RedisThatPauses(t)
	popt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	popt.ContextTimeoutEnabled = true // as the binary connects
	paused := redis.NewClient(popt)
	t.Cleanup(func() { paused.Close() })
	games := NewGames(db, redisbus.New(paused), workers.NewEnqueuer(paused), GameConfig{}, testLogger(t))
	t.Cleanup(games.RetryFailedTasks())

	// The workers reach Redis directly: asynq's own clients, hung, take
	// long to stop.
	opt, err := redis.ParseURL(directURL)
	if err != nil {
		t.Fatal(err)
	}
	direct := redis.NewClient(opt)
	t.Cleanup(func() { direct.Close() })
	w := workers.New(direct, workers.Config{Concurrency: 4, PollInterval: 50 * time.Millisecond, ShutdownTimeout: 2 * time.Second}, testLogger(t))
	w.RegisterGames(games)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Shutdown)

	r := &gameRig{db: db, games: games, rdb: direct}
	ann := r.user(t, "ann")
	g, err := games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Bot: "greedy"}}})
	if err != nil {
		t.Fatal(err)
	}
	v, err := games.View(ctx, ann, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	hang()
	if _, err := games.Move(ctx, ann, g.ID, league.MoveRequest{Ply: 0, Move: v.LegalMoves[0], MoveID: "m0"}); err != nil {
		t.Fatalf("ann's move with Redis hung: %v", err)
	}
	resume()
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		v, err := games.View(ctx, ann, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if v.Game.Ply > 1 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the game is at ply %d 20 s after Redis answered again; want the bot to have moved", v.Game.Ply)
		}
	}
}
