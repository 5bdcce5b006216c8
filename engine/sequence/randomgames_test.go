package sequence

import (
	"fmt"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

// allConfigs is every player and team count of rules.md 1.3.
var allConfigs = []Config{
	{Players: 2, Teams: 2}, {Players: 3, Teams: 3}, {Players: 4, Teams: 2},
	{Players: 6, Teams: 2}, {Players: 6, Teams: 3}, {Players: 8, Teams: 2},
	{Players: 9, Teams: 3}, {Players: 10, Teams: 2}, {Players: 12, Teams: 2},
	{Players: 12, Teams: 3},
}

// Every combination plays random games to a finish or a draw with every
// invariant holding after every move; odd games use the bordered deck.
func TestRandomGamesKeepInvariants(t *testing.T) {
	games := 1000
	if testing.Short() {
		games = 100
	}
	for _, cfg := range allConfigs {
		t.Run(fmt.Sprintf("%dp%dt", cfg.Players, cfg.Teams), func(t *testing.T) {
			t.Parallel()
			buf := make([]Move, 0, MaxMoves)
			r := rng.NewUint64(uint64(cfg.Players*10 + cfg.Teams))
			ended := [3]int{}
			for g := 0; g < games; g++ {
				c := cfg
				c.Variant = Variant(g % 2)
				s, err := NewGame(c, rng.SeedFromUint64(uint64(g)))
				if err != nil {
					t.Fatal(err)
				}
				cards := fullDeckCounts(c.Variant)
				if err := checkInvariants(&s, nil, cards); err != nil {
					t.Fatalf("game %d after the deal: %v", g, err)
				}
				for s.Status() == Playing {
					prev := s
					moves := LegalMoves(&s, buf)
					m := moves[r.IntN(len(moves))]
					if err := s.Do(s.Turn(), m); err != nil {
						t.Fatalf("game %d ply %d: listed move %v refused: %v", g, s.Ply(), m, err)
					}
					if err := checkInvariants(&s, &prev, cards); err != nil {
						t.Fatalf("game %d ply %d after %v: %v", g, s.Ply(), m, err)
					}
				}
				ended[s.Status()]++
			}
			t.Logf("%d games: %d won, %d drawn", games, ended[Won], ended[Drawn])
		})
	}
}
