package postgres

import (
	"context"
	"errors"
	"strings"
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
	// "Café" with an é and with an e and a combining accent look alike:
	// both are kept composed (NFC), so the second is the first's name.
	if _, err := leagues.CreateLeague(ctx, r.organizer, r.clubID, "Caf\u00e9 League", ""); err != nil {
		t.Fatal(err)
	}
	_, err = leagues.CreateLeague(ctx, r.organizer, r.clubID, "Cafe\u0301 League", "")
	assertNameConflict(t, "league", err)
	if _, err := leagues.CreateSeason(ctx, r.organizer, lg.ID, "\u00c9t\u00e9"); err != nil {
		t.Fatal(err)
	}
	_, err = leagues.CreateSeason(ctx, r.organizer, lg.ID, "E\u0301te\u0301")
	assertNameConflict(t, "season", err)
}

func assertNameConflict(t *testing.T, what string, err error) {
	t.Helper()
	var le *league.Error
	if !errors.As(err, &le) || le.Code != league.ECONFLICT || len(le.Fields) != 1 || le.Fields[0].Field != "name" {
		t.Fatalf("a second %s of the same name: %v, want a conflict on name", what, err)
	}
}

// leagueWorld is a club that ann owns, olga organizes and mia belongs to,
// with a league and an open season; sam owns another club.
type leagueWorld struct {
	*authStore
	leagues             *Leagues
	ann, olga, mia, sam league.Actor
	clubID              string
	league              *league.LeagueInfo
	season              *league.Season
}

func newLeagueWorld(t *testing.T) *leagueWorld {
	t.Helper()
	ctx := context.Background()
	s := openAuthStore(t)
	w := &leagueWorld{authStore: s, leagues: NewLeagues(s.db),
		ann: s.register(t, "ann"), olga: s.register(t, "olga"), mia: s.register(t, "mia"), sam: s.register(t, "sam")}
	club, err := s.clubs.Create(ctx, w.ann, league.NewClub{Name: "Corner Club"})
	if err != nil {
		t.Fatal(err)
	}
	w.clubID = club.ID
	s.joinWithInvite(t, w.ann, club.ID, w.olga, w.mia)
	if _, err := s.clubs.SetMemberRole(ctx, w.ann, club.ID, w.olga.UserID, league.RoleOrganizer); err != nil {
		t.Fatal(err)
	}
	if _, err := s.clubs.Create(ctx, w.sam, league.NewClub{Name: "Sam's Club"}); err != nil {
		t.Fatal(err)
	}
	if w.league, err = w.leagues.CreateLeague(ctx, w.ann, club.ID, "Monday League", "Mondays at eight"); err != nil {
		t.Fatal(err)
	}
	if w.season, err = w.leagues.CreateSeason(ctx, w.ann, w.league.ID, "2030"); err != nil {
		t.Fatal(err)
	}
	return w
}

func ptr[T any](v T) *T { return &v }

