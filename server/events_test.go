package server

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// openTable creates a two-player Sequence table where the creator (token)
// sits and one seat is open, and returns its ID.
func openTable(t *testing.T, r *rig, token string) string {
	t.Helper()
	rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"teams":2,"seats":[{"user":"me"},{"open":true}]}`, token)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	return decode[gameResponse](t, rec).ID
}

// startedGame creates a two-player game between alice and bob and plays
// plies moves (alternating, first legal move); it returns the game's ID and
// the two tokens.
func startedGame(t *testing.T, r *rig, plies int) (string, string, string) {
	t.Helper()
	_, alice := r.user("alice", false)
	_, bob := r.user("bob", false)
	id := openTable(t, r, alice)
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
	name, _ := readEvent(t, body)
	return name
}

// readEvent reads one SSE event's name and data, failing after a second.
func readEvent(t *testing.T, body *bufio.Reader) (string, string) {
	t.Helper()
	type event struct{ name, data string }
	got := make(chan event, 1)
	go func() {
		var ev event
		for {
			line, err := body.ReadString('\n')
			if err != nil {
				got <- event{name: "error: " + err.Error()}
				return
			}
			if n, ok := strings.CutPrefix(line, "event: "); ok {
				ev.name = strings.TrimSpace(n)
			}
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				ev.data = strings.TrimSpace(d)
			}
			if line == "\n" && ev.name != "" {
				got <- ev
				return
			}
		}
	}()
	select {
	case ev := <-got:
		return ev.name, ev.data
	case <-time.After(time.Second):
		t.Fatal("no event within a second")
		return "", ""
	}
}

// TestAStreamShowsTheSeatItsViewerHoldsNow: two people watch an open game;
// one takes the seat. From then on the stream of the one who sat shows that
// seat's hand, and the other's shows no hand: each frame is built for the
// seat its viewer holds when it is sent, not when the stream opened (two
// streams opened as spectators shared one frame, so a spectator was sent
// the new player's hand).
func TestAStreamShowsTheSeatItsViewerHoldsNow(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	_, dave := r.user("dave", false)
	_, frank := r.user("frank", false)
	id := openTable(t, r, alice)
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close) // after the streams' cleanups have hung up
	streams := map[string]*bufio.Reader{}
	for name, tok := range map[string]string{"dave": dave, "frank": frank} {
		_, body := openEvents(t, srv, id, tok, "")
		if ev := nextEvent(t, body); ev != "state" {
			t.Fatalf("%s's first event %q, want state", name, ev)
		}
		streams[name] = body
	}
	if rec := r.call("POST", "/api/v1/games/"+id+"/join", "", frank); rec.Code != http.StatusOK {
		t.Fatalf("join: %d %s", rec.Code, rec.Body)
	}
	for name, body := range streams {
		for {
			ev, data := readEvent(t, body)
			var d struct {
				View struct {
					Status   string `json:"status"`
					YourSeat *int   `json:"your_seat"`
					State    struct {
						Hand []string `json:"hand"`
					} `json:"state"`
				} `json:"view"`
			}
			if err := json.Unmarshal([]byte(data), &d); err != nil {
				t.Fatalf("%s: %s event %q: %v", name, ev, data, err)
			}
			if d.View.Status != "active" {
				continue // the seat event before the start
			}
			switch name {
			case "dave":
				if d.View.YourSeat != nil || len(d.View.State.Hand) != 0 {
					t.Fatalf("dave, a spectator, was sent seat %v and hand %v", *d.View.YourSeat, d.View.State.Hand)
				}
			case "frank":
				if d.View.YourSeat == nil || *d.View.YourSeat != 1 || len(d.View.State.Hand) != 7 {
					t.Fatalf("frank, seated, was sent seat %v and hand %v; want seat 1 and his seven cards", d.View.YourSeat, d.View.State.Hand)
				}
			}
			break
		}
	}
}

func TestAResumeFromAPlyNotReachedIsRefused(t *testing.T) {
	r := newGamesRig(t)
	id, alice, _ := startedGame(t, r, 2)
	rec := r.call("GET", "/api/v1/games/"+id+"/events", "", alice, func(req *http.Request) { req.Header.Set("Last-Event-ID", "3") })
	wantProblem(t, rec, http.StatusBadRequest, "Last-Event-ID")
	// An EventSource resumes with ?last_event_id=, and a fault there is
	// named as the client wrote it.
	for _, bad := range []string{"3", "x", "-2", "99999999999999999999"} {
		rec = r.call("GET", "/api/v1/games/"+id+"/events?last_event_id="+bad, "", alice)
		wantProblem(t, rec, http.StatusBadRequest, "last_event_id")
	}
	// The stream sits outside the API group (no request timeout), and
	// refuses a parameter given twice as the group does, rather than
	// resuming from the first.
	rec = r.call("GET", "/api/v1/games/"+id+"/events?last_event_id=0&last_event_id=x", "", alice)
	wantProblem(t, rec, http.StatusBadRequest, "last_event_id")
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

// A game changes without a move too: a client that was away while its
// open table filled and started resumes (Last-Event-ID 0, as EventSource
// sends it) to the game's state as it is now, not to silence while its
// clock runs (the resilience audit). A resume past moves gets the moves
// and then the state at the last of them.
func TestAResumedStreamSaysWhatChangedWithoutAMove(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	_, bob := r.user("bob", false)
	id := openTable(t, r, alice)
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close) // after the streams' cleanups have hung up
	status := func(body *bufio.Reader, want string) {
		t.Helper()
		name, data := readEvent(t, body)
		var ev struct {
			View struct{ Status string } `json:"view"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil || name != "state" || ev.View.Status != want {
			t.Fatalf("event %q %s; want the state of a game %s", name, data, want)
		}
	}
	_, body := openEvents(t, srv, id, alice, "0")
	status(body, "open")
	if rec := r.call("POST", "/api/v1/games/"+id+"/join", "", bob); rec.Code != http.StatusOK {
		t.Fatalf("join: %d %s", rec.Code, rec.Body)
	}
	_, body = openEvents(t, srv, id, alice, "0")
	status(body, "active")

	v := decode[gameViewResponse](t, r.call("GET", "/api/v1/games/"+id, "", alice))
	if rec := r.call("POST", "/api/v1/games/"+id+"/moves", fmt.Sprintf(`{"ply":0,"move":%q,"move_id":"m0"}`, v.LegalMoves[0]), alice); rec.Code != http.StatusOK {
		t.Fatalf("move: %d %s", rec.Code, rec.Body)
	}
	_, body = openEvents(t, srv, id, bob, "0")
	if ev := nextEvent(t, body); ev != "move" {
		t.Fatalf("a resume past a move began with %q, want the move", ev)
	}
	status(body, "active")
}

