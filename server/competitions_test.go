package server

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/postgres"
	"github.com/seqleague/seqleague/league/redisbus"
	"github.com/seqleague/seqleague/workers"
)

// competitionRig is the accounts rig with the league and tournament
// services on the same database (no workers: tasks wait in Redis), and a
// club its organizer owns.
type competitionRig struct {
	*rig
	clubID    string
	organizer string // access token of the club's owner
}

func newCompetitionRig(t *testing.T) *competitionRig {
	t.Helper()
	r := newRig(t)
	rdb := r.redis()
	enq := workers.NewEnqueuer(rdb)
	games := postgres.NewGames(r.db, redisbus.New(rdb), enq, postgres.GameConfig{}, quietLogger)
	r.d.Leagues = postgres.NewLeagues(r.db)
	r.d.Tournaments = postgres.NewTournaments(r.db, games, enq, quietLogger)
	r.d.Metrics = prometheus.NewRegistry() // the rig's server registered its own
	r.e = New(r.d)
	ownerID, owner := r.user("organizer", false)
	club, err := r.clubs.Create(context.Background(), league.Actor{UserID: ownerID}, league.NewClub{Name: "Tournament Club"})
	if err != nil {
		t.Fatal(err)
	}
	return &competitionRig{rig: r, clubID: club.ID, organizer: owner}
}

// tournament creates a tournament from the settings (a JSON object's
// members without braces) and returns its ID.
func (r *competitionRig) tournament(t *testing.T, settings string) string {
	t.Helper()
	rec := r.call("POST", "/api/v1/tournaments", r.tournamentBody(settings), r.organizer)
	if rec.Code != 201 {
		t.Fatalf("create tournament: %d %s", rec.Code, rec.Body)
	}
	return decode[struct{ ID string }](t, rec).ID
}

func (r *competitionRig) tournamentBody(settings string) string {
	body := fmt.Sprintf(`{"club_id":%q,"name":"Cup","game":"sequence","format":"single-elimination"`, r.clubID)
	if settings != "" {
		body += "," + settings
	}
	return body + "}"
}

func TestTournamentSettingsAreRefusedNamingTheirField(t *testing.T) {
	r := newCompetitionRig(t)
	for _, tc := range []struct {
		name, settings, field string
	}{
		{"an unknown variant", `"variant":"weird"`, "variant"},
		{"a Stacks table of seven", `"game":"stacks","match_size":7`, "match_size"},
		{"a Sequence table of five teams", `"match_size":5`, "match_size"},
		{"a Sequence team the rules have no table for", `"match_size":3,"team_size":5`, "team_size"},
		{"sequences to win out of range", `"sequences_to_win":9`, "sequences_to_win"},
		{"a negative round gap", `"round_gap_seconds":-5`, "round_gap_seconds"},
		{"a round gap of a century", `"round_gap_seconds":3000000000`, "round_gap_seconds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := r.count("tournaments")
			p := wantProblem(t, r.call("POST", "/api/v1/tournaments", r.tournamentBody(tc.settings), r.organizer), 400, tc.field)
			for _, f := range p.Errors {
				if f.Field == tc.field && strings.Contains(f.Message, "negative") && !strings.Contains(tc.settings, "-") {
					t.Errorf("%s: %q for a positive value", f.Field, f.Message)
				}
			}
			if after := r.count("tournaments"); after != before {
				t.Errorf("tournaments: %d before, %d after", before, after)
			}
		})
	}
}

func TestATournamentStatusOutsideTheTransitionsIsRefusedNamingStatus(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, "")
	for _, status := range []string{"bogus", "finished", "registration", ""} {
		t.Run(status, func(t *testing.T) {
			p := wantProblem(t, r.call("PATCH", "/api/v1/tournaments/"+id, fmt.Sprintf(`{"status":%q}`, status), r.organizer), 400, "status")
			for _, f := range p.Errors {
				if f.Field == "status" && (!strings.Contains(f.Message, "running") || !strings.Contains(f.Message, "paused")) {
					t.Errorf("message %q does not list the allowed values", f.Message)
				}
			}
		})
	}
	if rec := r.call("PATCH", "/api/v1/tournaments/"+id, `{"status":"paused"}`, r.organizer); rec.Code != 422 {
		t.Errorf("pausing a tournament in registration: %d, want 422 (an allowed value, not now)", rec.Code)
	}
}
