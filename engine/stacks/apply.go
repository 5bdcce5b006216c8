package stacks

import "github.com/seqleague/seqleague/engine/rng"

// Apply plays m if it is legal. A refused move leaves the state exactly as it
// was: everything is checked before anything changes.
func (s *State) Apply(m Move) error {
	if err := s.Legal(m); err != nil {
		return err
	}
	s.apply(m)
	return nil
}

// apply plays a move already known to be legal (from LegalMoves or checked by
// Legal); self-play calls it directly to skip the second check.
func (s *State) apply(m Move) {
	switch m.Kind {
	case MovePlay:
		s.play(m)
	case MoveDiscard:
		p := int(s.turn)
		s.takeFromHand(p, m.Card)
		s.discards[p].push(m.Card)
		s.fillHand(p)
		s.endTurn()
	case MoveEndTurn:
		s.endTurn()
	case MoveBlock:
		b := int(m.Seat)
		s.takeFromHand(b, Block)
		s.setaside.push(Block)
		// The blocker draws no replacement: it fills its hand at the end of
		// its own next turn like everybody else (rules.md 2.3).
		s.endWindow()
		s.refillIfEmpty()
	case MoveNoBlock:
		s.answered |= 1 << m.Seat
		if s.answered == s.othersMask() {
			s.closeWindow()
		}
	case MoveClose:
		s.closeWindow()
	}
}

func (s *State) play(m Move) {
	p := int(s.turn)
	c := m.Card
	if m.FromDiscard {
		s.discards[p].pop()
	} else {
		s.takeFromHand(p, c)
	}
	switch c {
	case Skip:
		// The next player is fixed when SKIP is played: a later REVERSE in
		// the same turn does not move the skip to someone else. Skips do not
		// stack (see doc.go).
		s.skipped[s.next(p)] = 1
		s.setaside.push(c)
	case Reverse:
		s.dir = -s.dir
		s.setaside.push(c)
	case StealCard:
		t := int(m.Target)
		if m.Take == TakeDiscard {
			s.giveToHand(p, s.discards[t].pop())
		} else {
			s.giveToHand(p, s.takeRandom(t))
		}
		s.setaside.push(c)
	case StealChip:
		s.chips[m.Target][m.Color]--
		s.chips[p][m.Color]++
		s.setaside.push(c)
	default:
		s.playOnPile(c, int(m.Pile))
	}
	s.refillIfEmpty()
}

func (s *State) playOnPile(c Card, i int) {
	if i == NewPile {
		i = int(s.nPiles)
		s.nPiles++
		s.piles[i] = pile{col: c.Color()}
	}
	pl := &s.piles[i]
	if int(pl.n) < PileLength-1 {
		pl.cards[pl.n] = c
		pl.n++
		return
	}
	// Completion: the five cards go to the set-aside pile, bottom first, and
	// the pile leaves the table; the piles after it move down one index.
	for _, pc := range pl.cards {
		s.setaside.push(pc)
	}
	s.setaside.push(c)
	col := pl.col
	copy(s.piles[i:], s.piles[i+1:s.nPiles])
	s.nPiles--
	s.piles[s.nPiles] = pile{}
	s.phase = PhaseWindow
	s.winColor = col
	s.answered = 0
}

// closeWindow ends a block window without a block: the chip is granted now,
// not at the completion, so a block can still deny a winning chip; and a win
// from it ends the game at once.
func (s *State) closeWindow() {
	p := int(s.turn)
	col := s.winColor
	s.endWindow()
	if s.supply[col] > 0 {
		s.supply[col]--
		s.chips[p][col]++
		if wins(int(s.chips[p][Red]), int(s.chips[p][Blue])) {
			s.phase = PhaseWon
			s.winner = int8(p)
			return
		}
	}
	s.refillIfEmpty()
}

// refillIfEmpty keeps the rule of 2.2.2 as an invariant: in PhasePlay the
// player whose turn it is never holds an empty hand while there is anything
// to draw. It covers the hand emptied by a play, the turn that starts with an
// empty hand, and cards reaching the set-aside pile while the hand is empty.
// In a block window it waits: the window is a pause, and the game may end.
func (s *State) refillIfEmpty() {
	if s.phase == PhasePlay && s.handN[s.turn] == 0 {
		s.fillHand(int(s.turn))
	}
}

func (s *State) endWindow() {
	s.phase = PhasePlay
	s.answered = 0
	s.winColor = 0
}

func (s *State) othersMask() uint8 {
	return uint8(1<<s.players-1) &^ (1 << s.turn)
}

func (s *State) endTurn() {
	s.turns++
	if s.turns >= s.playCap {
		s.phase = PhaseDrawn
		return
	}
	// The loop ends because every pass over a skipped seat clears its skip.
	n := s.next(int(s.turn))
	for s.skipped[n] != 0 {
		s.skipped[n] = 0
		n = s.next(n)
	}
	s.turn = uint8(n)
	s.refillIfEmpty()
}

func (s *State) takeFromHand(p int, c Card) {
	s.hands[p][c]--
	s.handN[p]--
	if s.hands[p][c] == 0 {
		s.handMask[p] &^= 1 << c
	}
}

func (s *State) giveToHand(p int, c Card) {
	s.hands[p][c]++
	s.handN[p]++
	s.handMask[p] |= 1 << c
}

// takeRandom removes a uniformly random card from seat t's hand, drawn with
// the state's generator over the hand in kind order, so it replays exactly.
func (s *State) takeRandom(t int) Card {
	k := s.rng.IntN(int(s.handN[t]))
	h := &s.hands[t]
	for c := R1; c < numKinds; c++ {
		if k < int(h[c]) {
			s.takeFromHand(t, c)
			return c
		}
		k -= int(h[c])
	}
	panic("stacks: hand count out of step with its cards")
}

// fillHand draws until seat p holds five cards or nothing is left to draw.
func (s *State) fillHand(p int) {
	for s.handN[p] < HandSize && s.draw(p) {
	}
}

// draw moves the top of the draw pile to p's hand, first turning the
// set-aside pile into a new shuffled draw pile if the draw pile is empty
// (rules.md 2.2.4). It reports false when both are empty.
func (s *State) draw(p int) bool {
	if s.deck.n == 0 {
		if s.setaside.n == 0 {
			return false
		}
		s.reshuffle()
	}
	s.giveToHand(p, s.deck.pop())
	return true
}

// reshuffle moves the set-aside pile, in its order, into the empty draw pile
// and shuffles it with the state's generator.
func (s *State) reshuffle() {
	n := s.setaside.n
	copy(s.deck.c[:n], s.setaside.c[:n])
	clear(s.setaside.c[:n])
	s.deck.n, s.setaside.n = n, 0
	rng.Shuffle(&s.rng, s.deck.c[:n])
}
