package postgres

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
)

// TestANoShowForfeitsAndLeavesTheSwiss: in a Swiss whose no-show policy
// is forfeit, the player who never moved in round 1 (the round's deadline
// handed the seat to a bot) loses the match whatever the bot made of the
// board, and is withdrawn from the next pairing, as FIDE's Swiss rules
// treat a player absent without notice. Before, the absent entry was
// paired again in round 2, handing its opponent another game against a
// bot, or a free win. An organizer may reinstate such an entry.
func TestANoShowForfeitsAndLeavesTheSwiss(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, people := r.peopleTournament(t, "No-shows", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "swiss",
		Rounds: 2, Clock: league.Clock{TurnSeconds: 600}, NoShow: "forfeit", AtDeadline: "bots"}, "nia", "noel", "nora", "ned")
	r.scheduleShortRoundOne(t, tour.ID, 6*time.Second, true)
	entryOf := map[string]string{} // person → entry
	page, err := r.tournaments.Entries(ctx, tour.ID, league.PageRequest{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range page.Items {
		entryOf[e.CaptainID] = e.ID
	}

	// In each game the first to move does, once; the other then has a turn
	// and never moves.
	var games []gameRow
	for end := time.Now().Add(15 * time.Second); len(games) < 2; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("round 1's two games never started: %+v", games)
		}
		if err := r.db.Gorm.Where("tournament_id = ? AND status = ?", tour.ID, league.StatusActive).Find(&games).Error; err != nil {
			t.Fatal(err)
		}
	}
	var present []string
	for _, g := range games {
		present = append(present, entryOf[r.moveOnce(t, g.ID, people...).UserID])
	}
	rounds := r.waitRound(t, tour.ID, 1, 30*time.Second)
	for _, m := range rounds[0].Matches {
		if m.Bye || !slices.Contains(present, m.Winner) {
			t.Errorf("round 1 match %+v: want it won by the entry that moved (%v)", m, present)
		}
	}

	page, err = r.tournaments.Entries(ctx, tour.ID, league.PageRequest{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range page.Items {
		if want := map[bool]string{true: "active", false: "withdrawn"}[slices.Contains(present, e.ID)]; e.Status != want {
			t.Errorf("entry %s: %s, want %s", e.Name, e.Status, want)
		}
	}
	st, err := r.tournaments.Standings(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range st {
		if row.Withdrawn == slices.Contains(present, row.EntryID) {
			t.Errorf("standings: %s withdrawn %v", row.Name, row.Withdrawn)
		}
	}

	// One of them was there after all: an organizer reinstates it, and
	// round 2 pairs the three entries (one of them with the bye).
	var back string
	for _, e := range page.Items {
		if !slices.Contains(present, e.ID) {
			back = e.ID
			break
		}
	}
	if _, err := r.tournaments.Reinstate(ctx, people[0], tour.ID, back); league.ErrorCode(err) != league.EFORBIDDEN {
		t.Fatalf("a player reinstating an entry: %v; want forbidden", err)
	}
	if _, err := r.tournaments.Reinstate(ctx, r.organizer, tour.ID, present[0]); league.ErrorCode(err) != league.ECONFLICT {
		t.Fatalf("reinstating an entry that has not withdrawn: %v; want a conflict", err)
	}
	if e, err := r.tournaments.Reinstate(ctx, r.organizer, tour.ID, back); err != nil || e.Status != "active" {
		t.Fatalf("reinstate: %+v, %v; want the entry active", e, err)
	}
	r.startRoundNow(t, tour.ID, 2)
	for end := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		rounds, err := r.tournaments.Rounds(ctx, tour.ID)
		if err != nil {
			t.Fatal(err)
		}
		if ms := rounds[1].Matches; len(ms) > 0 {
			var paired []string
			for _, m := range ms {
				paired = append(paired, m.Entries...)
			}
			if want := append(slices.Clone(present), back); len(ms) != 2 || !slices.Equal(slices.Sorted(slices.Values(paired)), slices.Sorted(slices.Values(want))) {
				t.Fatalf("round 2 pairs %+v; want the two entries that moved and the one reinstated, %v, and nobody else", ms, want)
			}
			break
		}
		if time.Now().After(end) {
			t.Fatalf("round 2 never paired: %+v", rounds[1])
		}
	}
}

// A Swiss of two whose one player never shows up is over after round 1:
// the no-show is withdrawn, and the one entry left has nobody to play. The
// pairing of round 2 refused the round before, which stayed scheduled with
// an error and the tournament never finished.
func TestASwissLeftWithOneEntryFinishes(t *testing.T) {
	r := newTournamentRig(t)
	tour, people := r.peopleTournament(t, "Two", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "swiss",
		Rounds: 3, Clock: league.Clock{TurnSeconds: 600}, NoShow: "forfeit", AtDeadline: "bots"}, "pia", "pol")
	r.scheduleShortRoundOne(t, tour.ID, 5*time.Second, false)
	r.moveOnce(t, r.waitTournamentGame(t, tour.ID, 15*time.Second), people...)
	r.waitFinished(t, tour.ID, 30*time.Second)
}

// A player whose turn never came is not a no-show: a round adjudicated at
// its deadline before the second player had a turn (a 10-minute turn
// clock, a 5-second round) withdraws neither entry. Counted absent with
// the player who did not move first, both were withdrawn.
func TestAPlayerWhoseTurnNeverCameStaysInTheSwiss(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, _ := r.peopleTournament(t, "Waiting", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "swiss",
		Rounds: 3, Clock: league.Clock{TurnSeconds: 600}, NoShow: "forfeit", AtDeadline: "adjudicate"}, "wes", "wyn")
	r.scheduleShortRoundOne(t, tour.ID, 4*time.Second, true)
	r.waitRound(t, tour.ID, 1, 30*time.Second)
	page, err := r.tournaments.Entries(ctx, tour.ID, league.PageRequest{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range page.Items {
		if e.Status != "active" {
			t.Errorf("entry %s: %s after a round adjudicated before anyone's turn was played; want active", e.Name, e.Status)
		}
	}
}

// scheduleShortRoundOne schedules round 1 of a tournament to start within
// a second and end lasting later, and with roundTwo round 2 an hour on
// (paired only when a test starts it; without, it is paired as round 1
// ends).
func (r *tournamentRig) scheduleShortRoundOne(t *testing.T, id string, lasting time.Duration, roundTwo bool) {
	t.Helper()
	start := time.Now().UTC().Add(time.Second).Truncate(time.Second)
	deadline := start.Add(lasting)
	rounds := []league.RoundSchedule{{Number: 1, StartsAt: start, Deadline: &deadline}}
	if roundTwo {
		rounds = append(rounds, league.RoundSchedule{Number: 2, StartsAt: start.Add(time.Hour)})
	}
	if _, err := r.tournaments.Schedule(context.Background(), r.organizer, id, rounds); err != nil {
		t.Fatal(err)
	}
}
