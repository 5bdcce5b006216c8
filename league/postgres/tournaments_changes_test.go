package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/competition"
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

// scheduleRoundOneOnly starts round 1 in a second and holds round 2 an
// hour away, for a test to change the tournament in between.
func (r *tournamentRig) scheduleRoundOneOnly(t *testing.T, id string) {
	t.Helper()
	now := time.Now().UTC()
	if _, err := r.tournaments.Schedule(context.Background(), r.organizer, id, []league.RoundSchedule{
		{Number: 1, StartsAt: now.Add(time.Second)},
		{Number: 2, StartsAt: now.Add(time.Hour)},
	}); err != nil {
		t.Fatal(err)
	}
}

// startRoundNow moves round n's start to now.
func (r *tournamentRig) startRoundNow(t *testing.T, id string, n int) {
	t.Helper()
	if _, err := r.tournaments.Schedule(context.Background(), r.organizer, id, []league.RoundSchedule{{Number: n, StartsAt: time.Now().UTC()}}); err != nil {
		t.Fatal(err)
	}
}

// Withdrawing from groups then playoffs after the start is refused, saying
// so of that format: the refusal spoke of "an elimination bracket" while
// the groups were a round robin being played.
func TestWithdrawingFromGroupsThenPlayoffsIsRefusedInItsOwnWords(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Groups", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "groups-playoffs", Groups: 2, Advance: 1}, 4)
	r.scheduleRoundOneOnly(t, tour.ID)
	rounds := r.waitRound(t, tour.ID, 1, 2*time.Minute)
	err := r.tournaments.Withdraw(ctx, r.organizer, tour.ID, rounds[0].Matches[0].Entries[0])
	if league.ErrorCode(err) != league.EPRECONDITION || err == nil || !strings.Contains(err.Error(), "groups then playoffs") {
		t.Fatalf("withdrawing in the group stage: %v; want a 422 about groups then playoffs", err)
	}
}

// A round robin is paired from the schedule drawn at its start, kept with
// the tournament, not drawn again for each round: a change to the schedule
// search between two rounds would otherwise reshuffle it. The kept rounds 2
// and 3 are swapped here, and round 2 pairs the kept round 2.
func TestARoundRobinIsPairedFromTheScheduleKeptAtItsStart(t *testing.T) {
	r := newTournamentRig(t)
	tour := r.botTournament(t, "Kept", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin"}, 4)
	r.scheduleRoundOneOnly(t, tour.ID)
	r.waitRound(t, tour.ID, 1, 2*time.Minute)
	var row tournamentRow
	if err := r.db.Gorm.Take(&row, "id = ?", tour.ID).Error; err != nil {
		t.Fatal(err)
	}
	var kept []competition.Round
	if err := json.Unmarshal(row.Schedule, &kept); err != nil || len(kept) != 3 {
		t.Fatalf("the kept schedule: %s (%v); want the 3 rounds of four entries", row.Schedule, err)
	}
	kept[1].Matches, kept[2].Matches = kept[2].Matches, kept[1].Matches
	if err := r.db.Gorm.Model(&tournamentRow{}).Where("id = ?", tour.ID).Update("schedule", mustJSON(kept)).Error; err != nil {
		t.Fatal(err)
	}
	r.startRoundNow(t, tour.ID, 2)
	rounds := r.waitRound(t, tour.ID, 2, 2*time.Minute)
	var got, want [][]string
	for _, m := range rounds[1].Matches {
		got = append(got, m.Entries)
	}
	for _, m := range kept[1].Matches {
		want = append(want, m.Entries)
	}
	slices.SortFunc(got, slices.Compare)
	slices.SortFunc(want, slices.Compare)
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("round 2 paired %v; want the kept round 2, %v", got, want)
	}
}

// TestARoundRobinWithdrawalKeepsTheSchedule: an entry withdrawn after round
// 1 of a six-entry round robin leaves the schedule as drawn: the five
// others still meet each other exactly once, with no rematch, and the
// withdrawn entry's remaining meetings are byes.
func TestARoundRobinWithdrawalKeepsTheSchedule(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Round robin", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin"}, 6)
	r.scheduleRoundOneOnly(t, tour.ID)
	rounds := r.waitRound(t, tour.ID, 1, 2*time.Minute)
	gone := rounds[0].Matches[0].Entries[0]
	if err := r.tournaments.Withdraw(ctx, r.organizer, tour.ID, gone); err != nil {
		t.Fatal(err)
	}
	r.startRoundNow(t, tour.ID, 2)
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

