package competition

import (
	"math"
	"slices"
	"sync"

	"github.com/seqleague/seqleague/engine/rng"
)

// MaxRoundRobinEntries bounds a round robin (and a group): beyond it the
// schedule has more rounds than any event plays, and the search for
// matches of three or more would take seconds.
const MaxRoundRobinEntries = 128

// RoundRobin schedules a round robin of entries in matches of size:
// every entry meets every other as equally often as the numbers allow
// (once, or twice when double). The schedule depends only on the entries
// and their seeds. See the package documentation for the constructions.
func RoundRobin(entries []Entry, size int, double bool) ([]Round, error) {
	if err := checkMatchSize(size); err != nil {
		return nil, err
	}
	ordered, err := checkEntries(entries, size)
	if err != nil {
		return nil, err
	}
	if len(ordered) > MaxRoundRobinEntries {
		return nil, invalidf("%d entries, want at most %d for a round robin", len(ordered), MaxRoundRobinEntries)
	}
	sched := roundRobinIndices(len(ordered), size, double)
	return sched.rounds(ordered, ""), nil
}

// schedule is a round-robin schedule over entry indices 0…n−1 (seed
// order): per round, the matches (in seat order) and the byes.
type schedule struct {
	matches [][][]int
	byes    [][]int
}

func (s schedule) rounds(ordered []Entry, group string) []Round {
	out := make([]Round, len(s.matches))
	for r, ms := range s.matches {
		round := Round{Number: r + 1}
		for i, m := range ms {
			p := Pairing{ID: pairingID(group, r+1, i+1), Group: group}
			for _, e := range m {
				p.Entries = append(p.Entries, ordered[e].ID)
			}
			round.Matches = append(round.Matches, p)
		}
		for _, e := range s.byes[r] {
			round.Byes = append(round.Byes, ordered[e].ID)
		}
		out[r] = round
	}
	return out
}

// scheduleCache memoises roundRobinIndices, a pure function of its
// arguments that can take a good part of a second to search; cached
// schedules are never modified.
var scheduleCache sync.Map // [3]int{n, size, double} → schedule

func roundRobinIndices(n, size int, double bool) schedule {
	key := [3]int{n, size, 0}
	if double {
		key[2] = 1
	}
	if s, ok := scheduleCache.Load(key); ok {
		return s.(schedule)
	}
	s := buildSchedule(n, size, double)
	scheduleCache.Store(key, s)
	return s
}

func buildSchedule(n, size int, double bool) schedule {
	var s schedule
	switch {
	case size == 2:
		s = circle(n)
		balanceSeats(&s, n, size)
		if double {
			s = mirrored(s)
		}
		return s
	case design(n, size) != nil:
		s = *design(n, size)
		if double {
			s = repeated(s)
		}
	default:
		s = balancedSchedule(n, size, double)
	}
	sortMatches(&s)
	balanceSeats(&s, n, size)
	return s
}

// design is a resolvable design in which every pair meets exactly once in
// (n−1)/(size−1) rounds, when the package can build one: a Kirkman triple
// system for matches of three, the lines of the affine space AG(k, size)
// for n = size^k and size a prime power.
func design(n, size int) *schedule {
	var classes [][][]int
	switch {
	case size == 3 && kirkman(n) != nil:
		for _, class := range kirkman(n) {
			var ms [][]int
			for _, b := range class {
				ms = append(ms, []int{b[0], b[1], b[2]})
			}
			classes = append(classes, ms)
		}
	case isPrimePower(size) && n > size && isPowerOf(n, size):
		k := 0
		for p := 1; p < n; p *= size {
			k++
		}
		classes = affineClasses(k, size)
	default:
		return nil
	}
	s := schedule{matches: classes, byes: make([][]int, len(classes))}
	return &s
}

