package sequence

import "fmt"

// Kind is what a move does.
type Kind uint8

// Move kinds. The zero Kind is no move at all.
const (
	KindNone     Kind = iota
	KindPlace         // a board card or a two-eyed wild puts a chip on Cell
	KindRemove        // a one-eyed wild takes another team's unlocked chip off Cell
	KindExchange      // a dead card is turned in for a new one (once a turn, before the play)
	KindPass          // no legal play: the turn passes without a draw
	KindDiscard       // a table-talk penalty: the mover discards Card, no replacement
	KindPenalize      // the referee's table-talk penalty on Team (seat Referee)
	numKinds
)

// Referee is the seat the referee acts from; Penalize is its only move.
const Referee = -1

// WindowSet is a set of windows through one cell: bit dir*5+k is the window
// along dir whose k-th cell (counting from its start) is the cell. A
// placement names the windows it completes with it; it fits in a word so
// that Move stays small and comparable.
type WindowSet uint32

// windowBit is the WindowSet bit of the window along d that holds the
// placed cell at offset k from its start.
func windowBit(d Dir, k int) WindowSet { return 1 << (uint(d)*WindowLen + uint(k)) }

// lineBits is the part of a WindowSet that lies along d.
func lineBits(s WindowSet, d Dir) WindowSet {
	return (s >> (uint(d) * WindowLen)) & (1<<WindowLen - 1)
}

// Windows lists the set's windows through c, ordered by direction and then
// from the line's start.
func (s WindowSet) Windows(c Cell) []Window {
	var out []Window
	for d := Dir(0); d < numDirs; d++ {
		for k := WindowLen - 1; k >= 0; k-- {
			if s&windowBit(d, k) != 0 {
				out = append(out, windowThrough(c, d, k))
			}
		}
	}
	return out
}

// windowThrough is the window along d that has c as its k-th cell; its start
// may be off the board (then the Window is not Valid).
func windowThrough(c Cell, d Dir, k int) Window {
	start := CellAt(c.Col()-k*dirDelta[d][1], c.Row()-k*dirDelta[d][0])
	return Window{Start: start, Dir: d}
}

// Move is one action. It is small and comparable; the constructors below
// build well-formed moves, and fields a kind does not use must be zero.
type Move struct {
	Kind    Kind
	Card    Card      // the card played, exchanged or discarded
	Cell    Cell      // KindPlace and KindRemove: the cell
	Team    int8      // KindPenalize: the team penalized (0 = a)
	Windows WindowSet // KindPlace: the sequences the mover names, or 0 for the engine's choice
}

// Place puts a chip on c with a board card or a two-eyed wild.
func Place(card Card, c Cell) Move { return Move{Kind: KindPlace, Card: card, Cell: c} }

// Remove takes the chip off c with a one-eyed wild.
func Remove(card Card, c Cell) Move { return Move{Kind: KindRemove, Card: card, Cell: c} }

// Exchange turns in a dead card.
func Exchange(card Card) Move { return Move{Kind: KindExchange, Card: card} }

// Pass passes a turn with no legal play.
func Pass() Move { return Move{Kind: KindPass} }

// PenaltyDiscard discards a card to pay a table-talk penalty.
func PenaltyDiscard(card Card) Move { return Move{Kind: KindDiscard, Card: card} }

// Penalize is the referee's table-talk penalty on a team (rules.md 1.7).
func Penalize(team int) Move { return Move{Kind: KindPenalize, Team: int8(team)} }

// WithWindows names the sequences a placement completes. Every window must
// pass through the placed cell.
func (m Move) WithWindows(ws ...Window) (Move, error) {
	if m.Kind != KindPlace {
		return m, fmt.Errorf("%w: only a placement names windows", ErrMalformedMove)
	}
	m.Windows = 0
	for _, w := range ws {
		bit, err := windowBitOf(m.Cell, w)
		if err != nil {
			return m, err
		}
		if m.Windows&bit != 0 {
			return m, fmt.Errorf("%w: window %v named twice", ErrMalformedMove, w)
		}
		m.Windows |= bit
	}
	return m, nil
}

// windowBitOf is w's bit in a WindowSet through c.
func windowBitOf(c Cell, w Window) (WindowSet, error) {
	if !w.Valid() || !w.Contains(c) {
		return 0, fmt.Errorf("%w: window %v does not pass through %v", ErrMalformedMove, w, c)
	}
	// Steps from the start to c along the direction: the row or column
	// distance, whichever moves.
	k := c.Row() - w.Start.Row()
	if w.Dir == Row {
		k = c.Col() - w.Start.Col()
	}
	return windowBit(w.Dir, k), nil
}

// NamedWindows lists the windows a placement names.
func (m Move) NamedWindows() []Window {
	if m.Kind != KindPlace || !m.Cell.Valid() {
		return nil
	}
	return m.Windows.Windows(m.Cell)
}

// wellFormed checks the fields a kind uses are in range and the others zero,
// so that each action has exactly one Move value.
func (m Move) wellFormed() error {
	bad := func(why string) error { return fmt.Errorf("%w: %s", ErrMalformedMove, why) }
	usesCard := m.Kind == KindPlace || m.Kind == KindRemove || m.Kind == KindExchange || m.Kind == KindDiscard
	usesCell := m.Kind == KindPlace || m.Kind == KindRemove
	switch {
	case m.Kind == KindNone || m.Kind >= numKinds:
		return bad(fmt.Sprintf("unknown kind %d", m.Kind))
	case usesCard && !m.Card.Valid():
		return bad(fmt.Sprintf("no such card %d", m.Card))
	case !usesCard && m.Card != NoCard:
		return bad("this kind of move takes no card")
	case usesCell && !m.Cell.Valid():
		return bad(fmt.Sprintf("no such cell %d", m.Cell))
	case !usesCell && m.Cell != 0:
		return bad("this kind of move takes no cell")
	case m.Kind != KindPenalize && m.Team != 0:
		return bad("only a penalty names a team")
	case m.Kind != KindPlace && m.Windows != 0:
		return bad("only a placement names windows")
	case m.Windows >= 1<<(uint(numDirs)*WindowLen):
		return bad("no such window")
	}
	if m.Windows != 0 {
		// A named window must lie on the board.
		for d := Dir(0); d < numDirs; d++ {
			for k := 0; k < WindowLen; k++ {
				if m.Windows&windowBit(d, k) != 0 && !windowThrough(m.Cell, d, k).Valid() {
					return bad("a named window leaves the board")
				}
			}
		}
	}
	return nil
}
