package postgres

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/seqleague/seqleague/engine/play"
	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/workers"
)

// max_timeouts counts timeouts in a row: a move of the player's own between
// two timeouts starts the count again. The timeout's count was stored but
// not kept in the seats cached with the turn, so the player's move, read
// from the cache, saw nothing to reset, and with max_timeouts 2 a fill-in
// bot took the seat (rated as abandoned) at the second timeout, a move of
// theirs between the two (the live-games audit).
func TestAMoveOfTheirOwnBetweenTwoTimeoutsStartsTheCountAgain(t *testing.T) {
	r := newGameRig(t, false) // no workers: the test fires the timers
	ctx := context.Background()
	db := r.db.Gorm.WithContext(ctx)
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.seat(t, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2, MaxTimeouts: 2, Clock: league.Clock{TurnSeconds: 60},
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {}}}, map[int]league.Actor{1: bob})
	now := time.Now()
	r.games.now = func() time.Time { return now }
	move := func(p league.Actor) {
		t.Helper()
		v, err := r.games.View(ctx, p, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.games.Move(ctx, p, g.ID, league.MoveRequest{Ply: v.Game.Ply, Move: v.LegalMoves[0]}); err != nil {
			t.Fatal(err)
		}
	}
	timeOut := func() {
		t.Helper()
		row, _, _, err := loadGame(db, g.ID, false, moveKey{})
		if err != nil {
			t.Fatal(err)
		}
		now = row.TurnDeadline.Add(time.Second)
		if err := r.games.TimeOut(ctx, g.ID, row.Ply); err != nil {
			t.Fatal(err)
		}
		move(bob)
	}
	annsSeat := func() (timeouts int, abandoned bool) {
		t.Helper()
		var s struct {
			TimeoutsInARow int
			Abandoned      bool
		}
		if err := db.Raw("SELECT timeouts_in_a_row, abandoned FROM game_seats WHERE game_id = ? AND seat = 0", g.ID).Scan(&s).Error; err != nil {
			t.Fatal(err)
		}
		return s.TimeoutsInARow, s.Abandoned
	}

	timeOut()
	move(ann)
	if n, _ := annsSeat(); n != 0 {
		t.Fatalf("after ann's own move: timeouts_in_a_row %d, want 0", n)
	}
	move(bob)
	timeOut()
	if n, abandoned := annsSeat(); n != 1 || abandoned {
		t.Fatalf("after a timeout, a move of ann's own and a timeout: timeouts_in_a_row %d, abandoned %v; want 1, still hers", n, abandoned)
	}
	timeOut()
	if n, abandoned := annsSeat(); n != 2 || !abandoned {
		t.Fatalf("after two timeouts in a row: timeouts_in_a_row %d, abandoned %v; want 2, handed to a fill-in bot", n, abandoned)
	}
}

// A Stacks turn on a time bank is charged the time its deadline gave it: a
// block window pauses the deadline, and now the charge too. The bank was
// charged the window's seconds as well, which ran it out of a player who
// moved within the time shown (the live-games audit: 3 s of window and
// 1.1 s of play charged 4.1 s).
func TestABlockWindowIsNotChargedToTheCompletersBank(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	db := r.db.Gorm.WithContext(ctx)
	now := time.Now()
	r.games.now = func() time.Time { return now }
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.seat(t, ann, league.NewGame{Game: "stacks", Players: 2, BlockWindowSeconds: 3, Clock: league.Clock{BankSeconds: 30},
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {}}}, map[int]league.Actor{1: bob})
	people := []league.Actor{ann, bob}
	bank := func(seat int) int64 {
		t.Helper()
		var ms int64
		if err := db.Raw("SELECT bank_ms FROM game_seats WHERE game_id = ? AND seat = ?", g.ID, seat).Scan(&ms).Error; err != nil {
			t.Fatal(err)
		}
		return ms
	}
	// Both play at once (no time passes), completing a pile as soon as they
	// can, until a block window opens.
	completer, before := -1, int64(0)
	for ply := 0; ; ply++ {
		row, game := r.stateOf(t, g.ID)
		if game.InWindow() {
			first := completer < 0
			if first {
				completer, before = game.Turn(), bank(game.Turn())
			}
			now = now.Add(3 * time.Second) // the window runs its length
			if err := r.games.TimeOut(ctx, g.ID, row.Ply); err != nil {
				t.Fatal(err)
			}
			if first {
				now = now.Add(time.Second) // the completer then takes a second
			}
			continue
		}
		if completer >= 0 && game.Turn() != completer {
			break // the completer's turn is over
		}
		if game.Status().Over || ply > 2000 {
			t.Fatalf("no block window opened in %d plies", row.Ply)
		}
		seat := game.Turn()
		move := completingMove(t, game, row.Ply)
		if completer >= 0 { // the one window is enough: the turn may end
			var err error
			if move, err = game.BotMove("greedy", seat, uint64(row.Ply), nil); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := r.games.Move(ctx, people[seat], g.ID, league.MoveRequest{Ply: row.Ply, Move: move}); err != nil {
			t.Fatalf("ply %d, %s: %v", row.Ply, move, err)
		}
	}
	if got := bank(completer); got != before-1000 {
		t.Fatalf("the completer's bank: %d ms before the turn, %d after 3 s of block window and 1 s of play; want %d (the second only)", before, got, before-1000)
	}
}

