package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// startedGame creates a two-player game between alice and bob and plays
// plies moves (alternating, first legal move); it returns the game's ID and
// the two tokens.
func startedGame(t *testing.T, r *rig, plies int) (string, string, string) {
	t.Helper()
	_, alice := r.user("alice", false)
	_, bob := r.user("bob", false)
	rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"teams":2,"seats":[{"user":"me"},{"open":true}]}`, alice)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	id := decode[gameResponse](t, rec).ID
	if rec := r.call("POST", "/api/v1/games/"+id+"/join", "", bob); rec.Code != http.StatusOK {
		t.Fatalf("join: %d %s", rec.Code, rec.Body)
	}
	for ply := 0; ply < plies; ply++ {
		tok := []string{alice, bob}[ply%2]
		v := decode[gameViewResponse](t, r.call("GET", "/api/v1/games/"+id, "", tok))
		if len(v.LegalMoves) == 0 {
			t.Fatalf("no legal move at ply %d", v.Ply)
		}
		body := fmt.Sprintf(`{"ply":%d,"move":%q,"move_id":"m%d"}`, ply, v.LegalMoves[0], ply)
		if rec := r.call("POST", "/api/v1/games/"+id+"/moves", body, tok); rec.Code != http.StatusOK {
			t.Fatalf("move %d: %d %s", ply, rec.Code, rec.Body)
		}
	}
	return id, alice, bob
}

// openEvents connects to a game's event stream as a real HTTP client would,
// resuming after lastEventID; it fails if the answer's headers take longer
// than a second.
func openEvents(t *testing.T, srv *httptest.Server, id, token, lastEventID string) (*http.Response, *bufio.Reader) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/v1/games/"+id+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Last-Event-ID", lastEventID)
	type answer struct {
		res *http.Response
		err error
	}
	got := make(chan answer, 1)
	go func() {
		res, err := srv.Client().Do(req)
		got <- answer{res, err}
	}()
	select {
	case a := <-got:
		if a.err != nil {
			t.Fatal(a.err)
		}
		t.Cleanup(func() { a.res.Body.Close() })
		if a.res.StatusCode != http.StatusOK {
			t.Fatalf("status %d", a.res.StatusCode)
		}
		return a.res, bufio.NewReader(a.res.Body)
	case <-time.After(time.Second):
		t.Fatalf("Last-Event-ID %s: no response headers within a second", lastEventID)
		return nil, nil
	}
}

// nextEvent reads one SSE event's name, failing after a second.
func nextEvent(t *testing.T, body *bufio.Reader) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		name := ""
		for {
			line, err := body.ReadString('\n')
			if err != nil {
				got <- "error: " + err.Error()
				return
			}
			if n, ok := strings.CutPrefix(line, "event: "); ok {
				name = strings.TrimSpace(n)
			}
			if line == "\n" && name != "" {
				got <- name
				return
			}
		}
	}()
	select {
	case name := <-got:
		return name
	case <-time.After(time.Second):
		t.Fatal("no event within a second")
		return ""
	}
}

func TestAResumeWithNothingMissedAnswersAtOnce(t *testing.T) {
	r := newGamesRig(t)
	id, alice, _ := startedGame(t, r, 0)
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close) // after the streams' cleanups have hung up
	res, _ := openEvents(t, srv, id, alice, "0")
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type = %q", ct)
	}
}

func TestAResumedStreamOfAFinishedGameEndsLikeTheLiveOne(t *testing.T) {
	r := newGamesRig(t)
	id, alice, _ := startedGame(t, r, 3)
	// Playing a game to its end takes a hundred moves; the stream only
	// reads the row's status and result, so end it there.
	if err := r.db.Gorm.Exec(`UPDATE games SET status = 'finished', result_status = 'drawn', finished_at = now(),
		turn_deadline = NULL, revision = revision + 1 WHERE id = ?`, id).Error; err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close) // after the streams' cleanups have hung up
	for _, tc := range []struct {
		last  string
		moves int
	}{{"1", 2}, {"3", 0}} {
		_, body := openEvents(t, srv, id, alice, tc.last)
		for i := 0; i < tc.moves; i++ {
			if ev := nextEvent(t, body); ev != "move" {
				t.Fatalf("Last-Event-ID %s: event %d is %q, want move", tc.last, i, ev)
			}
		}
		if ev := nextEvent(t, body); ev != "end" {
			t.Fatalf("Last-Event-ID %s: after the missed moves came %q, want end", tc.last, ev)
		}
	}
}

// A stream outlives the access token that opened it; a password change
// (which ends every other session) closes it at the next heartbeat, while
// the stream of a signed-in account keeps beating.
func TestAPasswordChangeClosesTheAccountsOpenStreams(t *testing.T) {
	r := newGamesRig(t)
	r.d.Hub.heartbeat = 50 * time.Millisecond
	id, alice, bob := startedGame(t, r, 0)
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close) // after the streams' cleanups have hung up
	_, aliceStream := openEvents(t, srv, id, alice, "0")
	_, bobStream := openEvents(t, srv, id, bob, "0")
	time.Sleep(10 * time.Millisecond) // alice's stream was opened by a token older than the change
	rec := r.call(http.MethodPost, "/api/v1/me/password", changePasswordBody("password-alice", "a much better one"), alice)
	if rec.Code != http.StatusOK {
		t.Fatalf("change = %d %s", rec.Code, rec.Body)
	}
	ended := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, aliceStream)
		ended <- err
	}()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("alice's stream was still open 5 s after her password changed")
	}
	if line, err := bobStream.ReadString('\n'); err != nil || !strings.HasPrefix(line, ": heartbeat") {
		t.Fatalf("bob's stream: %q, %v; want it still beating", line, err)
	}
}
