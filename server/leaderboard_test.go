package server

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/seqleague/seqleague/league/postgres"
	"github.com/seqleague/seqleague/league/rating"
)

// A leaderboard cursor the client altered is a 400 naming the cursor, not
// a page with the ranks it asked for.
func TestLeaderboardRefusesAnAlteredCursor(t *testing.T) {
	r := newRig(t)
	r.d.Ratings = postgres.NewRatings(r.db)
	r.d.Metrics = prometheus.NewRegistry() // New registers its metrics once per registry
	r.e = New(r.d)
	for i := 0; i < 5; i++ {
		id, _ := r.user(fmt.Sprintf("ranked%d", i), false)
		if err := r.db.Gorm.Exec("INSERT INTO ratings (user_id, pool, rating, games, peak) VALUES (?, ?, ?, 40, 2000)",
			id, rating.PoolSequence2, 1800-float64(i)*10).Error; err != nil {
			t.Fatal(err)
		}
	}
	type page struct {
		Items []struct {
			Rank int `json:"rank"`
		} `json:"items"`
		NextCursor string `json:"next_cursor"`
	}
	board := "/api/v1/leaderboards/" + rating.PoolSequence2 + "?limit=2"
	read := func(cursor string) (*page, *problem, int) {
		rec := r.call(http.MethodGet, board+"&cursor="+url.QueryEscape(cursor), "", "")
		if rec.Code != http.StatusOK {
			var p problem
			json.Unmarshal(rec.Body.Bytes(), &p)
			return nil, &p, rec.Code
		}
		var p page
		if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		return &p, nil, rec.Code
	}
	first, _, code := read("")
	if code != http.StatusOK || first.NextCursor == "" {
		t.Fatalf("first page: %d %+v", code, first)
	}
	if second, _, code := read(first.NextCursor); code != http.StatusOK || second.Items[0].Rank != 3 {
		t.Fatalf("the issued cursor: %d %+v, want rank 3 first", code, second)
	}
	raw, err := base64.RawURLEncoding.DecodeString(first.NextCursor)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(string(raw), "|")
	parts[3], parts[4] = "0", "0" // the rank and position it continues from
	forged := base64.RawURLEncoding.EncodeToString([]byte(strings.Join(parts, "|")))
	got, p, code := read(forged)
	if code != http.StatusBadRequest {
		t.Fatalf("an altered cursor: status %d (%+v), want 400", code, got)
	}
	if len(p.Errors) != 1 || p.Errors[0].Field != "cursor" {
		t.Errorf("an altered cursor: errors %+v, want one naming cursor", p.Errors)
	}
}

// A club or league that does not exist is a 404, whether its ID is well
// formed or not, not an empty leaderboard.
func TestALeaderboardOfAClubThatDoesNotExistIsNotFound(t *testing.T) {
	r := newRig(t)
	r.d.Ratings = postgres.NewRatings(r.db)
	r.d.Metrics = prometheus.NewRegistry()
	r.e = New(r.d)
	for _, filter := range []string{"club=nope", "club=00000000-0000-0000-0000-000000000000", "league=00000000-0000-0000-0000-000000000000"} {
		if rec := r.call(http.MethodGet, "/api/v1/leaderboards/"+rating.PoolSequence2+"?"+filter, "", ""); rec.Code != http.StatusNotFound {
			t.Errorf("?%s: %d %s, want 404", filter, rec.Code, rec.Body)
		}
	}
}

