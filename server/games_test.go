package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/postgres"
)

// The games rig: the accounts rig with the game service on the same
// database. Events and tasks go nowhere: these tests play no timers or bots.
func newGamesRig(t *testing.T) *rig {
	t.Helper()
	return newGamesRigWith(t, postgres.GameConfig{})
}

// newGamesRigWith is newGamesRig with the game service's configuration.
func newGamesRigWith(t *testing.T, cfg postgres.GameConfig) *rig {
	t.Helper()
	r := newRig(t)
	bus := &hubBus{}
	games := postgres.NewGames(r.db, bus, discardTasks{}, cfg, quietLogger)
	r.d.Games = games
	r.d.Hub = NewHub(games, quietLogger)
	bus.hub = r.d.Hub
	t.Cleanup(r.d.Hub.Close)
	r.d.Metrics = prometheus.NewRegistry() // the first server registered its metrics on the rig's
	r.e = New(r.d)
	return r
}

// hubBus is the bus of one process: every event goes to its hub, as
// league/redisbus brings every instance's events to its hub.
type hubBus struct{ hub *Hub }

func (b *hubBus) Publish(_ context.Context, ev league.GameEvent) error {
	b.hub.Deliver(ev)
	return nil
}

type discardTasks struct{}

func (discardTasks) TurnTimeout(context.Context, string, int, time.Time) error { return nil }
func (discardTasks) BotMove(context.Context, string, int, time.Duration) error { return nil }
func (discardTasks) StartGame(context.Context, string, time.Time) error        { return nil }
func (discardTasks) Settle(context.Context, string) error                      { return nil }

func TestCreatingAGameSeatsNoPersonButTheCaller(t *testing.T) {
	r := newGamesRig(t)
	aliceID, alice := r.user("alice", false)
	daveID, _ := r.user("dave", false)
	rec := r.call("POST", "/api/v1/games", fmt.Sprintf(`{"game":"sequence","players":2,"teams":2,"rated":true,
		"max_timeouts":1,"clock":{"turn_seconds":1},"seats":[{"user":%q},{"bot":"greedy"}]}`, daveID), alice)
	p := wantProblem(t, rec, http.StatusForbidden, "seats[0].user")
	if !strings.Contains(p.Errors[0].Message, "open") {
		t.Errorf("message %q does not say to leave the seat open", p.Errors[0].Message)
	}
	if n := r.count("games"); n != 0 {
		t.Fatalf("%d games stored after the refusal, want 0", n)
	}
	for _, me := range []string{"me", aliceID} {
		rec := r.call("POST", "/api/v1/games", fmt.Sprintf(`{"game":"sequence","players":2,"teams":2,"rated":true,
			"seats":[{"user":%q},{"open":true}]}`, me), alice)
		if rec.Code != http.StatusCreated {
			t.Fatalf("seating oneself as %q: %d %s", me, rec.Code, rec.Body)
		}
		g := decode[gameResponse](t, rec)
		if g.Seats[0].User == nil || g.Seats[0].User.ID != aliceID {
			t.Fatalf("seat 0 = %+v, want alice", g.Seats[0])
		}
	}
}