func TestAResumedStreamOfAFinishedGameEndsLikeTheLiveOne(t *testing.T) {
	r := newGamesRig(t)
	id, alice, _ := startedGame(t, r, 3)
	r.drawByHand(t, id)
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

// A password change (which ends every other session) closes the account's
// streams at the next heartbeat, while the stream of a signed-in account
// keeps beating.
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
	wantStreamEnded(t, aliceStream, "alice's", "her password changed")
	wantHeartbeat(t, bobStream, "bob's stream")
}

// wantHeartbeat reads a stream past its events (a resume begins with the
// game's state) to a heartbeat.
func wantHeartbeat(t *testing.T, s *bufio.Reader, what string) {
	t.Helper()
	for {
		line, err := s.ReadString('\n')
		if err != nil {
			t.Fatalf("%s ended (%v); want it still beating", what, err)
		}
		if strings.HasPrefix(line, ": heartbeat") {
			return
		}
	}
}

// A stream outlived the access token that opened it, for as long as the
// game lasted: a token that leaked (valid 15 minutes) followed its seat's
// hand to the end of the game, and so did one whose session had signed
// out. The stream now ends when its token expires (the web app then
// refreshes and resumes), while a stream of a token still valid and a
// signed-out viewer's stream go on.
func TestAStreamEndsWhenItsAccessTokenExpires(t *testing.T) {
	r := newGamesRig(t)
	r.d.Hub.heartbeat = 50 * time.Millisecond
	id, alice, bob := startedGame(t, r, 0)
	claims, err := r.d.Auth.parseAccessToken(alice)
	if err != nil {
		t.Fatal(err)
	}
	r.d.Auth.AccessTokenTTL = 700 * time.Millisecond
	shortLived := r.token(claims.Subject)
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close) // after the streams' cleanups have hung up
	_, aliceStream := openEvents(t, srv, id, shortLived, "0")
	_, bobStream := openEvents(t, srv, id, bob, "0")
	anonymous := dialEvents(t, srv, id, "")
	wantStreamEnded(t, aliceStream, "alice's", "its access token expired")
	for name, s := range map[string]*bufio.Reader{"bob's": bobStream, "the signed-out viewer's": bufio.NewReader(anonymous.Body)} {
		wantHeartbeat(t, s, name+" stream")
	}
	// A fresh token opens it again, from where it was.
	_, again := openEvents(t, srv, id, r.token(claims.Subject), "0")
	wantHeartbeat(t, again, "a new stream with a fresh token")
}

