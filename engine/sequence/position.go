package sequence

import (
	"fmt"
	"strings"

	"github.com/seqleague/seqleague/engine/rng"
)

// Position is a game position in the rule-vector format (vectors.md): what
// a vector's "position" holds, and what a live game exports. The fields
// after Turn are this engine's extensions for positions caught in the middle
// of a turn; hand-written vectors leave them out (all zero).
type Position struct {
	Board     []string            `json:"board"`
	Sequences map[string][]Window `json:"sequences"`
	Hands     [][]Card            `json:"hands"`
	Discards  [][]Card            `json:"discards"` // per seat, bottom first
	Deck      []Card              `json:"deck"`     // top first
	Turn      int                 `json:"turn"`

	Exchanged     bool  `json:"exchanged,omitempty"`      // the mover has turned in a dead card this turn
	PenaltyDue    int   `json:"penalty_due,omitempty"`    // penalty discards the mover owes now
	PenaltiesOwed []int `json:"penalties_owed,omitempty"` // per seat, owed at the start of its next turn
	Passes        int   `json:"passes,omitempty"`         // consecutive passes so far
	Plays         int   `json:"plays,omitempty"`          // plays so far, for the play cap
}

// TeamLetter is a team's letter, "a" for team 0.
func TeamLetter(team int) string { return string(rune('a' + team)) }

// Position exports the position. The generator is not part of it: a
// position replays its rules, not its future shuffles.
func (s *State) Position() Position {
	p := Position{
		Board:      s.BoardRows(),
		Sequences:  map[string][]Window{},
		Hands:      make([][]Card, s.cfg.Players),
		Discards:   make([][]Card, s.cfg.Players),
		Deck:       s.Deck(),
		Turn:       int(s.turn),
		Exchanged:  s.exchanged,
		PenaltyDue: int(s.due),
		Passes:     int(s.passes),
		Plays:      int(s.plays),
	}
	for team := 0; team < s.cfg.Teams; team++ {
		if s.seqN[team] > 0 {
			p.Sequences[TeamLetter(team)] = s.Sequences(team)
		}
	}
	for seat := 0; seat < s.cfg.Players; seat++ {
		p.Hands[seat] = nonNil(s.Hand(seat))
		p.Discards[seat] = nonNil(s.Discards(seat))
		if s.owed[seat] > 0 && p.PenaltiesOwed == nil {
			p.PenaltiesOwed = make([]int, s.cfg.Players)
		}
	}
	if p.PenaltiesOwed != nil {
		for seat := range p.PenaltiesOwed {
			p.PenaltiesOwed[seat] = int(s.owed[seat])
		}
	}
	return p
}

func nonNil(cards []Card) []Card {
	if cards == nil {
		return []Card{}
	}
	return cards
}

// FromPosition sets up a game at a position. It refuses, wrapping ErrSetup,
// a configuration rules.md 1.3 does not allow and any position that cannot
// arise in play: a malformed board, a chip of a team not in the game, a
// sequence that is not five of the team's cells in a line or that shares
// more than one cell with another of the team's, a five-in-a-row the team
// could have claimed but did not, a hand larger than the deal, a card the
// deck does not hold or holds fewer copies of. A position where one team has
// reached the target is a won game. seed seeds later reshuffles.
func FromPosition(cfg Config, p Position, seed rng.Seed) (State, error) {
	cfg, err := cfg.Normalize()
	if err != nil {
		return State{}, err
	}
	s := State{Table: newTable(cfg), rng: rng.New(seed)}
	fail := func(format string, args ...any) (State, error) {
		return State{}, fmt.Errorf("%w: %s", ErrSetup, fmt.Sprintf(format, args...))
	}
	if err := s.setBoard(p.Board); err != nil {
		return State{}, err
	}
	if err := s.setSequences(p.Sequences); err != nil {
		return State{}, err
	}
	if len(p.Hands) > cfg.Players || len(p.Discards) > cfg.Players {
		return fail("%d hands and %d discard piles for %d seats", len(p.Hands), len(p.Discards), cfg.Players)
	}
	for seat, hand := range p.Hands {
		if len(hand) > int(s.dealSize) {
			return fail("seat %d holds %d cards; %d players are dealt %d each and hands never grow", seat, len(hand), cfg.Players, s.dealSize)
		}
		copy(s.hands[seat][:], hand)
		s.handN[seat] = uint8(len(hand))
	}
	total := len(p.Deck)
	for _, pile := range p.Discards {
		total += len(pile)
	}
	if total > MaxCards {
		return fail("%d cards in the draw and discard piles", total)
	}
	for seat, pile := range p.Discards {
		for _, c := range pile {
			s.discard(seat, c, NoCell)
		}
	}
	for i, c := range p.Deck {
		s.deck[len(p.Deck)-1-i] = c
	}
	s.deckN = uint8(len(p.Deck))
	if err := s.checkCards(); err != nil {
		return State{}, err
	}
	if p.Turn < 0 || p.Turn >= cfg.Players {
		return fail("turn %d: no such seat among %d", p.Turn, cfg.Players)
	}
	s.turn = uint8(p.Turn)
	if p.PenaltyDue < 0 || p.PenaltyDue > int(s.handN[s.turn]) {
		return fail("penalty_due %d with %d cards in hand", p.PenaltyDue, s.handN[s.turn])
	}
	if len(p.PenaltiesOwed) > cfg.Players {
		return fail("penalties_owed lists %d seats of %d", len(p.PenaltiesOwed), cfg.Players)
	}
	for seat, n := range p.PenaltiesOwed {
		if n < 0 || n > 255 {
			return fail("penalties_owed %d for seat %d", n, seat)
		}
		s.owed[seat] = uint8(n)
	}
	if p.Exchanged && p.PenaltyDue > 0 {
		// A penalty is due at the start of a turn and is paid first; a dead
		// card is turned in only after it.
		return fail("exchanged with a penalty discard still due")
	}
	if p.Passes < 0 || p.Passes > cfg.Players || p.Plays < 0 || p.Plays > cfg.Options.PlayCap {
		return fail("passes %d or plays %d out of range", p.Passes, p.Plays)
	}
	s.exchanged, s.due, s.passes, s.plays = p.Exchanged, uint8(p.PenaltyDue), uint8(p.Passes), uint32(p.Plays)
	if p.Passes == cfg.Players || p.Plays == cfg.Options.PlayCap {
		s.status = Drawn // a round of passes, or the play cap
	}
	for team := 0; team < cfg.Teams; team++ {
		if int(s.seqN[team]) < cfg.Options.SequencesToWin {
			continue
		}
		if s.status != Playing {
			if s.status == Drawn {
				return fail("team %s has won a drawn game", TeamLetter(team))
			}
			return fail("teams %s and %s have both reached %d sequences", TeamLetter(int(s.winner)), TeamLetter(team), cfg.Options.SequencesToWin)
		}
		s.status, s.winner = Won, int8(team)
	}
	return s, nil
}

