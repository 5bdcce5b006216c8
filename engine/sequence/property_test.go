package sequence

import (
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

// LegalMoves and Legal agree: over many random games, every listed move is
// legal and applies, and a sample of moves not listed (random kinds, cards
// and cells, or the right move from the wrong seat) is refused.
func TestLegalMovesAgreeWithLegal(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 30
	}
	r := rng.NewUint64(99)
	buf := make([]Move, 0, MaxMoves)
	checked, refused := 0, 0
	for g := 0; g < games; g++ {
		cfg := allConfigs[g%len(allConfigs)]
		cfg.Variant = Variant(g / len(allConfigs) % 2)
		s, err := NewGame(cfg, rng.SeedFromUint64(uint64(1000+g)))
		if err != nil {
			t.Fatal(err)
		}
		if g%3 == 0 { // some games carry table-talk penalties
			if err := s.Do(Referee, Penalize(g%cfg.Teams)); err != nil {
				t.Fatal(err)
			}
		}
		for s.Status() == Playing {
			moves := LegalMoves(&s, buf)
			if len(moves) == 0 {
				t.Fatalf("game %d ply %d: no legal move while playing", g, s.Ply())
			}
			listed := map[Move]bool{}
			for _, m := range moves {
				if listed[m] {
					t.Fatalf("game %d ply %d: %v listed twice", g, s.Ply(), m)
				}
				listed[m] = true
				if err := Legal(&s, s.Turn(), m); err != nil {
					t.Fatalf("game %d ply %d: listed %v, but Legal says %v", g, s.Ply(), m, err)
				}
				if _, err := Apply(s, s.Turn(), m); err != nil {
					t.Fatalf("game %d ply %d: listed %v, but Apply says %v", g, s.Ply(), m, err)
				}
				other := (s.Turn() + 1) % s.Players()
				if err := Legal(&s, other, m); err == nil {
					t.Fatalf("game %d ply %d: %v is legal for seat %d out of turn", g, s.Ply(), m, other)
				}
			}
			for k := 0; k < 40; k++ {
				m := randomMove(&r, s.Hand(s.Turn()))
				if listed[m] || m.Kind == KindPenalize {
					continue
				}
				checked++
				if err := Legal(&s, s.Turn(), m); err == nil {
					t.Fatalf("game %d ply %d: %v is legal but not listed among %v", g, s.Ply(), m, moves)
				}
				refused++
			}
			if err := s.Do(s.Turn(), moves[r.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if refused != checked || checked < 10000 {
		t.Fatalf("sampled %d unlisted moves, %d refused", checked, refused)
	}
}

// randomMove is a well-formed move without named windows; half the time
// its card is one the mover holds, so that the sample is not all trivially
// refused.
func randomMove(r *rng.Rand, hand []Card) Move {
	card := Card(1 + r.IntN(numCards-1))
	if len(hand) > 0 && r.IntN(2) == 0 {
		card = hand[r.IntN(len(hand))]
	}
	cell := Cell(r.IntN(Cells))
	switch r.IntN(8) {
	case 0, 1, 2:
		return Place(card, cell)
	case 3, 4:
		return Remove(card, cell)
	case 5:
		return Exchange(card)
	case 6:
		return PenaltyDiscard(card)
	default:
		return Pass()
	}
}
