package competition

import (
	"cmp"
	"iter"
	"slices"

	"github.com/seqleague/seqleague/engine/rng"
)

// SwissRounds is the default number of Swiss rounds: enough for one entry
// to stay unbeaten, ⌈log_size n⌉ (⌈log₂ n⌉ in matches of two), at least 1.
func SwissRounds(n, size int) int {
	if size < 2 {
		size = 2
	}
	r := 0
	for c := 1; c < n; c *= size {
		r++
	}
	return max(r, 1)
}

// swissFullGraph: up to this many entries the pairing considers every
// pair, which makes it exact; above it, a bounded candidate graph first.
const swissFullGraph = 300

// swissEntry is an active entry's standing before the round.
type swissEntry struct {
	id     string
	seed   int // position in seed order
	score  float64
	group  int     // score group, 0 the highest
	opps   []int32 // rank positions of the entries met over the board (with repeats)
	byes   int     // byes had, and wins by every other entry's forfeit
	seats  []int   // times sat in each seat, in matches played
	placed bool
}

type swissField struct {
	size    int
	entries []swissEntry // in rank order: score, then seed
}

func (f *swissField) met(i, j int) int {
	c := 0
	for _, o := range f.entries[i].opps {
		if int(o) == j {
			c++
		}
	}
	return c
}

// SwissRound pairs round number round of a Swiss in matches of size from
// the results of the earlier rounds. entries are the entries still
// playing; results may name withdrawn entries, which are ignored.
func SwissRound(entries []Entry, history []Result, round, size int, points Points) (Round, error) {
	if err := checkMatchSize(size); err != nil {
		return Round{}, err
	}
	ordered, err := checkEntries(entries, size)
	if err != nil {
		return Round{}, err
	}
	f, err := newSwissField(ordered, history, size, points)
	if err != nil {
		return Round{}, err
	}
	var groups [][]int
	var byes []int
	if size == 2 {
		groups, byes = f.pairTwo()
	} else {
		groups, byes = f.pairMany()
	}
	out := Round{Number: round}
	slices.SortFunc(groups, func(a, b []int) int { return slices.Min(a) - slices.Min(b) })
	for bi, g := range groups {
		p := Pairing{ID: pairingID("", round, bi+1)}
		for _, i := range f.seatOrder(g, bi) {
			p.Entries = append(p.Entries, f.entries[i].id)
		}
		out.Matches = append(out.Matches, p)
	}
	slices.Sort(byes)
	for _, i := range byes {
		out.Byes = append(out.Byes, f.entries[i].id)
	}
	return out, nil
}

func newSwissField(ordered []Entry, history []Result, size int, points Points) (*swissField, error) {
	bySeed := make(map[string]int, len(ordered))
	for i, e := range ordered {
		bySeed[e.ID] = i
	}
	es := make([]swissEntry, len(ordered))
	for i, e := range ordered {
		es[i] = swissEntry{id: e.ID, seed: i, seats: make([]int, size)}
	}
	type pairIdx struct{ a, b int }
	var meetings []pairIdx
	for ri, r := range history {
		if r.Bye {
			if len(r.Entries) != 1 {
				return nil, invalidf("result %d: a bye of %d entries", ri, len(r.Entries))
			}
			if i, ok := bySeed[r.Entries[0]]; ok {
				es[i].byes++
				es[i].score += points.Bye
			}
			continue
		}
		if err := r.checkOutcome(ri); err != nil {
			return nil, err
		}
		// An entry that forfeited the match, absent, never played it:
		// its meetings there are no meetings and its seat no seat (see
		// the package documentation). The entries present played each
		// other, if there were two or more of them.
		absent := func(id string) bool { return slices.Contains(r.Forfeited, id) }
		present := 0
		for _, id := range r.Entries {
			if !absent(id) {
				present++
			}
		}
		for s, id := range r.Entries {
			i, ok := bySeed[id]
			if !ok {
				continue
			}
			switch r.Outcome(id) {
			case Drew:
				es[i].score += points.Draw
			case Won:
				es[i].score += points.Win
			default:
				es[i].score += points.Loss
			}
			if absent(id) {
				continue
			}
			if present < 2 {
				// Everyone else was absent: a win without a game,
				// which bars the bye as a bye does.
				if r.Winner == id {
					es[i].byes++
				}
				continue
			}
			if s < size {
				es[i].seats[s]++
			}
			for _, other := range r.Entries {
				if j, ok := bySeed[other]; ok && j != i && !absent(other) {
					meetings = append(meetings, pairIdx{i, j})
				}
			}
		}
	}
	// rank: score, then seed
	order := make([]int, len(es))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if !equal(es[a].score, es[b].score) {
			return cmp.Compare(es[b].score, es[a].score)
		}
		return cmp.Compare(es[a].seed, es[b].seed)
	})
	rankOf := make([]int, len(es))
	ranked := make([]swissEntry, len(es))
	for r, i := range order {
		rankOf[i] = r
		ranked[r] = es[i]
	}
	for _, m := range meetings {
		a := rankOf[m.a]
		ranked[a].opps = append(ranked[a].opps, int32(rankOf[m.b]))
	}
	g := 0
	for r := range ranked {
		if r > 0 && !equal(ranked[r].score, ranked[r-1].score) {
			g++
		}
		ranked[r].group = g
	}
	return &swissField{size: size, entries: ranked}, nil
}