func TestALeagueIsEditedByItsClubsOrganizersOnly(t *testing.T) {
	w := newLeagueWorld(t)
	ctx := context.Background()
	for _, tc := range []struct {
		who  string
		a    league.Actor
		code string
	}{
		{"anonymous", league.Actor{}, league.EUNAUTHORIZED},
		{"a member", w.mia, league.EFORBIDDEN},
		{"another club's owner", w.sam, league.EFORBIDDEN},
	} {
		_, err := w.leagues.UpdateLeague(ctx, tc.a, w.league.ID, league.LeagueUpdate{Name: ptr("Taken over")})
		if got := league.ErrorCode(err); got != tc.code {
			t.Errorf("%s renaming: %v, want %s", tc.who, err, tc.code)
		}
	}
	if got, _ := w.leagues.League(ctx, w.league.ID); got.Name != "Monday League" {
		t.Fatalf("after the refusals the league is called %q", got.Name)
	}

	got, err := w.leagues.UpdateLeague(ctx, w.olga, w.league.ID, league.LeagueUpdate{Name: ptr("  Tuesday League "), Description: ptr("Tuesdays now\nat nine")})
	if err != nil {
		t.Fatal(err)
	}
	want := league.LeagueInfo{ID: w.league.ID, ClubID: w.clubID, Name: "Tuesday League", Description: "Tuesdays now\nat nine", CreatedAt: w.league.CreatedAt}
	if got.ID != want.ID || got.ClubID != want.ClubID || got.Name != want.Name || got.Description != want.Description || !got.CreatedAt.Equal(want.CreatedAt) {
		t.Errorf("renamed = %+v, want %+v", *got, want)
	}
	// A field left out stays as it is.
	got, err = w.leagues.UpdateLeague(ctx, w.ann, w.league.ID, league.LeagueUpdate{Description: ptr("")})
	if err != nil || got.Name != "Tuesday League" || got.Description != "" {
		t.Fatalf("clearing the description = %+v, %v", got, err)
	}
	if read, _ := w.leagues.League(ctx, w.league.ID); read.Name != "Tuesday League" || read.Description != "" {
		t.Errorf("read back = %+v", read)
	}
	// A site admin moderates any club.
	if _, err := w.leagues.UpdateLeague(ctx, league.Actor{UserID: w.sam.UserID, IsAdmin: true}, w.league.ID, league.LeagueUpdate{Name: ptr("Moderated")}); err != nil {
		t.Errorf("a site admin renaming: %v", err)
	}
	_, err = w.leagues.UpdateLeague(ctx, w.ann, "7d1c5c0e-3f7a-4c59-9b52-1c0f5b0f2a11", league.LeagueUpdate{Name: ptr("Nowhere")})
	wantCode(t, err, league.ENOTFOUND)
	_, err = w.leagues.UpdateLeague(ctx, w.ann, "not-an-id", league.LeagueUpdate{Name: ptr("Nowhere")})
	wantCode(t, err, league.ENOTFOUND)
}

func TestALeagueEditIsRefusedNamingTheFieldAndChangesNothing(t *testing.T) {
	w := newLeagueWorld(t)
	ctx := context.Background()
	if _, err := w.leagues.CreateLeague(ctx, w.ann, w.clubID, "Friday League", ""); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		u     league.LeagueUpdate
		code  string
		field string
	}{
		{"an empty name", league.LeagueUpdate{Name: ptr("   ")}, league.EINVALID, "name"},
		{"a name of two lines", league.LeagueUpdate{Name: ptr("Monday\nLeague")}, league.EINVALID, "name"},
		{"a name with a direction override", league.LeagueUpdate{Name: ptr("Monday \u202eeugaeL")}, league.EINVALID, "name"},
		{"a name of 101 characters", league.LeagueUpdate{Name: ptr(strings.Repeat("é", 101))}, league.EINVALID, "name"},
		{"a description of 2001 characters", league.LeagueUpdate{Description: ptr(strings.Repeat("d", 2001))}, league.EINVALID, "description"},
		{"a description with NUL", league.LeagueUpdate{Description: ptr("a\x00b")}, league.EINVALID, "description"},
		{"a good name with a bad description", league.LeagueUpdate{Name: ptr("Fine"), Description: ptr(strings.Repeat("d", 2001))}, league.EINVALID, "description"},
		{"another league's name, in another case", league.LeagueUpdate{Name: ptr("friday league")}, league.ECONFLICT, "name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := w.leagues.UpdateLeague(ctx, w.ann, w.league.ID, tc.u)
			var le *league.Error
			if !errors.As(err, &le) || le.Code != tc.code || len(le.Fields) != 1 || le.Fields[0].Field != tc.field {
				t.Fatalf("UpdateLeague = %v, want %s naming %s", err, tc.code, tc.field)
			}
			if got, _ := w.leagues.League(ctx, w.league.ID); got.Name != "Monday League" || got.Description != "Mondays at eight" {
				t.Errorf("after the refusal the league is %+v", got)
			}
		})
	}
	// The limits are in characters: 100 and 2000 of a two-byte letter fit.
	got, err := w.leagues.UpdateLeague(ctx, w.ann, w.league.ID, league.LeagueUpdate{Name: ptr(strings.Repeat("é", 100)), Description: ptr(strings.Repeat("é", 2000))})
	if err != nil || got.Name != strings.Repeat("é", 100) {
		t.Errorf("the longest name and description = %v", err)
	}
	// A league may take its own name in another case.
	if got, err := w.leagues.UpdateLeague(ctx, w.ann, w.league.ID, league.LeagueUpdate{Name: ptr("MONDAY LEAGUE")}); err != nil || got.Name != "MONDAY LEAGUE" {
		t.Errorf("its own name in capitals = %+v, %v", got, err)
	}
}

