package postgres

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
)

// TestTheDeadlineOfTheRoundInPlayMoves: the deadline of the round being
// played, moved an hour later, leaves its game alone at the old time (that
// time's task does nothing, and does not come back either); moved earlier
// again, to two seconds ahead, the new time's task adjudicates the game.
func TestTheDeadlineOfTheRoundInPlayMoves(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	start := time.Now().UTC().Add(time.Second)
	first := start.Add(4 * time.Second)
	tour := r.adjudicatedFinal(t, "Moved deadline", start, first, "oda", "pia")
	gameID := r.waitTournamentGame(t, tour.ID, 10*time.Second)
	status := func() league.Game {
		t.Helper()
		v, err := r.games.View(ctx, league.Actor{}, gameID)
		if err != nil {
			t.Fatal(err)
		}
		return v.Game
	}

	later := time.Now().UTC().Add(time.Hour).Truncate(time.Second)
	rd, err := r.tournaments.MoveDeadline(ctx, r.organizer, tour.ID, 1, later)
	if err != nil {
		t.Fatal(err)
	}
	if rd.Number != 1 || rd.Status != "running" || rd.Deadline == nil || !rd.Deadline.Equal(later) {
		t.Fatalf("round after the move = %+v; want round 1 running until %v", rd, later)
	}
	time.Sleep(time.Until(first) + 2*time.Second)
	if g := status(); g.Status != league.StatusActive {
		t.Fatalf("game %s (%q) after the deadline it was moved from; want it still being played", g.Status, g.EndedBy)
	}
	if err := r.tournaments.RoundDeadline(ctx, tour.ID, 1, first); err != nil {
		t.Fatalf("the old deadline's task: %v; want it done, with nothing to do", err)
	}
	if g := status(); g.Status != league.StatusActive {
		t.Fatalf("game %s (%q) after the old deadline's task ran again; want it still being played", g.Status, g.EndedBy)
	}

	sooner := time.Now().UTC().Add(2 * time.Second)
	if _, err := r.tournaments.MoveDeadline(ctx, r.organizer, tour.ID, 1, sooner); err != nil {
		t.Fatal(err)
	}
	for end := sooner.Add(15 * time.Second); status().Status == league.StatusActive; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the game is still being played 15 s after the deadline it was moved to; want it adjudicated")
		}
	}
	if g := status(); g.EndedBy != league.EndedByAdjudication {
		t.Fatalf("game ended by %q at the moved deadline; want adjudication", g.EndedBy)
	}
}

// TestAMovedDeadlineIsRefusedWithItsFault: no deadline, or one past the
// horizon, is malformed; one in the past, or before a round's scheduled
// start, is not allowed now; each refusal names the field. A round not
// scheduled is not found, a round over cannot move, and only organizers
// move deadlines. Nothing is written.
func TestAMovedDeadlineIsRefusedWithItsFault(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	start := time.Now().UTC().Add(time.Hour).Truncate(time.Second)
	deadline := start.Add(time.Hour)
	tour := r.adjudicatedFinal(t, "Refusals", start, deadline, "quin", "rory")
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{{Number: 2, StartsAt: start.Add(24 * time.Hour)}}); err != nil {
		t.Fatal(err)
	}
	stranger := r.user(t, "stranger")
	now := time.Now().UTC()
	for name, tc := range map[string]struct {
		who      league.Actor
		round    int
		deadline time.Time
		code     string
		field    string
	}{
		"in the past":            {r.organizer, 1, now.Add(-time.Minute), league.EPRECONDITION, "deadline"},
		"none":                   {r.organizer, 1, time.Time{}, league.EINVALID, "deadline"},
		"past the horizon":       {r.organizer, 1, now.Add(league.ScheduleHorizon + time.Hour), league.EINVALID, "deadline"},
		"before the round start": {r.organizer, 1, start.Add(-time.Minute), league.EPRECONDITION, "deadline"},
		"a round not scheduled":  {r.organizer, 3, start.Add(time.Hour), league.ENOTFOUND, ""},
		"by a non-organizer":     {stranger, 1, start.Add(time.Hour), league.EFORBIDDEN, ""},
	} {
		_, err := r.tournaments.MoveDeadline(ctx, tc.who, tour.ID, tc.round, tc.deadline)
		var e *league.Error
		switch {
		case !errors.As(err, &e) || e.Code != tc.code:
			t.Errorf("%s: error %v; want %s", name, err, tc.code)
		case tc.field != "" && (len(e.Fields) != 1 || e.Fields[0].Field != tc.field):
			t.Errorf("%s: fields %+v; want one naming %s", name, e.Fields, tc.field)
		}
	}
	if err := r.db.Gorm.Exec("UPDATE rounds SET status = 'finished' WHERE tournament_id = ? AND number = 2", tour.ID).Error; err != nil {
		t.Fatal(err)
	}
	if _, err := r.tournaments.MoveDeadline(ctx, r.organizer, tour.ID, 2, start.Add(48*time.Hour)); league.ErrorCode(err) != league.EPRECONDITION {
		t.Errorf("moving the deadline of a round over: %v; want a precondition failure", err)
	}
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 2 || rounds[0].Deadline == nil || !rounds[0].Deadline.Equal(deadline) || rounds[1].Deadline != nil {
		t.Fatalf("rounds after the refusals: %+v; want round 1's deadline %v and none for round 2", rounds, deadline)
	}
}
