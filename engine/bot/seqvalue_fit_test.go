package bot

import (
	"flag"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/sequence"
)

var fitValue = flag.Bool("fit", false, "fit the strong level's Sequence value (TestFitSequenceValue)")

// valueSample is one position of a roll-out-policy game: team 0's features
// minus team 1's, the old static evaluation's difference, and whether team
// 0 went on to win.
type valueSample struct {
	x    [numSeqFeatures]float64
	eval float64
	won  float64
}

// playValueGame plays one classic game of players in two teams with the
// roll-out policy at every seat and samples every other position.
func playValueGame(players int, seed uint64) []valueSample {
	cfg := sequence.Config{Players: players, Teams: 2}
	s, err := sequence.NewGame(cfg, rng.SeedFromUint64(seed))
	if err != nil {
		panic(err)
	}
	var a seqAnalysis
	a.analyze(&s.Table, s.TeamOf(s.Turn()), &defaultWeights)
	var out []valueSample
	var buf [sequence.MaxMoves]sequence.Move
	r := rng.NewUint64(seed ^ 0x5eed)
	for s.Status() == sequence.Playing {
		if s.Ply()%2 == int(seed%2) {
			var sm valueSample
			var f0, f1 [numSeqFeatures]float64
			a.valueFeatures(&s, 0, &f0)
			a.valueFeatures(&s, 1, &f1)
			for i := range sm.x {
				sm.x[i] = f0[i] - f1[i]
			}
			sm.eval = (a.evalTeam(0) - a.evalTeam(1)) / seqEvalScale
			out = append(out, sm)
		}
		a.rolloutStep(&s, buf[:0], r.Uint64())
	}
	won := 0.5
	if s.Status() == sequence.Won {
		won = float64(1 - s.Winner())
	}
	for i := range out {
		out[i].won = won
	}
	return out
}

// valueSamples plays games of players seeded from, from+1, … on every core
// and returns their samples in seed order, so that a fit is reproducible.
func valueSamples(players int, from, games uint64) []valueSample {
	parts := make([][]valueSample, games)
	var wg sync.WaitGroup
	next := make(chan uint64)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for g := range next {
				parts[g-from] = playValueGame(players, g)
			}
		})
	}
	for g := from; g < from+games; g++ {
		next <- g
	}
	close(next)
	wg.Wait()
	var out []valueSample
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// fitLogistic fits weights w maximizing the likelihood of won under
// P = σ(w·x), by Newton's method with a small ridge.
func fitLogistic(data []valueSample) [numSeqFeatures]float64 {
	const d = numSeqFeatures
	var w [d]float64
	for range 25 {
		var g [d]float64
		var h [d][d + 1]float64
		for _, s := range data {
			p := 1 / (1 + math.Exp(-valueLogit(&w, &s.x)))
			for i := range d {
				g[i] += (p - s.won) * s.x[i]
				for j := range d {
					h[i][j] += p * (1 - p) * s.x[i] * s.x[j]
				}
			}
		}
		for i := range d {
			h[i][i] += 1e-3 * float64(len(data))
			h[i][d] = g[i]
		}
		// Solve h·Δ = g by Gaussian elimination with partial pivoting.
		for c := range d {
			p := c
			for r := c + 1; r < d; r++ {
				if math.Abs(h[r][c]) > math.Abs(h[p][c]) {
					p = r
				}
			}
			h[c], h[p] = h[p], h[c]
			for r := range d {
				if r == c {
					continue
				}
				k := h[r][c] / h[c][c]
				for j := c; j <= d; j++ {
					h[r][j] -= k * h[c][j]
				}
			}
		}
		for i := range d {
			w[i] -= h[i][d] / h[i][i]
		}
	}
	return w
}

// logLoss is the mean log loss of predicting won by σ(logit(s)).
func logLoss(data []valueSample, logit func(s *valueSample) float64) float64 {
	sum := 0.0
	for i := range data {
		p := 1 / (1 + math.Exp(-logit(&data[i])))
		p = min(max(p, 1e-9), 1-1e-9)
		y := data[i].won
		sum -= y*math.Log(p) + (1-y)*math.Log(1-p)
	}
	return sum / float64(len(data))
}

func learnedLogit(w [numSeqFeatures]float64) func(s *valueSample) float64 {
	return func(s *valueSample) float64 { return valueLogit(&w, &s.x) }
}

// staticLogLoss is the static evaluation's log loss on test at the scale
// that fits train best.
func staticLogLoss(train, test []valueSample) (scale, loss float64) {
	eval := make([]valueSample, len(train))
	for i, s := range train {
		eval[i].won = s.won
		eval[i].x[0] = s.eval
	}
	scale = fitLogistic(eval)[0]
	return scale, logLoss(test, func(s *valueSample) float64 { return scale * s.eval })
}

// The committed weights predict the winners of games they were not fitted
// to better than the static evaluation does, even with the evaluation's
// scale fitted to those very games.
func TestSequenceValuePredictsBetterThanTheStaticEvaluation(t *testing.T) {
	for _, players := range []int{2, 4} {
		data := valueSamples(players, 2_000_000, 600)
		_, static := staticLogLoss(data, data)
		learned := logLoss(data, learnedLogit(*learnedWeights(players, 2)))
		t.Logf("%d players, %d positions: log loss %.4f learned, %.4f static", players, len(data), learned, static)
		if learned > static-0.03 {
			t.Errorf("%d players: learned value's log loss %.4f, want at least 0.03 below the static evaluation's %.4f", players, learned, static)
		}
	}
}

// TestFitSequenceValue fits the learned values (seqValueWeights2 and
// seqValueWeights4) to roll-out-policy games and compares each one's log
// loss on held-out games with the static evaluation's (with its scale
// fitted the same way). It only runs with -fit, and prints the weights to
// paste into seqvalue.go.
func TestFitSequenceValue(t *testing.T) {
	if !*fitValue {
		t.Skip("fits the Sequence values; run with -args -fit")
	}
	for _, players := range []int{2, 4} {
		train := valueSamples(players, 1, 12000)
		test := valueSamples(players, 1_000_000, 3000)
		w := fitLogistic(train)
		scale, static := staticLogLoss(train, test)
		t.Logf("%d players: %d training positions, %d held out", players, len(train), len(test))
		t.Logf("held-out log loss: learned value %.4f, static evaluation ×%.3f %.4f, coin 0.6931",
			logLoss(test, learnedLogit(w)), scale, static)
		var b strings.Builder
		for _, x := range w {
			fmt.Fprintf(&b, "%.4f, ", x)
		}
		t.Logf("seqValueWeights%d = [numSeqFeatures]float64{%s}", players, strings.TrimSuffix(b.String(), ", "))
	}
}
