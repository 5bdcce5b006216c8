package postgres

import (
	"context"
	"os"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/rating"
	"github.com/seqleague/seqleague/league/testenv"
)

func benchEnvInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// BenchmarkLeaderboardPage reads leaderboard pages of 50 from a pool of
// SEQLEAGUE_BENCH_PLAYERS (default 1,000,000) rated players: the first page
// and pages deep in the list, through the keyset cursor.
func BenchmarkLeaderboardPage(b *testing.B) {
	players := benchEnvInt("SEQLEAGUE_BENCH_PLAYERS", 1_000_000)
	ctx := context.Background()
	db := seededBoard(b, players)
	ratings := NewRatings(db)
	// Cursors at random depths: any row's sort key continues the list
	// after it (rank and position only label the rows), signed as the
	// service signs the cursors it issues.
	var keys []struct {
		UserID string
		Rating float64
		Games  int
	}
	db.Gorm.Raw("SELECT user_id, rating, games FROM ratings TABLESAMPLE SYSTEM (1) WHERE games >= 30 LIMIT 200").Scan(&keys)
	page := league.LeaderboardQuery{Pool: rating.PoolSequence2, Limit: 50}
	cursors := []string{""}
	for i, k := range keys {
		cursors = append(cursors, ratings.encodeBoardCursor(boardCursor{rating: k.Rating, games: k.Games, userID: k.UserID, rank: i, position: i}, page))
	}
	var lat []time.Duration
	b.ResetTimer()
	i := 0
	for b.Loop() {
		t0 := time.Now()
		q := page
		q.Cursor = cursors[i%len(cursors)]
		rows, _, err := ratings.Leaderboard(ctx, q)
		lat = append(lat, time.Since(t0))
		if err != nil || len(rows) == 0 && i%len(cursors) == 0 {
			b.Fatalf("page: %v (%d rows)", err, len(rows))
		}
		i++
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(players), "players")
}

// board is the seeded leaderboard database, shared by every run of the
// benchmark in this process (Go calls a benchmark more than once).
var board struct {
	sync.Once
	db *DB
}

func seededBoard(b *testing.B, players int) *DB {
	board.Do(func() {
		ctx := context.Background()
		db, err := Open(ctx, testenv.Postgres(b), PoolConfig{MaxOpen: 4})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if _, err := Seed(ctx, db, players, 0, 1); err != nil {
			b.Fatal(err)
		}
		b.Logf("seeded %d players in %v", players, time.Since(start).Round(time.Millisecond))
		board.db = db
	})
	if board.db == nil {
		b.Fatal("no seeded database")
	}
	return board.db
}

// BenchmarkSettle settles SEQLEAGUE_BENCH_SETTLE_GAMES (default 10,000)
// finished rated games through game:settle's code path, 8 at a time.
func BenchmarkSettle(b *testing.B) {
	games := benchEnvInt("SEQLEAGUE_BENCH_SETTLE_GAMES", 10_000)
	ctx := context.Background()
	db, err := Open(ctx, testenv.Postgres(b), PoolConfig{MaxOpen: 16})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := Seed(ctx, db, 20_000, games, 2); err != nil {
		b.Fatal(err)
	}
	var ids []string
	db.Gorm.Table("games").Where("settled_at IS NULL AND status = 'finished'").Pluck("id", &ids)
	svc := NewGames(db, nopEvents{}, nopTasks{}, GameConfig{}, quiet)
	svc.AddSettler(NewRatings(db))
	b.ResetTimer()
	start := time.Now()
	work := make(chan string)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range work {
				if err := svc.Settle(ctx, id); err != nil {
					b.Error(err)
				}
			}
		}()
	}
	for _, id := range ids {
		work <- id
	}
	close(work)
	wg.Wait()
	took := time.Since(start)
	var n int64
	db.Gorm.Table("rating_changes").Count(&n)
	if int(n) != 2*len(ids) {
		b.Fatalf("%d rating changes for %d games", n, len(ids))
	}
	b.ReportMetric(float64(len(ids))/took.Minutes(), "games/min")
}

type nopEvents struct{}

func (nopEvents) Publish(context.Context, league.GameEvent) error { return nil }

type nopTasks struct{}

func (nopTasks) TurnTimeout(context.Context, string, int, time.Time) error { return nil }
func (nopTasks) BotMove(context.Context, string, int, time.Duration) error { return nil }
func (nopTasks) StartGame(context.Context, string, time.Time) error        { return nil }
func (nopTasks) Settle(context.Context, string) error                      { return nil }
