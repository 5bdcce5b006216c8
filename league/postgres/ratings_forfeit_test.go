package postgres

import (
	"context"
	"slices"
	"testing"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/rating"
)

// A game every team forfeited (each player's seat taken by a fill-in bot:
// a tournament round both entries no-showed) is rated as a draw, two
// forfeited teams scoring ½ against each other, and the record says so. It
// said "L" for both: a profile read "0 W · 4 L" beside a rating that went
// up in one of those "losses" (seen: 1462 → 1463 for the team whose bot won
// the board, rated below the other).
func TestAGameEveryTeamForfeitedIsADrawInTheRecord(t *testing.T) {
	r, ratings := newRatingRig(t)
	ctx := context.Background()
	ann, bob, cat := r.user(t, "ann").UserID, r.user(t, "bob").UserID, r.user(t, "cat").UserID
	settle := func(teams int, users []string, winner int, abandoned map[int]bool) {
		id := r.finishedGame(t, "sequence", teams, users, winner, abandoned)
		if err := r.games.Settle(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	settle(2, []string{ann, bob}, 0, map[int]bool{0: true, 1: true})               // ann's bot won the board; both walked away
	settle(3, []string{ann, bob, cat}, 2, map[int]bool{0: true, 1: true, 2: true}) // three teams, all walked away
	settle(3, []string{ann, bob, cat}, 2, map[int]bool{0: true, 1: true})          // cat played on: ann and bob lost to her
	for _, tc := range []struct {
		user    string
		pool    string
		w, l, d int
	}{
		{ann, rating.PoolSequence2, 0, 0, 1},
		{bob, rating.PoolSequence2, 0, 0, 1},
		{ann, rating.PoolSequence3, 0, 1, 1},
		{bob, rating.PoolSequence3, 0, 1, 1},
		{cat, rating.PoolSequence3, 1, 0, 1},
	} {
		got, err := ratings.UserRatings(ctx, tc.user, league.RatingHistoryQuery{Pool: tc.pool})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(got.Pools, func(p league.PoolStanding) bool { return p.Pool == tc.pool })
		if i < 0 {
			t.Fatalf("%s: no record in %s", tc.user, tc.pool)
		}
		p := got.Pools[i]
		if p.Wins != tc.w || p.Losses != tc.l || p.Draws != tc.d {
			t.Errorf("%s in %s: %d W · %d L · %d D, want %d · %d · %d", tc.user, tc.pool, p.Wins, p.Losses, p.Draws, tc.w, tc.l, tc.d)
		}
	}
}
