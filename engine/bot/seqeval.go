package bot

import (
	"github.com/seqleague/seqleague/engine/sequence"
)

// The board game's heuristics look at windows: the 192 lines of five cells
// a sequence can occupy. A window is live for a team while it holds no chip
// of another team and could still be claimed; its count is the team's chips
// plus corners in it. Completing a live four makes a sequence.

const (
	numWindows = 192
	maxTeams   = sequence.MaxTeams
	numCells   = sequence.Cells
)

var (
	winCells   [numWindows][5]sequence.Cell
	winDir     [numWindows]uint8
	cellWins   [numCells][20]uint8
	cellWinN   [numCells]uint8
	isCorner   [numCells]bool
	winCorners [numWindows]int8
)

func init() {
	n := 0
	dirs := [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} // (row, column) steps
	for r := 0; r < sequence.Side; r++ {
		for c := 0; c < sequence.Side; c++ {
			for d, step := range dirs {
				er, ec := r+4*step[0], c+4*step[1]
				if er >= sequence.Side || ec < 0 || ec >= sequence.Side {
					continue
				}
				for k := 0; k < 5; k++ {
					cell := sequence.CellAt(c+k*step[1], r+k*step[0])
					winCells[n][k] = cell
					cellWins[cell][cellWinN[cell]] = uint8(n)
					cellWinN[cell]++
				}
				winDir[n] = uint8(d)
				n++
			}
		}
	}
	if n != numWindows {
		panic("bot: window count")
	}
	for c := sequence.Cell(0); c < numCells; c++ {
		isCorner[c] = c.IsCorner()
	}
	for wi := range winCells {
		for _, c := range winCells[wi] {
			if isCorner[c] {
				winCorners[wi]++
			}
		}
	}
}

// seqWeights are the greedy evaluation's constants.
type seqWeights struct {
	off      [4]float64 // placing in a live window of ours holding k (0–3)
	def      [5]float64 // our chip kills an opponent's live window holding k (1–3; [4] a four that does not win)
	complete float64    // a sequence that does not win yet
	win      float64
	winFour  float64 // killing an opponent's four that would win
	jack2    float64 // the cost of spending a two-eyed jack
	jack1    float64 // the cost of spending a one-eyed jack
}

var defaultWeights = seqWeights{
	off:      [4]float64{1, 3, 10, 30},
	def:      [5]float64{0, 0.5, 2.5, 9, 400},
	complete: 1000,
	win:      100000,
	winFour:  20000,
	jack2:    150,
	jack1:    90,
}

// seqAnalysis is the window statistics of one position, from the point of
// view of the team to move.
type seqAnalysis struct {
	teams, target, me int
	w                 *seqWeights
	sq                [numCells]sequence.Square
	locked            [numCells]bool
	seqs              [maxTeams]int
	chips             [numWindows][maxTeams]int8
	others            [numWindows]uint8 // teams with a chip in the window, as a bit set
	live              [maxTeams][numWindows]int8
	lockedN           [numWindows][maxTeams]int8
	gap4              [maxTeams][numCells]int8            // live fours of the team whose empty cell is the cell
	winGap            [maxTeams][numWindows]sequence.Cell // a live four's empty cell
	// live windows through each cell, by team and count (0–4)
	nLive [maxTeams][numCells][5]int8
}

// deadFor reports whether a window overlaps one of team's sequences in two
// cells or more, so that it can never be claimed.
func (a *seqAnalysis) deadFor(team int, wi uint8) bool { return a.lockedN[wi][team] >= 2 }

// analyze reads the table. me is the team to score moves for.
func (a *seqAnalysis) analyze(t *sequence.Table, me int, w *seqWeights) {
	a.teams, a.target, a.me, a.w = t.Teams(), t.SequencesToWin(), me, w
	for c := sequence.Cell(0); c < numCells; c++ {
		a.sq[c] = t.At(c)
		a.locked[c] = t.Locked(c)
	}
	for team := 0; team < a.teams; team++ {
		a.seqs[team] = t.SequenceCount(team)
	}
	a.count()
}