// TestNobodyExportsAPositionOfAGameBeingPlayed: a rule vector holds every
// hand and the deck, so while the game is played it is refused to its
// players, to spectators and to site admins alike; once it has ended it is
// everyone's.
func TestNobodyExportsAPositionOfAGameBeingPlayed(t *testing.T) {
	r := newGamesRig(t)
	id, alice, bob := startedGame(t, r, 2)
	_, admin := r.user("root", true)
	for name, tok := range map[string]string{"alice": alice, "bob": bob, "an admin": admin, "a spectator": ""} {
		if rec := r.call("GET", "/api/v1/games/"+id+"/vector?ply=0", "", tok); rec.Code != http.StatusUnprocessableEntity {
			t.Errorf("%s: vector of a game being played: %d %s; want 422", name, rec.Code, rec.Body)
		}
	}
	r.drawByHand(t, id)
	if rec := r.call("GET", "/api/v1/games/"+id+"/vector?ply=0", "", ""); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "hands") {
		t.Errorf("vector of a finished game: %d %s", rec.Code, rec.Body)
	}
}

func TestAStreamWithTwoAccessTokensIsRefused(t *testing.T) {
	r := newGamesRig(t)
	id, alice, _ := startedGame(t, r, 0)
	rec := r.call("GET", "/api/v1/games/"+id+"/events?access_token="+alice+"&access_token=junk", "", "")
	wantProblem(t, rec, http.StatusUnauthorized, "")
}

// A finished game's player asks for a rematch: the other player's stream
// of the finished game says so, and the other player's own ask seats them
// in it, one seat on, and starts it.
func TestARematchIsOfferedOnTheFinishedGamesStream(t *testing.T) {
	r := newGamesRig(t)
	id, alice, bob := startedGame(t, r, 3)
	_, carol := r.user("carol", false)
	if rec := r.call("POST", "/api/v1/games/"+id+"/rematch", "", alice); rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("a rematch of a game in play: %d %s", rec.Code, rec.Body)
	}
	// The rematch reads only the row's status and seats: end the game there.
	r.drawByHand(t, id)
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close)
	_, body := openEvents(t, srv, id, bob, "")
	if ev := nextEvent(t, body); ev != "state" {
		t.Fatalf("first event %q, want state", ev)
	}
	wantProblem(t, r.call("POST", "/api/v1/games/"+id+"/rematch", "", carol), http.StatusForbidden, "")
	wantProblem(t, r.call("POST", "/api/v1/games/00000000-0000-0000-0000-00000000000f/rematch", "", alice), http.StatusNotFound, "")

	rec := r.call("POST", "/api/v1/games/"+id+"/rematch", "", alice)
	if rec.Code != http.StatusOK {
		t.Fatalf("rematch: %d %s", rec.Code, rec.Body)
	}
	re := decode[gameResponse](t, rec)
	if re.Status != "open" || !re.Seats[0].Open || re.Seats[1].User == nil || re.Seats[1].User.Username != "alice" {
		t.Fatalf("rematch %+v: want bob's seat 0 open and alice at seat 1", re)
	}
	name, data := readEvent(t, body)
	var ev struct {
		View gameViewResponse `json:"view"`
	}
	if err := json.Unmarshal([]byte(data), &ev); err != nil {
		t.Fatal(err)
	}
	if name != "rematch" || ev.View.RematchID != re.ID {
		t.Fatalf("bob's stream sent %q naming rematch %q, want rematch naming %s", name, ev.View.RematchID, re.ID)
	}
	rec = r.call("POST", "/api/v1/games/"+id+"/rematch", "", bob)
	if rec.Code != http.StatusOK {
		t.Fatalf("bob's rematch: %d %s", rec.Code, rec.Body)
	}
	if got := decode[gameResponse](t, rec); got.ID != re.ID || got.Status != "active" || got.Seats[0].User == nil || got.Seats[0].User.Username != "bob" {
		t.Fatalf("bob's rematch %+v: want %s started with bob at seat 0", got, re.ID)
	}
}

