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

// hungRedis is a client of a Redis that has stopped answering, connected
// as the binary connects (cmd/seqleague openRedis): deadlines on a context
// bound the wait.
func hungRedis(t *testing.T) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: testenv.HungRedis(t), ContextTimeoutEnabled: true})
	t.Cleanup(func() { c.Close() })
	return c
}

// A move is committed before its event is published and its next task
// scheduled; with Redis hung, those waited out go-redis's timeouts and
// retries, and the move's answer with them (15 s measured with the binary,
// with the process stopped). The answer now comes within the bound on
// that work, the move stored.
func TestAMoveAnswersPromptlyWhileRedisHangs(t *testing.T) {
	db, err := Open(context.Background(), testenv.Postgres(t), PoolConfig{MaxOpen: 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	rdb := hungRedis(t)
	r := &gameRig{db: db, games: NewGames(db, redisbus.New(rdb), workers.NewEnqueuer(rdb), GameConfig{}, quiet)}
	ctx := context.Background()
	ann := r.user(t, "ann")
	g, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2,
		Clock: league.Clock{TurnSeconds: 60}, Seats: []league.SeatSpec{{UserID: ann.UserID}, {Bot: "random"}}})
	if err != nil {
		t.Fatal(err)
	}
	v, err := r.games.View(ctx, ann, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := r.games.Move(ctx, ann, g.ID, league.MoveRequest{Ply: 0, Move: v.LegalMoves[0], MoveID: "m0"}); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > effectsTimeout+2*time.Second {
		t.Fatalf("the move answered after %v with Redis hung, want within %v", took, effectsTimeout+2*time.Second)
	}
	if n := r.rowsOf(t, "game_moves", g.ID); n != 1 {
		t.Fatalf("%d moves stored, want 1", n)
	}
}
