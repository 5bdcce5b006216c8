package sequence

import (
	"fmt"
	"math/bits"
	"strings"
)

// Board geometry.
const (
	Side  = 10          // cells per row and per column
	Cells = Side * Side // cells on the board
)

// Cell is a board cell, numbered row-major from the top-left corner a1 (0)
// to the bottom-right corner j10 (99): cell = (row-1)*10 + column index.
type Cell int8

// NoCell is the zero of nothing: it names no cell.
const NoCell Cell = -1

// The four free corners (rules.md 1.2).
var corners = [4]Cell{0, 9, 90, 99}

// layout is the board of rules.md 1.2, row 1 first.
var layout = [Side]string{
	"** 2S 3S 4S 5S 6S 7S 8S 9S **",
	"6C 5C 4C 3C 2C AH KH QH TH TS",
	"7C AS 2D 3D 4D 5D 6D 7D 9H QS",
	"8C KS 6C 5C 4C 3C 2C 8D 8H KS",
	"9C QS 7C 6H 5H 4H AH 9D 7H AS",
	"TC TS 8C 7H 2H 3H KH TD 6H 2D",
	"QC 9S 9C 8H 9H TH QH QD 5H 3D",
	"KC 8S TC QC KC AC AD KD 4H 4D",
	"AC 7S 6S 5S 4S 3S 2S 2H 3H 5D",
	"** AD KD QD TD 9D 8D 7D 6D **",
}

var (
	// cardAt is the card printed on each cell (NoCard on corners).
	cardAt [Cells]Card
	// cellsOf lists each board card's two cells, in cell order.
	cellsOf [numCards][2]Cell
	// isCorner marks the four free cells.
	isCorner [Cells]bool
)

func init() {
	var seen [numCards]int
	for row, line := range layout {
		for col, code := range strings.Fields(line) {
			c := Cell(row*Side + col)
			if code == "**" {
				isCorner[c] = true
				continue
			}
			card, err := ParseCard(code)
			if err != nil || !card.OnBoard() || seen[card] >= 2 {
				panic(fmt.Sprintf("sequence: bad board layout at %v: %q", c, code))
			}
			cardAt[c] = card
			cellsOf[card][seen[card]] = c
			seen[card]++
		}
	}
}

// CellAt returns the cell in column col (0 = a) and row row (0 = row 1), or
// NoCell off the board.
func CellAt(col, row int) Cell {
	if col < 0 || col >= Side || row < 0 || row >= Side {
		return NoCell
	}
	return Cell(row*Side + col)
}

// Valid reports whether c is on the board.
func (c Cell) Valid() bool { return c >= 0 && c < Cells }

// Col is the column index, 0 for a.
func (c Cell) Col() int { return int(c) % Side }

// Row is the row index, 0 for row 1.
func (c Cell) Row() int { return int(c) / Side }

// IsCorner reports whether c is one of the four free corners.
func (c Cell) IsCorner() bool { return c.Valid() && isCorner[c] }

// Card is the card printed on c (NoCard on a corner).
func (c Cell) Card() Card {
	if !c.Valid() {
		return NoCard
	}
	return cardAt[c]
}

// String names the cell like a spreadsheet: "a1" … "j10".
func (c Cell) String() string {
	if !c.Valid() {
		return fmt.Sprintf("Cell(%d)", int8(c))
	}
	return fmt.Sprintf("%c%d", 'a'+c.Col(), c.Row()+1)
}

// ParseCell reads "a1" … "j10".
func ParseCell(text string) (Cell, error) {
	bad := fmt.Errorf("sequence: %q is not a cell (want a column a–j and a row 1–10, e.g. e5)", text)
	if len(text) < 2 || len(text) > 3 || text[0] < 'a' || text[0] > 'j' {
		return NoCell, bad
	}
	row := 0
	for _, ch := range []byte(text[1:]) {
		if ch < '0' || ch > '9' {
			return NoCell, bad
		}
		row = row*10 + int(ch-'0')
	}
	if text[1] == '0' || row < 1 || row > Side {
		return NoCell, bad
	}
	return CellAt(int(text[0]-'a'), row-1), nil
}

// MarshalText writes the cell name, so cells are strings in JSON.
func (c Cell) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("sequence: cannot encode invalid cell %d", int8(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads a cell name.
func (c *Cell) UnmarshalText(text []byte) error {
	v, err := ParseCell(string(text))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// CellsOf returns the two cells of a card printed on the board; ok is false
// for jacks and wilds.
func CellsOf(card Card) (cells [2]Cell, ok bool) {
	if !card.OnBoard() {
		return [2]Cell{NoCell, NoCell}, false
	}
	return cellsOf[card], true
}

// bitboard is a set of cells, bit c of the 128 for cell c.
type bitboard [2]uint64

func (b *bitboard) set(c Cell)     { b[c>>6] |= 1 << (uint(c) & 63) }
func (b *bitboard) clear(c Cell)   { b[c>>6] &^= 1 << (uint(c) & 63) }
func (b bitboard) has(c Cell) bool { return b[c>>6]&(1<<(uint(c)&63)) != 0 }
func (b bitboard) count() int      { return bits.OnesCount64(b[0]) + bits.OnesCount64(b[1]) }
func (b bitboard) empty() bool     { return b[0]|b[1] == 0 }
func (b bitboard) and(o bitboard) bitboard {
	return bitboard{b[0] & o[0], b[1] & o[1]}
}
func (b bitboard) or(o bitboard) bitboard {
	return bitboard{b[0] | o[0], b[1] | o[1]}
}
func (b bitboard) andNot(o bitboard) bitboard {
	return bitboard{b[0] &^ o[0], b[1] &^ o[1]}
}

// appendCells appends the cells of b in increasing order.
func (b bitboard) appendCells(dst []Cell) []Cell {
	for w := 0; w < 2; w++ {
		for x := b[w]; x != 0; x &= x - 1 {
			dst = append(dst, Cell(w*64+bits.TrailingZeros64(x)))
		}
	}
	return dst
}

var cornerBits = func() (b bitboard) {
	for _, c := range corners {
		b.set(c)
	}
	return b
}()
