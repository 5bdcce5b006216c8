package main

// End-to-end benchmarks of the live-game path against real PostgreSQL and
// Redis. Each runs one fixed workload (use -benchtime 1x) and reports its
// figures as metrics; `make bench` runs them.

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/seqleague/seqleague/engine/play"
	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/league/testenv"
)

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[min(len(d)-1, int(float64(len(d))*p))]
}

// pgbenchTPS runs pgbench's built-in simple-update script (-N) against a
// scratch database of the same server, as the baseline of the same run.
func pgbenchTPS(b *testing.B, dsn string, clients int, seconds int) float64 {
	b.Helper()
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		b.Fatal(err)
	}
	args := []string{"-h", cfg.Host, "-p", strconv.Itoa(int(cfg.Port)), "-U", cfg.User}
	init := exec.Command("pgbench", append(args, "-i", "-q", "-s", "10", cfg.Database)...)
	if out, err := init.CombinedOutput(); err != nil {
		b.Fatalf("pgbench -i: %v: %s", err, out)
	}
	run := exec.Command("pgbench", append(args, "-N", "-c", strconv.Itoa(clients), "-j", "2", "-T", strconv.Itoa(seconds), cfg.Database)...)
	out, err := run.CombinedOutput()
	if err != nil {
		b.Fatalf("pgbench: %v: %s", err, out)
	}
	m := regexp.MustCompile(`tps = ([0-9.]+)`).FindSubmatch(out)
	if m == nil {
		b.Fatalf("no tps in pgbench output: %s", out)
	}
	tps, _ := strconv.ParseFloat(string(m[1]), 64)
	return tps
}

// benchApp boots the whole program for a benchmark.
func benchApp(b *testing.B, extra map[string]string) (base, dsn string, stop func()) {
	b.Helper()
	dsn = testenv.Postgres(b)
	env := map[string]string{
		"SEQLEAGUE_ADDR":             "127.0.0.1:0",
		"DATABASE_URL":               dsn,
		"REDIS_URL":                  testenv.Redis(b),
		"SEQLEAGUE_DATA_DIR":         b.TempDir(),
		"JWT_SECRET":                 strings.Repeat("b", 40),
		"SEQLEAGUE_LOG_LEVEL":        "error",
		"SEQLEAGUE_BOT_DELAY":        "0s",
		"SEQLEAGUE_AUTH_RATE_PER_IP": "100000",
		"SEQLEAGUE_DB_MAX_CONNS":     "40",
		// one account makes the benchmarks' thousands of games
		"SEQLEAGUE_MAX_LIVE_GAMES": "1000000",
		"SEQLEAGUE_MAX_STREAMS":    "1000000", // BenchmarkSSEFanout's 1,000 spectators share one address
	}
	for k, v := range extra {
		env[k] = v
	}
	cfg, err := LoadConfig(envOf(env))
	if err != nil {
		b.Fatal(err)
	}
	app := &App{cfg: cfg, mode: Mode{API: true, Workers: true}, logger: newLogger(cfg, testLogWriter())}
	if err := app.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	return "http://" + app.Addr(), dsn, func() { app.Shutdown() }
}

