package competition

import "slices"

// Maximum-weight matching on general graphs: Edmonds' blossom algorithm
// with the primal-dual method of Galil ("Efficient algorithms for finding
// maximum matching in graphs", 1986), O(n³). The structure follows the
// well-known formulation with edge endpoints numbered 2k and 2k+1 and
// doubled edge weights, so that with integer weights every dual variable
// stays an integer and the result is exact.

type wedge struct {
	i, j int
	w    int64
}

// maxWeightMatching returns mate[v] (the vertex matched to v, or -1) for a
// matching of maximum total weight; with maxCardinality, of maximum weight
// among the matchings of maximum cardinality.
func maxWeightMatching(n int, edges []wedge, maxCardinality bool) []int {
	m := &matcher{}
	return m.run(n, edges, maxCardinality)
}

type matcher struct {
	nv, ne           int
	edges            []wedge
	endpoint         []int
	neighbend        [][]int
	mate             []int
	label            []int
	labelend         []int
	inblossom        []int
	blossomparent    []int
	blossomchilds    [][]int
	blossombase      []int
	blossomendps     [][]int
	bestedge         []int
	blossombestedges [][]int
	unusedblossoms   []int
	dualvar          []int64
	allowedge        []bool
	queue            []int
	bestedgeto       []int
}

func (m *matcher) slack(k int) int64 {
	e := m.edges[k]
	return m.dualvar[e.i] + m.dualvar[e.j] - 2*e.w
}

func (m *matcher) leaves(b int, out []int) []int {
	if b < m.nv {
		return append(out, b)
	}
	for _, t := range m.blossomchilds[b] {
		if t < m.nv {
			out = append(out, t)
		} else {
			out = m.leaves(t, out)
		}
	}
	return out
}

func (m *matcher) assignLabel(w, t, p int) {
	for {
		b := m.inblossom[w]
		m.label[w], m.label[b] = t, t
		m.labelend[w], m.labelend[b] = p, p
		m.bestedge[w], m.bestedge[b] = -1, -1
		if t == 1 {
			m.queue = m.leaves(b, m.queue)
			return
		}
		// t == 2: the base's mate becomes an S-vertex.
		base := m.blossombase[b]
		mb := m.mate[base]
		w, t, p = m.endpoint[mb], 1, mb^1
	}
}

// scanBlossom traces back from v and w to find a new blossom's base, or
// returns -1 when the two paths reach different roots (an augmenting path).
func (m *matcher) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := m.inblossom[v]
		if m.label[b]&4 != 0 {
			base = m.blossombase[b]
			break
		}
		path = append(path, b)
		m.label[b] = 5
		if m.labelend[b] == -1 {
			v = -1
		} else {
			v = m.endpoint[m.labelend[b]]
			b = m.inblossom[v]
			v = m.endpoint[m.labelend[b]]
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = 1
	}
	return base
}

