package stacks

import "testing"

func TestNotationReadsEveryMoveKind(t *testing.T) {
	for _, tc := range []struct {
		seat int
		text string
		want Move
	}{
		{0, "R3>0", Play(0, R3, 0)},
		{1, "R1>new", Play(1, R1, NewPile)},
		{1, "BW>new", Play(1, BW, NewPile)},
		{2, "^R3>1", PlayDiscard(2, R3, 1)},
		{0, "SKIP", Special(0, Skip)},
		{0, "^REVERSE", Move{Kind: MovePlay, Seat: 0, Card: Reverse, FromDiscard: true}},
		{3, "STEAL_CARD@2:discard", StealCardMove(3, 2, TakeDiscard)},
		{3, "STEAL_CARD@2:hand", StealCardMove(3, 2, TakeHand)},
		{0, "STEAL_CHIP@1:red", StealChipMove(0, 1, Red)},
		{0, "^STEAL_CHIP@5:blue", Move{Kind: MovePlay, Card: StealChip, FromDiscard: true, Target: 5, Color: Blue}},
		{2, "BLOCK", BlockMove(2)},
		{2, "noblock", NoBlock(2)},
		{Server, "close", CloseWindow()},
		{0, "/B2", Discard(0, B2)},
		{4, "/", EndTurn(4)},
	} {
		got, err := ParseMove(tc.seat, tc.text)
		if err != nil || got != tc.want {
			t.Errorf("ParseMove(%d, %q) = %+v, %v; want %+v", tc.seat, tc.text, got, err, tc.want)
			continue
		}
		if s := got.String(); s != tc.text {
			t.Errorf("%+v.String() = %q, want %q", got, s, tc.text)
		}
	}
}

func TestNotationRefusesMalformedText(t *testing.T) {
	for _, text := range []string{
		"", "R3", "R3>", "R3>4", "R3>10", "R3>-1", "R3>old", "SKIP>0", "BLOCK>0", "^BLOCK",
		"STEAL_CARD", "STEAL_CARD@2", "STEAL_CARD@2:red", "STEAL_CHIP@1:hand", "STEAL_CHIP@6:red",
		"SKIP@1:red", "R3@1:red", "/R9", "//", "^/B2", "^^R1>0", "noblock ", "NOBLOCK", "r3>0",
	} {
		if m, err := ParseMove(0, text); err == nil {
			t.Errorf("ParseMove(0, %q) = %+v, want an error", text, m)
		}
	}
	if _, err := ParseMove(6, "SKIP"); err == nil {
		t.Error("ParseMove accepted seat 6")
	}
}

// Every legal move of many random positions has a text that reads back to it.
func TestNotationRoundTripsEveryLegalMove(t *testing.T) {
	var buf [MaxLegalMoves]Move
	forRandomStates(t, 4, 20, func(s *State) {
		for _, m := range LegalMoves(s, buf[:0]) {
			back, err := ParseMove(int(m.Seat), m.String())
			if err != nil || back != m {
				t.Fatalf("ParseMove(%d, %q) = %+v, %v; want %+v", m.Seat, m.String(), back, err, m)
			}
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"R3>0", "^RW>new", "STEAL_CARD@2:hand", "STEAL_CHIP@1:red", "/B2", "/", "BLOCK", "noblock", "close", "^SKIP"} {
		f.Add(0, s)
	}
	f.Fuzz(func(t *testing.T, seat int, text string) {
		m, err := ParseMove(seat, text)
		if err != nil {
			return
		}
		out := m.String()
		back, err := ParseMove(seat, out)
		if err != nil || back != m {
			t.Fatalf("%q read as %+v, written %q, read back %+v, %v", text, m, out, back, err)
		}
		if out != text {
			t.Fatalf("%q is accepted but written %q: two texts for one move", text, out)
		}
	})
}
