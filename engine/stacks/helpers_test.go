package stacks

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

// position builds a state from a position written as vector JSON.
func position(t testing.TB, players int, js string) State {
	t.Helper()
	var p Position
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatalf("position JSON: %v", err)
	}
	s, err := FromPosition(players, p, rng.Seed{})
	if err != nil {
		t.Fatalf("FromPosition: %v", err)
	}
	return s
}

// play applies a move given as seat and text, failing the test if refused.
func play(t testing.TB, s *State, seat int, text string) {
	t.Helper()
	m, err := ParseMove(seat, text)
	if err != nil {
		t.Fatalf("ParseMove(%d, %q): %v", seat, text, err)
	}
	if err := s.Apply(m); err != nil {
		t.Fatalf("seat %d %s: refused: %v", seat, text, err)
	}
}

// refused applies a move that must be refused, checks the state did not
// change, and returns the error.
func refused(t testing.TB, s *State, seat int, text string) error {
	t.Helper()
	m, err := ParseMove(seat, text)
	if err != nil {
		t.Fatalf("ParseMove(%d, %q): %v", seat, text, err)
	}
	before := *s
	err = s.Apply(m)
	if err == nil {
		t.Fatalf("seat %d %s: accepted, want refused", seat, text)
	}
	if *s != before {
		t.Fatalf("seat %d %s: refused (%v) but the state changed", seat, text, err)
	}
	return err
}

// conserved checks the invariants of a game dealt by New: every card of the
// box and all 40 chips are somewhere.
func conserved(s *State) error {
	if err := s.Validate(); err != nil {
		return err
	}
	total := int(s.deck.n + s.setaside.n)
	for p := 0; p < MaxPlayers; p++ {
		total += int(s.handN[p]) + int(s.discards[p].n)
	}
	for i := 0; i < int(s.nPiles); i++ {
		total += int(s.piles[i].n)
	}
	if want := DeckSize(int(s.players)); total != want {
		return fmt.Errorf("%d cards in play, want %d", total, want)
	}
	for col := Red; col <= Blue; col++ {
		n := int(s.supply[col])
		for p := 0; p < int(s.players); p++ {
			n += int(s.chips[p][col])
		}
		if n != ChipsPerColor {
			return fmt.Errorf("%d %s chips, want %d", n, col, ChipsPerColor)
		}
	}
	return nil
}
