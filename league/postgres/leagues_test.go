package postgres

import (
	"context"
	"errors"
	"testing"

	"github.com/seqleague/seqleague/league"
)

// A taken name is a conflict, as a taken club name or username is, whatever
// the case it is written in.
func TestTakenLeagueAndSeasonNamesAreConflicts(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	leagues := NewLeagues(r.db)
	lg, err := leagues.CreateLeague(ctx, r.organizer, r.clubID, "Monday League", "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = leagues.CreateLeague(ctx, r.organizer, r.clubID, "monday league", "")
	assertNameConflict(t, "league", err)
	if _, err := leagues.CreateSeason(ctx, r.organizer, lg.ID, "2026"); err != nil {
		t.Fatal(err)
	}
	_, err = leagues.CreateSeason(ctx, r.organizer, lg.ID, "2026")
	assertNameConflict(t, "season", err)
}

func assertNameConflict(t *testing.T, what string, err error) {
	t.Helper()
	var le *league.Error
	if !errors.As(err, &le) || le.Code != league.ECONFLICT || len(le.Fields) != 1 || le.Fields[0].Field != "name" {
		t.Fatalf("a second %s of the same name: %v, want a conflict on name", what, err)
	}
}
