package postgres

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
)

// heartbeat is the event stream's (server: 15 s); a mark lasts three.
const heartbeat = 15 * time.Second

// A heartbeat of a person waiting at an open table rewrites no index: the
// presence mark moves on every 15 s for every such viewer, and while an
// index held it (game_seats_here_idx, on here_until) each write was a new
// row version with a new entry in every index of game_seats.
func TestAHeartbeatIsAHotUpdate(t *testing.T) {
	r := newGameRig(t, false)
	tables := r.peopleAtOpenTables(t, 20)
	updated, hot := r.seatUpdates(t)
	r.heartbeats(t, tables, 30)
	updatedAfter, hotAfter := r.seatUpdates(t)
	writes, hotWrites := updatedAfter-updated, hotAfter-hot
	// Before, none was HOT; now nearly all are, the rest those whose page
	// had no room left, which a database busy elsewhere may make more.
	if writes < int64(len(tables)) || hotWrites*2 < writes {
		t.Fatalf("30 heartbeats at each of %d tables: %d rows updated, %d of them HOT; want most HOT", len(tables), writes, hotWrites)
	}
}

// A heartbeat that finds the mark with more than half its time to run
// leaves it alone: the stream beats every third of the mark's time, so
// every other heartbeat wrote a row that changed nothing anyone reads.
// The mark never has less than a heartbeat to run when one comes.
func TestAHeartbeatLeavesAFreshMarkAlone(t *testing.T) {
	r := newGameRig(t, false)
	p := r.peopleAtOpenTables(t, 1)[0]
	start := r.games.now().Add(hereGrace) // the mark of sitting down has lapsed
	mark := func(after time.Duration) time.Time {
		t.Helper()
		now := start.Add(after)
		r.games.now = func() time.Time { return now }
		if ok, err := r.games.Here(context.Background(), p.who, p.game, 3*heartbeat); err != nil || !ok {
			t.Fatalf("here %v after: %v, %v; want the seat marked", after, ok, err)
		}
		var until time.Time
		if err := r.db.Gorm.Raw("SELECT here_until FROM game_seats WHERE game_id = ? AND user_id = ?", p.game, p.who.UserID).Scan(&until).Error; err != nil {
			t.Fatal(err)
		}
		return until
	}
	for _, beat := range []struct {
		at, wantUntil time.Duration
	}{
		{0, 3 * heartbeat},               // lapsed: written
		{heartbeat, 3 * heartbeat},       // two heartbeats to run: left alone
		{2 * heartbeat, 5 * heartbeat},   // one to run: written
		{3 * heartbeat, 5 * heartbeat},   // left alone
		{4 * heartbeat, 7 * heartbeat},   // written
		{4*heartbeat + 1, 7 * heartbeat}, // a second tab, or a seat event: left alone
	} {
		got, want := mark(beat.at), start.Add(beat.wantUntil)
		if d := got.Sub(want); d < -time.Millisecond || d > time.Millisecond {
			t.Fatalf("a heartbeat %v in: the mark runs to %v, want %v", beat.at, got.Sub(start), beat.wantUntil)
		}
	}
}

// BenchmarkAHeartbeatAtAnOpenTable times the presence mark of 200 people
// each waiting at a table of their own, the clock moved on a heartbeat at
// each round, and reports the rows it wrote, the share of them that were
// HOT, and the size of game_seats and its indexes afterwards.
func BenchmarkAHeartbeatAtAnOpenTable(b *testing.B) {
	r := newGameRig(b, false)
	tables := r.peopleAtOpenTables(b, 200)
	updated, hot := r.seatUpdates(b)
	b.ResetTimer()
	r.heartbeats(b, tables, b.N/len(tables)+1)
	b.StopTimer()
	updatedAfter, hotAfter := r.seatUpdates(b)
	beats := float64((b.N/len(tables) + 1) * len(tables))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/beats, "ns/heartbeat")
	b.ReportMetric(float64(updatedAfter-updated)/beats, "writes/heartbeat")
	b.ReportMetric(100*float64(hotAfter-hot)/max(1, float64(updatedAfter-updated)), "%HOT")
	var size struct{ Table, Indexes int64 }
	if err := r.db.Gorm.Raw("SELECT pg_table_size('game_seats') AS table, pg_indexes_size('game_seats') AS indexes").Scan(&size).Error; err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(size.Table)/1024, "table-KiB")
	b.ReportMetric(float64(size.Indexes)/1024, "indexes-KiB")
}

// presence is a person waiting at an open table.
type presence struct {
	who  league.Actor
	game string
}

// peopleAtOpenTables seats n new people each at an open table of their
// own, and sets the service's clock, which heartbeats then moves.
func (r *gameRig) peopleAtOpenTables(tb testing.TB, n int) []presence {
	tb.Helper()
	now := time.Now()
	r.games.now = func() time.Time { return now }
	tables := make([]presence, n)
	for i := range tables {
		p := r.user(tb, fmt.Sprintf("waiting%d", i))
		g, err := r.games.Create(context.Background(), p, league.NewGame{Game: "sequence", Players: 2,
			Seats: []league.SeatSpec{{UserID: p.UserID}, {Open: true}}})
		if err != nil {
			tb.Fatal(err)
		}
		tables[i] = presence{p, g.ID}
	}
	return tables
}

// heartbeats marks everyone at tables here, rounds times, as their event
// streams do, the clock a heartbeat later at each round.
func (r *gameRig) heartbeats(tb testing.TB, tables []presence, rounds int) {
	tb.Helper()
	ctx := context.Background()
	for range rounds {
		now := r.games.now().Add(heartbeat)
		r.games.now = func() time.Time { return now }
		for _, p := range tables {
			if ok, err := r.games.Here(ctx, p.who, p.game, 3*heartbeat); err != nil || !ok {
				tb.Fatalf("%s here at %s: %v, %v; want marked", p.who.UserID, p.game, ok, err)
			}
		}
	}
}

// seatUpdates is how many game_seats rows the test's database has updated
// since it was made, and how many of those updates were HOT. A backend
// reports its counts when idle for a while or when it ends, so the pool's
// connections are closed first.
func (r *gameRig) seatUpdates(tb testing.TB) (updated, hot int64) {
	tb.Helper()
	r.db.SQL.SetMaxIdleConns(0)
	defer r.db.SQL.SetMaxIdleConns(2)
	conn, err := r.db.SQL.Conn(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var others int
		if err := conn.QueryRowContext(context.Background(), `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid()`).Scan(&others); err != nil {
			tb.Fatal(err)
		}
		if others == 0 {
			break
		}
		if time.Now().After(end) {
			tb.Fatalf("%d other connections to the test's database after 10 s", others)
		}
	}
	time.Sleep(50 * time.Millisecond) // a backend gone reported just before
	if err := conn.QueryRowContext(context.Background(), `SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables
		WHERE relname = 'game_seats'`).Scan(&updated, &hot); err != nil {
		tb.Fatal(err)
	}
	return updated, hot
}
