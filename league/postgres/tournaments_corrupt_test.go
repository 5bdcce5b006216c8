package postgres

import (
	"context"
	"testing"

	"github.com/seqleague/seqleague/league"
)

// TestACorruptStoredTournamentIsAnError: JSON that does not decode into a
// tournament's set-up, schedule or a match's columns fails the read (an
// internal error, a 500) instead of reading as an empty set-up, a fresh
// schedule or a series without games.
func TestACorruptStoredTournamentIsAnError(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	cfg := league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin"}
	exec := func(sql string, args ...any) {
		t.Helper()
		if err := r.db.Gorm.Exec(sql, args...).Error; err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, sql string
		read      func(id string) error
	}{
		{"config", "UPDATE tournaments SET config = '[1]' WHERE id = ?", func(id string) error {
			_, err := r.tournaments.Get(ctx, id)
			return err
		}},
		{"schedule", `UPDATE tournaments SET schedule = '{"rounds": 1}' WHERE id = ?`, func(id string) error {
			_, err := r.tournaments.Standings(ctx, id)
			return err
		}},
		{"game winners", `INSERT INTO matches (tournament_id, id, round, entries, game_winners) VALUES (?, 'R1-1', 1, '["a", "b"]', '{"a": 1}')`, func(id string) error {
			_, err := r.tournaments.Rounds(ctx, id)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tour := r.botTournament(t, "Corrupt "+tc.name, cfg, 2)
			if err := tc.read(tour.ID); err != nil {
				t.Fatalf("before: %v", err)
			}
			exec(tc.sql, tour.ID)
			err := tc.read(tour.ID)
			if err == nil || league.ErrorCode(err) != league.EINTERNAL {
				t.Errorf("got %v (%s), want an internal error", err, league.ErrorCode(err))
			}
		})
	}
}
