package competition

// Kirkman triple systems: the three-team round robin in which every pair
// of entries meets exactly once and every entry plays every round. A
// KTS(v) exists exactly when v ≡ 3 (mod 6) (Ray-Chaudhuri and Wilson,
// 1971); the constructions below cover every such v up to 63 and most
// beyond (D. R. Stinson, "A survey of Kirkman triple systems and related
// designs", Discrete Math. 92, 1991):
//
//   - v = 3: one triple;
//   - v = 2q + 1, q ≡ 1 (mod 6) a prime power: a base parallel class on
//     GF(q) × {1, 2} ∪ {∞} developed over GF(q);
//   - v = 3q, q ≡ 1 (mod 6) a prime power: Stinson's Construction 1.2 on
//     GF(q) × Z3;
//   - v = u·w with KTS(u) and KTS(w): the direct product, crossing the
//     blocks of KTS(u) with the resolvable transversal design x+y+z ≡ 0
//     (mod w);
//   - v = 2m + 1 with m = 4^s: a KTS(9) pasted on the doubled lines of the
//     affine space AG(s, 4) plus a point at infinity.
//
// A kts is a list of parallel classes (rounds), each a list of triples of
// points 0…v−1.
type kts [][][3]int

// kirkman returns a KTS(v), or nil when v is not one the constructions
// reach.
func kirkman(v int) kts {
	switch {
	case v%6 != 3:
		return nil
	case v == 3:
		return kts{{{0, 1, 2}}}
	}
	if q := (v - 1) / 2; q%6 == 1 && isPrimePower(q) {
		return kirkmanTwoQPlusOne(q)
	}
	if q := v / 3; q%6 == 1 && isPrimePower(q) {
		return kirkmanThreeQ(q)
	}
	for u := 3; u*u <= v; u += 6 {
		if v%u != 0 {
			continue
		}
		if a, b := kirkman(u), kirkman(v/u); a != nil && b != nil {
			return kirkmanProduct(a, u, b, v/u)
		}
	}
	if m := (v - 1) / 2; m >= 16 && isPowerOf(m, 4) {
		return kirkmanAffine4(m)
	}
	return nil
}

// field is GF(q) with elements numbered 0…q−1: the base-p digits of an
// element are its polynomial coefficients, so 0 is zero and addition is
// digit-wise.
type field struct {
	p, k, q int
	exp     []int // exp[i] = ω^i for a primitive element ω, i < q−1
	log     []int // log[exp[i]] = i
}

func newField(q int) *field {
	p, k := primePower(q)
	if p == 0 {
		return nil
	}
	f := &field{p: p, k: k, q: q}
	// Search a primitive polynomial x^k + c_{k−1}x^{k−1} + … + c0: one
	// whose root ω has multiplicative order q − 1.
	coef := make([]int, k)
	for code := 0; code < q; code++ {
		c := code
		for i := range coef {
			coef[i] = c % p
			c /= p
		}
		if coef[0] == 0 {
			continue
		}
		if f.tryPrimitive(coef) {
			return f
		}
	}
	return nil
}

func (f *field) tryPrimitive(coef []int) bool {
	f.exp = make([]int, f.q-1)
	f.log = make([]int, f.q)
	for i := range f.log {
		f.log[i] = -1
	}
	digits := make([]int, f.k)
	digits[0] = 1
	for i := 0; i < f.q-1; i++ {
		e := 0
		for d := f.k - 1; d >= 0; d-- {
			e = e*f.p + digits[d]
		}
		if e == 0 || f.log[e] != -1 {
			return false
		}
		f.exp[i], f.log[e] = e, i
		// multiply by x: shift up and reduce x^k = −Σ c_i x^i
		top := digits[f.k-1]
		for d := f.k - 1; d > 0; d-- {
			digits[d] = mod(digits[d-1]-coef[d]*top, f.p)
		}
		digits[0] = mod(-coef[0]*top, f.p)
	}
	return true
}

func (f *field) add(a, b int) int {
	r, place := 0, 1
	for d := 0; d < f.k; d++ {
		r += mod(a%f.p+b%f.p, f.p) * place
		a /= f.p
		b /= f.p
		place *= f.p
	}
	return r
}

func (f *field) neg(a int) int {
	r, place := 0, 1
	for d := 0; d < f.k; d++ {
		r += mod(-(a%f.p), f.p) * place
		a /= f.p
		place *= f.p
	}
	return r
}

func (f *field) mul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	return f.exp[(f.log[a]+f.log[b])%(f.q-1)]
}

func (f *field) inv(a int) int { return f.exp[(f.q-1-f.log[a])%(f.q-1)] }

// pow is ω^i for any integer i.
func (f *field) pow(i int) int { return f.exp[mod(i, f.q-1)] }

func mod(a, m int) int {
	a %= m
	if a < 0 {
		a += m
	}
	return a
}

