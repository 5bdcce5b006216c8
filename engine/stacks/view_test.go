package stacks

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

// swapHidden exchanges one card of seat's hand with a card of a different
// kind in the draw pile, reverses the draw pile and reseeds the generator:
// everything hidden from the other seats changes, nothing else does.
func swapHidden(t *testing.T, s *State, seat int) bool {
	t.Helper()
	for i := 0; i < int(s.deck.n); i++ {
		d := s.deck.c[i]
		for c := R1; c < numKinds; c++ {
			if s.hands[seat][c] > 0 && c != d {
				s.takeFromHand(seat, c)
				s.giveToHand(seat, d)
				s.deck.c[i] = c
				for a, b := 0, int(s.deck.n)-1; a < b; a, b = a+1, b-1 {
					s.deck.c[a], s.deck.c[b] = s.deck.c[b], s.deck.c[a]
				}
				s.rng = rng.NewUint64(12345)
				if err := s.Validate(); err != nil {
					t.Fatal(err)
				}
				return true
			}
		}
	}
	return false
}

// Two states that differ only in cards a seat may not see give that seat,
// and spectators, identical views: the other hands, the deck's order and the
// generator leak nowhere.
func TestViewsOfStatesDifferingOnlyInHiddenCardsAreIdentical(t *testing.T) {
	checked := 0
	forRandomStates(t, 4, 10, func(s *State) {
		if s.Over() || s.turns%7 != 3 {
			return
		}
		other := *s
		if !swapHidden(t, &other, 1) {
			return
		}
		checked++
		for _, seat := range []int{0, 2, 3, Spectator} {
			if a, b := s.ViewFor(seat), other.ViewFor(seat); !reflect.DeepEqual(a, b) {
				t.Fatalf("seat %d sees seat 1's hidden cards:\n%+v\n%+v", seat, a, b)
			}
			a, b := LegalMovesFor(s, seat, nil), LegalMovesFor(&other, seat, nil)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("seat %d's legal moves depend on seat 1's hand: %v, %v", seat, a, b)
			}
		}
		if reflect.DeepEqual(s.ViewFor(1), other.ViewFor(1)) {
			t.Fatal("seat 1's own view did not change with its hand")
		}
	})
	if checked < 20 {
		t.Fatalf("only %d states checked", checked)
	}
}

// In a block window, holding a BLOCK or not changes nothing anyone else sees:
// every other seat is eligible and may answer noblock.
func TestBlockWindowDoesNotRevealWhoHoldsBlock(t *testing.T) {
	const js = `{"piles": [{"color": "red", "cards": ["R1","R2","R3","R4"]}],
		"hands": [["R5","B1"], ["BLOCK","B2"], ["R2","B3"]],
		"deck": ["B4","R1","R3"], "turn": 0}`
	with := position(t, 3, js)
	without := position(t, 3, `{"piles": [{"color": "red", "cards": ["R1","R2","R3","R4"]}],
		"hands": [["R5","B1"], ["R1","B2"], ["R2","B3"]],
		"deck": ["B4","BLOCK","R3"], "turn": 0}`)
	play(t, &with, 0, "R5>0")
	play(t, &without, 0, "R5>0")
	for _, seat := range []int{0, 2, Spectator} {
		a, b := with.ViewFor(seat), without.ViewFor(seat)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("seat %d can tell who holds BLOCK:\n%+v\n%+v", seat, a, b)
		}
	}
	v := with.SpectatorView()
	if v.Window == nil || !reflect.DeepEqual(v.Window.Eligible, []int{1, 2}) {
		t.Fatalf("window %+v, want seats 1 and 2 eligible", v.Window)
	}
	for _, s := range []*State{&with, &without} {
		for seat, want := range []bool{false, true, true} {
			if got := s.MayAct(seat); got != want {
				t.Errorf("MayAct(%d) = %v, want %v", seat, got, want)
			}
		}
	}
}

// FromView rebuilds, from a view and the true hidden cards, a state that
// gives the same view and the same position; views survive JSON too.
func TestFromViewRebuildsAStateWithTheSameView(t *testing.T) {
	n := 0
	forRandomStates(t, 3, 6, func(s *State) {
		n++
		if n%5 != 0 {
			return
		}
		pos := s.Position()
		for _, seat := range []int{0, 1, 2, Spectator} {
			v := s.ViewFor(seat)
			hands := make([][]Card, len(pos.Hands))
			for p := range hands {
				if p != seat {
					hands[p] = pos.Hands[p]
				}
			}
			got, err := FromView(v, hands, pos.Deck, rng.SeedFromUint64(9))
			if err != nil {
				t.Fatalf("FromView: %v", err)
			}
			if gv := got.ViewFor(seat); !reflect.DeepEqual(gv, v) {
				t.Fatalf("seat %d: rebuilt view\n%+v\nwant\n%+v", seat, gv, v)
			}
			a, _ := json.Marshal(got.Position())
			b, _ := json.Marshal(pos)
			if string(a) != string(b) {
				t.Fatalf("rebuilt position\n%s\nwant\n%s", a, b)
			}
			raw, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var back View
			if err := json.Unmarshal(raw, &back); err != nil || !reflect.DeepEqual(back, v) {
				t.Fatalf("view JSON round trip: %v\n%+v\nwant\n%+v", err, back, v)
			}
		}
	})
}

// A dealt game hides exactly the unseen pool: the other hands and the deck.
func TestUnseenIsWhatTheOtherHandsAndTheDeckHold(t *testing.T) {
	forRandomStates(t, 5, 3, func(s *State) {
		v := s.ViewFor(2)
		u := v.Unseen()
		var want [NumKinds]int
		for p := 0; p < 5; p++ {
			if p != 2 {
				for _, c := range s.Hand(p) {
					want[c]++
				}
			}
		}
		for _, c := range s.deck.cards() {
			want[c]++
		}
		if u != want {
			t.Fatalf("Unseen() = %v, want %v", u, want)
		}
	})
}

func TestFromViewRefusesSamplesThatDoNotFit(t *testing.T) {
	s, _ := New(Config{Players: 3}, rng.SeedFromUint64(1))
	v := s.ViewFor(0)
	pos := s.Position()
	for _, tc := range []struct {
		name  string
		hands [][]Card
		deck  []Card
	}{
		{"a hand of the wrong size", [][]Card{nil, pos.Hands[1][:4], pos.Hands[2]}, pos.Deck},
		{"a deck of the wrong size", [][]Card{nil, pos.Hands[1], pos.Hands[2]}, pos.Deck[1:]},
		{"too few hands", [][]Card{nil, pos.Hands[1]}, pos.Deck},
		{"more copies than the box", [][]Card{nil, {R1, R1, R1, R1, R1}, {R1, R1, R1, R1, R1}}, pos.Deck},
	} {
		if _, err := FromView(v, tc.hands, tc.deck, rng.Seed{}); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}
