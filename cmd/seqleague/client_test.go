package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// httpClient keeps a connection open per concurrent request, as a crowd of
// players' browsers would (net/http's default keeps two per host, and a
// benchmark with hundreds of players would mostly measure new TCP
// connections).
var httpClient = func() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns, t.MaxIdleConnsPerHost = 2048, 2048
	return &http.Client{Transport: t}
}()

// client is a test's HTTP client for one person.
type client struct {
	t     testing.TB
	base  string
	token string
	id    string
}

func (c *client) do(method, path string, body any) (int, []byte) {
	c.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, r)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// must does a request that has to answer want.
func (c *client) must(want int, method, path string, body any, into any) []byte {
	c.t.Helper()
	status, out := c.do(method, path, body)
	if status != want {
		c.t.Fatalf("%s %s = %d, want %d: %s", method, path, status, want, out)
	}
	if into != nil {
		if err := json.Unmarshal(out, into); err != nil {
			c.t.Fatalf("%s %s: %v: %s", method, path, err, out)
		}
	}
	return out
}

// signUp registers and logs a person in.
func signUp(t testing.TB, base, name string) *client {
	t.Helper()
	c := &client{t: t, base: base}
	var user struct{ ID string }
	c.must(http.StatusCreated, "POST", "/api/v1/auth/register", map[string]string{"username": name, "password": "correct horse battery"}, &user)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	c.must(http.StatusOK, "POST", "/api/v1/auth/login", map[string]string{"username": name, "password": "correct horse battery"}, &tok)
	c.token, c.id = tok.AccessToken, user.ID
	return c
}

// gameView is the part of a game view the tests read.
type gameView struct {
	ID         string          `json:"id"`
	Status     string          `json:"status"`
	Ply        int             `json:"ply"`
	YourSeat   *int            `json:"your_seat"`
	ToMove     []int           `json:"to_move"`
	LegalMoves []string        `json:"legal_moves"`
	State      json.RawMessage `json:"state"`
	Result     *struct {
		Status string `json:"status"`
		Winner *int   `json:"winner"`
	} `json:"result"`
}

// sseEvent is one received Server-Sent Event.
type sseEvent struct {
	ID    int // -1 when the event had none
	Event string
	Data  []byte
	At    time.Time // when it was received
}

// stream reads a game's event stream until stop or the connection ends.
type stream struct {
	mu     sync.Mutex
	events []sseEvent
	cancel context.CancelFunc
	done   chan struct{}
}

func (c *client) openStream(gameID string, lastEventID int) *stream {
	c.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", c.base+"/api/v1/games/"+gameID+"/events", nil)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if lastEventID >= 0 {
		req.Header.Set("Last-Event-ID", strconv.Itoa(lastEventID))
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		cancel()
		c.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		cancel()
		c.t.Fatalf("events: status %d", resp.StatusCode)
	}
	s := &stream{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<22)
		ev := sseEvent{ID: -1}
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.Event != "" {
					ev.At = time.Now()
					s.mu.Lock()
					s.events = append(s.events, ev)
					s.mu.Unlock()
				}
				ev = sseEvent{ID: -1}
			case strings.HasPrefix(line, "id: "):
				ev.ID, _ = strconv.Atoi(strings.TrimPrefix(line, "id: "))
			case strings.HasPrefix(line, "event: "):
				ev.Event = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.Data = []byte(strings.TrimPrefix(line, "data: "))
			}
		}
	}()
	return s
}

func (s *stream) close() {
	s.cancel()
	<-s.done
}

func (s *stream) snapshot() []sseEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]sseEvent(nil), s.events...)
}

// lastID is the highest event ID received.
func (s *stream) lastID() int {
	last := -1
	for _, e := range s.snapshot() {
		if e.ID > last {
			last = e.ID
		}
	}
	return last
}

// waitFor waits until the stream has received an event with an ID of at
// least id.
func (s *stream) waitFor(t *testing.T, id int, within time.Duration) {
	t.Helper()
	end := time.Now().Add(within)
	for time.Now().Before(end) {
		if s.lastID() >= id {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("stream reached event %d, want %d within %v", s.lastID(), id, within)
}

func (v gameView) String() string { return fmt.Sprintf("%s ply %d", v.Status, v.Ply) }

// waitGameOver polls a game until it has finished.
func (c *client) waitGameOver(gameID string, within time.Duration) gameView {
	c.t.Helper()
	var v gameView
	end := time.Now().Add(within)
	for time.Now().Before(end) {
		c.must(http.StatusOK, "GET", "/api/v1/games/"+gameID, nil, &v)
		if v.Status == "finished" {
			return v
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.t.Fatalf("game %s not finished after %v: %v", gameID, within, v)
	return v
}
