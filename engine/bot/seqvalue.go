package bot

import (
	"math"

	"github.com/seqleague/seqleague/engine/sequence"
)

// The strong level's roll-outs at tables of two and four players end in a
// learned value: a logistic model of who wins, fitted to the outcomes of
// roll-out-policy games at that table (see TestFitSequenceValue, which
// prints seqValueWeights2 and seqValueWeights4). A
// roll-out's leaf is a determinized state, so the model may read every
// hand: a four whose gap card the team holds is all but a sequence, and the
// board alone cannot say so.

// Features of one team's position, in the order of the weights.
const (
	fSeqs           = iota // sequences made, up to the target
	fLive2                 // live windows holding 2
	fLive3                 // live windows holding 3
	fLive4                 // live windows holding 4
	fGaps                  // cells that would complete a live four
	fGapsHeld              // of those, cells the team holds a card for
	fJack2                 // two-eyed jacks held
	fJack1                 // one-eyed jacks held
	fToMove                // the team is to move
	fThreeCellsHeld        // empty cells of live threes the team holds a card for
	fWinNext               // one sequence short and holding the card (or a two-eyed jack) for a gap
	fLastGaps              // one sequence short: its gap cells
	fGapsHeldToMove        // gap cells held by the team to move
	fWinNow                // to move, one sequence short and holding a gap's card
	fThreeCells            // empty cells of live threes
	fTwoCellsHeld          // empty cells of live twos the team holds a card for
	numSeqFeatures
)

// seqValueWeights2 and seqValueWeights4 were fitted by TestFitSequenceValue
//
//	go test ./engine/bot -run FitSequenceValue -v -args -fit
//
// to the positions of 12,000 roll-out-policy games each. Two players:
// 315,032 positions; on 78,075 positions of 3,000 other games its log loss
// is 0.581, against 0.639 for the static evaluation (evalTeam) at its
// best-fitting scale and 0.693 for a coin. Four players (two teams of
// two): 276,665 positions; on 68,457 positions of 3,000 other games its log
// loss is 0.560, against 0.635 for the static evaluation at its best scale.
var (
	seqValueWeights2 = [numSeqFeatures]float64{1.3318, 0.0201, 0.0476, 0.0115, 0.2984, 0.5005, 0.5465, 0.4928, 0.1403, 0.2057, 2.3401, 0.0223, 0.2946, 3.4204, 0.0175, 0.0735}
	seqValueWeights4 = [numSeqFeatures]float64{1.4355, 0.0077, 0.0472, 0.0783, 0.2092, 0.3677, 0.5722, 0.4439, 0.1489, 0.2080, 1.5175, -0.0263, 0.3113, 1.2746, 0.0056, 0.0744}
)

// learnedWeights are the learned value's weights for a table of players in
// teams, or nil where none was fitted.
func learnedWeights(players, teams int) *[numSeqFeatures]float64 {
	switch {
	case teams != 2:
		return nil
	case players == 2:
		return &seqValueWeights2
	case players == 4:
		return &seqValueWeights4
	}
	return nil
}

// valueFeatures writes team t's features in the determinized state s,
// whose board a has read.
func (a *seqAnalysis) valueFeatures(s *sequence.State, t int, f *[numSeqFeatures]float64) {
	*f = [numSeqFeatures]float64{}
	f[fSeqs] = float64(min(a.seqs[t], a.target))
	for wi := range numWindows {
		switch a.live[t][wi] {
		case 2:
			f[fLive2]++
		case 3:
			f[fLive3]++
		case 4:
			f[fLive4]++
		}
	}
	var held [numCells]bool
	var buf [sequence.MaxHand]sequence.Card
	for p := range s.Players() {
		if s.TeamOf(p) != t {
			continue
		}
		for _, c := range s.AppendHand(buf[:0], p) {
			switch {
			case c.IsTwoEyed():
				f[fJack2]++
			case c.IsOneEyed():
				f[fJack1]++
			default:
				if cells, ok := sequence.CellsOf(c); ok {
					held[cells[0]], held[cells[1]] = true, true
				}
			}
		}
	}
	for c := sequence.Cell(0); c < numCells; c++ {
		if a.sq[c] != sequence.Empty {
			continue
		}
		if a.gap4[t][c] > 0 {
			f[fGaps]++
			if held[c] {
				f[fGapsHeld]++
			}
		}
		if a.nLive[t][c][3] > 0 {
			f[fThreeCells]++
			if held[c] {
				f[fThreeCellsHeld]++
			}
		}
		if held[c] && a.nLive[t][c][2] > 0 {
			f[fTwoCellsHeld]++
		}
	}
	if s.Status() == sequence.Playing && s.TeamOf(s.Turn()) == t {
		f[fToMove] = 1
	}
	if a.seqs[t]+1 >= a.target {
		f[fLastGaps] = f[fGaps]
		if f[fGapsHeld] > 0 || (f[fJack2] > 0 && f[fGaps] > 0) {
			f[fWinNext] = 1
		}
	}
	f[fGapsHeldToMove] = f[fToMove] * f[fGapsHeld]
	f[fWinNow] = f[fToMove] * f[fWinNext]
}

// valueLogit is the logit that weights w give features f.
func valueLogit(w, f *[numSeqFeatures]float64) float64 {
	v := 0.0
	for i := range w {
		v += w[i] * f[i]
	}
	return v
}

// leafRewards writes each team's chance to win from a roll-out's leaf s:
// by the learned value at the tables it was fitted to, and by the static
// evaluation at others, where no fit has been measured.
func (a *seqAnalysis) leafRewards(s *sequence.State, reward []float64) {
	learned := learnedWeights(s.Players(), len(reward))
	for t := range reward {
		if learned != nil {
			var f [numSeqFeatures]float64
			a.valueFeatures(s, t, &f)
			reward[t] = valueLogit(learned, &f)
		} else {
			reward[t] = a.evalTeam(t) / seqEvalScale
		}
	}
	softmax(reward)
}

// softmax turns logits into probabilities, in place.
func softmax(x []float64) {
	sum := 0.0
	for i := range x {
		x[i] = math.Exp(x[i])
		sum += x[i]
	}
	for i := range x {
		x[i] /= sum
	}
}