// circle is the circle method: entry 0 stays, the others rotate one place
// a round; with an odd number of entries a phantom n gives byes.
func circle(n int) schedule {
	np := n + n%2
	arr := make([]int, np)
	for i := range arr {
		arr[i] = i
	}
	var s schedule
	for r := 0; r < np-1; r++ {
		var ms [][]int
		var byes []int
		for i := 0; i < np/2; i++ {
			a, b := arr[i], arr[np-1-i]
			switch {
			case a == n:
				byes = append(byes, b)
			case b == n:
				byes = append(byes, a)
			default:
				ms = append(ms, []int{a, b})
			}
		}
		s.matches = append(s.matches, ms)
		s.byes = append(s.byes, byes)
		last := arr[np-1]
		copy(arr[2:], arr[1:np-1])
		arr[1] = last
	}
	sortMatches(&s)
	return s
}

// mirrored appends the schedule again with every match's seats reversed,
// so each pair meets once in each order.
func mirrored(s schedule) schedule {
	out := schedule{matches: slices.Clone(s.matches), byes: slices.Clone(s.byes)}
	for r := range s.matches {
		var ms [][]int
		for _, m := range s.matches[r] {
			rev := slices.Clone(m)
			slices.Reverse(rev)
			ms = append(ms, rev)
		}
		out.matches = append(out.matches, ms)
		out.byes = append(out.byes, slices.Clone(s.byes[r]))
	}
	return out
}

func repeated(s schedule) schedule {
	out := schedule{}
	for range 2 {
		for r := range s.matches {
			var ms [][]int
			for _, m := range s.matches[r] {
				ms = append(ms, slices.Clone(m))
			}
			out.matches = append(out.matches, ms)
			out.byes = append(out.byes, slices.Clone(s.byes[r]))
		}
	}
	return out
}

// sortMatches lists each round's matches by their best seed, and each
// match's entries by seed before seats are balanced.
func sortMatches(s *schedule) {
	for r := range s.matches {
		for _, m := range s.matches[r] {
			slices.Sort(m)
		}
		slices.SortFunc(s.matches[r], func(a, b []int) int { return slices.Min(a) - slices.Min(b) })
		slices.Sort(s.byes[r])
	}
}

// balanceSeats orders every match's entries so that each entry sits in each
// seat as evenly as it can: round by round, seat by seat, the entry that has
// sat there least takes it (ties: the better seed in odd rounds, the worse
// in even ones).
func balanceSeats(s *schedule, n, size int) {
	counts := make([][]int, n)
	for i := range counts {
		counts[i] = make([]int, size)
	}
	for r := range s.matches {
		for mi, m := range s.matches[r] {
			rest := slices.Clone(m)
			order := make([]int, 0, len(m))
			for seat := range len(m) {
				best := 0
				for i := 1; i < len(rest); i++ {
					a, b := rest[i], rest[best]
					if counts[a][seat] < counts[b][seat] ||
						counts[a][seat] == counts[b][seat] && (r%2 == 0) == (a < b) {
						best = i
					}
				}
				e := rest[best]
				rest = slices.Delete(rest, best, best+1)
				counts[e][seat]++
				order = append(order, e)
			}
			s.matches[r][mi] = order
		}
	}
}

// roundsNeeded is the fewest rounds in which every entry plays enough
// matches to meet each other entry (twice when double), when n mod size
// entries sit out each round and the byes rotate evenly.
func roundsNeeded(n, size int, double bool) int {
	opponents := n - 1
	if double {
		opponents *= 2
	}
	games := (opponents + size - 2) / (size - 1)
	byes := n % size
	for r := games; ; r++ {
		if r-(r*byes+n-1)/n >= games {
			return r
		}
	}
}

// rotatingByes gives round r's byes: the next n mod size entries of the
// seed order, cyclically, so bye counts differ by at most one.
func rotatingByes(n, size, rounds int) [][]int {
	b := n % size
	out := make([][]int, rounds)
	for r := range rounds {
		for t := range b {
			out[r] = append(out[r], (r*b+t)%n)
		}
	}
	return out
}

