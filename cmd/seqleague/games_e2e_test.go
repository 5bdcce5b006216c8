package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/seqleague/seqleague/engine/play"
	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/league/testenv"
)

// bootForGames starts the whole program with clocks and bots fast enough
// for tests.
func bootForGames(t *testing.T) (string, map[string]string) {
	t.Helper()
	env := testEnv(t, testenv.Postgres(t))
	env["SEQLEAGUE_BOT_DELAY"] = "0s"
	env["SEQLEAGUE_TIMER_POLL"] = "50ms"
	env["SEQLEAGUE_AUTH_RATE_PER_IP"] = "1000"
	app, done := startApp(t, env, nil)
	t.Cleanup(func() {
		app.Shutdown()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
		}
	})
	base := "http://" + app.Addr()
	waitReady(t, base)
	return base, env
}

// archiveOf fetches a finished game's archive and replays it, returning the
// state after every ply (index p: the state after p moves).
func archiveOf(t *testing.T, c *client, gameID string) []play.Game {
	t.Helper()
	var rec struct {
		Setup struct {
			Game           string `json:"game"`
			Variant        string `json:"variant"`
			Players        int    `json:"players"`
			Teams          int    `json:"teams"`
			SequencesToWin int    `json:"sequences_to_win"`
			PlayCap        int    `json:"play_cap"`
		} `json:"setup"`
		Seed     string `json:"seed"`
		SeedHash string `json:"seed_hash"`
		Moves    []struct {
			Ply  int    `json:"ply"`
			Seat int    `json:"seat"`
			Move string `json:"move"`
			By   string `json:"by"`
		} `json:"moves"`
	}
	c.must(http.StatusOK, "GET", "/api/v1/games/"+gameID+"/archive", nil, &rec)
	seed, err := rng.ParseSeed(rec.Seed)
	if err != nil || seed.Hash() != rec.SeedHash {
		t.Fatalf("archive seed %q does not match its published hash", rec.Seed)
	}
	st := rec.Setup
	g, err := play.New(play.Setup{Game: st.Game, Variant: st.Variant, Players: st.Players, Teams: st.Teams, SequencesToWin: st.SequencesToWin, PlayCap: st.PlayCap}, seed)
	if err != nil {
		t.Fatal(err)
	}
	states := []play.Game{g}
	for i, m := range rec.Moves {
		if m.Ply != i || m.By == "" {
			t.Fatalf("archive move %d has ply %d and is by %q", i, m.Ply, m.By)
		}
		if g, err = g.Apply(m.Seat, m.Move); err != nil {
			t.Fatalf("archive ply %d does not replay: %v", i, err)
		}
		states = append(states, g)
	}
	return states
}

// hiddenScanner checks everything one viewer received against the true
// state at that moment: the only hand it may hold is the viewer's own, and
// no card may appear anywhere except in that hand, in discard piles, in the
// viewer's own legal moves and in moves already played.
type hiddenScanner struct {
	t      *testing.T
	seat   int // -1: spectator
	states []play.Game
	seen   int
}

var cardCode = regexp.MustCompile(`^(?:[2-9TJQKA][SHDC]|W[+-])`)

func (h *hiddenScanner) check(what string, raw []byte) {
	h.t.Helper()
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		h.t.Fatalf("%s: not JSON: %v", what, err)
	}
	view := doc.(map[string]any)
	if v, ok := view["view"].(map[string]any); ok { // an SSE event
		view = v
	}
	ply := int(view["ply"].(float64))
	status, _ := view["status"].(string)
	if ply >= len(h.states) {
		h.t.Fatalf("%s: ply %d beyond the game's %d", what, ply, len(h.states)-1)
	}
	truth := h.states[ply]
	var position struct {
		Position struct {
			Hands [][]string `json:"hands"`
		} `json:"position"`
	}
	vec, _ := truth.VectorJSON("truth")
	json.Unmarshal(vec, &position)
	own := map[string]int{}
	if h.seat >= 0 {
		for _, c := range position.Position.Hands[h.seat] {
			own[c]++
		}
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, child := range x {
				if (k == "hands" || k == "deck" || (k == "seed" && status != "finished")) && child != nil {
					h.t.Errorf("%s: ply %d carries %q at %s", what, ply, k, path)
				}
				walk(path+"."+k, child)
			}
		case []any:
			if strings.HasSuffix(path, ".state.hand") {
				got := map[string]int{}
				for _, c := range x {
					got[c.(string)]++
				}
				for c, n := range got {
					if n > own[c] {
						h.t.Errorf("%s: ply %d shows %s in the hand of seat %d, which does not hold it", what, ply, c, h.seat)
					}
				}
				if h.seat < 0 && len(x) > 0 {
					h.t.Errorf("%s: a spectator was shown a hand", what)
				}
				h.seen += len(x)
				return
			}
			for i, child := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), child)
			}
		case string:
			if !cardCode.MatchString(x) || len(x) < 2 {
				return
			}
			switch {
			case strings.Contains(path, ".state.discards"), strings.HasSuffix(path, ".move.move"):
			case strings.Contains(path, ".legal_moves"):
				if own[x[:2]] == 0 && !strings.HasPrefix(x, "pass") {
					h.t.Errorf("%s: legal move %s uses a card seat %d does not hold", what, x, h.seat)
				}
			default:
				h.t.Errorf("%s: card-like text %q at %s", what, x, path)
			}
		}
	}
	walk("", doc)
}

