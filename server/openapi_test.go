package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// openAPIDoc is the served document, decoded.
func openAPIDoc(t *testing.T) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(openAPIJSON, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// schemaProperties lists the properties a schema documents, through $ref
// and allOf.
func schemaProperties(doc map[string]any, schema any) map[string]any {
	s, _ := schema.(map[string]any)
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		return schemaProperties(doc, doc["components"].(map[string]any)["schemas"].(map[string]any)[name])
	}
	props := map[string]any{}
	for _, part := range asList(s["allOf"]) {
		for k, v := range schemaProperties(doc, part) {
			props[k] = v
		}
	}
	if p, ok := s["properties"].(map[string]any); ok {
		for k, v := range p {
			props[k] = v
		}
	}
	return props
}

func asList(v any) []any { l, _ := v.([]any); return l }

// Every field the API writes is in the schema the document gives for it:
// a client generated from the document never sees a field it does not
// know (games' created_at and started_at, a tournament's created_at and a
// season's were missing, and a user's clubs had no fields at all).
func TestOpenAPISchemasNameEveryFieldTheAPIWrites(t *testing.T) {
	doc := openAPIDoc(t)
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	listItem := func(path string) any {
		op := doc["paths"].(map[string]any)[path].(map[string]any)["get"].(map[string]any)
		s := op["responses"].(map[string]any)["200"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"]
		return schemaProperties(doc, s)["items"].(map[string]any)["items"]
	}
	for _, tc := range []struct {
		name   string
		schema any
		v      any
	}{
		{"Game", schemas["Game"], gameResponse{}},
		{"GameView", schemas["GameView"], gameViewResponse{}},
		{"Seat", schemas["Seat"], seatResponse{}},
		{"Move", schemas["Move"], moveResponse{}},
		{"Archive", schemas["Archive"], archiveResponse{}},
		{"User", schemas["User"], userResponse{}},
		{"TokenPair", schemas["TokenPair"], tokenResponse{}},
		{"Club", schemas["Club"], clubResponse{}},
		{"ClubMember", schemas["ClubMember"], memberResponse{}},
		{"Invite", schemas["Invite"], inviteResponse{}},
		{"League", schemas["League"], leagueResponse{}},
		{"Season", schemas["Season"], seasonResponse{}},
		{"Tournament", schemas["Tournament"], tournamentResponse{}},
		{"Entry", schemas["Entry"], entryResponse{}},
		{"Member", schemas["Member"], memberBody{}},
		{"Round", schemas["Round"], roundResponse{}},
		{"Standing", schemas["Standing"], standingResponse{}},
		{"RatingState", schemas["RatingState"], ratingStateResponse{}},
		{"RatingChange", schemas["RatingChange"], ratingChangeResponse{}},
		{"LeaderboardRow", schemas["LeaderboardRow"], leaderboardRowResponse{}},
		{"UserRatings", schemas["UserRatings"], userRatingsResponse{}},
		{"Problem", schemas["Problem"], problem{}},
		{"a user's clubs", listItem("/api/v1/users/{id}/clubs"), userClubResponse{}},
		{"a user's tournaments", listItem("/api/v1/users/{id}/tournaments"), userTournamentResponse{}},
	} {
		props := schemaProperties(doc, tc.schema)
		for _, f := range jsonFields(reflect.TypeOf(tc.v)) {
			if _, ok := props[f]; !ok {
				t.Errorf("%s: the API writes %q, which the schema does not document", tc.name, f)
			}
		}
	}
	// The stale move's 409 says where the game is (see TestAMoveForAPlyNotYetReachedSaysWhereTheGameIs).
	if _, ok := schemaProperties(doc, schemas["Problem"])["ply"]; !ok {
		t.Error(`Problem: a stale move's 409 carries "ply", which the schema does not document`)
	}
	// A game not started (open, aborted) has no position to show.
	state := schemaProperties(doc, schemas["GameView"])["state"].(map[string]any)
	if state["nullable"] != true {
		t.Error("GameView.state is null before the game starts, but the schema does not say it may be")
	}
}

// documented reports whether the document lists status for the operation.
func documented(doc map[string]any, method, path string, status int) bool {
	ops, _ := doc["paths"].(map[string]any)[path].(map[string]any)
	op, _ := ops[strings.ToLower(method)].(map[string]any)
	responses, _ := op["responses"].(map[string]any)
	_, ok := responses[strconv.Itoa(status)]
	return ok
}

// Every operation that refuses a bad access token (the required ones, and
// the public ones that still check a token they are given) lists the 401.
func TestOpenAPIListsTheRefusalOfABadToken(t *testing.T) {
	e := New(Deps{Metrics: prometheus.NewRegistry(), Logger: quietLogger,
		Auth: AuthConfig{Secret: []byte(testSecret), Issuer: testIssuer, AccessTokenTTL: time.Minute}})
	e.Logger.SetOutput(io.Discard) // handlers without their services panic; only the 401s matter here
	doc := openAPIDoc(t)
	for path, ops := range doc["paths"].(map[string]any) {
		for method := range ops.(map[string]any) {
			if method == "parameters" {
				continue
			}
			url := strings.NewReplacer("{id}", "00000000-0000-0000-0000-000000000001", "{user_id}", "00000000-0000-0000-0000-000000000002",
				"{pool}", "stacks").Replace(path)
			req := httptest.NewRequest(strings.ToUpper(method), url, strings.NewReader("{}"))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer not-a-token")
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			if rec.Code == http.StatusUnauthorized && !documented(doc, method, path, http.StatusUnauthorized) {
				t.Errorf("%s %s answers a bad token 401, which the document does not list", strings.ToUpper(method), path)
			}
		}
	}
}

// wantDocumented fails unless the document lists the answer rec gave.
func wantDocumented(t *testing.T, rec *httptest.ResponseRecorder, method, path string, status int) {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("%s %s = %d, want %d: %s", method, path, rec.Code, status, rec.Body)
	}
	if !documented(openAPIDoc(t), method, path, status) {
		t.Errorf("%s %s answers %d, which the document does not list", method, path, status)
	}
}

