package sequence

import (
	"errors"
	"slices"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

// randomState is a four-player game some random plies in.
func randomState(t testing.TB, seed uint64, plies int) State {
	t.Helper()
	s, err := NewGame(Config{Players: 4, Teams: 2}, rng.SeedFromUint64(seed))
	if err != nil {
		t.Fatal(err)
	}
	r := rng.NewUint64(seed)
	for i := 0; i < plies && s.Status() == Playing; i++ {
		moves := LegalMoves(&s, nil)
		if err := s.Do(s.Turn(), moves[r.IntN(len(moves))]); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// Two games that differ only in cards hidden from a viewer, and in the
// generator, look the same to that viewer.
func TestViewsHideWhatRulesHide(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		s := randomState(t, seed, 30)
		// Swap a card of seat 1's hand with the bottom of the draw pile.
		other := s
		other.rng = rng.NewUint64(seed + 1000)
		other.hands[1][0], other.deck[0] = other.deck[0], other.hands[1][0]
		if other.hands[1][0] == s.hands[1][0] {
			continue // the same card: nothing hidden differs
		}
		for _, viewer := range []int{Spectator, 0, 2, 3} {
			if s.ViewFor(viewer) != other.ViewFor(viewer) {
				t.Fatalf("seed %d: seat %d's view shows seat 1's hand or the draw pile", seed, viewer)
			}
		}
		if s.ViewFor(1) == other.ViewFor(1) {
			t.Fatalf("seed %d: seat 1's view does not show its own hand", seed)
		}
		// Swap cards between two hands: only those two seats can tell.
		third := s
		third.hands[1][0], third.hands[2][0] = s.hands[2][0], s.hands[1][0]
		if s.hands[1][0] == s.hands[2][0] {
			continue
		}
		for _, viewer := range []int{Spectator, 0, 3} {
			if s.ViewFor(viewer) != third.ViewFor(viewer) {
				t.Fatalf("seed %d: seat %d's view shows another seat's hand", seed, viewer)
			}
		}
	}
}

func TestSpectatorSeesNoHand(t *testing.T) {
	s := randomState(t, 1, 10)
	v := s.SpectatorView()
	if v.Seat() != Spectator || v.Hand() != nil {
		t.Fatalf("got seat %d with hand %v, want the spectator with none", v.Seat(), v.Hand())
	}
	if got, want := v.HandSize(2), s.HandSize(2); got != want {
		t.Fatalf("got hand size %d, want %d", got, want)
	}
	if got := s.ViewFor(99); got != v {
		t.Fatal("a seat not at the table does not get the spectator view")
	}
}

// FromView with the true hidden cards rebuilds the game; with sampled
// cards it rebuilds a game the viewer cannot tell from it.
func TestFromViewRebuildsAConsistentGame(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		s := randomState(t, seed, int(seed*3))
		viewer := s.Turn()
		v := s.ViewFor(viewer)
		var hs [][]Card
		for seat := 0; seat < s.Players(); seat++ {
			hs = append(hs, s.Hand(seat))
		}
		got, err := FromView(v, hs, s.Deck(), rng.SeedFromUint64(seed))
		if err != nil {
			t.Fatal(err)
		}
		got.rng = s.rng
		if got != s {
			t.Fatalf("seed %d: the rebuilt game differs", seed)
		}

		// Determinize: deal the unseen cards at random.
		unseen := v.Unseen()
		need := v.DeckSize()
		for seat := 0; seat < s.Players(); seat++ {
			if seat != viewer {
				need += v.HandSize(seat)
			}
		}
		if len(unseen) != need {
			t.Fatalf("seed %d: %d unseen cards, want %d", seed, len(unseen), need)
		}
		r := rng.NewUint64(seed)
		rng.Shuffle(&r, unseen)
		sampled := make([][]Card, s.Players())
		for seat := range sampled {
			if seat != viewer {
				sampled[seat], unseen = unseen[:v.HandSize(seat)], unseen[v.HandSize(seat):]
			}
		}
		d, err := FromView(v, sampled, unseen, rng.SeedFromUint64(seed))
		if err != nil {
			t.Fatal(err)
		}
		if d.ViewFor(viewer) != v {
			t.Fatalf("seed %d: the determinized game looks different to the viewer", seed)
		}
		if !slices.Equal(LegalMoves(&d, nil), LegalMoves(&s, nil)) {
			t.Fatalf("seed %d: the determinized game has other legal moves", seed)
		}
		if !slices.Equal(v.LegalMoves(nil), LegalMoves(&s, nil)) {
			t.Fatalf("seed %d: the view lists other legal moves than the game", seed)
		}
		if other := s.ViewFor((viewer + 1) % s.Players()); len(other.LegalMoves(nil)) != 0 || other.Legal(Pass()) == nil {
			t.Fatalf("seed %d: a seat out of turn has legal moves in its view", seed)
		}
	}
}

func TestFromViewRefusesInconsistentCards(t *testing.T) {
	s := randomState(t, 3, 8)
	v := s.ViewFor(0)
	hs := func() [][]Card {
		var out [][]Card
		for seat := 0; seat < s.Players(); seat++ {
			out = append(out, s.Hand(seat))
		}
		return out
	}
	tests := []struct {
		name  string
		hands [][]Card
		deck  []Card
	}{
		{"too few hands", hs()[:3], s.Deck()},
		{"a hand of the wrong size", func() [][]Card { h := hs(); h[1] = h[1][1:]; return h }(), s.Deck()},
		{"another hand for the viewer", func() [][]Card { h := hs(); h[0], h[1] = h[1], h[0]; return h }(), s.Deck()},
		{"a draw pile of the wrong size", hs(), s.Deck()[1:]},
		{"a third copy of a card", func() [][]Card {
			h := hs()
			d := s.Deck()
			h[1][0], h[1][1], h[2][0] = d[0], d[0], d[0]
			return h
		}(), s.Deck()},
		{"a card not in the deck", func() [][]Card { h := hs(); h[1][0] = WildPlus; return h }(), s.Deck()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := FromView(v, tt.hands, tt.deck, rng.Seed{}); !errors.Is(err, ErrSetup) {
				t.Fatalf("got %v, want %v", err, ErrSetup)
			}
		})
	}
	if _, err := FromView(View{}, nil, nil, rng.Seed{}); !errors.Is(err, ErrSetup) {
		t.Fatalf("the zero view: got %v, want %v", err, ErrSetup)
	}
}
