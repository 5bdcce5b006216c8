package sequence

import (
	"errors"
	"fmt"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

func TestEveryAllowedTableIsDealtItsHandSize(t *testing.T) {
	want := map[[2]int]int{
		{2, 2}: 7, {3, 3}: 6, {4, 2}: 6, {6, 2}: 5, {6, 3}: 5,
		{8, 2}: 4, {9, 3}: 4, {10, 2}: 3, {12, 2}: 3, {12, 3}: 3,
	}
	for _, v := range []Variant{Classic, Bordered} {
		for _, cfg := range allConfigs {
			cfg.Variant = v
			s, err := NewGame(cfg, rng.SeedFromUint64(5))
			if err != nil {
				t.Fatalf("%+v: %v", cfg, err)
			}
			deal := want[[2]int{cfg.Players, cfg.Teams}]
			for seat := 0; seat < cfg.Players; seat++ {
				if got := s.HandSize(seat); got != deal {
					t.Errorf("%+v seat %d: got %d cards, want %d", cfg, seat, got, deal)
				}
				if got, want := s.TeamOf(seat), seat%cfg.Teams; got != want {
					t.Errorf("%+v seat %d: got team %d, want %d", cfg, seat, got, want)
				}
			}
			if got, want := s.DeckSize(), FullDeckSize(v)-deal*cfg.Players; got != want {
				t.Errorf("%+v: got a draw pile of %d, want %d", cfg, got, want)
			}
		}
	}
}

func TestSetUpRefused(t *testing.T) {
	tests := []Config{
		{Players: 1, Teams: 1}, {Players: 2, Teams: 1}, {Players: 2, Teams: 3},
		{Players: 4, Teams: 3}, {Players: 4, Teams: 4}, {Players: 5, Teams: 2},
		{Players: 7, Teams: 2}, {Players: 9, Teams: 2}, {Players: 10, Teams: 3},
		{Players: 14, Teams: 2}, {Players: 0, Teams: 0}, {Players: -2, Teams: 2},
		{Players: 2, Teams: 2, Variant: 7},
		{Players: 2, Teams: 2, Options: Options{SequencesToWin: 5}},
		{Players: 2, Teams: 2, Options: Options{SequencesToWin: -1}},
		{Players: 2, Teams: 2, Options: Options{PlayCap: -1}},
	}
	for _, cfg := range tests {
		t.Run(fmt.Sprintf("%+v", cfg), func(t *testing.T) {
			if _, err := NewGame(cfg, rng.Seed{}); !errors.Is(err, ErrSetup) {
				t.Fatalf("got %v, want %v", err, ErrSetup)
			}
		})
	}
}

func TestDefaultTargets(t *testing.T) {
	for _, tt := range []struct {
		cfg  Config
		want int
	}{
		{Config{Players: 2, Teams: 2}, 2},
		{Config{Players: 6, Teams: 3}, 1},
		{Config{Players: 6, Teams: 3, Options: Options{SequencesToWin: 3}}, 3},
	} {
		s, err := NewGame(tt.cfg, rng.Seed{})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.SequencesToWin(); got != tt.want {
			t.Errorf("%+v: got target %d, want %d", tt.cfg, got, tt.want)
		}
		if got := s.Config().Options.PlayCap; got != DefaultPlayCap {
			t.Errorf("%+v: got play cap %d, want %d", tt.cfg, got, DefaultPlayCap)
		}
	}
}

// The deal is pinned: changing it would change every archived game.
func TestGoldenDeal(t *testing.T) {
	s, err := NewGame(twoPlayers, rng.SeedFromUint64(1))
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(s.Hand(0), s.Hand(1), s.Deck()[:8])
	const want = "[QD 5D 9H 8C 8S 5C 5C] [JD TD 3C 3H AC 4D 6H] [6D 4H 8C 7C 2D TD KH JC]"
	if got != want {
		t.Fatalf("the deal changed:\n got %s\nwant %s", got, want)
	}
	b, err := NewGame(Config{Variant: Bordered, Players: 3, Teams: 3}, rng.SeedFromUint64(1))
	if err != nil {
		t.Fatal(err)
	}
	got = fmt.Sprint(b.Hand(0), b.Hand(1), b.Hand(2), b.Deck()[:8])
	const wantBordered = "[5C 3C W+ 8C QC 6H] [3C KH 6H KC 8H W+] [9D TC 9S W- QD KC] [6D 4C 4D 4D W- 7H 5H AS]"
	if got != wantBordered {
		t.Fatalf("the bordered deal changed:\n got %s\nwant %s", got, wantBordered)
	}
}

// The deal is the documented procedure: the canonical deck (every card's
// copies side by side, in card order), rng.Shuffle from the seed, dealt one
// card at a time from the top (the last element), seat 0 first.
func TestDealFollowsTheDocumentedProcedure(t *testing.T) {
	seed := rng.SeedFromUint64(3)
	var deck []Card
	for suit := 0; suit < 4; suit++ {
		for rank := 0; rank < 13; rank++ {
			c, _ := MakeCard(rankLetters[rank], suitLetters[suit])
			deck = append(deck, c, c)
		}
	}
	r := rng.New(seed)
	rng.Shuffle(&r, deck)
	var want [4][]Card
	for round := 0; round < 6; round++ {
		for seat := 0; seat < 4; seat++ {
			want[seat] = append(want[seat], deck[len(deck)-1])
			deck = deck[:len(deck)-1]
		}
	}
	s, err := NewGame(Config{Players: 4, Teams: 2}, seed)
	if err != nil {
		t.Fatal(err)
	}
	for seat := range want {
		if got := s.Hand(seat); fmt.Sprint(got) != fmt.Sprint(want[seat]) {
			t.Errorf("seat %d: got %v, want %v", seat, got, want[seat])
		}
	}
	if got := s.Deck(); fmt.Sprint(got[0]) != fmt.Sprint(deck[len(deck)-1]) || len(got) != len(deck) {
		t.Errorf("got draw pile top %v of %d, want %v of %d", got[0], len(got), deck[len(deck)-1], len(deck))
	}
}

// A game is a pure function of its set-up, seed and moves (rules.md part 3).
func TestReplayReproducesTheGameExactly(t *testing.T) {
	for g := uint64(0); g < 20; g++ {
		cfg := allConfigs[g%uint64(len(allConfigs))]
		cfg.Variant = Variant(g % 2)
		seed := rng.SeedFromUint64(g)
		s, err := NewGame(cfg, seed)
		if err != nil {
			t.Fatal(err)
		}
		type turn struct {
			seat int
			m    Move
		}
		var log []turn
		r := rng.NewUint64(g)
		for s.Status() == Playing {
			if r.IntN(50) == 0 {
				team := r.IntN(cfg.Teams)
				log = append(log, turn{Referee, Penalize(team)})
				if s, err = Apply(s, Referee, Penalize(team)); err != nil {
					t.Fatal(err)
				}
			}
			moves := LegalMoves(&s, nil)
			m := moves[r.IntN(len(moves))]
			log = append(log, turn{s.Turn(), m})
			if s, err = Apply(s, s.Turn(), m); err != nil {
				t.Fatal(err)
			}
		}
		again, _ := NewGame(cfg, seed)
		for _, tt := range log {
			if again, err = Apply(again, tt.seat, tt.m); err != nil {
				t.Fatal(err)
			}
		}
		if again != s {
			t.Fatalf("game %d: the replay differs from the game", g)
		}
	}
}
