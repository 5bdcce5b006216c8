package sequence

import (
	"math/bits"
	"slices"
)

// LegalMoves appends every legal move of the seat to move to buf[:0] and
// returns it. With a buffer of capacity MaxMoves it never allocates. Each
// move appears once (two copies of a card give the same moves). A placement
// is listed once, without named windows: the engine's own choice of
// sequences (rules.md 1.4); the same placement naming another choice that
// gives as many sequences is legal too but not listed. The referee's
// Penalize is never listed. s is not modified.
func LegalMoves(s *State, buf []Move) []Move {
	out := buf[:0]
	if s.status != Playing {
		return out
	}
	seat := int(s.turn)
	hand := s.hands[seat][:s.handN[seat]]
	var seen uint64 // cards already listed, bit per Card
	if s.due > 0 {
		for _, c := range hand {
			if seen&(1<<c) == 0 {
				seen |= 1 << c
				out = append(out, Move{Kind: KindDiscard, Card: c})
			}
		}
		return out
	}
	team := s.TeamOf(seat)
	plays := 0
	for _, c := range hand {
		if seen&(1<<c) != 0 {
			continue
		}
		seen |= 1 << c
		switch classOf[c] {
		case classBoard:
			cells := cellsOf[c]
			free := 0
			for _, p := range cells {
				if s.board[p] == Empty {
					out = append(out, Move{Kind: KindPlace, Card: c, Cell: p})
					free++
				}
			}
			plays += free
			if free == 0 && !s.exchanged {
				out = append(out, Move{Kind: KindExchange, Card: c})
			}
		case classTwoEyed:
			n := len(out)
			out = appendCellMoves(out, s.open, KindPlace, c)
			plays += len(out) - n
		case classOneEyed:
			n := len(out)
			out = appendCellMoves(out, s.removable(team), KindRemove, c)
			plays += len(out) - n
		}
	}
	if plays == 0 {
		out = append(out, Move{Kind: KindPass})
	}
	return out
}

// appendCellMoves appends one move per cell of cells. It sizes the slice
// once and fills it, which halves the cost of appending move by move.
func appendCellMoves(out []Move, cells bitboard, kind Kind, card Card) []Move {
	n := len(out)
	out = slices.Grow(out, cells.count())
	out = out[:n+cells.count()]
	dst := out[n:]
	i := 0
	for w := 0; w < 2; w++ {
		for x := cells[w]; x != 0 && i < len(dst); x &= x - 1 {
			dst[i] = Move{Kind: kind, Card: card, Cell: Cell(w*64 + bits.TrailingZeros64(x))}
			i++
		}
	}
	return out
}
