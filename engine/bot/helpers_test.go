package bot

import (
	"strings"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/sequence"
	"github.com/seqleague/seqleague/engine/stacks"
)

// seqBoard returns the vector board with chips: "a:b5 c5 b:d7" puts team
// a's chips on b5 and c5 and team b's on d7.
func seqBoard(t testing.TB, spec string) []string {
	t.Helper()
	rows := [][]byte{
		[]byte("*........*"), []byte(".........."), []byte(".........."), []byte(".........."), []byte(".........."),
		[]byte(".........."), []byte(".........."), []byte(".........."), []byte(".........."), []byte("*........*"),
	}
	team := byte('a')
	for _, f := range strings.Fields(spec) {
		if len(f) > 2 && f[1] == ':' {
			team, f = f[0], f[2:]
		}
		c, err := sequence.ParseCell(f)
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

func seqCards(t testing.TB, text string) []sequence.Card {
	t.Helper()
	out := []sequence.Card{}
	for _, f := range strings.Fields(text) {
		c, err := sequence.ParseCard(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func seqWindow(t testing.TB, text string) sequence.Window {
	t.Helper()
	w, err := sequence.ParseWindow(text)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// seqFixture is a two-player classic position with seat 0 to move.
type seqFixture struct {
	chips     string            // seqBoard spec
	sequences map[string]string // team letter: window, e.g. "a": "b9-f9"
	mine      string            // seat 0's hand
	theirs    string            // seat 1's hand
	deck      string            // top first
}

func (f seqFixture) view(t testing.TB) sequence.View {
	t.Helper()
	s := f.state(t)
	return s.ViewFor(0)
}

func (f seqFixture) state(t testing.TB) sequence.State {
	t.Helper()
	seqs := map[string][]sequence.Window{}
	for team, w := range f.sequences {
		seqs[team] = []sequence.Window{seqWindow(t, w)}
	}
	pos := sequence.Position{
		Board:     seqBoard(t, f.chips),
		Sequences: seqs,
		Hands:     [][]sequence.Card{seqCards(t, f.mine), seqCards(t, f.theirs)},
		Discards:  [][]sequence.Card{{}, {}},
		Deck:      seqCards(t, f.deck),
	}
	s, err := sequence.FromPosition(sequence.Config{Players: 2, Teams: 2}, pos, rng.Seed{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// stFixture is a Stacks position.
type stFixture struct {
	players  int
	piles    []stacks.Pile
	hands    []string // per seat
	discards []string // per seat, bottom first
	chips    []stacks.Chips
	deck     string
	turn     int
	window   *stacks.WindowPosition
}

func stCards(t testing.TB, text string) []stacks.Card {
	t.Helper()
	out := []stacks.Card{}
	for _, f := range strings.Fields(text) {
		c, err := stacks.ParseCard(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func (f stFixture) state(t testing.TB) stacks.State {
	t.Helper()
	n := max(f.players, 2)
	pos := stacks.Position{Piles: f.piles, Turn: f.turn, Window: f.window, Deck: stCards(t, f.deck)}
	for p := 0; p < n; p++ {
		h, d := "", ""
		if p < len(f.hands) {
			h = f.hands[p]
		}
		if p < len(f.discards) {
			d = f.discards[p]
		}
		pos.Hands = append(pos.Hands, stCards(t, h))
		pos.Discards = append(pos.Discards, stCards(t, d))
		c := stacks.Chips{}
		if p < len(f.chips) {
			c = f.chips[p]
		}
		pos.Chips = append(pos.Chips, c)
	}
	s, err := stacks.FromPosition(n, pos, rng.Seed{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func pile(t testing.TB, col stacks.Color, cards string) stacks.Pile {
	return stacks.Pile{Color: col, Cards: stCards(t, cards)}
}

func mustCell(t testing.TB, text string) sequence.Cell {
	t.Helper()
	c, err := sequence.ParseCell(text)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