// seatOrder seats a match: the entry that has sat least in the first seat
// takes it, then the second, and so on; ties go to the better-ranked entry
// on odd boards and the worse-ranked on even ones.
func (f *swissField) seatOrder(g []int, board int) []int {
	rest := slices.Clone(g)
	slices.Sort(rest)
	out := make([]int, 0, len(g))
	for seat := range len(g) {
		best := 0
		for i := 1; i < len(rest); i++ {
			a, b := f.entries[rest[i]].seats[seat], f.entries[rest[best]].seats[seat]
			if a < b || a == b && board%2 == 1 {
				best = i
			}
		}
		out = append(out, rest[best])
		rest = slices.Delete(rest, best, best+1)
	}
	return out
}

// idealPartners is the pairing the Dutch system would make if nobody had
// met: score groups top-down, the top half of each group against its bottom
// half in order, an odd entry out floating down to the next group, and the
// last entry of all taking the bye. ideal[i] is i's partner (i itself for
// the bye).
func (f *swissField) idealPartners() []int {
	n := len(f.entries)
	ideal := make([]int, n)
	var carry []int
	for start, end := range f.scoreGroups() {
		list := carry
		carry = nil
		for i := start; i < end; i++ {
			list = append(list, i)
		}
		if len(list)%2 == 1 {
			last := list[len(list)-1]
			list = list[:len(list)-1]
			if end == n {
				ideal[last] = last
			} else {
				carry = []int{last}
			}
		}
		half := len(list) / 2
		for i := range half {
			a, b := list[i], list[i+half]
			ideal[a], ideal[b] = b, a
		}
	}
	return ideal
}

// scoreGroups yields each score group's range [start, end) of f.entries,
// top group first.
func (f *swissField) scoreGroups() iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		n := len(f.entries)
		for start := 0; start < n; {
			end := start
			for end < n && f.entries[end].group == f.entries[start].group {
				end++
			}
			if !yield(start, end) {
				return
			}
			start = end
		}
	}
}

