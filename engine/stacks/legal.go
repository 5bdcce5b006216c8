package stacks

import (
	"errors"
	"fmt"
	"math/bits"
)

// Every error Legal and Apply return wraps exactly one of these, so a server
// can map them to its own codes without reading the text.
var (
	// ErrGameOver: the game has ended; nothing more is legal.
	ErrGameOver = errors.New("stacks: the game is over")
	// ErrNotYourTurn: the seat may not act now.
	ErrNotYourTurn = errors.New("stacks: this seat may not act now")
	// ErrWindowOpen: a block window is open; only BLOCK, noblock and the
	// server's close are accepted until it closes.
	ErrWindowOpen = errors.New("stacks: a block window is open")
	// ErrIllegal: the move breaks a rule (the text says which).
	ErrIllegal = errors.New("stacks: illegal move")
)

func illegal(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrIllegal}, args...)...)
}

// MaxLegalMoves bounds the number of moves LegalMoves can return; a buffer of
// this capacity never grows.
const MaxLegalMoves = 128

// Legal reports whether m may be applied now, and why not. It never changes
// the state. It agrees exactly with LegalMoves: m is legal if and only if
// LegalMoves lists it.
func (s *State) Legal(m Move) error {
	if s.Over() {
		return ErrGameOver
	}
	switch m.Kind {
	case MoveBlock, MoveNoBlock, MoveClose:
		return s.legalWindow(m)
	case MovePlay, MoveDiscard, MoveEndTurn:
	default:
		return illegal("unknown move kind %d", m.Kind)
	}
	if s.phase == PhaseWindow {
		return fmt.Errorf("%w: the next move is BLOCK, noblock or the server's close", ErrWindowOpen)
	}
	if int(m.Seat) != int(s.turn) {
		return fmt.Errorf("%w: it is seat %d's turn, not seat %d's", ErrNotYourTurn, s.turn, m.Seat)
	}
	p := int(s.turn)
	switch m.Kind {
	case MoveDiscard:
		if m != Discard(p, m.Card) || !m.Card.Valid() {
			return illegal("malformed discard")
		}
		if s.hands[p][m.Card] == 0 {
			return illegal("seat %d holds no %s to discard", p, m.Card)
		}
		return nil
	case MoveEndTurn:
		if m != EndTurn(p) {
			return illegal("malformed end of turn")
		}
		if s.handN[p] > 0 {
			return illegal("the turn ends with a discard while the hand holds cards")
		}
		return nil
	}
	return s.legalPlay(p, m)
}

func (s *State) legalWindow(m Move) error {
	if s.phase != PhaseWindow {
		return illegal("no block window is open")
	}
	if m.Kind == MoveClose {
		if m != CloseWindow() {
			return illegal("only the server closes a block window")
		}
		return nil
	}
	seat := int(m.Seat)
	want := NoBlock(seat)
	if m.Kind == MoveBlock {
		want = BlockMove(seat)
	}
	if m != want {
		return illegal("malformed %s", m.Kind)
	}
	if seat < 0 || seat >= int(s.players) {
		return illegal("no seat %d", seat)
	}
	if seat == int(s.turn) {
		return fmt.Errorf("%w: the completer does not answer its own block window", ErrNotYourTurn)
	}
	if s.answered&(1<<seat) != 0 {
		return fmt.Errorf("%w: seat %d already answered noblock", ErrNotYourTurn, seat)
	}
	if m.Kind == MoveBlock && s.hands[seat][Block] == 0 {
		return illegal("seat %d holds no BLOCK", seat)
	}
	return nil
}

func (s *State) legalPlay(p int, m Move) error {
	c := m.Card
	if !c.Valid() || c == Block {
		return illegal("%s is not played on one's own turn", c)
	}
	if m.FromDiscard {
		if s.discards[p].top() != c {
			return illegal("%s is not the top of seat %d's discard pile", c, p)
		}
	} else if s.hands[p][c] == 0 {
		return illegal("seat %d holds no %s", p, c)
	}
	base := Move{Kind: MovePlay, Seat: m.Seat, Card: c, FromDiscard: m.FromDiscard}
	switch c {
	case Skip, Reverse:
		if m != base {
			return illegal("malformed %s", c)
		}
		return nil
	case StealCard:
		base.Target, base.Take = m.Target, m.Take
		if m != base || m.Take > TakeHand {
			return illegal("malformed STEAL_CARD")
		}
		t := int(m.Target)
		if err := s.legalTarget(p, t); err != nil {
			return err
		}
		if m.Take == TakeDiscard && s.discards[t].n == 0 {
			return illegal("seat %d's discard pile is empty", t)
		}
		if m.Take == TakeHand && s.handN[t] == 0 {
			return illegal("seat %d's hand is empty", t)
		}
		return nil
	case StealChip:
		base.Target, base.Color = m.Target, m.Color
		if m != base || m.Color > Blue {
			return illegal("malformed STEAL_CHIP")
		}
		t := int(m.Target)
		if err := s.legalTarget(p, t); err != nil {
			return err
		}
		if s.chips[t][m.Color] == 0 {
			return illegal("seat %d has no %s chip", t, m.Color)
		}
		if s.stealWins(p, m.Color) {
			return illegal("a stolen chip may not make the thief win")
		}
		return nil
	}
	base.Pile = m.Pile
	if m != base {
		return illegal("malformed play of %s", c)
	}
	return s.legalPile(c, int(m.Pile))
}