// TestAPlayerWhoClosedTheAccountIsPlayedForInLaterRounds: a Swiss entrant
// who closes the account during round 1 keeps the entry; round 2 seats the
// account as a fill-in bot from the start (rated as abandoning), instead of
// failing to create the game, which rolled back the settlement of round 1
// and froze the tournament.
func TestAPlayerWhoClosedTheAccountIsPlayedForInLaterRounds(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	gina := r.user(t, "gina")
	r.joinClub(t, gina)
	tour := r.botTournament(t, "Swiss", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "swiss", Rounds: 2, Rated: true}, 3)
	if _, err := r.tournaments.Register(ctx, gina, tour.ID, league.NewEntry{}); err != nil {
		t.Fatal(err)
	}
	r.scheduleRoundOneOnly(t, tour.ID)
	for end := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		tr, err := r.tournaments.Get(ctx, tour.ID)
		if err != nil {
			t.Fatal(err)
		}
		if tr.CurrentRound == 1 {
			break
		}
		if time.Now().After(end) {
			t.Fatal("round 1 did not start")
		}
	}
	if err := r.closer().Delete(ctx, gina, gina.UserID); err != nil {
		t.Fatal(err)
	}
	r.waitRound(t, tour.ID, 1, 2*time.Minute)
	r.startRoundNow(t, tour.ID, 2)
	r.waitFinished(t, tour.ID, 2*time.Minute)
	var seats []seatRow
	if err := r.db.Gorm.Where("user_id = ? AND game_id IN (SELECT id FROM games WHERE tournament_id = ?)", gina.UserID, tour.ID).
		Order("game_id").Find(&seats).Error; err != nil {
		t.Fatal(err)
	}
	if len(seats) != 2 {
		t.Fatalf("gina sat in %d games, want one a round", len(seats))
	}
	for _, s := range seats {
		if !s.Abandoned || !s.FilledByBot || s.BotLevel == nil || s.AbandonedWhy == nil || *s.AbandonedWhy != league.AbandonedAccountClosed {
			t.Fatalf("gina's seat %+v; want it played by a fill-in bot, abandoned as her account is closed", s)
		}
	}
	var unsettled int64
	r.db.Gorm.Table("games").Where("tournament_id = ? AND settled_at IS NULL", tour.ID).Count(&unsettled)
	if unsettled != 0 {
		t.Fatalf("%d games not settled", unsettled)
	}
}

// TestASchedulesRoundsMustHoldTogether: a schedule that lists a round twice,
// starts a round before an earlier one, names a round a Swiss does not
// have, or reaches past the five-year horizon is refused naming the round
// at fault, and writes nothing.
func TestASchedulesRoundsMustHoldTogether(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Swiss", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "swiss", Rounds: 3}, 4)
	at := time.Now().UTC().AddDate(1, 0, 0).Truncate(time.Hour) // rounds to come: one in the past would start at once
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{
		{Number: 1, StartsAt: at}, {Number: 2, StartsAt: at.Add(24 * time.Hour)}}); err != nil {
		t.Fatal(err)
	}
	far := time.Now().Add(league.ScheduleHorizon + time.Hour)
	for name, tc := range map[string]struct {
		rounds []league.RoundSchedule
		field  string
	}{
		"listed twice":          {[]league.RoundSchedule{{Number: 3, StartsAt: at.Add(72 * time.Hour)}, {Number: 3, StartsAt: at.Add(96 * time.Hour)}}, "rounds[1].number"},
		"before an earlier one": {[]league.RoundSchedule{{Number: 3, StartsAt: at.Add(time.Hour)}}, "rounds[0].starts_at"},
		"after a later one":     {[]league.RoundSchedule{{Number: 1, StartsAt: at.Add(48 * time.Hour)}}, "rounds[0].starts_at"},
		"at the same time":      {[]league.RoundSchedule{{Number: 3, StartsAt: at.Add(24 * time.Hour)}}, "rounds[0].starts_at"},
		"beyond the Swiss":      {[]league.RoundSchedule{{Number: 4, StartsAt: at.Add(72 * time.Hour)}}, "rounds[0].number"},
		"past the horizon":      {[]league.RoundSchedule{{Number: 3, StartsAt: far}}, "rounds[0].starts_at"},
		"deadline too far":      {[]league.RoundSchedule{{Number: 3, StartsAt: at.Add(72 * time.Hour), Deadline: &far}}, "rounds[0].deadline"},
	} {
		_, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, tc.rounds)
		var e *league.Error
		if !errors.As(err, &e) || e.Code != league.EINVALID || len(e.Fields) == 0 || e.Fields[0].Field != tc.field {
			t.Errorf("%s: error %v; want invalid naming %s", name, err, tc.field)
		}
	}
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 2 || !rounds[0].StartsAt.Equal(at) || !rounds[1].StartsAt.Equal(at.Add(24*time.Hour)) {
		t.Fatalf("rounds after the refusals: %+v; want the first schedule unchanged", rounds)
	}
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{
		{Number: 3, StartsAt: at.Add(48 * time.Hour)}, {Number: 2, StartsAt: at.Add(time.Hour)}}); err != nil {
		t.Fatalf("a schedule in order, given out of order: %v", err)
	}
}