// balancedSchedule is the schedule for sizes without a design; see
// singleBalanced and doubled.
func balancedSchedule(n, size int, double bool) schedule {
	s := singleBalanced(n, size)
	if !double {
		return s
	}
	two := annealResult{s: doubled(s, n, size)}
	two.uncovered = two.missing(2)
	if n <= 24 && (two.uncovered > 0 || two.spread() > 1) {
		// small fields: a direct search often beats two relabelled halves
		r0 := roundsNeeded(n, size, true)
		for rounds := r0; rounds <= r0+2; rounds++ {
			seed := uint64(n)<<20 | uint64(size)<<12 | uint64(rounds)<<1 | 1
			res := anneal(n, size, rounds, rotatingByes(n, size, rounds), 2, seed, 200_000)
			if res.uncovered < two.uncovered || res.uncovered == two.uncovered && res.spread() < two.spread() {
				two = res
			}
		}
	}
	return two.s
}

// singleBalanced searches a single round robin. Byes rotate through the
// seed order to start with. With R rounds, T pair meetings fall on the
// P = n(n−1)/2 pairs, and Σ c² over pairs (c the meetings of a pair) is
// least exactly when every count is ⌊T/P⌋ or ⌈T/P⌉. A simulated annealing
// search (see anneal) minimises first the pairs that never meet, then Σ c².
// It starts at roundsNeeded rounds and adds rounds while that does not give
// every pair a meeting with counts within one of each other: for matches of
// three up to three more rounds, taking the first that is balanced (6
// entries need 4 rounds to meet at all; the fewest rounds are often a
// design too tight to find), for larger matches until every pair meets,
// at most size more rounds (covering every pair with tables of four to six
// is a covering-design problem). Failing that it keeps the best schedule
// seen: fewest pairs that never meet, then the smallest spread. A small
// field (up to smallField entries) whose search ends unbalanced searches
// again from other seeds: with few matches a round, one search is easily
// trapped, and another costs little (6 entries in triples: one search of 5
// rounds ended at 1 to 4 meetings, and the schedule took 6 rounds with
// three pairs meeting 4 times, where 1 to 3 in 5 rounds is the best).
func singleBalanced(n, size int) schedule {
	r0 := roundsNeeded(n, size, false)
	var best annealResult
	for rounds := r0; ; rounds++ {
		budget := 300_000 * max(1, n/16)
		if size == 3 && rounds-r0 < 2 {
			budget /= 4 // the tightest round counts rarely pay off
		} else if size > 3 {
			budget = 40_000 * max(1, n/16)
		}
		var res annealResult
		for try := range uint64(searchesFor(n)) {
			seed := try<<32 | uint64(n)<<20 | uint64(size)<<12 | uint64(rounds)
			r := anneal(n, size, rounds, rotatingByes(n, size, rounds), 1, seed, budget)
			if try == 0 || r.uncovered < res.uncovered || r.uncovered == res.uncovered && r.spread() < res.spread() {
				res = r
			}
			if res.uncovered == 0 && res.spread() <= 1 {
				break
			}
		}
		if rounds == r0 || res.uncovered < best.uncovered ||
			res.uncovered == best.uncovered && res.spread() < best.spread() {
			best = res
		}
		switch {
		case res.uncovered == 0 && res.spread() <= 1,
			size == 3 && rounds >= r0+3,
			size > 3 && (res.uncovered == 0 || rounds >= r0+size):
			return best.s
		}
	}
}

// smallField is the largest field searched from several seeds (searchesFor).
const smallField = 12

// searchesFor is how many searches singleBalanced may run for a round
// count on n entries: the first, and for a small field three more.
func searchesFor(n int) int {
	if n <= smallField {
		return 4
	}
	return 1
}