func TestCreatingAGameNamesTheFieldAtFault(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	for _, tc := range []struct {
		name, body string
		players    int
		field      string
	}{
		{"an unknown variant", `"game":"sequence","variant":"weird","teams":2`, 2, "variant"},
		{"a negative sequences_to_win", `"game":"sequence","teams":2,"sequences_to_win":-1`, 2, "sequences_to_win"},
		{"a negative play_cap", `"game":"sequence","teams":2,"play_cap":-1`, 2, "play_cap"},
		{"a variant for Stacks", `"game":"stacks","variant":"bordered"`, 2, "variant"},
		{"no teams where the rules allow two counts", `"game":"sequence"`, 6, "teams"},
		{"a rated game among bots alone", `"game":"sequence","teams":2,"rated":true`, 2, "rated"},
		{"a negative turn", `"game":"sequence","teams":2,"clock":{"turn_seconds":-1}`, 2, "clock.turn_seconds"},
		{"a turn of 2^31 seconds", `"game":"sequence","teams":2,"clock":{"turn_seconds":2147483648}`, 2, "clock.turn_seconds"},
		{"a bank of over a week", `"game":"sequence","teams":2,"clock":{"bank_seconds":604801}`, 2, "clock.bank_seconds"},
		{"an increment of over an hour", `"game":"sequence","teams":2,"clock":{"bank_seconds":60,"increment_seconds":3601}`, 2, "clock.increment_seconds"},
		{"a turn clock and a bank", `"game":"sequence","teams":2,"clock":{"turn_seconds":10,"bank_seconds":10}`, 2, "clock"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seats := strings.Repeat(`{"bot":"random"},`, tc.players)
			body := fmt.Sprintf(`{%s,"players":%d,"seats":[%s]}`, tc.body, tc.players, strings.TrimSuffix(seats, ","))
			rec := r.call("POST", "/api/v1/games", body, alice)
			p := wantProblem(t, rec, http.StatusBadRequest, tc.field)
			if len(p.Errors) != 1 {
				t.Errorf("errors = %+v; want only %s", p.Errors, tc.field)
			}
		})
	}
	// Two players leave the rules one team count: it may go unsaid.
	rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"bot":"random"}]}`, alice)
	if rec.Code != http.StatusCreated {
		t.Fatalf("two players without teams: %d %s", rec.Code, rec.Body)
	}
	if g := decode[gameResponse](t, rec); g.Teams != 2 {
		t.Fatalf("teams = %d, want 2", g.Teams)
	}
}

// Thousands of seats are refused by their count, not with an error for
// each: a 64 KB body of {} must not answer half a megabyte of problems.
func TestThousandsOfSeatsAreRefusedByTheirCount(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	for _, seat := range []string{`{}`, `{"bot":"godlike"}`, `{"open":true}`} {
		body := `{"game":"sequence","players":2,"seats":[` + strings.TrimSuffix(strings.Repeat(seat+",", 3000), ",") + `]}`
		p := wantProblem(t, r.call("POST", "/api/v1/games", body, alice), http.StatusBadRequest, "seats")
		if len(p.Errors) > 13 {
			t.Errorf("3000 seats of %s: %d errors; want the count named and at most a table's seats", seat, len(p.Errors))
		}
	}
	if n := r.count("games"); n != 0 {
		t.Errorf("%d games stored, want 0", n)
	}
}

func TestAMoveForAPlyNotYetReachedSaysWhereTheGameIs(t *testing.T) {
	r := newGamesRig(t)
	id, alice, _ := startedGame(t, r, 0)
	v := decode[gameViewResponse](t, r.call("GET", "/api/v1/games/"+id, "", alice))
	if len(v.LegalMoves) == 0 {
		t.Fatalf("alice has no legal move at ply %d", v.Ply)
	}
	rec := r.call("POST", "/api/v1/games/"+id+"/moves", fmt.Sprintf(`{"ply":1,"move":%q}`, v.LegalMoves[0]), alice)
	p := wantProblem(t, rec, http.StatusConflict, "")
	if !strings.Contains(p.Detail, "only at ply 0") || strings.Contains(p.Detail, "already been played") {
		t.Errorf("detail = %q; want it to say the game is only at ply 0", p.Detail)
	}
	if body := decode[map[string]any](t, rec); body["ply"] != float64(0) {
		t.Errorf("ply member = %v, want 0", body["ply"])
	}
}

// A move the engine refuses, in notation it cannot read or illegal where
// the game stands, is the 422 with the engine's reason, naming move; one
// missing or longer than any move is the 400 naming it.
func TestAMoveTheEngineRefusesNamesTheMove(t *testing.T) {
	r := newGamesRig(t)
	id, alice, _ := startedGame(t, r, 0)
	for _, move := range []string{"7H@z99", "abc\u202edef", "pass", "JSxe5"} {
		rec := r.call("POST", "/api/v1/games/"+id+"/moves", fmt.Sprintf(`{"ply":0,"move":"%s"}`, move), alice)
		p := wantProblem(t, rec, http.StatusUnprocessableEntity, "move")
		if !strings.Contains(p.Detail, "illegal move") || p.Errors[0].Message == "" || strings.Contains(p.Errors[0].Message, "illegal move") {
			t.Errorf("%s: detail %q, errors %+v; want the reason once in each", move, p.Detail, p.Errors)
		}
	}
	for move, says := range map[string]string{"": "required", strings.Repeat("7H@e5", 20): "at most 64"} {
		p := wantProblem(t, r.call("POST", "/api/v1/games/"+id+"/moves", fmt.Sprintf(`{"ply":0,"move":%q}`, move), alice), http.StatusBadRequest, "move")
		if !strings.Contains(p.Errors[0].Message, says) {
			t.Errorf("a move of %d characters: %q; want it to say %q", len(move), p.Errors[0].Message, says)
		}
	}
	if rec := r.call("GET", "/api/v1/games/"+id+"/moves", "", alice); !strings.Contains(rec.Body.String(), `"moves":[]`) {
		t.Errorf("moves after the refusals: %s; want none", rec.Body)
	}
}

// Joining a seat by number: one taken is the 409 naming seat, one the game
// does not have the 400 naming it (before the game starts or after); neither
// seats the caller.
func TestJoiningASeatThatIsTakenOrMissingNamesTheSeat(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	_, bob := r.user("bob", false)
	rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`, alice)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	id := decode[gameResponse](t, rec).ID
	for _, tc := range []struct {
		body   string
		status int
	}{
		{`{"seat":0}`, http.StatusConflict}, {`{"seat":2}`, http.StatusBadRequest},
		{`{"seat":-1}`, http.StatusBadRequest}, {`{"seat":2147483648}`, http.StatusBadRequest},
	} {
		wantProblem(t, r.call("POST", "/api/v1/games/"+id+"/join", tc.body, bob), tc.status, "seat")
	}
	if g := decode[gameResponse](t, r.call("GET", "/api/v1/games/"+id, "", bob)); g.Status != "open" || !g.Seats[1].Open {
		t.Errorf("after the refusals: %s, seat 1 %+v; want it open", g.Status, g.Seats[1])
	}
	// A seat number no game has is the request's fault once the game has
	// started too, not the game's state.
	if rec := r.call("POST", "/api/v1/games/"+id+"/join", `{"seat":1}`, bob); rec.Code != http.StatusOK {
		t.Fatalf("bob joins seat 1: %d %s", rec.Code, rec.Body)
	}
	_, carol := r.user("carol", false)
	wantProblem(t, r.call("POST", "/api/v1/games/"+id+"/join", `{"seat":-1}`, carol), http.StatusBadRequest, "seat")
}