func (m *matcher) addBlossom(base, k int) {
	v, w := m.edges[k].i, m.edges[k].j
	bb := m.inblossom[base]
	bv := m.inblossom[v]
	bw := m.inblossom[w]
	b := m.unusedblossoms[len(m.unusedblossoms)-1]
	m.unusedblossoms = m.unusedblossoms[:len(m.unusedblossoms)-1]
	m.blossombase[b] = base
	m.blossomparent[b] = -1
	m.blossomparent[bb] = b
	var path, endps []int
	for bv != bb {
		m.blossomparent[bv] = b
		path = append(path, bv)
		endps = append(endps, m.labelend[bv])
		v = m.endpoint[m.labelend[bv]]
		bv = m.inblossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		m.blossomparent[bw] = b
		path = append(path, bw)
		endps = append(endps, m.labelend[bw]^1)
		w = m.endpoint[m.labelend[bw]]
		bw = m.inblossom[w]
	}
	m.blossomchilds[b] = path
	m.blossomendps[b] = endps
	m.label[b] = 1
	m.labelend[b] = m.labelend[bb]
	m.dualvar[b] = 0
	for _, lv := range m.leaves(b, nil) {
		if m.label[m.inblossom[lv]] == 2 {
			m.queue = append(m.queue, lv)
		}
		m.inblossom[lv] = b
	}
	bestedgeto := m.bestedgeto
	var touched []int
	consider := func(k int) {
		j := m.edges[k].j // the edge's end outside blossom b
		if m.inblossom[j] == b {
			j = m.edges[k].i
		}
		bj := m.inblossom[j]
		if bj != b && m.label[bj] == 1 && (bestedgeto[bj] == -1 || m.slack(k) < m.slack(bestedgeto[bj])) {
			if bestedgeto[bj] == -1 {
				touched = append(touched, bj)
			}
			bestedgeto[bj] = k
		}
	}
	for _, bv := range path {
		if m.blossombestedges[bv] == nil {
			for _, lv := range m.leaves(bv, nil) {
				for _, p := range m.neighbend[lv] {
					consider(p / 2)
				}
			}
		} else {
			for _, k := range m.blossombestedges[bv] {
				consider(k)
			}
		}
		m.blossombestedges[bv] = nil
		m.bestedge[bv] = -1
	}
	// Keep the list in blossom-index order, as a full scan would.
	slices.Sort(touched)
	best := make([]int, 0, len(touched))
	for _, bj := range touched {
		best = append(best, bestedgeto[bj])
		bestedgeto[bj] = -1
	}
	m.blossombestedges[b] = best
	m.bestedge[b] = -1
	for _, k := range best {
		if m.bestedge[b] == -1 || m.slack(k) < m.slack(m.bestedge[b]) {
			m.bestedge[b] = k
		}
	}
}

func (m *matcher) expandBlossom(b int, endstage bool) {
	for _, s := range m.blossomchilds[b] {
		m.blossomparent[s] = -1
		if s < m.nv {
			m.inblossom[s] = s
		} else if endstage && m.dualvar[s] == 0 {
			m.expandBlossom(s, endstage)
		} else {
			for _, v := range m.leaves(s, nil) {
				m.inblossom[v] = s
			}
		}
	}
	if !endstage && m.label[b] == 2 {
		childs := m.blossomchilds[b]
		endps := m.blossomendps[b]
		at := func(j int) int { // Python-style negative indexing
			if j < 0 {
				j += len(childs)
			}
			return j
		}
		entrychild := m.inblossom[m.endpoint[m.labelend[b]^1]]
		j := indexOf(childs, entrychild)
		var jstep, endptrick int
		if j&1 != 0 {
			j -= len(childs)
			jstep, endptrick = 1, 0
		} else {
			jstep, endptrick = -1, 1
		}
		p := m.labelend[b]
		for j != 0 {
			m.label[m.endpoint[p^1]] = 0
			m.label[m.endpoint[endps[at(j-endptrick)]^endptrick^1]] = 0
			m.assignLabel(m.endpoint[p^1], 2, p)
			m.allowedge[endps[at(j-endptrick)]/2] = true
			j += jstep
			p = endps[at(j-endptrick)] ^ endptrick
			m.allowedge[p/2] = true
			j += jstep
		}
		bv := childs[at(j)]
		m.label[m.endpoint[p^1]], m.label[bv] = 2, 2
		m.labelend[m.endpoint[p^1]], m.labelend[bv] = p, p
		m.bestedge[bv] = -1
		j += jstep
		for childs[at(j)] != entrychild {
			bv = childs[at(j)]
			if m.label[bv] == 1 {
				j += jstep
				continue
			}
			v := -1
			for _, lv := range m.leaves(bv, nil) {
				v = lv
				if m.label[lv] != 0 {
					break
				}
			}
			if m.label[v] != 0 {
				m.label[v] = 0
				m.label[m.endpoint[m.mate[m.blossombase[bv]]]] = 0
				m.assignLabel(v, 2, m.labelend[v])
			}
			j += jstep
		}
	}
	m.label[b], m.labelend[b] = -1, -1
	m.blossomchilds[b], m.blossomendps[b] = nil, nil
	m.blossombase[b] = -1
	m.blossombestedges[b] = nil
	m.bestedge[b] = -1
	m.unusedblossoms = append(m.unusedblossoms, b)
}

