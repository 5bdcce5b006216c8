package stacks

import (
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

func TestTurnPassing(t *testing.T) {
	for _, tc := range []struct {
		name    string
		players int
		hand0   string
		moves   []string // seat 0's moves, the last one ends the turn
		turn    int
		dir     int
	}{
		{"play goes to seat+1", 3, `["B1","B2"]`, []string{"/B1"}, 1, 1},
		{"SKIP passes over the next seat", 3, `["SKIP","B2"]`, []string{"SKIP", "/B2"}, 2, 1},
		{"a second SKIP on the same seat changes nothing", 3, `["SKIP","SKIP","B2"]`, []string{"SKIP", "SKIP", "/B2"}, 2, 1},
		{"REVERSE sends play to seat-1", 3, `["REVERSE","B2"]`, []string{"REVERSE", "/B2"}, 2, -1},
		{"a SKIP stays on the seat it named when REVERSE follows", 3, `["SKIP","REVERSE","B2"]`, []string{"SKIP", "REVERSE", "/B2"}, 2, -1},
		{"with two players SKIP means playing again", 2, `["SKIP","B2"]`, []string{"SKIP", "/B2"}, 0, 1},
		{"with two players REVERSE flips the direction and changes nothing else", 2, `["REVERSE","B2"]`, []string{"REVERSE", "/B2"}, 1, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hands := `[` + tc.hand0 + `, ["R1"]`
			if tc.players == 3 {
				hands += `, ["R2"]`
			}
			s := position(t, tc.players, `{"hands": `+hands+`], "deck": ["B3","B4","B5","R3","R4","R5"], "turn": 0}`)
			for _, m := range tc.moves {
				play(t, &s, 0, m)
			}
			if s.Turn() != tc.turn || s.Direction() != tc.dir {
				t.Fatalf("turn %d direction %d, want %d %d", s.Turn(), s.Direction(), tc.turn, tc.dir)
			}
		})
	}
}

// A seat whose turn starts with an empty hand draws five first; one that
// starts with a short hand plays it as it is.
func TestTurnStartDraws(t *testing.T) {
	s := position(t, 3, `{"hands": [["B1","B2"], [], ["R1"]], "deck": ["R2","R3","R4","R5","B3","B4","B5","RW","BW"], "turn": 0}`)
	play(t, &s, 0, "/B1")
	if s.Turn() != 1 || s.HandSize(1) != 5 || s.HandSize(0) != 5 {
		t.Fatalf("turn %d, hands %d %d; want seat 1 with 5 drawn, seat 0 filled to 5", s.Turn(), s.HandSize(0), s.HandSize(1))
	}
	play(t, &s, 1, "/RW")
	if s.Turn() != 2 || s.HandSize(2) != 1 {
		t.Fatalf("turn %d, seat 2 holds %d; want seat 2 with its 1 card", s.Turn(), s.HandSize(2))
	}
}

// STEAL_CARD from a hand draws with the game's generator: the same state
// always steals the same card, and the pick depends on the generator.
func TestStealFromHandIsRandomButReplays(t *testing.T) {
	const js = `{"hands": [["STEAL_CARD","B1"], ["R1","R2","R3","R4","R5"], ["B2"]], "deck": ["B3"], "turn": 0}`
	seen := map[Card]bool{}
	for seed := uint64(0); seed < 40; seed++ {
		var p Position
		s := position(t, 3, js)
		_ = p
		s.rng = rng.NewUint64(seed)
		again := s
		play(t, &s, 0, "STEAL_CARD@1:hand")
		play(t, &again, 0, "STEAL_CARD@1:hand")
		if s != again {
			t.Fatal("the same state stole differently")
		}
		if s.HandSize(0) != 2 || s.HandSize(1) != 4 {
			t.Fatalf("hands %d %d, want 2 4", s.HandSize(0), s.HandSize(1))
		}
		for c := R1; c <= R5; c++ {
			if s.hands[0][c] > 0 {
				seen[c] = true
			}
		}
	}
	if len(seen) < 4 {
		t.Fatalf("40 seeds stole only %v", seen)
	}
}

// The play cap counts finished turns; reaching it draws the game.
func TestPlayCapDrawsTheGame(t *testing.T) {
	var buf [MaxLegalMoves]Move
	s, _ := New(Config{Players: 3, PlayCap: 4}, rng.SeedFromUint64(1))
	for turns := 0; !s.Over(); {
		moves := LegalMoves(&s, buf[:0])
		m := moves[len(moves)-1] // a discard or a window's close: turns pass
		if err := s.Apply(m); err != nil {
			t.Fatal(err)
		}
		if m.Kind == MoveDiscard || m.Kind == MoveEndTurn {
			turns++
		}
		if turns > 4 {
			t.Fatal("the game went past its cap")
		}
	}
	if o := s.Outcome(); o != (Outcome{Status: Drawn, Winner: -1}) || s.Turns() != 4 {
		t.Fatalf("outcome %+v after %d turns, want drawn after 4", o, s.Turns())
	}
	if err := s.Legal(Discard(s.Turn(), R1)); err != ErrGameOver {
		t.Fatalf("a move after the end: %v, want ErrGameOver", err)
	}
}

// "/" ends a turn only with an empty hand and nothing to draw; cards reaching
// the set-aside pile while the hand is empty are drawn at once.
func TestEmptyHandEndsTheTurnWithoutADiscard(t *testing.T) {
	s := position(t, 2, `{"hands": [[], ["R1"]], "discards": [["B2","SKIP"], []], "turn": 0}`)
	if s.HandSize(0) != 0 {
		t.Fatalf("hand %d, want empty", s.HandSize(0))
	}
	play(t, &s, 0, "^SKIP") // SKIP goes to the set-aside pile: seat 0 draws it back
	if s.HandSize(0) != 1 || s.hands[0][Skip] != 1 {
		t.Fatalf("hand %v, want the SKIP drawn back", s.Hand(0))
	}
	refused(t, &s, 0, "/")
	play(t, &s, 0, "SKIP") // and again: it comes back each time
	if s.HandSize(0) != 1 || s.skipped[1] != 1 {
		t.Fatalf("hand %v, skips %v: want the SKIP back and seat 1 skipped once", s.Hand(0), s.skipped)
	}
	play(t, &s, 0, "/SKIP") // seat 1 loses its turn: seat 0 again
	if s.Turn() != 0 || s.skipped[1] != 0 || s.HandSize(0) != 0 {
		t.Fatalf("turn %d, skips %v, hand %v: want seat 0 again", s.Turn(), s.skipped, s.Hand(0))
	}
}