// ?after= is any whole number: past the largest ply there is (the store's
// int4) it lists no moves, below -1 every move, and neither is a 500.
func TestMovesAfterAPlyBeyondAnyGameAreNoneNotAnError(t *testing.T) {
	r := newGamesRig(t)
	id, alice, _ := startedGame(t, r, 2)
	for _, tc := range []struct {
		after string
		moves int
	}{
		{"1", 0}, {"0", 1}, {"2147483647", 0}, {"2147483648", 0}, {"9223372036854775807", 0},
		{"-1", 2}, {"-2147483649", 2}, {"-9223372036854775808", 2},
	} {
		rec := r.call("GET", "/api/v1/games/"+id+"/moves?after="+tc.after, "", alice)
		if rec.Code != http.StatusOK {
			t.Errorf("?after=%s: %d %s", tc.after, rec.Code, rec.Body)
			continue
		}
		if got := decode[struct{ Moves []moveResponse }](t, rec).Moves; len(got) != tc.moves {
			t.Errorf("?after=%s: %d moves, want %d", tc.after, len(got), tc.moves)
		}
	}
}

// A game a round's deadline adjudicated says so, in the game and in its
// archive, whose final_state (the engine's position) shows it unfinished;
// nobody is to move in it.
func TestAnAdjudicatedGameSaysItWasAdjudicated(t *testing.T) {
	r := newGamesRig(t)
	id, alice, _ := startedGame(t, r, 0)
	if body := decode[map[string]any](t, r.call("GET", "/api/v1/games/"+id, "", alice)); body["ended_by"] != nil {
		t.Fatalf("a game being played has ended_by %v; want none", body["ended_by"])
	}
	if err := r.d.Games.(*postgres.Games).Adjudicate(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	game := decode[map[string]any](t, r.call("GET", "/api/v1/games/"+id, "", alice))
	if game["status"] != "finished" || game["ended_by"] != "adjudication" {
		t.Fatalf("adjudicated game: status %v, ended_by %v; want finished, adjudication", game["status"], game["ended_by"])
	}
	// The engine still has a seat to move; the game has nobody.
	if toMove, ok := game["to_move"].([]any); !ok || len(toMove) != 0 || game["legal_moves"] != nil {
		t.Fatalf("adjudicated game: to_move %v, legal_moves %v; want [] and none", game["to_move"], game["legal_moves"])
	}
	rec := r.call("GET", "/api/v1/games/"+id+"/archive", "", "")
	if rec.Code != http.StatusOK {
		t.Fatalf("archive: %d %s", rec.Code, rec.Body)
	}
	archive := decode[struct {
		Game map[string]any `json:"game"`
	}](t, rec)
	if archive.Game["ended_by"] != "adjudication" {
		t.Fatalf("archive's game: ended_by %v; want adjudication", archive.Game["ended_by"])
	}
}

// A user's games page like every other list: items and next_cursor.
func TestAUsersGamesArePagedLikeEveryList(t *testing.T) {
	r := newGamesRig(t)
	aliceID, alice := r.user("alice", false)
	for range 3 {
		if rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`, alice); rec.Code != http.StatusCreated {
			t.Fatalf("create: %d %s", rec.Code, rec.Body)
		}
	}
	type page struct {
		Items      []gameResponse `json:"items"`
		NextCursor string         `json:"next_cursor"`
	}
	path := "/api/v1/users/" + aliceID + "/games?limit=2"
	first := decode[page](t, r.call("GET", path, "", alice))
	if len(first.Items) != 2 || first.NextCursor == "" {
		t.Fatalf("first page: %d items, next_cursor %q; want 2 and a cursor", len(first.Items), first.NextCursor)
	}
	second := decode[page](t, r.call("GET", path+"&cursor="+url.QueryEscape(first.NextCursor), "", alice))
	if len(second.Items) != 1 || second.NextCursor != "" {
		t.Fatalf("second page: %d items, next_cursor %q; want 1 and none", len(second.Items), second.NextCursor)
	}
	seen := map[string]bool{}
	for _, g := range append(first.Items, second.Items...) {
		seen[g.ID] = true
	}
	if len(seen) != 3 {
		t.Fatalf("%d distinct games over both pages, want 3", len(seen))
	}
	// Too small, too large or not a number: one message.
	var said []string
	for _, limit := range []string{"0", "101", "ten"} {
		p := wantProblem(t, r.call("GET", "/api/v1/users/"+aliceID+"/games?limit="+limit, "", alice), http.StatusBadRequest, "limit")
		said = append(said, p.Errors[0].Message)
	}
	if said[0] != said[1] || said[1] != said[2] {
		t.Errorf("limit messages %q; want one wording", said)
	}
}

// A user's games say whose turn it is (turn_seat, null when nobody's),
// and ?to_move=true keeps the games waiting for that user's move.
func TestAUsersGamesSayWhoseTurnItIs(t *testing.T) {
	r := newGamesRig(t)
	id, alice, bob := startedGame(t, r, 1) // alice has moved: bob's turn
	seats := decode[gameResponse](t, r.call("GET", "/api/v1/games/"+id, "", "")).Seats
	aliceID, bobID := seats[0].User.ID, seats[1].User.ID
	if rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`, alice); rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	type page struct {
		Items []map[string]any `json:"items"`
	}
	turns := func(userID, query string) map[string]any {
		t.Helper()
		rec := r.call("GET", "/api/v1/users/"+userID+"/games"+query, "", bob)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s games%s: %d %s", userID, query, rec.Code, rec.Body)
		}
		out := map[string]any{}
		for _, g := range decode[page](t, rec).Items {
			seat, ok := g["turn_seat"]
			if !ok {
				t.Fatalf("game %v has no turn_seat; want it always written", g["id"])
			}
			out[g["id"].(string)] = seat
		}
		return out
	}
	all := turns(aliceID, "")
	if len(all) != 2 || all[id] != 1.0 {
		t.Fatalf("alice's games: turn seats %v; want seat 1 in %s and null in the open game", all, id)
	}
	for g, seat := range all {
		if g != id && seat != nil {
			t.Errorf("the open game %s: turn_seat %v; want null", g, seat)
		}
	}
	if got := turns(bobID, "?to_move=true"); len(got) != 1 || got[id] != 1.0 {
		t.Errorf("bob's games to move: %v; want %s alone", got, id)
	}
	if got := turns(aliceID, "?to_move=true"); len(got) != 0 {
		t.Errorf("alice's games to move: %v; want none", got)
	}
	wantProblem(t, r.call("GET", "/api/v1/users/"+aliceID+"/games?to_move=soon", "", alice), http.StatusBadRequest, "to_move")
	if err := r.d.Games.(*postgres.Games).Adjudicate(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	if got := turns(bobID, ""); got[id] != nil {
		t.Errorf("a finished game: turn_seat %v; want null", got[id])
	}
}

// A creator may leave their own open game; leaving it with no person
// seated cancels it: the answer is the game, aborted.
func TestLeavingAnOpenGameNobodyElseSitsAtAbortsIt(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	_, bob := r.user("bob", false)
	rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":3,"teams":3,"seats":[{"user":"me"},{"bot":"random"},{"open":true}]}`, alice)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	id := decode[gameResponse](t, rec).ID
	wantProblem(t, r.call("POST", "/api/v1/games/"+id+"/leave", "", bob), http.StatusUnprocessableEntity, "")
	rec = r.call("POST", "/api/v1/games/"+id+"/leave", "", alice)
	if rec.Code != http.StatusOK {
		t.Fatalf("the creator leaving: %d %s", rec.Code, rec.Body)
	}
	if game := decode[map[string]any](t, rec); game["status"] != "aborted" || game["ended_by"] != "abort" {
		t.Fatalf("after the creator left alone: status %v, ended_by %v; want aborted, abort", game["status"], game["ended_by"])
	}
	wantProblem(t, r.call("POST", "/api/v1/games/"+id+"/join", "", bob), http.StatusUnprocessableEntity, "")
}

// "Cancel the game" sends only_if_open: a join that started the game first
// leaves the creator seated in it (409 naming only_if_open), where a plain
// leave would hand their seat to a fill-in bot as abandoned. On a table
// still open it leaves as a plain leave does.
func TestLeavingOnlyIfOpenLeavesAStartedGameAlone(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	_, bob := r.user("bob", false)
	table := func() string {
		rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`, alice)
		if rec.Code != http.StatusCreated {
			t.Fatalf("create: %d %s", rec.Code, rec.Body)
		}
		return decode[gameResponse](t, rec).ID
	}
	started := table()
	if rec := r.call("POST", "/api/v1/games/"+started+"/join", "", bob); rec.Code != http.StatusOK {
		t.Fatalf("bob joining: %d %s", rec.Code, rec.Body)
	}
	wantProblem(t, r.call("POST", "/api/v1/games/"+started+"/leave", `{"only_if_open":true}`, alice), http.StatusConflict, "only_if_open")
	rec := r.call("GET", "/api/v1/games/"+started, "", alice)
	view := decode[map[string]any](t, rec)
	if view["status"] != "active" || view["your_seat"] != 0.0 {
		t.Fatalf("after the refused leave: status %v, your_seat %v; want active, alice at seat 0", view["status"], view["your_seat"])
	}
	for _, s := range view["seats"].([]any) {
		if seat := s.(map[string]any); seat["abandoned"] == true || seat["filled_by_bot"] == true {
			t.Fatalf("a seat after the refused leave: %v; want nobody handed to a bot", seat)
		}
	}
	open := table()
	rec = r.call("POST", "/api/v1/games/"+open+"/leave", `{"only_if_open":true}`, alice)
	if game := decode[map[string]any](t, rec); rec.Code != http.StatusOK || game["status"] != "aborted" {
		t.Fatalf("cancelling an open table: %d %v; want it aborted", rec.Code, game["status"])
	}
	wantProblem(t, r.call("POST", "/api/v1/games/"+open+"/leave", `{"only_if_open":"yes"}`, alice), http.StatusBadRequest, "only_if_open")
}

// Every viewer of a game reads why a seat was abandoned: alice left, so
// her seat says "left"; bob's, which nobody abandoned, says nothing. The
// web app had to tell alice it was because she left, timed out or (in a
// tournament) never came.
func TestAnAbandonedSeatSaysWhy(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	_, bob := r.user("bob", false)
	id := created(t, r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`, alice))
	if rec := r.call("POST", "/api/v1/games/"+id+"/join", "", bob); rec.Code != http.StatusOK {
		t.Fatalf("bob joining: %d %s", rec.Code, rec.Body)
	}
	if rec := r.call("POST", "/api/v1/games/"+id+"/leave", "", alice); rec.Code != http.StatusOK {
		t.Fatalf("alice leaving: %d %s", rec.Code, rec.Body)
	}
	seats := decode[map[string]any](t, r.call("GET", "/api/v1/games/"+id, "", bob))["seats"].([]any)
	aliceSeat, bobSeat := seats[0].(map[string]any), seats[1].(map[string]any)
	if aliceSeat["abandoned"] != true || aliceSeat["abandoned_why"] != "left" {
		t.Fatalf("alice's seat as bob reads it: %v; want abandoned, abandoned_why left", aliceSeat)
	}
	if _, ok := bobSeat["abandoned_why"]; ok || bobSeat["abandoned"] != false {
		t.Fatalf("bob's seat: %v; want not abandoned, no abandoned_why", bobSeat)
	}
}

