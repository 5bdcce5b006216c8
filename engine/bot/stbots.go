package bot

import (
	"fmt"
	"slices"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/stacks"
)

// stCanAct checks that the view's seat may move now.
func stCanAct(v *stacks.View) error {
	if v.Seat < 0 || v.Seat >= v.Players {
		return fmt.Errorf("%w: a spectator's view", ErrCannotAct)
	}
	switch v.Phase {
	case stacks.PhasePlay:
		if v.Turn == v.Seat {
			return nil
		}
	case stacks.PhaseWindow:
		if v.Window != nil {
			for _, s := range v.Window.Eligible {
				if s == v.Seat {
					return nil
				}
			}
		}
	}
	return fmt.Errorf("%w: seat %d in phase %v, turn %d", ErrCannotAct, v.Seat, v.Phase, v.Turn)
}

// stPlainState is a state consistent with v whose hidden cards are the
// unseen ones in kind order: enough to list the viewer's own legal moves,
// which depend on nothing hidden.
func stPlainState(v *stacks.View) (stacks.State, error) {
	u := v.Unseen()
	pool := make([]stacks.Card, 0, stacks.MaxCards)
	for c := stacks.Card(1); int(c) < stacks.NumKinds; c++ {
		for k := 0; k < u[c]; k++ {
			pool = append(pool, c)
		}
	}
	return stDealFrom(v, pool, rng.Seed{})
}

// stDealFrom deals pool, in order, to the other hands and then the draw
// pile, and rebuilds the state.
func stDealFrom(v *stacks.View, pool []stacks.Card, seed rng.Seed) (stacks.State, error) {
	hands := make([][]stacks.Card, v.Players)
	for p := 0; p < v.Players; p++ {
		if p == v.Seat {
			continue
		}
		n := v.HandSizes[p]
		if n > len(pool) {
			return stacks.State{}, fmt.Errorf("bot: the view hides more cards than it leaves unseen")
		}
		hands[p], pool = pool[:n], pool[n:]
	}
	if v.DeckSize > len(pool) {
		return stacks.State{}, fmt.Errorf("bot: the view hides more cards than it leaves unseen")
	}
	return stacks.FromView(*v, hands, pool[:v.DeckSize], seed)
}

// stLegal is the viewer's legal moves.
func stLegal(v *stacks.View) ([]stacks.Move, stacks.State, error) {
	if err := stCanAct(v); err != nil {
		return nil, stacks.State{}, err
	}
	s, err := stPlainState(v)
	if err != nil {
		return nil, s, err
	}
	moves := stacks.LegalMovesFor(&s, v.Seat, make([]stacks.Move, 0, stacks.MaxLegalMoves))
	if len(moves) == 0 {
		return nil, s, fmt.Errorf("%w: no legal move", ErrCannotAct)
	}
	return moves, s, nil
}

type stRandom struct{}

func (stRandom) Level() Level { return Random }

func (stRandom) Choose(v *stacks.View, r *rng.Rand, _ Budget) (stacks.Move, error) {
	moves, _, err := stLegal(v)
	if err != nil {
		return stacks.Move{}, err
	}
	return moves[r.IntN(len(moves))], nil
}

type stGreedy struct{}

func (stGreedy) Level() Level { return Greedy }

func (stGreedy) Choose(v *stacks.View, _ *rng.Rand, _ Budget) (stacks.Move, error) {
	moves, _, err := stLegal(v)
	if err != nil {
		return stacks.Move{}, err
	}
	var p stPos
	p.fromView(v, &stDefault)
	return stPolicy(&p, moves), nil
}

// Tuning of the Stacks search.
const (
	stRolloutTurns = 6   // finished turns a roll-out plays before the evaluation
	stEvalScale    = 0.8 // need difference worth e (logistic)
	stRolloutPlies = 400 // a bound on a roll-out's plies
)

var stSearch = searchParams{candidates: 6, z: 1.0}

type stStrong struct{}

func (stStrong) Level() Level { return Strong }

func (stStrong) Choose(v *stacks.View, r *rng.Rand, b Budget) (stacks.Move, error) {
	moves, _, err := stLegal(v)
	if err != nil {
		return stacks.Move{}, err
	}
	if len(moves) == 1 {
		return moves[0], nil
	}
	var p stPos
	p.fromView(v, &stDefault)
	if v.Phase == stacks.PhasePlay && p.planWins() {
		// A completion that wins needs no search.
		if m, ok := p.bestPlan(moves); ok {
			return m, nil
		}
	}
	p.order(moves)
	g := newStGame(v)
	params := stSearch
	params.sides = v.Players
	return flatSearch[stacks.State, stacks.Move](g, moves, v.Seat, params,
		b.iterations(DefaultStacksIterations), b.Stop, r)
}

// order puts the greedy choice first, then the other moves from the most
// to the least promising: plays, then special cards, then discards of the
// least valuable cards first.
func (p *stPos) order(moves []stacks.Move) {
	first := stPolicy(p, moves)
	rank := func(m stacks.Move) float64 {
		switch {
		case m == first:
			return 1e9
		case m.Kind == stacks.MovePlay && m.Card.IsColored():
			return 100
		case m.Kind == stacks.MovePlay:
			return 50
		case m.Kind == stacks.MoveBlock:
			return 40
		case m.Kind == stacks.MoveDiscard:
			return -p.cardValue(m.Card)
		}
		return -100
	}
	slices.SortStableFunc(moves, func(a, b stacks.Move) int {
		ra, rb := rank(a), rank(b)
		switch {
		case ra > rb:
			return -1
		case ra < rb:
			return 1
		}
		return 0
	})
}

