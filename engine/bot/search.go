package bot

import (
	"math"
	"math/bits"
	"slices"

	"github.com/seqleague/seqleague/engine/rng"
)

// The strong level is a determinized Monte Carlo tree search whose tree is
// one level deep: the seat's candidate moves. One iteration deals the
// cards the seat cannot see at random, consistently with its view (a
// determinization), and plays every candidate still in the running from
// that same deal, with the same roll-out randomness, to the end of a greedy
// roll-out; each side's reward goes to its team. Comparing candidates on
// common deals (common random numbers) cancels most of the luck of the
// deal, which otherwise swamps the differences between good moves: an
// information-set MCTS that draws a fresh deal per visit and grows a tree
// below each move played no better than the greedy heuristic at this
// budget. Sequential halving spends the budget on the candidates that stay
// close to the best, and the heuristic's own choice is kept unless another
// candidate beats it, deal by deal, by a confidence margin — so the search
// can only overrule the heuristic where the evidence is clear.

// rollGame is what the search needs from a game, on a determinized state S
// with moves M.
type rollGame[S any, M comparable] interface {
	// deal samples a state consistent with the searcher's view.
	deal(r *rng.Rand) (S, error)
	apply(s *S, m M)
	// rollout plays on from s and writes each side's reward in [0, 1].
	rollout(s *S, r *rng.Rand, reward []float64)
}

type searchParams struct {
	candidates int     // how many of the heuristic's best moves are searched
	z          float64 // standard errors by which a move must beat the heuristic's choice
	sides      int     // reward entries
}

// flatSearch searches cands, the heuristic's best moves best first, for
// side. iters counts roll-outs; stop, if set, ends the search early.
func flatSearch[S any, M comparable](g rollGame[S, M], cands []M, side int, p searchParams, iters int, stop func() bool, r *rng.Rand) (M, error) {
	if len(cands) > p.candidates {
		cands = cands[:p.candidates]
	}
	if len(cands) == 1 {
		return cands[0], nil
	}
	k := len(cands)
	n := make([]float64, k)  // deals each candidate was played on
	d1 := make([]float64, k) // sum of its reward minus the baseline's on the same deals
	d2 := make([]float64, k) // sum of squares of those differences
	alive := make([]int, k)
	for i := range alive {
		alive[i] = i
	}
	reward := make([]float64, p.sides)
	res := make([]float64, k)
	rounds := bits.Len(uint(k - 1)) // ⌈log2 k⌉
	spent := 0
	for round := 0; round < rounds && spent < iters; round++ {
		left := rounds - round
		deals := max(1, (iters-spent)/(left*len(alive)))
		for d := 0; d < deals; d++ {
			if stop != nil && spent > 0 && stop() {
				return pickBest(cands, n, d1, d2, p.z), nil
			}
			s, err := g.deal(r)
			if err != nil {
				var zero M
				return zero, err
			}
			seed := r.Uint64()
			for _, i := range alive {
				st := s
				g.apply(&st, cands[i])
				rr := rng.NewUint64(seed)
				g.rollout(&st, &rr, reward)
				res[i] = reward[side]
				spent++
			}
			for _, i := range alive {
				x := res[i] - res[0]
				n[i]++
				d1[i] += x
				d2[i] += x * x
			}
		}
		if len(alive) <= 2 {
			continue
		}
		// Keep the better half; the baseline (index 0) always stays.
		rest := slices.Clone(alive[1:])
		slices.SortStableFunc(rest, func(a, b int) int {
			ma, mb := d1[a]/n[a], d1[b]/n[b]
			switch {
			case ma > mb:
				return -1
			case ma < mb:
				return 1
			}
			return 0
		})
		keep := max(1, (len(alive)+1)/2-1)
		alive = append(alive[:1], rest[:keep]...)
	}
	return pickBest(cands, n, d1, d2, p.z), nil
}

// pickBest is the candidate whose lead over the baseline has the highest
// lower confidence bound, if that bound is above zero; else the baseline.
func pickBest[M any](cands []M, n, d1, d2 []float64, z float64) M {
	best, bestLB := 0, 0.0
	for i := 1; i < len(cands); i++ {
		if n[i] < 2 {
			continue
		}
		mean := d1[i] / n[i]
		se := math.Sqrt(max(0, d2[i]/n[i]-mean*mean) / (n[i] - 1))
		if lb := mean - z*se; lb > bestLB {
			best, bestLB = i, lb
		}
	}
	return cands[best]
}
