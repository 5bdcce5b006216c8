package stacks

import (
	"errors"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

// forRandomStates plays games random games of players seats and calls fn on
// every state reached, the deal included.
func forRandomStates(t testing.TB, players, games int, fn func(*State)) {
	t.Helper()
	var buf [MaxLegalMoves]Move
	for g := 0; g < games; g++ {
		s, err := New(Config{Players: players}, rng.SeedFromUint64(uint64(1000*players+g)))
		if err != nil {
			t.Fatal(err)
		}
		r := rng.NewUint64(uint64(g))
		for fn(&s); !s.Over(); fn(&s) {
			moves := LegalMoves(&s, buf[:0])
			s.apply(moves[r.IntN(len(moves))])
		}
	}
}

// A thousand random games per player count all end, won or drawn, and every
// invariant holds after every move: cards and chips conserved, piles are
// runs, the empty-hand draw, the block window's bookkeeping.
func TestRandomGamesEndWithEveryInvariantHolding(t *testing.T) {
	games := 1000
	if testing.Short() {
		games = 100
	}
	for players := MinPlayers; players <= MaxPlayers; players++ {
		var won, drawn int
		forRandomStates(t, players, games, func(s *State) {
			if err := conserved(s); err != nil {
				t.Fatalf("%d players, turn %d: %v", players, s.turns, err)
			}
			switch o := s.Outcome(); o.Status {
			case Finished:
				won++
				if c := s.Chips(o.Winner); !wins(c[Red], c[Blue]) {
					t.Fatalf("seat %d won with chips %v", o.Winner, c)
				}
			case Drawn:
				drawn++
				if s.Turns() != DefaultPlayCap {
					t.Fatalf("drawn after %d turns, want %d", s.Turns(), DefaultPlayCap)
				}
			}
		})
		if won+drawn != games {
			t.Errorf("%d players: %d won + %d drawn, want %d games", players, won, drawn, games)
		}
		if won == 0 {
			t.Errorf("%d players: no random game was won", players)
		}
	}
}

// allMoves is every move a client could send in a game of players seats,
// canonical or not: the universe LegalMoves and Legal must agree on. Targets,
// takes and colours are varied on the cards where they matter and on one
// where they must be zero.
func allMoves(players int) []Move {
	var all []Move
	for seat := Server; seat <= players; seat++ {
		s8 := int8(seat)
		all = append(all, BlockMove(seat), NoBlock(seat), EndTurn(seat),
			Move{Kind: MoveClose, Seat: s8}, Move{Kind: MoveBlock, Seat: s8},
			Move{Kind: MoveNone, Seat: s8}, Move{Kind: MoveNoBlock, Seat: s8, Card: Block},
			Move{Kind: MoveEndTurn, Seat: s8, Card: R1}, Move{Kind: MoveClose + 1, Seat: s8})
		for c := NoCard; c <= numKinds; c++ {
			all = append(all, Discard(seat, c), Move{Kind: MoveDiscard, Seat: s8, Card: c, FromDiscard: true})
			for _, fd := range []bool{false, true} {
				base := Move{Kind: MovePlay, Seat: s8, Card: c, FromDiscard: fd}
				all = append(all, base)
				for pile := int8(NewPile); pile <= MaxPiles; pile++ {
					m := base
					m.Pile = pile
					all = append(all, m)
				}
				if c != StealCard && c != StealChip && c != Skip {
					continue
				}
				for target := int8(-1); target <= int8(players); target++ {
					for take := TakeDiscard; take <= TakeHand+1; take++ {
						m := base
						m.Target, m.Take = target, take
						all = append(all, m)
					}
					for col := Red; col <= Blue+1; col++ {
						m := base
						m.Target, m.Color = target, col
						all = append(all, m)
					}
				}
			}
		}
	}
	return all
}

func TestLegalMovesAndLegalAgree(t *testing.T) {
	var buf [MaxLegalMoves]Move
	for players := MinPlayers; players <= MaxPlayers; players++ {
		universe := allMoves(players)
		n := 0
		forRandomStates(t, players, 4, func(s *State) {
			n++
			if n%5 != 0 { // a sample keeps the test quick
				return
			}
			legal := map[Move]bool{}
			for _, m := range LegalMoves(s, buf[:0]) {
				if legal[m] {
					t.Fatalf("LegalMoves lists %+v twice", m)
				}
				legal[m] = true
				if err := s.Legal(m); err != nil {
					t.Fatalf("LegalMoves lists %s (seat %d) but Legal says %v", m, m.Seat, err)
				}
			}
			for _, m := range universe {
				err := s.Legal(m)
				if (err == nil) != legal[m] {
					t.Fatalf("%+v: Legal says %v, LegalMoves lists it: %v", m, err, legal[m])
				}
				if err != nil && !errors.Is(err, ErrIllegal) && !errors.Is(err, ErrNotYourTurn) &&
					!errors.Is(err, ErrWindowOpen) && !errors.Is(err, ErrGameOver) {
					t.Fatalf("%+v: error %v wraps none of the package's errors", m, err)
				}
			}
			for seat := Server; seat < players; seat++ {
				own := LegalMovesFor(s, seat, nil)
				for _, m := range own {
					if int(m.Seat) != seat || !legal[m] {
						t.Fatalf("LegalMovesFor(%d) lists %+v", seat, m)
					}
				}
				if (len(own) > 0) != s.MayAct(seat) {
					t.Fatalf("seat %d: %d moves but MayAct %v", seat, len(own), s.MayAct(seat))
				}
			}
		})
	}
}

// LegalMoves is on the hot path of self-play and bots: it must not allocate.
func TestLegalMovesDoesNotAllocate(t *testing.T) {
	s, _ := New(Config{Players: 4}, rng.SeedFromUint64(3))
	buf := make([]Move, 0, MaxLegalMoves)
	allocs := testing.AllocsPerRun(100, func() { buf = LegalMoves(&s, buf) })
	if allocs != 0 {
		t.Errorf("LegalMoves allocates %v times per call, want 0", allocs)
	}
}