func TestPeopleAndBotsPlayOverHTTPAndNobodySeesHiddenCards(t *testing.T) {
	base, _ := bootForGames(t)
	ann, bob := signUp(t, base, "ann"), signUp(t, base, "bob")
	watcher := signUp(t, base, "watcher")
	var g gameView
	ann.must(http.StatusCreated, "POST", "/api/v1/games", map[string]any{
		"game": "sequence", "variant": "classic", "players": 4, "teams": 2,
		"seats": []map[string]any{{"user": "me"}, {"bot": "greedy"}, {"open": true}, {"bot": "random"}},
	}, &g)
	bob.must(http.StatusOK, "POST", "/api/v1/games/"+g.ID+"/join", map[string]any{"seat": 2}, &g)
	if g.Status != "active" {
		t.Fatalf("game status %q, want active", g.Status)
	}
	streams := map[*client]*stream{}
	for _, c := range []*client{ann, bob, watcher} {
		streams[c] = c.openStream(g.ID, -1)
	}
	type received struct {
		who  *client
		what string
		raw  []byte
	}
	var responses []received
	deadline := time.Now().Add(2 * time.Minute)
	finished := false
	for !finished && time.Now().Before(deadline) {
		moved := false
		for _, c := range []*client{ann, bob} {
			var v gameView
			raw := c.must(http.StatusOK, "GET", "/api/v1/games/"+g.ID, nil, &v)
			responses = append(responses, received{c, "GET view", raw})
			if v.Status == "finished" {
				finished = true
				break
			}
			if len(v.LegalMoves) == 0 {
				continue
			}
			status, out := c.do("POST", "/api/v1/games/"+g.ID+"/moves", map[string]any{"ply": v.Ply, "move": v.LegalMoves[0], "move_id": fmt.Sprintf("%s-%d", c.id, v.Ply)})
			if status != http.StatusOK && status != http.StatusConflict {
				t.Fatalf("move %s at ply %d = %d: %s", v.LegalMoves[0], v.Ply, status, out)
			}
			if status == http.StatusOK {
				responses = append(responses, received{c, "POST move", out})
			}
			moved = true
		}
		if !moved {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if !finished {
		t.Fatal("the game did not finish within 2 minutes")
	}
	var final gameView
	watcher.must(http.StatusOK, "GET", "/api/v1/games/"+g.ID, nil, &final)
	for _, s := range streams {
		s.waitFor(t, final.Ply, 10*time.Second)
		s.close()
	}
	states := archiveOf(t, ann, g.ID)
	if len(states)-1 != final.Ply {
		t.Fatalf("archive has %d moves, the game %d", len(states)-1, final.Ply)
	}
	scanners := map[*client]*hiddenScanner{
		ann: {t: t, seat: 0, states: states}, bob: {t: t, seat: 2, states: states}, watcher: {t: t, seat: -1, states: states},
	}
	for _, r := range responses {
		scanners[r.who].check(r.what, r.raw)
	}
	for c, s := range streams {
		events := s.snapshot()
		moves := 0
		for _, e := range events {
			scanners[c].check("SSE "+e.Event, e.Data)
			if e.Event == "move" {
				moves++
			}
		}
		if moves != final.Ply {
			t.Errorf("a stream received %d move events, the game had %d moves", moves, final.Ply)
		}
	}
	if scanners[ann].seen == 0 || scanners[bob].seen == 0 {
		t.Fatal("the scan saw no hand at all: it checked nothing")
	}
}

func TestSSEResumeWithLastEventIDMissesNothing(t *testing.T) {
	base, _ := bootForGames(t)
	ann := signUp(t, base, "ann")
	var g gameView
	// Two bots play while ann watches, drops the connection and comes back.
	ann.must(http.StatusCreated, "POST", "/api/v1/games", map[string]any{
		"game": "sequence", "players": 2, "teams": 2,
		"seats": []map[string]any{{"bot": "random"}, {"bot": "random"}},
	}, &g)
	first := ann.openStream(g.ID, -1)
	first.waitFor(t, 5, 30*time.Second)
	first.close()
	dropped := first.lastID()
	time.Sleep(300 * time.Millisecond) // moves happen while disconnected
	second := ann.openStream(g.ID, dropped)
	final := ann.waitGameOver(g.ID, 60*time.Second)
	second.waitFor(t, final.Ply, 10*time.Second)
	second.close()
	// The first stream opens with the state as it then is: with bots
	// moving at once, a move or more may already be in it, and every move
	// after it must come once.
	opening := first.snapshot()
	if len(opening) == 0 || opening[0].Event != "state" || opening[0].ID < 0 {
		t.Fatalf("the first stream opened with %+v, want a state event naming its ply", opening)
	}
	got := map[int]int{}
	for _, s := range []*stream{first, second} {
		for _, e := range s.snapshot() {
			if e.Event == "move" {
				got[e.ID]++
			}
		}
	}
	for id := opening[0].ID + 1; id <= final.Ply; id++ {
		if got[id] != 1 {
			t.Fatalf("move event %d received %d times across the two connections (opened at %d, dropped after %d), want exactly once", id, got[id], opening[0].ID, dropped)
		}
	}
	for id := range got {
		if id <= opening[0].ID {
			t.Fatalf("move event %d received, though the stream opened at ply %d with it", id, opening[0].ID)
		}
	}
}
