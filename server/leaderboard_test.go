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

// ?around= gives the page that shows a player, limit/2 rows above them,
// with the board's ranks and a next_cursor that continues it as the board
// does; around=me is the signed-in player. A player off the board is a 404
// naming around, around=me signed out a 401, around with a cursor a 400.
func TestALeaderboardAroundAPlayer(t *testing.T) {
	r := newRig(t)
	r.d.Ratings = postgres.NewRatings(r.db)
	r.d.Metrics = prometheus.NewRegistry()
	r.e = New(r.d)
	ids, tokens := map[string]string{}, map[string]string{}
	for _, p := range []struct {
		name   string
		rating float64
		games  int
	}{{"pl1", 1900, 40}, {"pl2", 1850, 40}, {"pl3", 1800.4, 40}, {"pl4", 1799.6, 40}, {"pl5", 1750, 40}, {"pl6", 1700, 40}, {"pl7", 1650, 40}, {"newbie", 1820, 3}} {
		ids[p.name], tokens[p.name] = r.user(p.name, false)
		if err := r.db.Gorm.Exec("INSERT INTO ratings (user_id, pool, rating, games, peak) VALUES (?, ?, ?, ?, 2000)",
			ids[p.name], rating.PoolSequence2, p.rating, p.games).Error; err != nil {
			t.Fatal(err)
		}
	}
	type page struct {
		Pool  string `json:"pool"`
		Items []struct {
			Rank     int    `json:"rank"`
			UserID   string `json:"user_id"`
			Username string `json:"username"`
			Display  string `json:"display"`
		} `json:"items"`
		NextCursor *string `json:"next_cursor"`
	}
	board := "/api/v1/leaderboards/" + rating.PoolSequence2
	get := func(query, token string, want int) (*page, *problem) {
		t.Helper()
		rec := r.call(http.MethodGet, board+"?"+query, "", token)
		if rec.Code != want {
			t.Fatalf("?%s: %d %s, want %d", query, rec.Code, rec.Body, want)
		}
		if want != http.StatusOK {
			if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
				t.Errorf("?%s: Content-Type %q", query, ct)
			}
			var p problem
			if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
				t.Fatal(err)
			}
			if len(p.Errors) != 1 || p.Errors[0].Field != "around" {
				t.Errorf("?%s: %s, want one error naming around", query, rec.Body)
			}
			return nil, &p
		}
		var p page
		if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		return &p, nil
	}
	names := func(p *page) string {
		var out []string
		for _, it := range p.Items {
			out = append(out, fmt.Sprintf("%s#%d", it.Username, it.Rank))
		}
		return strings.Join(out, " ")
	}
	// pl5 with limit 4: two above (pl3 and pl4 share rank 3), then pl5, pl6.
	around, _ := get("limit=4&around="+ids["pl5"], "", http.StatusOK)
	if got, want := names(around), "pl3#3 pl4#3 pl5#5 pl6#6"; got != want || around.Pool != rating.PoolSequence2 {
		t.Errorf("around pl5: %s (%s), want %s", got, around.Pool, want)
	}
	if around.NextCursor == nil || *around.NextCursor == "" {
		t.Fatalf("around pl5: next_cursor %v, want one", around.NextCursor)
	}
	if next, _ := get("limit=4&cursor="+url.QueryEscape(*around.NextCursor), "", http.StatusOK); names(next) != "pl7#7" || *next.NextCursor != "" {
		t.Errorf("after the page around pl5: %s, want pl7#7 and the end", names(next))
	}
	// Near the top the page starts at the top; around=me is the caller.
	if top, _ := get("limit=4&around=me", tokens["pl2"], http.StatusOK); names(top) != "pl1#1 pl2#2 pl3#3 pl4#3" {
		t.Errorf("around=me as pl2: %s", names(top))
	}
	// Shown with provisional players, the newcomer is on the board.
	if prov, _ := get("limit=3&provisional=true&around="+ids["newbie"], "", http.StatusOK); names(prov) != "pl2#2 newbie#3 pl3#4" {
		t.Errorf("around newbie with provisional players: %s", names(prov))
	}
	// Refusals.
	get("around="+ids["newbie"], "", http.StatusNotFound)
	get("around=00000000-0000-0000-0000-000000000000", "", http.StatusNotFound)
	get("around=nobody", "", http.StatusNotFound)
	get("around=me", "", http.StatusUnauthorized)
	get("around=me", tokens["newbie"], http.StatusNotFound)
	get("limit=4&around="+ids["pl5"]+"&cursor="+url.QueryEscape(*around.NextCursor), "", http.StatusBadRequest)
}