// pairTwo pairs a round of two-entry matches: a maximum-weight perfect
// matching (Edmonds' blossom algorithm) over the entries plus, for an odd
// field, a bye vertex. Its weights order the candidates lexicographically:
//
//  1. no rematch and no second bye (such edges are left out; only when no
//     perfect matching avoids them are they allowed, at a penalty that
//     minimises their number);
//  2. the bye to the lowest-ranked entry that has not had one;
//  3. the least Σ d², d the distance in score groups of the two entries
//     paired (capped at 16): pair within score groups, float as little and
//     as near as possible;
//  4. the closest to the Dutch pairing: Σ over pairs {i, j} of
//     |j − ideal(i)| + |i − ideal(j)| in rank positions.
//
// Up to swissFullGraph entries every pair is a candidate and the result is
// exact. Above it candidates are each entry's nearest ranks and the ranks
// around its Dutch partner, widened once if that is not enough; if the
// window still has no perfect matching, an augmenting-path search over the
// whole legal graph either finds one (its edges join the candidates, so
// the result avoids every avoidable rematch) or proves that rematches are
// unavoidable, and then a maximum legal matching completed among the
// unmatched entries bounds the penalised search.
func (f *swissField) pairTwo() (pairs [][]int, byes []int) {
	n := len(f.entries)
	nv := n + n%2
	bye := -1
	if n%2 == 1 {
		bye = n
	}
	ideal := f.idealPartners()
	legal := func(i, j int) bool {
		if j == bye {
			return f.entries[i].byes == 0
		}
		if i == bye {
			return f.entries[j].byes == 0
		}
		return f.met(i, j) == 0
	}
	gd := func(i, j int) int64 {
		d := int64(min(abs(f.entries[i].group-f.entries[j].group), 16))
		return d * d
	}
	dev := func(i, j int) int64 {
		return int64(abs(j-ideal[i]) + abs(i-ideal[j]))
	}
	half := int64(nv / 2)
	// strict weights (legal edges only)
	uD := 2*int64(n)*half + 1
	dTot := half * (256*uD + 2*int64(n))
	uC := dTot + 1
	strictK := max(int64(n)*uC, 256*uD+2*int64(n)) + 1
	strict := func(i, j int) int64 {
		if i == bye || j == bye {
			e := i
			if i == bye {
				e = j
			}
			return strictK - int64(n-1-e)*uC
		}
		return strictK - (gd(i, j)*uD + dev(i, j))
	}
	// relaxed weights (rematches and second byes allowed at a penalty)
	rTot := half * 256
	rC := rTot + 1
	rV := int64(n)*rC + rTot + 1
	relaxedK := rV + int64(n)*rC + 257
	relaxed := func(i, j int) int64 {
		pen := int64(0)
		if !legal(i, j) {
			pen += rV
		}
		if i == bye || j == bye {
			e := i
			if i == bye {
				e = j
			}
			return relaxedK - pen - int64(n-1-e)*rC
		}
		return relaxedK - pen - gd(i, j)
	}

	build := func(cands [][2]int, weight func(i, j int) int64, onlyLegal bool) []wedge {
		slices.SortFunc(cands, func(a, b [2]int) int {
			if a[0] != b[0] {
				return a[0] - b[0]
			}
			return a[1] - b[1]
		})
		cands = slices.Compact(cands)
		edges := make([]wedge, 0, len(cands))
		for _, c := range cands {
			if onlyLegal && !legal(c[0], c[1]) {
				continue
			}
			edges = append(edges, wedge{c[0], c[1], weight(c[0], c[1])})
		}
		return edges
	}
	perfect := func(mate []int) bool { return !slices.Contains(mate, -1) }

	var mate []int
	var cands [][2]int
	if n <= swissFullGraph {
		cands = allPairs(nv)
		mate = maxWeightMatching(nv, build(cands, strict, true), true)
	} else {
		for _, w := range []int{12, 48} {
			cands = f.windowCandidates(ideal, bye, w)
			mate = maxWeightMatching(nv, build(cands, strict, true), true)
			if perfect(mate) {
				break
			}
		}
		if !perfect(mate) {
			adj := make([][]int32, nv)
			for i := range nv {
				for j := i + 1; j < nv; j++ {
					if legal(i, j) {
						adj[i] = append(adj[i], int32(j))
						adj[j] = append(adj[j], int32(i))
					}
				}
			}
			full := slices.Clone(mate)
			maxCardinalityMatching(adj, full)
			for i, j := range full {
				if j > i {
					cands = append(cands, [2]int{i, j})
				}
			}
			if perfect(full) {
				mate = maxWeightMatching(nv, build(cands, strict, true), true)
			} else {
				var free []int
				for i, j := range full {
					if j == -1 {
						free = append(free, i)
					}
				}
				for a, i := range free {
					for _, j := range free[a+1:] {
						cands = append(cands, [2]int{i, j})
					}
				}
				mate = maxWeightMatching(nv, build(cands, relaxed, false), true)
			}
		}
	}
	if !perfect(mate) { // only possible with the exact full graph: relax
		mate = maxWeightMatching(nv, build(allPairs(nv), relaxed, false), true)
	}
	for i, j := range mate {
		switch {
		case j == bye:
			byes = append(byes, i)
		case i < j && i != bye:
			pairs = append(pairs, []int{i, j})
		}
	}
	return pairs, byes
}

