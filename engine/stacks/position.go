package stacks

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/seqleague/seqleague/engine/rng"
)

// ErrSetup wraps every reason a position or set-up is refused.
var ErrSetup = errors.New("stacks: setup refused")

func setupErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrSetup}, args...)...)
}

// Position is a state in the vector format of vectors.md (the `position`
// object of a stacks vector). Lists are per seat where vectors.md says so;
// the deck is top first, discard piles and the set-aside pile bottom first.
// The fields after Skipped are this engine's extensions, written by Position
// so that any state, windows and finished games included, round-trips; they
// are optional and vectors.md readers ignore them.
type Position struct {
	Piles     []Pile   `json:"piles"`
	Hands     [][]Card `json:"hands"`
	Discards  [][]Card `json:"discards"`
	Chips     []Chips  `json:"chips"`
	Supply    *Chips   `json:"supply,omitempty"` // default: 20 of each colour minus those held
	Deck      []Card   `json:"deck"`
	SetAside  []Card   `json:"setaside"`
	Turn      int      `json:"turn"`
	Direction *int     `json:"direction,omitempty"` // default 1
	Skipped   []int    `json:"skipped,omitempty"`   // seats that will lose their next turn

	Window  *WindowPosition `json:"block_window,omitempty"`
	Status  string          `json:"status,omitempty"` // playing (default), finished, drawn
	Winner  *int            `json:"winner,omitempty"` // with status finished
	Turns   int             `json:"turns,omitempty"`  // finished turns, for the play cap
	PlayCap int             `json:"play_cap,omitempty"`
}

// WindowPosition is an open block window: the colour of the chip at stake
// and the seats that already answered noblock. The completer is Turn.
type WindowPosition struct {
	Color    Color `json:"color"`
	Answered []int `json:"answered"`
}

