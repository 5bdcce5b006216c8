package server

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/postgres"
	"github.com/seqleague/seqleague/workers"
)

// newCancelRig is the competition rig whose games' events reach its own
// hub, as redisbus brings them to every instance's, so that a test can
// watch a tournament game's stream.
func newCancelRig(t *testing.T) *competitionRig {
	t.Helper()
	r := newRig(t)
	bus := &hubBus{}
	games := postgres.NewGames(r.db, bus, discardTasks{}, postgres.GameConfig{}, quietLogger)
	r.d.Games = games
	r.d.Hub = NewHub(games, quietLogger)
	bus.hub = r.d.Hub
	t.Cleanup(r.d.Hub.Close)
	r.d.Leagues = postgres.NewLeagues(r.db)
	r.d.Tournaments = postgres.NewTournaments(r.db, games, workers.NewEnqueuer(r.redis()), quietLogger)
	r.d.Metrics = prometheus.NewRegistry()
	r.e = New(r.d)
	ownerID, owner := r.user("organizer", false)
	club, err := r.clubs.Create(context.Background(), league.Actor{UserID: ownerID}, league.NewClub{Name: "Tournament Club"})
	if err != nil {
		t.Fatal(err)
	}
	return &competitionRig{rig: r, clubID: club.ID, organizer: owner}
}

// gameInPlay is the one game of runningTournament's round 1.
func (r *competitionRig) gameInPlay(t *testing.T, id string) string {
	t.Helper()
	rounds := decode[struct {
		Rounds []struct {
			Matches []struct {
				Games []string `json:"games"`
			} `json:"matches"`
		} `json:"rounds"`
	}](t, r.call("GET", "/api/v1/tournaments/"+id+"/rounds", "", ""))
	if len(rounds.Rounds) != 1 || len(rounds.Rounds[0].Matches) != 1 || len(rounds.Rounds[0].Matches[0].Games) != 1 {
		t.Fatalf("rounds %+v; want one game in play", rounds.Rounds)
	}
	return rounds.Rounds[0].Matches[0].Games[0]
}

// Cancelling a running tournament through the API: refused to someone
// signed out (401) or outside the club (403); done for its organizer (200,
// cancelled, with cancelled_at), whose open stream of the game being
// played gets the game's end, aborted; asked again, or an entry added or
// withdrawn after, a 422 (naming status for the cancel); the calendar
// marks the round not played out cancelled. Every answer is in the API's
// document.
func TestATournamentIsCancelledThroughTheAPI(t *testing.T) {
	r := newCancelRig(t)
	id := r.runningTournament(t)
	gameID := r.gameInPlay(t, id)
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close)
	_, stream := openEvents(t, srv, gameID, r.organizer, "")
	if ev := nextEvent(t, stream); ev != "state" {
		t.Fatalf("first event %q; want state", ev)
	}

	const path = "/api/v1/tournaments/{id}"
	cancel := `{"status":"cancelled"}`
	_, stranger := r.user("stranger", false)
	rec := r.call("PATCH", "/api/v1/tournaments/"+id, cancel, stranger)
	wantDocumented(t, rec, "PATCH", path, 403)
	rec = r.call("PATCH", "/api/v1/tournaments/"+id, cancel, "")
	wantDocumented(t, rec, "PATCH", path, 401)

	before := time.Now().UTC().Truncate(time.Second)
	rec = r.call("PATCH", "/api/v1/tournaments/"+id, cancel, r.organizer)
	wantDocumented(t, rec, "PATCH", path, 200)
	got := decode[tournamentResponse](t, rec)
	if got.Status != league.TournamentCancelled || got.CancelledAt == nil || got.CancelledAt.Before(before) {
		t.Fatalf("tournament after the cancel = %+v; want it cancelled now", got)
	}
	name, data := readEvent(t, stream)
	var end struct {
		View gameViewResponse `json:"view"`
	}
	if err := json.Unmarshal([]byte(data), &end); err != nil {
		t.Fatal(err)
	}
	if name != "end" || end.View.Status != league.StatusAborted || end.View.EndedBy != league.EndedByAbort || len(end.View.State) == 0 {
		t.Fatalf("the stream after the cancel sent %q with %+v; want the game's end, aborted, with its board", name, end.View)
	}
	if g := decode[gameViewResponse](t, r.call("GET", "/api/v1/games/"+gameID, "", "")); g.Status != league.StatusAborted {
		t.Fatalf("game after the cancel: %s; want aborted", g.Status)
	}

	rec = r.call("PATCH", "/api/v1/tournaments/"+id, cancel, r.organizer)
	wantDocumented(t, rec, "PATCH", path, 422)
	wantProblem(t, rec, 422, "status")
	rec = r.call("PATCH", "/api/v1/tournaments/"+id, `{"status":"running"}`, r.organizer)
	wantProblem(t, rec, 422, "status")
	rec = r.call("POST", "/api/v1/tournaments/"+id+"/entries", `{"name":"C","members":[{"bot":"random"}]}`, r.organizer)
	wantDocumented(t, rec, "POST", "/api/v1/tournaments/{id}/entries", 422)
	entries := decode[struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}](t, r.call("GET", "/api/v1/tournaments/"+id+"/entries", "", ""))
	if len(entries.Items) != 2 {
		t.Fatalf("entries %+v; want the two", entries.Items)
	}
	rec = r.call("DELETE", "/api/v1/tournaments/"+id+"/entries?entry="+entries.Items[0].ID, "", r.organizer)
	wantDocumented(t, rec, "DELETE", "/api/v1/tournaments/{id}/entries", 422)

	ics := r.call("GET", "/api/v1/tournaments/"+id+"/calendar.ics", "", "").Body.String()
	for _, want := range []string{"STATUS:CANCELLED\r\n", "SEQUENCE:1\r\n", ": round 1 (cancelled)\r\n"} {
		if !strings.Contains(ics, want) {
			t.Errorf("calendar without %q:\n%s", want, ics)
		}
	}
}
