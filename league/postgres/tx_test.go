package postgres

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/testenv"
)

// openTxProbe opens a fresh database as the store opens it, with a table
// of two rows for transactions to fight over.
func openTxProbe(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), testenv.Postgres(t), PoolConfig{MaxOpen: 8})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Gorm.Exec(`CREATE TABLE tx_probe (id int PRIMARY KEY, marks text NOT NULL DEFAULT '');
		INSERT INTO tx_probe (id) VALUES (1), (2)`).Error; err != nil {
		t.Fatal(err)
	}
	return db
}

// crossLocks runs two transactions at once through run, "a" and "b". Each
// adds its mark to both rows of tx_probe, a to row 1 then row 2, b to row 2
// then row 1, and on its first run holds its first row until the other
// holds its own: each then waits for the other, a real deadlock, and
// PostgreSQL aborts one. It returns each one's error and how many times
// the two bodies ran in all.
func crossLocks(t *testing.T, run func(mark string, body func(tx *gorm.DB) error) error) (map[string]error, int64) {
	t.Helper()
	var runs atomic.Int64
	holding := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
	order := map[string][2]int{"a": {1, 2}, "b": {2, 1}}
	other := map[string]string{"a": "b", "b": "a"}
	errs := map[string]error{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, mark := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first := true
			err := run(mark, func(tx *gorm.DB) error {
				runs.Add(1)
				mine := order[mark]
				if err := tx.Exec("UPDATE tx_probe SET marks = marks || ? WHERE id = ?", mark, mine[0]).Error; err != nil {
					return err
				}
				if first {
					// Only the first run meets the other: a run again
					// finds it finished, or waits for it behind the lock.
					first = false
					close(holding[mark])
					select {
					case <-holding[other[mark]]:
					case <-time.After(20 * time.Second):
						return errors.New("the other transaction never took its first row")
					}
				}
				return tx.Exec("UPDATE tx_probe SET marks = marks || ? WHERE id = ?", mark, mine[1]).Error
			})
			mu.Lock()
			errs[mark] = err
			mu.Unlock()
		}()
	}
	wg.Wait()
	return errs, runs.Load()
}

// wantBothCommitted checks that both transactions of crossLocks ended
// without error, the deadlock's loser having run again, and left their
// marks.
func wantBothCommitted(t *testing.T, db *DB, errs map[string]error, runs int64) {
	t.Helper()
	for mark, err := range errs {
		if err != nil {
			t.Errorf("transaction %s: %v", mark, err)
		}
	}
	if runs < 3 {
		t.Errorf("the bodies ran %d times in all, want at least 3: the deadlock's loser runs again", runs)
	}
	wantBothMarks(t, db)
}

// wantBothMarks checks that each row holds each transaction's mark exactly
// once: both committed, and the aborted run left nothing.
func wantBothMarks(t *testing.T, db *DB) {
	t.Helper()
	var rows []struct {
		ID    int
		Marks string
	}
	if err := db.Gorm.Raw("SELECT id, marks FROM tx_probe ORDER BY id").Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		b := []byte(r.Marks)
		sort.Slice(b, func(i, j int) bool { return b[i] < b[j] })
		if string(b) != "ab" {
			t.Errorf("row %d has marks %q, want a and b once each", r.ID, r.Marks)
		}
	}
}

// TestInTxRetriesDeadlock: two transactions that lock two rows in opposite
// orders deadlock, PostgreSQL aborts one (40P01), and inTx runs that one
// again: both succeed and both writes are there. Before inTx the loser's
// error reached the caller (a 500) and its write was lost.
func TestInTxRetriesDeadlock(t *testing.T) {
	db := openTxProbe(t)
	ctx := context.Background()
	errs, runs := crossLocks(t, func(mark string, body func(tx *gorm.DB) error) error {
		return inTx(ctx, db.Gorm, body)
	})
	wantBothCommitted(t, db, errs, runs)
}

// TestInTxRunsRefusalOnce: an error that is not an abort, a refusal or a
// constraint PostgreSQL enforces, comes back as it is after one run.
func TestInTxRunsRefusalOnce(t *testing.T) {
	db := openTxProbe(t)
	ctx := context.Background()
	refusal := league.Errorf(league.EPRECONDITION, "not now")
	var runs int
	err := inTx(ctx, db.Gorm, func(tx *gorm.DB) error {
		runs++
		if err := tx.Exec("UPDATE tx_probe SET marks = 'x' WHERE id = 1").Error; err != nil {
			return err
		}
		return refusal
	})
	if err != refusal || runs != 1 {
		t.Errorf("refusal: err %v after %d runs, want the refusal itself after 1", err, runs)
	}
	runs = 0
	err = inTx(ctx, db.Gorm, func(tx *gorm.DB) error {
		runs++
		return tx.Exec("INSERT INTO tx_probe (id) VALUES (1)").Error
	})
	if uniqueViolation(err) == "" || runs != 1 {
		t.Errorf("duplicate key: err %v after %d runs, want a unique violation after 1", err, runs)
	}
	var marks string
	if err := db.Gorm.Raw("SELECT marks FROM tx_probe WHERE id = 1").Scan(&marks).Error; err != nil {
		t.Fatal(err)
	}
	if marks != "" {
		t.Errorf("the refused transaction's write stayed: %q", marks)
	}
}