func allPairs(n int) [][2]int {
	out := make([][2]int, 0, n*(n-1)/2)
	for i := range n {
		for j := i + 1; j < n; j++ {
			out = append(out, [2]int{i, j})
		}
	}
	return out
}

// windowCandidates: each entry with its w nearest ranks below and the
// ranks within w of its Dutch partner; the bye vertex with the 4w
// lowest-ranked entries still eligible for it.
func (f *swissField) windowCandidates(ideal []int, bye, w int) [][2]int {
	n := len(f.entries)
	var out [][2]int
	add := func(i, j int) {
		if i != j && i >= 0 && j >= 0 && i < n && j < n {
			out = append(out, [2]int{min(i, j), max(i, j)})
		}
	}
	for i := range n {
		for d := 1; d <= w; d++ {
			add(i, i+d)
		}
		if ideal[i] != i {
			for d := -w; d <= w; d++ {
				add(i, ideal[i]+d)
			}
		}
	}
	if bye >= 0 {
		taken := 0
		for i := n - 1; i >= 0 && taken < 4*w; i-- {
			if f.entries[i].byes == 0 {
				out = append(out, [2]int{i, bye})
				taken++
			}
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// pairMany groups a round of matches of three or more: n mod size byes to
// the lowest-ranked entries with the fewest byes, then two starting
// groupings (slideGroups and greedyGroups) each improved by a local search
// (improveGroups) that minimises, in order, the number of repeated pairs
// and Σ d² over pairs (d the score-group distance); the better of the two
// wins. Grouping three or more without repeats is NP-hard, so the rematch
// count is a heuristic minimum.
func (f *swissField) pairMany() (matches [][]int, byes []int) {
	n := len(f.entries)
	for want := 0; len(byes) < n%f.size; want++ {
		for i := n - 1; i >= 0 && len(byes) < n%f.size; i-- {
			if f.entries[i].byes == want {
				byes = append(byes, i)
				f.entries[i].placed = true
			}
		}
	}
	slide, rs, cs := f.improveGroups(f.slideGroups())
	greedy, rg, cg := f.improveGroups(f.greedyGroups())
	if rg < rs || rg == rs && cg < cs {
		return greedy, byes
	}
	return slide, byes
}

// slideGroups is the Dutch-style grouping of the entries not sitting out:
// score groups top-down, the remainder of a group floating down, match i of
// a group taking its i-th, (i+k)-th, (i+2k)-th … entries.
func (f *swissField) slideGroups() [][]int {
	n, size := len(f.entries), f.size
	var matches [][]int
	var carry []int
	for start, end := range f.scoreGroups() {
		list := carry
		carry = nil
		for i := start; i < end; i++ {
			if !f.entries[i].placed {
				list = append(list, i)
			}
		}
		if r := len(list) % size; r != 0 && end < n {
			carry = slices.Clone(list[len(list)-r:])
			list = list[:len(list)-r]
		}
		k := len(list) / size
		for i := range k {
			m := make([]int, 0, size)
			for s := range size {
				m = append(m, list[i+s*k])
			}
			matches = append(matches, m)
		}
	}
	return matches
}

// greedyGroups builds matches top-down: the best-ranked entry left, then
// the next best-ranked entries it and the others chosen have not met,
// filling up with the nearest when none is left.
func (f *swissField) greedyGroups() [][]int {
	var free []int
	for i := range f.entries {
		if !f.entries[i].placed {
			free = append(free, i)
		}
	}
	var matches [][]int
	for len(free) > 0 {
		m := []int{free[0]}
		free = free[1:]
		for pass := 0; pass < 2 && len(m) < f.size; pass++ {
			for i := 0; i < len(free) && len(m) < f.size; i++ {
				fresh := true
				for _, x := range m {
					if f.met(x, free[i]) > 0 {
						fresh = false
						break
					}
				}
				if fresh || pass == 1 {
					m = append(m, free[i])
					free = slices.Delete(free, i, i+1)
					i--
				}
			}
		}
		matches = append(matches, m)
	}
	return matches
}

// improveGroups swaps entries between matches while that lowers, in order,
// the repeated pairs and Σ d² over pairs (d the score-group distance): swaps
// between nearby matches first, then between any two matches for those
// with a rematch left. It returns the matches, their repeated pairs and
// their cost.
func (f *swissField) improveGroups(matches [][]int) ([][]int, int, int64) {
	size := f.size
	matches = slices.Clone(matches)
	for i := range matches {
		matches[i] = slices.Clone(matches[i])
	}
	const rematch = 1 << 40
	cost := func(m []int) int64 {
		var c int64
		for i, a := range m {
			for _, x := range m[i+1:] {
				c += int64(f.met(a, x)) * rematch
				d := int64(abs(f.entries[a].group - f.entries[x].group))
				c += d * d
			}
		}
		return c
	}
	costs := make([]int64, len(matches))
	for i, m := range matches {
		costs[i] = cost(m)
	}
	trySwaps := func(a, b int) bool {
		improved := false
		for xi := range size {
			for yi := range size {
				A, B := matches[a], matches[b]
				A[xi], B[yi] = B[yi], A[xi]
				ca, cb := cost(A), cost(B)
				if ca+cb < costs[a]+costs[b] {
					costs[a], costs[b] = ca, cb
					improved = true
				} else {
					A[xi], B[yi] = B[yi], A[xi]
				}
			}
		}
		return improved
	}
	const window = 8
	for pass := 0; pass < 20; pass++ {
		improved := false
		for a := range matches {
			if costs[a] < rematch {
				continue
			}
			for b := max(0, a-window); b < min(len(matches), a+window+1); b++ {
				if b != a && trySwaps(a, b) {
					improved = true
				}
			}
		}
		if !improved {
			break
		}
	}
	for pass := 0; pass < 5; pass++ {
		improved := false
		for a := range matches {
			if costs[a] < rematch {
				continue
			}
			for b := range matches {
				if b != a && trySwaps(a, b) {
					improved = true
				}
			}
		}
		if !improved {
			break
		}
	}
	// Rematches left: a random walk over swaps involving a match with a
	// rematch, accepting every swap that does not add repeated pairs (so it
	// can cross plateaus), from a seed fixed by the field.
	var bad []int
	findBad := func() {
		bad = bad[:0]
		for i, c := range costs {
			if c >= rematch {
				bad = append(bad, i)
			}
		}
	}
	findBad()
	if len(bad) > 0 && len(matches) > 1 {
		r := rng.NewUint64(uint64(len(f.entries))<<8 | uint64(size))
		for it := 0; it < 200*len(matches)*size && len(bad) > 0; it++ {
			a := bad[r.IntN(len(bad))]
			b := r.IntN(len(matches) - 1)
			if b >= a {
				b++
			}
			xi, yi := r.IntN(size), r.IntN(size)
			A, B := matches[a], matches[b]
			A[xi], B[yi] = B[yi], A[xi]
			ca, cb := cost(A), cost(B)
			if ca/rematch+cb/rematch <= costs[a]/rematch+costs[b]/rematch {
				costs[a], costs[b] = ca, cb
				if it%16 == 0 || ca < rematch {
					findBad()
				}
			} else {
				A[xi], B[yi] = B[yi], A[xi]
			}
		}
	}
	var total int64
	rematches := 0
	for _, c := range costs {
		total += c
		rematches += int(c / rematch)
	}
	return matches, rematches, total
}
