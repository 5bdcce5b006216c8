package sequence

import (
	"fmt"

	"github.com/seqleague/seqleague/engine/rng"
)

// Spectator is the seat of a view that holds no hand.
const Spectator = -1

// View is what one seat (or a spectator) may know (rules.md 1.6): the Table
// and, for a player, their own hand. It never holds another hand, the draw
// pile's order or the generator. It is a comparable value.
type View struct {
	Table
	seat int8
	hand [MaxHand]Card
}

// ViewFor is seat's view; Spectator (or any seat not at the table) gets the
// spectator view.
func (s *State) ViewFor(seat int) View {
	v := View{Table: s.Table, seat: Spectator}
	if seat >= 0 && seat < s.cfg.Players {
		v.seat = int8(seat)
		v.hand = s.hands[seat]
	}
	return v
}

// SpectatorView is what everyone sees.
func (s *State) SpectatorView() View { return s.ViewFor(Spectator) }

// Seat is the viewer's seat, or Spectator.
func (v *View) Seat() int { return int(v.seat) }

// Hand is the viewer's own hand in the order drawn (nil for a spectator).
func (v *View) Hand() []Card {
	if v.seat < 0 {
		return nil
	}
	return append([]Card(nil), v.hand[:v.handN[v.seat]]...)
}

// LegalMoves lists the viewer's legal moves as LegalMoves does, when it is
// the viewer's turn (none otherwise): a seat's own moves need only its view.
func (v *View) LegalMoves(buf []Move) []Move {
	s, ok := v.moverState()
	if !ok {
		return buf[:0]
	}
	return LegalMoves(&s, buf)
}

// Legal reports whether the viewer may make m now, as Legal does.
func (v *View) Legal(m Move) error {
	s, ok := v.moverState()
	if !ok {
		return fmt.Errorf("%w: it is seat %d's turn, not seat %d's", ErrNotYourTurn, v.turn, v.seat)
	}
	return Legal(&s, int(v.seat), m)
}

// moverState is a State with the viewer's hand and no other hidden card:
// enough to judge the mover's moves, which depend on nothing else.
func (v *View) moverState() (State, bool) {
	if v.seat < 0 || v.seat != int8(v.turn) || v.cfg.Players == 0 {
		return State{}, false
	}
	s := State{Table: v.Table}
	s.hands[v.seat] = v.hand
	return s, true
}

// Unseen is every card of the variant's deck that the viewer cannot see:
// the full deck less the viewer's hand and every discard pile. The other
// hands and the draw pile are made of these (in a position imported from a
// vector, which need not hold the whole deck, some may be out of play). A
// bot that determinizes deals them at random to the other hands and the
// draw pile and calls FromView.
func (v *View) Unseen() []Card {
	var count [numCards]int
	for c := Card(1); c < numCards; c++ {
		count[c] = copiesInDeck(v.cfg.Variant, c)
	}
	if v.seat >= 0 {
		for _, c := range v.hand[:v.handN[v.seat]] {
			count[c]--
		}
	}
	for _, c := range v.discards[:v.discardN] {
		count[c]--
	}
	var out []Card
	for c := Card(1); c < numCards; c++ {
		for k := 0; k < count[c]; k++ {
			out = append(out, c)
		}
	}
	return out
}

// FromView rebuilds a whole game consistent with a view: hands[seat] is each
// seat's hand (the viewer's may be nil, and otherwise must match the view),
// deck the draw pile top first, and seed the generator for later reshuffles.
// Hand and deck sizes must match the view, and no card may appear more often
// than the deck holds it.
func FromView(v View, hands [][]Card, deck []Card, seed rng.Seed) (State, error) {
	s := State{Table: v.Table, rng: rng.New(seed)}
	if v.cfg.Players == 0 {
		return State{}, fmt.Errorf("%w: the zero View is not a game", ErrSetup)
	}
	if len(hands) != v.cfg.Players {
		return State{}, fmt.Errorf("%w: %d hands for %d seats", ErrSetup, len(hands), v.cfg.Players)
	}
	for seat, hand := range hands {
		if seat == int(v.seat) {
			if hand == nil {
				hand = v.hand[:v.handN[seat]]
			} else if !sameCards(hand, v.hand[:v.handN[seat]]) {
				return State{}, fmt.Errorf("%w: seat %d's hand %v is not the viewer's own %v", ErrSetup, seat, hand, v.Hand())
			}
		}
		if len(hand) != int(v.handN[seat]) {
			return State{}, fmt.Errorf("%w: seat %d holds %d cards, not %d", ErrSetup, seat, v.handN[seat], len(hand))
		}
		copy(s.hands[seat][:], hand)
	}
	if len(deck) != int(v.deckN) {
		return State{}, fmt.Errorf("%w: the draw pile holds %d cards, not %d", ErrSetup, v.deckN, len(deck))
	}
	for i, c := range deck {
		s.deck[len(deck)-1-i] = c
	}
	if err := s.checkCards(); err != nil {
		return State{}, err
	}
	return s, nil
}

// checkCards refuses cards the variant's deck lacks and cards held more
// often than the deck holds them.
func (s *State) checkCards() error {
	var count [numCards]int
	add := func(where string, cards []Card) error {
		for _, c := range cards {
			if copiesInDeck(s.cfg.Variant, c) == 0 {
				return fmt.Errorf("%w: %s holds %v, which is not in the %v deck", ErrSetup, where, c, s.cfg.Variant)
			}
			if count[c]++; count[c] > copiesInDeck(s.cfg.Variant, c) {
				return fmt.Errorf("%w: more than %d copies of %v", ErrSetup, copiesInDeck(s.cfg.Variant, c), c)
			}
		}
		return nil
	}
	for seat := 0; seat < s.cfg.Players; seat++ {
		if err := add(fmt.Sprintf("seat %d's hand", seat), s.hands[seat][:s.handN[seat]]); err != nil {
			return err
		}
	}
	if err := add("the draw pile", s.deck[:s.deckN]); err != nil {
		return err
	}
	return add("the discard piles", s.discards[:s.discardN])
}

// sameCards reports whether two hands hold the same multiset of cards.
func sameCards(a, b []Card) bool {
	if len(a) != len(b) {
		return false
	}
	var count [numCards]int
	for _, c := range a {
		if !c.Valid() {
			return false
		}
		count[c]++
	}
	for _, c := range b {
		if !c.Valid() || count[c] == 0 {
			return false
		}
		count[c]--
	}
	return true
}
