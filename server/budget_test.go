package server

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/postgres"
)

// wantOverBudget checks a 429 problem whose Retry-After says when, within
// the day, the next creation may be made.
func wantOverBudget(t *testing.T, rec *httptest.ResponseRecorder, what string) {
	t.Helper()
	s := rec.Header().Get("Retry-After")
	if n, err := strconv.Atoi(s); err != nil || n < 1 || n > int(league.CreationWindow.Seconds()) {
		t.Errorf("%s: Retry-After %q; want the seconds (1 to a day) until the next may be created", what, s)
	}
}

// One account creates at most its daily budget of clubs and of tournaments
// (here 2 of each): one more is a 429 problem+json with Retry-After. A
// refused creation spends nothing, other accounts and site admins are not
// held to it, and a place frees once a creation is a day old.
func TestCreatingClubsAndTournamentsIsBoundedPerAccountPerDay(t *testing.T) {
	r := newCompetitionRig(t)
	r.clubs.WithDailyLimit(2)
	r.d.Tournaments.(*postgres.Tournaments).WithDailyLimit(2)
	annID, ann := r.user("ann", false)
	_, bob := r.user("bob", false)
	_, admin := r.user("root", true)
	club := func(tok, name string) int {
		return r.call("POST", "/api/v1/clubs", `{"name":`+strconv.Quote(name)+`}`, tok).Code
	}

	if got := club(ann, "Ann's first"); got != http.StatusCreated {
		t.Fatalf("ann's first club: %d", got)
	}
	if got := club(ann, "Ann's first"); got != http.StatusConflict {
		t.Fatalf("a club of a name taken: %d, want 409", got)
	}
	if got := club(ann, "Ann's second"); got != http.StatusCreated {
		t.Fatalf("ann's second club, after a refused one: %d", got)
	}
	rec := r.call("POST", "/api/v1/clubs", `{"name":"Ann's third"}`, ann)
	wantProblem(t, rec, http.StatusTooManyRequests, "")
	wantOverBudget(t, rec, "ann's third club")
	if got := club(bob, "Bob's"); got != http.StatusCreated {
		t.Errorf("another account's club: %d", got)
	}
	for i := range 3 {
		if got := club(admin, "Admin's "+strconv.Itoa(i)); got != http.StatusCreated {
			t.Errorf("a site admin's club %d: %d", i, got)
		}
	}
	// A day later the oldest leaves the window, and its place is free.
	if err := r.db.Gorm.Exec(`UPDATE clubs SET created_at = created_at - interval '1 day'
		WHERE id = (SELECT id FROM clubs WHERE created_by = ? ORDER BY created_at LIMIT 1)`, annID).Error; err != nil {
		t.Fatal(err)
	}
	if got := club(ann, "Ann's third"); got != http.StatusCreated {
		t.Errorf("ann's third club, a day after her first: %d", got)
	}
	wantProblem(t, r.call("POST", "/api/v1/clubs", `{"name":"Ann's fourth"}`, ann), http.StatusTooManyRequests, "")

	// Tournaments: the organizer's budget, in all clubs together.
	wantProblem(t, r.call("POST", "/api/v1/tournaments", r.tournamentBody(`"format":"nonsense"`), r.organizer), http.StatusBadRequest, "format")
	r.tournament(t, "")
	r.tournament(t, `"name":"Second cup"`)
	rec = r.call("POST", "/api/v1/tournaments", r.tournamentBody(`"name":"Third cup"`), r.organizer)
	wantProblem(t, rec, http.StatusTooManyRequests, "")
	wantOverBudget(t, rec, "the third tournament")
	for i := range 3 {
		if rec := r.call("POST", "/api/v1/tournaments", r.tournamentBody(`"name":"Admin's cup"`), admin); rec.Code != http.StatusCreated {
			t.Errorf("a site admin's tournament %d: %d %s", i, rec.Code, rec.Body)
		}
	}
}
