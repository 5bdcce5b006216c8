package sequence

import "fmt"

// Legal reports whether seat may make move m now, and if not, why. s is not
// modified (it is a pointer only to spare copying the state).
func Legal(s *State, seat int, m Move) error {
	_, err := s.check(seat, m)
	return err
}

func illegal(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrIllegalMove, fmt.Sprintf(format, args...))
}

// check validates m for seat and, for a placement, returns the windows it
// will lock.
func (s *State) check(seat int, m Move) (WindowSet, error) {
	if err := m.wellFormed(); err != nil {
		return 0, err
	}
	if s.cfg.Players == 0 {
		return 0, fmt.Errorf("%w: the zero State is not a game", ErrSetup)
	}
	if s.status != Playing {
		return 0, fmt.Errorf("%w (%v)", ErrGameOver, s.status)
	}
	if m.Kind == KindPenalize {
		if seat != Referee {
			return 0, fmt.Errorf("%w: only the referee (seat %d) may penalize", ErrNotYourTurn, Referee)
		}
		if int(m.Team) < 0 || int(m.Team) >= s.cfg.Teams {
			return 0, fmt.Errorf("%w: no team %d in a %d-team game", ErrMalformedMove, m.Team, s.cfg.Teams)
		}
		return 0, nil
	}
	if seat != int(s.turn) {
		return 0, fmt.Errorf("%w: it is seat %d's turn, not seat %d's", ErrNotYourTurn, s.turn, seat)
	}
	if m.Card != NoCard && !s.holds(seat, m.Card) {
		return 0, fmt.Errorf("%w: seat %d does not hold %v", ErrNotInHand, seat, m.Card)
	}
	if s.due > 0 && m.Kind != KindDiscard {
		return 0, illegal("seat %d must first discard %d card(s) for a table-talk penalty", seat, s.due)
	}
	team := s.TeamOf(seat)
	switch m.Kind {
	case KindPlace:
		if err := s.checkPlace(m); err != nil {
			return 0, err
		}
		return chooseWindows(s.candidates(team, m.Cell), m.Windows)
	case KindRemove:
		return 0, s.checkRemove(team, m)
	case KindExchange:
		switch {
		case s.exchanged:
			return 0, illegal("a dead card may be exchanged only once per turn")
		case !m.Card.OnBoard():
			return 0, illegal("%v is not on the board, so it is never dead", m.Card)
		case !s.dead(m.Card):
			c := cellsOf[m.Card]
			return 0, illegal("%v is not dead: one of its cells %v, %v is empty", m.Card, c[0], c[1])
		}
		return 0, nil
	case KindPass:
		if s.canPlay(seat) {
			return 0, illegal("seat %d has a legal play, so it may not pass", seat)
		}
		return 0, nil
	default: // KindDiscard
		if s.due == 0 {
			return 0, illegal("seat %d owes no penalty discard", seat)
		}
		return 0, nil
	}
}

func (s *State) checkPlace(m Move) error {
	p := m.Cell
	switch {
	case m.Card.IsOneEyed():
		return illegal("%v removes a chip; it cannot place one", m.Card)
	case m.Card.IsTwoEyed() && isCorner[p]:
		return illegal("%v may not go on the corner %v", m.Card, p)
	case m.Card.OnBoard() && cellsOf[m.Card][0] != p && cellsOf[m.Card][1] != p:
		c := cellsOf[m.Card]
		return illegal("%v goes on %v or %v, not %v", m.Card, c[0], c[1], p)
	case s.board[p] != Empty:
		return illegal("%v is taken", p)
	}
	return nil
}

func (s *State) checkRemove(team int, m Move) error {
	p := m.Cell
	switch q := s.board[p]; {
	case !m.Card.IsOneEyed():
		return illegal("%v places a chip; only a one-eyed jack or W- removes one", m.Card)
	case q == Empty || q == Corner:
		return illegal("%v holds no chip to remove", p)
	case q.Team() == team:
		return illegal("%v holds the mover's own team's chip", p)
	case s.locked.has(p):
		return illegal("the chip on %v belongs to a completed sequence and is locked", p)
	}
	return nil
}

// holds reports whether seat holds card.
func (s *State) holds(seat int, card Card) bool {
	for _, c := range s.hands[seat][:s.handN[seat]] {
		if c == card {
			return true
		}
	}
	return false
}

// dead reports whether both cells of a board card are taken (rules.md 1.5.1).
func (s *State) dead(card Card) bool {
	c := cellsOf[card]
	return s.board[c[0]] != Empty && s.board[c[1]] != Empty
}

// removable is the set of chips team may take off: other teams' unlocked chips.
func (t *Table) removable(team int) bitboard {
	var all bitboard
	for i := 0; i < t.cfg.Teams; i++ {
		if i != team {
			all = all.or(t.chips[i])
		}
	}
	return all.andNot(t.locked)
}

// canPlay reports whether seat has any placement or removal.
func (s *State) canPlay(seat int) bool {
	team := s.TeamOf(seat)
	for _, c := range s.hands[seat][:s.handN[seat]] {
		switch classOf[c] {
		case classBoard:
			if !s.dead(c) {
				return true
			}
		case classTwoEyed:
			if !s.open.empty() {
				return true
			}
		case classOneEyed:
			if !s.removable(team).empty() {
				return true
			}
		}
	}
	return false
}
