package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league/testenv"
)

// process is the real binary running one mode.
type process struct {
	cmd  *exec.Cmd
	addr string
}

var servingAddr = regexp.MustCompile(`msg="serving HTTP" addr=(\S+)`)

func startProcess(t *testing.T, mode string, env map[string]string) *process {
	t.Helper()
	cmd := exec.Command(binary(t), mode)
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Env = append(cmd.Env, "SEQLEAGUE_LOG_LEVEL=info")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Signal(syscall.SIGTERM)
			p.cmd.Wait()
		}
	})
	addr := make(chan string, 1)
	logPath := fmt.Sprintf("%s/%s.log", t.TempDir(), mode)
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer logFile.Close()
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			fmt.Fprintln(logFile, sc.Text())
			if m := servingAddr.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	t.Cleanup(func() {
		if t.Failed() {
			b, _ := os.ReadFile(logPath)
			lines := strings.Split(string(b), "\n")
			var shown []string
			for _, l := range lines {
				if strings.Contains(l, "level=WARN") || strings.Contains(l, "level=ERROR") {
					shown = append(shown, l)
				}
			}
			if len(shown) > 40 {
				shown = shown[len(shown)-40:]
			}
			t.Logf("%s process warnings and errors:\n%s", mode, strings.Join(shown, "\n"))
		}
	})
	if mode == "serve" || mode == "all" {
		select {
		case p.addr = <-addr:
		case <-time.After(60 * time.Second):
			t.Fatalf("%s process did not start serving", mode)
		}
		waitReady(t, "http://"+p.addr)
	}
	return p
}

func (p *process) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.cmd.Wait()
}

// Two API instances and two worker processes on one PostgreSQL and one
// Redis work as one system: a game created on one instance is watched live
// on the other, and killing a worker with SIGKILL mid-game loses nothing.
func TestTwoAPIsAndTwoWorkersActAsOneAndSurviveAWorkerKill(t *testing.T) {
	env := map[string]string{
		"DATABASE_URL":               testenv.Postgres(t),
		"REDIS_URL":                  testenv.Redis(t),
		"SEQLEAGUE_DATA_DIR":         t.TempDir(),
		"JWT_SECRET":                 strings.Repeat("s", 40),
		"SEQLEAGUE_ADDR":             "127.0.0.1:0",
		"SEQLEAGUE_BOT_DELAY":        "40ms",
		"SEQLEAGUE_TIMER_POLL":       "50ms",
		"SEQLEAGUE_AUTH_RATE_PER_IP": "1000",
	}
	apiA, apiB := startProcess(t, "serve", env), startProcess(t, "serve", env)
	worker1 := startProcess(t, "work", env)
	worker2 := startProcess(t, "work", env)

	ann := signUp(t, "http://"+apiA.addr, "ann")
	annOnB := &client{t: t, base: "http://" + apiB.addr, token: ann.token, id: ann.id}
	var g gameView
	ann.must(http.StatusCreated, "POST", "/api/v1/games", map[string]any{
		"game": "sequence", "players": 2, "teams": 2,
		"seats": []map[string]any{{"bot": "random"}, {"bot": "greedy"}},
	}, &g)
	watch := annOnB.openStream(g.ID, -1)
	watch.waitFor(t, 6, 30*time.Second)

	worker1.kill(t)
	worker2.kill(t)
	var mid gameView
	annOnB.must(http.StatusOK, "GET", "/api/v1/games/"+g.ID, nil, &mid)
	if mid.Status == "finished" {
		t.Fatal("the game ended before the workers were killed; nothing was tested")
	}
	time.Sleep(300 * time.Millisecond)
	startProcess(t, "work", env)

	final := ann.waitGameOver(g.ID, 90*time.Second)
	states := archiveOf(t, annOnB, g.ID) // replays every ply: none lost, none doubled
	if len(states)-1 != final.Ply {
		t.Fatalf("archive holds %d moves, the game %d", len(states)-1, final.Ply)
	}
	if !states[len(states)-1].Status().Over {
		t.Fatal("the archive replays to an unfinished game")
	}
	watch.waitFor(t, final.Ply, 10*time.Second)
	watch.close()
	seen := map[int]int{}
	for _, e := range watch.snapshot() {
		if e.Event == "move" {
			seen[e.ID]++
		}
	}
	for id := mid.Ply + 1; id <= final.Ply; id++ {
		if seen[id] != 1 {
			t.Fatalf("instance B's stream got move %d %d times, want once", id, seen[id])
		}
	}
}