func (a *seqAnalysis) count() {
	a.gap4 = [maxTeams][numCells]int8{}
	a.nLive = [maxTeams][numCells][5]int8{}
	for t := range a.live {
		for wi := range a.live[t] {
			a.live[t][wi] = -1
		}
	}
	for wi := range numWindows {
		a.countWindow(wi)
	}
}

// countWindow recomputes one window's statistics from the board.
func (a *seqAnalysis) countWindow(wi int) {
	var chips [maxTeams]int8
	var locked [maxTeams]int8
	for _, c := range winCells[wi] {
		if t := a.sq[c].Team(); t >= 0 {
			chips[t]++
			if a.locked[c] {
				locked[t]++
			}
		}
	}
	a.chips[wi] = chips
	a.lockedN[wi] = locked
	a.derive(wi)
}

// derive recomputes what follows from a window's chip counts: which teams
// it is live for, with how many, and the empty cell of a live four.
func (a *seqAnalysis) derive(wi int) {
	chips := &a.chips[wi]
	mask := uint8(0)
	for t := 0; t < a.teams; t++ {
		if chips[t] > 0 {
			mask |= 1 << t
		}
	}
	a.others[wi] = mask
	for t := 0; t < a.teams; t++ {
		old := a.live[t][wi]
		if old == 4 {
			a.gap4[t][a.winGap[t][wi]]--
		}
		k := int8(-1) // blocked, or overlapping a sequence of the team's
		if mask&^(1<<t) == 0 && a.lockedN[wi][t] < 2 {
			k = chips[t] + winCorners[wi]
		}
		if k != old {
			for _, c := range winCells[wi] {
				if old >= 0 && old <= 4 {
					a.nLive[t][c][old]--
				}
				if k >= 0 && k <= 4 {
					a.nLive[t][c][k]++
				}
			}
		}
		a.live[t][wi] = k
		if k < 0 {
			continue
		}
		if k == 4 {
			for _, c := range winCells[wi] {
				if a.sq[c] == sequence.Empty {
					a.winGap[t][wi] = c
					a.gap4[t][c]++
					break
				}
			}
		}
	}
}

// setCell puts q on c (a chip placed or removed) and updates the windows
// through it.
func (a *seqAnalysis) setCell(c sequence.Cell, q sequence.Square) {
	old := a.sq[c]
	a.sq[c] = q
	ot, nt := old.Team(), q.Team()
	for i := uint8(0); i < cellWinN[c]; i++ {
		wi := int(cellWins[c][i])
		if ot >= 0 {
			a.chips[wi][ot]--
		}
		if nt >= 0 {
			a.chips[wi][nt]++
		}
		a.derive(wi)
	}
}

// follow brings the analysis up to date with t after one move changed at
// most cell c, and makes me the team to score for. A completed sequence
// locks cells, so then everything is recounted.
func (a *seqAnalysis) follow(t *sequence.Table, m sequence.Move, me int) {
	a.me = me
	if m.Kind != sequence.KindPlace && m.Kind != sequence.KindRemove {
		return
	}
	c := m.Cell
	a.setCell(c, t.At(c))
	relock := false
	for team := 0; team < a.teams; team++ {
		if n := t.SequenceCount(team); n != a.seqs[team] {
			a.seqs[team] = n
			relock = true
		}
	}
	if !relock {
		return
	}
	// The new sequences all pass through c: only cells of windows through
	// it can have been locked.
	for i := uint8(0); i < cellWinN[c]; i++ {
		for _, x := range winCells[cellWins[c][i]] {
			if l := t.Locked(x); l != a.locked[x] {
				a.locked[x] = l
				a.recountAround(x)
			}
		}
	}
}

