package postgres

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/redisbus"
	"github.com/seqleague/seqleague/workers"
)

// A settlement delivered several times at once (asynq retrying a task
// whose worker seemed dead, the sweep scheduling it again, a second worker)
// writes one archive and moves the ratings once.
func TestASettlementDeliveredManyTimesAtOnceSettlesOnce(t *testing.T) {
	r := newGameRig(t, false)
	r.games.AddSettler(NewRatings(r.db))
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.seat(t, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2, Rated: true,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {}}}, map[int]league.Actor{1: bob})
	r.playAsHumans(t, g.ID, []league.Actor{ann, bob}, 60*time.Second)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() { defer wg.Done(); errs <- r.games.Settle(ctx, g.ID) }()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("a settlement delivered again: %v", err)
		}
	}
	if n := r.rowsOf(t, "game_archive", g.ID); n != 1 {
		t.Fatalf("%d archive rows after 8 settlements, want 1", n)
	}
	var changes int64
	if err := r.db.Gorm.Raw("SELECT count(*) FROM rating_changes WHERE game_id = ?", g.ID).Scan(&changes).Error; err != nil {
		t.Fatal(err)
	}
	if changes != 2 {
		t.Fatalf("%d rating changes after 8 settlements, want 2 (one per player)", changes)
	}
	// A late one (the sweep's, after the first had run) is a no-op too.
	if err := r.games.Settle(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	if n := r.rowsOf(t, "game_archive", g.ID); n != 1 {
		t.Fatalf("%d archive rows after a late settlement, want 1", n)
	}
}

