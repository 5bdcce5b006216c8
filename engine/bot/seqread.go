package bot

import (
	"math"

	"github.com/seqleague/seqleague/engine/sequence"
)

// Reading the other hands. Every card a seat played is public, and so is the
// board it played on. A card the seat holds now was in its hand at each of
// its most recent decisions back to the one before it was drawn; if playing
// that card would have scored better, by the greedy heuristic, than the move
// the seat made, the seat probably does not hold it. The reading scores, for
// every other seat, every card kind by how well "it was held through the
// seat's last k decisions" explains that seat's play, for every k; the
// dealer deals each hand by those scores (see seqDealer.dealHand), which
// also decides how long each card has been held.
//
// The model of a seat is a soft greedy player: a move that scores d below its
// best alternative is chosen with odds e^(-readSharpness·d). Soft, because a
// person or a searching bot departs from the heuristic; sharp enough that a
// card held for several turns and never played where it was clearly best is
// all but ruled out.

const (
	// readSharpness is the model's inverse temperature, per greedy point.
	readSharpness = 1.0
	// readDeadCost is what holding a dead card through a turn costs in the
	// model, in greedy points: every level turns one in at once.
	readDeadCost = 20.0
	// readDecisions bounds how far back the reading looks, per seat: a card
	// held through more decisions than this is rare and no longer informative.
	readDecisions = 40
)

// handReading is, for every seat, the likelihood of its play given that a
// copy of a card kind was in its hand at its k most recent decisions:
// like[p][k][c], for k from 0 (drawn since: the play says nothing, 1) to
// the number of decisions read. A seat whose play was not read has only
// like[p][0]. kept[p][k] is the likelihood of the seat's play if the card
// it played at its k-th most recent decision was already in its hand at
// the decision before (1 where that decision was not read): a card that
// would have been the better play then was drawn in between.
type handReading struct {
	like [sequence.MaxPlayers][][64]float64
	kept [sequence.MaxPlayers][]float64
}

// readHands reads the play of every other seat, walking the discard log back
// from the position root describes.
func readHands(v *sequence.View, root *seqAnalysis) *handReading {
	var r handReading
	n := v.Players()
	var cum [sequence.MaxPlayers][64]float64 // excess over the decisions read so far
	read := func(p int) {
		var l [64]float64
		for k := range l {
			l[k] = math.Exp(-readSharpness * cum[p][k])
		}
		r.like[p] = append(r.like[p], l)
		r.kept[p] = append(r.kept[p], 1)
	}
	var played [sequence.MaxPlayers]sequence.Card // at the seat's decision read last
	for p := 0; p < n; p++ {
		if p != v.Seat() && v.HandSize(p) > 0 {
			read(p)
		}
	}
	a := *root
	log := v.DiscardLog()
	b := newBoardUndo(v, &a)
	var excess [64]float64
	for i := len(log) - 1; i >= 0; i-- {
		d := log[i]
		if d.Cell == sequence.NoCell {
			continue // a card turned in or discarded: no board to read
		}
		if !b.undo(d) {
			break
		}
		p := d.Seat
		if len(r.like[p]) == 0 || len(r.like[p]) > readDecisions {
			continue
		}
		exchanged := i > 0 && log[i-1].Seat == p && log[i-1].Cell == sequence.NoCell
		a.me = v.TeamOf(p)
		decisionExcess(&a, d, exchanged, &excess)
		for k := range excess {
			cum[p][k] += excess[k]
		}
		if k := len(r.kept[p]) - 1; k > 0 {
			r.kept[p][k] = math.Exp(-readSharpness * excess[played[p]])
		}
		played[p] = d.Card
		read(p)
	}
	return &r
}

