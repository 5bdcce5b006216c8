package postgres

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/workers"
)

// A round's start and its deadline are tasks enqueued after the commit
// that scheduled them, so a Redis failure at that moment (or a worker
// killed between the two) loses them. The sweep finds a round due long
// ago and never paired, and a deadline long past with a game still in
// play, and schedules each again; the tournament then runs as if nothing
// had been lost.
func TestTheSweepReschedulesALostRoundStartAndDeadline(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	start := time.Now().UTC().Add(time.Hour)
	deadline := start.Add(time.Hour)
	tour := r.adjudicatedFinal(t, "Lost tasks", start, deadline, "p1", "p2")
	insp := asynq.NewInspectorFromRedisClient(r.rdb)
	startID := fmt.Sprintf("round:%s:1:%d", tour.ID, start.Unix())
	deadlineID := fmt.Sprintf("deadline:%s:1:%d", tour.ID, deadline.Unix())
	for _, id := range []string{startID, deadlineID} {
		if err := insp.DeleteTask(workers.QueueSchedule, id); err != nil {
			t.Fatalf("losing task %s: %v", id, err)
		}
	}
	if done, err := r.tournaments.Reconcile(ctx); err != nil || done.Total() != 0 {
		t.Fatalf("sweep before anything is due = %+v, %v; want none", done, err)
	}

	// The start passes with its task lost: the tournament would sit in
	// registration for ever.
	if err := r.db.Gorm.Exec("UPDATE rounds SET starts_at = now() - interval '1 minute' WHERE tournament_id = ?", tour.ID).Error; err != nil {
		t.Fatal(err)
	}
	if done, err := r.tournaments.Reconcile(ctx); err != nil || done != (RescheduledRounds{Starts: 1}) {
		t.Fatalf("sweep after the start = %+v, %v; want 1 round start", done, err)
	}
	game := r.waitTournamentGame(t, tour.ID, 20*time.Second)
	if done, err := r.tournaments.Reconcile(ctx); err != nil || done.Total() != 0 {
		t.Fatalf("sweep once the round is paired = %+v, %v; want none", done, err)
	}

	// Nobody moves on a ten-minute clock; the deadline passes with its
	// task lost: the game would go on for hours.
	if err := r.db.Gorm.Exec("UPDATE rounds SET deadline = now() - interval '1 minute' WHERE tournament_id = ?", tour.ID).Error; err != nil {
		t.Fatal(err)
	}
	if done, err := r.tournaments.Reconcile(ctx); err != nil || done != (RescheduledRounds{Deadlines: 1}) {
		t.Fatalf("sweep after the deadline = %+v, %v; want 1 round deadline", done, err)
	}
	r.waitFinished(t, tour.ID, 30*time.Second)
	v, err := r.games.View(ctx, league.Actor{}, game)
	if err != nil {
		t.Fatal(err)
	}
	if v.Game.Status != league.StatusFinished || v.Game.EndedBy != league.EndedByAdjudication {
		t.Fatalf("game %s ended by %q after the deadline's sweep; want it adjudicated", v.Game.Status, v.Game.EndedBy)
	}
	if done, err := r.tournaments.Reconcile(ctx); err != nil || done.Total() != 0 {
		t.Fatalf("sweep once the tournament is over = %+v, %v; want none", done, err)
	}
}

// A round whose start failed for a reason no retry can cure (start_error)
// waits for an organizer: the sweep does not start it again every 30 s.
func TestTheSweepLeavesARoundRefusedForGoodAlone(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Bots", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin",
		Clock: league.Clock{TurnSeconds: 600}}, 2)
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{{Number: 1, StartsAt: time.Now().UTC().Add(time.Hour)}}); err != nil {
		t.Fatal(err)
	}
	if err := r.db.Gorm.Exec("UPDATE rounds SET starts_at = now() - interval '1 minute', start_error = 'too few entries' WHERE tournament_id = ?", tour.ID).Error; err != nil {
		t.Fatal(err)
	}
	if done, err := r.tournaments.Reconcile(ctx); err != nil || done.Total() != 0 {
		t.Fatalf("sweep of a round refused for good = %+v, %v; want none", done, err)
	}
	if err := r.db.Gorm.Exec("UPDATE rounds SET start_error = NULL WHERE tournament_id = ?", tour.ID).Error; err != nil {
		t.Fatal(err)
	}
	if done, err := r.tournaments.Reconcile(ctx); err != nil || done != (RescheduledRounds{Starts: 1}) {
		t.Fatalf("sweep of the same round without its error = %+v, %v; want 1 round start", done, err)
	}
}

// waitTournamentGame waits for the tournament's one game to be in play and
// returns its ID.
func (r *tournamentRig) waitTournamentGame(t *testing.T, id string, within time.Duration) string {
	t.Helper()
	end := time.Now().Add(within)
	for time.Now().Before(end) {
		var games []gameRow
		if err := r.db.Gorm.Where("tournament_id = ?", id).Find(&games).Error; err != nil {
			t.Fatal(err)
		}
		if len(games) == 1 && games[0].Status == league.StatusActive {
			return games[0].ID
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the tournament's game never started within %v", within)
	return ""
}

// A game that ends while its tournament is paused is settled at once (its
// match and round are recorded), but the tournament does not move on
// until it is resumed; resuming it then finishes it.
func TestAGameEndingWhileItsTournamentIsPausedCountsAndWaitsForTheResume(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, people := r.peopleTournament(t, "Paused", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "single-elimination"}, "p1", "p2")
	running, paused := league.TournamentRunning, league.TournamentPaused
	if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &running}); err != nil {
		t.Fatal(err)
	}
	game := r.waitTournamentGame(t, tour.ID, 20*time.Second)
	if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &paused}); err != nil {
		t.Fatal(err)
	}
	r.playAsHumans(t, game, people, 60*time.Second)
	end := time.Now().Add(20 * time.Second)
	for {
		var settled *time.Time
		if err := r.db.Gorm.Raw("SELECT settled_at FROM games WHERE id = ?", game).Row().Scan(&settled); err != nil {
			t.Fatal(err)
		}
		if settled != nil {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the game of a paused tournament was never settled")
		}
		time.Sleep(50 * time.Millisecond)
	}
	got, err := r.tournaments.Get(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != league.TournamentPaused || len(rounds) != 1 || rounds[0].Matches[0].Status != "finished" || rounds[0].Matches[0].Winner == "" {
		t.Fatalf("after its final's game ended while paused: tournament %s, rounds %+v; want it paused with the final decided", got.Status, rounds)
	}
	if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &running}); err != nil {
		t.Fatal(err)
	}
	r.waitFinished(t, tour.ID, 10*time.Second)
}
