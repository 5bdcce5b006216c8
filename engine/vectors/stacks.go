package vectors

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/stacks"
)

// stacksVector is a stacks vector as vectors.md describes it. The position
// is decoded by the engine's own type; expect is kept raw so that a field
// that is present (winner: null included) can be told from one that is not.
type stacksVector struct {
	Players     int                        `json:"players"`
	Position    json.RawMessage            `json:"position"`
	Steps       []stacksStep               `json:"steps"`
	Expect      map[string]json.RawMessage `json:"expect"`
	ExpectError string                     `json:"expect_error"`
}

// stacksStep is one step. Two fields are this runner's extensions, for
// rulings vectors.md has no step for: "end_turn": true ends the turn of a
// player with an empty hand, and "answer": "no_block" is one seat's answer to
// a block window (the window closes once every other seat has answered).
// "no_block": true is the window-level step of vectors.md: it closes the
// window with no block whoever is named, like the server when time runs out.
type stacksStep struct {
	Seat    *int            `json:"seat"`
	Play    string          `json:"play"`
	Pile    json.RawMessage `json:"pile"`
	From    string          `json:"from"`
	Target  *int            `json:"target"`
	Source  string          `json:"source"`
	Color   string          `json:"color"`
	Discard string          `json:"discard"`
	NoBlock bool            `json:"no_block"`
	EndTurn bool            `json:"end_turn"`
	Answer  string          `json:"answer"`
	Expect  string          `json:"expect"`
}