// A player's ratings say, per pool, their record and the rank the pool's
// default leaderboard shows them at: a number shared by equal displayed
// ratings, and null for a provisional player, whom the board leaves out.
func TestAPlayersRatingsSayTheirRecordAndRank(t *testing.T) {
	r := newRig(t)
	r.d.Ratings = postgres.NewRatings(r.db)
	r.d.Metrics = prometheus.NewRegistry()
	r.e = New(r.d)
	ids := map[string]string{}
	for _, p := range []struct {
		name   string
		rating float64
		games  int
	}{{"top", 1800, 40}, {"tie1", 1790.4, 40}, {"tie2", 1789.6, 35}, {"low", 1700, 30}, {"new", 1900, 2}} {
		id, _ := r.user(p.name, false)
		ids[p.name] = id
		if err := r.db.Gorm.Exec("INSERT INTO ratings (user_id, pool, rating, games, peak) VALUES (?, ?, ?, ?, 2000)",
			id, rating.PoolSequence2, p.rating, p.games).Error; err != nil {
			t.Fatal(err)
		}
	}
	// new's two games: a win and a draw against top.
	for i, winner := range []any{0, nil} {
		var game string
		result := map[bool]string{true: "drawn", false: "finished"}[winner == nil]
		if err := r.db.Gorm.Raw(`INSERT INTO games (kind, variant, players, teams, rated, status, seed, seed_hash, result_status, winner, started_at, finished_at)
			VALUES ('sequence', 'classic', 2, 2, true, 'finished', '\x00', '', ?, ?, now(), now()) RETURNING id`, result, winner).Scan(&game).Error; err != nil {
			t.Fatal(err)
		}
		if err := r.db.Gorm.Exec(`INSERT INTO rating_changes (game_id, user_id, pool, team, abandoned, winner, k, before, after, games)
			VALUES (?, ?, ?, 0, false, ?, 40, 1500, 1500, ?), (?, ?, ?, 1, false, ?, 40, 1500, 1500, ?)`,
			game, ids["new"], rating.PoolSequence2, winner, i+1, game, ids["top"], rating.PoolSequence2, winner, i+1).Error; err != nil {
			t.Fatal(err)
		}
	}
	type pool struct {
		Pool   string `json:"pool"`
		Games  int    `json:"games"`
		Wins   *int   `json:"wins"`
		Losses *int   `json:"losses"`
		Draws  *int   `json:"draws"`
		Rank   *int   `json:"rank"`
	}
	read := func(name string) pool {
		t.Helper()
		rec := r.call(http.MethodGet, "/api/v1/users/"+ids[name]+"/ratings", "", "")
		if rec.Code != http.StatusOK {
			t.Fatalf("%s's ratings: %d %s", name, rec.Code, rec.Body)
		}
		var body struct {
			Pools []pool `json:"pools"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if len(body.Pools) != 1 || !strings.Contains(rec.Body.String(), `"rank":`) {
			t.Fatalf("%s's ratings: %s, want one pool with a rank member", name, rec.Body)
		}
		return body.Pools[0]
	}
	n := func(v int) *int { return &v }
	for _, tc := range []struct {
		name string
		want *int
	}{{"top", n(1)}, {"tie1", n(2)}, {"tie2", n(2)}, {"low", n(4)}, {"new", nil}} {
		got := read(tc.name)
		if (got.Rank == nil) != (tc.want == nil) || (got.Rank != nil && *got.Rank != *tc.want) {
			t.Errorf("%s's rank = %v, want %v", tc.name, fmtRank(got.Rank), fmtRank(tc.want))
		}
		if got.Wins == nil || got.Losses == nil || got.Draws == nil {
			t.Errorf("%s's record: %+v, want wins, losses and draws", tc.name, got)
		}
	}
	if got := read("new"); *got.Wins != 1 || *got.Losses != 0 || *got.Draws != 1 {
		t.Errorf("new's record: %d W %d L %d D, want 1 W 0 L 1 D", *got.Wins, *got.Losses, *got.Draws)
	}
	if got := read("top"); *got.Wins != 0 || *got.Losses != 1 || *got.Draws != 1 {
		t.Errorf("top's record: %d W %d L %d D, want 0 W 1 L 1 D", *got.Wins, *got.Losses, *got.Draws)
	}
}

func fmtRank(r *int) string {
	if r == nil {
		return "null"
	}
	return fmt.Sprint(*r)
}
