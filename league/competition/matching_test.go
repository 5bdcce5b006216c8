package competition

import (
	"math/rand/v2"
	"testing"
)

// bruteMatching is the best (weight, or cardinality then weight) matching
// by exhaustive search, for checking the blossom implementations.
func bruteMatching(n int, edges []wedge, maxCard bool) (card int, weight int64) {
	adj := make([][]int64, n)
	has := make([][]bool, n)
	for i := range adj {
		adj[i] = make([]int64, n)
		has[i] = make([]bool, n)
	}
	for _, e := range edges {
		if !has[e.i][e.j] || adj[e.i][e.j] < e.w {
			adj[e.i][e.j], adj[e.j][e.i] = e.w, e.w
			has[e.i][e.j], has[e.j][e.i] = true, true
		}
	}
	used := make([]bool, n)
	bestC, bestW := 0, int64(0)
	var rec func(v, c int, w int64)
	rec = func(v, c int, w int64) {
		for v < n && used[v] {
			v++
		}
		if v == n {
			if maxCard {
				if c > bestC || (c == bestC && w > bestW) {
					bestC, bestW = c, w
				}
			} else if w > bestW || (w == bestW && c > bestC) {
				bestC, bestW = c, w
			}
			return
		}
		used[v] = true
		rec(v+1, c, w)
		for u := v + 1; u < n; u++ {
			if !used[u] && has[v][u] {
				used[u] = true
				rec(v+1, c+1, w+adj[v][u])
				used[u] = false
			}
		}
		used[v] = false
	}
	rec(0, 0, 0)
	return bestC, bestW
}

func checkMate(t *testing.T, n int, edges []wedge, mate []int) (int, int64) {
	t.Helper()
	best := map[[2]int]int64{}
	for _, e := range edges {
		k := [2]int{min(e.i, e.j), max(e.i, e.j)}
		if w, ok := best[k]; !ok || e.w > w {
			best[k] = e.w
		}
	}
	c, w := 0, int64(0)
	for v, u := range mate {
		if u == -1 {
			continue
		}
		if mate[u] != v {
			t.Fatalf("mate not symmetric: mate[%d]=%d, mate[%d]=%d", v, u, u, mate[u])
		}
		ew, ok := best[[2]int{min(u, v), max(u, v)}]
		if !ok {
			t.Fatalf("matched %d-%d is not an edge", v, u)
		}
		if v < u {
			c++
			w += ew
		}
	}
	return c, w
}

func TestMaxWeightMatchingMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 3000; iter++ {
		n := 1 + r.IntN(11)
		var edges []wedge
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if r.IntN(100) < 20+r.IntN(70) {
					edges = append(edges, wedge{i, j, int64(r.IntN(30)) - int64(iter%3)*5})
				}
			}
		}
		for _, maxCard := range []bool{false, true} {
			mate := maxWeightMatching(n, edges, maxCard)
			c, w := checkMate(t, n, edges, mate)
			bc, bw := bruteMatching(n, edges, maxCard)
			if maxCard && (c != bc || w != bw) || !maxCard && w != bw {
				t.Fatalf("iter %d n %d maxCard %v: got card %d weight %d, want card %d weight %d; edges %v", iter, n, maxCard, c, w, bc, bw, edges)
			}
		}
	}
}

func TestMaxCardinalityMatchingMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 3000; iter++ {
		n := 1 + r.IntN(12)
		adj := make([][]int32, n)
		var edges []wedge
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if r.IntN(100) < 10+r.IntN(60) {
					adj[i] = append(adj[i], int32(j))
					adj[j] = append(adj[j], int32(i))
					edges = append(edges, wedge{i, j, 0})
				}
			}
		}
		mate := filled(n, -1)
		// start from a greedy matching, as the Swiss pairing does
		for _, e := range edges {
			if r.IntN(2) == 0 && mate[e.i] == -1 && mate[e.j] == -1 {
				mate[e.i], mate[e.j] = e.j, e.i
			}
		}
		maxCardinalityMatching(adj, mate)
		c, _ := checkMate(t, n, edges, mate)
		bc, _ := bruteMatching(n, edges, true)
		if c != bc {
			t.Fatalf("iter %d: got cardinality %d, want %d", iter, c, bc)
		}
	}
}
