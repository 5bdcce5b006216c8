package vectors

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/sequence"
)

// vectorSeed seeds reshuffles in vectors; vectors.md makes a vector that
// depends on a shuffle's order invalid, so any fixed seed will do.
var vectorSeed = rng.SeedFromUint64(0)

// checkSequence checks one vector of the Sequence board game: set the
// position up, make every step (an "illegal" step must be refused and leave
// the state exactly as it was), then compare the expected fields.
func checkSequence(raw []byte) error {
	var v sequence.Vector
	if err := json.Unmarshal(raw, &v); err != nil {
		return &FileError{Err: fmt.Errorf("not a sequence vector: %w", err)}
	}
	if err := strictExpect(raw); err != nil {
		return err
	}
	for i, st := range v.Steps {
		if err := st.Shape(); err != nil {
			return &FileError{Err: fmt.Errorf("step %d: %v", i+1, err)}
		}
	}
	var s sequence.State
	cfg, setupErr := v.Config()
	if setupErr == nil {
		var p sequence.Position
		if p, setupErr = v.PositionValue(); setupErr == nil {
			s, setupErr = sequence.FromPosition(cfg, p, vectorSeed)
		}
	}
	switch v.ExpectError {
	case "":
	case "setup":
		if setupErr == nil {
			return errors.New("the set-up was accepted, want it refused")
		}
		return nil
	default:
		return &FileError{Err: fmt.Errorf("unknown expect_error %q (want \"setup\")", v.ExpectError)}
	}
	if setupErr != nil {
		return fmt.Errorf("the set-up was refused: %v", setupErr)
	}
	for i, st := range v.Steps {
		if err := checkSequenceStep(&s, i+1, st); err != nil {
			return err
		}
	}
	if v.Expect == nil {
		return nil
	}
	return compareSequence(&s, v.Expect)
}

// strictExpect refuses an expect that names a field the runner does not
// compare, or a status no game has: ignored, a misspelt field would let the
// vector pass unchecked.
func strictExpect(raw []byte) error {
	var top struct {
		Expect json.RawMessage `json:"expect"`
	}
	if err := json.Unmarshal(raw, &top); err != nil || len(top.Expect) == 0 || string(top.Expect) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(top.Expect))
	dec.DisallowUnknownFields()
	var e sequence.Expect
	if err := dec.Decode(&e); err != nil {
		return &FileError{Err: fmt.Errorf("expect: %w", err)}
	}
	switch e.Status {
	case "", "playing", "finished", "drawn":
	default:
		return &FileError{Err: fmt.Errorf("expect: status %q: want playing, finished or drawn", e.Status)}
	}
	return nil
}

func checkSequenceStep(s *sequence.State, n int, st sequence.Step) error {
	seat, m, parseErr := st.SeatAndMove(s.Turn())
	label := fmt.Sprintf("step %d (seat %d, %s)", n, seat, describeStep(st, m, parseErr))
	switch st.Expect {
	case "", "ok":
		if parseErr != nil {
			return fmt.Errorf("%s: %v", label, parseErr)
		}
		if err := s.Do(seat, m); err != nil {
			return fmt.Errorf("%s: refused (%v), want ok", label, err)
		}
	case "illegal":
		if parseErr != nil {
			return nil // a move that cannot even be written is refused
		}
		before := *s
		if err := s.Do(seat, m); err == nil {
			return fmt.Errorf("%s: accepted, want illegal", label)
		}
		if *s != before {
			return fmt.Errorf("%s: refused but the state changed", label)
		}
	default:
		return &FileError{Err: fmt.Errorf("step %d: unknown expect %q (want ok or illegal)", n, st.Expect)}
	}
	return nil
}

func describeStep(st sequence.Step, m sequence.Move, parseErr error) string {
	if parseErr == nil {
		return m.String()
	}
	b, _ := json.Marshal(st)
	return string(b)
}

// compareSequence reports every expected field that differs.
func compareSequence(s *sequence.State, e *sequence.Expect) error {
	var diffs []string
	differ := func(format string, args ...any) { diffs = append(diffs, fmt.Sprintf(format, args...)) }

	if e.Board != nil {
		got := s.BoardRows()
		if len(e.Board) != len(got) {
			differ("board: want %d rows, got %d", len(e.Board), len(got))
		} else {
			for r := range got {
				if got[r] != e.Board[r] {
					differ("board row %d: got %q, want %q", r+1, got[r], e.Board[r])
				}
			}
		}
	}
	letters := make([]string, 0, len(e.Sequences))
	for letter := range e.Sequences {
		letters = append(letters, letter)
	}
	slices.Sort(letters)
	for _, letter := range letters {
		team := teamIndex(letter)
		if got := s.SequenceCount(team); team < 0 || team >= s.Teams() || got != e.Sequences[letter] {
			differ("sequences of team %s: got %d, want %d", letter, got, e.Sequences[letter])
		}
	}
	if e.Locked != nil {
		got := cellNames(s.LockedCells())
		want := slices.Clone(*e.Locked)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			differ("locked: got %v, want %v", got, want)
		}
	}
	if e.Hands != nil {
		if len(e.Hands) != s.Players() {
			differ("hands: want %d hands, the game has %d seats", len(e.Hands), s.Players())
		}
		for seat := 0; seat < len(e.Hands) && seat < s.Players(); seat++ {
			got := cardNames(s.Hand(seat))
			want := slices.Clone(e.Hands[seat])
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				differ("hand of seat %d: got %v, want %v (as multisets)", seat, got, want)
			}
		}
	}
	if e.Discards != nil {
		if len(e.Discards) != s.Players() {
			differ("discards: want %d piles, the game has %d seats", len(e.Discards), s.Players())
		}
		for seat := 0; seat < len(e.Discards) && seat < s.Players(); seat++ {
			got := cardNames(s.Discards(seat))
			if !slices.Equal(got, e.Discards[seat]) {
				differ("discard pile of seat %d: got %v, want %v (bottom first)", seat, got, e.Discards[seat])
			}
		}
	}
	if e.DeckSize != nil && s.DeckSize() != *e.DeckSize {
		differ("deck_size: got %d, want %d", s.DeckSize(), *e.DeckSize)
	}
	if e.Turn != nil && s.Turn() != *e.Turn {
		differ("turn: got seat %d, want seat %d", s.Turn(), *e.Turn)
	}
	if e.Status != "" && s.Status().String() != e.Status {
		differ("status: got %s, want %s", s.Status(), e.Status)
	}
	if e.Winner != nil {
		var want *string
		if err := json.Unmarshal(e.Winner, &want); err != nil {
			differ("winner: %s is not a team letter or null", e.Winner)
		} else {
			got := "null"
			if s.Winner() >= 0 {
				got = sequence.TeamLetter(s.Winner())
			}
			wantText := "null"
			if want != nil {
				wantText = *want
			}
			if got != wantText {
				differ("winner: got %s, want %s", got, wantText)
			}
		}
	}
	if len(diffs) > 0 {
		return errors.New(strings.Join(diffs, "; "))
	}
	return nil
}

func teamIndex(letter string) int {
	if len(letter) != 1 || letter[0] < 'a' || letter[0] > 'z' {
		return -1
	}
	return int(letter[0] - 'a')
}

func cellNames(cells []sequence.Cell) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = c.String()
	}
	slices.Sort(out)
	return out
}

func cardNames(cards []sequence.Card) []string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = c.String()
	}
	return out
}