// FromPosition builds the state a position describes, for players seats,
// with the generator seeded from seed (vectors have no seed: a vector whose
// result depends on a shuffle is invalid). It refuses, wrapping ErrSetup, a
// player count outside 2–6, lists of the wrong length, unknown cards, more
// copies of a card than the box holds for that player count, piles that are
// not runs from 1 of one colour of 1–4 cards, more than two piles of a
// colour, more than 20 chips of a colour between the players and the supply,
// a turn or direction out of range, and a game in play where someone already
// meets the winning condition. A player whose turn it is with an empty hand
// draws five at once, as at the start of a turn (rules.md 2.2.2).
//
// A position may hold fewer cards or chips than the box: the missing ones are
// out of play. That is what lets a vector show only the cards it is about.
func FromPosition(players int, p Position, seed rng.Seed) (State, error) {
	var s State
	cfg := Config{Players: players, PlayCap: p.PlayCap}
	if err := cfg.validate(); err != nil {
		return s, setupErr("%s", strings.TrimPrefix(err.Error(), "stacks: "))
	}
	s.players = uint8(players)
	s.playCap = uint16(cfg.playCap())
	s.winner = -1
	s.rng = rng.New(seed)

	comp := Composition(players)
	var seen [NumKinds]int
	count := func(where string, c Card) error {
		if !c.Valid() {
			return setupErr("%s: not a card", where)
		}
		seen[c]++
		if seen[c] > comp[c] {
			return setupErr("%s: more than %d %s cards for %d players", where, comp[c], c, players)
		}
		return nil
	}

	if len(p.Hands) != 0 && len(p.Hands) != players {
		return s, setupErr("%d hands for %d players", len(p.Hands), players)
	}
	for seat, hand := range p.Hands {
		for _, c := range hand {
			if err := count(fmt.Sprintf("hand of seat %d", seat), c); err != nil {
				return s, err
			}
			s.giveToHand(seat, c)
		}
	}
	if len(p.Discards) != 0 && len(p.Discards) != players {
		return s, setupErr("%d discard piles for %d players", len(p.Discards), players)
	}
	for seat, d := range p.Discards {
		for _, c := range d {
			if err := count(fmt.Sprintf("discard pile of seat %d", seat), c); err != nil {
				return s, err
			}
			s.discards[seat].push(c)
		}
	}
	if len(p.Piles) > MaxPiles {
		return s, setupErr("%d piles; at most two of each colour", len(p.Piles))
	}
	for i, pl := range p.Piles {
		if pl.Color > Blue {
			return s, setupErr("pile %d: no colour", i)
		}
		if len(pl.Cards) == 0 || len(pl.Cards) >= PileLength {
			return s, setupErr("pile %d holds %d cards; a pile on the table holds 1–4", i, len(pl.Cards))
		}
		for j, c := range pl.Cards {
			if err := count(fmt.Sprintf("pile %d", i), c); err != nil {
				return s, err
			}
			if c != numberCard(pl.Color, j+1) && c != wildOf(pl.Color) {
				return s, setupErr("pile %d: card %d is %s, not %s or a %s wild", i, j, c, numberCard(pl.Color, j+1), pl.Color)
			}
		}
		if s.pilesOf(pl.Color) >= 2 {
			return s, setupErr("more than two %s piles", pl.Color)
		}
		s.piles[i] = pile{col: pl.Color, n: uint8(len(pl.Cards))}
		copy(s.piles[i].cards[:], pl.Cards)
		s.nPiles++
	}
	for i := len(p.Deck) - 1; i >= 0; i-- {
		if err := count("deck", p.Deck[i]); err != nil {
			return s, err
		}
		s.deck.push(p.Deck[i])
	}
	for _, c := range p.SetAside {
		if err := count("setaside", c); err != nil {
			return s, err
		}
		s.setaside.push(c)
	}

	if err := s.setChips(p); err != nil {
		return s, err
	}
	if p.Turn < 0 || p.Turn >= players {
		return s, setupErr("turn %d: no such seat", p.Turn)
	}
	s.turn = uint8(p.Turn)
	s.dir = 1
	if p.Direction != nil {
		if *p.Direction != 1 && *p.Direction != -1 {
			return s, setupErr("direction %d: want 1 or -1", *p.Direction)
		}
		s.dir = int8(*p.Direction)
	}
	for _, seat := range p.Skipped {
		if seat < 0 || seat >= players {
			return s, setupErr("skipped seat %d: no such seat", seat)
		}
		// A SKIP marks the seat after its player's, and a mark is spent
		// when the turn passes that seat over: it never reaches a marked seat.
		if seat == p.Turn {
			return s, setupErr("skipped seat %d is the seat whose turn it is", seat)
		}
		s.skipped[seat] = 1
	}
	if p.Turns < 0 || p.Turns > int(s.playCap) {
		return s, setupErr("%d finished turns with a play cap of %d", p.Turns, s.playCap)
	}
	s.turns = uint16(p.Turns)
	if err := s.setStatus(p); err != nil {
		return s, err
	}
	s.refillIfEmpty()
	if err := s.Validate(); err != nil {
		return s, fmt.Errorf("%w: %v", ErrSetup, err)
	}
	return s, nil
}

func (s *State) setChips(p Position) error {
	n := int(s.players)
	if len(p.Chips) != 0 && len(p.Chips) != n {
		return setupErr("%d chip counts for %d players", len(p.Chips), n)
	}
	var held [2]int
	for seat, c := range p.Chips {
		if c.Red < 0 || c.Blue < 0 || c.Red > ChipsPerColor || c.Blue > ChipsPerColor {
			return setupErr("seat %d holds %d red and %d blue chips", seat, c.Red, c.Blue)
		}
		s.chips[seat] = [2]uint8{uint8(c.Red), uint8(c.Blue)}
		held[Red] += c.Red
		held[Blue] += c.Blue
	}
	supply := Chips{Red: ChipsPerColor - held[Red], Blue: ChipsPerColor - held[Blue]}
	if p.Supply != nil {
		supply = *p.Supply
	}
	if supply.Red < 0 || supply.Blue < 0 || held[Red]+supply.Red > ChipsPerColor || held[Blue]+supply.Blue > ChipsPerColor {
		return setupErr("%d red and %d blue chips held, %d and %d in the supply: the box has %d of each",
			held[Red], held[Blue], supply.Red, supply.Blue, ChipsPerColor)
	}
	s.supply = [2]uint8{uint8(supply.Red), uint8(supply.Blue)}
	return nil
}

