package bot

import (
	"fmt"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/sequence"
)

// seqMoves is the viewer's legal moves, or ErrCannotAct.
func seqMoves(v *sequence.View, buf []sequence.Move) ([]sequence.Move, error) {
	if v.Seat() < 0 || v.Status() != sequence.Playing || v.Turn() != v.Seat() {
		return nil, fmt.Errorf("%w: seat %d, turn %d, %v", ErrCannotAct, v.Seat(), v.Turn(), v.Status())
	}
	moves := v.LegalMoves(buf)
	if len(moves) == 0 {
		return nil, fmt.Errorf("%w: no legal move", ErrCannotAct)
	}
	return moves, nil
}

// exchangeFirst returns the first dead-card exchange among moves: every
// level turns a dead card in before playing, since it can never be placed.
func exchangeFirst(moves []sequence.Move) (sequence.Move, bool) {
	for _, m := range moves {
		if m.Kind == sequence.KindExchange {
			return m, true
		}
	}
	return sequence.Move{}, false
}

type seqRandom struct{}

func (seqRandom) Level() Level { return Random }

func (seqRandom) Choose(v *sequence.View, r *rng.Rand, _ Budget) (sequence.Move, error) {
	moves, err := seqMoves(v, make([]sequence.Move, 0, sequence.MaxMoves))
	if err != nil {
		return sequence.Move{}, err
	}
	if m, ok := exchangeFirst(moves); ok {
		return m, nil
	}
	return moves[r.IntN(len(moves))], nil
}

type seqGreedy struct {
	w *seqWeights // nil: defaultWeights
}

func (seqGreedy) Level() Level { return Greedy }

func (gr seqGreedy) Choose(v *sequence.View, _ *rng.Rand, _ Budget) (sequence.Move, error) {
	moves, err := seqMoves(v, make([]sequence.Move, 0, sequence.MaxMoves))
	if err != nil {
		return sequence.Move{}, err
	}
	var a seqAnalysis
	w := &defaultWeights
	if gr.w != nil {
		w = gr.w
	}
	a.analyze(&v.Table, v.TeamOf(v.Seat()), w)
	return greedyPick(&a, moves, nil, 0), nil
}

// moveScore is the greedy score of one legal move: what it does to the
// windows, less the cost of a jack spent on it.
func (a *seqAnalysis) moveScore(m sequence.Move) float64 {
	switch m.Kind {
	case sequence.KindPlace:
		v, _, _ := a.placeValue(m.Cell)
		if m.Card.IsTwoEyed() {
			v -= a.w.jack2
		}
		return v
	case sequence.KindRemove:
		return a.removeValue(m.Cell) - a.w.jack1
	case sequence.KindExchange:
		return 1e12
	case sequence.KindDiscard:
		return -a.keepValue(m.Card)
	}
	return 0 // a pass, the only move
}

// keepValue is how much a card in hand is worth keeping, for choosing a
// penalty discard.
func (a *seqAnalysis) keepValue(c sequence.Card) float64 {
	switch {
	case c.IsTwoEyed():
		return a.w.jack2 * 2
	case c.IsOneEyed():
		return a.w.jack1 * 2
	}
	cells, _ := sequence.CellsOf(c)
	best := -1.0
	for _, p := range cells {
		if a.sq[p] == sequence.Empty {
			v, _, _ := a.placeValue(p)
			best = max(best, v)
		}
	}
	return best
}

// greedyPick returns the best-scoring move. With r set, noise up to jitter
// is added to every score, which varies roll-outs without letting them
// blunder.
func greedyPick(a *seqAnalysis, moves []sequence.Move, r *rng.Rand, jitter float64) sequence.Move {
	best, bestScore := moves[0], -1e18
	for _, m := range moves {
		if m.Kind == sequence.KindExchange {
			return m
		}
		s := a.moveScore(m)
		if r != nil {
			s += jitter * r.Float64()
		}
		if s > bestScore {
			best, bestScore = m, s
		}
	}
	return best
}
