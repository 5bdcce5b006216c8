package bot

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/sequence"
	"github.com/seqleague/seqleague/engine/stacks"
)

// The strong level's budget in tests: enough to search, small enough to
// keep the package's tests quick.
const testIterations = 60

// seqPositions plays random games of cfg and collects states where some
// seat must move, every few plies.
func seqPositions(t testing.TB, cfg sequence.Config, games, every int) []sequence.State {
	t.Helper()
	var out []sequence.State
	buf := make([]sequence.Move, 0, sequence.MaxMoves)
	for g := 0; g < games; g++ {
		s, err := sequence.NewGame(cfg, rng.SeedFromUint64(uint64(100+g)))
		if err != nil {
			t.Fatal(err)
		}
		r := rng.NewUint64(uint64(g))
		for ply := 0; s.Status() == sequence.Playing; ply++ {
			if ply%every == every/2 {
				out = append(out, s)
			}
			moves := sequence.LegalMoves(&s, buf)
			if err := s.Do(s.Turn(), moves[r.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// stPositions does the same for Stacks, block windows included.
func stPositions(t testing.TB, players, games, every int) []stacks.State {
	t.Helper()
	var out []stacks.State
	buf := make([]stacks.Move, 0, stacks.MaxLegalMoves)
	for g := 0; g < games; g++ {
		s, err := stacks.New(stacks.Config{Players: players, PlayCap: 60}, rng.SeedFromUint64(uint64(200+g)))
		if err != nil {
			t.Fatal(err)
		}
		r := rng.NewUint64(uint64(g))
		for ply := 0; !s.Over(); ply++ {
			if ply%every == every/2 || s.Phase() == stacks.PhaseWindow {
				out = append(out, s)
			}
			moves := stacks.LegalMoves(&s, buf)
			if err := s.Apply(moves[r.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// stActors are the seats that may move in s (the server excluded).
func stActors(s *stacks.State) []int {
	var out []int
	for p := 0; p < s.Players(); p++ {
		if s.MayAct(p) {
			out = append(out, p)
		}
	}
	return out
}

// otherSeqDeal rebuilds s with the cards seat cannot see dealt anew: the
// same view, different hidden cards.
func otherSeqDeal(t testing.TB, s *sequence.State, seat int, seed uint64) sequence.State {
	t.Helper()
	v := s.ViewFor(seat)
	d := newSeqDealer(&v, nil)
	r := rng.NewUint64(seed)
	x, err := d.deal(&r)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func otherStDeal(t testing.TB, s *stacks.State, seat int, seed uint64) stacks.State {
	t.Helper()
	v := s.ViewFor(seat)
	g := newStGame(&v)
	r := rng.NewUint64(seed)
	x, err := g.deal(&r)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestFairness: two states that a seat cannot tell apart — the same view,
// different hidden cards (other hands, draw pile order, generator) — give
// every level the same decision with the same seed.
func TestFairness(t *testing.T) {
	budget := Budget{Iterations: testIterations}
	t.Run("sequence", func(t *testing.T) {
		states := seqPositions(t, sequence.Config{Players: 2, Teams: 2}, 20, 5)
		states = append(states, seqPositions(t, sequence.Config{Players: 4, Teams: 2}, 6, 7)...)
		states = append(states, seqPositions(t, sequence.Config{Players: 3, Teams: 3}, 6, 7)...)
		differ := 0
		for _, level := range Levels {
			b, _ := ForSequence(level)
			for i := range states {
				seat := states[i].Turn()
				s1 := otherSeqDeal(t, &states[i], seat, 1)
				s2 := otherSeqDeal(t, &states[i], seat, 2)
				if s1 != s2 {
					differ++
				}
				v1, v2 := s1.ViewFor(seat), s2.ViewFor(seat)
				if v1 != v2 {
					t.Fatalf("position %d: the two deals show seat %d different views", i, seat)
				}
				r1, r2 := rng.NewUint64(uint64(i)), rng.NewUint64(uint64(i))
				m1, err1 := b.Choose(&v1, &r1, budget)
				m2, err2 := b.Choose(&v2, &r2, budget)
				if m1 != m2 || (err1 == nil) != (err2 == nil) {
					t.Errorf("%s, position %d: %v (%v) with one deal, %v (%v) with the other", level, i, m1, err1, m2, err2)
				}
			}
		}
		if differ == 0 {
			t.Fatal("the hidden deals never differed: the test tests nothing")
		}
	})
	t.Run("stacks", func(t *testing.T) {
		states := stPositions(t, 2, 12, 5)
		states = append(states, stPositions(t, 4, 6, 7)...)
		differ := 0
		for _, level := range Levels {
			b, _ := ForStacks(level)
			for i := range states {
				for _, seat := range stActors(&states[i]) {
					s1 := otherStDeal(t, &states[i], seat, 1)
					s2 := otherStDeal(t, &states[i], seat, 2)
					if s1 != s2 {
						differ++
					}
					v1, v2 := s1.ViewFor(seat), s2.ViewFor(seat)
					if !reflect.DeepEqual(v1, v2) {
						t.Fatalf("position %d: the two deals show seat %d different views", i, seat)
					}
					r1, r2 := rng.NewUint64(uint64(i)), rng.NewUint64(uint64(i))
					m1, err1 := b.Choose(&v1, &r1, budget)
					m2, err2 := b.Choose(&v2, &r2, budget)
					if m1 != m2 || (err1 == nil) != (err2 == nil) {
						t.Errorf("%s, position %d seat %d: %v (%v) with one deal, %v (%v) with the other", level, i, seat, m1, err1, m2, err2)
					}
				}
			}
		}
		if differ == 0 {
			t.Fatal("the hidden deals never differed: the test tests nothing")
		}
	})
}

// TestDeterminism: the same view, seed and iteration budget give the same
// move, and an arena game replays exactly.
func TestDeterminism(t *testing.T) {
	budget := Budget{Iterations: testIterations}
	seqStates := seqPositions(t, sequence.Config{Players: 2, Teams: 2}, 2, 11)
	stStates := stPositions(t, 3, 2, 11)
	for _, level := range Levels {
		sb, _ := ForSequence(level)
		for i := range seqStates {
			v := seqStates[i].ViewFor(seqStates[i].Turn())
			r1, r2 := rng.NewUint64(7), rng.NewUint64(7)
			m1, _ := sb.Choose(&v, &r1, budget)
			m2, _ := sb.Choose(&v, &r2, budget)
			if m1 != m2 {
				t.Errorf("sequence %s, position %d: %v then %v", level, i, m1, m2)
			}
		}
		tb, _ := ForStacks(level)
		for i := range stStates {
			for _, seat := range stActors(&stStates[i]) {
				v := stStates[i].ViewFor(seat)
				r1, r2 := rng.NewUint64(7), rng.NewUint64(7)
				m1, _ := tb.Choose(&v, &r1, budget)
				m2, _ := tb.Choose(&v, &r2, budget)
				if m1 != m2 {
					t.Errorf("stacks %s, position %d seat %d: %v then %v", level, i, seat, m1, m2)
				}
			}
		}
	}
	cfg := sequence.Config{Players: 2, Teams: 2}
	for i := 0; i < 2; i++ {
		o1, err1 := ArenaSequence(cfg, Strong, Greedy, 20, 3, i)
		o2, err2 := ArenaSequence(cfg, Strong, Greedy, 20, 3, i)
		if err1 != nil || err2 != nil || o1 != o2 {
			t.Errorf("sequence arena game %d: %v (%v) then %v (%v)", i, o1, err1, o2, err2)
		}
		s1, err1 := ArenaStacks(stacks.Config{Players: 2}, Strong, Greedy, 20, 3, i)
		s2, err2 := ArenaStacks(stacks.Config{Players: 2}, Strong, Greedy, 20, 3, i)
		if err1 != nil || err2 != nil || s1 != s2 {
			t.Errorf("stacks arena game %d: %v (%v) then %v (%v)", i, s1, err1, s2, err2)
		}
	}
}

// TestLegalMoves: every level returns a legal move over many positions of
// random games, for every table the rules allow.
func TestLegalMoves(t *testing.T) {
	budget := Budget{Iterations: 30}
	configs := []sequence.Config{
		{Players: 2, Teams: 2}, {Players: 3, Teams: 3}, {Players: 4, Teams: 2}, {Players: 6, Teams: 2},
		{Players: 6, Teams: 3}, {Players: 8, Teams: 2}, {Players: 9, Teams: 3}, {Players: 10, Teams: 2},
		{Players: 12, Teams: 2}, {Players: 12, Teams: 3},
		{Variant: sequence.Bordered, Players: 2, Teams: 2}, {Variant: sequence.Bordered, Players: 6, Teams: 3},
	}
	games, every := 8, 3
	if testing.Short() {
		games, every = 2, 7
	}
	for _, cfg := range configs {
		name := fmt.Sprintf("sequence %v %dp%dt", cfg.Variant, cfg.Players, cfg.Teams)
		t.Run(name, func(t *testing.T) {
			states := seqPositions(t, cfg, games, every)
			for _, level := range Levels {
				b, _ := ForSequence(level)
				for i := range states {
					s := &states[i]
					v := s.ViewFor(s.Turn())
					r := rng.NewUint64(uint64(i))
					m, err := b.Choose(&v, &r, budget)
					if err != nil {
						t.Fatalf("%s, position %d: %v", level, i, err)
					}
					if err := sequence.Legal(s, s.Turn(), m); err != nil {
						t.Errorf("%s, position %d: %v is illegal: %v", level, i, m, err)
					}
				}
			}
		})
	}
	for players := stacks.MinPlayers; players <= stacks.MaxPlayers; players++ {
		t.Run(fmt.Sprintf("stacks %dp", players), func(t *testing.T) {
			states := stPositions(t, players, games, every)
			for _, level := range Levels {
				b, _ := ForStacks(level)
				for i := range states {
					s := &states[i]
					for _, seat := range stActors(s) {
						v := s.ViewFor(seat)
						r := rng.NewUint64(uint64(i))
						m, err := b.Choose(&v, &r, budget)
						if err != nil {
							t.Fatalf("%s, position %d seat %d: %v", level, i, seat, err)
						}
						if err := s.Legal(m); err != nil {
							t.Errorf("%s, position %d seat %d: %v is illegal: %v", level, i, seat, m, err)
						}
					}
				}
			}
		})
	}
}

// TestCannotAct: a seat that may not move gets ErrCannotAct, not a move.
func TestCannotAct(t *testing.T) {
	s, _ := sequence.NewGame(sequence.Config{Players: 2, Teams: 2}, rng.SeedFromUint64(1))
	st, _ := stacks.New(stacks.Config{Players: 2}, rng.SeedFromUint64(1))
	for _, level := range Levels {
		sb, _ := ForSequence(level)
		v := s.ViewFor(1)
		r := rng.NewUint64(1)
		if _, err := sb.Choose(&v, &r, Budget{Iterations: 10}); err == nil {
			t.Errorf("sequence %s moved for seat 1 on seat 0's turn", level)
		}
		tb, _ := ForStacks(level)
		w := st.SpectatorView()
		if _, err := tb.Choose(&w, &r, Budget{Iterations: 10}); err == nil {
			t.Errorf("stacks %s moved for a spectator", level)
		}
	}
	if _, err := ForSequence("grandmaster"); err == nil {
		t.Error("ForSequence accepted an unknown level")
	}
}