// primePower returns (p, k) with q = p^k, or (0, 0).
func primePower(q int) (int, int) {
	if q < 2 {
		return 0, 0
	}
	p := 2
	for p*p <= q && q%p != 0 {
		p++
	}
	if q%p != 0 {
		p = q
	}
	k := 0
	for r := q; r > 1; r /= p {
		if r%p != 0 {
			return 0, 0
		}
		k++
	}
	return p, k
}

func isPrimePower(q int) bool { p, _ := primePower(q); return p != 0 }

func isPowerOf(m, b int) bool {
	for m > 1 && m%b == 0 {
		m /= b
	}
	return m == 1
}

// kirkmanTwoQPlusOne builds a KTS(2q+1), q = 6t+1 a prime power. Points
// (x, 1) are x, (x, 2) are q+x, ∞ is 2q. With ω primitive, ε = ω^{2t} a
// cube root of unity and α = (1+ε)/(1−ε), the base class is
//
//	{∞, (0,1), (0,2)},
//	{(ω^i,1), (ω^{i+2t},1), (ω^{i+4t},1)}     for 0 ≤ i < t,
//	{(ω^k,1), (αω^k,2), (−αω^k,2)}            for ⌊k/t⌋ odd, 0 ≤ k < 6t;
//
// its pure differences on level 1 are (ε−1)ω^i times the sixth roots of
// unity, on level 2 ±2αω^k, and its mixed differences ε(α+1)ω^k and
// −(α+1)ω^k: each non-zero element exactly once. Its q translates are the
// rounds.
func kirkmanTwoQPlusOne(q int) kts {
	f := newField(q)
	t := (q - 1) / 6
	eps := f.pow(2 * t)
	alpha := f.mul(f.add(1, eps), f.inv(f.add(1, f.neg(eps))))
	beta := f.neg(alpha)
	inf := 2 * q
	type pt struct{ x, level int } // level 0 is ∞
	var base [][3]pt
	base = append(base, [3]pt{{0, 0}, {0, 1}, {0, 2}})
	for i := 0; i < t; i++ {
		base = append(base, [3]pt{{f.pow(i), 1}, {f.pow(i + 2*t), 1}, {f.pow(i + 4*t), 1}})
	}
	for k := 0; k < 6*t; k++ {
		if (k/t)%2 == 1 {
			w := f.pow(k)
			base = append(base, [3]pt{{w, 1}, {f.mul(alpha, w), 2}, {f.mul(beta, w), 2}})
		}
	}
	var out kts
	for x := 0; x < q; x++ {
		class := make([][3]int, 0, len(base))
		for bi, b := range base {
			var tri [3]int
			for j, p := range b {
				switch {
				case bi == 0 && j == 0:
					tri[j] = inf
				case p.level == 1:
					tri[j] = f.add(p.x, x)
				default:
					tri[j] = q + f.add(p.x, x)
				}
			}
			class = append(class, tri)
		}
		out = append(out, class)
	}
	return out
}

// kirkmanThreeQ builds a KTS(3q), q = 6t+1 a prime power (Stinson's
// Construction 1.2). Points (x, j) ∈ GF(q) × Z3 are jq+x. With
//
//	A0   = {(0,0), (0,1), (0,2)},
//	B_ij = {(ω^i,j), (ω^{i+2t},j), (ω^{i+4t},j)}   0 ≤ i < t, j ∈ Z3,
//	A_i  = {(ω^i,0), (ω^{i+2t},1), (ω^{i+4t},2)}   0 ≤ i < 6t,
//
// the q translates of A0 ∪ {B_ij} ∪ {A_i : ⌊i/t⌋ odd} are q rounds, and
// for each i with ⌊i/t⌋ even the q translates of A_i form one more round.
func kirkmanThreeQ(q int) kts {
	f := newField(q)
	t := (q - 1) / 6
	type pt struct{ x, j int }
	var base [][3]pt
	base = append(base, [3]pt{{0, 0}, {0, 1}, {0, 2}})
	for j := 0; j < 3; j++ {
		for i := 0; i < t; i++ {
			base = append(base, [3]pt{{f.pow(i), j}, {f.pow(i + 2*t), j}, {f.pow(i + 4*t), j}})
		}
	}
	a := func(i int) [3]pt { return [3]pt{{f.pow(i), 0}, {f.pow(i + 2*t), 1}, {f.pow(i + 4*t), 2}} }
	for i := 0; i < 6*t; i++ {
		if (i/t)%2 == 1 {
			base = append(base, a(i))
		}
	}
	translate := func(b [3]pt, x int) [3]int {
		var tri [3]int
		for j, p := range b {
			tri[j] = p.j*q + f.add(p.x, x)
		}
		return tri
	}
	var out kts
	for x := 0; x < q; x++ {
		class := make([][3]int, 0, len(base))
		for _, b := range base {
			class = append(class, translate(b, x))
		}
		out = append(out, class)
	}
	for i := 0; i < 6*t; i++ {
		if (i/t)%2 == 0 {
			class := make([][3]int, 0, q)
			for x := 0; x < q; x++ {
				class = append(class, translate(a(i), x))
			}
			out = append(out, class)
		}
	}
	return out
}

