package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/rating"
)

// A pool's record counts each rated game once, as the rating counted it: an
// abandoner lost whatever the board said, and a player whose opponents all
// walked away won even when their fill-in bots won the board.
func TestAPoolsRecordCountsGamesAsTheyWereRated(t *testing.T) {
	r, ratings := newRatingRig(t)
	ctx := context.Background()
	ann, bob, cat, dan := r.user(t, "ann").UserID, r.user(t, "bob").UserID, r.user(t, "cat").UserID, r.user(t, "dan").UserID
	settle := func(kind string, teams int, users []string, winner int, abandoned map[int]bool) string {
		id := r.finishedGame(t, kind, teams, users, winner, abandoned)
		if err := r.games.Settle(ctx, id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	// In a 2-player game ann is team 0, bob team 1; with four seats ann
	// and dan are team 0.
	settle("sequence", 2, []string{ann, bob}, 0, nil)                              // ann W, bob L
	settle("sequence", 2, []string{ann, bob}, 1, nil)                              // ann L, bob W
	settle("sequence", 2, []string{ann, bob}, -1, nil)                             // a draw
	settle("sequence", 2, []string{ann, bob}, 1, map[int]bool{0: true})            // ann abandoned and lost: L, W
	forfeit := settle("sequence", 2, []string{ann, bob}, 0, map[int]bool{0: true}) // ann's bot won the board: L, and bob beat her
	settle("sequence", 2, []string{ann, bob}, -1, map[int]bool{1: true})           // bob abandoned a drawn game: ann W, bob L
	settle("sequence", 2, []string{ann, bob, dan, cat}, 0, map[int]bool{2: true})  // dan abandoned, ann played on and won: ann W, dan L, bob L, cat L
	settle("sequence", 3, []string{ann, bob, cat}, 2, nil)                         // another pool: cat W
	type record struct {
		Pool           string
		W, L, D, Games int
	}
	recordOf := func(user string) []record {
		t.Helper()
		got, err := ratings.UserRatings(ctx, user, league.RatingHistoryQuery{})
		if err != nil {
			t.Fatal(err)
		}
		var out []record
		for _, p := range got.Pools {
			out = append(out, record{p.Pool, p.Wins, p.Losses, p.Draws, p.Games})
			if p.Wins+p.Losses+p.Draws != p.Games {
				t.Errorf("%s in %s: %d W + %d L + %d D != %d games", user, p.Pool, p.Wins, p.Losses, p.Draws, p.Games)
			}
			if p.Rank != 0 {
				t.Errorf("%s in %s: rank %d after %d games, want none (provisional players are not on the board)", user, p.Pool, p.Rank, p.Games)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name string
		user string
		want []record
	}{
		{"ann", ann, []record{{rating.PoolSequence2, 3, 3, 1, 7}, {rating.PoolSequence3, 0, 1, 0, 1}}},
		{"bob", bob, []record{{rating.PoolSequence2, 3, 3, 1, 7}, {rating.PoolSequence3, 0, 1, 0, 1}}},
		{"cat", cat, []record{{rating.PoolSequence2, 0, 1, 0, 1}, {rating.PoolSequence3, 1, 0, 0, 1}}},
		{"dan", dan, []record{{rating.PoolSequence2, 0, 1, 0, 1}}},
	} {
		if diff := cmp.Diff(tc.want, recordOf(tc.user)); diff != "" {
			t.Errorf("%s's record (-want +got):\n%s", tc.name, diff)
		}
	}
	// The record's win for bob is the rating's: he went up.
	got, err := ratings.UserRatings(ctx, bob, league.RatingHistoryQuery{Pool: rating.PoolSequence2})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range got.History {
		if h.GameID == forfeit && h.After <= h.Before {
			t.Errorf("bob's rating in the game ann walked away from: %.1f → %.1f, want up", h.Before, h.After)
		}
	}
}

// The rank a player's ratings give is the rank the pool's default
// leaderboard shows them at, ties (equal displayed ratings, halves rounded
// away from zero as Display rounds them) included, and none for a player the
// board leaves out: provisional, or closed.
func TestAPoolsRankIsTheDefaultLeaderboardsRank(t *testing.T) {
	r, ratings := newRatingRig(t)
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(5, 6))
	// Ratings on the edges of rounding: 1500.5 shows 1501, 1500.4999 1500.
	edges := []float64{1500.5, 1500.5, 1500.4999999, 1499.5, 1501.49, 1500, 2400.5, 2400.5}
	var users []string
	closed := map[string]bool{}
	for i := 0; i < 120; i++ {
		u := r.user(t, fmt.Sprintf("player%03d", i)).UserID
		users = append(users, u)
		value := 1450 + float64(rnd.IntN(12))*5 + float64(rnd.IntN(3))*0.5
		if i < len(edges) {
			value = edges[i]
		}
		games := 30 + rnd.IntN(20)
		if i%7 == 3 {
			games = rnd.IntN(30) // provisional
		}
		if err := r.db.Gorm.Exec("INSERT INTO ratings (user_id, pool, rating, games, peak) VALUES (?, ?, ?, ?, ?)", u, rating.PoolStacks, value, games, value).Error; err != nil {
			t.Fatal(err)
		}
		if i%11 == 5 || i == 6 { // i == 6: a closed account ahead of everyone
			closed[u] = true
			if err := r.db.Gorm.Exec("UPDATE users SET deleted_at = now() WHERE id = ?", u).Error; err != nil {
				t.Fatal(err)
			}
		}
	}
	boardRank := map[string]int{}
	q := league.LeaderboardQuery{Pool: rating.PoolStacks, Limit: 9}
	for {
		rows, next, err := ratings.Leaderboard(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			boardRank[row.UserID] = row.Rank
		}
		if next == "" {
			break
		}
		q.Cursor = next
	}
	shared := map[int]int{}
	for _, rank := range boardRank {
		shared[rank]++
	}
	ties, onBoard := 0, 0
	for i, u := range users {
		got, err := ratings.UserRatings(ctx, u, league.RatingHistoryQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Pools) != 1 {
			t.Fatalf("player%03d has %d pools, want 1", i, len(got.Pools))
		}
		p := got.Pools[0]
		want, ok := boardRank[u]
		if !ok && (!p.Provisional && !closed[u]) {
			t.Fatalf("player%03d (%s, closed %v) is not on the board", i, p.Display, closed[u])
		}
		if p.Rank != want {
			t.Errorf("player%03d (%s, %d games, closed %v): rank %d, the leaderboard's %d", i, p.Display, p.Games, closed[u], p.Rank, want)
		}
		if ok {
			onBoard++
			if shared[want] > 1 {
				ties++
			}
		}
	}
	if ties == 0 || onBoard < 60 || onBoard == len(users) {
		t.Fatalf("%d players on the board, %d sharing a rank: the test proves little", onBoard, ties)
	}
	// The edges: 1500.5 and 2400.5 round up, so the two 2400.5s share rank 1
	// (the closed one aside) and the 1500.5s share one above 1500.4999999.
	first, _ := ratings.UserRatings(ctx, users[7], league.RatingHistoryQuery{})
	if first.Pools[0].Rank != 1 || closed[users[7]] {
		t.Errorf("2400.5 ranks %d, want 1", first.Pools[0].Rank)
	}
}

// Around zero a rank still counts the players displayed above: a rating of
// -0.5 shows -1 and -0.4999 shows 0 (halves rounded away from zero), so the
// counts' bounds turn from "at least" to "more than" below zero. A player's
// rank and the page around them give every player the rank of the board
// read from the top.
func TestARankAroundZeroIsTheLeaderboardsRank(t *testing.T) {
	r, ratings := newRatingRig(t)
	ctx := context.Background()
	values := []float64{2.5, 1.5, 1.4999, 0.5, 0.5, 0.4999, 0, 0, -0.4999, -0.5, -0.5, -0.5000001, -1.4999, -1.5, -1.5, -2.5, -3}
	var users []string
	for i, value := range values {
		u := r.user(t, fmt.Sprintf("zero%02d", i)).UserID
		users = append(users, u)
		if err := r.db.Gorm.Exec("INSERT INTO ratings (user_id, pool, rating, games, peak) VALUES (?, ?, ?, ?, ?)", u, rating.PoolStacks, value, 40, value).Error; err != nil {
			t.Fatal(err)
		}
	}
	boardRank := map[string]int{}
	rows, _, err := ratings.Leaderboard(ctx, league.LeaderboardQuery{Pool: rating.PoolStacks, Limit: 50})
	if err != nil || len(rows) != len(values) {
		t.Fatalf("board: %d rows, %v", len(rows), err)
	}
	for _, row := range rows {
		boardRank[row.UserID] = row.Rank
	}
	for i, u := range users {
		got, err := ratings.UserRatings(ctx, u, league.RatingHistoryQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if rank := got.Pools[0].Rank; rank != boardRank[u] {
			t.Errorf("%v: rank %d, the leaderboard's %d", values[i], rank, boardRank[u])
		}
		// A page of 2 around the player starts one row above them: its
		// rank is counted, not read from the top.
		page, _, err := ratings.Leaderboard(ctx, league.LeaderboardQuery{Pool: rating.PoolStacks, Limit: 2, Around: u})
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range page {
			if row.Rank != boardRank[row.UserID] {
				t.Errorf("around %v: %s at rank %d, the leaderboard's %d", values[i], row.State.Display, row.Rank, boardRank[row.UserID])
			}
		}
	}
}