// doubled is a double round robin from a single one: the single schedule,
// then the same rounds again with the entries relabelled by a permutation
// chosen so that entries with an extra bye in the first half get none in
// the second, and so that pairs that met more often in the first half meet
// less often in the second (hill-climbing Σ c² over pairs from a fixed
// start).
func doubled(s schedule, n, size int) schedule {
	cnt := make([]int, n*n)
	byes := make([]int, n)
	for r := range s.matches {
		for _, m := range s.matches[r] {
			for i, a := range m {
				for _, b := range m[i+1:] {
					cnt[a*n+b]++
					cnt[b*n+a]++
				}
			}
		}
		for _, e := range s.byes[r] {
			byes[e]++
		}
	}
	// sigma[e] is the first-half entry whose place e takes in the second
	// half: start by pairing the most byes with the fewest.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return byes[b] - byes[a] })
	sigma := make([]int, n)
	for i, e := range order {
		sigma[e] = order[n-1-i]
	}
	total := func(a, b int) int { return cnt[a*n+b] + cnt[sigma[a]*n+sigma[b]] }
	for pass := 0; pass < 50; pass++ {
		improved := false
		for e := range n {
			for f := e + 1; f < n; f++ {
				if byes[sigma[e]] != byes[sigma[f]] {
					continue
				}
				d := 0
				for x := range n {
					if x == e || x == f {
						continue
					}
					te, tf := total(e, x), total(f, x)
					ne := cnt[e*n+x] + cnt[sigma[f]*n+sigma[x]]
					nf := cnt[f*n+x] + cnt[sigma[e]*n+sigma[x]]
					d += ne*ne + nf*nf - te*te - tf*tf
				}
				if d < 0 {
					sigma[e], sigma[f] = sigma[f], sigma[e]
					improved = true
				}
			}
		}
		if !improved {
			break
		}
	}
	inv := make([]int, n)
	for e, x := range sigma {
		inv[x] = e
	}
	out := schedule{matches: slices.Clone(s.matches), byes: slices.Clone(s.byes)}
	for r := range s.matches {
		var ms [][]int
		for _, m := range s.matches[r] {
			nm := make([]int, len(m))
			for i, x := range m {
				nm[i] = inv[x]
			}
			ms = append(ms, nm)
		}
		var bs []int
		for _, x := range s.byes[r] {
			bs = append(bs, inv[x])
		}
		out.matches = append(out.matches, ms)
		out.byes = append(out.byes, bs)
	}
	return out
}

type annealResult struct {
	s         schedule
	uncovered int // pairs meeting fewer times than wanted
	squares   int // Σ c²
}

// missing counts the pairs that meet fewer than want times.
func (a annealResult) missing(want int) int {
	n, cnt := a.counts()
	m := 0
	for x := range n {
		for y := x + 1; y < n; y++ {
			if cnt[x*n+y] < want {
				m++
			}
		}
	}
	return m
}

// spread is the difference between the most and the fewest meetings of
// any pair.
func (a annealResult) spread() int {
	n, cnt := a.counts()
	lo, hi := math.MaxInt, 0
	for x := range n {
		for y := x + 1; y < n; y++ {
			lo, hi = min(lo, cnt[x*n+y]), max(hi, cnt[x*n+y])
		}
	}
	return hi - lo
}

// counts returns the number of entries and the meetings of every pair
// (x < y at x*n+y).
func (a annealResult) counts() (int, []int) {
	n := 0
	for r, ms := range a.s.matches {
		for _, m := range ms {
			for _, e := range m {
				n = max(n, e+1)
			}
		}
		for _, e := range a.s.byes[r] {
			n = max(n, e+1)
		}
	}
	cnt := make([]int, n*n)
	for _, ms := range a.s.matches {
		for _, m := range ms {
			for i, x := range m {
				for _, y := range m[i+1:] {
					cnt[min(x, y)*n+max(x, y)]++
				}
			}
		}
	}
	return n, cnt
}

