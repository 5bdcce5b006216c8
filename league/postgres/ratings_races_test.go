package postgres

import (
	"context"
	"fmt"
	"testing"
)

// `seqleague ratings recompute --write` run while games settle (the server
// is up) loses none of their rating changes: afterwards the stored ratings
// are the replay of the history, every game settled in it. Before, a
// settlement committed between the recompute's read of the history and its
// read of the stored ratings was taken for a mismatch, and the replay
// without it written over its players' ratings (or a new player's first
// rating deleted as standing on no result).
func TestARecomputeWhileGamesSettleLosesNoRatingChange(t *testing.T) {
	r, ratings := newRatingRig(t)
	ctx := context.Background()
	var people []string
	for i := range 12 {
		people = append(people, r.user(t, fmt.Sprintf("p%d", i)).UserID)
	}
	for round := range 5 {
		racers := map[string]func() error{}
		for i := range 6 {
			pair := []string{people[(2*i+round)%12], people[(2*i+1+round)%12]}
			id := r.finishedGame(t, "sequence", 2, pair, i%2, nil)
			racers[fmt.Sprintf("settle %d", i)] = func() error { return r.games.Settle(ctx, id) }
		}
		for i := range 2 {
			racers[fmt.Sprintf("recompute %d", i)] = func() error { _, err := ratings.Recompute(ctx, true); return err }
		}
		got := race(racers)
		wantRefusals(t, round, got)
		res, err := ratings.Recompute(ctx, false)
		if err != nil {
			t.Fatal(err)
		}
		if res.Mismatches != 0 || res.Games != 6*(round+1) {
			t.Fatalf("round %d: after settlements racing recomputes, %d games in the history and %d stored ratings differ from its replay; want %d and none",
				round, res.Games, res.Mismatches, 6*(round+1))
		}
	}
}