// The lobby answers anyone: the games waiting for players, and (status
// active) those being played, never a hand; a status it does not list is
// a 400 naming status.
func TestTheLobbyListsGamesToJoinAndToWatch(t *testing.T) {
	r := newGamesRig(t)
	id, _, _ := startedGame(t, r, 1)
	_, dan := r.user("dan", false)
	rec := r.call("POST", "/api/v1/games", `{"game":"stacks","players":3,"seats":[{"user":"me"},{"open":true},{"bot":"greedy"}]}`, dan)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	waiting := decode[gameResponse](t, rec).ID
	for status, want := range map[string]string{"": waiting, "?status=open": waiting, "?status=active": id} {
		rec := r.call("GET", "/api/v1/games"+status, "", "")
		if rec.Code != http.StatusOK {
			t.Fatalf("lobby %q: %d %s", status, rec.Code, rec.Body)
		}
		page := decode[listResponse[gameResponse]](t, rec)
		if len(page.Items) != 1 || page.Items[0].ID != want {
			t.Errorf("lobby %q lists %+v, want only %s", status, page.Items, want)
		}
		for _, hidden := range []string{`"hand"`, `"state"`, `"deck`, `"seed"`} {
			if strings.Contains(rec.Body.String(), hidden) {
				t.Errorf("lobby %q shows %s: %s", status, hidden, rec.Body)
			}
		}
	}
	wantProblem(t, r.call("GET", "/api/v1/games?status=finished", "", ""), http.StatusBadRequest, "status")
}

