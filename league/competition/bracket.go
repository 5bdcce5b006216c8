package competition

import (
	"fmt"
	"math"
	"slices"
)

// Section is the part of a bracket a match belongs to.
type Section string

// Sections.
const (
	SectionMain    Section = "main"        // single elimination
	SectionWinners Section = "winners"     // double elimination, upper bracket
	SectionLosers  Section = "losers"      // double elimination, lower bracket
	SectionFinal   Section = "final"       // double elimination grand final (and reset)
	SectionThird   Section = "third-place" // single elimination third-place match
)

// SlotSource says where a slot's entry comes from.
type SlotSource string

// Slot sources.
const (
	FromSeed   SlotSource = "seed"   // the entry seeded Slot.Seed
	FromWinner SlotSource = "winner" // the winner of match Slot.Match
	FromLoser  SlotSource = "loser"  // the loser of match Slot.Match
	FromBye    SlotSource = "bye"    // nobody
)

// Slot is one place in a match.
type Slot struct {
	Source SlotSource
	Seed   int    // FromSeed: the seed, 1-based
	Match  string // FromWinner, FromLoser: the match the entry comes from
	// Entry is the entry in the slot once known.
	Entry string
	// Empty: the slot is known to hold nobody (a bye, or the loser of a
	// match that was a walkover).
	Empty bool
}

// MatchState is where a bracket match stands.
type MatchState string

// Match states.
const (
	StatePending  MatchState = "pending"  // waiting for an earlier match
	StateReady    MatchState = "ready"    // its entries are known: play it
	StateDone     MatchState = "done"     // played; Winner is set
	StateWalkover MatchState = "walkover" // one entry and byes: it advances unplayed
	StateVoid     MatchState = "void"     // only byes: nobody advances
	StateSkipped  MatchState = "skipped"  // a grand-final reset that is not needed
)

// Match is one match of a bracket.
type Match struct {
	ID       string
	Section  Section
	Round    int // 1-based within the section
	Position int // 1-based within the round, top to bottom
	BestOf   int
	Slots    []Slot
	// Reset marks the grand-final reset: it is played only if the
	// losers-bracket champion (slot 1 of the first grand final) won it.
	Reset  bool
	State  MatchState
	Winner string
}

// Entries lists the entries in the match's slots, in slot order.
func (m Match) Entries() []string {
	var out []string
	for _, s := range m.Slots {
		if s.Entry != "" {
			out = append(out, s.Entry)
		}
	}
	return out
}

// BracketRound names a round of a section, for drawing.
type BracketRound struct {
	Section Section
	Number  int
	Name    string   // "Round 1", "Quarterfinals", "Losers round 3", "Grand final" …
	Matches []string // match IDs, top to bottom
}

// Bracket is an elimination bracket: every match with its slots, results
// and state. It is a value: Report returns a new bracket and leaves the
// old one untouched.
type Bracket struct {
	Format    Format
	MatchSize int
	Entries   []Entry // in seed order: Entries[i] is seed i+1
	Rounds    []BracketRound
	// Matches are listed so that every match comes after the matches its
	// slots come from.
	Matches []Match
}

// NewBracket builds the bracket of an elimination competition.
func NewBracket(c Config, entries []Entry) (Bracket, error) {
	if err := c.Validate(len(entries)); err != nil {
		return Bracket{}, err
	}
	switch c.Format {
	case FormatSingleElimination:
		return SingleElimination(entries, c.MatchSize, c.BestOf, c.ThirdPlace)
	case FormatDoubleElimination:
		return DoubleElimination(entries, c.BestOf, c.Reset)
	}
	return Bracket{}, invalidf("%s has no bracket of its own", c.Format)
}

// Match returns the match with the ID.
func (b Bracket) Match(id string) (Match, bool) {
	i := b.index(id)
	if i < 0 {
		return Match{}, false
	}
	return b.Matches[i], true
}

func (b Bracket) index(id string) int {
	return slices.IndexFunc(b.Matches, func(m Match) bool { return m.ID == id })
}

// Ready lists the matches to be played now.
func (b Bracket) Ready() []Match {
	var out []Match
	for _, m := range b.Matches {
		if m.State == StateReady {
			out = append(out, m)
		}
	}
	return out
}

// Done reports whether every match is decided.
func (b Bracket) Done() bool {
	for _, m := range b.Matches {
		if m.State == StatePending || m.State == StateReady {
			return false
		}
	}
	return true
}