func TestGameSettingsTheGameDoesNotHaveAreRefused(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	for _, tc := range []struct{ name, settings, field string }{
		{"a block window in Sequence", `"block_window_seconds":10`, "block_window_seconds"},
		{"a start in year 9999", `"scheduled_start":"9999-12-31T23:59:59Z"`, "scheduled_start"},
	} {
		body := `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}],` + tc.settings + `}`
		wantProblem(t, r.call("POST", "/api/v1/games", body, alice), http.StatusBadRequest, tc.field)
	}
	if n := r.count("games"); n != 0 {
		t.Fatalf("%d games stored", n)
	}
}

// A time sent with an offset is answered in UTC, as every time of the API
// is: creating a scheduled game answered its scheduled_start back with the
// client's +05:00.
func TestATimeSentWithAnOffsetIsAnsweredInUTC(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	start := time.Now().Add(time.Hour).Truncate(time.Second)
	rec := r.call("POST", "/api/v1/games", fmt.Sprintf(`{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}],
		"scheduled_start":%q}`, start.In(time.FixedZone("", 5*3600)).Format(time.RFC3339)), alice)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	want := start.UTC().Format(time.RFC3339)
	if got := decode[struct {
		ScheduledStart string `json:"scheduled_start"`
	}](t, rec).ScheduledStart; got != want {
		t.Errorf("scheduled_start = %q, want %q", got, want)
	}
}

