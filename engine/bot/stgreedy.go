package bot

import (
	"github.com/seqleague/seqleague/engine/stacks"
)

// Constants of the Stacks heuristics.
const (
	stChipValue = 10.0   // a chip that brings the seat nearer a win
	stWinValue  = 1000.0 // the chip that wins
	stMaxPlan   = 8      // plays looked at in one turn
)

// stParams tune the Stacks heuristics.
type stParams struct {
	wildCost  float64    // a wild spent is flexibility lost
	fromHand  float64    // a card played from the hand: one more card drawn at the end of the turn
	fromDisc  float64    // a card played from the discard pile
	emptyHand float64    // emptying the hand draws five at once
	danger    [5]float64 // the chance the next player completes a pile left at height h
	block     int        // block a useful chip that leaves the completer needing this many or fewer
}

var stDefault = stParams{
	wildCost: 1.5, fromHand: 0.9, fromDisc: 0.3, emptyHand: 8,
	danger: [5]float64{0, 0.02, 0.06, 0.18, 0.5},
	block:  4,
}

// stPolicy is the greedy level's choice for the seat of p, among legal (the
// seat's legal moves, which the caller lists from any state consistent
// with the view). Everything it reads is in p.
func stPolicy(p *stPos, legal []stacks.Move) stacks.Move {
	if len(legal) == 1 {
		return legal[0]
	}
	if p.phase == stacks.PhaseWindow {
		for _, m := range legal {
			if m.Kind == stacks.MoveBlock && p.shouldBlock() {
				return m
			}
		}
		for _, m := range legal {
			if m.Kind == stacks.MoveNoBlock {
				return m
			}
		}
		return legal[0]
	}
	if m, ok := p.special(legal); ok {
		return m
	}
	if m, ok := p.bestPlan(legal); ok {
		return m
	}
	return p.discard(legal)
}

// shouldBlock: deny the completer a chip that wins, or one that brings it
// within two of a win.
func (p *stPos) shouldBlock() bool {
	t, col := p.turn, p.winColor
	if p.supply[col] == 0 || p.chipGain(t, col) == 0 {
		return false
	}
	c := p.chips[t]
	c[col]++
	return need(c[0], c[1]) <= p.prm.block
}

// special picks a special card worth playing now: STEAL_CHIP when the chip
// hurts the victim or helps the thief, SKIP always (with two players it is
// another turn), STEAL_CARD always (a card for us, one less for a rival),
// REVERSE when it makes the most dangerous rival wait.
func (p *stPos) special(legal []stacks.Move) (stacks.Move, bool) {
	best, bestVal := stacks.Move{}, 0.0
	for _, m := range legal {
		if m.Kind != stacks.MovePlay || !m.Card.IsSpecial() {
			continue
		}
		v := 0.0
		if p.replays(m) {
			continue
		}
		switch m.Card {
		case stacks.StealChip:
			t := int(m.Target)
			v = p.chipValue(p.seat, m.Color) + p.lossValue(t, m.Color)
			if v <= 0 {
				continue
			}
			v += 20
		case stacks.Skip:
			if p.skipped[p.next(p.seat)] {
				continue // skips do not stack
			}
			v = 15
		case stacks.StealCard:
			t := int(m.Target)
			if m.Take == stacks.TakeDiscard {
				v = 8 + p.cardValue(p.discTop[t])
			} else {
				v = 10 + 0.5*float64(p.handSizes[t]) + 2*float64(stacks.ChipsToWin-p.need(t))
			}
		case stacks.Reverse:
			if p.n == 2 {
				if p.deckN == 0 {
					continue // it only cycles cards, and there are none to draw
				}
				v = 1
			} else if nx, pv := p.next(p.seat), ((p.seat-p.dir)%p.n+p.n)%p.n; p.need(nx) < p.need(pv) {
				v = 5
			} else {
				continue
			}
		}
		if m.FromDiscard {
			v += 0.1 // the card below comes back within reach
		}
		if v > bestVal {
			best, bestVal = m, v
		}
	}
	return best, bestVal > 0
}

// replays reports whether playing m would bring the same card straight
// back: the seat's last card, with nothing else to draw, is drawn again from
// the set-aside pile at once, and playing it again changes nothing.
func (p *stPos) replays(m stacks.Move) bool {
	return !m.FromDiscard && p.handN == 1 && p.deckN == 0 && p.setAsideN == 0 &&
		(m.Card == stacks.Skip || m.Card == stacks.Reverse)
}

