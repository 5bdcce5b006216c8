package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
)

func TestTheBracketShowsWhoWonEachGameOfASeries(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Best of three", league.TournamentConfig{
		Game: "sequence", MatchSize: 2, Format: "single-elimination", BestOf: 3}, 2)
	running := league.TournamentRunning
	if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &running}); err != nil {
		t.Fatal(err)
	}
	r.waitFinished(t, tour.ID, 3*time.Minute)
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	played := map[string][]string{}
	for _, rd := range rounds {
		for _, m := range rd.Matches {
			played[m.ID] = m.GameWinners
		}
	}
	raw, err := r.tournaments.Bracket(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	var b struct {
		Rounds []struct {
			Matches []struct {
				ID          string
				GameWinners []string `json:"game_winners"`
			}
		}
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatal(err)
	}
	if len(b.Rounds) != 1 || len(b.Rounds[0].Matches) != 1 {
		t.Fatalf("bracket of two entries: %s", raw)
	}
	final := b.Rounds[0].Matches[0]
	if len(final.GameWinners) < 2 || fmt.Sprint(final.GameWinners) != fmt.Sprint(played[final.ID]) {
		t.Fatalf("bracket game_winners %q, the match's rounds say %q", final.GameWinners, played[final.ID])
	}
}
