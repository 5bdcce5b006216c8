package server

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seqleague/seqleague/league/postgres"
)

// wantNothingHidden fails if an answer about games shows a hand, the
// engine's state, the deck or the seed.
func wantNothingHidden(t *testing.T, what string, rec *httptest.ResponseRecorder) {
	t.Helper()
	for _, hidden := range []string{`"hand`, `"state"`, `"deck`, `"draw`, `"seed"`} {
		if strings.Contains(rec.Body.String(), hidden) {
			t.Errorf("%s shows %s: %s", what, hidden, rec.Body)
		}
	}
}

// Two players asking for the same set-up sit at one table: the first is
// answered 201 with the game made (seat 0 theirs, seat 1 open, 60 s a
// turn), the second 200 with it started; neither answer shows a hand or
// the seed. Signed out is a 401, a bad set-up a 400 naming its field, and
// one game too many for the caller's bound a 422, each documented.
func TestAQuickMatchSeatsTwoPlayersAtOneTable(t *testing.T) {
	r := newGamesRigWith(t, postgres.GameConfig{MaxLiveGames: 1})
	_, alice := r.user("alice", false)
	_, bob := r.user("bob", false)
	const quick = "/api/v1/games/quick"
	body := `{"game":"sequence","players":2}`
	rec := r.call("POST", quick, body, alice)
	wantDocumented(t, rec, "POST", quick, http.StatusCreated)
	wantNothingHidden(t, "alice's quick match", rec)
	made := decode[gameResponse](t, rec)
	if made.Status != "open" || len(made.Seats) != 2 || made.Seats[0].User == nil || made.Seats[0].User.Username != "alice" ||
		!made.Seats[1].Open || made.Clock.TurnSeconds != 60 || made.Variant != "classic" || made.Teams != 2 || made.Rated {
		t.Fatalf("alice's quick match made %+v, want an open unrated classic game, alice at seat 0, seat 1 open, 60 s a turn", made)
	}
	rec = r.call("POST", quick, body, bob)
	wantDocumented(t, rec, "POST", quick, http.StatusOK)
	wantNothingHidden(t, "bob's quick match", rec)
	if got := decode[gameResponse](t, rec); got.ID != made.ID || got.Status != "active" || got.Seats[1].User == nil || got.Seats[1].User.Username != "bob" {
		t.Fatalf("bob's quick match: %+v, want alice's %s started with bob at seat 1", got, made.ID)
	}
	// alice's one live game is being played: a table she must make is one too many.
	wantDocumented(t, r.call("POST", quick, body, alice), "POST", quick, http.StatusUnprocessableEntity)

	wantDocumented(t, r.call("POST", quick, body, ""), "POST", quick, http.StatusUnauthorized)
	for _, tc := range []struct{ body, field string }{
		{`{"game":"chess","players":2}`, "game"},
		{`{"players":2}`, "game"},
		{`{"game":"sequence","players":5}`, "players"},
		{`{"game":"sequence","players":"two"}`, "players"},
		{`{"game":"sequence","players":99999999999}`, "players"},
		{`{"game":"sequence","players":6}`, "teams"},
		{`{"game":"stacks","players":3,"variant":"bordered"}`, "variant"},
		{`{"game":"sequence","players":2,"clock":{"turn_seconds":5}}`, "clock"},
	} {
		rec := r.call("POST", quick, tc.body, bob)
		wantDocumented(t, rec, "POST", quick, http.StatusBadRequest)
		wantProblem(t, rec, http.StatusBadRequest, tc.field)
	}
	// GET /games/quick is the quick match's path with a method it has not
	// (as OpenAPI matches a path: the fixed path before /games/{id}), not
	// GET /games/{id} of a game that cannot exist.
	rec = r.call("GET", quick, "", bob)
	wantProblem(t, rec, http.StatusMethodNotAllowed, "")
	if got, want := rec.Header().Get("Allow"), "OPTIONS, POST"; got != want {
		t.Errorf("GET %s: Allow %q, want %q", quick, got, want)
	}
}

