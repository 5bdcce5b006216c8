package bot

import (
	"slices"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/sequence"
	"github.com/seqleague/seqleague/engine/stacks"
)

// Board reminders (rules.md 1.2): row 3 is 7C AS 2D 3D 4D 5D 6D 7D 9H QS,
// row 5 is 9C QS 7C 6H 5H 4H AH 9D 7H AS, row 6 is TC TS 8C 7H 2H 3H KH TD
// 6H 2D, row 9 is AC 7S 6S 5S 4S 3S 2S 2H 3H 5D.

func TestSequenceGreedy(t *testing.T) {
	tests := []struct {
		name string
		f    seqFixture
		want []string // any of these
	}{
		{
			name: "greedy completes a sequence when it can",
			f: seqFixture{chips: "a:b5 c5 d5 e5 b:a5", mine: "4H 2S 3S KD QD 8D 6D",
				theirs: "7D", deck: "TC"},
			want: []string{"4H@f5"},
		},
		{
			name: "greedy blocks an open four",
			f: seqFixture{chips: "b:c6 d6 e6 f6 a:b6 a5", mine: "KH 2S 3S 8D 6D AD TD",
				theirs: "7D", deck: "TC"},
			want: []string{"KH@g6"},
		},
		{
			name: "greedy turns in a dead card before playing",
			f: seqFixture{chips: "a:b1 b:g9", mine: "2S 3S KD QD 8D 6D 4C",
				theirs: "7D", deck: "TC"},
			want: []string{"x2S"},
		},
		{
			name: "greedy keeps its two-eyed jack when a board card will do",
			f: seqFixture{chips: "a:e5 b:f6", mine: "JC 2S 3S KD QD 8D 6D",
				theirs: "7D", deck: "TC"},
			want: nil, // checked below: not JC
		},
		{
			name: "greedy wins with a two-eyed jack",
			f: seqFixture{chips: "a:b9 c9 d9 e9 f9 b3 c3 d3 e3 b:a3", sequences: map[string]string{"a": "b9-f9"},
				mine: "JD 2S 3S KD QD 8D 6D", theirs: "7D", deck: "TC"},
			want: []string{"JD@f3"},
		},
		{
			name: "greedy saves the game with a two-eyed jack on the gap of a winning four",
			f: seqFixture{chips: "b:b9 c9 d9 e9 f9 b3 c3 d3 e3 a:a3", sequences: map[string]string{"b": "b9-f9"},
				mine: "JD 2S 3S KD QD 8D 6D", theirs: "7D", deck: "TC"},
			want: []string{"JD@f3"},
		},
		{
			name: "greedy spends a one-eyed jack on a winning four it cannot block",
			f: seqFixture{chips: "b:b9 c9 d9 e9 f9 b3 c3 d3 e3 a:a3", sequences: map[string]string{"b": "b9-f9"},
				mine: "JH 2S 3S KD QD 8D 6D", theirs: "7D", deck: "TC"},
			want: []string{"JHxb3", "JHxc3", "JHxd3", "JHxe3"},
		},
	}
	g := seqGreedy{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := tt.f.view(t)
			r := rng.NewUint64(1)
			m, err := g.Choose(&v, &r, Budget{})
			if err != nil {
				t.Fatal(err)
			}
			if err := v.Legal(m); err != nil {
				t.Fatalf("greedy chose %v, which is illegal: %v", m, err)
			}
			got := m.String()
			if tt.want == nil {
				if m.Card.IsTwoEyed() {
					t.Errorf("got %s, want a board card", got)
				}
				return
			}
			if !slices.Contains(tt.want, got) {
				t.Errorf("got %s, want one of %v", got, tt.want)
			}
		})
	}
}

