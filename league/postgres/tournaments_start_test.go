package postgres

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/workers"
)

// startNow starts tournament id by hand, as "Start now" does.
func (r *tournamentRig) startNow(t *testing.T, id string) {
	t.Helper()
	status := league.TournamentRunning
	if _, err := r.tournaments.Update(context.Background(), r.organizer, id, league.TournamentUpdate{Status: &status}); err != nil {
		t.Fatalf("start now: %v", err)
	}
}

// TestStartNowStartsAScheduledFirstRound: "Start now" on a tournament whose
// rounds were scheduled (the first in ten minutes) closed registration and
// left round 1 waiting for its time, with no game, though the organizer
// asked for the first games now. Round 1 now starts at once: its start is
// moved to now (a revision of its calendar event), its deadline kept, its
// game created, and the task of its old time deleted. The rounds that two
// entries never play (a bracket of two is its final) are dropped at the
// start, their tasks too, and scheduling one again is refused.
func TestStartNowStartsAScheduledFirstRound(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, _ := r.peopleTournament(t, "Started by hand", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "single-elimination",
		Clock: league.Clock{TurnSeconds: 600}}, "lea", "max")
	first := time.Now().UTC().Add(10 * time.Minute).Truncate(time.Second)
	var plan []league.RoundSchedule
	for i := 0; i < 3; i++ {
		at := first.Add(time.Duration(i) * time.Hour)
		plan = append(plan, league.RoundSchedule{Number: i + 1, StartsAt: at, Deadline: ptr(at.Add(50 * time.Minute))})
	}
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, plan); err != nil {
		t.Fatal(err)
	}
	inspector := asynq.NewInspectorFromRedisClient(r.rdb)
	task := func(kind string, n int, at time.Time) string {
		return fmt.Sprintf("%s:%s:%d:%d", kind, tour.ID, n, at.Unix())
	}
	gone := []string{task("round", 1, first)}
	for _, s := range plan[1:] {
		gone = append(gone, task("round", s.Number, s.StartsAt), task("deadline", s.Number, *s.Deadline))
	}
	for _, id := range append(gone, task("deadline", 1, *plan[0].Deadline)) {
		if info, err := inspector.GetTaskInfo(workers.QueueSchedule, id); err != nil || info.State != asynq.TaskStateScheduled {
			t.Fatalf("task %s before the start: %+v, %v; want it scheduled", id, info, err)
		}
	}

	before := time.Now()
	r.startNow(t, tour.ID)
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 1 {
		t.Fatalf("%d rounds after the start: %+v; want round 1 alone, the final of two entries", len(rounds), rounds)
	}
	rd := rounds[0]
	switch {
	case rd.Status != "running" || rd.StartedAt == nil || len(rd.Matches) != 1 || len(rd.Matches[0].Games) != 1:
		t.Fatalf("round 1 after Start now: %+v; want it running, its game created", rd)
	case rd.StartsAt == nil || rd.StartsAt.Before(before.Add(-time.Second)) || rd.StartsAt.After(time.Now()):
		t.Errorf("round 1 starts at %v; want now (the start was %v)", rd.StartsAt, first)
	case rd.Deadline == nil || !rd.Deadline.Equal(*plan[0].Deadline) || rd.PlannedDeadline != nil:
		t.Errorf("round 1's deadline %v (planned %v); want the scheduled %v kept", rd.Deadline, rd.PlannedDeadline, plan[0].Deadline)
	case rd.Revision != 1 || rd.RevisedAt == nil:
		t.Errorf("round 1's revision %d at %v; want its move counted once", rd.Revision, rd.RevisedAt)
	}
	if g, err := r.games.View(ctx, league.Actor{}, rd.Matches[0].Games[0]); err != nil || g.Game.Status != league.StatusActive {
		t.Fatalf("round 1's game: %+v, %v; want it being played", g, err)
	}
	for _, id := range gone {
		if info, err := inspector.GetTaskInfo(workers.QueueSchedule, id); !errors.Is(err, asynq.ErrTaskNotFound) {
			t.Errorf("task %s after the start: %+v, %v; want it deleted", id, info, err)
		}
	}
	if info, err := inspector.GetTaskInfo(workers.QueueSchedule, task("deadline", 1, *plan[0].Deadline)); err != nil || info.State != asynq.TaskStateScheduled {
		t.Errorf("round 1's deadline task after the start: %+v, %v; want it kept", info, err)
	}
	_, err = r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{{Number: 2, StartsAt: first.Add(time.Hour)}})
	var le *league.Error
	if !errors.As(err, &le) || le.Code != league.EINVALID || len(le.Fields) != 1 || le.Fields[0].Field != "rounds[0].number" {
		t.Errorf("scheduling round 2 of a started final: %v; want a 400 naming rounds[0].number", err)
	}
}

// TestTheStartKeepsTheRoundsTheFormatPlays: a Swiss of four without set
// rounds plays two (⌈log₂ 4⌉); of four rounds scheduled, the start keeps
// those two, round 1 started now, round 2 at its time.
func TestTheStartKeepsTheRoundsTheFormatPlays(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, _ := r.peopleTournament(t, "Swiss started by hand", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "swiss",
		Clock: league.Clock{TurnSeconds: 600}}, "ned", "ola", "pia", "quin")
	first := time.Now().UTC().Add(10 * time.Minute).Truncate(time.Second)
	var plan []league.RoundSchedule
	for i := 0; i < 4; i++ {
		plan = append(plan, league.RoundSchedule{Number: i + 1, StartsAt: first.Add(time.Duration(i) * time.Hour)})
	}
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, plan); err != nil {
		t.Fatal(err)
	}
	r.startNow(t, tour.ID)
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 2 || rounds[0].Status != "running" || len(rounds[0].Matches) != 2 ||
		rounds[1].Status != "scheduled" || rounds[1].StartsAt == nil || !rounds[1].StartsAt.Equal(plan[1].StartsAt) || rounds[1].Revision != 0 {
		t.Fatalf("rounds after Start now: %+v; want round 1 running with two matches and round 2 scheduled as it was, no more", rounds)
	}
}