// TestARoundMovedLaterStartsAtItsNewTime: the task of a round's first
// start time finds the round moved later and leaves registration open.
func TestARoundMovedLaterStartsAtItsNewTime(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Swiss", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "swiss"}, 2)
	for _, at := range []time.Duration{time.Second, time.Hour} {
		if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{{Number: 1, StartsAt: time.Now().UTC().Add(at)}}); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(3 * time.Second)
	tr, err := r.tournaments.Get(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Status != league.TournamentRegistration {
		t.Fatalf("status %s 3 s after the first start time; want registration open until the new start", tr.Status)
	}
}

// TestADeadlineTakenAwayEndsNothing: the task of a deadline that was taken
// away finds none and leaves the round's games to be played.
func TestADeadlineTakenAwayEndsNothing(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	gina, hank := r.user(t, "gina"), r.user(t, "hank")
	tour, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: r.clubID, Name: "Knockout",
		Config: league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "single-elimination", AtDeadline: "adjudicate"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []league.Actor{gina, hank} {
		r.joinClub(t, a)
		if _, err := r.tournaments.Register(ctx, a, tour.ID, league.NewEntry{}); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now().UTC().Add(time.Second)
	deadline := start.Add(2 * time.Second)
	for _, d := range []*time.Time{&deadline, nil} {
		if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{{Number: 1, StartsAt: start, Deadline: d}}); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(time.Until(deadline) + 2*time.Second)
	var games []gameRow
	if err := r.db.Gorm.Where("tournament_id = ?", tour.ID).Find(&games).Error; err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 || games[0].Status != league.StatusActive {
		t.Fatalf("games after the old deadline: %+v; want the one game still being played", games)
	}
}

// TestARoundRobinsScheduleEndsAtItsLastRound: while registration is open a
// round robin's rounds are not known, so any number is taken; once it
// starts, rounds scheduled past the ones its entries play are dropped, and
// a schedule naming one is refused at that round's number.
func TestARoundRobinsScheduleEndsAtItsLastRound(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Round robin", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin"}, 4)
	at := time.Now().UTC().Add(24 * time.Hour).Truncate(time.Second)
	var five []league.RoundSchedule
	for n := 1; n <= 5; n++ {
		five = append(five, league.RoundSchedule{Number: n, StartsAt: at.Add(time.Duration(n) * time.Hour)})
	}
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, five); err != nil {
		t.Fatalf("five rounds scheduled during registration: %v", err)
	}
	running := league.TournamentRunning
	if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &running}); err != nil {
		t.Fatal(err)
	}
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 3 || rounds[2].Number != 3 || !rounds[2].StartsAt.Equal(five[2].StartsAt) {
		t.Fatalf("rounds of a started round robin of 4 = %+v; want its 3, as scheduled", rounds)
	}
	_, err = r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{
		{Number: 3, StartsAt: at.Add(10 * time.Hour)}, {Number: 4, StartsAt: at.Add(11 * time.Hour)}})
	var e *league.Error
	if !errors.As(err, &e) || e.Code != league.EINVALID || len(e.Fields) != 1 || e.Fields[0].Field != "rounds[1].number" || e.Fields[0].Message != "must be 1–3" {
		t.Fatalf("scheduling round 4 of 3: %v %+v; want invalid rounds[1].number", err, e)
	}
	if rounds, _ := r.tournaments.Rounds(ctx, tour.ID); len(rounds) != 3 || !rounds[2].StartsAt.Equal(five[2].StartsAt) {
		t.Fatalf("rounds after the refusal = %+v; want them unchanged", rounds)
	}
}

