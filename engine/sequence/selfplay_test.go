package sequence

import (
	"errors"
	"testing"
)

func TestSelfPlayIsPureAndAddsUp(t *testing.T) {
	cfg := Config{Players: 6, Teams: 3}
	a := SelfPlay(cfg, 50, 9)
	b := SelfPlay(cfg, 50, 9)
	if a != b {
		t.Fatalf("two runs with one seed differ: %+v and %+v", a, b)
	}
	if a.Err != nil || a.Games != 50 || a.Wins[0]+a.Wins[1]+a.Wins[2]+a.Draws != 50 || a.Plies < 50*20 {
		t.Fatalf("got %+v, want 50 games that add up", a)
	}
	if c := SelfPlay(cfg, 50, 10); c == a {
		t.Fatalf("another seed gave the same games: %+v", c)
	}
}

func TestSelfPlayRefusesABadConfig(t *testing.T) {
	got := SelfPlay(Config{Players: 5, Teams: 2}, 10, 1)
	if !errors.Is(got.Err, ErrSetup) || got.Games != 0 {
		t.Fatalf("got %+v, want no games and %v", got, ErrSetup)
	}
}