// Champion is the bracket's winner, "" until it is decided.
func (b Bracket) Champion() string {
	if !b.Done() {
		return ""
	}
	for i := len(b.Matches) - 1; i >= 0; i-- {
		m := b.Matches[i]
		if m.Section == SectionThird || m.State == StateSkipped {
			continue
		}
		return m.Winner
	}
	return ""
}

// Report records the winner of a match played in full (or of its whole
// series) and returns the updated bracket. A decided match can be corrected
// as long as no match it feeds has been played.
func (b Bracket) Report(matchID, winner string) (Bracket, error) {
	i := b.index(matchID)
	if i < 0 {
		return b, invalidf("no match %q", matchID)
	}
	m := b.Matches[i]
	if m.State != StateReady && m.State != StateDone {
		return b, statef("match %s is %s", matchID, m.State)
	}
	if !slices.Contains(m.Entries(), winner) {
		return b, invalidf("%q does not play in match %s", winner, matchID)
	}
	if m.State == StateDone && m.Winner == winner {
		return b, nil
	}
	if m.State == StateDone {
		if err := b.checkCorrectable(matchID); err != nil {
			return b, err
		}
	}
	nb := b.clone()
	nb.Matches[i].Winner = winner
	nb.Matches[i].State = StateDone
	nb.resolve()
	return nb, nil
}

func (b Bracket) checkCorrectable(matchID string) error {
	for _, m := range b.Matches {
		for _, s := range m.Slots {
			if s.Match == matchID && (s.Source == FromWinner || s.Source == FromLoser) && m.State == StateDone {
				return statef("match %s feeds match %s, which has been played", matchID, m.ID)
			}
		}
	}
	return nil
}

func (b Bracket) clone() Bracket {
	nb := b
	nb.Matches = slices.Clone(b.Matches)
	for i := range nb.Matches {
		nb.Matches[i].Slots = slices.Clone(b.Matches[i].Slots)
	}
	return nb
}

// resolve fills every slot from its source and sets every match's state, in
// order (sources come first). A result stays only while its match still
// holds the same entries.
func (b *Bracket) resolve() {
	pos := make(map[string]int, len(b.Matches))
	for i := range b.Matches {
		m := &b.Matches[i]
		pos[m.ID] = i
		pending := false
		for si := range m.Slots {
			s := &m.Slots[si]
			s.Entry, s.Empty = "", false
			switch s.Source {
			case FromSeed:
				if s.Seed >= 1 && s.Seed <= len(b.Entries) {
					s.Entry = b.Entries[s.Seed-1].ID
				} else {
					s.Empty = true
				}
			case FromBye:
				s.Empty = true
			case FromWinner, FromLoser:
				at, ok := pos[s.Match]
				if !ok { // not an earlier match: the bracket is malformed
					pending = true
					continue
				}
				src := &b.Matches[at]
				switch src.State {
				case StatePending, StateReady:
					pending = true
				case StateVoid, StateSkipped:
					s.Empty = true
				case StateWalkover:
					if s.Source == FromWinner {
						s.Entry = src.Winner
					} else {
						s.Empty = true
					}
				case StateDone:
					if s.Source == FromWinner {
						s.Entry = src.Winner
					} else {
						s.Entry = loserOf(*src)
						s.Empty = s.Entry == ""
					}
				}
			}
		}
		entries := m.Entries()
		switch {
		case pending:
			m.State, m.Winner = StatePending, ""
		case m.Reset && !b.resetNeeded(pos, *m):
			// the winners-bracket champion won the first grand final
			m.State, m.Winner = StateSkipped, ""
		case len(entries) == 0:
			m.State, m.Winner = StateVoid, ""
		case len(entries) == 1:
			m.State, m.Winner = StateWalkover, entries[0]
		case m.Winner != "" && slices.Contains(entries, m.Winner):
			m.State = StateDone
		default:
			m.State, m.Winner = StateReady, ""
		}
	}
}

// resetNeeded: the first grand final (the source of the reset's slots) was
// won by the losers-bracket champion, its slot 1.
func (b *Bracket) resetNeeded(pos map[string]int, reset Match) bool {
	gf := b.Matches[pos[reset.Slots[0].Match]]
	return gf.Winner != gf.Slots[0].Entry
}

// loserOf is the loser of a decided match of two ("" otherwise).
func loserOf(m Match) string {
	es := m.Entries()
	if len(es) != 2 || m.Winner == "" {
		return ""
	}
	if es[0] == m.Winner {
		return es[1]
	}
	return es[0]
}

