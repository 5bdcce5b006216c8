package sequence

import (
	"fmt"
	"math/bits"
)

// Sequence detection works only through the cell just placed (rules.md 1.4:
// every new sequence contains it), along its four lines, so a placement
// costs a few dozen array reads however full the board is.

// candidates is the set of windows through p that a chip of team on p would
// complete and that the team may still claim: all five cells the team's or
// corners, sharing at most one cell with each of the team's sequences.
func (t *Table) candidates(team int, p Cell) WindowSet {
	mine := TeamA + Square(team)
	var set WindowSet
	for d := Dir(0); d < numDirs; d++ {
		// Count the team's cells behind and ahead of p, up to four each way.
		back := 0
		for c := behind[d][p]; c != NoCell && back < WindowLen-1; c = behind[d][c] {
			if q := t.board[c]; q != mine && q != Corner {
				break
			}
			back++
		}
		fwd := 0
		for c := ahead[d][p]; c != NoCell && fwd < WindowLen-1; c = ahead[d][c] {
			if q := t.board[c]; q != mine && q != Corner {
				break
			}
			fwd++
		}
		if back+fwd+1 < WindowLen {
			continue
		}
		// p is the k-th cell of a window that fits in the run.
		for k := WindowLen - 1 - fwd; k <= back; k++ {
			if t.claimable(team, windowThrough(p, d, k)) {
				set |= windowBit(d, k)
			}
		}
	}
	return set
}

// claimable reports whether w shares at most one cell with each of team's
// sequences. Windows on different lines share at most one cell, so only
// sequences in the same direction need a look.
func (t *Table) claimable(team int, w Window) bool {
	for _, s := range t.seqs[team][:t.seqN[team]] {
		if s.Dir == w.Dir && overlap(s, w) > 1 {
			return false
		}
	}
	return true
}

// chooseWindows picks the sequences a placement locks (rules.md 1.4). Lines
// are independent (windows on different lines share only p), so the most
// sequences is the most along each line: two when p ends one window and
// starts the next in a run of nine or more (the only pair of windows through
// p that share one cell), else one if any. Named windows must reach that
// most on every line; unnamed, each line takes the window nearest its start.
func chooseWindows(cand, named WindowSet) (WindowSet, error) {
	const pair = 1 | 1<<(WindowLen-1) // p is the first cell of one window and the last of the other
	var chosen WindowSet
	for d := Dir(0); d < numDirs; d++ {
		line := lineBits(cand, d)
		var best WindowSet
		switch {
		case line&pair == pair:
			best = pair
		case line != 0:
			best = 1 << (bits.Len32(uint32(line)) - 1) // the largest offset: the start nearest the line's start
		}
		if named != 0 {
			want := lineBits(named, d)
			switch {
			case want&^line != 0:
				return 0, fmt.Errorf("%w: a named window is not a sequence this play may claim", ErrIllegalMove)
			case bits.OnesCount32(uint32(want)) != bits.OnesCount32(uint32(best)) || (bits.OnesCount32(uint32(want)) == 2 && want != pair):
				return 0, fmt.Errorf("%w: the named windows do not give the most sequences this play makes", ErrIllegalMove)
			}
			best = want
		}
		chosen |= best << (uint(d) * WindowLen)
	}
	return chosen, nil
}

// claim records the chosen windows through p as team's sequences and locks
// their chips.
func (t *Table) claim(team int, p Cell, chosen WindowSet) {
	for d := Dir(0); d < numDirs; d++ {
		for k := WindowLen - 1; k >= 0; k-- {
			if chosen&windowBit(d, k) == 0 {
				continue
			}
			w := windowThrough(p, d, k)
			if int(t.seqN[team]) < maxSequences {
				t.seqs[team][t.seqN[team]] = w
				t.seqN[team]++
			}
			t.locked = t.locked.or(w.bits().andNot(cornerBits))
		}
	}
}