// BenchmarkLiveMoveThroughput: 200 games played at once over HTTP, each
// move committed in PostgreSQL and published before its answer; beside it,
// pgbench's simple-update TPS on the same server in the same run.
//
// Two phases. Saturation: every game moves again as soon as its last move
// is answered, which gives the most moves per second the system sustains;
// its latency is only the queue the 200 games form (Little's law: 200 ÷
// throughput), so it is reported but is not the latency figure. Paced: the
// 200 games together offer half of pgbench's TPS (each game moves on a
// fixed schedule, whatever its earlier answers took), and the latency of
// every move is measured there: the target is that load with p99 < 50 ms.
//
// The clients keep a replica of each game (the harness reads the seed from
// the database) so that every request is a move: the figure is the move
// path alone, not the reads a real client makes between moves. Each move
// carries a move_id, as the web app's do.
func BenchmarkLiveMoveThroughput(b *testing.B) {
	const games, seconds, pacedSeconds = 200, 10, 30
	base, dsn, stop := benchApp(b, nil)
	defer stop()
	tps := pgbenchTPS(b, testenv.Postgres(b), 32, seconds)
	table := newMoveTable(b, base, dsn)
	saturated := table.play(games, seconds*time.Second, 0)
	rate := 0.5 * tps
	paced := table.play(games, pacedSeconds*time.Second, time.Duration(float64(games)/rate*float64(time.Second)))
	b.ReportMetric(tps, "pgbench-tps")
	b.ReportMetric(saturated.rate, "moves/s")
	b.ReportMetric(saturated.rate/tps, "moves/pgbench-tps")
	b.ReportMetric(ms(percentile(saturated.latencies, 0.99)), "saturated-p99-ms")
	b.ReportMetric(paced.rate, "paced-moves/s")
	b.ReportMetric(ms(percentile(paced.latencies, 0.50)), "paced-p50-ms")
	b.ReportMetric(ms(percentile(paced.latencies, 0.90)), "paced-p90-ms")
	b.ReportMetric(ms(percentile(paced.latencies, 0.99)), "paced-p99-ms")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// moveTable plays two-player games between two accounts over HTTP.
type moveTable struct {
	players [2]*client
	conn    *pgx.Conn
	connMu  sync.Mutex
}

func newMoveTable(b *testing.B, base, dsn string) *moveTable {
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close(context.Background()) })
	return &moveTable{players: [2]*client{signUp(b, base, "ann"), signUp(b, base, "bob")}, conn: conn}
}

// newGame creates a game and a local replica of it.
func (t *moveTable) newGame() (string, play.Game) {
	ann, bob := t.players[0], t.players[1]
	var g gameView
	ann.must(http.StatusCreated, "POST", "/api/v1/games", map[string]any{
		"game": "sequence", "players": 2, "teams": 2, "seats": []map[string]any{{"user": "me"}, {"open": true}},
	}, &g)
	bob.must(http.StatusOK, "POST", "/api/v1/games/"+g.ID+"/join", nil, nil)
	var seed []byte
	t.connMu.Lock()
	err := t.conn.QueryRow(context.Background(), "SELECT seed FROM games WHERE id = $1", g.ID).Scan(&seed)
	t.connMu.Unlock()
	if err != nil {
		panic(err)
	}
	var s rng.Seed
	copy(s[:], seed)
	replica, err := play.New(play.Setup{Game: "sequence", Variant: "classic", Players: 2, Teams: 2}, s)
	if err != nil {
		panic(err)
	}
	return g.ID, replica
}

type moveRun struct {
	rate      float64
	latencies []time.Duration
}

