package play

import (
	"encoding/json"
	"errors"
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
		move, err := g.BotMove(level, seat, uint64(ply), nil)
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

func TestBadSetupsNameTheFieldAtFault(t *testing.T) {
	for _, tc := range []struct {
		setup Setup
		field string
	}{
		{Setup{Game: "chess", Players: 2}, "game"},
		{Setup{Game: "sequence", Variant: "weird", Players: 2, Teams: 2}, "variant"},
		{Setup{Game: "sequence", Variant: "classic", Players: 5, Teams: 2}, "players"},
		{Setup{Game: "sequence", Variant: "classic", Players: 4, Teams: 3}, "teams"},
		{Setup{Game: "sequence", Variant: "classic", Players: 2}, "teams"},
		{Setup{Game: "sequence", Variant: "classic", Players: 2, Teams: 2, SequencesToWin: -1}, "sequences_to_win"},
		{Setup{Game: "sequence", Variant: "classic", Players: 2, Teams: 2, SequencesToWin: 5, PlayCap: -1}, "sequences_to_win"},
		{Setup{Game: "sequence", Variant: "classic", Players: 2, Teams: 2, PlayCap: -1}, "play_cap"},
		{Setup{Game: "stacks", Variant: "bordered", Players: 2}, "variant"},
		{Setup{Game: "stacks", Players: 2, SequencesToWin: 2}, "sequences_to_win"},
		{Setup{Game: "stacks", Players: 7}, "players"},
		{Setup{Game: "stacks", Players: 3, Teams: 2}, "teams"},
		{Setup{Game: "stacks", Players: 3, PlayCap: -1}, "play_cap"},
	} {
		_, err := New(tc.setup, rng.Seed{})
		var se *SetupError
		if !errors.As(err, &se) || se.Field != tc.field {
			t.Errorf("%+v: error %v; want a SetupError naming %s", tc.setup, err, tc.field)
		}
	}
}

func TestTeamCountsAreTheRulesChoices(t *testing.T) {
	for _, tc := range []struct {
		game    string
		players int
		want    []int
	}{
		{"sequence", 2, []int{2}},
		{"sequence", 3, []int{3}},
		{"sequence", 4, []int{2}},
		{"sequence", 6, []int{2, 3}},
		{"sequence", 12, []int{2, 3}},
		{"sequence", 5, nil},
		{"stacks", 4, []int{4}},
		{"stacks", 7, nil},
		{"chess", 2, nil},
	} {
		if got := TeamCounts(tc.game, tc.players); !slices.Equal(got, tc.want) {
			t.Errorf("TeamCounts(%s, %d) = %v, want %v", tc.game, tc.players, got, tc.want)
		}
	}
}

// A strong bot told to stop at once still answers with a legal move, having
// looked at every candidate once, and asks stop as it searches: a time
// limit ends its search instead of holding the caller.
func TestAStrongBotStoppedAtOnceStillPlaysALegalMove(t *testing.T) {
	for _, s := range setups {
		g, _ := playOut(t, s, "greedy", 7, 10)
		if g.InWindow() || g.Status().Over {
			t.Fatalf("%s: no turn to play after 10 plies", s.Game)
		}
		seat := g.Turn()
		asked := 0
		move, err := g.BotMove("strong", seat, 1, func() bool { asked++; return true })
		if err != nil {
			t.Fatalf("%s: %v", s.Game, err)
		}
		if !slices.Contains(g.LegalMoves(seat), move) {
			t.Fatalf("%s: stopped strong bot chose %q, not a legal move", s.Game, move)
		}
		if len(g.LegalMoves(seat)) > 1 && asked == 0 {
			t.Errorf("%s: stop was never asked", s.Game)
		}
	}
}

// A spectator's view names its seat as Spectator in both games: Stacks
// wrote -2 and Sequence -1 in the same API field (the security audit).
func TestASpectatorsViewNamesTheSameSeatInBothGames(t *testing.T) {
	for _, s := range setups {
		g, err := New(s, rng.SeedFromUint64(1))
		if err != nil {
			t.Fatal(err)
		}
		var v struct{ Seat int }
		if err := json.Unmarshal(g.ViewJSON(Spectator), &v); err != nil {
			t.Fatal(err)
		}
		if v.Seat != Spectator {
			t.Errorf("%s: a spectator's view has seat %d, want %d", s.Game, v.Seat, Spectator)
		}
	}
}