// The lobby keeps one game's tables, or one size's, by ?game= and
// ?players=; a kind or size no game has is a 400 naming it.
func TestTheLobbyFiltersByGameAndPlayers(t *testing.T) {
	r := newGamesRig(t)
	_, dan := r.user("dan", false)
	ids := map[string]string{}
	for name, body := range map[string]string{
		"stacks3":   `{"game":"stacks","players":3,"seats":[{"user":"me"},{"open":true},{"bot":"greedy"}]}`,
		"sequence3": `{"game":"sequence","players":3,"seats":[{"user":"me"},{"open":true},{"open":true}]}`,
		"sequence2": `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`,
	} {
		rec := r.call("POST", "/api/v1/games", body, dan)
		if rec.Code != http.StatusCreated {
			t.Fatalf("create %s: %d %s", name, rec.Code, rec.Body)
		}
		ids[name] = decode[gameResponse](t, rec).ID
	}
	for query, want := range map[string][]string{
		"?game=stacks":                         {ids["stacks3"]},
		"?status=open&game=sequence&players=3": {ids["sequence3"]},
		"?players=3&game=sequence":             {ids["sequence3"]},
		"?players=2":                           {ids["sequence2"]},
		"?game=stacks&players=6":               {},
		"?status=active&game=sequence":         {},
	} {
		rec := r.call("GET", "/api/v1/games"+query, "", "")
		if rec.Code != http.StatusOK {
			t.Fatalf("lobby %s: %d %s", query, rec.Code, rec.Body)
		}
		wantNothingHidden(t, "lobby "+query, rec)
		page := decode[listResponse[gameResponse]](t, rec)
		got := []string{}
		for _, g := range page.Items {
			got = append(got, g.ID)
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("lobby %s lists %v, want %v", query, got, want)
		}
	}
	for query, field := range map[string]string{
		"?game=chess":                "game",
		"?game=":                     "",
		"?players=two":               "players",
		"?players=0":                 "players",
		"?players=13":                "players",
		"?game=sequence&players=5":   "players",
		"?game=stacks&players=8":     "players",
		"?players=2&players=3":       "players",
		"?game=stacks&game=sequence": "game",
		"?rated=yes":                 "rated",
		"?rated=":                    "",
	} {
		rec := r.call("GET", "/api/v1/games"+query, "", "")
		if field == "" {
			if rec.Code != http.StatusOK {
				t.Errorf("lobby %s (any game): %d %s", query, rec.Code, rec.Body)
			}
			continue
		}
		wantDocumented(t, rec, "GET", "/api/v1/games", http.StatusBadRequest)
		wantProblem(t, rec, http.StatusBadRequest, field)
	}
}

// A player choosing a table in the lobby saw only usernames: nothing said
// whether the person waiting was new or a master. Each person seated now
// comes with their rating in the game's pool (1500, provisional, for one
// with no rated game there), and ?rated= keeps the rated or casual tables.
func TestTheLobbyGivesEachPlayersRatingAndFiltersRatedTables(t *testing.T) {
	r := newGamesRig(t)
	danID, dan := r.user("dan", false)
	_, eve := r.user("eve", false)
	if err := r.db.Gorm.Exec("INSERT INTO ratings (user_id, pool, rating, games, peak) VALUES (?, 'sequence-2team', 1712.4, 45, 1750), (?, 'stacks', 1300, 3, 1500)",
		danID, danID).Error; err != nil {
		t.Fatal(err)
	}
	create := func(token, body string) string {
		t.Helper()
		rec := r.call("POST", "/api/v1/games", body, token)
		if rec.Code != http.StatusCreated {
			t.Fatalf("create %s: %d %s", body, rec.Code, rec.Body)
		}
		return decode[gameResponse](t, rec).ID
	}
	rated := create(dan, `{"game":"sequence","players":2,"teams":2,"rated":true,"seats":[{"user":"me"},{"open":true}]}`)
	casual := create(dan, `{"game":"stacks","players":2,"seats":[{"user":"me"},{"open":true}]}`)
	newcomer := create(eve, `{"game":"sequence","players":2,"teams":2,"seats":[{"user":"me"},{"open":true}]}`)

	rec := r.call("GET", "/api/v1/games", "", "")
	if rec.Code != http.StatusOK {
		t.Fatalf("lobby: %d %s", rec.Code, rec.Body)
	}
	wantDocumented(t, rec, "GET", "/api/v1/games", http.StatusOK)
	type seen struct {
		User        string
		Rating      float64
		Display     string
		Games       int
		Provisional bool
	}
	got := map[string]seen{}
	for _, g := range decode[listResponse[gameResponse]](t, rec).Items {
		for _, s := range g.Seats {
			if s.User == nil {
				continue
			}
			if s.User.Rating == nil {
				t.Fatalf("game %s: %s seated without a rating", g.ID, s.User.Username)
			}
			got[g.ID] = seen{s.User.Username, s.User.Rating.Rating, s.User.Rating.Display, s.User.Rating.Games, s.User.Rating.Provisional}
		}
	}
	want := map[string]seen{
		rated:    {"dan", 1712.4, "1712", 45, false},
		casual:   {"dan", 1300, "1300?", 3, true}, // the pool of the table's game
		newcomer: {"eve", 1500, "1500?", 0, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("seated players' ratings (-want +got):\n%s", diff)
	}

	for query, want := range map[string][]string{
		"?rated=true":  {rated},
		"?rated=false": {newcomer, casual}, // newest first
	} {
		rec := r.call("GET", "/api/v1/games"+query, "", "")
		var ids []string
		for _, g := range decode[listResponse[gameResponse]](t, rec).Items {
			ids = append(ids, g.ID)
		}
		if !slices.Equal(ids, want) {
			t.Errorf("lobby %s lists %v, want %v", query, ids, want)
		}
	}
}
