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

// BenchmarkPlayerRank looks up a player's own place on a leaderboard of
// SEQLEAGUE_BENCH_RANK_PLAYERS (default 100,000) rated players, about 1 in
// 256 of their accounts closed: the rank UserRatings gives and the page
// around the player (aroundCursor, the web app's "Show my place"), for a
// player near the top (rank ~10) and one deep in the board (90% of the way
// down), each a sub-benchmark reporting ms/op. Both count the players
// displayed above the player, leaving closed accounts out.
func BenchmarkPlayerRank(b *testing.B) {
	players := benchEnvInt("SEQLEAGUE_BENCH_RANK_PLAYERS", 100_000)
	ctx := context.Background()
	db := seededBoard(b, players)
	// Closed accounts make the counts leave someone out; VACUUM leaves the
	// tables as autovacuum would (the test cluster runs without it), with
	// the visibility map set for index-only scans. Both are the same
	// whenever they run again.
	for _, stmt := range []string{
		"UPDATE users SET deleted_at = created_at WHERE deleted_at IS NULL AND right(id::text, 2) = '00'",
		"VACUUM (ANALYZE) users, ratings",
	} {
		if err := db.Gorm.Exec(stmt).Error; err != nil {
			b.Fatal(err)
		}
	}
	ratings := NewRatings(db)
	board := league.LeaderboardQuery{Pool: rating.PoolSequence2, Limit: 50}
	var established int
	db.Gorm.Raw(`SELECT count(*) FROM ratings r JOIN users u ON u.id = r.user_id AND u.deleted_at IS NULL
		WHERE r.pool = ? AND r.games >= ?`, board.Pool, rating.ProvisionalGames).Scan(&established)
	for _, at := range []struct {
		name  string
		place int // 0-based, in the board's order
	}{{"top", 9}, {"deep", established * 9 / 10}} {
		var id string
		db.Gorm.Raw(`SELECT r.user_id FROM ratings r JOIN users u ON u.id = r.user_id AND u.deleted_at IS NULL
			WHERE r.pool = ? AND r.games >= ? ORDER BY r.rating DESC, r.games DESC, r.user_id DESC OFFSET ? LIMIT 1`,
			board.Pool, rating.ProvisionalGames, at.place).Scan(&id)
		b.Run("UserRatings/"+at.name, func(b *testing.B) {
			rank := 0
			for b.Loop() {
				got, err := ratings.UserRatings(ctx, id, league.RatingHistoryQuery{})
				if err != nil || len(got.Pools) != 1 || got.Pools[0].Rank == 0 {
					b.Fatalf("%s: %+v, %v", id, got, err)
				}
				rank = got.Pools[0].Rank
			}
			reportPlayerRank(b, rank)
		})
		b.Run("Around/"+at.name, func(b *testing.B) {
			q := board
			q.Around = id
			rank := 0
			for b.Loop() {
				rows, _, err := ratings.Leaderboard(ctx, q)
				if err != nil || len(rows) == 0 {
					b.Fatalf("around %s: %d rows, %v", id, len(rows), err)
				}
				for _, row := range rows {
					if row.UserID == id {
						rank = row.Rank
					}
				}
			}
			reportPlayerRank(b, rank)
		})
	}
}

