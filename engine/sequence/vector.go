package sequence

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Vector is a rule vector of the game "sequence" (vectors.md). The checker
// in engine/vectors reads it; ExportVector writes one.
type Vector struct {
	Name           string `json:"name"`
	Note           string `json:"note,omitempty"`
	Game           string `json:"game"`
	Variant        string `json:"variant,omitempty"` // classic (the default) or bordered
	Players        int    `json:"players"`
	Teams          int    `json:"teams"`
	SequencesToWin int    `json:"sequences_to_win,omitempty"`
	PlayCap        int    `json:"play_cap,omitempty"` // extension: the match's play cap
	// Position stays raw until PositionValue reads it, so that a position
	// naming a card, cell or window that cannot exist is a refused set-up
	// (vectors.md "an impossible position"), not an unreadable file.
	Position    json.RawMessage `json:"position"`
	Steps       []Step          `json:"steps,omitempty"`
	Expect      *Expect         `json:"expect,omitempty"`
	ExpectError string          `json:"expect_error,omitempty"`
}

// Step is one move of a vector. Cards and cells stay text here so that a
// step naming a card or cell that does not exist is a refused move, not an
// unreadable vector.
type Step struct {
	Seat     *int       `json:"seat,omitempty"`
	Play     string     `json:"play,omitempty"`
	At       string     `json:"at,omitempty"`
	Remove   string     `json:"remove,omitempty"`
	Windows  [][]string `json:"windows,omitempty"`
	Exchange string     `json:"exchange,omitempty"`
	Pass     bool       `json:"pass,omitempty"`
	// Extensions: a table-talk discard, the referee's penalty on a team
	// letter (no seat), and any move in the notation.
	Discard  string `json:"discard,omitempty"`
	Penalize string `json:"penalize,omitempty"`
	Move     string `json:"move,omitempty"`
	Expect   string `json:"expect,omitempty"` // "ok" (the default) or "illegal"
}

// Expect lists the fields of the final state a vector compares; nil and
// absent fields are not compared.
type Expect struct {
	Board     []string        `json:"board,omitempty"`
	Sequences map[string]int  `json:"sequences,omitempty"`
	Locked    *[]string       `json:"locked,omitempty"`
	Hands     [][]string      `json:"hands,omitempty"`
	Discards  [][]string      `json:"discards,omitempty"`
	DeckSize  *int            `json:"deck_size,omitempty"`
	Turn      *int            `json:"turn,omitempty"`
	Status    string          `json:"status,omitempty"`
	Winner    json.RawMessage `json:"winner,omitempty"` // a team letter or null; absent: not compared
}

// Config is the vector's set-up.
func (v *Vector) Config() (Config, error) {
	variant := Classic
	if v.Variant != "" {
		var err error
		if variant, err = ParseVariant(v.Variant); err != nil {
			return Config{}, err
		}
	}
	return Config{Variant: variant, Players: v.Players, Teams: v.Teams,
		Options: Options{SequencesToWin: v.SequencesToWin, PlayCap: v.PlayCap}}, nil
}

// PositionValue reads the vector's position; an error wraps ErrSetup. An
// omitted list is empty (vectors.md), an omitted board too: only its
// corners are marked.
func (v *Vector) PositionValue() (Position, error) {
	var p Position
	if len(v.Position) > 0 {
		if err := json.Unmarshal(v.Position, &p); err != nil {
			return p, fmt.Errorf("%w: %v", ErrSetup, err)
		}
	}
	if p.Board == nil {
		p.Board = emptyBoardRows()
	}
	return p, nil
}

// emptyBoardRows is a board with no chips, in the vectors' rows: its
// corners marked, as the board's own corner table has them.
func emptyBoardRows() []string {
	rows := make([]string, Side)
	var line [Side]byte
	for r := range rows {
		for col := range line {
			line[col] = '.'
			if isCorner[r*Side+col] {
				line[col] = '*'
			}
		}
		rows[r] = string(line[:])
	}
	return rows
}

// SeatAndMove is the step's actor and move. A step with no seat is the
// referee's when it is a penalty, and otherwise that of turn, the seat
// whose turn it is (vectors.md gives every step a seat; the Stacks runner
// reads a missing one the same way).
func (st *Step) SeatAndMove(turn int) (int, Move, error) {
	m, err := st.move()
	switch {
	case st.Seat != nil:
		return *st.Seat, m, err
	case err == nil && m.Kind == KindPenalize:
		return Referee, m, nil
	}
	return turn, m, err
}