// play runs games at once for d: each game moves as soon as it can
// (every 0), or once every interval on its own schedule.
func (t *moveTable) play(games int, d time.Duration, every time.Duration) moveRun {
	var (
		mu        sync.Mutex
		latencies []time.Duration
		moves     atomic.Int64
		wg        sync.WaitGroup
	)
	start := time.Now()
	deadline := start.Add(d)
	for i := 0; i < games; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id, replica := t.newGame()
			next := time.Now()
			if every > 0 { // spread the games over one interval
				next = next.Add(every * time.Duration(i) / time.Duration(games))
			}
			var local []time.Duration
			for {
				if every > 0 {
					time.Sleep(time.Until(next))
					next = next.Add(every)
				}
				if !time.Now().Before(deadline) {
					break
				}
				if replica.Status().Over {
					id, replica = t.newGame()
					continue
				}
				seat := replica.Turn()
				move := replica.LegalMoves(seat)[0]
				t0 := time.Now()
				status, out := t.players[seat].do("POST", "/api/v1/games/"+id+"/moves",
					map[string]any{"ply": replica.Ply(), "move": move, "move_id": fmt.Sprintf("%s-%d", id, replica.Ply())})
				if status != http.StatusOK {
					panic(fmt.Sprintf("move: %d %s", status, out))
				}
				local = append(local, time.Since(t0))
				moves.Add(1)
				after, err := replica.Apply(seat, move)
				if err != nil {
					panic(err)
				}
				replica = after
			}
			mu.Lock()
			latencies = append(latencies, local...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return moveRun{rate: float64(moves.Load()) / time.Since(start).Seconds(), latencies: latencies}
}

// BenchmarkTimerLateness: many games on short clocks where nobody moves;
// every turn is ended by its timer, and lateness is when the autopilot's
// move was committed minus the deadline it answered. The games are created
// evenly over one turn's length, as 10,000 games under way would have
// started at different moments: all of them are then live at once, and
// their timers fall due at the steady rate of games ÷ turn (500/s), rather
// than at whatever rate the harness can create games.
func BenchmarkTimerLateness(b *testing.B) {
	games, _ := strconv.Atoi(envOr("SEQLEAGUE_BENCH_TIMER_GAMES", "10000"))
	const turn = 20 * time.Second
	const watch = 45 * time.Second
	base, dsn, stop := benchApp(b, map[string]string{"SEQLEAGUE_WORKER_CONCURRENCY": "400"})
	defer stop()
	ann, bob := signUp(b, base, "ann"), signUp(b, base, "bob")
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	start := time.Now()
	for i := 0; i < games; i++ {
		time.Sleep(time.Until(start.Add(turn * time.Duration(i) / time.Duration(games))))
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			var g gameView
			ann.must(http.StatusCreated, "POST", "/api/v1/games", map[string]any{
				"game": "sequence", "players": 2, "teams": 2, "clock": map[string]int{"turn_seconds": int(turn / time.Second)},
				"autopilot": "random", "max_timeouts": 100,
				"seats": []map[string]any{{"user": "me"}, {"open": true}},
			}, &g)
			bob.must(http.StatusOK, "POST", "/api/v1/games/"+g.ID+"/join", nil, nil)
		}()
	}
	wg.Wait()
	b.ReportMetric(time.Since(start).Seconds(), "create-s")
	time.Sleep(watch)
	// Lateness from the stored record: a timed-out move's time minus the
	// deadline set when its turn began (the previous move, or the start).
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(context.Background(), `
		SELECT EXTRACT(EPOCH FROM m.created_at - (COALESCE(p.created_at, g.started_at) + make_interval(secs => g.turn_seconds)))
		FROM game_moves m JOIN games g ON g.id = m.game_id
		LEFT JOIN game_moves p ON p.game_id = m.game_id AND p.ply = m.ply - 1
		WHERE m.actor = 'autopilot'`)
	if err != nil {
		b.Fatal(err)
	}
	var late []time.Duration
	for rows.Next() {
		var s float64
		rows.Scan(&s)
		late = append(late, time.Duration(s*float64(time.Second)))
	}
	if len(late) < games {
		b.Fatalf("only %d timeouts fired for %d games", len(late), games)
	}
	b.ReportMetric(float64(len(late)), "timeouts")
	b.ReportMetric(float64(percentile(late, 0.50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(late, 0.99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(percentile(late, 1).Microseconds())/1000, "max-ms")
}

// BenchmarkSSEFanout: 1,000 spectators on one game; the time from sending a
// move to each spectator receiving it.
func BenchmarkSSEFanout(b *testing.B) {
	const spectators, plies = 1000, 20
	base, _, stop := benchApp(b, nil)
	defer stop()
	ann, bob := signUp(b, base, "ann"), signUp(b, base, "bob")
	var g gameView
	ann.must(http.StatusCreated, "POST", "/api/v1/games", map[string]any{
		"game": "sequence", "players": 2, "teams": 2, "seats": []map[string]any{{"user": "me"}, {"open": true}},
	}, &g)
	bob.must(http.StatusOK, "POST", "/api/v1/games/"+g.ID+"/join", nil, nil)
	watcher := &client{t: b, base: base}
	streams := make([]*stream, spectators)
	for i := range streams {
		streams[i] = watcher.openStream(g.ID, -1)
	}
	sent := make([]time.Time, plies+1)
	for ply := 0; ply < plies; ply++ {
		mover := []*client{ann, bob}[ply%2]
		var v gameView
		mover.must(http.StatusOK, "GET", "/api/v1/games/"+g.ID, nil, &v)
		sent[ply+1] = time.Now()
		mover.must(http.StatusOK, "POST", "/api/v1/games/"+g.ID+"/moves", map[string]any{"ply": v.Ply, "move": v.LegalMoves[0]}, nil)
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(time.Second)
	var lat []time.Duration
	for _, s := range streams {
		s.close()
		for _, e := range s.snapshot() {
			if e.Event == "move" && e.ID >= 1 && e.ID <= plies {
				lat = append(lat, e.At.Sub(sent[e.ID]))
			}
		}
	}
	if len(lat) != spectators*plies {
		b.Fatalf("spectators received %d move events, want %d", len(lat), spectators*plies)
	}
	b.ReportMetric(float64(percentile(lat, 0.50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(lat, 0.99).Microseconds())/1000, "p99-ms")
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
