package server

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// A game aborted when its tournament was cancelled kept its archive and
// position closed, yet GET /games/{id} and the stream's end event gave its
// seed: with the public moves, the seed rebuilds every hand and the deck
// at every ply, all that the closed archive keeps back. An aborted game
// now shows its seed's hash only, like one being played.
func TestAnAbortedGameKeepsItsSeedHidden(t *testing.T) {
	r := newCancelRig(t)
	id := r.runningTournament(t)
	gameID := r.gameInPlay(t, id)
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close)
	_, stream := openEvents(t, srv, gameID, "", "")
	if ev := nextEvent(t, stream); ev != "state" {
		t.Fatalf("first event %q; want state", ev)
	}
	if rec := r.call("PATCH", "/api/v1/tournaments/"+id, `{"status":"cancelled"}`, r.organizer); rec.Code != 200 {
		t.Fatalf("cancel: %d %s", rec.Code, rec.Body)
	}
	name, data := readEvent(t, stream)
	if name != "end" || strings.Contains(data, `"seed"`) {
		t.Errorf("the stream's %q event after the cancel: %s; want the end without the seed", name, data)
	}
	for _, who := range []string{"", r.organizer} {
		rec := r.call("GET", "/api/v1/games/"+gameID, "", who)
		if body := rec.Body.String(); rec.Code != 200 || !strings.Contains(body, `"status":"aborted"`) || strings.Contains(body, `"seed"`) ||
			!strings.Contains(body, `"seed_hash"`) {
			t.Errorf("the aborted game: %d %s; want it aborted, with the seed's hash and not the seed", rec.Code, body)
		}
	}
	for _, path := range []string{"/archive", "/vector"} {
		if rec := r.call("GET", "/api/v1/games/"+gameID+path, "", r.organizer); rec.Code != 422 {
			t.Errorf("%s of the aborted game: %d, want 422", path, rec.Code)
		}
	}
}
