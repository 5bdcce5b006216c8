package sequence

import (
	"errors"
	"fmt"
)

// Variant is the deck in use: jacks (classic) or bordered wilds (rules.md 1.8).
type Variant uint8

// The two variants. Classic is the zero value.
const (
	Classic  Variant = iota // 104 cards with one- and two-eyed jacks
	Bordered                // 96 board cards plus 8 W+ and 8 W-: 112 cards
)

// String is "classic" or "bordered".
func (v Variant) String() string {
	switch v {
	case Classic:
		return "classic"
	case Bordered:
		return "bordered"
	}
	return fmt.Sprintf("Variant(%d)", uint8(v))
}

// ParseVariant reads "classic" or "bordered".
func ParseVariant(text string) (Variant, error) {
	switch text {
	case "classic":
		return Classic, nil
	case "bordered":
		return Bordered, nil
	}
	return Classic, fmt.Errorf("%w: unknown variant %q (want classic or bordered)", ErrSetup, text)
}

// Table limits. The state is built of fixed-size arrays of these sizes so
// that it is a comparable value that copies without allocating.
const (
	MaxPlayers = 12
	MaxTeams   = 3
	MaxHand    = 7   // the largest deal (two players)
	MaxCards   = 112 // the bordered deck
	// MaxMoves bounds the number of legal moves in any position, for sizing
	// LegalMoves buffers: two two-eyed and two one-eyed jacks cover at most
	// 2×96 cells between them, plus two cells and an exchange for each other
	// card, plus a pass.
	MaxMoves = 2*(Cells-4) + 3*MaxHand + 1

	// maxSequences bounds a team's recorded sequences: at most 3 before the
	// winning play, and one placement completes at most two per line.
	maxSequences = 3 + 2*int(numDirs) + 1
)

// Defaults of Options.
const (
	DefaultPlayCap = 1000
	MaxPlayCap     = 1 << 30
)

// Options are a match's house rules.
type Options struct {
	// SequencesToWin is the target; 0 means 2 for two teams and 1 for three
	// (rules.md 1.4). 1–4 are allowed.
	SequencesToWin int
	// PlayCap is the number of plays (placements and removals) after which
	// the game is drawn; 0 means DefaultPlayCap.
	PlayCap int
}

// Config is a game's set-up.
type Config struct {
	Variant Variant
	Players int
	Teams   int
	Options Options
}

// dealSizes is rules.md 1.3's table: the cards dealt to each player, by
// players and teams; 0 means the combination is not allowed.
var dealSizes = map[[2]int]int{
	{2, 2}: 7, {3, 3}: 6, {4, 2}: 6, {6, 2}: 5, {6, 3}: 5,
	{8, 2}: 4, {9, 3}: 4, {10, 2}: 3, {12, 2}: 3, {12, 3}: 3,
}

// DealSize is the number of cards each player is dealt, or 0 if the player
// and team counts are not allowed.
func DealSize(players, teams int) int { return dealSizes[[2]int{players, teams}] }

// Normalize checks the configuration and fills in the defaults.
func (c Config) Normalize() (Config, error) {
	if c.Variant != Classic && c.Variant != Bordered {
		return c, fmt.Errorf("%w: unknown variant %d", ErrSetup, c.Variant)
	}
	if DealSize(c.Players, c.Teams) == 0 {
		return c, fmt.Errorf("%w: %d players in %d teams is not allowed; Sequence is played by 2 (2 teams), 3 (3), 4 (2), 6 (2 or 3), 8 (2), 9 (3), 10 (2) or 12 (2 or 3)",
			ErrSetup, c.Players, c.Teams)
	}
	switch {
	case c.Options.SequencesToWin == 0 && c.Teams == 2:
		c.Options.SequencesToWin = 2
	case c.Options.SequencesToWin == 0:
		c.Options.SequencesToWin = 1
	case c.Options.SequencesToWin < 1 || c.Options.SequencesToWin > 4:
		return c, fmt.Errorf("%w: sequences to win %d is out of range 1–4", ErrSetup, c.Options.SequencesToWin)
	}
	switch {
	case c.Options.PlayCap == 0:
		c.Options.PlayCap = DefaultPlayCap
	case c.Options.PlayCap < 0 || c.Options.PlayCap > MaxPlayCap:
		return c, fmt.Errorf("%w: play cap %d is out of range 1–%d", ErrSetup, c.Options.PlayCap, MaxPlayCap)
	}
	return c, nil
}

// Validate reports whether the configuration can be played.
func (c Config) Validate() error {
	_, err := c.Normalize()
	return err
}

// Errors. Every refusal wraps one of these, so callers can sort refusals with
// errors.Is while the message says exactly what was wrong.
var (
	// ErrSetup: a configuration or position that cannot be played.
	ErrSetup = errors.New("sequence: invalid set-up")
	// ErrGameOver: a move after the game was won or drawn.
	ErrGameOver = errors.New("sequence: the game is over")
	// ErrNotYourTurn: a seat acting out of turn (or a player acting as referee).
	ErrNotYourTurn = errors.New("sequence: not this seat's turn")
	// ErrMalformedMove: a move that is not well formed (unknown kind, card or
	// cell, or fields its kind does not use).
	ErrMalformedMove = errors.New("sequence: malformed move")
	// ErrNotInHand: a card the mover does not hold.
	ErrNotInHand = errors.New("sequence: card not in hand")
	// ErrIllegalMove: a well-formed move the rules do not allow here.
	ErrIllegalMove = errors.New("sequence: illegal move")
)