// A private game says so, and the lobby leaves it out while its link
// still shows it; a private that is not a boolean is refused by its name.
func TestAPrivateGameIsLeftOutOfTheLobby(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	_, bob := r.user("bob", false)
	rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"private":true,"seats":[{"user":"me"},{"open":true}]}`, alice)
	if rec.Code != http.StatusCreated {
		t.Fatalf("creating a private game: %d %s", rec.Code, rec.Body)
	}
	g := decode[gameResponse](t, rec)
	if !g.Private {
		t.Fatalf("the created game says private = false")
	}
	lobby := decode[listResponse[gameResponse]](t, r.call("GET", "/api/v1/games", "", ""))
	if len(lobby.Items) != 0 {
		t.Fatalf("the lobby lists %d games, want none", len(lobby.Items))
	}
	if v := decode[gameViewResponse](t, r.call("GET", "/api/v1/games/"+g.ID, "", bob)); !v.Private || v.ID != g.ID {
		t.Fatalf("the game by its link = %+v, want it, private", v.gameResponse)
	}
	if rec := r.call("POST", "/api/v1/games/"+g.ID+"/join", "", bob); rec.Code != http.StatusOK {
		t.Fatalf("bob joining by the link: %d %s", rec.Code, rec.Body)
	}
	wantProblem(t, r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"private":"yes","seats":[{"user":"me"},{"open":true}]}`, alice),
		http.StatusBadRequest, "private")
}