func (s *State) legalTarget(p, t int) error {
	if t < 0 || t >= int(s.players) || t == p {
		return illegal("target must be another seat, not %d", t)
	}
	return nil
}

func (s *State) stealWins(p int, col Color) bool {
	red, blue := int(s.chips[p][Red]), int(s.chips[p][Blue])
	if col == Red {
		red++
	} else {
		blue++
	}
	return wins(red, blue)
}

func (s *State) legalPile(c Card, pile int) error {
	col := c.Color()
	if pile == NewPile {
		if c.Number() != 1 && !c.IsWild() {
			return illegal("only a 1 or a wild starts a pile, not %s", c)
		}
		if s.pilesOf(col) >= 2 {
			return illegal("two %s piles are already on the table", col)
		}
		return nil
	}
	if pile < 0 || pile >= int(s.nPiles) {
		return illegal("there is no pile %d", pile)
	}
	pl := &s.piles[pile]
	if pl.col != col {
		return illegal("%s does not go on a %s pile", c, pl.col)
	}
	if !c.IsWild() && c.Number() != int(pl.n)+1 {
		return illegal("%s does not follow %d on pile %d", c, pl.n, pile)
	}
	return nil
}

func (s *State) pilesOf(col Color) int {
	n := 0
	for i := 0; i < int(s.nPiles); i++ {
		if s.piles[i].col == col {
			n++
		}
	}
	return n
}

// LegalMoves appends every legal move to buf[:0] and returns it, in a fixed
// order. It sees the whole state: in a block window it lists BLOCK only for
// seats holding one, so it is for the server, self-play and determinized
// bots, never for showing to a seat (use LegalMovesFor). With a buffer of
// capacity MaxLegalMoves it does not allocate.
func LegalMoves(s *State, buf []Move) []Move {
	buf = buf[:0]
	switch s.phase {
	case PhaseWindow:
		for seat := 0; seat < int(s.players); seat++ {
			buf = s.appendWindow(buf, seat)
		}
		return append(buf, CloseWindow())
	case PhasePlay:
		return s.listTurn(buf, int(s.turn))
	}
	return buf
}

// LegalMovesFor is the legal moves of one seat (Server included): what a
// client may offer that seat. A seat's own list depends only on what it can
// see.
func LegalMovesFor(s *State, seat int, buf []Move) []Move {
	buf = buf[:0]
	switch s.phase {
	case PhaseWindow:
		if seat == Server {
			return append(buf, CloseWindow())
		}
		if seat >= 0 && seat < int(s.players) {
			return s.appendWindow(buf, seat)
		}
	case PhasePlay:
		if seat == int(s.turn) {
			return s.listTurn(buf, seat)
		}
	}
	return buf
}

func (s *State) appendWindow(buf []Move, seat int) []Move {
	if seat == int(s.turn) || s.answered&(1<<seat) != 0 {
		return buf
	}
	if s.hands[seat][Block] > 0 {
		buf = append(buf, BlockMove(seat))
	}
	return append(buf, NoBlock(seat))
}

// moveList fills a fixed array: the turn's moves are written straight into
// the caller's buffer without append's capacity checks.
type moveList struct {
	a *[MaxLegalMoves]Move
	n int
}

// play adds a MovePlay. It writes the fields in place: building a Move in a
// local and copying it makes the CPU reload eight bytes it has just written
// one by one (a store-forwarding stall), which cost a third of LegalMoves.
func (l *moveList) play(seat int8, c Card, fromDiscard bool, pile, target int8, take Take, col Color) {
	e := &l.a[l.n]
	l.n++
	e.Kind, e.Seat, e.Card, e.FromDiscard = MovePlay, seat, c, fromDiscard
	e.Pile, e.Target, e.Take, e.Color = pile, target, take, col
}

