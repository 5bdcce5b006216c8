package sequence

import "github.com/seqleague/seqleague/engine/rng"

// Apply returns the state after seat makes move m, or s unchanged and an
// error saying why the move is refused. It never modifies its argument.
func Apply(s State, seat int, m Move) (State, error) {
	err := s.Do(seat, m)
	return s, err
}

// Do applies m for seat in place. A refused move leaves s exactly as it was.
// Do is Apply without the copies, for loops that make many moves.
func (s *State) Do(seat int, m Move) error {
	chosen, err := s.check(seat, m)
	if err != nil {
		return err
	}
	s.apply(seat, m, chosen)
	return nil
}

// apply makes a move that check accepted.
func (s *State) apply(seat int, m Move, chosen WindowSet) {
	s.ply++
	switch m.Kind {
	case KindPlace:
		s.play(seat, m.Card, m.Cell)
		team := s.TeamOf(seat)
		s.board[m.Cell] = TeamA + Square(team)
		s.open.clear(m.Cell)
		s.chips[team].set(m.Cell)
		if chosen != 0 {
			s.claim(team, m.Cell, chosen)
			if int(s.seqN[team]) >= s.cfg.Options.SequencesToWin {
				// A winning play ends the game at once: no draw, and the
				// turn stays with the winner (rules.md 1.5.5).
				s.status, s.winner = Won, int8(team)
				return
			}
		}
		s.endPlay(seat)
	case KindRemove:
		s.play(seat, m.Card, m.Cell)
		team := s.board[m.Cell].Team()
		s.board[m.Cell] = Empty
		s.open.set(m.Cell)
		s.chips[team].clear(m.Cell)
		s.endPlay(seat)
	case KindExchange:
		s.takeFromHand(seat, m.Card)
		s.discard(seat, m.Card, NoCell)
		s.draw(seat)
		s.exchanged = true
	case KindPass:
		s.passes++
		if int(s.passes) >= s.cfg.Players {
			s.status = Drawn // a whole round of passes
		}
		s.nextTurn()
	case KindDiscard:
		s.takeFromHand(seat, m.Card)
		s.discard(seat, m.Card, NoCell)
		s.due--
	case KindPenalize:
		for p := int(m.Team); p < s.cfg.Players; p += s.cfg.Teams {
			if s.owed[p] < 255 {
				s.owed[p]++
			}
		}
	}
}

// play moves the card played from the hand to the mover's discard pile.
func (s *State) play(seat int, card Card, cell Cell) {
	s.takeFromHand(seat, card)
	s.discard(seat, card, cell)
	s.plays++
	s.passes = 0
}

// endPlay finishes a play that did not win: draw, check the play cap, and
// hand the turn on.
func (s *State) endPlay(seat int) {
	s.draw(seat)
	if int(s.plays) >= s.cfg.Options.PlayCap {
		s.status = Drawn
	}
	s.nextTurn()
}

// nextTurn hands the turn to the next seat and collects any table-talk
// penalty it owes.
func (s *State) nextTurn() {
	s.turn++
	if int(s.turn) >= s.cfg.Players {
		s.turn = 0
	}
	s.exchanged = false
	s.due = 0
	if owed := s.owed[s.turn]; owed > 0 {
		s.owed[s.turn] = 0
		s.due = min(owed, s.handN[s.turn]) // an empty hand has nothing left to lose
	}
}

// takeFromHand removes the first copy of card from the hand, keeping the
// others in order.
func (s *State) takeFromHand(seat int, card Card) {
	h := &s.hands[seat]
	n := int(s.handN[seat])
	for i := 0; i < n; i++ {
		if h[i] == card {
			copy(h[i:n], h[i+1:n])
			h[n-1] = NoCard
			s.handN[seat]--
			return
		}
	}
}

func (s *State) discard(seat int, card Card, cell Cell) {
	s.discards[s.discardN] = card
	s.discardSeat[s.discardN] = uint8(seat)
	s.discardCell[s.discardN] = cell
	s.discardN++
}

// draw gives seat the top card, reshuffling the discard piles into a new
// draw pile first if it is empty; with nothing to reshuffle, nothing is drawn.
func (s *State) draw(seat int) {
	if s.deckN == 0 {
		s.reshuffle()
		if s.deckN == 0 {
			return
		}
	}
	s.deckN--
	s.hands[seat][s.handN[seat]] = s.deck[s.deckN]
	s.deck[s.deckN] = NoCard
	s.handN[seat]++
}

// reshuffle gathers every discard pile into the draw pile — seat 0's pile
// bottom to top, then seat 1's, and so on, so that the result depends only
// on the piles and not on the order they grew in — and shuffles it.
func (s *State) reshuffle() {
	n := 0
	for seat := 0; seat < s.cfg.Players; seat++ {
		for i := 0; i < int(s.discardN); i++ {
			if int(s.discardSeat[i]) == seat {
				s.deck[n] = s.discards[i]
				n++
			}
		}
	}
	s.discards = [MaxCards]Card{}
	s.discardSeat = [MaxCards]uint8{}
	s.discardCell = [MaxCards]Cell{}
	s.discardN = 0
	rng.Shuffle(&s.rng, s.deck[:n])
	s.deckN = uint8(n)
}
