package sequence

import (
	"encoding/json"
	"testing"
)

func TestEveryBoardCardIsPrintedTwiceAndNoJack(t *testing.T) {
	var seen [numCards]int
	for c := Cell(0); c < Cells; c++ {
		if c.IsCorner() {
			if c.Card() != NoCard {
				t.Errorf("corner %v shows %v", c, c.Card())
			}
			continue
		}
		seen[c.Card()]++
	}
	for card := Card(1); card < numCards; card++ {
		want := 2
		if !card.OnBoard() {
			want = 0
		}
		if seen[card] != want {
			t.Errorf("%v is printed %d times, want %d", card, seen[card], want)
		}
	}
	for _, name := range []string{"a1", "j1", "a10", "j10"} {
		if !mustCell(name).IsCorner() {
			t.Errorf("%s is not a corner", name)
		}
	}
	if got, ok := CellsOf(mustCard("7H")); !ok || got != [2]Cell{mustCell("i5"), mustCell("d6")} {
		t.Errorf("7H is on %v, want i5 and d6", got)
	}
}

func TestCellsAndCardsRoundTrip(t *testing.T) {
	for c := Cell(0); c < Cells; c++ {
		back, err := ParseCell(c.String())
		if err != nil || back != c {
			t.Errorf("cell %d: %q read back as %v, %v", c, c.String(), back, err)
		}
	}
	n := 0
	for c := Card(0); c < 255; c++ {
		if !c.Valid() {
			continue
		}
		n++
		back, err := ParseCard(c.String())
		if err != nil || back != c {
			t.Errorf("card %d: %q read back as %v, %v", c, c.String(), back, err)
		}
	}
	if n != 54 {
		t.Errorf("got %d valid cards, want 52 + W+ + W-", n)
	}
	if FullDeckSize(Classic) != 104 || FullDeckSize(Bordered) != 112 {
		t.Errorf("got decks of %d and %d, want 104 and 112", FullDeckSize(Classic), FullDeckSize(Bordered))
	}
	raw, err := json.Marshal([]Card{mustCard("7H"), WildMinus})
	if err != nil || string(raw) != `["7H","W-"]` {
		t.Errorf("got JSON %s, %v; want [\"7H\",\"W-\"]", raw, err)
	}
}

func TestWindowsBetweenEitherEnd(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"a5", "e5", "a5-e5"}, {"e5", "a5", "a5-e5"}, {"e1", "e5", "e1-e5"},
		{"b2", "f6", "b2-f6"}, {"j1", "f5", "j1-f5"}, {"f5", "j1", "j1-f5"},
	}
	for _, tt := range tests {
		w, err := WindowBetween(mustCell(tt.a), mustCell(tt.b))
		if err != nil || w.String() != tt.want {
			t.Errorf("WindowBetween(%s, %s) = %v, %v; want %s", tt.a, tt.b, w, err, tt.want)
		}
	}
	for _, bad := range [][2]string{{"a1", "d1"}, {"a1", "f1"}, {"a1", "e2"}, {"a1", "a1"}} {
		if w, err := WindowBetween(mustCell(bad[0]), mustCell(bad[1])); err == nil {
			t.Errorf("WindowBetween(%s, %s) = %v, want an error", bad[0], bad[1], w)
		}
	}
}
