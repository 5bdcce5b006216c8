package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"gorm.io/gorm"

	"github.com/seqleague/seqleague/engine/play"
	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/redisbus"
	"github.com/seqleague/seqleague/league/testenv"
	"github.com/seqleague/seqleague/workers"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// testLogger shows warnings and errors in the test's log.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) { w.t.Log(string(p)); return len(p), nil }

// gameRig is a game service on real PostgreSQL and Redis with real workers
// processing its tasks.
type gameRig struct {
	db    *DB
	games *Games
	rdb   *redis.Client
}

func newGameRig(t testing.TB, withWorkers bool) *gameRig {
	t.Helper()
	return newGameRigWith(t, GameConfig{}, withWorkers)
}

// newGameRigWith is newGameRig with a game service configured by cfg.
func newGameRigWith(t testing.TB, cfg GameConfig, withWorkers bool) *gameRig {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, testenv.Postgres(t), PoolConfig{MaxOpen: 60})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	opt, err := redis.ParseURL(testenv.Redis(t))
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	t.Cleanup(func() { rdb.Close() })
	enq := workers.NewEnqueuer(rdb)
	games := NewGames(db, redisbus.New(rdb), enq, cfg, testLogger(t))
	if withWorkers {
		w := workers.New(rdb, workers.Config{Concurrency: 8, PollInterval: 50 * time.Millisecond, ShutdownTimeout: 2 * time.Second}, testLogger(t))
		w.RegisterGames(games)
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Shutdown)
	}
	return &gameRig{db: db, games: games, rdb: rdb}
}

func (r *gameRig) user(t testing.TB, name string) league.Actor {
	t.Helper()
	var id string
	if err := r.db.Gorm.Raw("INSERT INTO users (username) VALUES (?) RETURNING id", name).Scan(&id).Error; err != nil {
		t.Fatal(err)
	}
	return league.Actor{UserID: id}
}

// headToHead starts an untimed two-player Sequence game between two people.
func (r *gameRig) headToHead(t *testing.T, first, second league.Actor) *league.Game {
	t.Helper()
	return r.seat(t, first, league.NewGame{Game: "sequence", Players: 2, Teams: 2,
		Seats: []league.SeatSpec{{UserID: first.UserID}, {}}}, map[int]league.Actor{1: second})
}

