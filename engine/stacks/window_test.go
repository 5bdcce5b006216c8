package stacks

import (
	"errors"
	"testing"
)

// windowGame: seat 0 is about to complete a red pile with R5; seats 1 and 2
// answer the window. Seat 0 holds 2 red and 2 blue chips minus one red, so
// the red chip for the completion is its winning chip.
const windowGame = `{
	"piles": [{"color": "red", "cards": ["R1","R2","R3","R4"]}],
	"hands": [["R5","B1","B2"], ["BLOCK","R1"], ["B3","R2"]],
	"chips": [{"red": 1, "blue": 3}, {"red": 0, "blue": 0}, {"red": 0, "blue": 0}],
	"deck": ["B4","R3","B5"], "turn": 0}`

func TestBlockWindowAnswers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answers [][2]any // seat, move text
		phase   Phase
		chips   int // seat 0's red chips after
	}{
		{"every other seat answering noblock closes it and grants the chip", [][2]any{{1, "noblock"}, {2, "noblock"}}, PhaseWon, 2},
		{"one noblock leaves it open for the others", [][2]any{{2, "noblock"}}, PhaseWindow, 1},
		{"a BLOCK closes it at once and denies the chip", [][2]any{{1, "BLOCK"}}, PhasePlay, 1},
		{"a BLOCK after another seat's noblock still blocks", [][2]any{{2, "noblock"}, {1, "BLOCK"}}, PhasePlay, 1},
		{"the server's close grants the chip, and the win happens then", [][2]any{{Server, "close"}}, PhaseWon, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := position(t, 3, windowGame)
			play(t, &s, 0, "R5>0")
			if s.Phase() != PhaseWindow || s.Chips(0)[Red] != 1 {
				t.Fatalf("after the completion: phase %s, red chips %d; want block-window, 1 (the chip waits for the window)", s.Phase(), s.Chips(0)[Red])
			}
			for _, a := range tc.answers {
				play(t, &s, a[0].(int), a[1].(string))
			}
			if s.Phase() != tc.phase || s.Chips(0)[Red] != tc.chips {
				t.Fatalf("phase %s, red chips %d; want %s, %d", s.Phase(), s.Chips(0)[Red], tc.phase, tc.chips)
			}
			if tc.phase == PhaseWon && s.Outcome() != (Outcome{Status: Finished, Winner: 0}) {
				t.Fatalf("outcome %+v, want seat 0 finished", s.Outcome())
			}
		})
	}
}

func TestBlockWindowRefusals(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before [][2]any
		seat   int
		text   string
		is     error
	}{
		{"the completer cannot play on while the window is open", nil, 0, "/B1", ErrWindowOpen},
		{"the completer cannot answer its own window", nil, 0, "noblock", ErrNotYourTurn},
		{"a seat without BLOCK cannot block", nil, 2, "BLOCK", ErrIllegal},
		{"a seat that answered noblock cannot block after", [][2]any{{1, "noblock"}}, 1, "BLOCK", ErrNotYourTurn},
		{"a seat answers once", [][2]any{{2, "noblock"}}, 2, "noblock", ErrNotYourTurn},
		{"only the server closes the window", nil, 1, "close", ErrIllegal},
		{"no one blocks once a BLOCK closed the window", [][2]any{{1, "BLOCK"}}, 2, "noblock", ErrIllegal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := position(t, 3, windowGame)
			play(t, &s, 0, "R5>0")
			for _, a := range tc.before {
				play(t, &s, a[0].(int), a[1].(string))
			}
			if err := refused(t, &s, tc.seat, tc.text); !errors.Is(err, tc.is) {
				t.Fatalf("got %v, want an error wrapping %v", err, tc.is)
			}
		})
	}
}

// BLOCK is only ever an answer to a window: not on one's own turn, not
// without a completion.
func TestBlockOutsideAWindowIsRefused(t *testing.T) {
	s := position(t, 3, `{"hands": [["BLOCK","R1"], ["BLOCK"], ["B1"]], "deck": ["R2"], "turn": 0}`)
	for _, seat := range []int{0, 1} {
		if err := refused(t, &s, seat, "BLOCK"); !errors.Is(err, ErrIllegal) {
			t.Errorf("seat %d BLOCK: got %v, want ErrIllegal", seat, err)
		}
	}
	if _, err := ParseMove(0, "BLOCK>0"); err == nil {
		t.Error("BLOCK on a pile parsed")
	}
}

// The blocked completer keeps playing; a hand emptied by the completing card
// is refilled when the window closes, after the BLOCK reached the set-aside
// pile.
func TestEmptyHandRefillWaitsForTheWindow(t *testing.T) {
	s := position(t, 2, `{
		"piles": [{"color": "blue", "cards": ["B1","B2","B3","B4"]}],
		"hands": [["B5"], ["BLOCK","R1"]],
		"discards": [["R2"], []],
		"turn": 0}`)
	play(t, &s, 0, "B5>0")
	if s.HandSize(0) != 0 || s.setaside.n != 5 {
		t.Fatalf("in the window: hand %d, setaside %d; want 0 and 5 (no draw yet)", s.HandSize(0), s.setaside.n)
	}
	play(t, &s, 1, "BLOCK")
	// The pile and the BLOCK (6 cards) became the draw pile; 5 were drawn.
	if s.HandSize(0) != 5 || s.setaside.n != 0 || s.deck.n != 1 {
		t.Fatalf("after the block: hand %d, setaside %d, deck %d; want 5, 0, 1", s.HandSize(0), s.setaside.n, s.deck.n)
	}
	if s.Phase() != PhasePlay || s.Turn() != 0 {
		t.Fatalf("phase %s turn %d, want seat 0 playing on", s.Phase(), s.Turn())
	}
}

// With no chip of the colour left, the window still opens (nothing hidden
// decides that) and closing it grants nothing.
func TestEmptySupplyGrantsNoChip(t *testing.T) {
	s := position(t, 2, `{
		"piles": [{"color": "red", "cards": ["R1","R2","R3","R4"]}],
		"hands": [["R5","B1"], ["B2"]],
		"chips": [{"red": 3, "blue": 1}, {"red": 0, "blue": 0}],
		"supply": {"red": 0, "blue": 19},
		"deck": ["B3"], "turn": 0}`)
	play(t, &s, 0, "R5>0")
	if s.Phase() != PhaseWindow {
		t.Fatalf("phase %s, want block-window", s.Phase())
	}
	play(t, &s, 1, "noblock")
	if got := s.Chips(0); got != [2]int{3, 1} || s.supply != [2]uint8{0, 19} {
		t.Fatalf("chips %v supply %v, want [3 1] and [0 19]", got, s.supply)
	}
}

func TestTimeoutMove(t *testing.T) {
	s := position(t, 3, windowGame)
	if got, want := TimeoutMove(&s), Discard(0, R5); got != want {
		t.Errorf("in play: got %s, want %s", got, want)
	}
	play(t, &s, 0, "R5>0")
	if got, want := TimeoutMove(&s), CloseWindow(); got != want {
		t.Errorf("in a window: got %s, want %s", got, want)
	}
	empty := position(t, 2, `{"hands": [[], ["R1"]], "discards": [["R3"], []], "turn": 0}`)
	if got, want := TimeoutMove(&empty), EndTurn(0); got != want {
		t.Errorf("empty hand: got %s, want %s", got, want)
	}
}
