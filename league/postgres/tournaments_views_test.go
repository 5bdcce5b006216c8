package postgres

import (
	"slices"
	"testing"

	"github.com/seqleague/seqleague/league"
)

// Entries that missed the playoffs follow the four that reached them, in
// the group stage's order; two it ranked equal (5th and 5th there, say)
// share a place, and the next takes the place after both.
func TestEntriesOutOfThePlayoffsShareTheirGroupStageTies(t *testing.T) {
	playoffs := []league.StandingRow{{EntryID: "a", Rank: 1}, {EntryID: "b", Rank: 2}, {EntryID: "c", Rank: 3}, {EntryID: "d", Rank: 3}}
	rest := []league.StandingRow{{EntryID: "e", Rank: 3}, {EntryID: "f", Rank: 5}, {EntryID: "g", Rank: 5}, {EntryID: "h", Rank: 7}, {EntryID: "i", Rank: 7}}
	var ranks []int
	for _, row := range placeAfter(playoffs, rest)[4:] {
		ranks = append(ranks, row.Rank)
	}
	if want := []int{5, 6, 6, 8, 8}; !slices.Equal(ranks, want) {
		t.Fatalf("ranks %v, want %v", ranks, want)
	}
}