// TestADeadlineWaitsOutAPauseAndActsAtTheResume: a round's deadline that
// passes while the tournament is paused leaves its games alone (its task,
// and the sweep, do nothing); the resume applies it at once.
func TestADeadlineWaitsOutAPauseAndActsAtTheResume(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	start := time.Now().UTC().Add(time.Second)
	deadline := start.Add(4 * time.Second)
	tour := r.adjudicatedFinal(t, "Paused", start, deadline, "ivy", "jon")
	game := func() gameRow {
		t.Helper()
		var games []gameRow
		if err := r.db.Gorm.Where("tournament_id = ?", tour.ID).Find(&games).Error; err != nil {
			t.Fatal(err)
		}
		if len(games) != 1 {
			return gameRow{}
		}
		return games[0]
	}
	for end := time.Now().Add(10 * time.Second); game().Status != league.StatusActive; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("round 1 not started: %+v", game())
		}
	}
	paused, running := league.TournamentPaused, league.TournamentRunning
	if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &paused}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(deadline) + 2*time.Second)
	// The deadline's task has run; run it once more, to be sure it did.
	if err := r.tournaments.RoundDeadline(ctx, tour.ID, 1, deadline); err != nil {
		t.Fatal(err)
	}
	if g := game(); g.Status != league.StatusActive {
		t.Fatalf("game %s after the deadline passed in a pause; want it still being played", g.Status)
	}
	// The sweep finds the deadline long past, and leaves it to the resume.
	if err := r.db.Gorm.Exec("UPDATE rounds SET deadline = deadline - interval '1 minute' WHERE tournament_id = ?", tour.ID).Error; err != nil {
		t.Fatal(err)
	}
	if done, err := r.tournaments.Reconcile(ctx); err != nil || done.Total() != 0 {
		t.Fatalf("sweep of a paused tournament = %+v, %v; want nothing", done, err)
	}
	if g := game(); g.Status != league.StatusActive {
		t.Fatalf("game %s after the sweep of a paused tournament; want it still being played", g.Status)
	}
	if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &running}); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(10 * time.Second); game().Status == league.StatusActive; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the game is still being played 10 s after the resume; want the passed deadline applied")
		}
	}
	r.waitFinished(t, tour.ID, 10*time.Second)
	if v, err := r.games.View(ctx, league.Actor{}, game().ID); err != nil || v.Game.EndedBy != league.EndedByAdjudication {
		t.Fatalf("game after the resume: %+v, %v; want it ended by adjudication", v.Game, err)
	}
}

// TestRoundTasksRunByAWorkerWhoseClockIsBehindComeBackAtTheirTime: a
// worker whose clock runs 10 s behind the one that moved a round's task
// finds the round's start, or its deadline, still ahead. The task may be
// the only one for that time, so it is not dropped: it says when to run
// again (the stored time), and run then it starts the round, or ends its
// game.
func TestRoundTasksRunByAWorkerWhoseClockIsBehindComeBackAtTheirTime(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	// The tasks scheduled here are an hour away; the round's times are
	// then set just past, as if those tasks were being run now.
	start := time.Now().UTC().Add(time.Hour)
	deadline := start.Add(time.Hour)
	tour := r.adjudicatedFinal(t, "Skewed", start, deadline, "kim", "lou")
	behind := *r.tournaments
	behind.now = func() time.Time { return time.Now().UTC().Add(-10 * time.Second) }
	round := func() league.TournamentRound {
		t.Helper()
		rounds, err := r.tournaments.Rounds(ctx, tour.ID)
		if err != nil || len(rounds) != 1 {
			t.Fatalf("rounds = %+v, %v; want round 1", rounds, err)
		}
		return rounds[0]
	}
	notYet := func(err error, at *time.Time, what string) {
		t.Helper()
		var early *league.NotYet
		if !errors.As(err, &early) || at == nil || !early.At.Equal(*at) {
			t.Fatalf("%s run by a worker 10 s behind: %v; want it to come back at %v", what, err, at)
		}
	}

	if err := r.db.Gorm.Exec("UPDATE rounds SET starts_at = now() - interval '1 second' WHERE tournament_id = ?", tour.ID).Error; err != nil {
		t.Fatal(err)
	}
	notYet(behind.StartRound(ctx, tour.ID, 1), round().StartsAt, "the round's start")
	if rd := round(); rd.Status != "scheduled" {
		t.Fatalf("round %s after its start ran early; want it still scheduled", rd.Status)
	}
	if err := r.tournaments.StartRound(ctx, tour.ID, 1); err != nil {
		t.Fatal(err)
	}
	rd := round()
	if rd.Status != "running" || len(rd.Matches) != 1 || len(rd.Matches[0].Games) != 1 {
		t.Fatalf("round after its start came back: %+v; want it paired, its game in play", rd)
	}
	gameID := rd.Matches[0].Games[0]

	if err := r.db.Gorm.Exec("UPDATE rounds SET deadline = now() - interval '1 second' WHERE tournament_id = ?", tour.ID).Error; err != nil {
		t.Fatal(err)
	}
	notYet(behind.RoundDeadline(ctx, tour.ID, 1, *round().Deadline), round().Deadline, "the round's deadline")
	if v, err := r.games.View(ctx, league.Actor{}, gameID); err != nil || v.Game.Status != league.StatusActive {
		t.Fatalf("game after its deadline ran early: %+v, %v; want it still being played", v.Game, err)
	}
	if err := r.tournaments.RoundDeadline(ctx, tour.ID, 1, *round().Deadline); err != nil {
		t.Fatal(err)
	}
	if v, err := r.games.View(ctx, league.Actor{}, gameID); err != nil || v.Game.EndedBy != league.EndedByAdjudication {
		t.Fatalf("game after its deadline came back: %+v, %v; want it ended by adjudication", v.Game, err)
	}
}