// listTurn lists the moves of p's turn into buf, which it replaces with a
// buffer of capacity MaxLegalMoves if it is smaller.
func (s *State) listTurn(buf []Move, p int) []Move {
	if cap(buf) < MaxLegalMoves {
		buf = make([]Move, 0, MaxLegalMoves)
	}
	l := moveList{a: (*[MaxLegalMoves]Move)(buf[:MaxLegalMoves])}
	s.turnMoves(&l, p)
	return buf[:l.n]
}

// turnMoves lists the moves of p's turn: the plays, then the end of the
// turn (one discard per kind held, in kind order, or "/" with an empty hand).
func (s *State) turnMoves(l *moveList, p int) {
	s.playMoves(l, p)
	mask := s.handMask[p]
	if mask == 0 {
		l.a[l.n] = EndTurn(p)
		l.n++
		return
	}
	for m := mask; m != 0; m &= m - 1 {
		e := &l.a[l.n]
		l.n++
		*e = Move{}
		e.Kind, e.Seat, e.Card = MoveDiscard, int8(p), Card(bits.TrailingZeros32(m))
	}
}

// playMoves lists p's plays. It is the hot path of self-play and of bots'
// playouts, so it walks the (at most four) piles once and tests the hand's
// bitmask of kinds, rather than trying every card on every pile.
func (s *State) playMoves(l *moveList, p int) {
	seat := int8(p)
	mask := s.handMask[p]
	top := s.discards[p].top() // NoCard matches nothing below
	reds := 0
	for i := int8(0); i < int8(s.nPiles); i++ {
		pl := &s.piles[i]
		if pl.col == Red {
			reds++
		}
		next := numberCard(pl.col, int(pl.n)+1)
		wild := wildOf(pl.col)
		if mask&(1<<next) != 0 {
			l.play(seat, next, false, i, 0, 0, 0)
		}
		if mask&(1<<wild) != 0 {
			l.play(seat, wild, false, i, 0, 0, 0)
		}
		if top == next || top == wild {
			l.play(seat, top, true, i, 0, 0, 0)
		}
	}
	per := [2]int{reds, int(s.nPiles) - reds}
	for col := Red; col <= Blue; col++ {
		if per[col] >= 2 {
			continue
		}
		one, wild := numberCard(col, 1), wildOf(col)
		if mask&(1<<one) != 0 {
			l.play(seat, one, false, NewPile, 0, 0, 0)
		}
		if mask&(1<<wild) != 0 {
			l.play(seat, wild, false, NewPile, 0, 0, 0)
		}
		if top == one || top == wild {
			l.play(seat, top, true, NewPile, 0, 0, 0)
		}
	}
	for m := mask & specialMask; m != 0; m &= m - 1 {
		s.specialMoves(l, p, Card(bits.TrailingZeros32(m)), false)
	}
	if top.IsSpecial() {
		s.specialMoves(l, p, top, true)
	}
}

// specialMask has the bits of the specials played on one's own turn.
const specialMask = 1<<Skip | 1<<Reverse | 1<<StealCard | 1<<StealChip

func (s *State) specialMoves(l *moveList, p int, c Card, fromDiscard bool) {
	seat := int8(p)
	switch c {
	case Skip, Reverse:
		l.play(seat, c, fromDiscard, 0, 0, 0, 0)
	case StealCard:
		for t := int8(0); t < int8(s.players); t++ {
			if t == seat {
				continue
			}
			if s.discards[t].n > 0 {
				l.play(seat, c, fromDiscard, 0, t, TakeDiscard, 0)
			}
			if s.handN[t] > 0 {
				l.play(seat, c, fromDiscard, 0, t, TakeHand, 0)
			}
		}
	case StealChip:
		for t := int8(0); t < int8(s.players); t++ {
			if t == seat {
				continue
			}
			for col := Red; col <= Blue; col++ {
				if s.chips[t][col] > 0 && !s.stealWins(p, col) {
					l.play(seat, c, fromDiscard, 0, t, 0, col)
				}
			}
		}
	}
}

func (k MoveKind) String() string {
	switch k {
	case MovePlay:
		return "play"
	case MoveDiscard:
		return "discard"
	case MoveEndTurn:
		return "end turn"
	case MoveBlock:
		return "BLOCK"
	case MoveNoBlock:
		return "noblock"
	case MoveClose:
		return "close"
	}
	return fmt.Sprintf("MoveKind(%d)", uint8(k))
}
