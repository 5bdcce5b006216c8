package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestAStreamOfAGameNamedInCapitalsGetsItsMoves: a game's ID is a UUID,
// which GET /games/{id} takes in either case; a stream opened with the ID
// in capitals was sent the state and then nothing, the game's events going
// to the streams subscribed under its ID as stored.
func TestAStreamOfAGameNamedInCapitalsGetsItsMoves(t *testing.T) {
	r := newGamesRig(t)
	id, alice, bob := startedGame(t, r, 0)
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close)
	_, body := openEvents(t, srv, strings.ToUpper(id), bob, "")
	if name := nextEvent(t, body); name != "state" {
		t.Fatalf("first event %q, want state", name)
	}
	v := decode[gameViewResponse](t, r.call("GET", "/api/v1/games/"+id, "", alice))
	move := fmt.Sprintf(`{"ply":0,"move":%q,"move_id":"m0"}`, v.LegalMoves[0])
	if rec := r.call("POST", "/api/v1/games/"+id+"/moves", move, alice); rec.Code != http.StatusOK {
		t.Fatalf("move: %d %s", rec.Code, rec.Body)
	}
	if name := nextEvent(t, body); name != "move" {
		t.Fatalf("event after the move %q, want move", name)
	}
}