func (s *State) setBoard(rows []string) error {
	if len(rows) != Side {
		return fmt.Errorf("%w: the board has %d rows, want %d", ErrSetup, len(rows), Side)
	}
	for r, row := range rows {
		if len(row) != Side {
			return fmt.Errorf("%w: board row %d is %q, want %d characters", ErrSetup, r+1, row, Side)
		}
		for col := 0; col < Side; col++ {
			c := CellAt(col, r)
			ch := row[col]
			switch {
			case (ch == '*') != isCorner[c]:
				return fmt.Errorf("%w: %v is %q; '*' marks the four corners and only them", ErrSetup, c, ch)
			case ch == '*' || ch == '.':
			case ch >= 'a' && int(ch-'a') < s.cfg.Teams:
				team := int(ch - 'a')
				s.board[c] = TeamA + Square(team)
				s.open.clear(c)
				s.chips[team].set(c)
			default:
				return fmt.Errorf("%w: %v is %q; want '.', '*' or a team letter a–%c", ErrSetup, c, ch, 'a'+s.cfg.Teams-1)
			}
		}
	}
	return nil
}

func (s *State) setSequences(seqs map[string][]Window) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrSetup, fmt.Sprintf(format, args...))
	}
	for letter := range seqs {
		if len(letter) != 1 || letter[0] < 'a' || int(letter[0]-'a') >= s.cfg.Teams {
			return fail("sequences of team %q, which is not in a %d-team game", letter, s.cfg.Teams)
		}
	}
	for team := 0; team < s.cfg.Teams; team++ {
		list := seqs[TeamLetter(team)]
		if len(list) > maxSequences {
			return fail("team %s lists %d sequences", TeamLetter(team), len(list))
		}
		mine := TeamA + Square(team)
		for i, w := range list {
			if !w.Valid() {
				return fail("team %s's sequence %v is not five cells on the board", TeamLetter(team), w)
			}
			for _, c := range w.Cells() {
				if q := s.board[c]; q != mine && q != Corner {
					return fail("team %s's sequence %v includes %v, which is not its chip", TeamLetter(team), w, c)
				}
			}
			for _, prev := range list[:i] {
				if overlap(prev, w) > 1 {
					return fail("team %s's sequences %v and %v share more than one cell", TeamLetter(team), prev, w)
				}
			}
			s.seqs[team][i] = w
			s.locked = s.locked.or(w.bits().andNot(cornerBits))
		}
		s.seqN[team] = uint8(len(list))
	}
	for team := 0; team < s.cfg.Teams; team++ {
		if w, ok := s.unclaimed(team); ok {
			return fail("team %s has five in a row on %v that is not listed as a sequence; a play that completes one always claims it", TeamLetter(team), w)
		}
	}
	return nil
}

// unclaimed finds a window of five of team's cells that shares at most one
// cell with each of its sequences and is not one of them. Play never leaves
// one (the placement that completed it would have claimed it or a window
// overlapping it), so a position holding one is impossible.
func (t *Table) unclaimed(team int) (Window, bool) {
	for start := Cell(0); start < Cells; start++ {
		for d := Dir(0); d < numDirs; d++ {
			w := Window{Start: start, Dir: d}
			if w.Valid() && t.fullFor(team, w) && t.claimable(team, w) {
				return w, true
			}
		}
	}
	return Window{}, false
}

// fullFor reports whether every cell of w holds team's chip or is a corner.
func (t *Table) fullFor(team int, w Window) bool {
	mine := TeamA + Square(team)
	for _, c := range w.Cells() {
		if q := t.board[c]; q != mine && q != Corner {
			return false
		}
	}
	return true
}

// String renders a position for humans: the board and the hands.
func (p Position) String() string {
	var b strings.Builder
	for _, row := range p.Board {
		b.WriteString(row)
		b.WriteByte('\n')
	}
	for seat, hand := range p.Hands {
		fmt.Fprintf(&b, "seat %d: %v\n", seat, hand)
	}
	return b.String()
}
