package bot

import (
	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/sequence"
)

// Tuning of the board game's search.
const (
	seqRolloutPlies = 12   // roll-out length before the leaf's value
	seqJitter       = 6.0  // roll-out noise on greedy scores
	seqEvalScale    = 12.0 // static evaluation difference worth e (logistic), at tables of more than two
)

var seqSearch = searchParams{candidates: 6, z: 1.0}

type seqStrong struct{}

func (seqStrong) Level() Level { return Strong }

func (seqStrong) Choose(v *sequence.View, r *rng.Rand, b Budget) (sequence.Move, error) {
	moves, err := seqMoves(v, make([]sequence.Move, 0, sequence.MaxMoves))
	if err != nil {
		return sequence.Move{}, err
	}
	var a seqAnalysis
	a.analyze(&v.Table, v.TeamOf(v.Seat()), &defaultWeights)
	if m, ok := exchangeFirst(moves); ok {
		return m, nil
	}
	if moves[0].Kind == sequence.KindDiscard || moves[0].Kind == sequence.KindPass {
		return greedyPick(&a, moves, nil, 0), nil
	}
	// A winning placement needs no search.
	for _, m := range moves {
		if m.Kind == sequence.KindPlace {
			if _, _, wins := a.placeValue(m.Cell); wins {
				return m, nil
			}
		}
	}
	a.order(moves)
	g := &seqGame{dealer: newSeqDealer(v, &a), root: a}
	p := seqSearch
	p.sides = v.Teams()
	return flatSearch[sequence.State, sequence.Move](g, moves, v.TeamOf(v.Seat()), p,
		b.iterations(DefaultSequenceIterations), b.Stop, r)
}

// order sorts moves by the greedy score, best first (stably, so that ties
// keep the legal-move order).
func (a *seqAnalysis) order(moves []sequence.Move) {
	scores := make([]float64, len(moves))
	for i, m := range moves {
		scores[i] = a.moveScore(m)
	}
	for i := 1; i < len(moves); i++ {
		for j := i; j > 0 && scores[j] > scores[j-1]; j-- {
			scores[j], scores[j-1] = scores[j-1], scores[j]
			moves[j], moves[j-1] = moves[j-1], moves[j]
		}
	}
}

// seqDealer samples the cards a view does not show: the other hands and the
// draw pile, dealt from View.Unseen — each hand by its seat's reading (see
// readHands and dealHand; with no analysis a, uniformly), the draw pile at
// random.
type seqDealer struct {
	v      *sequence.View
	read   *handReading
	unseen []sequence.Card
	pool   []sequence.Card
	hands  [][]sequence.Card
	bufs   [sequence.MaxPlayers][sequence.MaxHand]sequence.Card
}

func newSeqDealer(v *sequence.View, a *seqAnalysis) *seqDealer {
	d := &seqDealer{v: v, unseen: v.Unseen(), hands: make([][]sequence.Card, v.Players())}
	d.pool = make([]sequence.Card, len(d.unseen))
	if a != nil {
		d.read = readHands(v, a)
	}
	return d
}

func (d *seqDealer) deal(r *rng.Rand) (sequence.State, error) {
	rest := d.pool[:len(d.unseen)]
	copy(rest, d.unseen)
	for p := range d.hands {
		if p == d.v.Seat() {
			d.hands[p] = nil
			continue
		}
		d.hands[p], rest = d.dealHand(r, p, rest)
	}
	rng.Shuffle(r, rest)
	deck := rest[:d.v.DeckSize()]
	return sequence.FromView(*d.v, d.hands, deck, rng.SeedFromUint64(r.Uint64()))
}

// dealHand deals seat p's hand from rest and returns it and what is left.
//
// It walks back through the seat's draws, youngest first. The card drawn
// after its last decision is still held. Each earlier draw is one of the h
// cards the seat held at the decision after it: by the prior (the seat
// played any of its cards alike), one of the m cards of the hand left to
// place with odds m/h, the card played at that decision with odds 1/h, and
// another card played since otherwise. Each is weighed by the reading: a
// card of the hand placed at the draw before the seat's last k decisions
// was held through them (weighed by how many cards the reading's odds for
// k leave plausible, and then dealt by those odds), and a card played was
// not held the turn before it was drawn (kept). A hand's old cards must
// pass all their decisions together, which a weight per card, blind to how
// the hand's cards share out the draws, cannot say.
func (d *seqDealer) dealHand(r *rng.Rand, p int, rest []sequence.Card) ([]sequence.Card, []sequence.Card) {
	h := d.v.HandSize(p)
	hand := d.bufs[p][:0]
	var like [][64]float64
	var kept []float64
	if d.read != nil {
		like, kept = d.read.like[p], d.read.kept[p]
	}
	for k := 0; len(hand) < h; k++ {
		if len(like) == 0 { // nothing read: uniformly
			i := r.IntN(len(rest))
			hand, rest = append(hand, rest[i]), remove(rest, i)
			continue
		}
		l := &like[min(k, len(like)-1)] // past the oldest decision read, its odds
		total := 0.0
		for _, c := range rest {
			total += l[c]
		}
		if k > 0 && k < len(like) {
			m, e := float64(h-len(hand)), kept[k]
			held := m * total / float64(len(rest)) * e
			played := 1 + (float64(h)-m-1)*e
			if r.Float64()*(held+played) >= held {
				continue // this draw was played since
			}
		}
		i := pickWeighted(r, rest, l, total)
		hand, rest = append(hand, rest[i]), remove(rest, i)
	}
	return hand, rest
}

