package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// dialEvents opens a game's event stream as a client would (signed out
// when token is empty) and answers the response, its body left open for
// the test's life unless the caller closes it.
func dialEvents(t *testing.T, srv *httptest.Server, id, token string) *http.Response {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/v1/games/"+id+"/events", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// One client could open event streams without end, each a goroutine and a
// connection held open (500 from one address in a loop: every one
// answered 200), until the process ran out of file descriptors. A client
// now holds at most the hub's limit at once: an account wherever it
// connects from, a signed-out viewer per address; past it a 429 says why,
// and a closed stream gives its place back.
func TestOneClientHoldsAtMostTheStreamLimit(t *testing.T) {
	r := newGamesRig(t)
	r.d.Hub.LimitStreams(2)
	id, alice, _ := startedGame(t, r, 0)
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close) // after the streams' own clean-ups, which end them

	first := dialEvents(t, srv, id, "")
	for i, res := range []*http.Response{first, dialEvents(t, srv, id, "")} {
		if res.StatusCode != http.StatusOK {
			t.Fatalf("signed-out stream %d: status %d, want 200", i+1, res.StatusCode)
		}
	}
	refused := dialEvents(t, srv, id, "")
	if refused.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("third signed-out stream: status %d, want 429", refused.StatusCode)
	}
	if ct := refused.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("refusal Content-Type = %q, want application/problem+json", ct)
	}
	if refused.Header.Get("Retry-After") == "" {
		t.Error("the refusal says nothing of when to try again (Retry-After)")
	}
	var p problemBody
	if err := json.NewDecoder(refused.Body).Decode(&p); err != nil || p.Detail == "" {
		t.Errorf("refusal body: %+v, %v", p, err)
	}

	// An account is counted apart from the signed-out viewers at its
	// address, and by itself.
	for i := 0; i < 2; i++ {
		if res := dialEvents(t, srv, id, alice); res.StatusCode != http.StatusOK {
			t.Fatalf("alice's stream %d: status %d, want 200", i+1, res.StatusCode)
		}
	}
	if res := dialEvents(t, srv, id, alice); res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("alice's third stream: status %d, want 429", res.StatusCode)
	}

	// Closing a stream frees its place (once the server sees it closed).
	first.Body.Close()
	deadline := time.Now().Add(3 * time.Second)
	for {
		res := dialEvents(t, srv, id, "")
		if res.StatusCode == http.StatusOK {
			break
		}
		res.Body.Close()
		if time.Now().After(deadline) {
			t.Fatalf("a signed-out stream after one closed: status %d, want 200", res.StatusCode)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
