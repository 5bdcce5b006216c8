package play

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

var setups = []Setup{
	{Game: "sequence", Variant: "classic", Players: 2, Teams: 2},
	{Game: "sequence", Variant: "bordered", Players: 6, Teams: 3},
	{Game: "stacks", Players: 3},
}

// playOut plays a game with level's bots for every seat, checking each
// chosen move is among the legal ones, and returns the moves.
func playOut(t *testing.T, s Setup, level string, seed uint64, maxPlies int) (Game, []SeatMove) {
	t.Helper()
	g, err := New(s, rng.SeedFromUint64(seed))
	if err != nil {
		t.Fatal(err)
	}
	var log []SeatMove
	for ply := 0; ply < maxPlies && !g.Status().Over; ply++ {
		if g.InWindow() {
			g, err = g.Apply(-1, g.ServerMove())
			if err != nil {
				t.Fatal(err)
			}
			log = append(log, SeatMove{Seat: -1, Move: "close"})
			continue
		}
		seat := g.Turn()
		move, err := g.BotMove(level, seat, uint64(ply))
		if err != nil {
			t.Fatalf("ply %d: %v", ply, err)
		}
		if !slices.Contains(g.LegalMoves(seat), move) {
			t.Fatalf("ply %d: bot %s chose %q, not a legal move", ply, level, move)
		}
		if g, err = g.Apply(seat, move); err != nil {
			t.Fatalf("ply %d: %v", ply, err)
		}
		log = append(log, SeatMove{Seat: seat, Move: move})
	}
	return g, log
}

func TestBotsPlayLegalMovesAndReplaysReproduceTheGame(t *testing.T) {
	for _, s := range setups {
		for _, level := range []string{"random", "greedy"} {
			t.Run(s.Game+"/"+s.Variant+"/"+level, func(t *testing.T) {
				g, log := playOut(t, s, level, 7, 120)
				again, err := Replay(s, rng.SeedFromUint64(7), log)
				if err != nil {
					t.Fatal(err)
				}
				a, _ := g.VectorJSON("x")
				b, _ := again.VectorJSON("x")
				if string(a) != string(b) || g.Ply() != again.Ply() {
					t.Fatal("replaying the log gives another position")
				}
			})
		}
	}
}

func TestViewsHoldOnlyTheViewersHand(t *testing.T) {
	for _, s := range setups {
		g, _ := playOut(t, s, "random", 3, 10)
		var spectator, seat0 struct {
			Hand      []string `json:"hand"`
			HandSizes []int    `json:"hand_sizes"`
			Deck      any      `json:"deck"`
			Hands     any      `json:"hands"`
		}
		json.Unmarshal(g.ViewJSON(Spectator), &spectator)
		json.Unmarshal(g.ViewJSON(0), &seat0)
		if len(spectator.Hand) != 0 || spectator.Deck != nil || spectator.Hands != nil {
			t.Errorf("%s: the spectator view shows hidden cards", s.Game)
		}
		if len(seat0.Hand) != seat0.HandSizes[0] || seat0.Deck != nil || seat0.Hands != nil {
			t.Errorf("%s: seat 0's view: hand %v of size %d; want its own hand only", s.Game, seat0.Hand, seat0.HandSizes[0])
		}
	}
}

func TestBadSetupsAreRefused(t *testing.T) {
	for _, s := range []Setup{
		{Game: "chess", Players: 2},
		{Game: "sequence", Variant: "classic", Players: 5, Teams: 2},
		{Game: "stacks", Players: 7},
		{Game: "stacks", Players: 3, Teams: 2},
	} {
		if _, err := New(s, rng.Seed{}); err == nil {
			t.Errorf("%+v was accepted", s)
		}
	}
}