// defValue is what an opponent o's live window holding k is worth to them,
// which is what killing it is worth to us.
func (a *seqAnalysis) defValue(o, k int) float64 {
	if k == 4 && a.seqs[o]+1 >= a.target {
		return a.w.winFour
	}
	return a.w.def[k]
}

// placeValue scores a chip of ours on the empty cell c: what it adds to our
// live windows, what it kills of the opponents', and whether it completes
// sequences (completes, wins).
func (a *seqAnalysis) placeValue(c sequence.Cell) (v float64, completes int, wins bool) {
	me := a.me
	n := &a.nLive[me][c]
	v = a.w.off[0]*float64(n[0]) + a.w.off[1]*float64(n[1]) + a.w.off[2]*float64(n[2]) + a.w.off[3]*float64(n[3])
	for o := 0; o < a.teams; o++ {
		if o == me {
			continue
		}
		m := &a.nLive[o][c]
		v += a.w.def[1]*float64(m[1]) + a.w.def[2]*float64(m[2]) + a.w.def[3]*float64(m[3])
		if m[4] > 0 {
			v += a.defValue(o, 4) * float64(m[4])
		}
	}
	if n[4] == 0 {
		return v, 0, false
	}
	var dirDone [4]bool
	for i := uint8(0); i < cellWinN[c]; i++ {
		wi := cellWins[c][i]
		if a.live[me][wi] == 4 && !dirDone[winDir[wi]] {
			dirDone[winDir[wi]] = true
			completes++
		}
	}
	if a.seqs[me]+completes >= a.target {
		return v + a.w.win, completes, true
	}
	return v + a.w.complete*float64(completes), completes, false
}

// removeValue scores taking the opponent's chip off c: the opponent's live
// windows through it shrink, and ours that only it blocked come alive.
func (a *seqAnalysis) removeValue(c sequence.Cell) float64 {
	me := a.me
	o := a.sq[c].Team()
	if o < 0 || o == me {
		return 0
	}
	v := 0.0
	for i := uint8(0); i < cellWinN[c]; i++ {
		wi := cellWins[c][i]
		if k := int(a.live[o][wi]); k >= 1 {
			v += a.defValue(o, k) - a.defValue(o, k-1)
		}
		// Ours, if this chip was the only one in the way.
		if a.others[wi]&^(1<<me) == 1<<o && a.chips[wi][o] == 1 && !a.deadFor(me, wi) {
			k := 0
			for _, x := range winCells[wi] {
				if q := a.sq[x]; q == sequence.Corner || q.Team() == me {
					k++
				}
			}
			for j := 0; j < k && j < 4; j++ {
				v += a.w.off[j] * 0.5
			}
		}
	}
	return v
}

// evalTeam is a static estimate of how close a team is to winning.
func (a *seqAnalysis) evalTeam(t int) float64 {
	e := 0.0
	for wi := range numWindows {
		switch a.live[t][wi] {
		case 2:
			e += 1
		case 3:
			e += 4
		case 4:
			e += 12
		}
	}
	return e + 40*float64(a.seqs[t])
}

// isGap reports whether c is the empty cell of a live four of any team.
func (a *seqAnalysis) isGap(c sequence.Cell) bool {
	for t := 0; t < a.teams; t++ {
		if a.gap4[t][c] > 0 {
			return true
		}
	}
	return false
}

// hotChip reports whether the chip on c is part of a live three or four of
// its team.
func (a *seqAnalysis) hotChip(c sequence.Cell) bool {
	o := a.sq[c].Team()
	if o < 0 {
		return false
	}
	for i := uint8(0); i < cellWinN[c]; i++ {
		if a.live[o][cellWins[c][i]] >= 3 {
			return true
		}
	}
	return false
}

// recountAround recomputes the windows through c.
func (a *seqAnalysis) recountAround(c sequence.Cell) {
	for i := uint8(0); i < cellWinN[c]; i++ {
		a.countWindow(int(cellWins[c][i]))
	}
}
