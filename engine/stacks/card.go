package stacks

import "fmt"

// Card is one card kind. Hands are multisets of kinds, so a card is just its
// kind: two R3s are interchangeable, which is also why hands are compared and
// shown in kind order and never reveal the order cards were drawn in.
type Card uint8

// The card kinds in their canonical order (rules.md 2.1). The order is part of
// the deal (the fresh deck is built in this order before the shuffle) and of
// the random STEAL_CARD pick, so it must never change.
const (
	NoCard Card = iota
	R1
	R2
	R3
	R4
	R5
	RW
	B1
	B2
	B3
	B4
	B5
	BW
	Skip
	Reverse
	StealCard
	Block
	StealChip
	numKinds
)

// NumKinds is the number of card kinds plus one: arrays indexed by Card have
// this length, with index 0 (NoCard) unused.
const NumKinds = int(numKinds)

var cardCodes = [numKinds]string{
	"", "R1", "R2", "R3", "R4", "R5", "RW",
	"B1", "B2", "B3", "B4", "B5", "BW",
	"SKIP", "REVERSE", "STEAL_CARD", "BLOCK", "STEAL_CHIP",
}

// Color is a pile's or a chip's colour; it indexes chip counts.
type Color uint8

// The two colours.
const (
	Red Color = iota
	Blue
)

func (c Color) String() string {
	switch c {
	case Red:
		return "red"
	case Blue:
		return "blue"
	}
	return fmt.Sprintf("Color(%d)", uint8(c))
}

// ParseColor reads "red" or "blue".
func ParseColor(text string) (Color, error) {
	switch text {
	case "red":
		return Red, nil
	case "blue":
		return Blue, nil
	}
	return 0, fmt.Errorf("stacks: unknown colour %q (want red or blue)", text)
}

// MarshalText writes the colour as "red" or "blue".
func (c Color) MarshalText() ([]byte, error) {
	if c > Blue {
		return nil, fmt.Errorf("stacks: invalid colour %d", uint8(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads "red" or "blue".
func (c *Color) UnmarshalText(b []byte) error {
	v, err := ParseColor(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

func (c Card) String() string {
	if c < numKinds && c != NoCard {
		return cardCodes[c]
	}
	return fmt.Sprintf("Card(%d)", uint8(c))
}

// Valid reports whether c is a real card kind.
func (c Card) Valid() bool { return c > NoCard && c < numKinds }

// ParseCard reads a card code such as "R3", "BW" or "STEAL_CHIP".
func ParseCard(text string) (Card, error) {
	for c := R1; c < numKinds; c++ {
		if cardCodes[c] == text {
			return c, nil
		}
	}
	return NoCard, fmt.Errorf("stacks: unknown card %q", text)
}

// MarshalText writes the card code.
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("stacks: invalid card %d", uint8(c))
	}
	return []byte(cardCodes[c]), nil
}

// UnmarshalText reads a card code.
func (c *Card) UnmarshalText(b []byte) error {
	v, err := ParseCard(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// IsNumber reports whether c is a red or blue 1–5.
func (c Card) IsNumber() bool { return (c >= R1 && c <= R5) || (c >= B1 && c <= B5) }

// IsWild reports whether c is RW or BW.
func (c Card) IsWild() bool { return c == RW || c == BW }

// IsColored reports whether c goes on piles (a number or a wild).
func (c Card) IsColored() bool { return c >= R1 && c <= BW }

// IsSpecial reports whether c is one of the five special cards.
func (c Card) IsSpecial() bool { return c >= Skip && c <= StealChip }

// Color is the colour of a number or wild card; meaningless for specials.
func (c Card) Color() Color {
	if c >= B1 && c <= BW {
		return Blue
	}
	return Red
}

// Number is 1–5 for number cards and 0 for wilds and specials.
func (c Card) Number() int {
	switch {
	case c >= R1 && c <= R5:
		return int(c - R1 + 1)
	case c >= B1 && c <= B5:
		return int(c - B1 + 1)
	}
	return 0
}

// numberCard is the number card of colour col and value n (1–5).
func numberCard(col Color, n int) Card {
	return R1 + 6*Card(col) + Card(n-1)
}

// wildOf is the wild card of colour col.
func wildOf(col Color) Card {
	return RW + 6*Card(col)
}

// Composition is the number of cards of each kind in the box for a player
// count (rules.md 2.1): 120 cards, or 115 with two players (the five cards
// rules.md 2.1 removes: 1 BLOCK, 2 STEAL_CHIP, 1 STEAL_CARD, 1 SKIP).
func Composition(players int) [NumKinds]int {
	var c [NumKinds]int
	for k := R1; k <= R5; k++ {
		c[k] = 9
	}
	for k := B1; k <= B5; k++ {
		c[k] = 9
	}
	c[RW], c[BW] = 7, 7
	c[Skip], c[Reverse], c[StealCard], c[Block], c[StealChip] = 3, 3, 3, 3, 4
	if players == 2 {
		c[Block]--
		c[StealChip] -= 2
		c[StealCard]--
		c[Skip]--
	}
	return c
}

// DeckSize is the number of cards in the box for a player count.
func DeckSize(players int) int {
	n := 0
	for _, k := range Composition(players) {
		n += k
	}
	return n
}
