package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
)

// TestARoundStartedLateKeepsItsPlannedLength: a round of a person against a
// bot, scheduled to have started 6 s ago with its deadline 3 s from now,
// is paired at once, late. Its deadline moves later by the lateness (the
// round keeps its 9 s), with the planned one said; the person's seat is
// still theirs after the planned deadline, and that time's task, run
// again, does nothing. An organizer's later move of the deadline wins:
// the planned deadline is then no longer said, and at the organizer's time
// the person's seat is handed to a bot (the deadline policy is bots).
func TestARoundStartedLateKeepsItsPlannedLength(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, people := r.peopleTournament(t, "Late round", league.TournamentConfig{Game: "sequence", MatchSize: 2,
		Format: "single-elimination", Clock: league.Clock{TurnSeconds: 600}, AtDeadline: "bots"}, "lena")
	if _, err := r.tournaments.Register(ctx, r.organizer, tour.ID, league.NewEntry{Name: "bot", Members: []league.EntryMember{{Bot: "greedy"}}}); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Second)
	start, planned := now.Add(-6*time.Second), now.Add(3*time.Second)
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{{Number: 1, StartsAt: start, Deadline: &planned}}); err != nil {
		t.Fatal(err)
	}
	gameID := r.waitTournamentGame(t, tour.ID, 10*time.Second)
	round := func() league.TournamentRound {
		t.Helper()
		rounds, err := r.tournaments.Rounds(ctx, tour.ID)
		if err != nil || len(rounds) != 1 {
			t.Fatalf("rounds: %+v, %v; want one", rounds, err)
		}
		return rounds[0]
	}
	rd := round()
	late := league.LateBy(rd.StartsAt, rd.StartedAt)
	if late < 6*time.Second {
		t.Fatalf("round started at %v for %v: late by %v; want at least 6 s", rd.StartedAt, start, late)
	}
	moved := planned.Add(late)
	if rd.Deadline == nil || !rd.Deadline.Equal(moved) || rd.PlannedDeadline == nil || !rd.PlannedDeadline.Equal(planned) {
		t.Fatalf("round started %v late: deadline %v, planned %v; want %v, planned %v", late, rd.Deadline, rd.PlannedDeadline, moved, planned)
	}
	seat := func() league.Seat {
		t.Helper()
		v, err := r.games.View(ctx, league.Actor{}, gameID)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range v.Game.Seats {
			if s.UserID == people[0].UserID {
				return s
			}
		}
		t.Fatalf("lena has no seat in %+v", v.Game.Seats)
		return league.Seat{}
	}

	time.Sleep(time.Until(planned) + 2500*time.Millisecond)
	if s := seat(); s.Abandoned || s.FilledByBot {
		t.Fatalf("lena's seat %.1f s after the planned deadline (the round started %v late): %+v; want it still hers until %v",
			time.Since(planned).Seconds(), late, s, moved)
	}
	if err := r.tournaments.RoundDeadline(ctx, tour.ID, 1, planned); err != nil {
		t.Fatalf("the planned deadline's task: %v; want it done, with nothing to do", err)
	}
	if s := seat(); s.Abandoned || s.FilledByBot {
		t.Fatalf("lena's seat after the planned deadline's task ran again: %+v; want it still hers", s)
	}

	sooner := time.Now().UTC().Add(2 * time.Second).Truncate(time.Second).Add(time.Second)
	if rd, err := r.tournaments.MoveDeadline(ctx, r.organizer, tour.ID, 1, sooner); err != nil {
		t.Fatal(err)
	} else if !rd.Deadline.Equal(sooner) || rd.PlannedDeadline != nil {
		t.Fatalf("round after the organizer's move: deadline %v, planned %v; want %v and no planned deadline", rd.Deadline, rd.PlannedDeadline, sooner)
	}
	for end := sooner.Add(15 * time.Second); !seat().Abandoned; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("lena's seat 15 s after the organizer's deadline: %+v; want it handed to a bot, abandoned", seat())
		}
	}
	if rd := round(); rd.Deadline == nil || !rd.Deadline.Equal(sooner) {
		t.Fatalf("round's deadline after it came: %v; want the organizer's %v", rd.Deadline, sooner)
	}
}

// TestARoundStartedOnTimeKeepsItsDeadline: a round paired at its start
// (within its first second, as its task does) keeps its deadline, and says
// no planned one.
func TestARoundStartedOnTimeKeepsItsDeadline(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	start := time.Now().UTC().Add(2 * time.Second).Truncate(time.Second)
	deadline := start.Add(time.Hour)
	tour := r.adjudicatedFinal(t, "On time", start, deadline, "otto", "olga")
	r.waitTournamentGame(t, tour.ID, 10*time.Second)
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rd := rounds[0]; rd.Deadline == nil || !rd.Deadline.Equal(deadline) || rd.PlannedDeadline != nil {
		t.Fatalf("round started at %v for %v: deadline %v, planned %v; want %v as scheduled", rd.StartedAt, start, rd.Deadline, rd.PlannedDeadline, deadline)
	}
}
