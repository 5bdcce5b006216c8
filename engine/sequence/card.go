package sequence

import "fmt"

// Card is one playing card. Values 1–52 are the standard cards, rank-major
// within each suit in the order of rules.md 1.1 (suit S H D C, rank
// A 2 … 9 T J Q K); WildPlus and WildMinus are the bordered variant's cards.
// The numbering is part of the deal (the fresh deck is built in this order
// before the shuffle), so it must never change.
type Card uint8

// Card values that have a name.
const (
	NoCard    Card = 0
	WildPlus  Card = 53 // "W+", a purple-bordered wild: plays like a two-eyed jack
	WildMinus Card = 54 // "W-", an orange-bordered anti-wild: plays like a one-eyed jack

	numCards = 55 // arrays indexed by Card have this length
)

const (
	rankLetters = "A23456789TJQK"
	suitLetters = "SHDC"
	jackRank    = 10
)

// cardClass says how a card plays.
type cardClass uint8

const (
	classNone    cardClass = iota // not a card
	classBoard                    // a card printed on the board: goes on one of its two cells
	classTwoEyed                  // JC JD W+: a chip on any empty cell
	classOneEyed                  // JH JS W-: removes an unlocked chip of another team
)

var classOf = func() (t [numCards]cardClass) {
	for suit := 0; suit < 4; suit++ {
		for rank := 0; rank < 13; rank++ {
			c := makeCard(rank, suit)
			switch {
			case rank != jackRank:
				t[c] = classBoard
			case suit == 0 || suit == 1: // JS, JH show one eye
				t[c] = classOneEyed
			default: // JD, JC show two
				t[c] = classTwoEyed
			}
		}
	}
	t[WildPlus] = classTwoEyed
	t[WildMinus] = classOneEyed
	return t
}()

func makeCard(rank, suit int) Card { return Card(1 + suit*13 + rank) }

// MakeCard returns the card of a rank letter (A 2-9 T J Q K) and a suit letter
// (S H D C).
func MakeCard(rank, suit byte) (Card, error) {
	return ParseCard(string([]byte{rank, suit}))
}

// Valid reports whether c is a card of either deck.
func (c Card) Valid() bool { return c < numCards && classOf[c] != classNone }

// IsTwoEyed reports whether c places a chip on any empty cell (JC, JD, W+).
func (c Card) IsTwoEyed() bool { return c < numCards && classOf[c] == classTwoEyed }

// IsOneEyed reports whether c removes an opponent's chip (JH, JS, W-).
func (c Card) IsOneEyed() bool { return c < numCards && classOf[c] == classOneEyed }

// OnBoard reports whether c is printed on the board (every card but jacks
// and the bordered wilds).
func (c Card) OnBoard() bool { return c < numCards && classOf[c] == classBoard }

// String is the two-character code of rules.md 1.1, or "W+" / "W-".
func (c Card) String() string {
	switch {
	case c == WildPlus:
		return "W+"
	case c == WildMinus:
		return "W-"
	case c >= 1 && c <= 52:
		i := int(c) - 1
		return string([]byte{rankLetters[i%13], suitLetters[i/13]})
	}
	return fmt.Sprintf("Card(%d)", uint8(c))
}

// ParseCard reads a card code such as "7H", "TD", "JC", "W+".
func ParseCard(text string) (Card, error) {
	if len(text) == 2 {
		switch text {
		case "W+":
			return WildPlus, nil
		case "W-":
			return WildMinus, nil
		}
		rank := indexByte(rankLetters, text[0])
		suit := indexByte(suitLetters, text[1])
		if rank >= 0 && suit >= 0 {
			return makeCard(rank, suit), nil
		}
	}
	return NoCard, fmt.Errorf("sequence: %q is not a card (want rank A23456789TJQK then suit SHDC, or W+ / W-)", text)
}

func indexByte(s string, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return i
		}
	}
	return -1
}

// MarshalText writes the card code, so cards are strings in JSON.
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("sequence: cannot encode invalid card %d", uint8(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads a card code.
func (c *Card) UnmarshalText(text []byte) error {
	v, err := ParseCard(string(text))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// copiesInDeck is how many copies of c a variant's deck holds: two of every
// standard card in the classic deck; two of every non-jack and eight of each
// wild in the bordered one.
func copiesInDeck(v Variant, c Card) int {
	if !c.Valid() {
		return 0
	}
	switch v {
	case Classic:
		if c <= 52 {
			return 2
		}
	case Bordered:
		switch {
		case c == WildPlus || c == WildMinus:
			return 8
		case classOf[c] == classBoard:
			return 2
		}
	}
	return 0
}

// fillDeck writes a variant's full deck in canonical order (the order the
// shuffle starts from: every card's copies side by side, cards in numbering
// order) and returns how many cards it wrote.
func fillDeck(dst *[MaxCards]Card, v Variant) int {
	n := 0
	for c := Card(1); c < numCards; c++ {
		for k := copiesInDeck(v, c); k > 0; k-- {
			dst[n] = c
			n++
		}
	}
	return n
}

// FullDeckSize is the number of cards in a variant's deck: 104 classic, 112
// bordered.
func FullDeckSize(v Variant) int {
	var d [MaxCards]Card
	return fillDeck(&d, v)
}
