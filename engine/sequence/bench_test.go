package sequence

import (
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

var twoPlayers = Config{Variant: Classic, Players: 2, Teams: 2}

// BenchmarkRandomGame plays whole random two-player classic games; games/s
// is 1e9 / ns/op.
func BenchmarkRandomGame(b *testing.B) {
	buf := make([]Move, 0, MaxMoves)
	r := rng.NewUint64(1)
	seed := uint64(0)
	plies := 0
	for b.Loop() {
		seed++
		s, err := NewGame(twoPlayers, rng.SeedFromUint64(seed))
		if err != nil {
			b.Fatal(err)
		}
		for s.Status() == Playing {
			moves := LegalMoves(&s, buf)
			if err := s.Do(s.Turn(), moves[r.IntN(len(moves))]); err != nil {
				b.Fatal(err)
			}
		}
		plies += s.Ply()
	}
	b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
}

// midgame is a two-player position some plies in, with a 7-card hand to move.
func midgame(tb testing.TB, plies int) State {
	tb.Helper()
	s, err := NewGame(twoPlayers, rng.SeedFromUint64(7))
	if err != nil {
		tb.Fatal(err)
	}
	r := rng.NewUint64(7)
	buf := make([]Move, 0, MaxMoves)
	for i := 0; i < plies && s.Status() == Playing; i++ {
		moves := LegalMoves(&s, buf)
		if err := s.Do(s.Turn(), moves[r.IntN(len(moves))]); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

func BenchmarkLegalMoves(b *testing.B) {
	mid := midgame(b, 20)
	jacks := fixture{
		chips: "b2 c3 e5 b:f6 b:g7 b:h8 j2 b:a6", hands: "JC JH 7H 2S 5C 9D QS|2D",
		deck: "4C",
	}.state(b)
	for _, bench := range []struct {
		name string
		s    State
	}{{"7 board cards", mid}, {"7 cards with a two-eyed and a one-eyed jack", jacks}} {
		b.Run(bench.name, func(b *testing.B) {
			s := bench.s
			if s.HandSize(s.Turn()) != 7 {
				b.Fatalf("hand of %d cards, want 7", s.HandSize(s.Turn()))
			}
			buf := make([]Move, 0, MaxMoves)
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				n = len(LegalMoves(&s, buf))
			}
			b.ReportMetric(float64(n), "moves")
		})
	}
}

func BenchmarkApply(b *testing.B) {
	s := midgame(b, 20)
	moves := LegalMoves(&s, nil)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := Apply(s, s.Turn(), moves[i%len(moves)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
