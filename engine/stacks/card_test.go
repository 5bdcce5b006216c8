package stacks

import "testing"

func TestBoxHas120CardsOr115WithTwoPlayers(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		want := 120
		if players == 2 {
			want = 115
		}
		if got := DeckSize(players); got != want {
			t.Errorf("DeckSize(%d) = %d, want %d", players, got, want)
		}
	}
	two := Composition(2)
	for _, tc := range []struct {
		card Card
		want int
	}{{Block, 2}, {StealChip, 2}, {StealCard, 2}, {Skip, 2}, {Reverse, 3}, {RW, 7}, {B5, 9}} {
		if two[tc.card] != tc.want {
			t.Errorf("2 players: %d %s, want %d", two[tc.card], tc.card, tc.want)
		}
	}
}

func TestCardCodesRoundTrip(t *testing.T) {
	for c := R1; c < numKinds; c++ {
		got, err := ParseCard(c.String())
		if err != nil || got != c {
			t.Errorf("ParseCard(%q) = %v, %v; want %v", c.String(), got, err, c)
		}
	}
	for _, bad := range []string{"", "R0", "R6", "r1", "JOKER", "BLOCK "} {
		if _, err := ParseCard(bad); err == nil {
			t.Errorf("ParseCard(%q) accepted", bad)
		}
	}
}

func TestCardColoursAndNumbers(t *testing.T) {
	for _, tc := range []struct {
		card   Card
		col    Color
		number int
		wild   bool
	}{{R1, Red, 1, false}, {R5, Red, 5, false}, {RW, Red, 0, true}, {B3, Blue, 3, false}, {BW, Blue, 0, true}} {
		if tc.card.Color() != tc.col || tc.card.Number() != tc.number || tc.card.IsWild() != tc.wild {
			t.Errorf("%s: colour %s number %d wild %v, want %s %d %v",
				tc.card, tc.card.Color(), tc.card.Number(), tc.card.IsWild(), tc.col, tc.number, tc.wild)
		}
		if tc.number > 0 && numberCard(tc.col, tc.number) != tc.card {
			t.Errorf("numberCard(%s, %d) = %s, want %s", tc.col, tc.number, numberCard(tc.col, tc.number), tc.card)
		}
	}
	if wildOf(Red) != RW || wildOf(Blue) != BW {
		t.Errorf("wildOf: got %s %s, want RW BW", wildOf(Red), wildOf(Blue))
	}
}
