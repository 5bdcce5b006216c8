package stacks

import "fmt"

// Validate checks the state's invariants: the ones every state reachable by
// legal moves keeps, whether it came from New or from a position. Tests call
// it after every move; FromPosition calls it on what it built.
func (s *State) Validate() error {
	n := int(s.players)
	if n < MinPlayers || n > MaxPlayers {
		return fmt.Errorf("%d players", n)
	}
	if int(s.turn) >= n || (s.dir != 1 && s.dir != -1) || s.playCap == 0 {
		return fmt.Errorf("turn %d, direction %d, play cap %d", s.turn, s.dir, s.playCap)
	}
	comp := Composition(n)
	var cards [NumKinds]int
	add := func(where string, cs []Card) error {
		for _, c := range cs {
			if !c.Valid() {
				return fmt.Errorf("%s holds %v", where, c)
			}
			cards[c]++
		}
		return nil
	}
	for p := 0; p < MaxPlayers; p++ {
		sum := 0
		var mask uint32
		for c := R1; c < numKinds; c++ {
			sum += int(s.hands[p][c])
			cards[c] += int(s.hands[p][c])
			if s.hands[p][c] > 0 {
				mask |= 1 << c
			}
		}
		if mask != s.handMask[p] {
			return fmt.Errorf("seat %d: hand mask %b, cards %b", p, s.handMask[p], mask)
		}
		if s.hands[p][NoCard] != 0 || sum != int(s.handN[p]) {
			return fmt.Errorf("seat %d: hand size %d, cards %d", p, s.handN[p], sum)
		}
		if s.skipped[p] > 1 {
			return fmt.Errorf("seat %d: skip flag %d", p, s.skipped[p])
		}
		if p >= n && (sum != 0 || s.discards[p].n != 0 || s.chips[p] != [2]uint8{} || s.skipped[p] != 0) {
			return fmt.Errorf("seat %d is not at the table but holds something", p)
		}
		if err := s.discards[p].check("discard pile"); err != nil {
			return fmt.Errorf("seat %d: %w", p, err)
		}
		if err := add("discard pile", s.discards[p].cards()); err != nil {
			return fmt.Errorf("seat %d: %w", p, err)
		}
	}
	if err := s.deck.check("deck"); err != nil {
		return err
	}
	if err := s.setaside.check("setaside"); err != nil {
		return err
	}
	if err := add("deck", s.deck.cards()); err != nil {
		return err
	}
	if err := add("setaside", s.setaside.cards()); err != nil {
		return err
	}
	if err := s.checkPiles(); err != nil {
		return err
	}
	for i := 0; i < int(s.nPiles); i++ {
		if err := add("pile", s.piles[i].cards[:s.piles[i].n]); err != nil {
			return err
		}
	}
	for c := R1; c < numKinds; c++ {
		if cards[c] > comp[c] {
			return fmt.Errorf("%d %s cards, the box holds %d", cards[c], c, comp[c])
		}
	}
	for col := Red; col <= Blue; col++ {
		held := int(s.supply[col])
		for p := 0; p < n; p++ {
			held += int(s.chips[p][col])
		}
		if held > ChipsPerColor {
			return fmt.Errorf("%d %s chips", held, col)
		}
	}
	return s.checkPhase()
}

func (st *stack) check(name string) error {
	if int(st.n) > MaxCards {
		return fmt.Errorf("%s holds %d cards", name, st.n)
	}
	for _, c := range st.c[st.n:] {
		if c != NoCard {
			return fmt.Errorf("%s: a card beyond its top", name)
		}
	}
	return nil
}

func (s *State) checkPiles() error {
	if s.nPiles > MaxPiles {
		return fmt.Errorf("%d piles", s.nPiles)
	}
	var per [2]int
	for i := 0; i < MaxPiles; i++ {
		pl := s.piles[i]
		if i >= int(s.nPiles) {
			if pl != (pile{}) {
				return fmt.Errorf("pile slot %d is not empty", i)
			}
			continue
		}
		if pl.col > Blue || pl.n == 0 || pl.n >= PileLength {
			return fmt.Errorf("pile %d: colour %d, %d cards", i, pl.col, pl.n)
		}
		per[pl.col]++
		for j, c := range pl.cards {
			want := j < int(pl.n)
			if want && c != numberCard(pl.col, j+1) && c != wildOf(pl.col) {
				return fmt.Errorf("pile %d: card %d is %v", i, j, c)
			}
			if !want && c != NoCard {
				return fmt.Errorf("pile %d: a card above its top", i)
			}
		}
	}
	if per[Red] > 2 || per[Blue] > 2 {
		return fmt.Errorf("%d red and %d blue piles", per[Red], per[Blue])
	}
	return nil
}

func (s *State) checkPhase() error {
	n := int(s.players)
	for p := 0; p < n; p++ {
		w := wins(int(s.chips[p][Red]), int(s.chips[p][Blue]))
		if w && !(s.phase == PhaseWon && int(s.winner) == p) {
			return fmt.Errorf("seat %d meets the winning condition but the game is %s", p, s.phase)
		}
	}
	if s.phase != PhaseWindow && (s.answered != 0 || s.winColor != 0) {
		return fmt.Errorf("block window fields set in %s", s.phase)
	}
	if (s.phase == PhaseWon) != (s.winner >= 0) {
		return fmt.Errorf("phase %s with winner %d", s.phase, s.winner)
	}
	switch s.phase {
	case PhasePlay:
		if s.handN[s.turn] == 0 && (s.deck.n > 0 || s.setaside.n > 0) {
			return fmt.Errorf("seat %d plays with an empty hand while there are cards to draw", s.turn)
		}
		if s.turns >= s.playCap {
			return fmt.Errorf("playing past the play cap")
		}
	case PhaseWindow:
		if s.winColor > Blue || s.answered&^s.othersMask() != 0 || s.answered == s.othersMask() {
			return fmt.Errorf("block window: colour %d, answered %b", s.winColor, s.answered)
		}
	case PhaseWon:
		if int(s.winner) >= n {
			return fmt.Errorf("winner %d", s.winner)
		}
	case PhaseDrawn:
	default:
		return fmt.Errorf("phase %d", s.phase)
	}
	return nil
}
