package bot

import (
	"math"
	"testing"

	"github.com/seqleague/seqleague/engine/sequence"
	"github.com/seqleague/seqleague/engine/stacks"
)

func TestWilson(t *testing.T) {
	tests := []struct {
		name      string
		k, n      int
		p, lo, hi float64
		tolerance float64
	}{
		{name: "half of a hundred", k: 50, n: 100, p: 0.5, lo: 0.4038, hi: 0.5962, tolerance: 1e-4},
		{name: "ninety of a hundred", k: 90, n: 100, p: 0.9, lo: 0.8256, hi: 0.9448, tolerance: 1e-4},
		{name: "none of ten", k: 0, n: 10, p: 0, lo: 0, hi: 0.2775, tolerance: 1e-4},
		{name: "no games", k: 0, n: 0, p: 0, lo: 0, hi: 1, tolerance: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, lo, hi := Wilson(tt.k, tt.n)
			if math.Abs(p-tt.p) > tt.tolerance || math.Abs(lo-tt.lo) > tt.tolerance || math.Abs(hi-tt.hi) > tt.tolerance {
				t.Errorf("Wilson(%d, %d) = %.4f [%.4f, %.4f], want %.4f [%.4f, %.4f]", tt.k, tt.n, p, lo, hi, tt.p, tt.lo, tt.hi)
			}
		})
	}
}

func TestElo(t *testing.T) {
	tests := []struct {
		name  string
		tally Tally
		want  float64
	}{
		{name: "an even score is no difference", tally: Tally{Wins: 40, Losses: 40, Draws: 20, Sides: 2}, want: 0},
		{name: "three in four is +191", tally: Tally{Wins: 75, Losses: 25, Sides: 2}, want: 190.85},
		{name: "draws count half", tally: Tally{Wins: 50, Losses: 0, Draws: 50, Sides: 2}, want: 190.85},
		{name: "a third of a three-sided game is even", tally: Tally{Wins: 30, Losses: 60, Sides: 3}, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.tally.Elo(); math.Abs(got-tt.want) > 0.01 {
				t.Errorf("Elo = %.2f, want %.2f", got, tt.want)
			}
		})
	}
}

func TestArenaSwapsSides(t *testing.T) {
	// With the same level on both sides every deal is played twice with the
	// sides swapped; greedy is deterministic, so the two games are the same
	// game and A wins exactly one of each pair (or both are drawn).
	for i := 0; i < 8; i += 2 {
		o1, err := ArenaSequence(sequence.Config{Players: 2, Teams: 2}, Greedy, Greedy, 0, 5, i)
		if err != nil {
			t.Fatal(err)
		}
		o2, err := ArenaSequence(sequence.Config{Players: 2, Teams: 2}, Greedy, Greedy, 0, 5, i+1)
		if err != nil {
			t.Fatal(err)
		}
		if o1+o2 != Win+Loss && !(o1 == Draw && o2 == Draw) {
			t.Errorf("deal %d: %v then %v, want one win and one loss", i/2, o1, o2)
		}
	}
	var tally Tally
	for i := 0; i < 6; i++ {
		o, err := ArenaStacks(stacks.Config{Players: 3}, Greedy, Greedy, 0, 5, i)
		if err != nil {
			t.Fatal(err)
		}
		tally.Add(o)
	}
	if tally.Wins != 2 && tally.Draws == 0 {
		t.Errorf("greedy against itself in three-seat Stacks won %d of 6 as A, want 2 (each deal once per seat)", tally.Wins)
	}
}