// Answers found by probing the API that its document did not list.
func TestOpenAPIListsTheAnswersOfCompetitionRefusals(t *testing.T) {
	r := newCompetitionRig(t)
	leagues := "/api/v1/clubs/" + r.clubID + "/leagues"
	rec := r.call("POST", leagues, `{"name":"Sunday League"}`, r.organizer)
	if rec.Code != 201 {
		t.Fatalf("create league: %d %s", rec.Code, rec.Body)
	}
	leagueID := decode[struct{ ID string }](t, rec).ID
	wantDocumented(t, r.call("POST", leagues, `{"name":"Sunday League"}`, r.organizer), "POST", "/api/v1/clubs/{id}/leagues", 409)
	seasons := "/api/v1/leagues/" + leagueID + "/seasons"
	if rec := r.call("POST", seasons, `{"name":"2030"}`, r.organizer); rec.Code != 201 {
		t.Fatalf("create season: %d %s", rec.Code, rec.Body)
	}
	wantDocumented(t, r.call("POST", seasons, `{"name":"2030"}`, r.organizer), "POST", "/api/v1/leagues/{id}/seasons", 409)
}

func TestOpenAPIListsTheAnswersOfGameRefusals(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	_, bob := r.user("bob", false)
	rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`, alice)
	if rec.Code != 201 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	id := decode[struct{ ID string }](t, rec).ID
	wantDocumented(t, r.call("POST", "/api/v1/games/"+id+"/join", `{"seat":7}`, bob), "POST", "/api/v1/games/{id}/join", 400)
	wantDocumented(t, r.call("GET", "/api/v1/games/"+id+"/events", "", "", withHeader("Last-Event-ID", "5")),
		"GET", "/api/v1/games/{id}/events", 400)
	wantDocumented(t, r.call("GET", fmt.Sprintf("/api/v1/games/%s/events?access_token=%s", id, "not-a-token"), "", ""),
		"GET", "/api/v1/games/{id}/events", 401)
}

// Every list's limit parameter states the page sizes the API takes: the
// clubs, a club's members and a user's games said only "integer", and a
// client that asked for 500 got a 400.
func TestOpenAPIStatesTheBoundsOfEveryPageSize(t *testing.T) {
	e := New(Deps{Metrics: prometheus.NewRegistry(), Logger: quietLogger})
	e.Logger.SetOutput(io.Discard) // handlers without their services panic past the page size; only the 400s matter here
	doc := openAPIDoc(t)
	lists := 0
	for path, ops := range doc["paths"].(map[string]any) {
		get, _ := ops.(map[string]any)["get"].(map[string]any)
		for _, p := range asList(get["parameters"]) {
			param := p.(map[string]any)
			if param["name"] != "limit" {
				continue
			}
			lists++
			schema := param["schema"].(map[string]any)
			lo, okLo := schema["minimum"].(float64)
			hi, okHi := schema["maximum"].(float64)
			if !okLo || !okHi || lo != 1 || schema["default"] == nil {
				t.Errorf("GET %s: limit %v, want a minimum of 1, a maximum and a default", path, schema)
				continue
			}
			url := strings.NewReplacer("{id}", "00000000-0000-0000-0000-000000000001", "{pool}", "stacks").Replace(path) + "?"
			if path == "/api/v1/tournaments" {
				url += "club=00000000-0000-0000-0000-000000000001&" // it lists one club's or season's
			}
			for _, n := range []int{int(hi), int(hi) + 1} {
				rec := httptest.NewRecorder()
				e.ServeHTTP(rec, httptest.NewRequest("GET", fmt.Sprintf("%slimit=%d", url, n), nil))
				refused := rec.Code == http.StatusBadRequest && strings.Contains(rec.Body.String(), `"field":"limit"`)
				if refused != (n > int(hi)) {
					t.Errorf("GET %s?limit=%d = %d %s; the document's maximum is %v", path, n, rec.Code, rec.Body, hi)
				}
			}
		}
	}
	if lists < 10 {
		t.Errorf("%d lists take a limit, want every list", lists)
	}
}
