package sequence

import (
	"strings"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

// emptyBoard is the vector format's empty board.
var emptyBoard = []string{
	"*........*", "..........", "..........", "..........", "..........",
	"..........", "..........", "..........", "..........", "*........*",
}

// withChips returns board with chips set: "a:b5 c5 b:d7" puts team a's chips
// on b5 and c5 and team b's on d7.
func withChips(t testing.TB, board []string, spec string) []string {
	t.Helper()
	rows := make([][]byte, len(board))
	for i, r := range board {
		rows[i] = []byte(r)
	}
	team := byte('a')
	for _, f := range strings.Fields(spec) {
		if len(f) > 2 && f[1] == ':' {
			team, f = f[0], f[2:]
		}
		c, err := ParseCell(f)
		if err != nil {
			t.Fatal(err)
		}
		rows[c.Row()][c.Col()] = team
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = string(r)
	}
	return out
}

// cards reads "7H 2S" ("" is no cards).
func cards(t testing.TB, text string) []Card {
	t.Helper()
	out := []Card{}
	for _, f := range strings.Fields(text) {
		c, err := ParseCard(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// hands reads "7H 2S | 3S" into one hand per seat.
func hands(t testing.TB, text string) [][]Card {
	t.Helper()
	var out [][]Card
	for _, h := range strings.Split(text, "|") {
		out = append(out, cards(t, h))
	}
	return out
}

// window reads "a5-e5".
func window(t testing.TB, text string) Window {
	t.Helper()
	w, err := ParseWindow(text)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// move reads a move in the notation.
func move(t testing.TB, text string) Move {
	t.Helper()
	m, err := ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// fixture sets up a position for a test.
type fixture struct {
	cfg   Config
	chips string              // see withChips
	seqs  map[string][]Window // completed sequences
	hands string              // see hands
	deck  string              // top first
	disc  string              // discard piles like hands, bottom first
	turn  int
}

func (f fixture) state(t testing.TB) State {
	t.Helper()
	cfg := f.cfg
	if cfg.Players == 0 {
		cfg.Players, cfg.Teams = 2, 2
	}
	p := Position{
		Board:     withChips(t, emptyBoard, f.chips),
		Sequences: f.seqs,
		Hands:     hands(t, f.hands),
		Deck:      cards(t, f.deck),
		Discards:  hands(t, f.disc),
		Turn:      f.turn,
	}
	s, err := FromPosition(cfg, p, rng.SeedFromUint64(1))
	if err != nil {
		t.Fatalf("FromPosition: %v", err)
	}
	return s
}

// play makes moves in the notation, seat by seat as the turn goes; it fails
// the test on a refusal.
func play(t testing.TB, s *State, moves ...string) {
	t.Helper()
	for _, text := range moves {
		if err := s.Do(s.Turn(), move(t, text)); err != nil {
			t.Fatalf("%s by seat %d: %v", text, s.Turn(), err)
		}
	}
}