// annToMove starts a head-to-head between new players ann and bob, and
// returns them, the game and ann's view of its first turn (hers).
func (r *gameRig) annToMove(t *testing.T) (ann, bob league.Actor, g *league.Game, v *league.GameView) {
	t.Helper()
	ann, bob = r.user(t, "ann"), r.user(t, "bob")
	g = r.headToHead(t, ann, bob)
	v, err := r.games.View(context.Background(), ann, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	return ann, bob, g, v
}

// playFirstMoves has the players, in turn from ply 0, play their first
// legal move.
func (r *gameRig) playFirstMoves(t *testing.T, gameID string, players ...league.Actor) {
	t.Helper()
	ctx := context.Background()
	for ply, p := range players {
		v, err := r.games.View(ctx, p, gameID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.games.Move(ctx, p, gameID, league.MoveRequest{Ply: ply, Move: v.LegalMoves[0]}); err != nil {
			t.Fatal(err)
		}
	}
}

// seat has creator create ng, then the people in joiners take the seats
// of ng left open for them: a person can be seated only by themselves.
func (r *gameRig) seat(t *testing.T, creator league.Actor, ng league.NewGame, joiners map[int]league.Actor) *league.Game {
	t.Helper()
	ctx := context.Background()
	for seat := range joiners {
		ng.Seats[seat] = league.SeatSpec{Open: true}
	}
	g, err := r.games.Create(ctx, creator, ng)
	if err != nil {
		t.Fatal(err)
	}
	for seat, p := range joiners {
		if g, err = r.games.Join(ctx, p, g.ID, &seat); err != nil {
			t.Fatalf("seat %d: %v", seat, err)
		}
	}
	return g
}

// rowsOf counts the rows of a per-game table (game_moves, game_archive)
// that belong to the game.
func (r *gameRig) rowsOf(t *testing.T, table, gameID string) int64 {
	t.Helper()
	var n int64
	if err := r.db.Gorm.Table(table).Where("game_id = ?", gameID).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// playAsHumans moves for the given people whenever it is their turn (their
// first legal move), until the game ends or the deadline passes.
func (r *gameRig) playAsHumans(t *testing.T, gameID string, people []league.Actor, deadline time.Duration) *league.GameView {
	t.Helper()
	ctx := context.Background()
	end := time.Now().Add(deadline)
	for time.Now().Before(end) {
		moved := false
		for _, p := range people {
			v, err := r.games.View(ctx, p, gameID)
			if err != nil {
				t.Fatal(err)
			}
			if v.Game.Status == league.StatusFinished {
				return v
			}
			if len(v.LegalMoves) == 0 {
				continue
			}
			_, err = r.games.Move(ctx, p, gameID, league.MoveRequest{Ply: v.Game.Ply, Move: v.LegalMoves[len(v.LegalMoves)/2]})
			if err != nil && league.ErrorCode(err) != league.ECONFLICT {
				t.Fatalf("move at ply %d: %v", v.Game.Ply, err)
			}
			moved = true
		}
		if !moved {
			time.Sleep(5 * time.Millisecond)
		}
	}
	v, _ := r.games.View(ctx, people[0], gameID)
	t.Fatalf("game not finished after %v: status %s at ply %d", deadline, v.Game.Status, v.Game.Ply)
	return nil
}

// checkArchive replays the archive and compares it with the final state.
func (r *gameRig) checkArchive(t *testing.T, gameID string) map[string]int {
	t.Helper()
	ctx := context.Background()
	rec, err := r.games.Archive(ctx, gameID)
	if err != nil {
		t.Fatal(err)
	}
	seed, err := rng.ParseSeed(rec.Seed)
	if err != nil {
		t.Fatal(err)
	}
	if seed.Hash() != rec.SeedHash {
		t.Fatalf("revealed seed does not hash to the published %s", rec.SeedHash)
	}
	log := make([]play.SeatMove, len(rec.Moves))
	actors := map[string]int{}
	for i, m := range rec.Moves {
		if m.Ply != i {
			t.Fatalf("archive move %d has ply %d: a move is missing or doubled", i, m.Ply)
		}
		log[i] = play.SeatMove{Seat: m.Seat, Move: m.Move}
		actors[m.Actor]++
	}
	row, err := readGame(r.db.Gorm, gameID)
	if err != nil {
		t.Fatal(err)
	}
	game, err := play.Replay(row.setup(), seed, log)
	if err != nil {
		t.Fatalf("archive does not replay: %v", err)
	}
	final, err := game.VectorJSON(fmt.Sprintf("game %s final position", gameID))
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	json.Unmarshal(final, &got)
	json.Unmarshal(rec.FinalState, &want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("replayed final position differs from the archived one:\n%s\n%s", final, rec.FinalState)
	}
	if !game.Status().Over {
		t.Fatal("archived game replays to an unfinished position")
	}
	return actors
}

func TestTwoPeopleAndTwoBotsPlayAFourPlayerGameToTheEnd(t *testing.T) {
	r := newGameRig(t, true)
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.seat(t, ann, league.NewGame{
		Game: "sequence", Players: 4, Teams: 2,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Bot: "random"}, {}, {Bot: "greedy"}},
	}, map[int]league.Actor{2: bob})
	if g.Status != league.StatusActive {
		t.Fatalf("a game with every seat taken should start at once; status %s", g.Status)
	}
	v := r.playAsHumans(t, g.ID, []league.Actor{ann, bob}, 60*time.Second)
	if v.Game.Result().Status == "" {
		t.Fatalf("finished game has no result")
	}
	actors := r.checkArchive(t, g.ID)
	if actors[league.ByPlayer] == 0 || actors[league.ByBot] == 0 {
		t.Fatalf("moves by actor = %v; want both people and bots", actors)
	}
}

// stacksAgainstBots has p play a 3-seat Stacks game against a random and a
// greedy bot, with a 1 s block window, to its end (at most playCap turns).
func (r *gameRig) stacksAgainstBots(t *testing.T, p league.Actor, playCap int) *league.Game {
	t.Helper()
	g, err := r.games.Create(context.Background(), p, league.NewGame{
		Game: "stacks", Players: 3, PlayCap: playCap, BlockWindowSeconds: 1,
		Seats: []league.SeatSpec{{UserID: p.UserID}, {Bot: "random"}, {Bot: "greedy"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	r.playAsHumans(t, g.ID, []league.Actor{p}, 120*time.Second)
	return g
}

func TestStacksGameWithPeopleAndBotsFinishes(t *testing.T) {
	r := newGameRig(t, true)
	g := r.stacksAgainstBots(t, r.user(t, "ann"), 120)
	r.checkArchive(t, g.ID)
}

func TestAPersonWhoNeverMovesIsPlayedByAutopilotThenReplaced(t *testing.T) {
	r := newGameRig(t, true)
	ctx := context.Background()
	ann := r.user(t, "ann")
	g, err := r.games.Create(ctx, ann, league.NewGame{
		Game: "sequence", Players: 2, Teams: 2, Clock: league.Clock{TurnSeconds: 1},
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Bot: "random"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(90 * time.Second)
	var v *league.GameView
	for time.Now().Before(deadline) {
		if v, err = r.games.View(ctx, ann, g.ID); err != nil {
			t.Fatal(err)
		}
		if v.Game.Status == league.StatusFinished {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if v.Game.Status != league.StatusFinished {
		moves, _ := r.games.Moves(ctx, g.ID, -1)
		for i, m := range moves {
			if i < 12 {
				t.Logf("%d %s %s seat %d at %s", m.Ply, m.Move, m.Actor, m.Seat, m.At.Format("15:04:05.000"))
			}
		}
		t.Fatalf("game did not finish through autopilot and fill-in: ply %d", v.Game.Ply)
	}
	seat := v.Game.Seats[0]
	if !seat.Abandoned || !seat.FilledByBot || seat.AbandonedWhy != league.AbandonedTimedOut {
		t.Fatalf("seat 0 = %+v; want abandoned (timed out) and filled by a bot", seat)
	}
	actors := r.checkArchive(t, g.ID)
	if actors[league.ByAutopilot] != 2 || actors[league.ByFillIn] == 0 || actors[league.ByPlayer] != 0 {
		t.Fatalf("moves by actor = %v; want 2 autopilot turns (the third timeout abandons), then fill-in moves", actors)
	}
}

func TestFiftyConcurrentSubmissionsOfOnePlyApplyExactlyOne(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, _, g, v := r.annToMove(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[string]int{}
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			move := v.LegalMoves[i%len(v.LegalMoves)]
			_, err := r.games.Move(ctx, ann, g.ID, league.MoveRequest{Ply: 0, Move: move})
			mu.Lock()
			codes[league.ErrorCode(err)]++
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	if codes[""] != 1 || codes[league.ECONFLICT] != 49 {
		t.Fatalf("outcomes = %v; want exactly one applied and 49 conflicts", codes)
	}
	if n := r.rowsOf(t, "game_moves", g.ID); n != 1 {
		t.Fatalf("%d moves stored, want 1", n)
	}
}

// A move is first tried without a lock and stored only if the game has not
// changed since it was read: a change that moves no ply (seats handed to
// bots) must still stop it.
func TestAMoveReadBeforeAChangeIsNotStoredAfterIt(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.headToHead(t, ann, bob)
	db := r.db.Gorm.WithContext(ctx)
	row, _, _, err := loadGame(db, g.ID, false, moveKey{})
	if err != nil {
		t.Fatal(err)
	}
	game, err := r.games.state(db, row)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.games.HandToBots(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	fx := &effects{}
	if _, err := r.games.applyLocked(fx, row, game, 0, game.LegalMoves(0)[0], league.ByPlayer, ann.UserID, ""); err != nil {
		t.Fatal(err)
	}
	if err := saveTurn(db, fx, row, map[string]any{"ply": row.Ply}); !errors.Is(err, errStale) {
		t.Fatalf("saveTurn after the seats changed = %v, want errStale", err)
	}
	if stored := r.rowsOf(t, "game_moves", g.ID); stored != 0 {
		t.Fatalf("%d moves stored from a stale read", stored)
	}
	_, err = r.games.Move(ctx, ann, g.ID, league.MoveRequest{Ply: 0, Move: game.LegalMoves(0)[0]})
	if league.ErrorCode(err) != league.EFORBIDDEN {
		t.Fatalf("a move on a seat handed to a bot = %v, want forbidden", err)
	}
}

// Each instance answers moves from its own copy of the games it last
// stored; a change made through another instance must still be seen.
func TestAnInstancesCopyOfAGameNeverOutvotesTheDatabase(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	other := NewGames(r.db, r.games.events, r.games.tasks, GameConfig{}, testLogger(t))
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.headToHead(t, ann, bob)
	move := func(svc *Games, p league.Actor, ply int) (*league.GameView, error) {
		v, err := svc.View(ctx, p, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.LegalMoves) == 0 {
			t.Fatalf("no legal moves for %s at ply %d", p.UserID, v.Game.Ply)
		}
		return svc.Move(ctx, p, g.ID, league.MoveRequest{Ply: ply, Move: v.LegalMoves[0]})
	}
	// ann moves through this instance, bob through the other; then ann
	// through this one, whose copy is a ply behind, and bob through it too,
	// from its copy.
	for i, step := range []struct {
		svc *Games
		p   league.Actor
	}{{r.games, ann}, {other, bob}, {r.games, ann}, {r.games, bob}} {
		if _, err := move(step.svc, step.p, i); err != nil {
			t.Fatalf("ply %d: %v", i, err)
		}
	}
	// The other instance hands the seats to bots without moving a ply: this
	// instance's copy (ply 4) is at the right ply but out of date.
	v, err := r.games.View(ctx, ann, g.ID)
	if err != nil || len(v.LegalMoves) == 0 {
		t.Fatalf("view at ply 4: %+v, %v", v, err)
	}
	if err := other.HandToBots(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	_, err = r.games.Move(ctx, ann, g.ID, league.MoveRequest{Ply: 4, Move: v.LegalMoves[0]})
	if league.ErrorCode(err) != league.EFORBIDDEN {
		t.Fatalf("a move on a seat handed to a bot elsewhere = %v, want forbidden", err)
	}
	if stored := r.rowsOf(t, "game_moves", g.ID); stored != 4 {
		t.Fatalf("%d moves stored, want 4", stored)
	}
}

// The archive is written by the game:settle task; until it has run, the
// same document is built from the stored moves.
func TestTheArchiveIsTheSameBeforeAndAfterSettlement(t *testing.T) {
	r := newGameRig(t, false) // no workers: nothing settles the game
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.headToHead(t, ann, bob)
	if _, err := r.games.Archive(ctx, g.ID); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("archive of a game in play = %v, want a precondition error", err)
	}
	r.playAsHumans(t, g.ID, []league.Actor{ann, bob}, 60*time.Second)
	if archived := r.rowsOf(t, "game_archive", g.ID); archived != 0 {
		t.Fatal("the archive was written before the game was settled")
	}
	r.checkArchive(t, g.ID)
	before, err := r.games.Archive(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.games.Settle(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	if archived := r.rowsOf(t, "game_archive", g.ID); archived != 1 {
		t.Fatalf("%d archive rows after settlement, want 1", archived)
	}
	after, err := r.games.Archive(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Game.EndedBy != league.EndedByPlay {
		t.Fatalf("a game played to its end is archived as ended by %q, want %q", after.Game.EndedBy, league.EndedByPlay)
	}
	// Compared as JSON: the stored copy went through jsonb, which orders
	// keys its own way, and times come back in another location value.
	var x, y any
	b1, _ := json.Marshal(before)
	b2, _ := json.Marshal(after)
	json.Unmarshal(b1, &x)
	json.Unmarshal(b2, &y)
	if !reflect.DeepEqual(x, y) {
		t.Fatalf("archive built before settlement differs from the stored one:\n%s\n%s", b1, b2)
	}
	if err := r.games.Settle(ctx, g.ID); err != nil {
		t.Fatalf("settling twice: %v", err)
	}
}

// Tasks are enqueued after their commit, so one can be lost (Redis down at
// that moment); the sweep schedules it again once it is long overdue.
func TestTheSweepReschedulesLostTasks(t *testing.T) {
	r := newGameRig(t, false) // no workers: queued tasks stay queued
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	done := r.headToHead(t, ann, bob)
	r.playAsHumans(t, done.ID, []league.Actor{ann, bob}, 60*time.Second)
	timed := r.seat(t, ann, league.NewGame{
		Game: "sequence", Players: 2, Teams: 2, Clock: league.Clock{TurnSeconds: 60},
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {}},
	}, map[int]league.Actor{1: bob})
	insp := asynq.NewInspectorFromRedisClient(r.rdb)
	settleID, timerID := "settle:"+done.ID, fmt.Sprintf("turn:%s:0", timed.ID)
	for _, task := range [][2]string{{workers.QueueDefault, settleID}, {workers.QueueGames, timerID}} {
		if err := insp.DeleteTask(task[0], task[1]); err != nil {
			t.Fatalf("losing task %s: %v", task[1], err)
		}
	}
	if done, err := r.games.Reconcile(ctx); err != nil || done.Total() != 0 {
		t.Fatalf("sweep before anything is overdue = %+v, %v; want none", done, err)
	}
	for _, q := range []struct{ sql, id string }{
		{"UPDATE games SET finished_at = finished_at - interval '1 minute' WHERE id = ?", done.ID},
		{"UPDATE games SET turn_deadline = now() - interval '1 minute' WHERE id = ?", timed.ID},
	} {
		if err := r.db.Gorm.Exec(q.sql, q.id).Error; err != nil {
			t.Fatal(err)
		}
	}
	if done, err := r.games.Reconcile(ctx); err != nil || done != (Rescheduled{Settlements: 1, Timers: 1}) {
		t.Fatalf("sweep = %+v, %v; want 1 settlement and 1 timer", done, err)
	}
	for _, task := range [][2]string{{workers.QueueDefault, settleID}, {workers.QueueGames, timerID}} {
		if _, err := insp.GetTaskInfo(task[0], task[1]); err != nil {
			t.Fatalf("task %s after the sweep: %v", task[1], err)
		}
	}
	// Once settled, the game is no longer the sweep's business.
	if err := r.games.Settle(ctx, done.ID); err != nil {
		t.Fatal(err)
	}
	if done, err := r.games.Reconcile(ctx); err != nil || done.Settlements != 0 {
		t.Fatalf("sweep after settlement = %+v, %v; want no settlement", done, err)
	}
}

// failingTimer is the game tasks with game's turn timer failing to enqueue.
type failingTimer struct {
	league.GameTasks
	game string
}

func (f failingTimer) TurnTimeout(ctx context.Context, gameID string, ply int, at time.Time) error {
	if gameID == f.game {
		return fmt.Errorf("enqueue turn:%s:%d: asynq: queue not found", gameID, ply)
	}
	return f.GameTasks.TurnTimeout(ctx, gameID, ply, at)
}

// One game whose task fails to enqueue stopped the sweep's whole pass: the
// games after it waited for the next pass, and again at every pass while
// that game failed (after Redis lost its data, timers fired 108–131 s
// late). The pass goes on and reports the failure.
func TestTheSweepGoesOnPastAGameItCannotReschedule(t *testing.T) {
	r := newGameRig(t, false) // no workers: queued tasks stay queued
	ctx := context.Background()
	ann, bob, cy, di := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cy"), r.user(t, "di")
	timed := func(a, b league.Actor) *league.Game {
		return r.seat(t, a, league.NewGame{Game: "sequence", Players: 2, Teams: 2, Clock: league.Clock{TurnSeconds: 60},
			Seats: []league.SeatSpec{{UserID: a.UserID}, {}}}, map[int]league.Actor{1: b})
	}
	stuck, other := timed(ann, bob), timed(cy, di)
	insp := asynq.NewInspectorFromRedisClient(r.rdb)
	for _, g := range []*league.Game{stuck, other} {
		if err := insp.DeleteTask(workers.QueueGames, fmt.Sprintf("turn:%s:0", g.ID)); err != nil {
			t.Fatal(err)
		}
	}
	// the stuck game is the more overdue, so the sweep meets it first
	if err := r.db.Gorm.Exec("UPDATE games SET turn_deadline = now() - CASE WHEN id = ? THEN interval '2 minutes' ELSE interval '1 minute' END WHERE id IN (?, ?)",
		stuck.ID, stuck.ID, other.ID).Error; err != nil {
		t.Fatal(err)
	}
	r.games.tasks = failingTimer{GameTasks: r.games.tasks, game: stuck.ID}
	done, err := r.games.Reconcile(ctx)
	if err == nil || !strings.Contains(err.Error(), stuck.ID) || done != (Rescheduled{Timers: 1}) {
		t.Fatalf("sweep = %+v, %v; want the other game's timer, and the stuck game's failure", done, err)
	}
	if _, err := insp.GetTaskInfo(workers.QueueGames, fmt.Sprintf("turn:%s:0", other.ID)); err != nil {
		t.Fatalf("the other game's timer after the sweep: %v", err)
	}
}

// In an untimed game no timer backs up a bot's turn: the sweep schedules a
// lost bot:move again from bot_due_at, which the move write keeps.
func TestTheSweepReschedulesALostBotMove(t *testing.T) {
	r := newGameRig(t, false) // no workers: queued tasks stay queued
	ctx := context.Background()
	ann := r.user(t, "ann")
	g, err := r.games.Create(ctx, ann, league.NewGame{
		Game: "sequence", Players: 2, Teams: 2,
		Seats: []league.SeatSpec{{Bot: "greedy"}, {UserID: ann.UserID}},
	})
	if err != nil {
		t.Fatal(err)
	}
	insp := asynq.NewInspectorFromRedisClient(r.rdb)
	botID := fmt.Sprintf("bot:%s:0", g.ID)
	if err := insp.DeleteTask(workers.QueueGames, botID); err != nil {
		t.Fatalf("losing task %s: %v", botID, err)
	}
	if done, err := r.games.Reconcile(ctx); err != nil || done.Total() != 0 {
		t.Fatalf("sweep before the bot is overdue = %+v, %v; want none", done, err)
	}
	// Age the due time the game's own write set (a NULL stays NULL).
	if err := r.db.Gorm.Exec("UPDATE games SET bot_due_at = bot_due_at - interval '1 minute' WHERE id = ?", g.ID).Error; err != nil {
		t.Fatal(err)
	}
	if done, err := r.games.Reconcile(ctx); err != nil || done != (Rescheduled{BotMoves: 1}) {
		t.Fatalf("sweep = %+v, %v; want 1 bot move", done, err)
	}
	if _, err := insp.GetTaskInfo(workers.QueueGames, botID); err != nil {
		t.Fatalf("task %s after the sweep: %v", botID, err)
	}
	// The bot moves; with a person to move, the game is no longer the sweep's business.
	if err := r.games.PlayBot(ctx, g.ID, 0); err != nil {
		t.Fatal(err)
	}
	var due *time.Time
	if err := r.db.Gorm.Raw("SELECT bot_due_at FROM games WHERE id = ?", g.ID).Row().Scan(&due); err != nil || due != nil {
		t.Fatalf("bot_due_at on the person's turn = %v, %v; want NULL", due, err)
	}
	if done, err := r.games.Reconcile(ctx); err != nil || done.BotMoves != 0 {
		t.Fatalf("sweep on the person's turn = %+v, %v; want no bot move", done, err)
	}
}

func TestMoveErrorsAreClear(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob, eve := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "eve")
	g := r.headToHead(t, ann, bob)
	v, _ := r.games.View(ctx, ann, g.ID)
	for _, tc := range []struct {
		name  string
		actor league.Actor
		req   league.MoveRequest
		want  string
	}{
		{"a ply not yet reached is a conflict", ann, league.MoveRequest{Ply: 5, Move: v.LegalMoves[0]}, league.ECONFLICT},
		{"out of turn is refused", bob, league.MoveRequest{Ply: 0, Move: "7H@e5"}, league.EPRECONDITION},
		{"illegal move is refused", ann, league.MoveRequest{Ply: 0, Move: "7H@a1"}, league.EPRECONDITION},
		{"garbage is refused", ann, league.MoveRequest{Ply: 0, Move: "'; DROP TABLE games; --"}, league.EPRECONDITION},
		{"a stranger cannot move", eve, league.MoveRequest{Ply: 0, Move: v.LegalMoves[0]}, league.EFORBIDDEN},
		{"a stranger at another ply is told it does not play, not where the game is", eve, league.MoveRequest{Ply: 5, Move: v.LegalMoves[0]}, league.EFORBIDDEN},
		{"an empty move is invalid", ann, league.MoveRequest{Ply: 0}, league.EINVALID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.games.Move(ctx, tc.actor, g.ID, tc.req)
			if got := league.ErrorCode(err); got != tc.want {
				t.Fatalf("error = %v (%s), want %s", err, got, tc.want)
			}
		})
	}
	// A ply not yet reached tells the client where the game is.
	_, err := r.games.Move(ctx, ann, g.ID, league.MoveRequest{Ply: 5, Move: v.LegalMoves[0]})
	var le *league.Error
	if !errors.As(err, &le) || le.Data["ply"] != 0 || le.Message != "ply 5 has not been reached; the game is only at ply 0" ||
		len(le.Fields) != 1 || le.Fields[0].Field != "ply" {
		t.Fatalf("future-ply error = %#v, want data ply 0, the field ply and a message saying the game is only at ply 0", err)
	}
	// An illegal move says why once, without the engine's own prefix.
	_, err = r.games.Move(ctx, ann, g.ID, league.MoveRequest{Ply: 0, Move: "7H@a1"})
	if !errors.As(err, &le) || strings.Count(le.Message, "illegal move") != 1 || strings.Contains(le.Message, "sequence:") {
		t.Fatalf("illegal-move error = %v; want one \"illegal move\" and no engine prefix", err)
	}
	// A repeated move_id answers the first result again and applies nothing.
	first, err := r.games.Move(ctx, ann, g.ID, league.MoveRequest{Ply: 0, Move: v.LegalMoves[0], MoveID: "m-1"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := r.games.Move(ctx, ann, g.ID, league.MoveRequest{Ply: 0, Move: v.LegalMoves[0], MoveID: "m-1"})
	if err != nil {
		t.Fatalf("repeated move_id: %v", err)
	}
	if string(first.State) != string(again.State) || first.Game.Ply != again.Game.Ply {
		t.Fatalf("repeated move_id answered differently: ply %d vs %d", first.Game.Ply, again.Game.Ply)
	}
	if n := r.rowsOf(t, "game_moves", g.ID); n != 1 {
		t.Fatalf("%d moves stored after a repeated move_id, want 1", n)
	}
	// So does a stale one.
	_, err = r.games.Move(ctx, ann, g.ID, league.MoveRequest{Ply: 0, Move: v.LegalMoves[0]})
	if !errors.As(err, &le) || le.Data["ply"] != 1 || le.Message != "ply 0 has already been played; the game is at ply 1" {
		t.Fatalf("stale-ply error = %#v, want data ply 1 and a message saying ply 0 was played", err)
	}
	// Once the game is over a stale ply is still a conflict (api.md: a
	// stale ply answers 409), and a move at its last ply is refused as
	// the game being finished.
	if _, err := r.games.Resign(ctx, bob, g.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := r.games.Move(ctx, ann, g.ID, league.MoveRequest{Ply: 0, Move: v.LegalMoves[0]}); league.ErrorCode(err) != league.ECONFLICT {
		t.Fatalf("a stale ply in a finished game: %v, want a conflict", err)
	}
	if _, err := r.games.Move(ctx, ann, g.ID, league.MoveRequest{Ply: 1, Move: v.LegalMoves[0]}); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("a move at a finished game's last ply: %v, want a precondition failure", err)
	}
}

func TestOpenSeatsAreFilledWithBotsAtAScheduledStart(t *testing.T) {
	r := newGameRig(t, true)
	ctx := context.Background()
	ann := r.user(t, "ann")
	start := time.Now().UTC().Add(time.Second)
	g, err := r.games.Create(ctx, ann, league.NewGame{
		Game: "sequence", Players: 2, Teams: 2, ScheduledStart: &start,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != league.StatusOpen {
		t.Fatalf("a scheduled game is %s before its start", g.Status)
	}
	end := time.Now().Add(20 * time.Second)
	for time.Now().Before(end) {
		v, err := r.games.View(ctx, ann, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if v.Game.Status == league.StatusActive {
			seat := v.Game.Seats[1]
			if seat.Bot != "greedy" || !seat.FilledByBot || seat.Abandoned {
				t.Fatalf("the open seat became %+v; want a greedy fill-in bot", seat)
			}
			if v.Game.StartedAt.Before(start) {
				t.Fatalf("started at %v, before its scheduled %v", v.Game.StartedAt, start)
			}
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the scheduled game never started")
}

// A scheduled table whose seats are all taken starts at its time: the fill
// grace is for open seats' players to come, and there are none. (It
// started a grace, a minute by default, late.) One whose last open seat is
// taken during the grace starts then, as any full table does, not when the
// grace ends.
func TestAFullScheduledTableStartsAtItsTime(t *testing.T) {
	r := newGameRigWith(t, GameConfig{FillGrace: time.Hour}, true)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	start := time.Now().UTC().Add(time.Second)
	full, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2, ScheduledStart: &start,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Bot: "random"}}})
	if err != nil {
		t.Fatal(err)
	}
	open, err := r.games.Create(ctx, bob, league.NewGame{Game: "sequence", Players: 2, Teams: 2, ScheduledStart: &start,
		Seats: []league.SeatSpec{{UserID: bob.UserID}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if full.Status != league.StatusOpen {
		t.Fatalf("a full scheduled table is %s before its start, want open", full.Status)
	}
	started := func(id string) *league.Game {
		t.Helper()
		end := time.Now().Add(10 * time.Second)
		for time.Now().Before(end) {
			v, err := r.games.View(ctx, ann, id)
			if err != nil {
				t.Fatal(err)
			}
			if v.Game.Status != league.StatusOpen {
				return &v.Game
			}
			time.Sleep(50 * time.Millisecond)
		}
		return nil
	}
	g := started(full.ID)
	if g == nil || g.Status != league.StatusActive {
		t.Fatalf("a full table scheduled for %v is %+v 10 s later, want it started (the fill grace is an hour)", start, g)
	}
	if g.StartedAt.Before(start) {
		t.Fatalf("started at %v, before its scheduled %v", g.StartedAt, start)
	}
	v, err := r.games.View(ctx, bob, open.ID)
	if err != nil || v.Game.Status != league.StatusOpen {
		t.Fatalf("the table with an open seat: %v, %v; want it still open in its fill grace", v.Game.Status, err)
	}
	cat := r.user(t, "cat")
	joined, err := r.games.Join(ctx, cat, open.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if joined.Status != league.StatusActive {
		t.Fatalf("a table filled after its scheduled start is %s, want active at once", joined.Status)
	}
}

// A full scheduled table whose start task was lost is started by the sweep
// once its time is long past, as a table with an open seat is once its
// fill grace is: it does not wait for a grace it has no use for.
func TestTheSweepStartsAFullScheduledTableWithoutItsGrace(t *testing.T) {
	r := newGameRigWith(t, GameConfig{FillGrace: time.Hour}, false) // no workers: queued tasks stay queued
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	start := time.Now().UTC().Add(time.Hour)
	full, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2, ScheduledStart: &start,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Bot: "random"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.games.Create(ctx, bob, league.NewGame{Game: "sequence", Players: 2, Teams: 2, ScheduledStart: &start,
		Seats: []league.SeatSpec{{UserID: bob.UserID}, {Open: true}}}); err != nil {
		t.Fatal(err)
	}
	insp := asynq.NewInspectorFromRedisClient(r.rdb)
	startID := fmt.Sprintf("start:%s:%d", full.ID, start.UnixMilli())
	if err := insp.DeleteTask(workers.QueueSchedule, startID); err != nil {
		t.Fatalf("losing the start task: %v", err)
	}
	var due time.Time
	if err := r.db.Gorm.Raw("UPDATE games SET scheduled_start = now() - interval '1 minute' WHERE id = ? RETURNING scheduled_start", full.ID).Row().Scan(&due); err != nil {
		t.Fatal(err)
	}
	if err := r.db.Gorm.Exec("UPDATE games SET scheduled_start = now() - interval '1 minute' WHERE created_by = ?", bob.UserID).Error; err != nil {
		t.Fatal(err)
	}
	if done, err := r.games.Reconcile(ctx); err != nil || done != (Rescheduled{Starts: 1}) {
		t.Fatalf("sweep a minute after the start = %+v, %v; want the full table's start alone (the other is in its hour of grace)", done, err)
	}
	if _, err := insp.GetTaskInfo(workers.QueueSchedule, fmt.Sprintf("start:%s:%d", full.ID, due.UnixMilli())); err != nil {
		t.Fatalf("the full table's start task after the sweep: %v", err)
	}
}

// A scheduled start long past would have bots fill the open seats at once,
// before anyone could join; a few minutes of clock skew are taken.
func TestAScheduledStartInThePastIsRefused(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann := r.user(t, "ann")
	var before int64
	r.db.Gorm.Table("games").Count(&before)
	for _, ago := range []time.Duration{scheduleSkew + time.Minute, 24 * time.Hour, time.Since(time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC))} {
		start := time.Now().Add(-ago)
		_, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2, ScheduledStart: &start,
			Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}}})
		var e *league.Error
		if !errors.As(err, &e) || e.Code != league.EINVALID || len(e.Fields) != 1 || e.Fields[0].Field != "scheduled_start" {
			t.Errorf("a start %v ago: %v; want invalid scheduled_start", ago, err)
		}
	}
	var after int64
	r.db.Gorm.Table("games").Count(&after)
	if after != before {
		t.Fatalf("%d games written by refused requests", after-before)
	}
	start := time.Now().Add(-scheduleSkew / 2)
	if _, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2, ScheduledStart: &start,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}}}); err != nil {
		t.Fatalf("a start within the clock skew: %v", err)
	}
}

func TestJoiningTheLastOpenSeatStartsTheGame(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob, cat := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat")
	g, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.games.Start(ctx, bob, g.ID); league.ErrorCode(err) != league.EFORBIDDEN {
		t.Fatalf("a stranger starting the game: %v", err)
	}
	if _, err := r.games.Start(ctx, ann, g.ID); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("starting with an open seat: %v", err)
	}
	if _, err := r.games.Join(ctx, ann, g.ID, nil); league.ErrorCode(err) != league.ECONFLICT {
		t.Fatalf("joining twice: %v", err)
	}
	if _, err := r.games.Join(ctx, bob, g.ID, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := r.games.Leave(ctx, cat, g.ID); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("leaving a game one does not sit at: %v", err)
	}
	v, err := r.games.View(ctx, bob, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Game.Status != league.StatusActive || v.YourSeat == nil || *v.YourSeat != 1 {
		t.Fatalf("after the last seat was taken: status %s, your seat %v", v.Game.Status, v.YourSeat)
	}
	if _, err := r.games.Leave(ctx, cat, g.ID); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("leaving a started game one does not sit at: %v", err)
	}
	if _, err := r.games.Join(ctx, cat, g.ID, nil); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("joining a started game: %v", err)
	}
}

// A person is seated only by their own hand: a game that seated someone
// else could start at once, rated, and lose on the clock in their name.
func TestAGameCanSeatNoPersonButItsCreator(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, dave := r.user(t, "ann"), r.user(t, "dave")
	_, err := r.games.Create(ctx, ann, league.NewGame{
		Game: "sequence", Players: 2, Teams: 2, Rated: true, MaxTimeouts: 1, Clock: league.Clock{TurnSeconds: 1},
		Seats: []league.SeatSpec{{UserID: dave.UserID}, {Bot: "greedy"}},
	})
	var le *league.Error
	if !errors.As(err, &le) || le.Code != league.EFORBIDDEN || len(le.Fields) != 1 || le.Fields[0].Field != "seats[0].user" {
		t.Fatalf("seating someone else = %#v; want forbidden, naming seats[0].user", err)
	}
	var games int64
	if err := r.db.Gorm.Table("games").Count(&games).Error; err != nil || games != 0 {
		t.Fatalf("%d games stored after the refusal (%v), want 0", games, err)
	}
	// Seated by themselves, both play: the creator at creation, the other
	// by joining the seat left open.
	g := r.seat(t, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2, Rated: true,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {}}}, map[int]league.Actor{1: dave})
	if g.Status != league.StatusActive || g.Seats[1].UserID != dave.UserID {
		t.Fatalf("after dave joined: status %s, seat 1 %+v", g.Status, g.Seats[1])
	}
}

func TestANewGamesSetUpErrorNamesTheFieldAtFault(t *testing.T) {
	bots := func(n int) []league.SeatSpec {
		seats := make([]league.SeatSpec, n)
		for i := range seats {
			seats[i] = league.SeatSpec{Bot: "random"}
		}
		return seats
	}
	for _, tc := range []struct {
		name  string
		req   league.NewGame
		field string
	}{
		{"an unknown variant", league.NewGame{Game: "sequence", Variant: "weird", Players: 2, Teams: 2, Seats: bots(2)}, "variant"},
		{"a negative sequences_to_win", league.NewGame{Game: "sequence", Players: 2, Teams: 2, SequencesToWin: -1, Seats: bots(2)}, "sequences_to_win"},
		{"a negative play_cap", league.NewGame{Game: "sequence", Players: 2, Teams: 2, PlayCap: -1, Seats: bots(2)}, "play_cap"},
		{"a team count the rules refuse", league.NewGame{Game: "sequence", Players: 4, Teams: 3, Seats: bots(4)}, "teams"},
		{"no team count for a table with two", league.NewGame{Game: "sequence", Players: 6, Seats: bots(6)}, "teams"},
		{"a player count the rules refuse", league.NewGame{Game: "sequence", Players: 5, Teams: 2, Seats: bots(5)}, "players"},
		{"Stacks with a variant", league.NewGame{Game: "stacks", Variant: "bordered", Players: 2, Seats: bots(2)}, "variant"},
		{"Stacks with a negative play_cap", league.NewGame{Game: "stacks", Players: 2, PlayCap: -1, Seats: bots(2)}, "play_cap"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := normalizeNewGame(tc.req)
			var le *league.Error
			if !errors.As(err, &le) || len(le.Fields) != 1 || le.Fields[0].Field != tc.field {
				t.Fatalf("error = %v; want one naming %s only", err, tc.field)
			}
		})
	}
	// With six players the rules allow 2 or 3 teams: the refusal says so.
	_, err := normalizeNewGame(league.NewGame{Game: "sequence", Players: 6, Seats: bots(6)})
	if got := err.(*league.Error).Fields[0].Message; got != "6 players play Sequence in 2 or 3 teams; choose one" {
		t.Errorf("message = %q", got)
	}
}

// The seats say how many play: players may go unsaid, and given, it must
// agree with them.
func TestTheSeatsSayHowManyPlay(t *testing.T) {
	seats := []league.SeatSpec{{Open: true}, {Bot: "random"}, {Bot: "random"}}
	for _, game := range []string{"sequence", "stacks"} {
		req, err := normalizeNewGame(league.NewGame{Game: game, Seats: seats})
		if err != nil || req.Players != 3 || req.Teams != 3 {
			t.Errorf("%s with three seats and no player count: %d players, %d teams, %v; want 3 and 3", game, req.Players, req.Teams, err)
		}
	}
	_, err := normalizeNewGame(league.NewGame{Game: "sequence", Players: 2, Seats: seats})
	var le *league.Error
	if !errors.As(err, &le) || len(le.Fields) != 1 || le.Fields[0].Field != "seats" {
		t.Errorf("two players with three seats: %v; want a refusal naming seats", err)
	}
}

func TestSequenceTeamsDefaultWhereTheRulesLeaveOneChoice(t *testing.T) {
	for players, want := range map[int]int{2: 2, 3: 3, 4: 2, 9: 3} {
		seats := make([]league.SeatSpec, players)
		for i := range seats {
			seats[i] = league.SeatSpec{Open: true}
		}
		req, err := normalizeNewGame(league.NewGame{Game: "sequence", Players: players, Seats: seats})
		if err != nil || req.Teams != want {
			t.Errorf("%d players without teams: teams %d, %v; want %d", players, req.Teams, err, want)
		}
	}
}

// In an untimed Stacks game only the block window is timed: when it closes
// on its timer, the completer's turn goes on with no deadline, and nothing
// plays it for them.
func TestAClosedBlockWindowLeavesAnUntimedTurnUntimed(t *testing.T) {
	r := newGameRig(t, false) // no workers: the test fires the timers
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.seat(t, ann, league.NewGame{Game: "stacks", Players: 2, BlockWindowSeconds: 1,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {}}}, map[int]league.Actor{1: bob})
	people := []league.Actor{ann, bob}
	db := r.db.Gorm.WithContext(ctx)
	// Both play greedily, completing a pile as soon as they can, until a
	// block window opens.
	var row *gameRow
	for {
		var game play.Game
		row, game = r.stateOf(t, g.ID)
		// A Stacks turn spans many plies; the stored turn follows each,
		// and in the window stays the completer's.
		if row.TurnSeat == nil || *row.TurnSeat != game.Turn() {
			t.Fatalf("ply %d: stored turn seat %v, want %d", row.Ply, row.TurnSeat, game.Turn())
		}
		if game.InWindow() {
			break
		}
		if game.Status().Over || row.Ply > 2000 {
			t.Fatalf("no block window opened in %d plies", row.Ply)
		}
		seat := game.Turn()
		move := completingMove(t, game, row.Ply)
		if row.TurnDeadline != nil {
			t.Fatalf("ply %d of an untimed game has a deadline", row.Ply)
		}
		if _, err := r.games.Move(ctx, people[seat], g.ID, league.MoveRequest{Ply: row.Ply, Move: move}); err != nil {
			t.Fatalf("ply %d, %s: %v", row.Ply, move, err)
		}
	}
	window := row.Ply
	if err := r.games.TimeOut(ctx, g.ID, window); err != nil { // the window's timer
		t.Fatal(err)
	}
	row, _, _, err := loadGame(db, g.ID, false, moveKey{})
	if err != nil {
		t.Fatal(err)
	}
	if row.Ply != window+1 || row.Status != league.StatusActive {
		t.Fatalf("after the window's timer: ply %d, status %s; want the window closed at ply %d", row.Ply, row.Status, window+1)
	}
	if row.TurnDeadline != nil {
		t.Errorf("the turn after the window has deadline %v; an untimed turn has none", row.TurnDeadline)
	}
	timer := fmt.Sprintf("turn:%s:%d", g.ID, row.Ply)
	if _, err := asynq.NewInspectorFromRedisClient(r.rdb).GetTaskInfo(workers.QueueGames, timer); !errors.Is(err, asynq.ErrTaskNotFound) {
		t.Errorf("timer %s after the window: %v; want none scheduled", timer, err)
	}
	// Even a timer that comes anyway plays nothing for the mover.
	if err := r.games.TimeOut(ctx, g.ID, row.Ply); err != nil {
		t.Fatal(err)
	}
	moves, err := r.games.Moves(ctx, g.ID, window-1)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 1 || moves[0].Actor != league.ByServer {
		t.Fatalf("moves since the window opened = %+v; want only the server's close", moves)
	}
}

// A move_id is an idempotency key for one player's moves: two players who
// both count their moves "1", "2", … never collide, and a player repeating
// an id gets the first answer again, through whichever path the move takes
// (this instance's copy of the game, or the game as read).
func TestAMoveIDIsUniqueForEachPlayerNotForTheGame(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	other := NewGames(r.db, r.games.events, r.games.tasks, GameConfig{}, testLogger(t))
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.headToHead(t, ann, bob)
	played := map[string]string{} // each player's move_id → the move sent with it
	move := func(svc *Games, p league.Actor, ply int, moveID string) (*league.GameView, error) {
		t.Helper()
		v, err := svc.View(ctx, p, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.LegalMoves) == 0 {
			t.Fatalf("no legal moves for %s at ply %d", p.UserID, v.Game.Ply)
		}
		got, err := svc.Move(ctx, p, g.ID, league.MoveRequest{Ply: ply, Move: v.LegalMoves[0], MoveID: moveID})
		if err == nil {
			played[p.UserID+"/"+moveID] = v.LegalMoves[0]
		}
		return got, err
	}
	stored := func(want int64) {
		t.Helper()
		if n := r.rowsOf(t, "game_moves", g.ID); n != want {
			t.Fatalf("%d moves stored, want %d", n, want)
		}
	}
	if _, err := move(r.games, ann, 0, "1"); err != nil {
		t.Fatalf("ann's move 1: %v", err)
	}
	// This instance stored ply 1, so bob's move is checked against its copy
	// and stored by one statement, without its id being looked up.
	if _, err := move(r.games, bob, 1, "1"); err != nil {
		t.Fatalf("bob's move 1 after ann's move 1, from this instance's copy: %v; want it accepted", err)
	}
	if _, err := move(r.games, ann, 2, "2"); err != nil {
		t.Fatalf("ann's move 2: %v", err)
	}
	// bob reuses his id for a new, legal move on this instance's copy: the
	// unique index stops it, the id is then read with the game, and as it
	// was used at another ply the move is refused naming move_id, rather
	// than answered as a retry of the first and silently not played.
	_, err := move(r.games, bob, 3, "1")
	var le *league.Error
	if !errors.As(err, &le) || le.Code != league.ECONFLICT || len(le.Fields) != 1 || le.Fields[0].Field != "move_id" {
		t.Fatalf("bob reusing move_id 1 at ply 3: %v; want a conflict naming move_id", err)
	}
	stored(3)
	// Another instance has no copy: the id is looked up with the game read.
	if _, err := move(other, bob, 3, "2"); err != nil {
		t.Fatalf("bob's move 2 after ann's move 2, through a read of the game: %v; want it accepted", err)
	}
	stored(4)
	for _, tc := range []struct {
		name    string
		p       league.Actor
		ply     int
		moveID  string
		wantPly int
	}{
		{"bob repeats move 1", bob, 1, "1", 2},
		{"ann repeats move 1", ann, 0, "1", 1},
		{"ann repeats move 2", ann, 2, "2", 3},
		{"bob repeats move 2", bob, 3, "2", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, svc := range []*Games{r.games, other} {
				first := played[tc.p.UserID+"/"+tc.moveID]
				got, err := svc.Move(ctx, tc.p, g.ID, league.MoveRequest{Ply: tc.ply, Move: first, MoveID: tc.moveID})
				if err != nil {
					t.Fatalf("repeated move_id: %v; want the first answer again", err)
				}
				if got.Game.Ply != tc.wantPly {
					t.Fatalf("repeated move_id answered at ply %d, want %d (right after the first move with it)", got.Game.Ply, tc.wantPly)
				}
				// The same id at the same ply with another move is no
				// retry: answered as one, the move sent was silently never
				// played. It is refused, naming move_id.
				_, err = svc.Move(ctx, tc.p, g.ID, league.MoveRequest{Ply: tc.ply, Move: first + "x", MoveID: tc.moveID})
				var le *league.Error
				if !errors.As(err, &le) || le.Code != league.ECONFLICT || len(le.Fields) != 1 || le.Fields[0].Field != "move_id" ||
					!strings.Contains(le.Fields[0].Message, "another move") {
					t.Fatalf("move_id %s again at ply %d with another move: %v; want a conflict naming move_id", tc.moveID, tc.ply, err)
				}
			}
			stored(4)
		})
	}
}

// The result alone does not say how a game ended, and an adjudicated
// game's rule vector shows it still being played: the game, its archive
// (built before settlement and stored by it) and its replay frames say.
func TestAGameSaysHowItEnded(t *testing.T) {
	r := newGameRig(t, false) // no workers: the test settles
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.headToHead(t, ann, bob)
	r.playFirstMoves(t, g.ID, ann, bob)
	v, err := r.games.View(ctx, ann, g.ID)
	if err != nil || v.Game.EndedBy != "" {
		t.Fatalf("a game being played: ended by %q, %v; want nothing yet", v.Game.EndedBy, err)
	}
	if err := r.games.Adjudicate(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	if v, err = r.games.View(ctx, ann, g.ID); err != nil {
		t.Fatal(err)
	}
	if v.Game.Status != league.StatusFinished || v.Game.EndedBy != league.EndedByAdjudication {
		t.Fatalf("after adjudication: status %s, ended by %q; want finished by %q", v.Game.Status, v.Game.EndedBy, league.EndedByAdjudication)
	}
	before, err := r.games.Archive(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.games.Settle(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	after, err := r.games.Archive(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	for name, a := range map[string]*league.Archive{"built before settlement": before, "stored": after} {
		if a.Game.EndedBy != league.EndedByAdjudication {
			t.Errorf("archive %s: ended by %q, want %q", name, a.Game.EndedBy, league.EndedByAdjudication)
		}
	}
	// Only the last frame shows the game ended.
	frames, err := r.games.Frames(ctx, ann, g.ID, 0)
	if err != nil || len(frames) != 2 {
		t.Fatalf("frames = %d, %v; want 2", len(frames), err)
	}
	if got := []string{frames[0].View.Game.EndedBy, frames[1].View.Game.EndedBy}; got[0] != "" || got[1] != league.EndedByAdjudication {
		t.Errorf("frames ended by %q; want nothing, then %q", got, league.EndedByAdjudication)
	}
	if frames[0].View.Game.FinishedAt != nil || frames[1].View.Game.FinishedAt == nil {
		t.Errorf("frames finished at %v, %v; want only the last", frames[0].View.Game.FinishedAt, frames[1].View.Game.FinishedAt)
	}
	// A game its creator's closed account leaves with nobody is aborted.
	open, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.db.Gorm.Transaction(func(tx *gorm.DB) error { return leaveOpenGames(tx, &effects{}, ann.UserID, time.Now()) }); err != nil {
		t.Fatal(err)
	}
	if v, err = r.games.View(ctx, bob, open.ID); err != nil {
		t.Fatal(err)
	}
	if v.Game.Status != league.StatusAborted || v.Game.EndedBy != league.EndedByAbort {
		t.Fatalf("an abandoned open game: status %s, ended by %q; want aborted by %q", v.Game.Status, v.Game.EndedBy, league.EndedByAbort)
	}
}

// BotThinkLimit ends a bot's search when its time is up: with a limit
// already past at the first question, the move stored is the one the search
// makes when stopped at once (every candidate looked at once), not the one
// its full budget makes.
func TestABotsThinkingTimeIsCapped(t *testing.T) {
	r := newGameRig(t, false)
	r.games.cfg.BotThinkLimit = time.Nanosecond
	ctx := context.Background()
	db := r.db.Gorm.WithContext(ctx)
	ann := r.user(t, "ann")
	toldApart := false
	// The first move of a deal is often the same either way (about three
	// deals in four): deal until one tells them apart (about one run in
	// 60,000 finds none in 40 deals).
	for i := 0; i < 40 && !toldApart; i++ {
		g, err := r.games.Create(ctx, ann, league.NewGame{
			Game: "sequence", Players: 2, Teams: 2,
			Seats: []league.SeatSpec{{Bot: "strong"}, {UserID: ann.UserID}},
		})
		if err != nil {
			t.Fatal(err)
		}
		row, _, _, err := loadGame(db, g.ID, false, moveKey{})
		if err != nil {
			t.Fatal(err)
		}
		game, err := r.games.state(db, row)
		if err != nil {
			t.Fatal(err)
		}
		stopped, err := game.BotMove("strong", 0, botSeed(row, 0, 0), func() bool { return true })
		if err != nil {
			t.Fatal(err)
		}
		full, err := game.BotMove("strong", 0, botSeed(row, 0, 0), nil)
		if err != nil {
			t.Fatal(err)
		}
		toldApart = stopped != full
		if err := r.games.PlayBot(ctx, g.ID, 0); err != nil {
			t.Fatal(err)
		}
		var stored string
		if err := db.Raw("SELECT move FROM game_moves WHERE game_id = ? AND ply = 0", g.ID).Row().Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if stored != stopped {
			t.Fatalf("game %d: the bot played %q; stopped at once it plays %q (with its full budget %q)", i, stored, stopped, full)
		}
	}
	if !toldApart {
		t.Fatal("in no game did the stopped and the full search choose apart: the test cannot see the cap")
	}
}

// On a time bank a timeout both charges the bank and counts the timeout,
// two changes of one seat in one turn: both must be stored, so that the
// seat is handed to the fill-in bot at max_timeouts like on turn clocks.
func TestATimeBankTimeoutIsCountedAndCharged(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	db := r.db.Gorm.WithContext(ctx)
	ann := r.user(t, "ann")
	g, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2, MaxTimeouts: 2,
		Clock: league.Clock{BankSeconds: 10, IncrementSeconds: 2},
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Bot: "greedy"}}})
	if err != nil {
		t.Fatal(err)
	}
	later := time.Now()
	r.games.now = func() time.Time { return later }
	type seatState struct {
		TimeoutsInARow int
		BankMS         int64
		Abandoned      bool
		BotLevel       *string
	}
	seat0 := func() seatState {
		t.Helper()
		var s seatState
		if err := db.Raw("SELECT timeouts_in_a_row, bank_ms, abandoned, bot_level FROM game_seats WHERE game_id = ? AND seat = 0", g.ID).Scan(&s).Error; err != nil {
			t.Fatal(err)
		}
		return s
	}
	for timeout := 1; timeout <= 2; timeout++ {
		row, _, _, err := loadGame(db, g.ID, false, moveKey{})
		if err != nil {
			t.Fatal(err)
		}
		if row.TurnDeadline == nil {
			t.Fatalf("ply %d: ann's turn on a time bank has no deadline", row.Ply)
		}
		later = row.TurnDeadline.Add(time.Second) // the bank runs out
		if err := r.games.TimeOut(ctx, g.ID, row.Ply); err != nil {
			t.Fatal(err)
		}
		s := seat0()
		if s.TimeoutsInARow != timeout {
			t.Fatalf("after timeout %d: timeouts_in_a_row = %d", timeout, s.TimeoutsInARow)
		}
		if s.BankMS != 2000 {
			t.Errorf("after timeout %d: bank %d ms; want the empty bank plus the 2 s increment", timeout, s.BankMS)
		}
		if timeout == 1 {
			if err := r.games.PlayBot(ctx, g.ID, row.Ply+1); err != nil {
				t.Fatal(err)
			}
		}
	}
	if s := seat0(); !s.Abandoned || s.BotLevel == nil {
		t.Fatalf("after max_timeouts on a time bank: %+v; want the seat abandoned to a fill-in bot", s)
	}
}

// A bot's task may come before the bot is due (asynq schedules to the
// whole second); the bot still moves no sooner than BotDelay after the move
// it answers.
func TestABotNeverAnswersBeforeItsDelay(t *testing.T) {
	r := newGameRig(t, false) // no workers: the test runs the bot's task, early
	r.games.cfg.BotDelay = 300 * time.Millisecond
	ctx := context.Background()
	db := r.db.Gorm.WithContext(ctx)
	ann := r.user(t, "ann")
	g, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Bot: "greedy"}}})
	if err != nil {
		t.Fatal(err)
	}
	v, err := r.games.View(ctx, ann, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.games.Move(ctx, ann, g.ID, league.MoveRequest{Ply: 0, Move: v.LegalMoves[0]}); err != nil {
		t.Fatal(err)
	}
	if err := r.games.PlayBot(ctx, g.ID, 1); err != nil { // at once, not after the delay
		t.Fatal(err)
	}
	var times []time.Time
	if err := db.Raw("SELECT created_at FROM game_moves WHERE game_id = ? ORDER BY ply", g.ID).Scan(&times).Error; err != nil {
		t.Fatal(err)
	}
	if len(times) != 2 {
		t.Fatalf("%d moves stored, want ann's and the bot's", len(times))
	}
	if gap := times[1].Sub(times[0]); gap < r.games.cfg.BotDelay {
		t.Fatalf("the bot answered %v after ann's move, before its %v delay", gap, r.games.cfg.BotDelay)
	}
}