// lossValue is what losing a chip of col costs seat.
func (p *stPos) lossValue(seat int, col stacks.Color) float64 {
	c := p.chips[seat]
	if c[col] == 0 {
		return 0
	}
	c[col]--
	if need(c[0], c[1]) > p.need(seat) {
		return stChipValue * (1 + 0.5*float64(stacks.ChipsToWin-p.need(seat))/stacks.ChipsToWin)
	}
	return 0
}

// cardValue is how much the seat wants a card in hand.
func (p *stPos) cardValue(c stacks.Card) float64 {
	switch {
	case c == stacks.NoCard:
		return 0
	case c == stacks.Block:
		return 9
	case c.IsWild():
		return 8
	case c == stacks.StealChip:
		return 7
	case c == stacks.Skip:
		return 6
	case c == stacks.StealCard:
		return 6
	case c == stacks.Reverse:
		if p.n == 2 {
			return 0.5
		}
		return 3
	}
	n, col := c.Number(), c.Color()
	v := 1.0
	if p.supply[col] == 0 {
		v = 0.5
	}
	best := 0.0
	perCol := 0
	for i := 0; i < p.nPiles; i++ {
		pl := p.piles[i]
		if pl.col != col {
			continue
		}
		perCol++
		if gap := n - pl.h; gap >= 1 {
			best = max(best, 4/float64(gap))
		}
	}
	if n == 1 && perCol < 2 {
		best = max(best, 3)
	} else if perCol < 2 {
		best = max(best, 4/float64(n)) // a pile may start and reach it
	}
	if p.chipGain(p.seat, col) > 0 {
		v += 1
	}
	return v + best
}

// discard ends the turn with the least valuable card (copies beyond the
// first are worth less).
func (p *stPos) discard(legal []stacks.Move) stacks.Move {
	best, bestVal := stacks.Move{}, 1e18
	found := false
	for _, m := range legal {
		switch m.Kind {
		case stacks.MoveEndTurn:
			return m
		case stacks.MoveDiscard:
			v := p.cardValue(m.Card)
			if p.hand[m.Card] > 1 {
				v *= 0.6
			}
			if !found || v < bestVal {
				best, bestVal, found = m, v, true
			}
		}
	}
	if !found {
		return legal[len(legal)-1]
	}
	return best
}

// stPlanner searches the seat's pile plays this turn for the best plan.
type stPlanner struct {
	p         *stPos
	piles     [stacks.MaxPiles]stPile
	nPiles    int
	hand      [stacks.NumKinds]int
	handN     int
	discN     int
	chips     [2]int
	supply    [2]int
	danger    [2]float64 // per colour: the worst a rival gains from a completion
	dq        [5]float64 // per height: the chance a rival completes the pile before our turn
	first     stacks.Move
	bestVal   float64
	bestFirst stacks.Move
	bestLen   int
}

func (p *stPos) planner() stPlanner {
	pl := stPlanner{p: p, piles: p.piles, nPiles: p.nPiles, hand: p.hand, handN: p.handN,
		discN: len(p.disc), chips: p.chips[p.seat], supply: p.supply}
	for col := stacks.Red; col <= stacks.Blue; col++ {
		for s := 0; s < p.n; s++ {
			if s != p.seat && p.supply[col] > 0 {
				pl.danger[col] = max(pl.danger[col], p.chipValue(s, col))
			}
		}
	}
	rivals := max(1, p.n-1)
	for h, q := range p.prm.danger {
		pl.dq[h] = 1 - pow(1-q, rivals)
	}
	return pl
}

// bestPlan returns the first play of the best plan of pile plays, if
// playing is better than not.
func (p *stPos) bestPlan(legal []stacks.Move) (stacks.Move, bool) {
	pl := p.planner()
	pl.bestVal = -pl.dangerOf()
	pl.dfs(0, 0, 0)
	if pl.bestLen == 0 {
		return stacks.Move{}, false
	}
	for _, m := range legal {
		if m == pl.bestFirst {
			return m, true
		}
	}
	return stacks.Move{}, false
}

func (pl *stPlanner) dangerOf() float64 {
	d := 0.0
	for i := 0; i < pl.nPiles; i++ {
		x := pl.piles[i]
		d += pl.dq[x.h] * pl.danger[x.col]
	}
	return d
}

func pow(x float64, n int) float64 {
	r := 1.0
	for i := 0; i < n; i++ {
		r *= x
	}
	return r
}