// ?club= lists the tables made by the club's members, a page at a time,
// and not an outsider's; a club that does not exist, or an ID that is no
// UUID, is a 404 naming club, as ?club= of the tournaments is; an empty
// ?club= is no filter.
func TestTheLobbyOfAClubListsItsMembersTables(t *testing.T) {
	r := newGamesRig(t)
	_, ann := r.user("ann", false)
	amyID, amy := r.user("amy", false)
	_, ola := r.user("ola", false)
	club := decode[struct{ ID string }](t, r.call("POST", "/api/v1/clubs", `{"name":"Lobby Club"}`, ann)).ID
	if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')", club, amyID).Error; err != nil {
		t.Fatal(err)
	}
	table := func(token string) string {
		t.Helper()
		rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`, token)
		if rec.Code != http.StatusCreated {
			t.Fatalf("create game: %d %s", rec.Code, rec.Body)
		}
		return decode[struct{ ID string }](t, rec).ID
	}
	annTable, olaTable, amyTable := table(ann), table(ola), table(amy)
	first := decode[listResponse[gameResponse]](t, r.call("GET", "/api/v1/games?limit=1&club="+club, "", ""))
	if len(first.Items) != 1 || first.Items[0].ID != amyTable || first.NextCursor == "" {
		t.Fatalf("first page of the club's tables = %+v, want amy's table and a next page", first)
	}
	second := decode[listResponse[gameResponse]](t, r.call("GET", "/api/v1/games?limit=1&club="+club+"&cursor="+url.QueryEscape(first.NextCursor), "", ""))
	if len(second.Items) != 1 || second.Items[0].ID != annTable || second.NextCursor != "" {
		t.Fatalf("second page of the club's tables = %+v, want ann's table and no more", second)
	}
	if all := decode[listResponse[gameResponse]](t, r.call("GET", "/api/v1/games?club=", "", "")); len(all.Items) != 3 || all.Items[1].ID != olaTable {
		t.Fatalf("the lobby with an empty ?club= = %+v, want all three tables", all.Items)
	}
	for _, id := range []string{"7d1c5c0e-3f7a-4c59-9b52-1c0f5b0f2a11", "not-a-uuid"} {
		if p := wantProblem(t, r.call("GET", "/api/v1/games?club="+id, "", ann), http.StatusNotFound, "club"); len(p.Errors) != 1 {
			t.Errorf("?club=%s: errors = %+v, want only club", id, p.Errors)
		}
	}
}

// A seat kept for bob: each refusal names seats[i].for (422 for the
// player named, 400 for a seat that is not open), a stranger's join of
// the seat names seat (409), and bob alone reads his invitation, with
// its creator's name.
func TestASeatKeptForAPlayerIsOfferedToThemAlone(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	bobID, bob := r.user("bob", false)
	_, carol := r.user("carol", false)
	create := func(seat1 string) *httptest.ResponseRecorder {
		return r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},`+seat1+`]}`, alice)
	}
	for seat1, status := range map[string]int{
		`{"open":true,"for":"nobody"}`:   http.StatusUnprocessableEntity,
		`{"open":true,"for":"alice"}`:    http.StatusUnprocessableEntity,
		`{"open":true,"for":"a\u0000b"}`: http.StatusBadRequest, // refused at binding
		`{"bot":"random","for":"bob"}`:   http.StatusBadRequest,
		`{"open":true,"for":5}`:          http.StatusBadRequest,
	} {
		wantProblem(t, create(seat1), status, "seats[1].for")
	}
	if n := r.count("games"); n != 0 {
		t.Fatalf("%d games stored after the refusals, want 0", n)
	}
	rec := create(`{"open":true,"for":"bob"}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("keeping seat 1 for bob: %d %s", rec.Code, rec.Body)
	}
	g := decode[gameResponse](t, rec)
	if s := g.Seats[1]; !s.Open || s.KeptFor == nil || s.KeptFor.Username != "bob" || s.KeptUntil != nil {
		t.Fatalf("seat 1 = %+v, want open and kept for bob with no end", s)
	}
	wantProblem(t, r.call("POST", "/api/v1/games/"+g.ID+"/join", `{"seat":1}`, carol), http.StatusConflict, "seat")
	invited := "/api/v1/users/" + bobID + "/games?invited=true"
	wantProblem(t, r.call("GET", invited, "", carol), http.StatusForbidden, "")
	wantProblem(t, r.call("GET", invited, "", ""), http.StatusUnauthorized, "")
	wantProblem(t, r.call("GET", invited+"&to_move=true", "", bob), http.StatusBadRequest, "invited")
	wantProblem(t, r.call("GET", "/api/v1/users/"+bobID+"/games?invited=maybe", "", bob), http.StatusBadRequest, "invited")
	list := decode[listResponse[gameResponse]](t, r.call("GET", invited, "", bob))
	if len(list.Items) != 1 || list.Items[0].ID != g.ID || list.Items[0].CreatedByName != "alice" {
		t.Fatalf("bob's invitations = %+v, want %s by alice", list.Items, g.ID)
	}
	if rec := r.call("POST", "/api/v1/games/"+g.ID+"/join", "", bob); rec.Code != http.StatusOK || decode[gameResponse](t, rec).Status != league.StatusActive {
		t.Fatalf("bob joining: %d %s", rec.Code, rec.Body)
	}
}

// The creator's seat changes and bob's decline over HTTP: each refusal a
// problem naming its field (the path's seat, the body's user, bot, open or
// for), a stranger's a 403, and the changes in the game answered.
func TestTheCreatorChangesASeatAndTheInviteeDeclines(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	_, bob := r.user("bob", false)
	_, carol := r.user("carol", false)
	rec := r.call("POST", "/api/v1/games", `{"game":"stacks","players":3,"seats":[{"user":"me"},{"open":true,"for":"bob"},{"open":true}]}`, alice)
	if rec.Code != http.StatusCreated {
		t.Fatalf("creating: %d %s", rec.Code, rec.Body)
	}
	g := decode[gameResponse](t, rec)
	seat := func(n, body, token string) *httptest.ResponseRecorder {
		return r.call("PUT", "/api/v1/games/"+g.ID+"/seats/"+n, body, token)
	}
	for _, c := range []struct {
		n, body string
		status  int
		field   string
	}{
		{"x", `{"open":true}`, http.StatusNotFound, "seat"},
		{"-1", `{"open":true}`, http.StatusNotFound, "seat"},
		{"3", `{"open":true}`, http.StatusNotFound, "seat"},
		{"0", `{"open":true}`, http.StatusConflict, "seat"},
		{"2", `{"user":"me"}`, http.StatusBadRequest, "user"},
		{"2", `{}`, http.StatusBadRequest, "open"},
		{"2", `{"bot":"genius"}`, http.StatusBadRequest, "bot"},
		{"2", `{"bot":"greedy","open":true}`, http.StatusBadRequest, "open"},
		{"2", `{"open":true,"for":"nobody"}`, http.StatusUnprocessableEntity, "for"},
		{"2", `{"open":true,"for":"bob"}`, http.StatusUnprocessableEntity, "for"}, // seat 1 is his
		{"2", `{"open":"yes"}`, http.StatusBadRequest, "open"},
	} {
		wantProblem(t, seat(c.n, c.body, alice), c.status, c.field)
	}
	wantProblem(t, seat("2", `{"open":true}`, carol), http.StatusForbidden, "")
	wantProblem(t, seat("2", `{"open":true}`, ""), http.StatusUnauthorized, "")

	rec = seat("2", `{"open":true,"for":"carol"}`, alice)
	if rec.Code != http.StatusOK || decode[gameResponse](t, rec).Seats[2].KeptFor == nil {
		t.Fatalf("keeping seat 2 for carol: %d %s", rec.Code, rec.Body)
	}
	wantProblem(t, r.call("POST", "/api/v1/games/"+g.ID+"/decline", "", alice), http.StatusUnprocessableEntity, "")
	rec = r.call("POST", "/api/v1/games/"+g.ID+"/decline", "", bob)
	if d := decode[gameResponse](t, rec); rec.Code != http.StatusOK || !d.Seats[1].Open || d.Seats[1].KeptFor != nil {
		t.Fatalf("bob declining: %d %s; want seat 1 open to anyone", rec.Code, rec.Body)
	}
	rec = seat("1", `{"bot":"random"}`, alice)
	if d := decode[gameResponse](t, rec); rec.Code != http.StatusOK || d.Seats[1].Bot == "" || d.Status != league.StatusOpen {
		t.Fatalf("a bot in seat 1: %d %s; want seated, the game still waiting for carol", rec.Code, rec.Body)
	}
}

// A move_id sent again with the move it was first sent with is a retry,
// answered as the first send was; sent with another move it was answered
// so too (200), and the move sent was silently never played. It is
// refused, naming move_id.
func TestAMoveIDReusedForAnotherMoveIsRefused(t *testing.T) {
	r := newGamesRig(t)
	id, alice, _ := startedGame(t, r, 1)
	rec := r.call("GET", "/api/v1/games/"+id+"/moves", "", alice)
	moves := decode[struct {
		Moves []struct {
			Move string `json:"move"`
		} `json:"moves"`
	}](t, rec).Moves
	if len(moves) != 1 {
		t.Fatalf("moves: %s", rec.Body)
	}
	again := r.call("POST", "/api/v1/games/"+id+"/moves", fmt.Sprintf(`{"ply":0,"move":%q,"move_id":"m0"}`, moves[0].Move), alice)
	if again.Code != http.StatusOK || decode[gameViewResponse](t, again).Ply != 1 {
		t.Fatalf("the same move sent again: %d %s; want 200 at ply 1", again.Code, again.Body)
	}
	p := wantProblem(t, r.call("POST", "/api/v1/games/"+id+"/moves", `{"ply":0,"move":"0,0","move_id":"m0"}`, alice), http.StatusConflict, "move_id")
	if !strings.Contains(p.Detail, "another move") {
		t.Errorf("detail %q: want it to say the move_id was used for another move", p.Detail)
	}
}

// POST /games/{id}/resign: signed out 401, a stranger 422, a seated player
// 200 with the game over, won by the other side; may_resign in the view.
func TestResigningThroughTheAPI(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	_, bob := r.user("bob", false)
	_, eve := r.user("eve", false)
	id := created(t, r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`, alice))
	if rec := r.call("POST", "/api/v1/games/"+id+"/join", "", bob); rec.Code != http.StatusOK {
		t.Fatalf("bob joining: %d %s", rec.Code, rec.Body)
	}
	if v := decode[map[string]any](t, r.call("GET", "/api/v1/games/"+id, "", bob)); v["may_resign"] != true {
		t.Fatalf("bob's view: may_resign %v, want true", v["may_resign"])
	}
	if v := decode[map[string]any](t, r.call("GET", "/api/v1/games/"+id, "", eve)); v["may_resign"] != nil {
		t.Fatalf("a spectator's view: may_resign %v, want it absent", v["may_resign"])
	}
	wantProblem(t, r.call("POST", "/api/v1/games/"+id+"/resign", "", ""), http.StatusUnauthorized, "")
	rec := r.call("POST", "/api/v1/games/"+id+"/resign", "", eve)
	wantProblem(t, rec, http.StatusUnprocessableEntity, "")
	wantDocumented(t, rec, "POST", "/api/v1/games/{id}/resign", http.StatusUnprocessableEntity)
	rec = r.call("POST", "/api/v1/games/"+id+"/resign", "", bob)
	if rec.Code != http.StatusOK {
		t.Fatalf("bob resigning: %d %s", rec.Code, rec.Body)
	}
	wantDocumented(t, rec, "POST", "/api/v1/games/{id}/resign", http.StatusOK)
	g := decode[map[string]any](t, rec)
	if g["status"] != "finished" || g["ended_by"] != "resign" || g["result"].(map[string]any)["winner"] != 0.0 {
		t.Fatalf("the game bob resigned: status %v, ended_by %v, result %v; want finished by resign, team 0 the winner", g["status"], g["ended_by"], g["result"])
	}
}