// anneal searches a schedule of the given rounds, starting from the given
// byes, minimising in order the pairs that meet fewer than want times and
// Σ c². Moves swap two entries of different matches of a round, or a
// player with an entry sitting out (when both keep a bye count within one of
// the even share).
func anneal(n, size, rounds int, byes [][]int, want int, seed uint64, budget int) annealResult {
	r := rng.NewUint64(seed)
	total := 0
	byeCount := make([]int, n)
	allByes := 0
	for round := range rounds {
		total += (n - len(byes[round])) / size * size * (size - 1) / 2
		for _, e := range byes[round] {
			byeCount[e]++
			allByes++
		}
	}
	byeLo, byeHi := allByes/n, (allByes+n-1)/n
	pairs := n * (n - 1) / 2
	q, rem := total/pairs, total%pairs
	floor := max(want, q) // counts below are bad
	ceil := floor         // counts above are bad
	if rem > 0 || q < want {
		ceil = floor + 1
	}
	bound := (pairs-rem)*q*q + rem*(q+1)*(q+1)
	// cost f(c) = c² + miss·max(0, want − c): missing a meeting costs more
	// than any imbalance it could save.
	miss := 4 * (q + 2)
	f := func(c int) int { return c*c + miss*max(0, want-c) }

	cnt := make([]int, n*n)
	var bad []int // pairs a*n+b, a < b, with a count outside [floor, ceil]
	badAt := make([]int, n*n)
	for i := range badAt {
		badAt[i] = -1
	}
	setBad := func(k int, isBad bool) {
		switch {
		case isBad && badAt[k] < 0:
			badAt[k] = len(bad)
			bad = append(bad, k)
		case !isBad && badAt[k] >= 0:
			last := bad[len(bad)-1]
			bad[badAt[k]] = last
			badAt[last] = badAt[k]
			bad = bad[:len(bad)-1]
			badAt[k] = -1
		}
	}
	key := func(a, b int) int {
		if a > b {
			a, b = b, a
		}
		return a*n + b
	}
	uncovered, squares := pairs, 0
	bump := func(a, b, d int) {
		k := key(a, b)
		c := cnt[k]
		squares += (c+d)*(c+d) - c*c
		if c < want {
			uncovered--
		}
		cnt[k] = c + d
		if c+d < want {
			uncovered++
		}
		setBad(k, c+d < floor || c+d > ceil)
	}
	// groups[round][g] are a match's entries; the last group of a round,
	// index len-1, holds the round's byes. where[round][e] is e's group.
	groups := make([][][]int, rounds)
	where := make([][]int, rounds)
	for round := range rounds {
		where[round] = make([]int, n)
		isBye := make([]bool, n)
		for _, e := range byes[round] {
			isBye[e] = true
		}
		var playing []int
		for e := range n {
			if !isBye[e] {
				playing = append(playing, e)
			}
		}
		rng.Shuffle(&r, playing)
		for i := 0; i+size <= len(playing); i += size {
			groups[round] = append(groups[round], slices.Clone(playing[i:i+size]))
		}
		groups[round] = append(groups[round], slices.Clone(byes[round]))
		for g, members := range groups[round] {
			for _, e := range members {
				where[round][e] = g
			}
		}
	}
	isByeGroup := func(round, g int) bool { return g == len(groups[round])-1 }
	for a := range n {
		for b := a + 1; b < n; b++ {
			setBad(a*n+b, 0 < floor)
		}
	}
	for round := range rounds {
		for g, members := range groups[round] {
			if isByeGroup(round, g) {
				continue
			}
			for i, a := range members {
				for _, b := range members[i+1:] {
					bump(a, b, 1)
				}
			}
		}
	}
	snapshot := func() annealResult {
		var s schedule
		for round := range rounds {
			var ms [][]int
			gs := groups[round]
			for _, g := range gs[:len(gs)-1] {
				ms = append(ms, slices.Clone(g))
			}
			s.matches = append(s.matches, ms)
			s.byes = append(s.byes, slices.Clone(gs[len(gs)-1]))
		}
		return annealResult{s: s, uncovered: uncovered, squares: squares}
	}
	best := snapshot()
	// allowed: swapping x and y keeps the bye counts even.
	allowed := func(round, x, y int) bool {
		gx, gy := where[round][x], where[round][y]
		if gx == gy {
			return false
		}
		switch {
		case isByeGroup(round, gx):
			return byeCount[x]-1 >= byeLo && byeCount[y]+1 <= byeHi
		case isByeGroup(round, gy):
			return byeCount[y]-1 >= byeLo && byeCount[x]+1 <= byeHi
		}
		return true
	}
	// delta of swapping x and y of different groups of a round
	delta := func(round, x, y int) int {
		gx, gy := where[round][x], where[round][y]
		d := 0
		if !isByeGroup(round, gx) {
			for _, a := range groups[round][gx] {
				if a != x {
					d += f(cnt[key(y, a)]+1) - f(cnt[key(y, a)]) + f(cnt[key(x, a)]-1) - f(cnt[key(x, a)])
				}
			}
		}
		if !isByeGroup(round, gy) {
			for _, b := range groups[round][gy] {
				if b != y {
					d += f(cnt[key(x, b)]+1) - f(cnt[key(x, b)]) + f(cnt[key(y, b)]-1) - f(cnt[key(y, b)])
				}
			}
		}
		return d
	}
	swap := func(round, x, y int) {
		gx, gy := where[round][x], where[round][y]
		A, B := groups[round][gx], groups[round][gy]
		if !isByeGroup(round, gx) {
			for _, a := range A {
				if a != x {
					bump(x, a, -1)
					bump(y, a, 1)
				}
			}
		} else {
			byeCount[x]--
			byeCount[y]++
		}
		if !isByeGroup(round, gy) {
			for _, b := range B {
				if b != y {
					bump(y, b, -1)
					bump(x, b, 1)
				}
			}
		} else {
			byeCount[y]--
			byeCount[x]++
		}
		A[slices.Index(A, x)] = y
		B[slices.Index(B, y)] = x
		where[round][x], where[round][y] = gy, gx
	}
	type move struct{ round, x, y, d int }
	var options []move
	consider := func(round, x, y int) {
		if allowed(round, x, y) {
			options = append(options, move{round, x, y, delta(round, x, y)})
		}
	}
	temp := 1.0
	for it := 0; it < budget && (uncovered > 0 || squares > bound); it++ {
		if it%1024 == 0 {
			temp = max(0.2, temp*0.99)
		}
		options = options[:0]
		round := r.IntN(rounds)
		gs := groups[round]
		if len(bad) > 0 && r.IntN(4) != 0 {
			k := bad[r.IntN(len(bad))]
			a, b := k/n, k%n
			ga, gb := where[round][a], where[round][b]
			switch {
			case cnt[k] < floor && ga != gb:
				// bring b into a's match, or a into b's
				if !isByeGroup(round, ga) {
					for _, x := range gs[ga] {
						if x != a {
							consider(round, b, x)
						}
					}
				}
				if !isByeGroup(round, gb) {
					for _, y := range gs[gb] {
						if y != b {
							consider(round, a, y)
						}
					}
				}
			case cnt[k] > ceil && ga == gb && !isByeGroup(round, ga):
				for range 6 {
					g := r.IntN(len(gs) - 1)
					if g >= ga {
						g++
					}
					if len(gs[g]) == 0 {
						continue
					}
					y := gs[g][r.IntN(len(gs[g]))]
					consider(round, a, y)
					consider(round, b, y)
				}
			}
		} else {
			ga := r.IntN(len(gs))
			gb := r.IntN(len(gs) - 1)
			if gb >= ga {
				gb++
			}
			if len(gs[ga]) > 0 && len(gs[gb]) > 0 {
				consider(round, gs[ga][r.IntN(len(gs[ga]))], gs[gb][r.IntN(len(gs[gb]))])
			}
		}
		if len(options) == 0 {
			continue
		}
		var m move
		bestD, ties := math.MaxInt, 0
		for _, o := range options {
			switch {
			case o.d < bestD:
				m, bestD, ties = o, o.d, 1
			case o.d == bestD:
				ties++
				if r.IntN(ties) == 0 {
					m = o
				}
			}
		}
		if m.d > 0 && r.Float64() >= math.Exp(-float64(m.d)/temp) {
			continue
		}
		swap(m.round, m.x, m.y)
		if uncovered < best.uncovered || uncovered == best.uncovered && squares < best.squares {
			best = snapshot()
		}
	}
	return best
}