// dfs tries every plan of plays. Plays on different piles commute, so
// plans are built pile by pile in table order (minPile): each pile's plays
// come together, which cuts the orders to try without losing a plan
// (except ones that need the discard pile's cards in another order).
func (pl *stPlanner) dfs(depth, minPile int, val float64) {
	if depth > 0 {
		if total := val - pl.dangerOf(); total > pl.bestVal+1e-9 {
			pl.bestVal, pl.bestFirst, pl.bestLen = total, pl.first, depth
		}
	}
	if depth >= stMaxPlan || pl.handN == 0 && depth > 0 {
		return
	}
	top := stacks.NoCard
	if pl.discN > 0 {
		top = pl.p.disc[pl.discN-1]
	}
	var perCol [2]int
	for i := 0; i < pl.nPiles; i++ {
		perCol[pl.piles[i].col]++
	}
	for i := minPile; i < pl.nPiles; i++ {
		x := pl.piles[i]
		pl.options(depth, i, val, numberCard(x.col, x.h+1), wildOf(x.col), top)
	}
	for col := stacks.Red; col <= stacks.Blue; col++ {
		if perCol[col] < 2 {
			pl.options(depth, stacks.NewPile, val, numberCard(col, 1), wildOf(col), top)
		}
	}
}

// options tries the exact card for a pile from the hand and from the
// discard pile, and a wild only when the exact card is missing.
func (pl *stPlanner) options(depth, pile int, val float64, exact, wild, top stacks.Card) {
	has := false
	if pl.hand[exact] > 0 {
		pl.try(depth, exact, false, pile, val)
		has = true
	}
	if top == exact {
		pl.try(depth, exact, true, pile, val)
		has = true
	}
	if has {
		return
	}
	if pl.hand[wild] > 0 {
		pl.try(depth, wild, false, pile, val)
	}
	if top == wild {
		pl.try(depth, wild, true, pile, val)
	}
}

// try plays c on pile (or a new pile), searches on, and takes it back.
func (pl *stPlanner) try(depth int, c stacks.Card, fromDisc bool, pile int, val float64) {
	piles, nPiles, chips, supply, first := pl.piles, pl.nPiles, pl.chips, pl.supply, pl.first
	prm := pl.p.prm
	gain := 0.0
	// Card flow is worth something only while there are fresh cards to
	// draw; with none, playing cards round in a circle (the same cards come
	// back from the set-aside pile) gains nothing.
	fresh := pl.p.deckN > 0
	if fromDisc {
		pl.discN--
		if fresh {
			gain += prm.fromDisc
		}
	} else {
		pl.hand[c]--
		pl.handN--
		if fresh {
			gain += prm.fromHand
		}
	}
	if c.IsWild() {
		gain -= prm.wildCost
	}
	col := c.Color()
	next := pile
	switch {
	case pile == stacks.NewPile:
		next = pl.nPiles
		pl.piles[pl.nPiles] = stPile{col: col, h: 1}
		pl.nPiles++
	case pl.piles[pile].h == stacks.PileLength-1:
		// Completion: the pile leaves, and the chip (if any) is ours.
		copy(pl.piles[pile:], pl.piles[pile+1:pl.nPiles])
		pl.nPiles--
		if pl.supply[col] > 0 {
			before := need(pl.chips[0], pl.chips[1])
			pl.chips[col]++
			after := need(pl.chips[0], pl.chips[1])
			switch {
			case after == 0:
				gain += stWinValue
			case after < before:
				gain += stChipValue * (1 + 0.5*float64(stacks.ChipsToWin-after)/stacks.ChipsToWin)
			default:
				gain++
			}
			pl.supply[col]--
		}
	default:
		pl.piles[pile].h++
	}
	if pl.handN == 0 && pl.p.deckN >= stacks.HandSize {
		gain += prm.emptyHand
	}
	if depth == 0 {
		if fromDisc {
			pl.first = stacks.PlayDiscard(pl.p.seat, c, pile)
		} else {
			pl.first = stacks.Play(pl.p.seat, c, pile)
		}
	}
	pl.dfs(depth+1, next, val+gain)
	pl.piles, pl.nPiles, pl.chips, pl.supply, pl.first = piles, nPiles, chips, supply, first
	if fromDisc {
		pl.discN++
	} else {
		pl.hand[c]++
		pl.handN++
	}
}

func numberCard(col stacks.Color, n int) stacks.Card {
	return stacks.R1 + 6*stacks.Card(col) + stacks.Card(n-1)
}

func wildOf(col stacks.Color) stacks.Card { return stacks.RW + 6*stacks.Card(col) }