// A person waiting at an open table is here while they follow its event
// stream: opening it marks them (the lobby lists the table again once the
// grace of sitting down is over), and every heartbeat moves the mark on.
// A spectator's stream, and a player's stream of a game being played,
// write nothing.
func TestFollowingAnOpenTableKeepsItsPlayerHere(t *testing.T) {
	r := newGamesRig(t)
	r.d.Hub.heartbeat = 50 * time.Millisecond
	active, alice, _ := startedGame(t, r, 0)
	_, carol := r.user("carol", false)
	_, dave := r.user("dave", false)
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close) // after the streams' cleanups have hung up
	open := func(tok string) string {
		rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"teams":2,"seats":[{"user":"me"},{"open":true}]}`, tok)
		if rec.Code != http.StatusCreated {
			t.Fatalf("create: %d %s", rec.Code, rec.Body)
		}
		return decode[gameResponse](t, rec).ID
	}
	table, carols := open(alice), open(carol)
	// Every grace of sitting down over: nobody here.
	if err := r.db.Gorm.Exec("UPDATE game_seats SET here_until = NULL").Error; err != nil {
		t.Fatal(err)
	}
	lobby := func() string { return r.call("GET", "/api/v1/games?status=open", "", "").Body.String() }
	if l := lobby(); strings.Contains(l, table) {
		t.Fatalf("the lobby offers alice's table before she follows it: %s", l)
	}
	hereUntil := func(gameID string) *time.Time {
		t.Helper()
		var until sql.NullTime
		if err := r.db.Gorm.Raw("SELECT max(here_until) FROM game_seats WHERE game_id = ?", gameID).Row().Scan(&until); err != nil {
			t.Fatal(err)
		}
		if !until.Valid {
			return nil
		}
		return &until.Time
	}
	// waitFor polls for a second: the mark is written after the frame.
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within a second", what)
			}
		}
	}

	_, stream := openEvents(t, srv, table, alice, "")
	if ev := nextEvent(t, stream); ev != "state" {
		t.Fatalf("first event %q, want state", ev)
	}
	waitFor("alice marked here", func() bool { u := hereUntil(table); return u != nil && u.After(time.Now()) })
	first := *hereUntil(table)
	if l := lobby(); !strings.Contains(l, table) {
		t.Fatalf("the lobby leaves out the table alice follows: %s", l)
	}
	if line, err := stream.ReadString('\n'); err != nil || !strings.HasPrefix(line, ": heartbeat") {
		t.Fatalf("alice's stream: %q, %v; want a heartbeat", line, err)
	}
	waitFor("the mark moved on at the heartbeat", func() bool { return hereUntil(table).After(first) })

	_, spectator := openEvents(t, srv, carols, dave, "")
	_, player := openEvents(t, srv, active, alice, "")
	nextEvent(t, spectator)
	nextEvent(t, player)
	time.Sleep(3 * r.d.Hub.heartbeat)
	if u := hereUntil(carols); u != nil {
		t.Errorf("a spectator's stream marked the table's player here until %v", u)
	}
	if u := hereUntil(active); u != nil {
		t.Errorf("a stream of a game being played marked its player here until %v", u)
	}
}

// wantStreamEnded reads stream to its end, failing if it is still open 5 s
// later: name's stream should have been closed after what happened.
func wantStreamEnded(t *testing.T, stream io.Reader, name, after string) {
	t.Helper()
	ended := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, stream)
		ended <- err
	}()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s stream was still open 5 s after %s", name, after)
	}
}

// A stream opened with a session's access token ends, at its next
// heartbeat, once that session signs out; another session's keeps going.
func TestAStreamEndsWhenItsSessionSignsOut(t *testing.T) {
	r := newGamesRig(t)
	r.d.Hub.heartbeat = 50 * time.Millisecond
	id, _, bob := startedGame(t, r, 0)
	alice := decode[tokenResponse](t, r.login("alice", "password-alice"))
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close)
	_, aliceStream := openEvents(t, srv, id, alice.AccessToken, "0")
	_, bobStream := openEvents(t, srv, id, bob, "0")
	if rec := r.call("POST", "/api/v1/auth/logout", `{"refresh_token":"`+alice.RefreshToken+`"}`, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("logout = %d %s", rec.Code, rec.Body)
	}
	wantStreamEnded(t, aliceStream, "alice's", "her session signed out")
	for {
		line, err := bobStream.ReadString('\n')
		if err != nil {
			t.Fatalf("bob's stream ended (%v); want it still beating", err)
		}
		if strings.HasPrefix(line, ": heartbeat") {
			break
		}
	}
}

// An open table called off (its last person left) can no longer change:
// its watchers' streams got a seat event saying aborted and stayed open,
// and so did every stream opened on it afterwards, each holding one of its
// client's streams for as long as the page stayed open. Each now gets the
// end and closes, live or opened afterwards, resumed or not.
func TestAnAbortedTablesStreamsEnd(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	_, dave := r.user("dave", false)
	rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`, alice)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	id := decode[gameResponse](t, rec).ID
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close)
	_, watching := openEvents(t, srv, id, dave, "")
	if ev := nextEvent(t, watching); ev != "state" {
		t.Fatalf("first event %q, want state", ev)
	}
	if rec := r.call("POST", "/api/v1/games/"+id+"/leave", "", alice); rec.Code != http.StatusOK {
		t.Fatalf("leave: %d %s", rec.Code, rec.Body)
	}
	wantEnd := func(name string, body *bufio.Reader) {
		t.Helper()
		ev, data := readEvent(t, body)
		var d struct {
			Kind string           `json:"kind"`
			View gameViewResponse `json:"view"`
		}
		if err := json.Unmarshal([]byte(data), &d); err != nil {
			t.Fatalf("%s: %s %q: %v", name, ev, data, err)
		}
		if ev != "end" || d.Kind != "end" || d.View.Status != "aborted" {
			t.Fatalf("%s: %s event (kind %q) with status %q; want end, aborted", name, ev, d.Kind, d.View.Status)
		}
		wantStreamEnded(t, body, name, "the end of a game that can no longer change")
	}
	wantEnd("the watcher's stream", watching)
	// Past the limit of streams, a stream of a game that can no longer
	// change is still answered: it holds none.
	r.d.Hub.LimitStreams(1)
	rec = r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`, alice)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	open := decode[gameResponse](t, rec).ID
	_, held := openEvents(t, srv, open, dave, "")
	if ev := nextEvent(t, held); ev != "state" {
		t.Fatalf("the open table's stream began with %q, want state", ev)
	}
	for _, last := range []string{"", "0"} {
		for name, tok := range map[string]string{"alice's": alice, "dave's": dave, "a signed-out viewer's": ""} {
			_, body := openEvents(t, srv, id, tok, last)
			wantEnd(fmt.Sprintf("%s stream opened afterwards (Last-Event-ID %q)", name, last), body)
		}
	}
}

// A finished casual game's page waits for a rematch over its stream, so
// the stream stays open after the end however it was opened: a new one
// (state) and one resumed from a ply (the missed moves, then end) both hear
// the rematch. A finished game no rematch can follow (a tournament's) can
// no longer change: its stream ends after the end, however opened.
func TestAFinishedGamesStreamLastsWhileARematchMayCome(t *testing.T) {
	r := newGamesRig(t)
	id, alice, bob := startedGame(t, r, 3)
	r.drawByHand(t, id)
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close)
	_, fresh := openEvents(t, srv, id, bob, "")
	if ev := nextEvent(t, fresh); ev != "state" {
		t.Fatalf("a new stream's first event %q, want state", ev)
	}
	_, resumed := openEvents(t, srv, id, bob, "3")
	if ev := nextEvent(t, resumed); ev != "end" {
		t.Fatalf("a resumed stream's first event %q, want end", ev)
	}
	if rec := r.call("POST", "/api/v1/games/"+id+"/rematch", "", alice); rec.Code != http.StatusOK {
		t.Fatalf("rematch: %d %s", rec.Code, rec.Body)
	}
	for name, body := range map[string]*bufio.Reader{"the new stream": fresh, "the resumed stream": resumed} {
		if ev := nextEvent(t, body); ev != "rematch" {
			t.Fatalf("%s: %q after the rematch was asked for, want rematch", name, ev)
		}
	}

	// A game nobody created (a tournament's) has no rematch.
	rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"bot":"random"}]}`, alice)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	other := decode[gameResponse](t, rec).ID
	r.drawByHand(t, other, "created_by = NULL")
	for _, last := range []string{"", "0"} {
		_, body := openEvents(t, srv, other, bob, last)
		if ev := nextEvent(t, body); ev != "end" {
			t.Fatalf("Last-Event-ID %q: a finished tournament game's stream began with %q, want end", last, ev)
		}
		wantStreamEnded(t, body, fmt.Sprintf("a finished tournament game's (Last-Event-ID %q)", last), "its end")
	}
}

