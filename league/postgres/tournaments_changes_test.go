package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
)

// Changes made to a tournament while it runs: withdrawals, closed
// accounts, rounds moved or their deadlines taken away.

// waitRound waits until round n's matches are all finished.
func (r *tournamentRig) waitRound(t *testing.T, id string, n int, within time.Duration) []league.TournamentRound {
	t.Helper()
	end := time.Now().Add(within)
	for time.Now().Before(end) {
		rounds, err := r.tournaments.Rounds(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		for _, rd := range rounds {
			if rd.Number != n || len(rd.Matches) == 0 {
				continue
			}
			done := true
			for _, m := range rd.Matches {
				done = done && m.Status == "finished"
			}
			if done {
				return rounds
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	rounds, _ := r.tournaments.Rounds(context.Background(), id)
	t.Fatalf("round %d not finished within %v: %+v", n, within, rounds)
	return nil
}

// TestARoundRobinWithdrawalKeepsTheSchedule: an entry withdrawn after round
// 1 of a six-entry round robin leaves the schedule as drawn: the five
// others still meet each other exactly once, with no rematch, and the
// withdrawn entry's remaining meetings are byes.
func TestARoundRobinWithdrawalKeepsTheSchedule(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Round robin", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin"}, 6)
	now := time.Now().UTC()
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{
		{Number: 1, StartsAt: now.Add(time.Second)},
		{Number: 2, StartsAt: now.Add(time.Hour)},
	}); err != nil {
		t.Fatal(err)
	}
	rounds := r.waitRound(t, tour.ID, 1, 2*time.Minute)
	gone := rounds[0].Matches[0].Entries[0]
	if err := r.tournaments.Withdraw(ctx, r.organizer, tour.ID, gone); err != nil {
		t.Fatal(err)
	}
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{{Number: 2, StartsAt: time.Now().UTC()}}); err != nil {
		t.Fatal(err)
	}
	r.waitFinished(t, tour.ID, 3*time.Minute)
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	met := map[[2]string]int{}
	byes := 0
	for _, rd := range rounds {
		for _, m := range rd.Matches {
			if m.Bye {
				byes++
				continue
			}
			a, b := m.Entries[0], m.Entries[1]
			if rd.Number > 1 && (a == gone || b == gone) {
				t.Fatalf("round %d paired the withdrawn entry: %+v", rd.Number, m)
			}
			met[[2]string{min(a, b), max(a, b)}]++
		}
	}
	if len(rounds) != 5 {
		t.Fatalf("%d rounds, want the 5 of six entries", len(rounds))
	}
	for pair, n := range met {
		if n != 1 {
			t.Errorf("%v met %d times", pair, n)
		}
	}
	if want := 10 + 1; len(met) != want { // the five others' ten pairs, and round 1's meeting of the withdrawn entry
		t.Errorf("%d pairs met, want %d: %v", len(met), want, met)
	}
	if byes != 4 {
		t.Errorf("%d byes, want the 4 meetings the withdrawn entry had left", byes)
	}
}
