package sequence

import (
	"encoding/json"
	"fmt"
)

// Dir is the direction of a line of cells. Every direction points away from
// its line's start (rules.md 1.4: the topmost end; for a row, the leftmost),
// so a window's Start is always the end nearest the line's start.
type Dir uint8

// The four line directions.
const (
	Row          Dir = iota // left to right
	Column                  // top to bottom
	Diagonal                // top-left to bottom-right
	AntiDiagonal            // top-right to bottom-left
	numDirs
)

// dirDelta is each direction's (row, column) step.
var dirDelta = [numDirs][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}

// WindowLen is the number of cells in a sequence.
const WindowLen = 5

var (
	// ahead and behind are the cell one step along / against a direction,
	// NoCell off the board; they keep bounds arithmetic off the hot path.
	ahead, behind [numDirs][Cells]Cell
	// windowBits is the cell set of every window (zero for windows that
	// would leave the board).
	windowBits [Cells][numDirs]bitboard
)

func init() {
	for d := Dir(0); d < numDirs; d++ {
		dr, dc := dirDelta[d][0], dirDelta[d][1]
		for c := Cell(0); c < Cells; c++ {
			ahead[d][c] = CellAt(c.Col()+dc, c.Row()+dr)
			behind[d][c] = CellAt(c.Col()-dc, c.Row()-dr)
			w := Window{Start: c, Dir: d}
			if w.Valid() {
				for _, x := range w.Cells() {
					windowBits[c][d].set(x)
				}
			}
		}
	}
}

// Window is five cells in a line: a completed sequence, or one a mover names.
type Window struct {
	Start Cell // the end nearest the line's start
	Dir   Dir
}

// Valid reports whether all five cells are on the board.
func (w Window) Valid() bool {
	if !w.Start.Valid() || w.Dir >= numDirs {
		return false
	}
	end := CellAt(w.Start.Col()+4*dirDelta[w.Dir][1], w.Start.Row()+4*dirDelta[w.Dir][0])
	return end != NoCell
}

// Cells lists the window's cells from its start.
func (w Window) Cells() [WindowLen]Cell {
	var out [WindowLen]Cell
	dr, dc := dirDelta[w.Dir%numDirs][0], dirDelta[w.Dir%numDirs][1]
	for k := range out {
		out[k] = CellAt(w.Start.Col()+k*dc, w.Start.Row()+k*dr)
	}
	return out
}

// End is the window's last cell.
func (w Window) End() Cell { return w.Cells()[WindowLen-1] }

// Contains reports whether c is one of the window's cells.
func (w Window) Contains(c Cell) bool {
	return w.Valid() && c.Valid() && windowBits[w.Start][w.Dir].has(c)
}

func (w Window) bits() bitboard { return windowBits[w.Start][w.Dir] }

// overlap is the number of cells two windows share.
func overlap(a, b Window) int { return a.bits().and(b.bits()).count() }

// WindowBetween returns the window whose two ends are a and b, in either
// order.
func WindowBetween(a, b Cell) (Window, error) {
	if a.Valid() && b.Valid() {
		if a > b {
			a, b = b, a // the start of every direction is the smaller cell number
		}
		for d := Dir(0); d < numDirs; d++ {
			w := Window{Start: a, Dir: d}
			if w.Valid() && w.End() == b {
				return w, nil
			}
		}
	}
	return Window{}, fmt.Errorf("sequence: %v-%v is not five cells in a straight line", a, b)
}

// String writes the window as "first-last", e.g. "a5-e5".
func (w Window) String() string {
	if !w.Valid() {
		return fmt.Sprintf("Window(%d,%d)", int8(w.Start), w.Dir)
	}
	return w.Start.String() + "-" + w.End().String()
}

// ParseWindow reads "first-last" (either end first).
func ParseWindow(text string) (Window, error) {
	for i := 0; i < len(text); i++ {
		if text[i] == '-' {
			a, err := ParseCell(text[:i])
			if err != nil {
				return Window{}, err
			}
			b, err := ParseCell(text[i+1:])
			if err != nil {
				return Window{}, err
			}
			return WindowBetween(a, b)
		}
	}
	return Window{}, fmt.Errorf("sequence: %q is not a window (want first-last, e.g. a5-e5)", text)
}

// MarshalJSON writes the window as the vector format's [first, last].
func (w Window) MarshalJSON() ([]byte, error) {
	if !w.Valid() {
		return nil, fmt.Errorf("sequence: cannot encode invalid window %v", w)
	}
	return json.Marshal([2]Cell{w.Start, w.End()})
}

// UnmarshalJSON reads [first, last] (either end first).
func (w *Window) UnmarshalJSON(data []byte) error {
	var ends [2]Cell
	if err := json.Unmarshal(data, &ends); err != nil {
		return err
	}
	v, err := WindowBetween(ends[0], ends[1])
	if err != nil {
		return err
	}
	*w = v
	return nil
}