// reportPlayerRank reports a BenchmarkPlayerRank run's time per lookup in
// milliseconds and the rank it found.
func reportPlayerRank(b *testing.B, rank int) {
	if rank == 0 {
		b.Fatal("the player is not on the board")
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
	b.ReportMetric(float64(rank), "rank")
}

// boards are the seeded leaderboard databases by number of players, each
// shared by every run of the benchmarks in this process (Go calls a
// benchmark more than once) that asks for that many.
var boards struct {
	sync.Mutex
	db map[int]*DB
}

func seededBoard(b *testing.B, players int) *DB {
	boards.Lock()
	defer boards.Unlock()
	if db := boards.db[players]; db != nil {
		return db
	}
	ctx := context.Background()
	db, err := Open(ctx, testenv.Postgres(b), PoolConfig{MaxOpen: 4})
	if err != nil {
		b.Fatal(err)
	}
	// testenv drops the database when b ends (with -count, before the
	// next count runs): so is the entry, and the next count seeds anew.
	b.Cleanup(func() {
		boards.Lock()
		delete(boards.db, players)
		boards.Unlock()
		db.Close()
	})
	start := time.Now()
	if _, err := Seed(ctx, db, players, 0, 1); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d players in %v", players, time.Since(start).Round(time.Millisecond))
	if boards.db == nil {
		boards.db = map[int]*DB{}
	}
	boards.db[players] = db
	return db
}

// BenchmarkSettle settles SEQLEAGUE_BENCH_SETTLE_GAMES (default 10,000)
// finished rated games through game:settle's code path, 8 at a time.
func BenchmarkSettle(b *testing.B) {
	games := benchEnvInt("SEQLEAGUE_BENCH_SETTLE_GAMES", 10_000)
	ctx := context.Background()
	db := seededGames(b, 16, 20_000, games, 2)
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

// BenchmarkRatingHistoryPages reads the rating history of a player with
// SEQLEAGUE_BENCH_HISTORY_GAMES (default 20,000) rated games as the web
// app's chart does, 100 changes a page: the first page, which carries the
// player's record and rank (read from every one of those games), and a
// page deep in the history through the cursor, which carries neither (it
// re-read them, and a chart of 100 pages paid that 100 times). The ratio
// of the two is the metric: first-page ms over later-page ms.
func BenchmarkRatingHistoryPages(b *testing.B) {
	games := benchEnvInt("SEQLEAGUE_BENCH_HISTORY_GAMES", 20_000)
	ctx := context.Background()
	db := seededGames(b, 4, 2, games, 3)
	// Every seeded game rated, as game:settle would have rated it.
	for _, stmt := range []string{
		`INSERT INTO rating_changes (game_id, user_id, pool, team, abandoned, winner, k, before, after, games, created_at)
		 SELECT g.id, s.user_id, 'sequence-2team', s.seat, false, g.winner, 32, 1500, 1500,
		        row_number() OVER (PARTITION BY s.user_id ORDER BY g.created_at, g.id), g.created_at
		 FROM games g JOIN game_seats s ON s.game_id = g.id`, // two players: the seat is the team
		"UPDATE games SET settled_at = finished_at",
		"VACUUM (ANALYZE) games, game_seats, rating_changes, ratings",
	} {
		if err := db.Gorm.Exec(stmt).Error; err != nil {
			b.Fatal(err)
		}
	}
	var player string
	db.Gorm.Raw("SELECT user_id FROM rating_changes GROUP BY user_id ORDER BY count(*) DESC LIMIT 1").Scan(&player)
	ratings := NewRatings(db)
	page := func(cursor string) *league.UserRatings {
		got, err := ratings.UserRatings(ctx, player, league.RatingHistoryQuery{Page: league.PageRequest{Limit: 100, Cursor: cursor}})
		if err != nil || len(got.History) != 100 {
			b.Fatalf("history page: %v", err)
		}
		return got
	}
	deep := page("")
	for i := 0; i < 50; i++ {
		deep = page(deep.NextCursor)
	}
	timed := func(cursor string) float64 {
		start := time.Now()
		const reads = 10
		for range reads {
			page(cursor)
		}
		return float64(time.Since(start).Microseconds()) / 1000 / reads
	}
	var first, later float64
	for b.Loop() {
		first, later = timed(""), timed(deep.NextCursor)
	}
	b.ReportMetric(first, "first-page-ms")
	b.ReportMetric(later, "later-page-ms")
	b.ReportMetric(first/later, "first/later")
	b.ReportMetric(float64(games), "games")
}

// seededGames is a fresh database of its own, on a pool of maxOpen
// connections, seeded with players and finished, unsettled games (Seed).
func seededGames(b *testing.B, maxOpen, players, games int, seed uint64) *DB {
	b.Helper()
	ctx := context.Background()
	db, err := Open(ctx, testenv.Postgres(b), PoolConfig{MaxOpen: maxOpen})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if _, err := Seed(ctx, db, players, games, seed); err != nil {
		b.Fatal(err)
	}
	return db
}
