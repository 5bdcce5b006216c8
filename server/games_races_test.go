package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// raceCalls makes the calls at once, released together, and returns
// their answers in order.
func raceCalls(r *rig, calls []func() *httptest.ResponseRecorder) []*httptest.ResponseRecorder {
	out := make([]*httptest.ResponseRecorder, len(calls))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, call := range calls {
		wg.Go(func() {
			<-start
			out[i] = call()
		})
	}
	close(start)
	wg.Wait()
	return out
}

// Requests racing for one table over HTTP, ten joins for its last seats
// while its creator gives one to a bot and starts it, then the player to
// move sending one move a dozen times at once (a retrying client) and two
// other moves: every answer is a success or a refusal that says why
// (409, 422), never a 5xx; one move is played, and every send of the
// resent move is answered alike (the game after it, or a 409 when another
// move came first).
func TestRequestsRacingForOneTableAreAnsweredWithoutAServerError(t *testing.T) {
	r := newGamesRig(t)
	aliceID, alice := r.user("alice", false)
	tokens := map[string]string{aliceID: alice}
	rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":3,"teams":3,"seats":[{"user":"me"},{"open":true},{"open":true}]}`, alice)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	g := decode[gameResponse](t, rec)
	var calls []func() *httptest.ResponseRecorder
	for i := range 10 {
		id, tok := r.user(fmt.Sprintf("joiner%d", i), false)
		tokens[id] = tok
		calls = append(calls, func() *httptest.ResponseRecorder { return r.call("POST", "/api/v1/games/"+g.ID+"/join", "", tok) })
	}
	calls = append(calls,
		func() *httptest.ResponseRecorder {
			return r.call("PUT", "/api/v1/games/"+g.ID+"/seats/2", `{"bot":"random"}`, alice)
		},
		func() *httptest.ResponseRecorder { return r.call("POST", "/api/v1/games/"+g.ID+"/start", "", alice) })
	joined := 0
	for i, rec := range raceCalls(r, calls) {
		switch {
		case rec.Code == http.StatusOK:
			if i < 10 {
				joined++
			}
		case rec.Code == http.StatusConflict || rec.Code == http.StatusUnprocessableEntity:
		default:
			t.Fatalf("call %d of the race for the table: %d %s", i, rec.Code, rec.Body)
		}
	}
	view := decode[gameViewResponse](t, r.call("GET", "/api/v1/games/"+g.ID, "", alice))
	if view.Status != "active" || joined < 1 || joined > 2 {
		t.Fatalf("after the race: game %s, %d joins answered 200; want it started with 1 or 2", view.Status, joined)
	}
	var mover string
	for _, s := range view.Seats {
		if s.User != nil && view.TurnSeat != nil && s.Seat == *view.TurnSeat && s.Bot == "" {
			mover = tokens[s.User.ID]
		}
	}
	if mover == "" {
		t.Fatalf("no person to move at ply 0: turn seat %v, seats %+v; want alice, in seat 0", view.TurnSeat, view.Seats)
	}
	mine := decode[gameViewResponse](t, r.call("GET", "/api/v1/games/"+g.ID, "", mover))
	calls = calls[:0]
	for i := range 14 {
		body := fmt.Sprintf(`{"ply":0,"move":%q,"move_id":"same"}`, mine.LegalMoves[0])
		if i >= 12 {
			body = fmt.Sprintf(`{"ply":0,"move":%q,"move_id":"other-%d"}`, mine.LegalMoves[(i-11)%len(mine.LegalMoves)], i)
		}
		calls = append(calls, func() *httptest.ResponseRecorder { return r.call("POST", "/api/v1/games/"+g.ID+"/moves", body, mover) })
	}
	sameAnswered := map[int]int{}
	othersPlayed := 0
	for i, rec := range raceCalls(r, calls) {
		switch {
		case i < 12 && rec.Code == http.StatusOK:
			if v := decode[gameViewResponse](t, rec); v.Ply != 1 {
				t.Fatalf("send %d of the move answered at ply %d; want 1", i, v.Ply)
			}
			sameAnswered[rec.Code]++
		case i < 12 && rec.Code == http.StatusConflict:
			sameAnswered[rec.Code]++ // another move was played first
		case i >= 12 && rec.Code == http.StatusOK:
			othersPlayed++
		case i >= 12 && rec.Code == http.StatusConflict:
		default:
			t.Fatalf("move %d: %d %s", i, rec.Code, rec.Body)
		}
	}
	moves := decode[struct{ Moves []moveResponse }](t, r.call("GET", "/api/v1/games/"+g.ID+"/moves", "", alice)).Moves
	want := "one of the others"
	if othersPlayed == 0 {
		want = mine.LegalMoves[0]
	}
	if len(sameAnswered) != 1 || othersPlayed+min(sameAnswered[http.StatusOK], 1) != 1 || len(moves) != 1 ||
		othersPlayed == 0 && moves[0].Move != want {
		t.Fatalf("the move sent a dozen times answered %v, the two others played %d times; moves stored %+v; want %s played once, and every send of the move answered alike",
			sameAnswered, othersPlayed, moves, want)
	}
}