// A scheduled game's start is a task enqueued after the game's commit; if
// it is lost, nothing else would ever start the game, and its seated
// players would wait for ever. The sweep schedules it again once the start
// (and its fill grace) is long past.
func TestTheSweepReschedulesALostScheduledStart(t *testing.T) {
	r := newGameRig(t, false) // no workers: queued tasks stay queued
	ctx := context.Background()
	ann := r.user(t, "ann")
	start := time.Now().UTC().Add(time.Hour)
	g, err := r.games.Create(ctx, ann, league.NewGame{
		Game: "sequence", Players: 2, Teams: 2, ScheduledStart: &start,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}},
	})
	if err != nil {
		t.Fatal(err)
	}
	insp := asynq.NewInspectorFromRedisClient(r.rdb)
	if err := insp.DeleteTask(workers.QueueSchedule, fmt.Sprintf("start:%s:%d", g.ID, start.UnixMilli())); err != nil {
		t.Fatalf("losing the start task: %v", err)
	}
	if done, err := r.games.Reconcile(ctx); err != nil || done.Total() != 0 {
		t.Fatalf("sweep before the start = %+v, %v; want none", done, err)
	}
	var due time.Time
	if err := r.db.Gorm.Raw("UPDATE games SET scheduled_start = now() - interval '1 minute' WHERE id = ? RETURNING scheduled_start", g.ID).Row().Scan(&due); err != nil {
		t.Fatal(err)
	}
	if done, err := r.games.Reconcile(ctx); err != nil || done != (Rescheduled{Starts: 1}) {
		t.Fatalf("sweep after the start = %+v, %v; want 1 start", done, err)
	}
	startID := fmt.Sprintf("start:%s:%d", g.ID, due.UnixMilli())
	if _, err := insp.GetTaskInfo(workers.QueueSchedule, startID); err != nil {
		t.Fatalf("task %s after the sweep: %v", startID, err)
	}
	if err := r.games.StartScheduled(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	v, err := r.games.View(ctx, ann, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Game.Status != league.StatusActive || !v.Game.Seats[1].FilledByBot {
		t.Fatalf("game %s, seat 1 %+v after its start ran; want active with a fill-in bot", v.Game.Status, v.Game.Seats[1])
	}
	if done, err := r.games.Reconcile(ctx); err != nil || done.Starts != 0 {
		t.Fatalf("sweep once started = %+v, %v; want no start", done, err)
	}
}

// A game's times are answered as they are stored, to the microsecond:
// the answer to its creation said created_at .758027236Z, and every read
// after it .758027Z (the contract audit), and so did a scheduled start.
func TestAGamesTimesAreAnsweredAsStored(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann := r.user(t, "ann")
	start := time.Now().UTC().Add(time.Hour).Truncate(time.Second).Add(123456789 * time.Nanosecond)
	g, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2, ScheduledStart: &start,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	v, err := r.games.View(ctx, ann, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !g.CreatedAt.Equal(v.Game.CreatedAt) || g.CreatedAt.Nanosecond()%1000 != 0 {
		t.Errorf("created_at answered %v at creation and %v when read", g.CreatedAt, v.Game.CreatedAt)
	}
	if g.ScheduledStart == nil || v.Game.ScheduledStart == nil || !g.ScheduledStart.Equal(*v.Game.ScheduledStart) || !g.ScheduledStart.Equal(start.Truncate(time.Microsecond)) {
		t.Errorf("scheduled_start answered %v at creation and %v when read, sent %v", g.ScheduledStart, v.Game.ScheduledStart, start)
	}
}

// The game as it stood after a move, which a repeated move_id answers, was
// not yet settled: its first answer had no settled_at.
func TestAGameAsItStoodAfterAMoveWasNotYetSettled(t *testing.T) {
	settled := time.Now().UTC()
	row := &gameRow{Ply: 40, Status: league.StatusFinished, SettledAt: &settled}
	for _, plies := range []int{39, 40} {
		if at := rowAt(row, plies); at.SettledAt != nil {
			t.Errorf("after %d of 40 plies: settled_at %v, want none", plies, at.SettledAt)
		}
	}
}

// RescheduleAll, for a Redis that lost every task, is not cut into the
// sweep's batches: past the first 1,000 games the rest waited for sweeps of
// 1,000 every 30 s. What is checked here is the limit each query of the
// sweep takes (a batch of 2 takes 2 of 3 games, allRows all 3); that
// RescheduleAll passes allRows, and Reconcile reconcileBatch, is one line
// each, which a test would need 1,001 games to tell apart.
func TestRescheduleAllTakesEveryGameNotABatch(t *testing.T) {
	r := newGameRig(t, false)
	var ids []string
	for i := range 3 {
		g := r.headToHead(t, r.user(t, fmt.Sprintf("a%d", i)), r.user(t, fmt.Sprintf("b%d", i)))
		ids = append(ids, g.ID)
	}
	if err := r.db.Gorm.Exec("UPDATE games SET turn_deadline = now() + interval '1 hour' WHERE id IN ?", ids).Error; err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ limit, want int }{{2, 2}, {allRows, 3}} {
		n, err := rescheduleOverdue(r.db.Gorm, "turn_deadline", farFuture, tc.limit, func(overdueGame) error { return nil })
		if err != nil || n != tc.want {
			t.Errorf("limit %d: %d games, %v; want %d", tc.limit, n, err, tc.want)
		}
	}
}
