package stacks

import (
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

// BenchmarkRandomGame is one whole 4-player game: the deal, then uniformly
// random legal moves to the end. The target is 20,000 games per second per
// core (at most 50µs/op with -cpu 1).
func BenchmarkRandomGame(b *testing.B) {
	var buf [MaxLegalMoves]Move
	policy := rng.NewUint64(1)
	plies := 0
	i := uint64(0)
	b.ReportAllocs()
	for b.Loop() {
		s, _ := New(Config{Players: 4}, rng.SeedFromUint64(i))
		plies += playRandom(&s, &policy, buf[:0])
		i++
	}
	b.ReportMetric(float64(plies)/float64(i), "plies/game")
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "games/s")
}

func BenchmarkLegalMoves(b *testing.B) {
	var states []State
	n := 0
	forRandomStates(b, 4, 20, func(s *State) {
		if n++; n%10 == 0 && !s.Over() {
			states = append(states, *s)
		}
	})
	buf := make([]Move, 0, MaxLegalMoves)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		buf = LegalMoves(&states[i%len(states)], buf)
		i++
	}
}

func BenchmarkSelfPlay(b *testing.B) {
	for b.Loop() {
		SelfPlay(Config{Players: 4}, 100, 1)
	}
}