// TestInTxGivesUp: a transaction aborted on every run is run txAttempts
// times and its abort then comes back to the caller; a cancelled context
// stops the retries.
func TestInTxGivesUp(t *testing.T) {
	db := openTxProbe(t)
	abort := func(tx *gorm.DB) error {
		return tx.Exec(`DO $$ BEGIN RAISE EXCEPTION 'serialization probe' USING ERRCODE = '40001'; END $$`).Error
	}
	var runs int
	err := inTx(context.Background(), db.Gorm, func(tx *gorm.DB) error { runs++; return abort(tx) })
	if !retryableAbort(err) || runs != txAttempts {
		t.Errorf("err %v after %d runs, want the abort after %d", err, runs, txAttempts)
	}
	ctx, cancel := context.WithCancel(context.Background())
	runs = 0
	err = inTx(ctx, db.Gorm, func(tx *gorm.DB) error {
		runs++
		err := abort(tx)
		cancel()
		return err
	})
	if !errors.Is(err, context.Canceled) || runs != 1 {
		t.Errorf("cancelled: err %v after %d runs, want context.Canceled after 1", err, runs)
	}
}

// recordedEvents keeps what is published.
type recordedEvents struct {
	mu     sync.Mutex
	events []league.GameEvent
}

func (r *recordedEvents) Publish(_ context.Context, ev league.GameEvent) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
	return nil
}

// TestTransactEffectsRunOnceAfterDeadlock: Games.transact collects its
// effects afresh on each run, so when PostgreSQL aborts one of two
// deadlocked transactions and it runs again, each transaction's event is
// published, and its task scheduled, once: none from the aborted run.
func TestTransactEffectsRunOnceAfterDeadlock(t *testing.T) {
	db := openTxProbe(t)
	events := &recordedEvents{}
	g := NewGames(db, events, nopTasks{}, GameConfig{}, quiet)
	ctx := context.Background()
	var mu sync.Mutex
	scheduled := map[string]int{}
	errs, runs := crossLocks(t, func(mark string, body func(tx *gorm.DB) error) error {
		return g.transact(ctx, func(tx *gorm.DB, fx *effects) error {
			fx.publish(league.GameEvent{GameID: mark, Kind: "probe"})
			fx.then(func(context.Context) error {
				mu.Lock()
				defer mu.Unlock()
				scheduled[mark]++
				return nil
			})
			return body(tx)
		})
	})
	wantBothCommitted(t, db, errs, runs)
	published := map[string]int{}
	for _, ev := range events.events {
		published[ev.GameID]++
	}
	want := map[string]int{"a": 1, "b": 1}
	if fmt.Sprint(published) != fmt.Sprint(want) || fmt.Sprint(scheduled) != fmt.Sprint(want) {
		t.Errorf("published %v and scheduled %v, want each once: %v", published, scheduled, want)
	}
}

// A game started in a transaction that is then undone (run again after an
// abort, or refused further on) is not cached as started: the state cache
// holds committed states only.
func TestAStartUndoneLeavesNoCachedState(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann := r.user(t, "ann")
	g, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	undone := errors.New("undone after the start")
	err = r.games.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		row, err := lockGame(tx, g.ID)
		if err != nil {
			return err
		}
		if err := r.games.startLocked(tx, fx, row); err != nil {
			return err
		}
		return undone
	})
	if !errors.Is(err, undone) {
		t.Fatalf("transact = %v; want the function's own error", err)
	}
	if _, ok := r.games.cache.get(g.ID, 0); ok {
		t.Fatal("the state of a start that was undone is in the cache")
	}
}

// A move's one unlocked statement that PostgreSQL kills in a deadlock has
// stored nothing, as a stale one has: the move is done again under the
// game's row lock, not answered with the abort (a 500). Here another
// transaction holds an uncommitted row for the same ply, which the move's
// INSERT waits on, and then asks for the game's row lock, which the
// move's UPDATE holds.
func TestAMoveKilledInADeadlockIsDoneUnderTheLock(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, _, g, v := r.annToMove(t)
	// Moved as by an instance that did not store the game last: its one
	// unlocked attempt is on the game as read.
	r.games.cache = newStateCache(16)
	other := r.db.Gorm.Begin()
	defer other.Rollback()
	if err := other.Exec(`INSERT INTO game_moves (game_id, ply, seat, move, actor, user_id) VALUES (?, 0, 0, 'x', 'player', ?)`,
		g.ID, ann.UserID).Error; err != nil {
		t.Fatal(err)
	}
	moved := make(chan error, 1)
	go func() {
		_, err := r.games.Move(ctx, ann, g.ID, league.MoveRequest{Ply: 0, Move: v.LegalMoves[0]})
		moved <- err
	}()
	time.Sleep(300 * time.Millisecond) // the move's statement waits on the row
	// PostgreSQL finds the cycle from the move's side, the first to wait,
	// one deadlock_timeout (1 s) after it began: the move's statement dies.
	if err := other.Exec(`SELECT id FROM games WHERE id = ? FOR UPDATE`, g.ID).Error; err != nil {
		t.Fatalf("the other transaction lost the deadlock instead: %v", err)
	}
	other.Rollback()
	if err := <-moved; err != nil {
		t.Fatalf("the move: %v; want it stored under the row lock", err)
	}
	if n := r.rowsOf(t, "game_moves", g.ID); n != 1 {
		t.Fatalf("%d moves stored; want 1", n)
	}
}