// checkStacks checks one stacks vector. Vectors carry no seed: positions are
// built with the zero seed, and a vector whose result depends on a shuffle's
// order is invalid (vectors.md).
func checkStacks(raw []byte) error {
	var v stacksVector
	if err := json.Unmarshal(raw, &v); err != nil {
		return &FileError{Err: fmt.Errorf("not a stacks vector: %w", err)}
	}
	switch v.ExpectError {
	case "", "setup":
	default:
		return &FileError{Err: fmt.Errorf("expect_error %q: only \"setup\" is defined", v.ExpectError)}
	}
	s, err := stacksSetup(v)
	if v.ExpectError == "setup" {
		if err == nil {
			return errors.New("the set-up was accepted; want it refused")
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("set-up refused: %v", err)
	}
	for i, st := range v.Steps {
		if err := stacksStepCheck(&s, i+1, st); err != nil {
			return err
		}
	}
	return stacksExpect(&s, v.Expect)
}

func stacksSetup(v stacksVector) (stacks.State, error) {
	var pos stacks.Position
	if len(v.Position) > 0 {
		if err := json.Unmarshal(v.Position, &pos); err != nil {
			return stacks.State{}, fmt.Errorf("position: %w", err)
		}
	}
	return stacks.FromPosition(v.Players, pos, rng.Seed{})
}

// stacksStepCheck applies one step. A step that is not a block-window
// answer first closes an open window with no block (vectors.md), as the
// server does when the completer moves on; that close stands even if the
// step is then refused (so a winning chip ends the game and the step is
// refused because the game is over). The step itself, when refused, must
// leave the state exactly as it was.
func stacksStepCheck(s *stacks.State, n int, st stacksStep) error {
	want := st.Expect
	switch want {
	case "":
		want = "ok"
	case "ok", "illegal":
	default:
		return &FileError{Err: fmt.Errorf("step %d: expect %q: want ok or illegal", n, st.Expect)}
	}
	if !st.NoBlock && !st.EndTurn && st.Answer == "" && st.Discard == "" && st.Play == "" {
		return &FileError{Err: fmt.Errorf("step %d has no play, discard, no_block, answer or end_turn", n)}
	}
	// Whether the step answers the window is read off the step itself, so
	// that one naming something that does not exist closes it too.
	answer := st.NoBlock || st.Answer != "" || st.Play == "BLOCK"
	if s.Phase() == stacks.PhaseWindow && !answer {
		if err := s.Apply(stacks.CloseWindow()); err != nil {
			return fmt.Errorf("step %d: closing the block window: %v", n, err)
		}
	}
	m, err := stacksMove(s, st)
	label := fmt.Sprintf("step %d (%s)", n, stacksLabel(st, m, err))
	if err == nil {
		before := *s
		err = s.Apply(m)
		if err != nil && *s != before {
			return fmt.Errorf("%s: refused (%v) but the state changed", label, err)
		}
	}
	switch {
	case want == "ok" && err != nil:
		return fmt.Errorf("%s: refused: %v", label, err)
	case want == "illegal" && err == nil:
		return fmt.Errorf("%s: accepted; want it refused", label)
	}
	return nil
}

// stacksMove turns a step into a move. A step naming something that does
// not exist (an unknown card, say) is an illegal move, not a broken vector.
func stacksMove(s *stacks.State, st stacksStep) (stacks.Move, error) {
	seat := s.Turn()
	if st.Seat != nil {
		seat = *st.Seat
	}
	if seat < -1 || seat >= stacks.MaxPlayers {
		return stacks.Move{}, fmt.Errorf("no seat %d", seat)
	}
	switch {
	case st.NoBlock:
		return stacks.CloseWindow(), nil
	case st.Answer == "no_block":
		return stacks.NoBlock(seat), nil
	case st.Answer != "":
		return stacks.Move{}, fmt.Errorf("answer %q: want no_block", st.Answer)
	case st.EndTurn:
		return stacks.EndTurn(seat), nil
	case st.Discard != "":
		c, err := stacks.ParseCard(st.Discard)
		return stacks.Discard(seat, c), err
	case st.Play == "BLOCK":
		return stacks.BlockMove(seat), nil
	}
	c, err := stacks.ParseCard(st.Play)
	if err != nil {
		return stacks.Move{}, err
	}
	m := stacks.Move{Kind: stacks.MovePlay, Seat: int8(seat), Card: c}
	switch st.From {
	case "", "hand":
	case "discard":
		m.FromDiscard = true
	default:
		return m, fmt.Errorf("from %q: want hand or discard", st.From)
	}
	switch c {
	case stacks.Skip, stacks.Reverse:
		return m, nil
	case stacks.StealCard, stacks.StealChip:
		if st.Target == nil || *st.Target < 0 || *st.Target >= stacks.MaxPlayers {
			return m, fmt.Errorf("%s needs a target seat", c)
		}
		m.Target = int8(*st.Target)
		if c == stacks.StealCard {
			switch st.Source {
			case "discard":
				m.Take = stacks.TakeDiscard
			case "hand":
				m.Take = stacks.TakeHand
			default:
				return m, fmt.Errorf("source %q: want discard or hand", st.Source)
			}
			return m, nil
		}
		col, err := stacks.ParseColor(st.Color)
		m.Color = col
		return m, err
	}
	var pile any
	if err := json.Unmarshal(st.Pile, &pile); err != nil {
		return m, fmt.Errorf("pile: want an index or \"new\"")
	}
	switch p := pile.(type) {
	case string:
		if p != "new" {
			return m, fmt.Errorf("pile %q: want an index or \"new\"", p)
		}
		m.Pile = stacks.NewPile
	case float64:
		if p != float64(int(p)) || p < 0 || p >= stacks.MaxPiles {
			return m, fmt.Errorf("no pile %v", p)
		}
		m.Pile = int8(p)
	default:
		return m, fmt.Errorf("pile: want an index or \"new\"")
	}
	return m, nil
}

func stacksLabel(st stacksStep, m stacks.Move, err error) string {
	if err != nil {
		b, _ := json.Marshal(st)
		return string(b)
	}
	if m.Seat == stacks.Server {
		return "server: close"
	}
	return fmt.Sprintf("seat %d: %s", m.Seat, m)
}

// stacksExpect compares the named fields of the final state.
func stacksExpect(s *stacks.State, expect map[string]json.RawMessage) error {
	pos := s.Position()
	out := s.Outcome()
	keys := make([]string, 0, len(expect))
	for k := range expect {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var diffs []string
	for _, k := range keys {
		raw := expect[k]
		var got any
		var want any
		switch k {
		case "piles":
			got, want = pos.Piles, new([]stacks.Pile)
		case "hands":
			got, want = sortedHands(pos.Hands), new([][]stacks.Card)
		case "hand_sizes":
			sizes := make([]int, len(pos.Hands))
			for i, h := range pos.Hands {
				sizes[i] = len(h)
			}
			got, want = sizes, new([]int)
		case "discards":
			got, want = pos.Discards, new([][]stacks.Card)
		case "chips":
			got, want = pos.Chips, new([]stacks.Chips)
		case "supply":
			got, want = *pos.Supply, new(stacks.Chips)
		case "deck_size":
			got, want = len(pos.Deck), new(int)
		case "deck":
			got, want = pos.Deck, new([]stacks.Card)
		case "setaside":
			got, want = pos.SetAside, new([]stacks.Card)
		case "turn":
			got, want = pos.Turn, new(int)
		case "direction":
			got, want = *pos.Direction, new(int)
		case "skipped":
			got, want = nonNil(pos.Skipped), new([]int)
		case "status":
			got, want = out.Status.String(), new(string)
		case "winner":
			var w *int
			if out.Status == stacks.Finished {
				w = &out.Winner
			}
			got, want = w, new(*int)
		default:
			return &FileError{Err: fmt.Errorf("expect: unknown field %q", k)}
		}
		if err := json.Unmarshal(raw, want); err != nil {
			return &FileError{Err: fmt.Errorf("expect %s: %w", k, err)}
		}
		if k == "hands" {
			*(want.(*[][]stacks.Card)) = sortedHands(*(want.(*[][]stacks.Card)))
		}
		if k == "skipped" {
			slices.Sort(*(want.(*[]int)))
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if !bytes.Equal(g, w) {
			diffs = append(diffs, fmt.Sprintf("%s: got %s, want %s", k, g, w))
		}
	}
	if len(diffs) > 0 {
		return errors.New(strings.Join(diffs, "; "))
	}
	return nil
}

// sortedHands sorts each hand by kind: hands are compared as multisets.
func sortedHands(hands [][]stacks.Card) [][]stacks.Card {
	out := make([][]stacks.Card, len(hands))
	for i, h := range hands {
		out[i] = slices.Sorted(slices.Values(h))
		if out[i] == nil {
			out[i] = []stacks.Card{}
		}
	}
	return out
}

func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}
