package sequence

import (
	"fmt"
)

// cardCounts counts every card in the draw pile, the hands and the discard
// piles: the cards in play, which no move may create or destroy.
func cardCounts(s *State) [numCards]int {
	var n [numCards]int
	for _, c := range s.deck[:s.deckN] {
		n[c]++
	}
	for seat := 0; seat < s.cfg.Players; seat++ {
		for _, c := range s.hands[seat][:s.handN[seat]] {
			n[c]++
		}
	}
	for _, c := range s.discards[:s.discardN] {
		n[c]++
	}
	return n
}

// fullDeckCounts is what cardCounts must be in a game dealt by NewGame.
func fullDeckCounts(v Variant) [numCards]int {
	var n [numCards]int
	for c := Card(1); c < numCards; c++ {
		n[c] = copiesInDeck(v, c)
	}
	return n
}

// checkInvariants checks what must hold after every move. prev is the state
// before the move (nil for none); cards is the count of cards in play.
func checkInvariants(s, prev *State, cards [numCards]int) error {
	if got := cardCounts(s); got != cards {
		return fmt.Errorf("cards not conserved: got %v, want %v", got, cards)
	}
	// The board, its bitboards and the corners agree.
	var chips [MaxTeams]bitboard
	var open bitboard
	for c := Cell(0); c < Cells; c++ {
		q := s.board[c]
		switch {
		case isCorner[c] != (q == Corner):
			return fmt.Errorf("%v holds %d; corners hold Corner and nothing else does", c, q)
		case q == Empty:
			open.set(c)
		case q.Team() >= 0 && q.Team() < s.cfg.Teams:
			chips[q.Team()].set(c)
		case q != Corner:
			return fmt.Errorf("%v holds %d, not a square of a %d-team game", c, q, s.cfg.Teams)
		}
	}
	if open != s.open || chips != s.chips {
		return fmt.Errorf("bitboards disagree with the board")
	}
	// Locked chips never leave.
	if prev != nil {
		for c := Cell(0); c < Cells; c++ {
			if prev.locked.has(c) && (!s.locked.has(c) || s.board[c] != prev.board[c]) {
				return fmt.Errorf("locked chip on %v left or unlocked", c)
			}
		}
	}
	// Recount the sequences the slow way: every recorded window is five of
	// the team's cells, a team's windows share at most one cell, no window
	// the team could still claim is left unrecorded, and the locked cells
	// are exactly the recorded windows' chips.
	var locked bitboard
	for team := 0; team < s.cfg.Teams; team++ {
		list := s.seqs[team][:s.seqN[team]]
		for i, w := range list {
			if !w.Valid() || !s.fullFor(team, w) {
				return fmt.Errorf("team %d's sequence %v is not five of its cells", team, w)
			}
			for _, o := range list[:i] {
				if overlap(o, w) > 1 {
					return fmt.Errorf("team %d's sequences %v and %v share %d cells", team, o, w, overlap(o, w))
				}
			}
			for _, c := range w.Cells() {
				if !isCorner[c] {
					locked.set(c)
				}
			}
		}
		if w, ok := bruteForceUnclaimed(s, team); ok {
			return fmt.Errorf("team %d's five in a row %v was never claimed", team, w)
		}
		reached := len(list) >= s.cfg.Options.SequencesToWin
		if reached != (s.status == Won && int(s.winner) == team) {
			return fmt.Errorf("team %d has %d sequences, target %d, but status %v winner %d", team, len(list), s.cfg.Options.SequencesToWin, s.status, s.winner)
		}
	}
	if locked != s.locked {
		return fmt.Errorf("locked cells %v, want the sequences' chips %v", s.locked.appendCells(nil), locked.appendCells(nil))
	}
	// Sizes stay in range and unused slots stay zero, so == means equal games.
	for seat := 0; seat < MaxPlayers; seat++ {
		if seat >= s.cfg.Players && s.handN[seat] != 0 || int(s.handN[seat]) > int(s.dealSize) {
			return fmt.Errorf("seat %d holds %d cards", seat, s.handN[seat])
		}
		for i := int(s.handN[seat]); i < MaxHand; i++ {
			if s.hands[seat][i] != NoCard {
				return fmt.Errorf("seat %d has a stale card in slot %d", seat, i)
			}
		}
	}
	for i := int(s.deckN); i < MaxCards; i++ {
		if s.deck[i] != NoCard {
			return fmt.Errorf("stale card in deck slot %d", i)
		}
	}
	for i := int(s.discardN); i < MaxCards; i++ {
		if s.discards[i] != NoCard || s.discardSeat[i] != 0 {
			return fmt.Errorf("stale card in discard slot %d", i)
		}
	}
	if int(s.turn) >= s.cfg.Players || int(s.passes) > s.cfg.Players {
		return fmt.Errorf("turn %d, passes %d out of range", s.turn, s.passes)
	}
	return nil
}

// allWindows lists every five-cell line of the board, worked out here
// independently of the engine's tables.
var allWindows = func() (out [][WindowLen]Cell) {
	for row := 0; row < Side; row++ {
		for col := 0; col < Side; col++ {
			for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
				var w [WindowLen]Cell
				ok := true
				for k := range w {
					w[k] = CellAt(col+k*d[1], row+k*d[0])
					ok = ok && w[k] != NoCell
				}
				if ok {
					out = append(out, w)
				}
			}
		}
	}
	return out
}()

// bruteForceUnclaimed finds a window of five of team's cells sharing at
// most one cell with each of its recorded sequences, by scanning every
// window of the board.
func bruteForceUnclaimed(s *State, team int) ([WindowLen]Cell, bool) {
next:
	for _, cells := range allWindows {
		for _, c := range cells {
			if s.board[c] != TeamA+Square(team) && !isCorner[c] {
				continue next
			}
		}
		for _, seq := range s.seqs[team][:s.seqN[team]] {
			shared := 0
			for _, a := range seq.Cells() {
				for _, b := range cells {
					if a == b {
						shared++
					}
				}
			}
			if shared > 1 {
				continue next
			}
		}
		return cells, true
	}
	return [WindowLen]Cell{}, false
}