// A completion a person BLOCKs gives the completer's turn back the time it
// had when the window opened. The BLOCK, a person's move, was played on
// the row cached with the turn, whose resume_ms was not kept there: the
// turn came back with no deadline at all (untimed for good: the player
// could stall the game) or with an earlier window's time (the web game
// audit). Deals are played until one gives a person a BLOCK to play.
func TestABlockedCompletionGivesTheTurnBackTheTimeItHad(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	db := r.db.Gorm.WithContext(ctx)
	now := time.Now().Truncate(time.Millisecond) // as stored
	r.games.now = func() time.Time { return now }
	for deal := 0; deal < 8; deal++ {
		ann, bob := r.user(t, fmt.Sprintf("ann%d", deal)), r.user(t, fmt.Sprintf("bob%d", deal))
		g := r.seat(t, ann, league.NewGame{Game: "stacks", Players: 2, BlockWindowSeconds: 5, Clock: league.Clock{TurnSeconds: 120},
			Seats: []league.SeatSpec{{UserID: ann.UserID}, {}}}, map[int]league.Actor{1: bob})
		people := []league.Actor{ann, bob}
		for ply := 0; ply < 2000; ply++ {
			row, game := r.stateOf(t, g.ID)
			if game.Status().Over {
				break
			}
			if game.InWindow() {
				blocker := 1 - game.Turn()
				v, err := r.games.View(ctx, people[blocker], g.ID)
				if err != nil {
					t.Fatal(err)
				}
				now = now.Add(2 * time.Second) // the window's time is not the turn's
				if !slices.Contains(v.LegalMoves, blockMove) {
					now = now.Add(3 * time.Second)
					if err := r.games.TimeOut(ctx, g.ID, row.Ply); err != nil {
						t.Fatal(err)
					}
					continue
				}
				left := *row.ResumeMS // as stored when the window opened
				if _, err := r.games.Move(ctx, people[blocker], g.ID, league.MoveRequest{Ply: row.Ply, Move: blockMove}); err != nil {
					t.Fatal(err)
				}
				after, _, _, err := loadGame(db, g.ID, false, moveKey{})
				if err != nil {
					t.Fatal(err)
				}
				if want := now.Add(time.Duration(left) * time.Millisecond); after.TurnDeadline == nil || !after.TurnDeadline.Equal(want) {
					t.Fatalf("the completer's deadline after the BLOCK: %v; want %v, the %d ms the turn had left", after.TurnDeadline, want, left)
				}
				return
			}
			seat := game.Turn()
			move := completingMove(t, game, row.Ply)
			now = now.Add(3 * time.Second) // each move takes its time, so windows open with different times left
			if _, err := r.games.Move(ctx, people[seat], g.ID, league.MoveRequest{Ply: row.Ply, Move: move}); err != nil {
				t.Fatalf("ply %d, %s: %v", row.Ply, move, err)
			}
		}
	}
	t.Fatal("no deal of eight gave a person a BLOCK to play")
}

// completingMove is the move of a greedy player that completes a Stacks
// pile as soon as it can, so that block windows open: any legal move that
// opens one, else greedy's.
func completingMove(t *testing.T, game play.Game, ply int) string {
	t.Helper()
	seat := game.Turn()
	move, err := game.BotMove("greedy", seat, uint64(ply), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range game.LegalMoves(seat) {
		if next, err := game.Apply(seat, m); err == nil && next.InWindow() {
			move = m
		}
	}
	return move
}

// RescheduleAll schedules a game's timer however far ahead it is due, for
// a Redis that lost every task (the zero-config mode's, restarted), where
// Reconcile waits until it is 30 s overdue: timers and bots stood still
// for 30–60 s after every restart of `make run` (the make run audit).
func TestRescheduleAllSchedulesTimersNotYetDue(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.seat(t, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2, Clock: league.Clock{TurnSeconds: 600},
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {}}}, map[int]league.Actor{1: bob})
	inspector := asynq.NewInspectorFromRedisClient(r.rdb)
	timer := fmt.Sprintf("turn:%s:0", g.ID)
	if err := inspector.DeleteTask(workers.QueueGames, timer); err != nil {
		t.Fatalf("the first turn's timer: %v", err)
	}
	if done, err := r.games.Reconcile(ctx); err != nil || done.Timers != 0 {
		t.Fatalf("Reconcile of a timer due in 10 min: %+v, %v; want it left alone", done, err)
	}
	if done, err := r.games.RescheduleAll(ctx); err != nil || done.Timers < 1 {
		t.Fatalf("RescheduleAll: %+v, %v; want the timer scheduled", done, err)
	}
	if _, err := inspector.GetTaskInfo(workers.QueueGames, timer); err != nil {
		t.Fatalf("the timer after RescheduleAll: %v", err)
	}
}

// stateOf is a game's row and engine state as stored.
func (r *gameRig) stateOf(t *testing.T, gameID string) (*gameRow, play.Game) {
	t.Helper()
	db := r.db.Gorm.WithContext(context.Background())
	row, _, _, err := loadGame(db, gameID, false, moveKey{})
	if err != nil {
		t.Fatal(err)
	}
	game, err := r.games.state(db, row)
	if err != nil {
		t.Fatal(err)
	}
	return row, game
}
