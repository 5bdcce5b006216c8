package stacks

// MoveKind says what a move does.
type MoveKind uint8

const (
	// MoveNone is the zero Move; never legal.
	MoveNone MoveKind = iota
	// MovePlay plays Card from the hand or the top of the mover's own discard
	// pile: a number or wild onto Pile (or NewPile), or SKIP, REVERSE,
	// STEAL_CARD (Target, Take) or STEAL_CHIP (Target, Color).
	MovePlay
	// MoveDiscard ends the turn: Card goes from the hand onto the mover's
	// discard pile, then the hand is filled to five.
	MoveDiscard
	// MoveEndTurn ends the turn of a player with an empty hand and nothing
	// to draw (rules.md 2.2.3).
	MoveEndTurn
	// MoveBlock plays a BLOCK from another seat's hand in a block window.
	MoveBlock
	// MoveNoBlock is a seat's answer that it does not block this completion.
	MoveNoBlock
	// MoveClose closes the block window with no block; only Server sends it,
	// when the window's time runs out.
	MoveClose
)

// Server is the seat number of the server itself, the only sender of MoveClose.
const Server = -1

// NewPile is Move.Pile for a card that starts a new pile.
const NewPile = -1

// Take says where STEAL_CARD takes its card from.
type Take uint8

const (
	TakeDiscard Take = iota // the top of the target's discard pile
	TakeHand                // a card drawn at random from the target's hand
)

// Move is one action of one seat. It is small and comparable; fields that do
// not apply to its kind are zero, so every move has exactly one form and one
// text (see doc.go for the notation).
type Move struct {
	Kind        MoveKind
	Seat        int8 // who acts; Server for MoveClose
	Card        Card
	FromDiscard bool // MovePlay: the card is the top of the mover's discard pile
	Pile        int8 // MovePlay of a number or wild: pile index or NewPile
	Target      int8 // STEAL_CARD, STEAL_CHIP: the seat stolen from
	Take        Take // STEAL_CARD
	Color       Color
}

// Play is a number or wild from the hand onto pile (or NewPile).
func Play(seat int, c Card, pile int) Move {
	return Move{Kind: MovePlay, Seat: int8(seat), Card: c, Pile: int8(pile)}
}

// PlayDiscard is a number or wild from the top of the mover's discard pile.
func PlayDiscard(seat int, c Card, pile int) Move {
	return Move{Kind: MovePlay, Seat: int8(seat), Card: c, Pile: int8(pile), FromDiscard: true}
}

// Special is SKIP or REVERSE from the hand.
func Special(seat int, c Card) Move {
	return Move{Kind: MovePlay, Seat: int8(seat), Card: c}
}

// StealCardMove is STEAL_CARD from the hand against target.
func StealCardMove(seat, target int, take Take) Move {
	return Move{Kind: MovePlay, Seat: int8(seat), Card: StealCard, Target: int8(target), Take: take}
}

// StealChipMove is STEAL_CHIP from the hand against target's chip of colour col.
func StealChipMove(seat, target int, col Color) Move {
	return Move{Kind: MovePlay, Seat: int8(seat), Card: StealChip, Target: int8(target), Color: col}
}

// Discard ends the turn by discarding c.
func Discard(seat int, c Card) Move { return Move{Kind: MoveDiscard, Seat: int8(seat), Card: c} }

// EndTurn ends the turn of a player with an empty hand.
func EndTurn(seat int) Move { return Move{Kind: MoveEndTurn, Seat: int8(seat)} }

// BlockMove is seat's BLOCK in a block window.
func BlockMove(seat int) Move { return Move{Kind: MoveBlock, Seat: int8(seat), Card: Block} }

// NoBlock is seat's answer that it does not block.
func NoBlock(seat int) Move { return Move{Kind: MoveNoBlock, Seat: int8(seat)} }

// CloseWindow is the server's close of the block window when time runs out.
func CloseWindow() Move { return Move{Kind: MoveClose, Seat: Server} }

// TimeoutMove is what the server plays for a seat that ran out of time: it
// closes a block window, and otherwise ends the turn by discarding the
// player's first card in kind order (or ends it outright with an empty hand).
// It is deterministic and uses nothing hidden from the server.
func TimeoutMove(s *State) Move {
	switch s.phase {
	case PhaseWindow:
		return CloseWindow()
	case PhasePlay:
		p := int(s.turn)
		for k := R1; k < numKinds; k++ {
			if s.hands[p][k] > 0 {
				return Discard(p, k)
			}
		}
		return EndTurn(p)
	}
	return Move{}
}
