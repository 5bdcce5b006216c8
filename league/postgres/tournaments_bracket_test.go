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

// A knockout match of three still level after its games goes to the better
// seed of those level at the top, not of all three: seed 1, which won no
// game while seeds 2 and 3 won one each, took the match (the formats
// audit: games [seed 2, seed 3, drawn at the deadline]).
func TestALevelKnockoutSeriesGoesToTheBetterSeedOfItsLeaders(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: r.clubID, Name: "Three", Config: league.TournamentConfig{
		Game: "sequence", MatchSize: 3, Format: "single-elimination", BestOf: 3, Seeding: "manual"}})
	if err != nil {
		t.Fatal(err)
	}
	seed := map[int]string{}
	for i := 1; i <= 3; i++ {
		e, err := r.tournaments.Register(ctx, r.organizer, tour.ID, league.NewEntry{
			Name: fmt.Sprintf("seed-%d", i), Seed: i, Members: []league.EntryMember{{Bot: "random"}}})
		if err != nil {
			t.Fatal(err)
		}
		seed[i] = e.ID
	}
	entries := []string{seed[1], seed[2], seed[3]}
	for _, tc := range []struct {
		games []string
		want  string
	}{
		{[]string{seed[2], seed[3], ""}, seed[2]},
		{[]string{seed[3], seed[2], "", "", ""}, seed[2]}, // the draw replays run out
		{[]string{"", ""}, seed[1]},                       // nobody won a game: every entry is level
	} {
		if got, err := betterSeed(r.db.Gorm, tour.ID, entries, tc.games); err != nil || got != tc.want {
			t.Errorf("games %v: the match goes to %s (%v), want %s", tc.games, got, err, tc.want)
		}
	}
}

// A round-robin match of three drawn between two entries that won a game
// each scores the third, which won none, a loss, not the draw's point
// (the formats audit: [x, drawn, y] gave every entry a draw).
func TestADrawnMatchOfThreeIsALossForTheEntryBelowTheTop(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Threes", league.TournamentConfig{Game: "sequence", MatchSize: 3, Format: "round-robin", BestOf: 3}, 3)
	running := league.TournamentRunning
	if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &running}); err != nil {
		t.Fatal(err)
	}
	r.waitFinished(t, tour.ID, 3*time.Minute)
	m := r.firstMatch(t, tour.ID)
	if len(m.Entries) != 3 {
		t.Fatalf("the match: %+v; want all three entries in it", m)
	}
	x, y, z := m.Entries[0], m.Entries[1], m.Entries[2]
	// the series as the audit saw it end: a game each to x and y, one drawn
	if err := r.db.Gorm.Exec(`UPDATE matches SET winner = NULL, game_winners = ? WHERE tournament_id = ? AND id = ?`,
		mustJSON([]string{x, "", y}), tour.ID, m.ID).Error; err != nil {
		t.Fatal(err)
	}
	rows, err := r.tournaments.Standings(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, row := range rows {
		got[row.EntryID] = fmt.Sprintf("%dW %dD %dL %.0f pts", row.Wins, row.Draws, row.Losses, row.Points)
	}
	want := map[string]string{x: "0W 1D 0L 1 pts", y: "0W 1D 0L 1 pts", z: "0W 0D 1L 0 pts"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("standings %v; want %v", got, want)
	}
	if m := r.firstMatch(t, tour.ID); fmt.Sprint(m.Beaten) != fmt.Sprint([]string{z}) {
		t.Errorf("the match's beaten entries %v; want [%s]", m.Beaten, z)
	}
}
