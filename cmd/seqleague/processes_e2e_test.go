package main

import (
	"bufio"
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
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := servingAddr.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		io.Copy(io.Discard, stderr)
	}()
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

	var final gameView
	end := time.Now().Add(90 * time.Second)
	for time.Now().Before(end) {
		ann.must(http.StatusOK, "GET", "/api/v1/games/"+g.ID, nil, &final)
		if final.Status == "finished" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if final.Status != "finished" {
		t.Fatalf("after the kill the game stalled at %v", final)
	}
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
