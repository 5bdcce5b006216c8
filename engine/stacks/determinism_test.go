package stacks

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

// The golden deal pins the box order, the shuffle and the dealing order: a
// change here changes every archived game's deal, so it must never happen
// silently.
func TestGoldenDeal(t *testing.T) {
	s, err := New(Config{Players: 4}, rng.SeedFromUint64(2024))
	if err != nil {
		t.Fatal(err)
	}
	pos := s.Position()
	got := fmt.Sprint(pos.Hands, pos.Deck[:10], len(pos.Deck))
	const want = "[[R2 R3 RW B5 STEAL_CHIP] [R2 RW B4 B5 BW] [R3 RW B1 B4 STEAL_CHIP] [R5 BW SKIP REVERSE STEAL_CARD]] " +
		"[B1 R4 B4 R2 R3 B3 R1 RW STEAL_CARD B5] 100"
	if got != want {
		t.Fatalf("deal changed:\ngot  %s\nwant %s", got, want)
	}
	sum := sha256.Sum256([]byte(fmt.Sprint(pos.Deck)))
	if got, want := hex.EncodeToString(sum[:8]), "c0b2c03061bfeb83"; got != want {
		t.Fatalf("draw pile order changed: hash %s, want %s", got, want)
	}
}

// A game is a pure function of its set-up, seed and moves: replaying the
// moves, as text, gives the same state bit for bit, and the random
// STEAL_CARD picks and reshuffles come out the same.
func TestReplayReproducesTheStateExactly(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		cfg := Config{Players: players}
		seed := rng.SeedFromUint64(uint64(77 + players))
		s, _ := New(cfg, seed)
		type rec struct {
			seat int
			text string
		}
		var log []rec
		var buf [MaxLegalMoves]Move
		r := rng.NewUint64(5)
		for !s.Over() {
			moves := LegalMoves(&s, buf[:0])
			m := moves[r.IntN(len(moves))]
			log = append(log, rec{int(m.Seat), m.String()})
			if err := s.Apply(m); err != nil {
				t.Fatal(err)
			}
		}
		again, _ := New(cfg, seed)
		for i, e := range log {
			m, err := ParseMove(e.seat, e.text)
			if err != nil {
				t.Fatalf("move %d %q: %v", i, e.text, err)
			}
			if err := again.Apply(m); err != nil {
				t.Fatalf("replay move %d (seat %d %s): %v", i, e.seat, e.text, err)
			}
		}
		if again != s {
			t.Fatalf("%d players: replaying %d moves gave a different state", players, len(log))
		}
	}
}

func TestNewRefusesBadSetUps(t *testing.T) {
	for _, cfg := range []Config{{Players: 1}, {Players: 7}, {Players: 0}, {Players: 4, PlayCap: -1}} {
		if _, err := New(cfg, rng.Seed{}); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}

func TestDifferentSeedsDealDifferently(t *testing.T) {
	a, _ := New(Config{Players: 3}, rng.SeedFromUint64(1))
	b, _ := New(Config{Players: 3}, rng.SeedFromUint64(2))
	if a == b {
		t.Fatal("two seeds dealt the same game")
	}
	if a.Turn() != 0 || a.Direction() != 1 || a.HandSize(2) != HandSize || a.deck.n != 120-15 {
		t.Fatalf("deal: turn %d, direction %d, hand %d, deck %d; want 0, 1, 5, 105",
			a.Turn(), a.Direction(), a.HandSize(2), a.deck.n)
	}
}
