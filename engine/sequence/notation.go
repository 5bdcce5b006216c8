package sequence

import (
	"fmt"
	"strings"
)

// Move notation (see the package documentation for the table):
//
//	7H@e5                place with a board card
//	JC@a2  W+@a2         place with a two-eyed wild
//	7H@e5[a5-e5,e1-e5]   place and name the sequences completed
//	JSxe5  W-xe5         remove with a one-eyed wild ("x" takes, as in chess)
//	x7H                  turn in a dead card
//	d7H                  discard a card for a table-talk penalty
//	pass                 pass
//	penalty-a            the referee penalizes team a
const (
	passText    = "pass"
	penaltyText = "penalty-"
)

// String writes the move in the notation; ParseMove reads it back.
func (m Move) String() string {
	if m.wellFormed() != nil {
		return fmt.Sprintf("Move{%d %d %d %d %#x}", m.Kind, m.Card, m.Cell, m.Team, uint32(m.Windows))
	}
	switch m.Kind {
	case KindPlace:
		text := m.Card.String() + "@" + m.Cell.String()
		if m.Windows != 0 {
			var names []string
			for _, w := range m.NamedWindows() {
				names = append(names, w.String())
			}
			text += "[" + strings.Join(names, ",") + "]"
		}
		return text
	case KindRemove:
		return m.Card.String() + "x" + m.Cell.String()
	case KindExchange:
		return "x" + m.Card.String()
	case KindPass:
		return passText
	case KindDiscard:
		return "d" + m.Card.String()
	default: // KindPenalize
		if m.Team < 0 || m.Team >= MaxTeams {
			return fmt.Sprintf("penalty-%d", m.Team)
		}
		return penaltyText + string(rune('a'+m.Team))
	}
}

// ParseMove reads a move written in the notation. It checks the form, not
// the rules: whether the move is legal is Legal's business.
func ParseMove(text string) (Move, error) {
	bad := func(why string) (Move, error) {
		return Move{}, fmt.Errorf("%w: %q: %s", ErrMalformedMove, text, why)
	}
	switch {
	case text == passText:
		return Pass(), nil
	case strings.HasPrefix(text, penaltyText):
		team := text[len(penaltyText):]
		if len(team) != 1 || team[0] < 'a' || team[0] >= 'a'+MaxTeams {
			return bad("the team must be a, b or c")
		}
		return Penalize(int(team[0] - 'a')), nil
	case len(text) == 3 && (text[0] == 'x' || text[0] == 'd'):
		card, err := ParseCard(text[1:])
		if err != nil {
			return bad(err.Error())
		}
		if text[0] == 'x' {
			return Exchange(card), nil
		}
		return PenaltyDiscard(card), nil
	case len(text) < 5:
		return bad("want a card, @ or x, and a cell, e.g. 7H@e5 or JSxe5")
	}
	card, err := ParseCard(text[:2])
	if err != nil {
		return bad(err.Error())
	}
	rest := text[3:]
	named := ""
	if i := strings.IndexByte(rest, '['); i >= 0 {
		if !strings.HasSuffix(rest, "]") || text[2] != '@' {
			return bad("windows are named as [first-last,…] after a placement")
		}
		rest, named = rest[:i], rest[i+1:len(rest)-1]
	}
	cell, err := ParseCell(rest)
	if err != nil {
		return bad(err.Error())
	}
	switch text[2] {
	case 'x':
		return Remove(card, cell), nil
	case '@':
	default:
		return bad("want @ (place) or x (remove) between card and cell")
	}
	m := Place(card, cell)
	if named == "" {
		if strings.HasSuffix(text, "]") {
			return bad("empty window list")
		}
		return m, nil
	}
	var ws []Window
	for _, part := range strings.Split(named, ",") {
		w, err := ParseWindow(part)
		if err != nil {
			return bad(err.Error())
		}
		ws = append(ws, w)
	}
	if m, err = m.WithWindows(ws...); err != nil {
		return bad(err.Error())
	}
	return m, nil
}

// MarshalText writes the move's notation.
func (m Move) MarshalText() ([]byte, error) {
	if err := m.wellFormed(); err != nil {
		return nil, err
	}
	return []byte(m.String()), nil
}

// UnmarshalText reads a move's notation.
func (m *Move) UnmarshalText(text []byte) error {
	v, err := ParseMove(string(text))
	if err != nil {
		return err
	}
	*m = v
	return nil
}