// When a turn's time is up, its timer (delivered several times), the
// person's own late move and a stray bot task race for the same ply:
// exactly one of them plays the turn, a timeout is counted at most once,
// and every task delivered afterwards for that ply does nothing.
func TestATimerItsDuplicatesAndTheLateMoveRaceForOneTurn(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	for round := range 4 {
		g := r.seat(t, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2, Clock: league.Clock{TurnSeconds: 1},
			Seats: []league.SeatSpec{{UserID: ann.UserID}, {}}}, map[int]league.Actor{1: bob})
		v, err := r.games.View(ctx, ann, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Until(*v.Game.TurnDeadline) + 50*time.Millisecond)
		var wg sync.WaitGroup
		var mu sync.Mutex
		moved, failures := 0, []error{}
		for i := range 9 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				switch i % 3 {
				case 0:
					_, err = r.games.Move(ctx, ann, g.ID, league.MoveRequest{Ply: 0, Move: v.LegalMoves[i%len(v.LegalMoves)]})
					if err == nil {
						mu.Lock()
						moved++
						mu.Unlock()
					}
					if league.ErrorCode(err) == league.ECONFLICT {
						err = nil // the timer was first
					}
				case 1:
					err = r.games.TimeOut(ctx, g.ID, 0)
				case 2:
					err = r.games.PlayBot(ctx, g.ID, 0)
				}
				if err != nil {
					mu.Lock()
					failures = append(failures, err)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if len(failures) > 0 {
			t.Fatalf("round %d: %v", round, failures)
		}
		var seat0 seatRow
		if err := r.db.Gorm.Where("game_id = ? AND seat = 0", g.ID).Take(&seat0).Error; err != nil {
			t.Fatal(err)
		}
		moves, err := r.games.Moves(ctx, g.ID, -1)
		if err != nil {
			t.Fatal(err)
		}
		if moved > 1 {
			t.Fatalf("round %d: %d moves of ann's accepted for one ply", round, moved)
		}
		byPlayer, byAutopilot := 0, 0
		for _, m := range moves {
			if m.Seat != 0 {
				t.Fatalf("round %d: a move of seat %d (%+v) on ann's turn", round, m.Seat, m)
			}
			switch m.Actor {
			case league.ByPlayer:
				byPlayer++
			case league.ByAutopilot:
				byAutopilot++
			}
		}
		want := 0
		if moved == 0 {
			want = 1
		}
		if byPlayer != moved || (byAutopilot > 0) != (moved == 0) || seat0.TimeoutsInARow != want {
			t.Fatalf("round %d: ann's move accepted %d times, moves %+v, timeouts in a row %d; want her move or one autopilot turn, counted once",
				round, moved, moves, seat0.TimeoutsInARow)
		}
		after, err := r.games.View(ctx, bob, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		// Late deliveries of the old ply's tasks change nothing.
		for _, late := range []func() error{
			func() error { return r.games.TimeOut(ctx, g.ID, 0) },
			func() error { return r.games.PlayBot(ctx, g.ID, 0) },
		} {
			if err := late(); err != nil {
				t.Fatal(err)
			}
		}
		again, err := r.games.View(ctx, bob, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if again.Game.Ply != after.Game.Ply || len(after.LegalMoves) == 0 {
			t.Fatalf("round %d: at ply %d (bob to move: %v) then %d after late tasks; want bob to move and nothing more", round, after.Game.Ply, len(after.LegalMoves) > 0, again.Game.Ply)
		}
	}
}

// A bot's task in flight when its game ends (a round's deadline
// adjudicating it) stores nothing: no move after the end, and the archive
// holds exactly the moves made before it.
func TestABotTaskRacingTheGamesEndStoresNothingAfterIt(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann := r.user(t, "ann")
	for round := range 6 {
		g, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2,
			Seats: []league.SeatSpec{{Bot: "greedy"}, {UserID: ann.UserID}}})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for i := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if i%2 == 0 {
					errs <- r.games.PlayBot(ctx, g.ID, 0)
				} else {
					errs <- r.games.Adjudicate(ctx, g.ID)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		var row gameRow
		if err := r.db.Gorm.Where("id = ?", g.ID).Take(&row).Error; err != nil {
			t.Fatal(err)
		}
		if row.Status != league.StatusFinished || row.EndedBy == nil || *row.EndedBy != league.EndedByAdjudication {
			t.Fatalf("round %d: game %s ended by %v; want adjudicated", round, row.Status, row.EndedBy)
		}
		if n := r.rowsOf(t, "game_moves", g.ID); n != int64(row.Ply) || n > 1 {
			t.Fatalf("round %d: %d moves stored for a game that ended at ply %d", round, n, row.Ply)
		}
		if err := r.games.PlayBot(ctx, g.ID, row.Ply); err != nil {
			t.Fatal(err)
		}
		if err := r.games.Settle(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
		if n := r.rowsOf(t, "game_moves", g.ID); n != int64(row.Ply) {
			t.Fatalf("round %d: %d moves after a late bot task, want %d", round, n, row.Ply)
		}
		var archived int
		if err := r.db.Gorm.Raw("SELECT jsonb_array_length(record->'moves') FROM game_archive WHERE game_id = ?", g.ID).Scan(&archived).Error; err != nil {
			t.Fatal(err)
		}
		if archived != row.Ply {
			t.Fatalf("round %d: %d moves archived for a game that ended at ply %d", round, archived, row.Ply)
		}
	}
}

// With Redis down, a game's changes still commit (the tasks after the
// commit fail and are logged); once Redis is back, the sweep schedules
// the lost bot move and the workers play it.
func TestAGameChangedWhileRedisWasDownMovesOnOnceItIsBack(t *testing.T) {
	r := newGameRig(t, true)
	ctx := context.Background()
	dead := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	t.Cleanup(func() { dead.Close() })
	down := NewGames(r.db, redisbus.New(dead), workers.NewEnqueuer(dead), GameConfig{}, testLogger(t))
	ann := r.user(t, "ann")
	g, err := down.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2,
		Seats: []league.SeatSpec{{Bot: "greedy"}, {UserID: ann.UserID}}})
	if err != nil {
		t.Fatalf("creating a game with Redis down: %v", err)
	}
	if g.Status != league.StatusActive {
		t.Fatalf("game %s; want it started, its bot's task lost", g.Status)
	}
	time.Sleep(300 * time.Millisecond)
	if v, err := r.games.View(ctx, ann, g.ID); err != nil || v.Game.Ply != 0 {
		t.Fatalf("game at ply %v (%v) with its bot's task lost; want 0", v, err)
	}
	if err := r.db.Gorm.Exec("UPDATE games SET bot_due_at = bot_due_at - interval '1 minute' WHERE id = ?", g.ID).Error; err != nil {
		t.Fatal(err)
	}
	if done, err := r.games.Reconcile(ctx); err != nil || done != (Rescheduled{BotMoves: 1}) {
		t.Fatalf("sweep once Redis is back = %+v, %v; want 1 bot move", done, err)
	}
	end := time.Now().Add(20 * time.Second)
	for time.Now().Before(end) {
		v, err := r.games.View(ctx, ann, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if v.Game.Ply >= 1 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the bot never moved after the sweep (game %s)", g.ID)
}

// A worker whose clock runs behind (a clock stepped back, or a machine
// skewed from the one whose asynq forwarded the timer) finds the deadline
// still ahead and does not play the turn early; the timer is the ply's only
// one, so it is not dropped either: it comes back at the deadline. Should
// it be lost all the same, the timer the sweep schedules again (once the
// deadline is long past) is run by a worker whose clock is right and plays
// the turn, once.
func TestATimerRunByAWorkerWhoseClockIsBehindComesBackAtTheDeadline(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.seat(t, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2, Clock: league.Clock{TurnSeconds: 1},
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {}}}, map[int]league.Actor{1: bob})
	behind := NewGames(r.db, redisbus.New(r.rdb), workers.NewEnqueuer(r.rdb), GameConfig{}, testLogger(t))
	behind.now = func() time.Time { return time.Now().UTC().Add(-10 * time.Second) }
	v, err := r.games.View(ctx, ann, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(*v.Game.TurnDeadline) + 50*time.Millisecond)
	var early *league.NotYet
	if err := behind.TimeOut(ctx, g.ID, 0); !errors.As(err, &early) || !early.At.Equal(*v.Game.TurnDeadline) {
		t.Fatalf("timer run by a worker 10 s behind: %v; want it to come back at the deadline %v", err, *v.Game.TurnDeadline)
	}
	if n := r.rowsOf(t, "game_moves", g.ID); n != 0 {
		t.Fatalf("%d moves after a timer run by a worker 10 s behind, want none", n)
	}
	// Its sweep, on the same clock, finds nothing overdue either.
	if done, err := behind.Reconcile(ctx); err != nil || done.Total() != 0 {
		t.Fatalf("sweep of a worker 10 s behind = %+v, %v; want none", done, err)
	}
	if err := r.db.Gorm.Exec("UPDATE games SET turn_deadline = turn_deadline - interval '1 minute' WHERE id = ?", g.ID).Error; err != nil {
		t.Fatal(err)
	}
	if done, err := r.games.Reconcile(ctx); err != nil || done != (Rescheduled{Timers: 1}) {
		t.Fatalf("sweep = %+v, %v; want 1 timer", done, err)
	}
	for range 2 { // the sweep's timer, and a duplicate of it
		if err := r.games.TimeOut(ctx, g.ID, 0); err != nil {
			t.Fatal(err)
		}
	}
	moves, err := r.games.Moves(ctx, g.ID, -1)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) == 0 {
		t.Fatal("no move after the sweep's timer; want the autopilot's turn")
	}
	for _, m := range moves {
		if m.Actor != league.ByAutopilot || m.Seat != 0 {
			t.Fatalf("moves after the sweep's timer: %+v; want ann's one turn, played by the autopilot", moves)
		}
	}
	if v, err := r.games.View(ctx, bob, g.ID); err != nil || len(v.LegalMoves) == 0 {
		t.Fatalf("after the sweep's timer: %v; want bob to move", err)
	}
}