// pickWeighted is the index of a card of cards drawn with weights w, whose
// sum over cards is total (and uniformly if they are all zero).
func pickWeighted(r *rng.Rand, cards []sequence.Card, w *[64]float64, total float64) int {
	if total <= 0 {
		return r.IntN(len(cards))
	}
	u := r.Float64() * total
	i := 0
	for i < len(cards)-1 && u >= w[cards[i]] {
		u -= w[cards[i]]
		i++
	}
	return i
}

// remove takes cards[i] out, not keeping the order.
func remove(cards []sequence.Card, i int) []sequence.Card {
	cards[i] = cards[len(cards)-1]
	return cards[:len(cards)-1]
}

// seqGame is the board game for the search.
type seqGame struct {
	dealer *seqDealer
	root   seqAnalysis // the view's board, which every deal shares
	a      seqAnalysis // the board of the state being played out, kept up to date move by move
	buf    [sequence.MaxMoves]sequence.Move
}

func (g *seqGame) deal(r *rng.Rand) (sequence.State, error) { return g.dealer.deal(r) }

// apply plays a root move: the analysis starts again from the root's.
func (g *seqGame) apply(s *sequence.State, m sequence.Move) {
	g.a = g.root
	if err := s.Do(s.Turn(), m); err != nil {
		panic("bot: search applied an illegal move: " + err.Error())
	}
	g.a.follow(&s.Table, m, s.TeamOf(s.Turn()))
}

func (g *seqGame) rollout(s *sequence.State, r *rng.Rand, reward []float64) {
	g.a.me = s.TeamOf(s.Turn())
	base := r.Uint64()
	for ply := 0; ply < seqRolloutPlies && s.Status() == sequence.Playing; ply++ {
		g.a.rolloutStep(s, g.buf[:0], base+uint64(ply)*0x9e3779b97f4a7c15)
	}
	switch s.Status() {
	case sequence.Won:
		for t := range reward {
			reward[t] = 0
		}
		reward[s.Winner()] = 1
		return
	case sequence.Drawn:
		for t := range reward {
			reward[t] = 1 / float64(len(reward))
		}
		return
	}
	g.a.leafRewards(s, reward)
}

// rolloutStep plays the roll-out policy's move in s, whose board a has
// read, and keeps a up to date; buf is room for the legal moves.
func (a *seqAnalysis) rolloutStep(s *sequence.State, buf []sequence.Move, key uint64) {
	m := rolloutPick(a, sequence.LegalMoves(s, buf), key, seqJitter)
	if err := s.Do(s.Turn(), m); err != nil {
		panic("bot: roll-out applied an illegal move: " + err.Error())
	}
	a.follow(&s.Table, m, s.TeamOf(s.Turn()))
}

// rolloutPick is greedyPick made cheap for roll-outs: a jack is weighed only
// where it can matter at its price — a two-eyed jack on the gap of a live
// four, a one-eyed jack on a chip of a live three or four — unless the hand
// holds nothing else.
func rolloutPick(a *seqAnalysis, moves []sequence.Move, key uint64, jitter float64) sequence.Move {
	var memo [numCells]float32
	var done [numCells]bool
	best, bestScore := moves[0], -1e18
	scored := false
	for _, m := range moves {
		var s float64
		switch m.Kind {
		case sequence.KindExchange:
			return m
		case sequence.KindPlace:
			if m.Card.IsTwoEyed() && !a.isGap(m.Cell) {
				continue
			}
			if !done[m.Cell] {
				v, _, _ := a.placeValue(m.Cell)
				memo[m.Cell], done[m.Cell] = float32(v), true
			}
			s = float64(memo[m.Cell])
			if m.Card.IsTwoEyed() {
				s -= a.w.jack2
			}
		case sequence.KindRemove:
			if !a.hotChip(m.Cell) {
				continue
			}
			s = a.removeValue(m.Cell) - a.w.jack1
		default:
			s = a.moveScore(m)
		}
		scored = true
		s += jitter * noise(key, m)
		if s > bestScore {
			best, bestScore = m, s
		}
	}
	if !scored {
		return greedyPick(a, moves, nil, 0)
	}
	return best
}

// noise is a pseudo-random number in [0, 1) fixed by the key and the move,
// so that roll-outs from the same deal that meet the same choice at the
// same ply make it the same way: the candidates' roll-outs stay alike for
// as long as the positions do, and their differences measure the moves.
func noise(key uint64, m sequence.Move) float64 {
	x := key ^ uint64(m.Kind)<<48 ^ uint64(uint8(m.Cell))<<8 ^ uint64(m.Card)
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / (1 << 53)
}
