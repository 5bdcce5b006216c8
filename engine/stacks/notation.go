package stacks

import (
	"fmt"
	"strings"
)

// String is the move's text in the notation of doc.go, without the seat: the
// seat comes from whoever submits it. ParseMove(m.Seat, m.String()) == m.
func (m Move) String() string {
	switch m.Kind {
	case MoveNoBlock:
		return "noblock"
	case MoveClose:
		return "close"
	case MoveBlock:
		return "BLOCK"
	case MoveEndTurn:
		return "/"
	case MoveDiscard:
		return "/" + m.Card.String()
	case MovePlay:
		var b strings.Builder
		if m.FromDiscard {
			b.WriteByte('^')
		}
		b.WriteString(m.Card.String())
		switch {
		case m.Card == StealCard:
			take := "discard"
			if m.Take == TakeHand {
				take = "hand"
			}
			fmt.Fprintf(&b, "@%d:%s", m.Target, take)
		case m.Card == StealChip:
			fmt.Fprintf(&b, "@%d:%s", m.Target, m.Color)
		case m.Card.IsColored():
			if m.Pile == NewPile {
				b.WriteString(">new")
			} else {
				fmt.Fprintf(&b, ">%d", m.Pile)
			}
		}
		return b.String()
	}
	return "?"
}

// ParseMove reads a move's text (doc.go) as submitted by seat (Server for
// the server's "close"). It checks the syntax only; Legal checks the rules.
func ParseMove(seat int, text string) (Move, error) {
	if seat < Server || seat >= MaxPlayers {
		return Move{}, fmt.Errorf("stacks: seat %d out of range", seat)
	}
	m, err := parseMove(text)
	if err != nil {
		return Move{}, fmt.Errorf("stacks: move %q: %w", text, err)
	}
	m.Seat = int8(seat)
	return m, nil
}

func parseMove(text string) (Move, error) {
	switch text {
	case "noblock":
		return Move{Kind: MoveNoBlock}, nil
	case "close":
		return Move{Kind: MoveClose}, nil
	case "BLOCK":
		return Move{Kind: MoveBlock, Card: Block}, nil
	case "/":
		return Move{Kind: MoveEndTurn}, nil
	}
	if rest, ok := strings.CutPrefix(text, "/"); ok {
		c, err := ParseCard(rest)
		if err != nil {
			return Move{}, err
		}
		return Move{Kind: MoveDiscard, Card: c}, nil
	}
	m := Move{Kind: MovePlay}
	if rest, ok := strings.CutPrefix(text, "^"); ok {
		m.FromDiscard = true
		text = rest
	}
	if code, arg, ok := strings.Cut(text, "@"); ok {
		c, err := ParseCard(code)
		if err != nil {
			return Move{}, err
		}
		seatText, opt, ok := strings.Cut(arg, ":")
		if !ok {
			return Move{}, fmt.Errorf("want %s@SEAT:OPTION", code)
		}
		t, err := parseDigit(seatText, MaxPlayers)
		if err != nil {
			return Move{}, fmt.Errorf("target seat: %w", err)
		}
		m.Card, m.Target = c, int8(t)
		switch {
		case c == StealCard && opt == "discard":
			m.Take = TakeDiscard
		case c == StealCard && opt == "hand":
			m.Take = TakeHand
		case c == StealChip && (opt == "red" || opt == "blue"):
			m.Color, _ = ParseColor(opt)
		case c == StealCard:
			return Move{}, fmt.Errorf("STEAL_CARD takes from discard or hand, not %q", opt)
		case c == StealChip:
			return Move{}, fmt.Errorf("STEAL_CHIP takes red or blue, not %q", opt)
		default:
			return Move{}, fmt.Errorf("%s takes no target", code)
		}
		return m, nil
	}
	if code, pile, ok := strings.Cut(text, ">"); ok {
		c, err := ParseCard(code)
		if err != nil {
			return Move{}, err
		}
		if !c.IsColored() {
			return Move{}, fmt.Errorf("%s does not go on a pile", code)
		}
		m.Card = c
		if pile == "new" {
			m.Pile = NewPile
			return m, nil
		}
		p, err := parseDigit(pile, MaxPiles)
		if err != nil {
			return Move{}, fmt.Errorf("pile: %w", err)
		}
		m.Pile = int8(p)
		return m, nil
	}
	c, err := ParseCard(text)
	if err != nil {
		return Move{}, err
	}
	switch c {
	case Skip, Reverse:
		m.Card = c
		return m, nil
	case StealCard, StealChip:
		return Move{}, fmt.Errorf("%s needs @SEAT:OPTION", text)
	case Block:
		return Move{}, fmt.Errorf("BLOCK is played in a block window, never from the discard pile")
	}
	return Move{}, fmt.Errorf("%s needs >PILE or >new", text)
}

// parseDigit reads one decimal digit below limit; the notation has no
// multi-digit numbers, which keeps every move's text unique.
func parseDigit(text string, limit int) (int, error) {
	if len(text) != 1 || text[0] < '0' || int(text[0]-'0') >= limit {
		return 0, fmt.Errorf("%q is not a number 0–%d", text, limit-1)
	}
	return int(text[0] - '0'), nil
}
