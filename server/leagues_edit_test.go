package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/seqleague/seqleague/league"
)

// editRig is the competition rig's club (owned by its organizer) with mia
// a plain member, sam the owner of another club, a league and an open
// season.
type editRig struct {
	*competitionRig
	member, stranger string // access tokens
	leagueID         string
	seasonID         string
}

func newEditRig(t *testing.T) *editRig {
	t.Helper()
	r := &editRig{competitionRig: newCompetitionRig(t)}
	ctx := context.Background()
	var miaID string
	miaID, r.member = r.user("mia", false)
	_, r.stranger = r.user("sam", false)
	if rec := r.call("POST", "/api/v1/clubs", `{"name":"Sam's club"}`, r.stranger); rec.Code != http.StatusCreated {
		t.Fatalf("sam's club: %d %s", rec.Code, rec.Body)
	}
	club, err := r.clubs.Club(ctx, league.Actor{}, r.clubID)
	if err != nil {
		t.Fatal(err)
	}
	inv, err := r.clubs.CreateInvite(ctx, league.Actor{UserID: club.OwnerID}, r.clubID, league.NewInvite{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.clubs.Join(ctx, league.Actor{UserID: miaID}, r.clubID, inv.Code); err != nil {
		t.Fatal(err)
	}
	r.leagueID = created(t, r.call("POST", "/api/v1/clubs/"+r.clubID+"/leagues", `{"name":"Monday League","description":"Mondays at eight"}`, r.organizer))
	r.seasonID = created(t, r.call("POST", "/api/v1/leagues/"+r.leagueID+"/seasons", `{"name":"2030"}`, r.organizer))
	return r
}

func TestAnOrganizerEditsALeague(t *testing.T) {
	r := newEditRig(t)
	before := decode[leagueResponse](t, r.call("GET", "/api/v1/leagues/"+r.leagueID, "", ""))
	rec := r.call("PATCH", "/api/v1/leagues/"+r.leagueID, `{"name":" Tuesday League ","description":"Tuesdays\nat nine"}`, r.organizer)
	if rec.Code != http.StatusOK {
		t.Fatalf("PATCH = %d %s", rec.Code, rec.Body)
	}
	want := leagueResponse{ID: r.leagueID, ClubID: r.clubID, Name: "Tuesday League", Description: "Tuesdays\nat nine", CreatedAt: before.CreatedAt}
	if got := decode[leagueResponse](t, rec); got != want {
		t.Errorf("answer = %+v, want %+v", got, want)
	}
	if got := decode[leagueResponse](t, r.call("GET", "/api/v1/leagues/"+r.leagueID, "", "")); got != want {
		t.Errorf("read back = %+v, want %+v", got, want)
	}
	// A field left out stays; {} changes nothing.
	rec = r.call("PATCH", "/api/v1/leagues/"+r.leagueID, `{"description":""}`, r.organizer)
	if got := decode[leagueResponse](t, rec); rec.Code != http.StatusOK || got.Name != "Tuesday League" || got.Description != "" {
		t.Errorf("clearing the description = %d %s", rec.Code, rec.Body)
	}
	if rec := r.call("PATCH", "/api/v1/leagues/"+r.leagueID, `{}`, r.organizer); rec.Code != http.StatusOK {
		t.Errorf("an empty change = %d %s", rec.Code, rec.Body)
	}
}

func TestAnOrganizerRenamesAnOpenSeasonAndNotAClosedOne(t *testing.T) {
	r := newEditRig(t)
	path := "/api/v1/seasons/" + r.seasonID
	rec := r.call("PATCH", path, `{"name":"Spring 2030"}`, r.organizer)
	if rec.Code != http.StatusOK {
		t.Fatalf("PATCH = %d %s", rec.Code, rec.Body)
	}
	if got := decode[seasonResponse](t, rec); got.ID != r.seasonID || got.LeagueID != r.leagueID || got.Name != "Spring 2030" || got.Status != "open" {
		t.Errorf("answer = %+v", got)
	}
	table := decode[struct{ Season seasonResponse }](t, r.call("GET", path+"/standings", "", ""))
	if table.Season.Name != "Spring 2030" {
		t.Errorf("read back: %q", table.Season.Name)
	}
	if rec := r.call("POST", path+"/close", "", r.organizer); rec.Code != http.StatusOK {
		t.Fatalf("close: %d %s", rec.Code, rec.Body)
	}
	p := wantProblem(t, r.call("PATCH", path, `{"name":"Rewritten"}`, r.organizer), http.StatusUnprocessableEntity, "")
	if !strings.Contains(p.Detail, "closed") {
		t.Errorf("the refusal says %q, not that the season is closed", p.Detail)
	}
	if table := decode[struct{ Season seasonResponse }](t, r.call("GET", path+"/standings", "", "")); table.Season.Name != "Spring 2030" {
		t.Errorf("the closed season is called %q", table.Season.Name)
	}
}

// Each refusal is problem+json naming its field where it has one, and
// leaves the league and the season as they were.
func TestALeagueOrSeasonEditIsRefusedAndChangesNothing(t *testing.T) {
	r := newEditRig(t)
	created(t, r.call("POST", "/api/v1/clubs/"+r.clubID+"/leagues", `{"name":"Friday League"}`, r.organizer))
	created(t, r.call("POST", "/api/v1/leagues/"+r.leagueID+"/seasons", `{"name":"2031"}`, r.organizer))
	leaguePath, seasonPath := "/api/v1/leagues/"+r.leagueID, "/api/v1/seasons/"+r.seasonID
	missing := "7d1c5c0e-3f7a-4c59-9b52-1c0f5b0f2a11"
	for _, tc := range []struct {
		name, path, body, token string
		status                  int
		field                   string
	}{
		{"league signed out", leaguePath, `{"name":"Mine"}`, "", http.StatusUnauthorized, ""},
		{"league by a member", leaguePath, `{"name":"Mine"}`, r.member, http.StatusForbidden, ""},
		{"league by another club's owner", leaguePath, `{"name":"Mine"}`, r.stranger, http.StatusForbidden, ""},
		{"no such league", "/api/v1/leagues/" + missing, `{"name":"Mine"}`, r.organizer, http.StatusNotFound, ""},
		{"a league ID of no form", "/api/v1/leagues/nope", `{"name":"Mine"}`, r.organizer, http.StatusNotFound, ""},
		{"a league's empty name", leaguePath, `{"name":"  "}`, r.organizer, http.StatusBadRequest, "name"},
		{"a league name of two lines", leaguePath, `{"name":"Monday\nLeague"}`, r.organizer, http.StatusBadRequest, "name"},
		{"a league name of 101 characters", leaguePath, `{"name":"` + strings.Repeat("x", 101) + `"}`, r.organizer, http.StatusBadRequest, "name"},
		{"a description of 2001 characters", leaguePath, `{"description":"` + strings.Repeat("x", 2001) + `"}`, r.organizer, http.StatusBadRequest, "description"},
		{"a description with NUL", leaguePath, `{"description":"a\u0000b"}`, r.organizer, http.StatusBadRequest, "description"},
		{"a description with a control character", leaguePath, `{"description":"a\u0001b"}`, r.organizer, http.StatusBadRequest, "description"},
		{"a description with a right-to-left override", leaguePath, `{"description":"ab\u202ecd"}`, r.organizer, http.StatusBadRequest, "description"},
		{"a description with a zero-width space", leaguePath, `{"description":"a\u200bb"}`, r.organizer, http.StatusBadRequest, "description"},
		{"a league name that is a number", leaguePath, `{"name":5}`, r.organizer, http.StatusBadRequest, "name"},
		{"a description that is an array", leaguePath, `{"description":["x"]}`, r.organizer, http.StatusBadRequest, "description"},
		{"a field leagues do not have", leaguePath, `{"name":"Mine","club_id":"` + missing + `"}`, r.organizer, http.StatusBadRequest, "club_id"},
		{"a field in another case", leaguePath, `{"Name":"Mine"}`, r.organizer, http.StatusBadRequest, "Name"},
		{"a league body that is no object", leaguePath, `["Mine"]`, r.organizer, http.StatusBadRequest, ""},
		{"a league body of no JSON", leaguePath, `{"name":`, r.organizer, http.StatusBadRequest, ""},
		{"another league's name", leaguePath, `{"name":"FRIDAY LEAGUE"}`, r.organizer, http.StatusConflict, "name"},
		{"season signed out", seasonPath, `{"name":"Mine"}`, "", http.StatusUnauthorized, ""},
		{"season by a member", seasonPath, `{"name":"Mine"}`, r.member, http.StatusForbidden, ""},
		{"season by another club's owner", seasonPath, `{"name":"Mine"}`, r.stranger, http.StatusForbidden, ""},
		{"no such season", "/api/v1/seasons/" + missing, `{"name":"Mine"}`, r.organizer, http.StatusNotFound, ""},
		{"a season's empty name", seasonPath, `{"name":""}`, r.organizer, http.StatusBadRequest, "name"},
		{"a season name that is true", seasonPath, `{"name":true}`, r.organizer, http.StatusBadRequest, "name"},
		{"a season description", seasonPath, `{"name":"Mine","description":"seasons have none"}`, r.organizer, http.StatusBadRequest, "description"},
		{"a season name given twice", seasonPath, `{"name":"Mine","name":"Yours"}`, r.organizer, http.StatusBadRequest, "name"},
		{"another season's name", seasonPath, `{"name":"2031"}`, r.organizer, http.StatusConflict, "name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := r.fingerprint()
			rec := r.call("PATCH", tc.path, tc.body, tc.token)
			wantProblem(t, rec, tc.status, tc.field)
			wantDocumentedNaming(t, rec, "PATCH", "/api/v1/"+strings.Split(tc.path, "/")[3]+"/{id}", tc.status, tc.field)
			if changed := changedTables(before, r.fingerprint()); len(changed) > 0 {
				t.Errorf("a refused edit changed %v", changed)
			}
		})
	}
	if rec := r.call("PATCH", leaguePath, `{"name":"Monday League"}`, r.member); rec.Code != http.StatusForbidden {
		t.Errorf("the member's own league name: %d", rec.Code)
	}
	// Not sent as JSON.
	rec := r.call("PATCH", leaguePath, `{"name":"Mine"}`, r.organizer, withHeader("Content-Type", "text/plain"))
	wantProblem(t, rec, http.StatusUnsupportedMediaType, "")
	wantDocumented(t, rec, "PATCH", "/api/v1/leagues/{id}", http.StatusUnsupportedMediaType)
	closeRec := r.call("POST", seasonPath+"/close", "", r.organizer)
	if closeRec.Code != http.StatusOK {
		t.Fatalf("close: %d %s", closeRec.Code, closeRec.Body)
	}
	wantDocumented(t, r.call("PATCH", seasonPath, `{"name":"Mine"}`, r.organizer), "PATCH", "/api/v1/seasons/{id}", http.StatusUnprocessableEntity)
}

// wantDocumentedNaming fails unless the document lists the answer, and,
// for a refusal other than validation's 400 that names a field, says so
// ("naming name").
func wantDocumentedNaming(t *testing.T, rec *httptest.ResponseRecorder, method, path string, status int, field string) {
	t.Helper()
	wantDocumented(t, rec, method, path, status)
	if field == "" || status == http.StatusBadRequest {
		return
	}
	op := openAPIDoc(t)["paths"].(map[string]any)[path].(map[string]any)[strings.ToLower(method)].(map[string]any)
	description, _ := op["responses"].(map[string]any)[strconv.Itoa(status)].(map[string]any)["description"].(string)
	if !strings.Contains(description, "naming "+field) {
		t.Errorf("%s %s answers %d naming %s, which its description (%q) does not say", method, path, status, field, description)
	}
}