// SeriesWinner decides a best-of series among entries from the winners of
// its games so far ("" for a drawn game). An entry has won the series once
// its wins exceed every other entry's wins plus the games left of bestOf;
// after bestOf games, one leading alone has won. A series level after
// bestOf games stays undecided: how many more games it plays, if any, and
// who goes through when none decides it is the caller's rule (the package
// doc says the platform's). bestOf 0 is 1.
func SeriesWinner(bestOf int, entries, games []string) (string, bool) {
	bestOf = max(bestOf, 1)
	wins := make(map[string]int, len(entries))
	for _, g := range games {
		if g != "" {
			wins[g]++
		}
	}
	left := max(bestOf-len(games), 0)
	for _, e := range entries {
		clinched := true
		for _, o := range entries {
			if o != e && wins[e] <= wins[o]+left {
				clinched = false
				break
			}
		}
		if clinched {
			return e, true
		}
	}
	return "", false
}

// Placement is an entry's final place in a bracket.
type Placement struct {
	Place int // shared by entries out at the same stage
	Entry string
}

// Placements ranks the entries whose place is decided, best first: the
// champion 1, the runner-up 2, then the entries knocked out later ahead of
// those knocked out earlier, entries out at the same stage sharing a place
// (in single elimination with a third-place match its winner is 3 and its
// loser 4). Entries still in, and entries that never played (byes only),
// count as not out yet, so they have no place, and every entry knocked out
// places below them: two semi-final losers of four are 3 while the final
// is to play (they were 1, as if level with the finalists, in a bracket
// under way or cancelled).
func (b Bracket) Placements() []Placement {
	tier := map[string]float64{}
	last := 0
	for _, m := range b.Matches {
		if m.Section == SectionMain || m.Section == SectionWinners {
			last = max(last, m.Round)
		}
	}
	for _, m := range b.Matches {
		if m.Section == SectionThird && m.State == StateWalkover {
			tier[m.Winner] = float64(last) - 0.5 // third by default
			continue
		}
		if m.State != StateDone {
			continue
		}
		switch b.Format {
		case FormatDoubleElimination:
			switch m.Section {
			case SectionLosers:
				if l := loserOf(m); l != "" {
					tier[l] = float64(m.Round)
				}
			case SectionFinal:
				l := loserOf(m)
				if m.Reset || b.resetSettled() {
					tier[l] = 1000
				}
			}
		default:
			switch m.Section {
			case SectionThird:
				tier[m.Winner] = float64(last) - 0.5
				tier[loserOf(m)] = float64(last) - 0.75
			case SectionMain:
				if b.hasThird() && m.Round == last-1 {
					continue // the third-place match places the semi-final losers
				}
				for _, e := range m.Entries() {
					if e != m.Winner {
						tier[e] = float64(m.Round)
					}
				}
			}
		}
	}
	if c := b.Champion(); c != "" {
		tier[c] = math.Inf(1)
	}
	stillIn := 0
	for _, e := range b.Entries {
		if _, ok := tier[e.ID]; !ok {
			stillIn++
		}
	}
	var out []Placement
	for _, e := range b.Entries {
		t, ok := tier[e.ID]
		if !ok {
			continue
		}
		place := 1
		if !math.IsInf(t, 1) {
			place += stillIn
		}
		for _, u := range tier {
			if u > t {
				place++
			}
		}
		out = append(out, Placement{Place: place, Entry: e.ID})
	}
	slices.SortStableFunc(out, func(a, b Placement) int { return a.Place - b.Place })
	return out
}

func (b Bracket) hasThird() bool {
	return slices.ContainsFunc(b.Matches, func(m Match) bool { return m.Section == SectionThird })
}

// resetSettled: a first grand final that ends the bracket (no reset, or the
// winners-bracket champion won it).
func (b Bracket) resetSettled() bool {
	for _, m := range b.Matches {
		if m.Reset {
			return m.State == StateSkipped
		}
	}
	return true
}

// roundName names single-elimination (or winners-bracket) round r of k.
func roundName(r, k int, prefix string) string {
	switch k - r {
	case 0:
		if prefix != "" {
			return prefix + " final"
		}
		return "Final"
	case 1:
		if prefix == "" {
			return "Semifinals"
		}
	case 2:
		if prefix == "" {
			return "Quarterfinals"
		}
	}
	if prefix != "" {
		return fmt.Sprintf("%s round %d", prefix, r)
	}
	return fmt.Sprintf("Round %d", r)
}
