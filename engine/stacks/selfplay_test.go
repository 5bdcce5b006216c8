package stacks

import (
	"reflect"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

func TestSelfPlayCountsEveryGameAndReproduces(t *testing.T) {
	for _, players := range []int{2, 4, 6} {
		cfg := Config{Players: players}
		got := SelfPlay(cfg, 200, 42)
		wins := 0
		for _, w := range got.Wins {
			wins += w
		}
		if got.Games != 200 || wins+got.Draws != 200 || len(got.Wins) != players {
			t.Errorf("%d players: %+v, want 200 games split between wins per seat and draws", players, got)
		}
		if got.Turns < 200 || got.Plies < got.Turns {
			t.Errorf("%d players: %d turns and %d plies for 200 games", players, got.Turns, got.Plies)
		}
		if again := SelfPlay(cfg, 200, 42); !reflect.DeepEqual(again, got) {
			t.Errorf("%d players: a second run gave %+v, want %+v", players, again, got)
		}
	}
	if got := SelfPlay(Config{Players: 9}, 10, 1); got.Games != 0 {
		t.Errorf("a bad set-up played %d games", got.Games)
	}
}

func TestReplayRebuildsTheGameAndNamesABadMove(t *testing.T) {
	cfg, seed := Config{Players: 3}, rng.SeedFromUint64(5)
	s, _ := New(cfg, seed)
	var log []Move
	var buf [MaxLegalMoves]Move
	r := rng.NewUint64(1)
	for i := 0; i < 200 && !s.Over(); i++ {
		moves := LegalMoves(&s, buf[:0])
		m := moves[r.IntN(len(moves))]
		log = append(log, m)
		s.apply(m)
	}
	got, err := Replay(cfg, seed, log)
	if err != nil || got != s {
		t.Fatalf("Replay: %v, same state %v", err, got == s)
	}
	bad := append(append([]Move{}, log[:3]...), Move{})
	if _, err := Replay(cfg, seed, bad); err == nil {
		t.Fatal("Replay accepted an illegal move")
	}
}

// RandomMove draws exactly the move LegalMoves would give at the same index,
// so it is uniform over the legal moves.
func TestRandomMoveIsTheLegalMoveAtTheDrawnIndex(t *testing.T) {
	var buf, buf2 [MaxLegalMoves]Move
	forRandomStates(t, 4, 20, func(s *State) {
		if s.Over() {
			return
		}
		r := rng.NewUint64(uint64(s.turns))
		r2 := r
		moves := LegalMoves(s, buf[:0])
		want := moves[r2.IntN(len(moves))]
		if got := RandomMove(s, &r, buf2[:0]); got != want {
			t.Fatalf("RandomMove = %s, want %s", got, want)
		}
	})
}
