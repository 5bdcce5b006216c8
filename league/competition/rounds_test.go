package competition

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// ByeResults are the results to record for a round's byes, as the store
// records them (it builds them from its match rows).
func ByeResults(r Round) []Result {
	out := make([]Result, 0, len(r.Byes))
	for _, id := range r.Byes {
		out = append(out, Result{Round: r.Number, Entries: []string{id}, Bye: true})
	}
	return out
}

func TestRoundsNeeded(t *testing.T) {
	entries := func(n int) []Entry {
		out := make([]Entry, n)
		for i := range out {
			out[i] = Entry{ID: fmt.Sprintf("e%02d", i), Seed: i + 1}
		}
		return out
	}
	for _, tt := range []struct {
		name string
		c    Config
		n    int
		want int
	}{
		{"single elimination of 2", Config{Format: FormatSingleElimination, MatchSize: 2}, 2, 1},
		{"single elimination of 3", Config{Format: FormatSingleElimination, MatchSize: 2}, 3, 2},
		{"single elimination of 8, third place", Config{Format: FormatSingleElimination, MatchSize: 2, ThirdPlace: true}, 8, 3},
		{"single elimination of 9 in threes", Config{Format: FormatSingleElimination, MatchSize: 3}, 9, 2},
		// W1; W2 and L1; L2; the grand final (and its reset)
		{"double elimination of 4", Config{Format: FormatDoubleElimination, MatchSize: 2}, 4, 4},
		{"double elimination of 4, reset", Config{Format: FormatDoubleElimination, MatchSize: 2, Reset: true}, 4, 5},
		{"round robin of 4", Config{Format: FormatRoundRobin, MatchSize: 2}, 4, 3},
		{"double round robin of 5", Config{Format: FormatRoundRobin, MatchSize: 2, Double: true}, 5, 10},
		{"Swiss of 4", Config{Format: FormatSwiss, MatchSize: 2}, 4, 2},
		{"Swiss of 4, 5 rounds", Config{Format: FormatSwiss, MatchSize: 2, Rounds: 5}, 4, 5},
		{"groups of 4 and 4, two advancing", Config{Format: FormatGroupsPlayoffs, MatchSize: 2, Groups: 2, Advance: 2}, 8, 3 + 2},
	} {
		got, err := RoundsNeeded(tt.c, entries(tt.n))
		if err != nil || got != tt.want {
			t.Errorf("%s: %d, %v; want %d", tt.name, got, err, tt.want)
		}
	}
	// the largest field (its time is BenchmarkRoundsNeeded's)
	for _, f := range []Format{FormatSingleElimination, FormatDoubleElimination} {
		got, err := RoundsNeeded(Config{Format: f, MatchSize: 2}, entries(MaxEntries))
		if want := map[Format]int{FormatSingleElimination: 14, FormatDoubleElimination: 27}[f]; err != nil || got != want {
			t.Errorf("%s of %d: %d, %v; want %d", f, MaxEntries, got, err, want)
		}
	}
}

// BenchmarkRoundsNeeded counts the rounds of the largest field, as every
// start and every schedule does: a double-elimination bracket of
// MaxEntries entries.
func BenchmarkRoundsNeeded(b *testing.B) {
	entries := make([]Entry, MaxEntries)
	for i := range entries {
		entries[i] = Entry{ID: fmt.Sprintf("e%05d", i), Seed: i + 1}
	}
	for b.Loop() {
		if _, err := RoundsNeeded(Config{Format: FormatDoubleElimination, MatchSize: 2}, entries); err != nil {
			b.Fatal(err)
		}
	}
}

// A round robin and a group stage are paired from the schedule drawn at
// the start when one is kept (Config.Schedule), not drawn again: a change
// to the schedule search between two rounds (six entries in triples went
// from 6 rounds to 5) would otherwise bring rematches and missed meetings
// into a competition being played.
func TestPairingFollowsTheScheduleDrawnAtTheStart(t *testing.T) {
	entries := makeEntries(6)
	rr := Config{Format: FormatRoundRobin, MatchSize: 2}
	drawn, err := DrawSchedule(rr, entries)
	if err != nil || len(drawn) != 5 {
		t.Fatalf("drawn %d rounds, %v; want 5", len(drawn), err)
	}
	kept := slices.Clone(drawn)
	slices.Reverse(kept) // any schedule but the one the search would draw now
	rr.Schedule = kept
	for n := 1; n <= len(kept); n++ {
		got, err := NextRound(rr, entries, nil, n)
		if err != nil || !slices.EqualFunc(got.Matches, kept[n-1].Matches, func(a, b Pairing) bool { return slices.Equal(a.Entries, b.Entries) }) {
			t.Fatalf("round %d: %+v, %v; want the kept round %+v", n, got, err, kept[n-1])
		}
	}
	if _, err := NextRound(rr, entries, nil, len(kept)+1); !errors.Is(err, ErrState) {
		t.Errorf("a round past the kept schedule: %v; want ErrState", err)
	}
	if n, err := RoundsNeeded(Config{Format: FormatRoundRobin, MatchSize: 2, Schedule: kept[:3]}, entries); n != 3 || err != nil {
		t.Errorf("RoundsNeeded with 3 rounds kept: %d, %v", n, err)
	}

	gp := Config{Format: FormatGroupsPlayoffs, MatchSize: 2, Groups: 2, Advance: 1}
	stage, err := DrawSchedule(gp, entries)
	if err != nil || len(stage) != 3 {
		t.Fatalf("group stage drawn in %d rounds, %v; want 3 (groups of three)", len(stage), err)
	}
	gp.Schedule = stage[:2] // a kept stage of two rounds: the groups are complete after them
	var results []Result
	for n := 1; ; n++ {
		r, err := NextRound(gp, entries, results, n)
		if errors.Is(err, ErrState) {
			if n != 3 {
				t.Fatalf("the group stage ended before round %d; want after the 2 kept rounds", n)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, ByeResults(r)...)
		for _, m := range r.Matches {
			results = append(results, Result{Round: n, Match: m.ID, Entries: m.Entries, Winner: m.Entries[0]})
		}
	}
	tables, err := GroupStandings(gp, entries, results)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range tables {
		if !g.Complete {
			t.Errorf("group %s is not complete after the kept rounds", g.Group)
		}
	}
}
