package bot

import (
	"github.com/seqleague/seqleague/engine/stacks"
)

// stPos is what the Stacks heuristics read: one seat's knowledge of the
// table, built from its view (or, in a roll-out, from the sampled state
// through the same view).
type stPos struct {
	n, seat, turn, dir int
	phase              stacks.Phase
	winColor           stacks.Color
	piles              [stacks.MaxPiles]stPile
	nPiles             int
	hand               [stacks.NumKinds]int
	handN              int
	disc               []stacks.Card // the seat's own discard pile, bottom first
	chips              [stacks.MaxPlayers][2]int
	supply             [2]int
	handSizes          [stacks.MaxPlayers]int
	discTop            [stacks.MaxPlayers]stacks.Card
	skipped            [stacks.MaxPlayers]bool
	deckN, setAsideN   int
	prm                *stParams
}

type stPile struct {
	col stacks.Color
	h   int
}

func (p *stPos) fromView(v *stacks.View, prm *stParams) {
	*p = stPos{n: v.Players, seat: v.Seat, turn: v.Turn, dir: v.Direction, phase: v.Phase, prm: prm,
		deckN: v.DeckSize, setAsideN: len(v.SetAside)}
	if v.Window != nil {
		p.winColor = v.Window.Color
	}
	for i, pl := range v.Piles {
		if i < stacks.MaxPiles {
			p.piles[i] = stPile{col: pl.Color, h: len(pl.Cards)}
			p.nPiles++
		}
	}
	for _, c := range v.Hand {
		p.hand[c]++
		p.handN++
	}
	if v.Seat >= 0 && v.Seat < len(v.Discards) {
		p.disc = v.Discards[v.Seat]
	}
	for s := 0; s < v.Players; s++ {
		p.chips[s] = [2]int{v.Chips[s].Red, v.Chips[s].Blue}
		p.handSizes[s] = v.HandSizes[s]
		p.skipped[s] = v.Skipped[s]
		if d := v.Discards[s]; len(d) > 0 {
			p.discTop[s] = d[len(d)-1]
		}
	}
	p.supply = [2]int{v.Supply.Red, v.Supply.Blue}
}

// need is how many more chips a holding of red and blue needs to win: five
// in all with at least two of each colour.
func need(red, blue int) int {
	return max(stacks.ChipsToWin-red-blue, max(0, stacks.ChipsEachColor-red)+max(0, stacks.ChipsEachColor-blue))
}

func (p *stPos) need(seat int) int { return need(p.chips[seat][0], p.chips[seat][1]) }

// chipGain is how much one more chip of col brings seat nearer a win: 1 if
// it lowers the need, else 0.
func (p *stPos) chipGain(seat int, col stacks.Color) int {
	c := p.chips[seat]
	before := need(c[0], c[1])
	c[col]++
	return before - need(c[0], c[1])
}

// chipValue is what one more chip of col is worth to seat: a win is worth
// everything, a useful chip a lot, and one the seat does not need little.
func (p *stPos) chipValue(seat int, col stacks.Color) float64 {
	c := p.chips[seat]
	before := need(c[0], c[1])
	c[col]++
	after := need(c[0], c[1])
	switch {
	case after == 0:
		return stWinValue
	case after < before:
		return stChipValue * (1 + 0.5*float64(stacks.ChipsToWin-after)/stacks.ChipsToWin)
	}
	return 0
}

// next is the seat after seat in the current direction.
func (p *stPos) next(seat int) int { return ((seat+p.dir)%p.n + p.n) % p.n }