// TestAPauseCannotSlipIntoADeadline: a pause asked for while a deadline's
// task stands between its read of the tournament's status and its work on
// the games either comes first, and the game is left to the resume, or
// waits for the task, and the game ends at the deadline; a game of a
// paused tournament is never ended. The task is held at that point until
// the pause has committed or waits on a lock.
func TestAPauseCannotSlipIntoADeadline(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	start := time.Now().UTC().Add(time.Hour)
	tour := r.adjudicatedFinal(t, "Pause race", start, start.Add(time.Hour), "max", "ned")
	gameID := r.startRoundOneByHand(t, tour.ID)
	passed := time.Now().UTC().Add(-time.Second)
	if err := r.db.Gorm.Exec("UPDATE rounds SET deadline = ? WHERE tournament_id = ?", passed, tour.ID).Error; err != nil {
		t.Fatal(err)
	}
	held := *r.tournaments
	paused := make(chan error, 1)
	pauseFirst := false
	held.beforeDeadlineWork = func() {
		status := league.TournamentPaused
		go func() {
			_, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &status})
			paused <- err
		}()
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
			select {
			case err := <-paused:
				pauseFirst = true
				paused <- err
				return
			default:
			}
			if r.lockWaits(t) > 0 {
				return
			}
		}
		t.Error("the pause neither committed nor waited on a lock within 10 s")
	}
	if err := held.RoundDeadline(ctx, tour.ID, 1, passed); err != nil {
		t.Fatal(err)
	}
	if err := <-paused; err != nil {
		t.Fatal(err)
	}
	v, err := r.games.View(ctx, league.Actor{}, gameID)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case pauseFirst && v.Game.Status != league.StatusActive:
		t.Fatalf("the pause committed before the deadline's work, which then ended the game (%s, %q); want it left to the resume", v.Game.Status, v.Game.EndedBy)
	case !pauseFirst && v.Game.EndedBy != league.EndedByAdjudication:
		t.Fatalf("the pause waited for the deadline's work, which left the game %s (%q); want it ended by adjudication", v.Game.Status, v.Game.EndedBy)
	}
	if got, err := r.tournaments.Get(ctx, tour.ID); err != nil || got.Status != league.TournamentPaused {
		t.Fatalf("tournament after the pause = %+v, %v; want it paused", got, err)
	}
}

// startRoundOneByHand runs round 1's start task at once, as if its time
// had come, and returns the round's one game.
func (r *tournamentRig) startRoundOneByHand(t *testing.T, id string) string {
	t.Helper()
	ctx := context.Background()
	if err := r.db.Gorm.Exec("UPDATE rounds SET starts_at = now() - interval '1 second' WHERE tournament_id = ? AND number = 1", id).Error; err != nil {
		t.Fatal(err)
	}
	if err := r.tournaments.StartRound(ctx, id, 1); err != nil {
		t.Fatal(err)
	}
	rounds, err := r.tournaments.Rounds(ctx, id)
	if err != nil || len(rounds) == 0 || len(rounds[0].Matches) != 1 || len(rounds[0].Matches[0].Games) != 1 {
		t.Fatalf("round 1 after its start: %+v, %v; want one game in play", rounds, err)
	}
	return rounds[0].Matches[0].Games[0]
}

// lockWaits counts the test database's sessions waiting on a lock.
func (r *tournamentRig) lockWaits(t *testing.T) int {
	t.Helper()
	var n int
	if err := r.db.Gorm.Raw("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'").Scan(&n).Error; err != nil {
		t.Error(err)
	}
	return n
}