// decisionExcess writes, for every card kind, by how much its best move would
// have outscored move d on the board a describes, from d's team's view.
func decisionExcess(a *seqAnalysis, d sequence.Discard, exchanged bool, excess *[64]float64) {
	made := sequence.Move{Kind: sequence.KindPlace, Card: d.Card, Cell: d.Cell}
	if d.Card.IsOneEyed() {
		made.Kind = sequence.KindRemove
	}
	s := a.moveScore(made)
	var pv [numCells]float64
	bestOpen := math.Inf(-1)
	bestRemove := math.Inf(-1)
	for c := sequence.Cell(0); c < numCells; c++ {
		switch q := a.sq[c]; {
		case q == sequence.Empty:
			v, _, _ := a.placeValue(c)
			pv[c] = v
			bestOpen = max(bestOpen, v)
		case q.Team() >= 0 && q.Team() != a.me && !a.locked[c]:
			bestRemove = max(bestRemove, a.removeValue(c))
		}
	}
	for k := sequence.Card(1); k < 64; k++ {
		best := math.Inf(-1)
		switch {
		case k.IsTwoEyed():
			best = bestOpen - a.w.jack2
		case k.IsOneEyed():
			best = bestRemove - a.w.jack1
		default:
			cells, ok := sequence.CellsOf(k)
			if !ok {
				excess[k] = 0
				continue
			}
			dead := true
			for _, c := range cells {
				if c.Valid() && a.sq[c] == sequence.Empty {
					best = max(best, pv[c])
					dead = false
				}
			}
			if dead {
				if exchanged {
					excess[k] = 0
				} else {
					excess[k] = readDeadCost
				}
				continue
			}
		}
		excess[k] = max(0, best-s)
	}
}

// boardUndo takes an analysis back through the discard log, one play at a
// time, to the board each play was made on.
type boardUndo struct {
	v      *sequence.View
	a      *seqAnalysis
	seqs   [][]sequence.Window // every team's sequences
	active [][]bool            // still complete at the board reached
}

func newBoardUndo(v *sequence.View, a *seqAnalysis) *boardUndo {
	b := &boardUndo{v: v, a: a}
	for t := 0; t < v.Teams(); t++ {
		w := v.Sequences(t)
		b.seqs = append(b.seqs, w)
		b.active = append(b.active, make([]bool, len(w)))
		for i := range w {
			b.active[t][i] = true
		}
	}
	return b
}

// undo takes back play d, or reports false when the board before it cannot
// be known: a chip removed in a three-team game (whose was it?), or a log
// that disagrees with the board.
func (b *boardUndo) undo(d sequence.Discard) bool {
	a := b.a
	if d.Card.IsOneEyed() {
		// Later plays have been taken back, so the cell is empty again; in a
		// two-team game the chip removed was the other team's.
		if b.v.Teams() != 2 || a.sq[d.Cell] != sequence.Empty {
			return false
		}
		a.setCell(d.Cell, sequence.TeamA+sequence.Square(1-b.v.TeamOf(d.Seat)))
		return true
	}
	team := a.sq[d.Cell].Team()
	if team != b.v.TeamOf(d.Seat) {
		return false
	}
	if a.locked[d.Cell] {
		b.unlock(team, d.Cell)
	}
	a.setCell(d.Cell, sequence.Empty)
	return true
}

// unlock undoes the sequences of team through c, which the chip on c
// completed.
func (b *boardUndo) unlock(team int, c sequence.Cell) {
	a := b.a
	var touched [numCells]bool
	for i, w := range b.seqs[team] {
		if b.active[team][i] && w.Contains(c) {
			b.active[team][i] = false
			a.seqs[team]--
			for _, x := range w.Cells() {
				touched[x] = true
			}
		}
	}
	for x := sequence.Cell(0); x < numCells; x++ {
		if !touched[x] || isCorner[x] {
			continue
		}
		still := false
		for t := range b.seqs {
			for i, w := range b.seqs[t] {
				if b.active[t][i] && w.Contains(x) {
					still = true
				}
			}
		}
		if !still {
			a.locked[x] = false
			a.recountAround(x)
		}
	}
}