// planWins reports whether the seat can complete a pile that wins now.
func (p *stPos) planWins() bool {
	pl := p.planner()
	pl.bestVal = -1e18
	pl.dfs(0, 0, 0)
	return pl.bestVal >= stWinValue/2
}

// stGame is Stacks for the search. Block windows are not searched, except
// the one the searcher may be answering at the root: each is settled by
// the greedy rule of every seat that holds a BLOCK.
type stGame struct {
	v         *stacks.View
	pool      []stacks.Card
	deck      []stacks.Card
	total     [2]int // chips of each colour in the game (supply plus holdings)
	buf       [stacks.MaxLegalMoves]stacks.Move
	wbuf      [4]stacks.Move
	winColor  stacks.Color // the colour at stake in the open window
	rootColor stacks.Color
}

func newStGame(v *stacks.View) *stGame {
	g := &stGame{v: v}
	u := v.Unseen()
	for c := stacks.Card(1); int(c) < stacks.NumKinds; c++ {
		for k := 0; k < u[c]; k++ {
			g.pool = append(g.pool, c)
		}
	}
	g.deck = make([]stacks.Card, len(g.pool))
	g.total = [2]int{v.Supply.Red, v.Supply.Blue}
	for _, c := range v.Chips {
		g.total[0] += c.Red
		g.total[1] += c.Blue
	}
	if v.Window != nil {
		g.rootColor = v.Window.Color
	}
	return g
}

func (g *stGame) deal(r *rng.Rand) (stacks.State, error) {
	copy(g.deck, g.pool)
	rng.Shuffle(r, g.deck)
	return stDealFrom(g.v, g.deck, rng.SeedFromUint64(r.Uint64()))
}

// apply plays a root move, then settles any block window it opens.
func (g *stGame) apply(s *stacks.State, m stacks.Move) {
	g.winColor = g.rootColor
	g.play(s, m)
}

func (g *stGame) play(s *stacks.State, m stacks.Move) {
	if m.Kind == stacks.MovePlay && m.Card.IsColored() {
		g.winColor = m.Card.Color()
	}
	if err := s.Apply(m); err != nil {
		panic("bot: search applied an illegal move: " + err.Error())
	}
	g.settleWindow(s)
}

// settleWindow answers an open block window for every seat: the first seat
// in turn order that holds a BLOCK and wants to block does; otherwise the
// window closes.
func (g *stGame) settleWindow(s *stacks.State) {
	if s.Phase() != stacks.PhaseWindow {
		return
	}
	n := s.Players()
	t := s.Turn()
	for k := 1; k < n; k++ {
		seat := ((t+k*s.Direction())%n + n) % n
		if !s.MayAct(seat) {
			continue
		}
		ms := stacks.LegalMovesFor(s, seat, g.wbuf[:0])
		if len(ms) < 2 || ms[0].Kind != stacks.MoveBlock {
			continue
		}
		if g.wantsBlock(s, seat) {
			if err := s.Apply(ms[0]); err != nil {
				panic("bot: " + err.Error())
			}
			return
		}
	}
	if err := s.Apply(stacks.CloseWindow()); err != nil {
		panic("bot: " + err.Error())
	}
}

// wantsBlock is shouldBlock from the chips alone.
func (g *stGame) wantsBlock(s *stacks.State, seat int) bool {
	col := g.winColor
	t := s.Turn()
	held := 0
	for p := 0; p < s.Players(); p++ {
		held += s.Chips(p)[col]
	}
	if g.total[col]-held <= 0 {
		return false
	}
	c := s.Chips(t)
	before := need(c[0], c[1])
	c[col]++
	after := need(c[0], c[1])
	return after < before && after <= stDefault.block
}

func (g *stGame) rollout(s *stacks.State, r *rng.Rand, reward []float64) {
	stop := s.Turns() + stRolloutTurns
	var p stPos
	// The ply limit stops a turn that goes round in circles (the rules let
	// a turn last as long as its cards keep coming back).
	for ply := 0; !s.Over() && s.Turns() < stop && ply < stRolloutPlies; ply++ {
		if s.Phase() == stacks.PhaseWindow {
			g.settleWindow(s)
			continue
		}
		seat := s.Turn()
		moves := stacks.LegalMovesFor(s, seat, g.buf[:0])
		v := s.ViewFor(seat)
		p.fromView(&v, &stDefault)
		g.play(s, stPolicy(&p, moves))
	}
	o := s.Outcome()
	switch o.Status {
	case stacks.Finished:
		for i := range reward {
			reward[i] = 0
		}
		reward[o.Winner] = 1
		return
	case stacks.Drawn:
		for i := range reward {
			reward[i] = 1 / float64(len(reward))
		}
		return
	}
	for i := range reward {
		c := s.Chips(i)
		reward[i] = -float64(need(c[0], c[1])) / stEvalScale
	}
	softmax(reward)
}