// drawByHand ends a game in its row, drawn (with also's assignments too):
// playing one to its end takes a hundred moves, and what the tests read of
// a finished game is its row's status and result.
func (r *rig) drawByHand(t *testing.T, gameID string, also ...string) {
	t.Helper()
	set := append([]string{"status = 'finished'", "result_status = 'drawn'", "finished_at = now()",
		"turn_deadline = NULL", "revision = revision + 1"}, also...)
	if err := r.db.Gorm.Exec("UPDATE games SET "+strings.Join(set, ", ")+" WHERE id = ?", gameID).Error; err != nil {
		t.Fatal(err)
	}
}

// A player of a game being played is away, to the others, while no
// stream of theirs follows it (once its first seconds are over); opening
// one marks their seat seen, and the others' streams are told at once by a
// seat event whose view no longer says away. Their own first view does not
// call them away either. Hidden information is as before: the away mark
// carries no hand.
func TestAPlayersStreamBackIsToldToTheOthers(t *testing.T) {
	r := newGamesRig(t)
	id, alice, bob := startedGame(t, r, 0)
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close) // after the streams' cleanups have hung up
	// The game started a minute ago, and nobody has followed it since.
	if err := r.db.Gorm.Exec("UPDATE games SET started_at = now() - interval '1 minute' WHERE id = ?", id).Error; err != nil {
		t.Fatal(err)
	}
	away := func(data string) map[int]bool {
		t.Helper()
		var ev struct {
			View struct {
				Seats []struct {
					Seat int  `json:"seat"`
					Away bool `json:"away"`
				} `json:"seats"`
				State struct {
					Seat int               `json:"seat"`
					Hand []json.RawMessage `json:"hand"`
				} `json:"state"`
			} `json:"view"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatal(err)
		}
		if len(ev.View.State.Hand) == 0 {
			t.Fatalf("a player's view with no hand: %s", data)
		}
		got := map[int]bool{}
		for _, s := range ev.View.Seats {
			if s.Away {
				got[s.Seat] = true
			}
		}
		return got
	}

	_, alices := openEvents(t, srv, id, alice, "")
	name, data := readEvent(t, alices)
	if got := away(data); name != "state" || !got[1] || got[0] {
		t.Fatalf("alice's first event: %s, seats %v away; want state, bob's (1) alone", name, got)
	}
	var seen sql.NullTime
	if err := r.db.Gorm.Raw("SELECT seen_until FROM game_seats WHERE game_id = ? AND seat = 0", id).Row().Scan(&seen); err != nil || !seen.Valid || !seen.Time.After(time.Now()) {
		t.Fatalf("alice's seat seen until %v (%v); want a time to come", seen, err)
	}

	_, bobs := openEvents(t, srv, id, bob, "")
	name, data = readEvent(t, bobs)
	if got := away(data); name != "state" || len(got) > 0 {
		t.Fatalf("bob's first event: %s, seats %v away; want state, nobody", name, got)
	}
	name, data = readEvent(t, alices)
	if got := away(data); name != "seat" || len(got) > 0 {
		t.Fatalf("alice's next event: %s, seats %v away; want seat, nobody", name, got)
	}
}