func (m *matcher) augmentBlossom(b, v int) {
	t := v
	for m.blossomparent[t] != b {
		t = m.blossomparent[t]
	}
	if t >= m.nv {
		m.augmentBlossom(t, v)
	}
	childs := m.blossomchilds[b]
	endps := m.blossomendps[b]
	at := func(j int) int {
		if j < 0 {
			j += len(childs)
		}
		return j
	}
	i := indexOf(childs, t)
	j := i
	var jstep, endptrick int
	if i&1 != 0 {
		j -= len(childs)
		jstep, endptrick = 1, 0
	} else {
		jstep, endptrick = -1, 1
	}
	for j != 0 {
		j += jstep
		t = childs[at(j)]
		p := endps[at(j-endptrick)] ^ endptrick
		if t >= m.nv {
			m.augmentBlossom(t, m.endpoint[p])
		}
		j += jstep
		t = childs[at(j)]
		if t >= m.nv {
			m.augmentBlossom(t, m.endpoint[p^1])
		}
		m.mate[m.endpoint[p]] = p ^ 1
		m.mate[m.endpoint[p^1]] = p
	}
	m.blossomchilds[b] = append(append([]int(nil), childs[i:]...), childs[:i]...)
	m.blossomendps[b] = append(append([]int(nil), endps[i:]...), endps[:i]...)
	m.blossombase[b] = m.blossombase[m.blossomchilds[b][0]]
}

