package competition

import (
	"fmt"
	"testing"
)

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
