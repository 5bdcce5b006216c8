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