func (m *matcher) augmentMatching(k int) {
	v, w := m.edges[k].i, m.edges[k].j
	for _, sp := range [2][2]int{{v, 2*k + 1}, {w, 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := m.inblossom[s]
			if bs >= m.nv {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = p
			if m.labelend[bs] == -1 {
				break
			}
			t := m.endpoint[m.labelend[bs]]
			bt := m.inblossom[t]
			s = m.endpoint[m.labelend[bt]]
			j := m.endpoint[m.labelend[bt]^1]
			if bt >= m.nv {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = m.labelend[bt]
			p = m.labelend[bt] ^ 1
		}
	}
}

func (m *matcher) run(n int, edges []wedge, maxCardinality bool) []int {
	mate := make([]int, n)
	for i := range mate {
		mate[i] = -1
	}
	if len(edges) == 0 {
		return mate
	}
	m.nv, m.ne, m.edges = n, len(edges), edges
	var maxweight int64
	for _, e := range edges {
		maxweight = max(maxweight, e.w)
	}
	m.endpoint = make([]int, 2*m.ne)
	deg := make([]int, n)
	for k, e := range edges {
		m.endpoint[2*k], m.endpoint[2*k+1] = e.i, e.j
		deg[e.i]++
		deg[e.j]++
	}
	m.neighbend = make([][]int, n)
	for v := range m.neighbend {
		m.neighbend[v] = make([]int, 0, deg[v])
	}
	for k, e := range edges {
		m.neighbend[e.i] = append(m.neighbend[e.i], 2*k+1)
		m.neighbend[e.j] = append(m.neighbend[e.j], 2*k)
	}
	m.mate = mate
	m.label = make([]int, 2*n)
	m.labelend = filled(2*n, -1)
	m.inblossom = make([]int, n)
	for i := range m.inblossom {
		m.inblossom[i] = i
	}
	m.blossomparent = filled(2*n, -1)
	m.blossomchilds = make([][]int, 2*n)
	m.blossombase = filled(2*n, -1)
	for i := 0; i < n; i++ {
		m.blossombase[i] = i
	}
	m.blossomendps = make([][]int, 2*n)
	m.bestedge = filled(2*n, -1)
	m.blossombestedges = make([][]int, 2*n)
	for b := 2*n - 1; b >= n; b-- {
		m.unusedblossoms = append(m.unusedblossoms, b)
	}
	m.dualvar = make([]int64, 2*n)
	for i := 0; i < n; i++ {
		m.dualvar[i] = maxweight
	}
	m.allowedge = make([]bool, m.ne)
	m.bestedgeto = filled(2*n, -1)

	for range n {
		clear(m.label)
		for i := range m.bestedge {
			m.bestedge[i] = -1
		}
		for b := n; b < 2*n; b++ {
			m.blossombestedges[b] = nil
		}
		clear(m.allowedge)
		m.queue = m.queue[:0]
		for v := 0; v < n; v++ {
			if m.mate[v] == -1 && m.label[m.inblossom[v]] == 0 {
				m.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(m.queue) > 0 && !augmented {
				v := m.queue[len(m.queue)-1]
				m.queue = m.queue[:len(m.queue)-1]
				for _, p := range m.neighbend[v] {
					k := p / 2
					w := m.endpoint[p]
					if m.inblossom[v] == m.inblossom[w] {
						continue
					}
					var kslack int64
					if !m.allowedge[k] {
						kslack = m.slack(k)
						if kslack <= 0 {
							m.allowedge[k] = true
						}
					}
					if m.allowedge[k] {
						switch {
						case m.label[m.inblossom[w]] == 0:
							m.assignLabel(w, 2, p^1)
						case m.label[m.inblossom[w]] == 1:
							base := m.scanBlossom(v, w)
							if base >= 0 {
								m.addBlossom(base, k)
							} else {
								m.augmentMatching(k)
								augmented = true
							}
						case m.label[w] == 0:
							m.label[w] = 2
							m.labelend[w] = p ^ 1
						}
						if augmented {
							break
						}
					} else if m.label[m.inblossom[w]] == 1 {
						b := m.inblossom[v]
						if m.bestedge[b] == -1 || kslack < m.slack(m.bestedge[b]) {
							m.bestedge[b] = k
						}
					} else if m.label[w] == 0 {
						if m.bestedge[w] == -1 || kslack < m.slack(m.bestedge[w]) {
							m.bestedge[w] = k
						}
					}
				}
			}
			if augmented {
				break
			}
			deltatype := -1
			var delta int64
			deltaedge, deltablossom := -1, -1
			if !maxCardinality {
				deltatype = 1
				delta = m.dualvar[0]
				for v := 1; v < n; v++ {
					delta = min(delta, m.dualvar[v])
				}
			}
			for v := 0; v < n; v++ {
				if m.label[m.inblossom[v]] == 0 && m.bestedge[v] != -1 {
					d := m.slack(m.bestedge[v])
					if deltatype == -1 || d < delta {
						delta, deltatype, deltaedge = d, 2, m.bestedge[v]
					}
				}
			}
			for b := 0; b < 2*n; b++ {
				if m.blossomparent[b] == -1 && m.label[b] == 1 && m.bestedge[b] != -1 {
					d := m.slack(m.bestedge[b]) / 2
					if deltatype == -1 || d < delta {
						delta, deltatype, deltaedge = d, 3, m.bestedge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if m.blossombase[b] >= 0 && m.blossomparent[b] == -1 && m.label[b] == 2 &&
					(deltatype == -1 || m.dualvar[b] < delta) {
					delta, deltatype, deltablossom = m.dualvar[b], 4, b
				}
			}
			if deltatype == -1 {
				// No further improvement possible; the optimum is reached.
				deltatype = 1
				delta = m.dualvar[0]
				for v := 1; v < n; v++ {
					delta = min(delta, m.dualvar[v])
				}
				delta = max(0, delta)
			}
			for v := 0; v < n; v++ {
				switch m.label[m.inblossom[v]] {
				case 1:
					m.dualvar[v] -= delta
				case 2:
					m.dualvar[v] += delta
				}
			}
			for b := n; b < 2*n; b++ {
				if m.blossombase[b] >= 0 && m.blossomparent[b] == -1 {
					switch m.label[b] {
					case 1:
						m.dualvar[b] += delta
					case 2:
						m.dualvar[b] -= delta
					}
				}
			}
			if deltatype == 1 {
				break
			}
			switch deltatype {
			case 2:
				m.allowedge[deltaedge] = true
				i := m.edges[deltaedge].i
				if m.label[m.inblossom[i]] == 0 {
					i = m.edges[deltaedge].j
				}
				m.queue = append(m.queue, i)
			case 3:
				m.allowedge[deltaedge] = true
				m.queue = append(m.queue, m.edges[deltaedge].i)
			case 4:
				m.expandBlossom(deltablossom, false)
			}
		}
		if !augmented {
			break
		}
		for b := n; b < 2*n; b++ {
			if m.blossomparent[b] == -1 && m.blossombase[b] >= 0 && m.label[b] == 1 && m.dualvar[b] == 0 {
				m.expandBlossom(b, true)
			}
		}
	}
	for v := 0; v < n; v++ {
		if mate[v] >= 0 {
			mate[v] = m.endpoint[mate[v]]
		}
	}
	return mate
}

func filled(n, v int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

func indexOf(s []int, x int) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

// maxCardinalityMatching completes mate (which must be a valid matching,
// -1 for unmatched vertices) to a maximum-cardinality matching of the
// graph adj with Edmonds' blossom algorithm, searching an augmenting path
// from every free vertex. Starting from a nearly perfect matching it costs
// one breadth-first search per free vertex.
func maxCardinalityMatching(adj [][]int32, mate []int) {
	n := len(adj)
	base := make([]int, n)
	parent := make([]int, n)
	used := make([]bool, n)
	blossom := make([]bool, n)
	marked := make([]bool, n)
	queue := make([]int, 0, n)

	lca := func(a, b int) int {
		clear(marked)
		for {
			a = base[a]
			marked[a] = true
			if mate[a] == -1 {
				break
			}
			a = parent[mate[a]]
		}
		for {
			b = base[b]
			if marked[b] {
				return b
			}
			b = parent[mate[b]]
		}
	}
	markPath := func(v, b, child int) {
		for base[v] != b {
			blossom[base[v]], blossom[base[mate[v]]] = true, true
			parent[v] = child
			child = mate[v]
			v = parent[mate[v]]
		}
	}
	findPath := func(root int) int {
		for i := range n {
			used[i], parent[i], base[i] = false, -1, i
		}
		used[root] = true
		queue = append(queue[:0], root)
		for qh := 0; qh < len(queue); qh++ {
			v := queue[qh]
			for _, to32 := range adj[v] {
				to := int(to32)
				if base[v] == base[to] || mate[v] == to {
					continue
				}
				if to == root || (mate[to] != -1 && parent[mate[to]] != -1) {
					cur := lca(v, to)
					clear(blossom)
					markPath(v, cur, to)
					markPath(to, cur, v)
					for i := range n {
						if blossom[base[i]] {
							base[i] = cur
							if !used[i] {
								used[i] = true
								queue = append(queue, i)
							}
						}
					}
				} else if parent[to] == -1 {
					parent[to] = v
					if mate[to] == -1 {
						return to
					}
					used[mate[to]] = true
					queue = append(queue, mate[to])
				}
			}
		}
		return -1
	}
	for v := range n {
		if mate[v] != -1 {
			continue
		}
		u := findPath(v)
		for u != -1 {
			pv := parent[u]
			ppv := mate[pv]
			mate[u], mate[pv] = pv, u
			u = ppv
		}
	}
}
