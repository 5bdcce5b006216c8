package competition

import (
	"math/rand/v2"
	"testing"
)

// swissHistory plays rounds of a Swiss of n entries with random results.
func swissHistory(b *testing.B, n, size, rounds int) ([]Entry, []Result) {
	b.Helper()
	r := rand.New(rand.NewPCG(11, 12))
	entries := makeEntries(n)
	var history []Result
	for round := 1; round <= rounds; round++ {
		rd, err := SwissRound(entries, history, round, size, DefaultPoints(FormatSwiss, size))
		if err != nil {
			b.Fatal(err)
		}
		history = append(history, playRound(r, rd)...)
	}
	return entries, history
}

// BenchmarkSwissRound2000 pairs round 7 of a 2,000-entry Swiss.
func BenchmarkSwissRound2000(b *testing.B) {
	entries, history := swissHistory(b, 2000, 2, 6)
	b.ResetTimer()
	for b.Loop() {
		if _, err := SwissRound(entries, history, 7, 2, DefaultPoints(FormatSwiss, 2)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSwissRound2001 is the same with a bye to place.
func BenchmarkSwissRound2001(b *testing.B) {
	entries, history := swissHistory(b, 2001, 2, 6)
	b.ResetTimer()
	for b.Loop() {
		if _, err := SwissRound(entries, history, 7, 2, DefaultPoints(FormatSwiss, 2)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSwissRound2000ThreeTeams groups round 5 of a 2,000-entry
// three-team Swiss.
func BenchmarkSwissRound2000ThreeTeams(b *testing.B) {
	entries, history := swissHistory(b, 2000, 3, 4)
	b.ResetTimer()
	for b.Loop() {
		if _, err := SwissRound(entries, history, 5, 3, DefaultPoints(FormatSwiss, 3)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSingleElimination4096(b *testing.B) {
	entries := makeEntries(4096)
	for b.Loop() {
		if _, err := SingleElimination(entries, 2, 1, true); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDoubleElimination4096(b *testing.B) {
	entries := makeEntries(4096)
	for b.Loop() {
		if _, err := DoubleElimination(entries, 1, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReport4096 reports one first-round result in a 4,096-entry
// double-elimination bracket (a copy and a full re-resolve).
func BenchmarkReport4096(b *testing.B) {
	br, err := DoubleElimination(makeEntries(4096), 1, true)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := br.Report("W1-1", "e01"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoundRobinSearch builds a 3-team round robin of 40 entries (no
// Kirkman system: the search runs; RoundRobin caches it afterwards).
func BenchmarkRoundRobinSearch(b *testing.B) {
	for b.Loop() {
		buildSchedule(40, 3, false)
	}
}

func BenchmarkRoundRobinKirkman63(b *testing.B) {
	for b.Loop() {
		buildSchedule(63, 3, false)
	}
}
