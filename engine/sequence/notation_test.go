package sequence

import (
	"errors"
	"testing"
)

func TestNotationRoundTrips(t *testing.T) {
	tests := []struct {
		text string
		want Move
	}{
		{"7H@e5", Place(mustCard("7H"), mustCell("e5"))},
		{"JC@a2", Place(mustCard("JC"), mustCell("a2"))},
		{"W+@j10", Place(WildPlus, mustCell("j10"))},
		{"JSxe5", Remove(mustCard("JS"), mustCell("e5"))},
		{"W-xb7", Remove(WildMinus, mustCell("b7"))},
		{"x2S", Exchange(mustCard("2S"))},
		{"d7H", PenaltyDiscard(mustCard("7H"))},
		{"pass", Pass()},
		{"penalty-c", Penalize(2)},
		{"5H@e5[a5-e5,e1-e5]", Move{Kind: KindPlace, Card: mustCard("5H"), Cell: mustCell("e5"),
			Windows: windowBit(Row, 4) | windowBit(Column, 4)}},
		{"4H@f5[b5-f5,f5-j5]", Move{Kind: KindPlace, Card: mustCard("4H"), Cell: mustCell("f5"),
			Windows: windowBit(Row, 4) | windowBit(Row, 0)}},
		{"9H@e7[i3-e7]", Move{Kind: KindPlace, Card: mustCard("9H"), Cell: mustCell("e7"),
			Windows: windowBit(AntiDiagonal, 4)}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got, err := ParseMove(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			if back := got.String(); back != tt.text {
				t.Fatalf("got %q written back, want %q", back, tt.text)
			}
		})
	}
}

func TestNotationAcceptsWindowsInAnyOrder(t *testing.T) {
	a, errA := ParseMove("5H@e5[e1-e5,e5-a5]")
	b, errB := ParseMove("5H@e5[a5-e5,e1-e5]")
	if errA != nil || errB != nil || a != b {
		t.Fatalf("got %v %v and %v %v, want the same move", a, errA, b, errB)
	}
}

func TestNotationRefusesMalformedText(t *testing.T) {
	for _, text := range []string{
		"", "7H", "7H@", "7H@k1", "7H@a11", "7H@a0", "7H@a01", "1H@e5", "7X@e5", "7H-e5",
		"7H@e5[]", "7H@e5[a5-e5", "7H@e5[f5-j5]", "7H@e5[a5-e5,a5-e5]", "7H@e5[a5-d5]",
		"JSxe5[a5-e5]", "x7", "x7HH", "d", "passes", "penalty-", "penalty-d", "penalty-ab", "W+@e5 ",
	} {
		if m, err := ParseMove(text); !errors.Is(err, ErrMalformedMove) {
			t.Errorf("ParseMove(%q) = %v, %v; want %v", text, m, err, ErrMalformedMove)
		}
	}
}

func FuzzParseMove(f *testing.F) {
	for _, seed := range []string{"7H@e5", "JSxe5", "W-xa2", "x2S", "d7H", "pass", "penalty-a",
		"5H@e5[a5-e5,e1-e5]", "9H@e7[i3-e7]", "W+@j10", "7H@e5[", "]"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMove(text)
		if err != nil {
			return
		}
		if err := m.wellFormed(); err != nil {
			t.Fatalf("ParseMove(%q) = %+v, which is not well formed: %v", text, m, err)
		}
		written := m.String()
		again, err := ParseMove(written)
		if err != nil || again != m {
			t.Fatalf("ParseMove(%q) = %+v; written %q; read back %+v, %v", text, m, written, again, err)
		}
		if again.String() != written {
			t.Fatalf("%q is not stable: written again as %q", written, again.String())
		}
	})
}

func mustCard(text string) Card {
	c, err := ParseCard(text)
	if err != nil {
		panic(err)
	}
	return c
}

func mustCell(text string) Cell {
	c, err := ParseCell(text)
	if err != nil {
		panic(err)
	}
	return c
}
