package sequence

import "testing"

// The hot path does not allocate.
func TestHotPathDoesNotAllocate(t *testing.T) {
	s := midgame(t, 20)
	buf := make([]Move, 0, MaxMoves)
	moves := LegalMoves(&s, buf)
	m := moves[0]
	for name, f := range map[string]func(){
		"LegalMoves": func() { LegalMoves(&s, buf) },
		"Legal":      func() { _ = Legal(&s, s.Turn(), m) },
		"Apply":      func() { _, _ = Apply(s, s.Turn(), m) },
		"Do":         func() { c := s; _ = c.Do(c.Turn(), m) },
	} {
		if got := testing.AllocsPerRun(100, f); got != 0 {
			t.Errorf("%s: got %v allocations, want 0", name, got)
		}
	}
}