// Shape checks that the step names exactly one action, whole: a play with
// at or remove, an exchange, a pass, a penalty discard, a penalty or a move
// in the notation. A step that fails it is a broken vector, not an illegal
// move (an unknown card or cell, on the other hand, is an illegal move).
func (st *Step) Shape() error {
	actions := 0
	for _, named := range []bool{st.Move != "", st.Pass, st.Exchange != "", st.Discard != "", st.Penalize != "",
		st.Play != "" || st.At != "" || st.Remove != ""} {
		if named {
			actions++
		}
	}
	switch {
	case actions == 0:
		return errors.New("the step has no play, exchange, pass, discard, penalize or move")
	case actions > 1:
		return errors.New("the step names more than one action")
	case st.Play == "" && (st.At != "" || st.Remove != ""):
		return errors.New("at or remove without play")
	case st.Play != "" && (st.At == "") == (st.Remove == ""):
		return errors.New("play needs exactly one of at (a placement) and remove (a removal)")
	case len(st.Windows) > 0 && st.At == "":
		return errors.New("windows belong to a placement (play with at)")
	}
	return nil
}

func (st *Step) move() (Move, error) {
	card := func(text string) (Card, error) { return ParseCard(text) }
	switch {
	case st.Move != "":
		return ParseMove(st.Move)
	case st.Pass:
		return Pass(), nil
	case st.Exchange != "":
		c, err := card(st.Exchange)
		return Exchange(c), err
	case st.Discard != "":
		c, err := card(st.Discard)
		return PenaltyDiscard(c), err
	case st.Penalize != "":
		return ParseMove(penaltyText + st.Penalize)
	case st.Play != "" && st.Remove != "":
		c, err := card(st.Play)
		if err != nil {
			return Move{}, err
		}
		p, err := ParseCell(st.Remove)
		return Remove(c, p), err
	case st.Play != "" && st.At != "":
		c, err := card(st.Play)
		if err != nil {
			return Move{}, err
		}
		p, err := ParseCell(st.At)
		if err != nil {
			return Move{}, err
		}
		m := Place(c, p)
		if len(st.Windows) == 0 {
			return m, nil
		}
		ws := make([]Window, 0, len(st.Windows))
		for _, ends := range st.Windows {
			if len(ends) != 2 {
				return Move{}, fmt.Errorf("%w: a window is [first, last], not %q", ErrMalformedMove, ends)
			}
			a, err := ParseCell(ends[0])
			if err != nil {
				return Move{}, err
			}
			b, err := ParseCell(ends[1])
			if err != nil {
				return Move{}, err
			}
			w, err := WindowBetween(a, b)
			if err != nil {
				return Move{}, err
			}
			ws = append(ws, w)
		}
		return m.WithWindows(ws...)
	}
	return Move{}, fmt.Errorf("%w: a step needs play with at or remove, exchange, pass, discard, penalize or move", ErrMalformedMove)
}

// ExportVector writes a game's position as a rule vector (indented JSON)
// with no steps, expecting the position's own turn, status and sequence
// counts: a starting point for a bug report or a new ruling.
func ExportVector(s *State, name string) ([]byte, error) {
	cfg := s.Config()
	pos, err := json.Marshal(s.Position())
	if err != nil {
		return nil, err
	}
	v := Vector{
		Name: name, Game: "sequence", Variant: cfg.Variant.String(),
		Players: cfg.Players, Teams: cfg.Teams,
		SequencesToWin: cfg.Options.SequencesToWin,
		Position:       pos,
	}
	if cfg.Options.PlayCap != DefaultPlayCap {
		v.PlayCap = cfg.Options.PlayCap
	}
	turn := s.Turn()
	e := Expect{Turn: &turn, Status: s.Status().String(), Sequences: map[string]int{}, Winner: json.RawMessage("null")}
	for team := 0; team < cfg.Teams; team++ {
		e.Sequences[TeamLetter(team)] = s.SequenceCount(team)
	}
	if s.Status() == Won {
		e.Winner = json.RawMessage(`"` + TeamLetter(s.Winner()) + `"`)
	}
	v.Expect = &e
	return json.MarshalIndent(v, "", "  ")
}
