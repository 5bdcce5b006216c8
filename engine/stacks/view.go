package stacks

import (
	"fmt"

	"github.com/seqleague/seqleague/engine/rng"
)

// Spectator is View.Seat for a view that holds no hand.
const Spectator = -1

// Pile is a sequence pile as seats see it and as vectors write it: its colour
// and its cards, bottom first.
type Pile struct {
	Color Color  `json:"color"`
	Cards []Card `json:"cards"`
}

// Chips is a count of red and blue chips.
type Chips struct {
	Red  int `json:"red"`
	Blue int `json:"blue"`
}

// Window is the open block window as everyone sees it. It never says who
// holds a BLOCK: every other seat may answer, with a BLOCK or with noblock.
type Window struct {
	Completer int   `json:"completer"`
	Color     Color `json:"color"`    // the chip at stake
	Eligible  []int `json:"eligible"` // seats that may still answer
	Answered  []int `json:"answered"` // seats that answered noblock
}

// View is what one seat (or a spectator) may know (rules.md 2.5): everything
// public plus the viewer's own hand. It carries all of the state except the
// other hands, the draw pile's order and the generator, so that FromView can
// rebuild a full State from it and sampled hidden cards.
type View struct {
	Seat      int      `json:"seat"` // the viewer, or Spectator
	Players   int      `json:"players"`
	PlayCap   int      `json:"play_cap"`
	Turns     int      `json:"turns"` // finished turns
	Turn      int      `json:"turn"`
	Direction int      `json:"direction"`
	Phase     Phase    `json:"phase"`
	Status    Status   `json:"status"`
	Winner    int      `json:"winner"` // -1 unless Status is Finished
	Window    *Window  `json:"window,omitempty"`
	Piles     []Pile   `json:"piles"`
	Discards  [][]Card `json:"discards"` // per seat, bottom first
	SetAside  []Card   `json:"setaside"` // oldest first
	Chips     []Chips  `json:"chips"`
	Supply    Chips    `json:"supply"`
	HandSizes []int    `json:"hand_sizes"`
	DeckSize  int      `json:"deck_size"`
	Skipped   []bool   `json:"skipped"` // seats that will lose their next turn
	Hand      []Card   `json:"hand"`    // the viewer's hand in kind order; nil for a spectator
}

// ViewFor is seat's view. A seat outside the table gets the spectator view.
func (s *State) ViewFor(seat int) View {
	v := s.publicView()
	if seat >= 0 && seat < int(s.players) {
		v.Seat = seat
		v.Hand = handCards(&s.hands[seat], make([]Card, 0, s.handN[seat]))
	}
	return v
}

// SpectatorView is what everyone may see.
func (s *State) SpectatorView() View { return s.publicView() }

func (s *State) publicView() View {
	n := int(s.players)
	o := s.Outcome()
	v := View{
		Seat:      Spectator,
		Players:   n,
		PlayCap:   int(s.playCap),
		Turns:     int(s.turns),
		Turn:      int(s.turn),
		Direction: int(s.dir),
		Phase:     s.phase,
		Status:    o.Status,
		Winner:    o.Winner,
		Piles:     s.pileList(),
		Discards:  make([][]Card, n),
		SetAside:  append([]Card{}, s.setaside.cards()...),
		Chips:     make([]Chips, n),
		Supply:    Chips{Red: int(s.supply[Red]), Blue: int(s.supply[Blue])},
		HandSizes: make([]int, n),
		DeckSize:  int(s.deck.n),
		Skipped:   make([]bool, n),
	}
	for p := 0; p < n; p++ {
		v.Discards[p] = append([]Card{}, s.discards[p].cards()...)
		v.Chips[p] = Chips{Red: int(s.chips[p][Red]), Blue: int(s.chips[p][Blue])}
		v.HandSizes[p] = int(s.handN[p])
		v.Skipped[p] = s.skipped[p] != 0
	}
	if s.phase == PhaseWindow {
		w := &Window{Completer: int(s.turn), Color: s.winColor, Eligible: []int{}, Answered: []int{}}
		for p := 0; p < n; p++ {
			switch {
			case p == int(s.turn):
			case s.answered&(1<<p) != 0:
				w.Answered = append(w.Answered, p)
			default:
				w.Eligible = append(w.Eligible, p)
			}
		}
		v.Window = w
	}
	return v
}

func (s *State) pileList() []Pile {
	piles := make([]Pile, s.nPiles)
	for i := range piles {
		pl := &s.piles[i]
		piles[i] = Pile{Color: pl.col, Cards: append([]Card{}, pl.cards[:pl.n]...)}
	}
	return piles
}

// Unseen is the number of cards of each kind the viewer cannot see: the box
// for the player count minus the piles, discard piles, set-aside pile and the
// viewer's own hand. The other hands and the draw pile hold these cards (a
// position imported from a vector may hold fewer cards than the box, so the
// pool can be larger than what is hidden). Bots sample hidden cards from it.
func (v View) Unseen() [NumKinds]int {
	u := Composition(v.Players)
	take := func(cards []Card) {
		for _, c := range cards {
			if c.Valid() {
				u[c]--
			}
		}
	}
	for _, p := range v.Piles {
		take(p.Cards)
	}
	for _, d := range v.Discards {
		take(d)
	}
	take(v.SetAside)
	take(v.Hand)
	return u
}

// FromView rebuilds a full State consistent with v, given the hidden cards a
// bot sampled: hands[p] for every seat other than the viewer (the viewer's
// entry is ignored and may be nil; a spectator view needs every hand), and
// the draw pile top first. The generator is seeded from seed, since the real
// one is hidden. The result's ViewFor(v.Seat) equals v.
func FromView(v View, hands [][]Card, deck []Card, seed rng.Seed) (State, error) {
	var s State
	cfg := Config{Players: v.Players, PlayCap: v.PlayCap}
	if err := cfg.validate(); err != nil {
		return s, err
	}
	if len(hands) != v.Players {
		return s, fmt.Errorf("stacks: %d hands for %d players", len(hands), v.Players)
	}
	if len(deck) != v.DeckSize {
		return s, fmt.Errorf("stacks: deck of %d cards, the view says %d", len(deck), v.DeckSize)
	}
	full := make([][]Card, v.Players)
	for p := range full {
		if p == v.Seat {
			full[p] = v.Hand
			continue
		}
		if len(hands[p]) != v.HandSizes[p] {
			return s, fmt.Errorf("stacks: seat %d: %d cards sampled, the view says %d", p, len(hands[p]), v.HandSizes[p])
		}
		full[p] = hands[p]
	}
	pos := Position{
		Piles:     v.Piles,
		Hands:     full,
		Discards:  v.Discards,
		Chips:     v.Chips,
		Supply:    &v.Supply,
		Deck:      deck,
		SetAside:  v.SetAside,
		Turn:      v.Turn,
		Direction: &v.Direction,
		Skipped:   skippedList(v.Skipped),
		Turns:     v.Turns,
		PlayCap:   v.PlayCap,
		Status:    v.Status.String(),
	}
	if v.Status == Finished {
		w := v.Winner
		pos.Winner = &w
	}
	if v.Window != nil {
		pos.Window = &WindowPosition{Color: v.Window.Color, Answered: v.Window.Answered}
	}
	return FromPosition(v.Players, pos, seed)
}

// skippedList turns per-seat skip flags into the vector form, a list of seats.
func skippedList(flags []bool) []int {
	var out []int
	for p, f := range flags {
		if f {
			out = append(out, p)
		}
	}
	return out
}