// An organizer runs an 8-entry single elimination and a 9-entry three-team
// Swiss of bots on short clocks with rounds a few seconds apart; both run
// to the end unattended, through a worker killed mid-way.
func TestTournamentsRunUnattendedThroughAWorkerKill(t *testing.T) {
	env := map[string]string{
		"DATABASE_URL":               testenv.Postgres(t),
		"REDIS_URL":                  testenv.Redis(t),
		"SEQLEAGUE_DATA_DIR":         t.TempDir(),
		"JWT_SECRET":                 strings.Repeat("s", 40),
		"SEQLEAGUE_ADDR":             "127.0.0.1:0",
		"SEQLEAGUE_BOT_DELAY":        "0s",
		"SEQLEAGUE_TIMER_POLL":       "50ms",
		"SEQLEAGUE_AUTH_RATE_PER_IP": "1000",
	}
	api := startProcess(t, "serve", env)
	worker := startProcess(t, "work", env)
	base := "http://" + api.addr
	org := signUp(t, base, "organizer")
	var club struct{ ID string }
	org.must(http.StatusCreated, "POST", "/api/v1/clubs", map[string]any{"name": "Sequence Club"}, &club)

	type tournament struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	create := func(name string, cfg map[string]any, entries int) tournament {
		cfg["club_id"], cfg["name"], cfg["rated"] = club.ID, name, true
		cfg["clock"] = map[string]int{"turn_seconds": 5}
		var tour tournament
		org.must(http.StatusCreated, "POST", "/api/v1/tournaments", cfg, &tour)
		for i := 0; i < entries; i++ {
			bot := []string{"random", "greedy"}[i%2]
			org.must(http.StatusCreated, "POST", "/api/v1/tournaments/"+tour.ID+"/entries",
				map[string]any{"name": fmt.Sprintf("%s bot %d", name, i), "members": []map[string]string{{"bot": bot}}}, nil)
		}
		return tour
	}
	knockout := create("Knockout", map[string]any{"game": "sequence", "match_size": 2, "format": "single-elimination"}, 8)
	swiss := create("Triples", map[string]any{"game": "sequence", "match_size": 3, "format": "swiss"}, 9)
	first := time.Now().UTC().Add(2 * time.Second)
	for _, tour := range []tournament{knockout, swiss} {
		org.must(http.StatusOK, "POST", "/api/v1/tournaments/"+tour.ID+"/rounds",
			map[string]any{"first_start": first, "count": 3, "interval_seconds": 3, "deadline_seconds": 120}, nil)
	}
	// Kill the worker once the first round is under way, start another.
	deadline := time.Now().Add(30 * time.Second)
	for {
		var rounds struct{ Rounds []struct{ Status string } }
		org.must(http.StatusOK, "GET", "/api/v1/tournaments/"+knockout.ID+"/rounds", nil, &rounds)
		if len(rounds.Rounds) > 0 && rounds.Rounds[0].Status != "scheduled" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("round 1 never started")
		}
		time.Sleep(50 * time.Millisecond)
	}
	worker.kill(t)
	time.Sleep(500 * time.Millisecond)
	startProcess(t, "work", env)

	for _, tour := range []tournament{knockout, swiss} {
		end := time.Now().Add(3 * time.Minute)
		var got tournament
		for time.Now().Before(end) {
			org.must(http.StatusOK, "GET", "/api/v1/tournaments/"+tour.ID, nil, &got)
			if got.Status == "finished" {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		if got.Status != "finished" {
			_, rounds := org.do("GET", "/api/v1/tournaments/"+tour.ID+"/rounds", nil)
			t.Fatalf("tournament %s did not finish: %s\nrounds: %s", tour.ID, got.Status, rounds)
		}
	}
	var bracket struct {
		Kind     string
		Champion string
		Rounds   []struct{ Matches []struct{ Winner string } }
	}
	org.must(http.StatusOK, "GET", "/api/v1/tournaments/"+knockout.ID+"/bracket", nil, &bracket)
	if bracket.Kind != "bracket" || bracket.Champion == "" || len(bracket.Rounds) != 3 {
		t.Fatalf("knockout bracket: %+v", bracket)
	}
	var standings struct {
		Items []struct {
			Rank      int
			EntryID   string                  `json:"entry_id"`
			TieBreaks []struct{ Name string } `json:"tie_breaks"`
		}
	}
	org.must(http.StatusOK, "GET", "/api/v1/tournaments/"+knockout.ID+"/standings", nil, &standings)
	if len(standings.Items) != 8 || standings.Items[0].EntryID != bracket.Champion {
		t.Fatalf("knockout standings do not start with the champion: %+v", standings.Items)
	}
	org.must(http.StatusOK, "GET", "/api/v1/tournaments/"+swiss.ID+"/standings", nil, &standings)
	if len(standings.Items) != 9 || len(standings.Items[0].TieBreaks) == 0 {
		t.Fatalf("swiss standings: %+v", standings.Items)
	}
	var swissRounds struct {
		Rounds []struct {
			Matches []struct {
				Entries []string
				Games   []string
			}
		}
	}
	org.must(http.StatusOK, "GET", "/api/v1/tournaments/"+swiss.ID+"/rounds", nil, &swissRounds)
	if len(swissRounds.Rounds) != 2 {
		t.Fatalf("the 9-entry three-team Swiss played %d rounds, want 2", len(swissRounds.Rounds))
	}
	for _, rd := range swissRounds.Rounds {
		for _, m := range rd.Matches {
			if len(m.Entries) != 3 || len(m.Games) != 1 {
				t.Fatalf("swiss match %+v: want three entries and one game", m)
			}
		}
	}
	// Ratings: the bots' accounts were rated once per game they played.
	var board struct {
		Items []struct {
			Username string
			Games    int
		}
	}
	org.must(http.StatusOK, "GET", "/api/v1/leaderboards/sequence-2team?provisional=true", nil, &board)
	if len(board.Items) == 0 {
		t.Fatal("no ratings from the rated knockout")
	}
	status, csv := org.do("GET", "/api/v1/tournaments/"+swiss.ID+"/standings.csv", nil)
	if status != http.StatusOK || !strings.HasPrefix(string(csv), "rank,entry,") {
		t.Fatalf("standings.csv: %d %q", status, csv)
	}
	status, ics := org.do("GET", "/api/v1/tournaments/"+knockout.ID+"/calendar.ics", nil)
	if status != http.StatusOK || strings.Count(string(ics), "BEGIN:VEVENT") != 3 {
		t.Fatalf("calendar.ics: %d %q", status, ics)
	}
}