func (s *State) setStatus(p Position) error {
	n := int(s.players)
	switch p.Status {
	case "", "playing":
		if p.Winner != nil {
			return setupErr("a winner in a game still playing")
		}
		for seat := 0; seat < n; seat++ {
			if wins(int(s.chips[seat][Red]), int(s.chips[seat][Blue])) {
				return setupErr("seat %d already meets the winning condition", seat)
			}
		}
		if s.turns >= s.playCap {
			return setupErr("the play cap is reached in a game still playing")
		}
		if w := p.Window; w != nil {
			if w.Color > Blue {
				return setupErr("block window: no colour")
			}
			s.phase = PhaseWindow
			s.winColor = w.Color
			for _, seat := range w.Answered {
				if seat < 0 || seat >= n || seat == int(s.turn) {
					return setupErr("block window: seat %d cannot answer", seat)
				}
				s.answered |= 1 << seat
			}
			if s.answered == s.othersMask() {
				return setupErr("block window: every seat answered, so it is closed")
			}
		}
	case "finished":
		if p.Winner == nil || *p.Winner < 0 || *p.Winner >= n {
			return setupErr("a finished game needs its winner")
		}
		w := *p.Winner
		if !wins(int(s.chips[w][Red]), int(s.chips[w][Blue])) {
			return setupErr("winner %d does not meet the winning condition", w)
		}
		s.phase, s.winner = PhaseWon, int8(w)
	case "drawn":
		if p.Winner != nil {
			return setupErr("a winner in a drawn game")
		}
		s.phase = PhaseDrawn
	default:
		return setupErr("status %q: want playing, finished or drawn", p.Status)
	}
	if p.Window != nil && s.phase != PhaseWindow {
		return setupErr("a block window in a game that is over")
	}
	return nil
}

// Position is the state in the vector format. It shows every hidden card and
// the deck's order, so it is for archives, bug reports and tests, never for a
// seat. The generator is not part of it.
func (s *State) Position() Position {
	n := int(s.players)
	v := s.publicView()
	dir := int(s.dir)
	p := Position{
		Piles:     v.Piles,
		Hands:     make([][]Card, n),
		Discards:  v.Discards,
		Chips:     v.Chips,
		Supply:    &v.Supply,
		Deck:      make([]Card, s.deck.n),
		SetAside:  v.SetAside,
		Turn:      int(s.turn),
		Direction: &dir,
		Skipped:   skippedList(v.Skipped),
		Turns:     int(s.turns),
	}
	if s.playCap != DefaultPlayCap {
		p.PlayCap = int(s.playCap)
	}
	for seat := range p.Hands {
		p.Hands[seat] = s.Hand(seat)
	}
	for i := range p.Deck {
		p.Deck[i] = s.deck.c[int(s.deck.n)-1-i]
	}
	switch s.phase {
	case PhaseWindow:
		p.Window = &WindowPosition{Color: s.winColor, Answered: v.Window.Answered}
	case PhaseWon:
		p.Status = "finished"
		w := int(s.winner)
		p.Winner = &w
	case PhaseDrawn:
		p.Status = "drawn"
	}
	return p
}

// ExportVector writes the state as a stacks rule vector named name: its
// position, no steps, and an expect block restating the position, so the
// file passes as it is and is ready to have steps added.
func ExportVector(s *State, name string) ([]byte, error) {
	pos := s.Position()
	o := s.Outcome()
	var winner *int
	if o.Status == Finished {
		winner = &o.Winner
	}
	hands := pos.Hands
	doc := struct {
		Name     string     `json:"name"`
		Game     string     `json:"game"`
		Players  int        `json:"players"`
		Position Position   `json:"position"`
		Steps    []struct{} `json:"steps"`
		Expect   struct {
			Piles     []Pile   `json:"piles"`
			Hands     [][]Card `json:"hands"`
			Discards  [][]Card `json:"discards"`
			Chips     []Chips  `json:"chips"`
			Supply    Chips    `json:"supply"`
			DeckSize  int      `json:"deck_size"`
			Turn      int      `json:"turn"`
			Direction int      `json:"direction"`
			Status    string   `json:"status"`
			Winner    *int     `json:"winner"`
		} `json:"expect"`
	}{Name: name, Game: "stacks", Players: s.Players(), Position: pos, Steps: []struct{}{}}
	e := &doc.Expect
	e.Piles, e.Hands, e.Discards, e.Chips = pos.Piles, hands, pos.Discards, pos.Chips
	e.Supply, e.DeckSize, e.Turn, e.Direction = *pos.Supply, len(pos.Deck), pos.Turn, *pos.Direction
	e.Status, e.Winner = o.Status.String(), winner
	return json.MarshalIndent(doc, "", "  ")
}