func TestASeasonIsRenamedByOrganizersWhileItIsOpen(t *testing.T) {
	w := newLeagueWorld(t)
	ctx := context.Background()
	for _, tc := range []struct {
		who  string
		a    league.Actor
		code string
	}{
		{"anonymous", league.Actor{}, league.EUNAUTHORIZED},
		{"a member", w.mia, league.EFORBIDDEN},
		{"another club's owner", w.sam, league.EFORBIDDEN},
	} {
		_, err := w.leagues.UpdateSeason(ctx, tc.a, w.season.ID, league.SeasonUpdate{Name: ptr("Taken over")})
		if got := league.ErrorCode(err); got != tc.code {
			t.Errorf("%s renaming: %v, want %s", tc.who, err, tc.code)
		}
	}
	if _, err := w.leagues.CreateSeason(ctx, w.ann, w.league.ID, "2031"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, to, code string
	}{
		{"an empty name", "", league.EINVALID},
		{"a name of two lines", "20\n30", league.EINVALID},
		{"a name of 101 characters", strings.Repeat("x", 101), league.EINVALID},
		{"another season's name", "2031", league.ECONFLICT},
	} {
		_, err := w.leagues.UpdateSeason(ctx, w.olga, w.season.ID, league.SeasonUpdate{Name: ptr(tc.to)})
		var le *league.Error
		if !errors.As(err, &le) || le.Code != tc.code || len(le.Fields) != 1 || le.Fields[0].Field != "name" {
			t.Errorf("%s: %v, want %s naming name", tc.name, err, tc.code)
		}
	}
	got, err := w.leagues.UpdateSeason(ctx, w.olga, w.season.ID, league.SeasonUpdate{Name: ptr(" Spring 2030 ")})
	if err != nil || got.Name != "Spring 2030" || got.Status != "open" || got.LeagueID != w.league.ID || !got.CreatedAt.Equal(w.season.CreatedAt) {
		t.Fatalf("renamed = %+v, %v", got, err)
	}
	table, err := w.leagues.SeasonStandings(ctx, w.season.ID)
	if err != nil || table.Season.Name != "Spring 2030" {
		t.Fatalf("read back = %+v, %v", table, err)
	}
	if _, err := w.leagues.UpdateSeason(ctx, w.ann, w.season.ID, league.SeasonUpdate{}); err != nil {
		t.Errorf("a change of nothing: %v", err)
	}

	// Closed, its name stays as it was closed, even for its owner.
	if _, err := w.leagues.CloseSeason(ctx, w.ann, w.season.ID); err != nil {
		t.Fatal(err)
	}
	_, err = w.leagues.UpdateSeason(ctx, w.ann, w.season.ID, league.SeasonUpdate{Name: ptr("Rewritten")})
	wantCode(t, err, league.EPRECONDITION)
	// A stranger learns it is not theirs before anything of its state.
	_, err = w.leagues.UpdateSeason(ctx, w.mia, w.season.ID, league.SeasonUpdate{Name: ptr("Rewritten")})
	wantCode(t, err, league.EFORBIDDEN)
	if table, _ := w.leagues.SeasonStandings(ctx, w.season.ID); table.Season.Name != "Spring 2030" {
		t.Errorf("the closed season is called %q", table.Season.Name)
	}
	_, err = w.leagues.UpdateSeason(ctx, w.ann, "7d1c5c0e-3f7a-4c59-9b52-1c0f5b0f2a11", league.SeasonUpdate{Name: ptr("x")})
	wantCode(t, err, league.ENOTFOUND)
}