// kirkmanProduct builds a KTS(uw) from a KTS(u) and a KTS(w); point (a, x)
// is a·w + x. For every round of KTS(u) and every s ∈ Zw, a round takes,
// for each triple a1 a2 a3 of that round, the w triples
// {(a1,x), (a2,x+s), (a3,−2x−s)}; then for every round of KTS(w), a round
// takes that round's triples inside every copy {a} × Zw.
func kirkmanProduct(ku kts, u int, kw kts, w int) kts {
	var out kts
	for _, class := range ku {
		for s := 0; s < w; s++ {
			var round [][3]int
			for _, b := range class {
				for x := 0; x < w; x++ {
					round = append(round, [3]int{b[0]*w + x, b[1]*w + mod(x+s, w), b[2]*w + mod(-2*x-s, w)})
				}
			}
			out = append(out, round)
		}
	}
	for _, class := range kw {
		var round [][3]int
		for a := 0; a < u; a++ {
			for _, b := range class {
				round = append(round, [3]int{a*w + b[0], a*w + b[1], a*w + b[2]})
			}
		}
		out = append(out, round)
	}
	return out
}

// kirkmanAffine4 builds a KTS(2m+1), m = 4^s, from the lines of AG(s, 4)
// (a pairwise balanced design with blocks of four): every point x is
// doubled to 2x and 2x+1, ∞ is 2m, and on every line a KTS(9) is placed
// whose triples through ∞ are the doubled points. Round x holds
// {2x, 2x+1, ∞} and, from every line through x, the round of that line's
// KTS(9) which held x's triple through ∞.
func kirkmanAffine4(m int) kts {
	dim := 0
	for r := m; r > 1; r /= 4 {
		dim++
	}
	var lines [][]int
	for _, class := range affineClasses(dim, 4) {
		lines = append(lines, class...)
	}
	// KTS(9) relabelled: point 8 is ∞ and its triples are {2i, 2i+1, ∞}.
	nine := kirkman(9)
	relabel := make([]int, 9)
	owner := make([]int, len(nine)) // owner[c] = i when round c holds {2i, 2i+1, ∞}
	next := 0
	for c, class := range nine {
		for _, b := range class {
			if b[0] != 8 && b[1] != 8 && b[2] != 8 {
				continue
			}
			var others []int
			for _, p := range b {
				if p != 8 {
					others = append(others, p)
				}
			}
			relabel[others[0]], relabel[others[1]] = 2*next, 2*next+1
			owner[c] = next
			next++
		}
	}
	relabel[8] = -1
	inf := 2 * m
	out := make(kts, m)
	for x := 0; x < m; x++ {
		out[x] = append(out[x], [3]int{2 * x, 2*x + 1, inf})
	}
	for _, line := range lines {
		for c, class := range nine {
			x := line[owner[c]]
			for _, b := range class {
				if b[0] == 8 || b[1] == 8 || b[2] == 8 {
					continue
				}
				var tri [3]int
				for j, p := range b {
					l := relabel[p]
					tri[j] = 2*line[l/2] + l%2
				}
				out[x] = append(out[x], tri)
			}
		}
	}
	return out
}

// affineClasses lists the lines of the affine space AG(dim, q), q a prime
// power, grouped into parallel classes (one class per direction): a
// resolvable design in which every pair of the q^dim points (numbered by
// their base-q coordinates) shares exactly one line of q points.
func affineClasses(dim, q int) [][][]int {
	f := newField(q)
	n := pow(q, dim)
	coords := func(p int) []int {
		c := make([]int, dim)
		for i := range c {
			c[i] = p % q
			p /= q
		}
		return c
	}
	number := func(c []int) int {
		p := 0
		for i := dim - 1; i >= 0; i-- {
			p = p*q + c[i]
		}
		return p
	}
	var classes [][][]int
	for d := 1; d < n; d++ {
		dc := coords(d)
		lead := 0
		for dc[lead] == 0 {
			lead++
		}
		if dc[lead] != 1 { // one direction per projective point
			continue
		}
		var class [][]int
		onLine := make([]bool, n)
		for p := 0; p < n; p++ {
			if onLine[p] {
				continue
			}
			pc := coords(p)
			line := make([]int, q)
			for lambda := 0; lambda < q; lambda++ {
				c := make([]int, dim)
				for i := range c {
					c[i] = f.add(pc[i], f.mul(lambda, dc[i]))
				}
				line[lambda] = number(c)
				onLine[line[lambda]] = true
			}
			class = append(class, line)
		}
		classes = append(classes, class)
	}
	return classes
}