func TestStacksGreedy(t *testing.T) {
	red, blue := stacks.Red, stacks.Blue
	tests := []struct {
		name string
		f    stFixture
		seat int
		want []string // any of these
		not  []string // none of these
	}{
		{
			name: "greedy completes a pile when it can",
			f: stFixture{piles: []stacks.Pile{pile(t, red, "R1 R2 R3 R4")},
				hands: []string{"R5 B2 B3 B3 B4", "B1 B1 B1 B1 B1"}, deck: "R1 R1 R1 R1 R1"},
			want: []string{"R5>0"},
		},
		{
			name: "greedy plays the longest chain, starting at its bottom",
			f: stFixture{piles: []stacks.Pile{pile(t, red, "R1 R2")},
				hands: []string{"R3 R4 R5 B2 B4", "B1 B1 B1 B1 B1"}, deck: "R1 R1 R1 R1 R1"},
			want: []string{"R3>0"},
		},
		{
			name: "greedy completes with a wild when the number is missing",
			f: stFixture{piles: []stacks.Pile{pile(t, blue, "B1 B2 B3 B4")},
				hands: []string{"BW R2 R3 R3 R4", "B1 B1 B1 B1 B1"}, deck: "R1 R1 R1 R1 R1"},
			want: []string{"BW>0"},
		},
		{
			name: "greedy does not leave a pile at four for the next player",
			f: stFixture{piles: []stacks.Pile{pile(t, red, "R1 R2 R3")},
				hands: []string{"R4 B2 B2 B4 B4", "B1 B1 B1 B1 B1"}, deck: "R1 R1 R1 R1 R1"},
			not: []string{"R4>0"},
		},
		{
			name: "greedy steals the chip it needs from the leader",
			f: stFixture{hands: []string{"STEAL_CHIP R2 R4 B2 B4", "B1 B1 B1 B1 B1"},
				chips: []stacks.Chips{{Red: 3}, {Red: 1, Blue: 2}}, deck: "R1 R1 R1 R1 R1"},
			want: []string{"STEAL_CHIP@1:blue"},
		},
		{
			name: "greedy plays SKIP for another turn",
			f:    stFixture{hands: []string{"SKIP R2 R4 B2 B4", "B1 B1 B1 B1 B1"}, deck: "R1 R1 R1 R1 R1"},
			want: []string{"SKIP"},
		},
		{
			name: "greedy discards a card it cannot use and keeps its wild",
			f: stFixture{piles: []stacks.Pile{pile(t, red, "R1"), pile(t, red, "R1"), pile(t, blue, "B1"), pile(t, blue, "B1")},
				hands: []string{"RW R5 R5 B5 B5", "B1 B1 B1 B1 B1"}, deck: "R1 R1 R1 R1 R1"},
			want: []string{"/R5", "/B5"},
		},
		{
			name: "greedy blocks the chip that would win",
			f: stFixture{hands: []string{"BLOCK R2 R4 B2 B4", "B1 B1 B1"},
				chips: []stacks.Chips{{}, {Red: 2, Blue: 2}}, deck: "R1 R1 R1 R1 R1", turn: 1,
				window: &stacks.WindowPosition{Color: red}},
			want: []string{"BLOCK"},
		},
		{
			name: "greedy lets through a chip the completer does not need",
			f: stFixture{hands: []string{"BLOCK R2 R4 B2 B4", "B1 B1 B1"},
				chips: []stacks.Chips{{}, {Red: 3}}, deck: "R1 R1 R1 R1 R1", turn: 1,
				window: &stacks.WindowPosition{Color: red}},
			want: []string{"noblock"},
		},
	}
	g := stGreedy{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.f.state(t)
			v := s.ViewFor(tt.seat)
			r := rng.NewUint64(1)
			m, err := g.Choose(&v, &r, Budget{})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Legal(m); err != nil {
				t.Fatalf("greedy chose %v, which is illegal: %v", m, err)
			}
			got := m.String()
			if tt.want != nil && !slices.Contains(tt.want, got) {
				t.Errorf("got %s, want one of %v", got, tt.want)
			}
			if slices.Contains(tt.not, got) {
				t.Errorf("got %s, want anything but %v", got, tt.not)
			}
		})
	}
}

func TestRandomExchangesADeadCard(t *testing.T) {
	v := seqFixture{chips: "a:b1 b:g9", mine: "2S 3S KD QD 8D 6D 4C", theirs: "7D", deck: "TC"}.view(t)
	for seed := uint64(0); seed < 20; seed++ {
		r := rng.NewUint64(seed)
		m, err := seqRandom{}.Choose(&v, &r, Budget{})
		if err != nil {
			t.Fatal(err)
		}
		if m.Kind != sequence.KindExchange {
			t.Fatalf("seed %d: got %v, want the exchange x2S", seed, m)
		}
	}
}
