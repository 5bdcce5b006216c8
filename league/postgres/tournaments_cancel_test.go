package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/rating"
	"github.com/seqleague/seqleague/workers"
)

// cancelTournament cancels tournament id as its organizer.
func (r *tournamentRig) cancelTournament(t *testing.T, id string) *league.Tournament {
	t.Helper()
	status := league.TournamentCancelled
	tour, err := r.tournaments.Update(context.Background(), r.organizer, id, league.TournamentUpdate{Status: &status})
	if err != nil {
		t.Fatalf("cancel: %v", err)
	}
	if tour.Status != league.TournamentCancelled || tour.CancelledAt == nil {
		t.Fatalf("tournament after the cancel = %+v; want it cancelled, saying when", tour)
	}
	return tour
}

// wantStatusRefused checks that err is a precondition failure naming status.
func wantStatusRefused(t *testing.T, what string, err error) {
	t.Helper()
	var e *league.Error
	if !errors.As(err, &e) || e.Code != league.EPRECONDITION || len(e.Fields) != 1 || e.Fields[0].Field != "status" {
		t.Errorf("%s: %v; want a precondition failure naming status", what, err)
	}
}

// moveOnce makes the move of whichever of people has one now, and returns
// who moved.
func (r *tournamentRig) moveOnce(t *testing.T, gameID string, people ...league.Actor) league.Actor {
	t.Helper()
	ctx := context.Background()
	for _, p := range people {
		v, err := r.games.View(ctx, p, gameID)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.LegalMoves) > 0 {
			if _, err := r.games.Move(ctx, p, gameID, league.MoveRequest{Ply: v.Game.Ply, Move: v.LegalMoves[0], MoveID: "first"}); err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	t.Fatal("nobody has a move")
	return league.Actor{}
}

// A tournament called off takes its queued round tasks with it: they would
// each have run once, found it cancelled and done nothing, and they kept
// their place in Redis until then (a round scheduled a season ahead, for
// months). Asked of asynq itself, by the tasks' IDs.
func TestCancellingATournamentDeletesItsQueuedRoundTasks(t *testing.T) {
	r := newTournamentRig(t)
	start := time.Now().UTC().Add(time.Hour).Truncate(time.Second)
	deadline := start.Add(time.Hour)
	tour := r.adjudicatedFinal(t, "Called off a season ahead", start, deadline, "ann", "ben")
	inspector := asynq.NewInspectorFromRedisClient(r.rdb)
	ids := []string{fmt.Sprintf("round:%s:1:%d", tour.ID, start.Unix()), fmt.Sprintf("deadline:%s:1:%d", tour.ID, deadline.Unix())}
	for _, id := range ids {
		if info, err := inspector.GetTaskInfo(workers.QueueSchedule, id); err != nil || info.State != asynq.TaskStateScheduled {
			t.Fatalf("task %s before the cancel: %+v, %v; want it scheduled", id, info, err)
		}
	}
	r.cancelTournament(t, tour.ID)
	for _, id := range ids {
		if info, err := inspector.GetTaskInfo(workers.QueueSchedule, id); !errors.Is(err, asynq.ErrTaskNotFound) {
			t.Errorf("task %s after the cancel: %+v, %v; want it deleted", id, info, err)
		}
	}
}

// TestACancelledTournamentInRegistrationNeverStarts: cancelled with its
// first round due in a second, the round is never paired, by its task or
// by that task run again; the tournament keeps its schedule, readable,
// shows no next round to its players, and takes no entry nor withdrawal.
func TestACancelledTournamentInRegistrationNeverStarts(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	start := time.Now().UTC().Add(time.Second)
	tour := r.adjudicatedFinal(t, "Called off early", start, start.Add(time.Hour), "ann", "ben")
	r.cancelTournament(t, tour.ID)
	time.Sleep(time.Until(start) + 2*time.Second) // the round's task has fired
	if err := r.tournaments.StartRound(ctx, tour.ID, 1); err != nil {
		t.Fatalf("round 1's task run again: %v", err)
	}
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 1 || rounds[0].StartedAt != nil || len(rounds[0].Matches) != 0 {
		t.Fatalf("rounds of the cancelled tournament: %+v; want round 1 scheduled and never paired", rounds)
	}
	var games int64
	if err := r.db.Gorm.Table("games").Where("tournament_id = ?", tour.ID).Count(&games).Error; err != nil || games != 0 {
		t.Fatalf("%d games, %v; want none", games, err)
	}
	got, err := r.tournaments.Get(ctx, tour.ID)
	if err != nil || got.Status != league.TournamentCancelled {
		t.Fatalf("tournament = %+v, %v; want it cancelled", got, err)
	}

	entries, err := r.tournaments.Entries(ctx, tour.ID, league.PageRequest{})
	if err != nil || len(entries.Items) != 2 {
		t.Fatalf("entries: %+v, %v; want the two entries still listed", entries, err)
	}
	player := league.Actor{UserID: entries.Items[0].Members[0].UserID}
	mine, err := r.tournaments.ForUser(ctx, player.UserID, league.PageRequest{})
	if err != nil || len(mine.Items) != 1 {
		t.Fatalf("the player's tournaments: %+v, %v", mine, err)
	}
	if ut := mine.Items[0]; ut.NextRound != 0 || ut.NextStart != nil || ut.Tournament.Status != league.TournamentCancelled {
		t.Fatalf("the player's tournament = %+v; want it cancelled with no next round to play", ut)
	}
	late := r.user(t, "late")
	r.joinClub(t, late)
	if _, err := r.tournaments.Register(ctx, late, tour.ID, league.NewEntry{}); league.ErrorCode(err) != league.EPRECONDITION {
		t.Errorf("an entry to the cancelled tournament: %v; want a precondition failure", err)
	}
	if err := r.tournaments.Withdraw(ctx, player, tour.ID, entries.Items[0].ID); league.ErrorCode(err) != league.EPRECONDITION {
		t.Errorf("a withdrawal from the cancelled tournament: %v; want a precondition failure", err)
	}
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{{Number: 1, StartsAt: time.Now().UTC()}}); league.ErrorCode(err) != league.EPRECONDITION {
		t.Errorf("scheduling a round of the cancelled tournament: %v; want a precondition failure", err)
	}
}

// TestCancellingARunningTournamentAbortsItsGame: the game being played
// ends aborted at the cancel, unrated and counted in no match; each
// viewer's view of it is the one they had just before, status aside (no
// hand but one's own, no move offered, archive and position still
// closed); a move that comes after, checked against this process's copy
// of the game, is refused and stored nowhere; the round's deadline and the
// next round's start, when their tasks come, do nothing.
func TestCancellingARunningTournamentAbortsItsGame(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	start := time.Now().UTC().Add(time.Hour)
	tour, people := r.peopleTournament(t, "Called off", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "single-elimination",
		Clock: league.Clock{TurnSeconds: 600}, AtDeadline: "adjudicate", Rated: true}, "cat", "dan")
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{{Number: 1, StartsAt: start, Deadline: ptr(start.Add(time.Hour))}}); err != nil {
		t.Fatal(err)
	}
	gameID := r.startRoundOneByHand(t, tour.ID)
	mover := r.moveOnce(t, gameID, people...) // this process now holds the game as stored
	other := people[0]
	if other == mover {
		other = people[1]
	}
	next, err := r.games.View(ctx, other, gameID)
	if err != nil || len(next.LegalMoves) == 0 {
		t.Fatalf("the other player's view: %+v, %v; want a move to make", next, err)
	}
	viewers := map[string]league.Actor{"cat": people[0], "dan": people[1], "a spectator": {}}
	before := map[string][]byte{}
	for name, a := range viewers {
		v, err := r.games.View(ctx, a, gameID)
		if err != nil {
			t.Fatal(err)
		}
		before[name] = v.State
	}
	pool := rating.PoolFor("sequence", 2)
	ratingsBefore := map[string]rating.PlayerState{}
	for _, p := range people {
		st, err := poolState(r.db.Gorm, p.UserID, pool)
		if err != nil {
			t.Fatal(err)
		}
		ratingsBefore[p.UserID] = st
	}

	r.cancelTournament(t, tour.ID)

	for name, a := range viewers {
		v, err := r.games.View(ctx, a, gameID)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case v.Game.Status != league.StatusAborted || v.Game.EndedBy != league.EndedByAbort:
			t.Errorf("%s sees the game %s, ended by %q; want it aborted", name, v.Game.Status, v.Game.EndedBy)
		case !bytes.Equal(v.State, before[name]):
			t.Errorf("%s's view after the cancel:\n%s\nwant the one before it:\n%s", name, v.State, before[name])
		case len(v.LegalMoves) > 0 || len(v.ToMove) > 0 || v.Game.TurnSeat != nil:
			t.Errorf("%s is offered %v, to move %v, turn %v; want nobody to move", name, v.LegalMoves, v.ToMove, v.Game.TurnSeat)
		}
	}
	// Closed for good, and said so: "opens when the game ends" promised
	// what an aborted game never gives (the security audit).
	if _, err := r.games.Archive(ctx, gameID); league.ErrorCode(err) != league.EPRECONDITION || !strings.Contains(err.Error(), "called off") {
		t.Errorf("the aborted game's archive: %v; want it closed as before, saying the game was called off", err)
	}
	if _, err := r.games.Vector(ctx, league.Actor{}, gameID, nil); league.ErrorCode(err) != league.EPRECONDITION || !strings.Contains(err.Error(), "called off") {
		t.Errorf("the aborted game's position: %v; want it closed as before, saying the game was called off", err)
	}

	_, err = r.games.Move(ctx, other, gameID, league.MoveRequest{Ply: next.Game.Ply, Move: next.LegalMoves[0], MoveID: "late"})
	if league.ErrorCode(err) != league.EPRECONDITION {
		t.Errorf("a move after the cancel: %v; want a precondition failure", err)
	}
	if n := r.rowsOf(t, "game_moves", gameID); n != 1 {
		t.Errorf("%d moves stored; want the one made before the cancel", n)
	}

	if err := r.db.Gorm.Exec("UPDATE rounds SET deadline = now() - interval '1 second' WHERE tournament_id = ?", tour.ID).Error; err != nil {
		t.Fatal(err)
	}
	if err := r.tournaments.RoundDeadline(ctx, tour.ID, 1, time.Time{}); err != nil {
		t.Fatalf("the deadline's task after the cancel: %v", err)
	}
	if err := r.tournaments.StartRound(ctx, tour.ID, 2); err != nil {
		t.Fatalf("round 2's task after the cancel: %v", err)
	}
	if err := r.games.Settle(ctx, gameID); err != nil {
		t.Fatalf("a stray settlement of the aborted game: %v", err)
	}
	time.Sleep(500 * time.Millisecond) // any task the cancel left would run
	if v, err := r.games.View(ctx, league.Actor{}, gameID); err != nil || v.Game.Status != league.StatusAborted || v.Game.SettledAt != nil {
		t.Fatalf("the game after its round's tasks: %+v, %v; want it aborted and never settled", v, err)
	}
	if n := r.rowsOf(t, "rating_changes", gameID); n != 0 {
		t.Errorf("%d rating changes for the aborted game; want none", n)
	}
	for _, p := range people {
		st, err := poolState(r.db.Gorm, p.UserID, pool)
		if err != nil {
			t.Fatal(err)
		}
		if st != ratingsBefore[p.UserID] {
			t.Errorf("rating of %s after the cancel %+v; want %+v", p.UserID, st, ratingsBefore[p.UserID])
		}
	}
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 1 || len(rounds[0].Matches) != 1 || rounds[0].Matches[0].Status != "cancelled" || rounds[0].Matches[0].Winner != "" {
		t.Fatalf("rounds after the cancel: %+v; want round 1's match undecided, as the cancel left it, and called off", rounds)
	}
	standings, err := r.tournaments.Standings(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range standings {
		if row.Played != 0 || row.Wins != 0 || row.Losses != 0 || row.Draws != 0 {
			t.Errorf("standings row %+v; want nothing played", row)
		}
	}
}

// TestAPausedTournamentIsCancelledAndStaysSo: a paused tournament's game
// is aborted too; a cancelled tournament cannot be resumed, started,
// paused or cancelled again, and a finished one cannot be cancelled,
// each refusal naming status; only organizers cancel.
func TestAPausedTournamentIsCancelledAndStaysSo(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	start := time.Now().UTC().Add(time.Hour)
	tour := r.adjudicatedFinal(t, "Paused then called off", start, start.Add(time.Hour), "eve", "fay")
	gameID := r.startRoundOneByHand(t, tour.ID)
	status := func(s string) league.TournamentUpdate { return league.TournamentUpdate{Status: &s} }
	if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, status(league.TournamentPaused)); err != nil {
		t.Fatal(err)
	}
	stranger := r.user(t, "stranger")
	if _, err := r.tournaments.Update(ctx, stranger, tour.ID, status(league.TournamentCancelled)); league.ErrorCode(err) != league.EFORBIDDEN {
		t.Errorf("a cancel by someone outside the club: %v; want forbidden", err)
	}
	if _, err := r.tournaments.Update(ctx, league.Actor{}, tour.ID, status(league.TournamentCancelled)); league.ErrorCode(err) != league.EUNAUTHORIZED {
		t.Errorf("a cancel by nobody signed in: %v; want unauthorized", err)
	}
	if got, err := r.tournaments.Get(ctx, tour.ID); err != nil || got.Status != league.TournamentPaused {
		t.Fatalf("tournament after the refused cancels = %+v, %v; want it paused still", got, err)
	}
	r.cancelTournament(t, tour.ID)
	if v, err := r.games.View(ctx, league.Actor{}, gameID); err != nil || v.Game.Status != league.StatusAborted {
		t.Fatalf("the paused tournament's game after the cancel: %+v, %v; want it aborted", v, err)
	}
	for _, s := range []string{league.TournamentRunning, league.TournamentPaused, league.TournamentCancelled} {
		_, err := r.tournaments.Update(ctx, r.organizer, tour.ID, status(s))
		wantStatusRefused(t, "a cancelled tournament made "+s, err)
	}
	if err := r.db.Gorm.Exec("UPDATE tournaments SET status = 'finished', cancelled_at = NULL, finished_at = now() WHERE id = ?", tour.ID).Error; err != nil {
		t.Fatal(err)
	}
	_, err := r.tournaments.Update(ctx, r.organizer, tour.ID, status(league.TournamentCancelled))
	wantStatusRefused(t, "cancelling a finished tournament", err)
	if got, err := r.tournaments.Get(ctx, tour.ID); err != nil || got.Status != league.TournamentFinished || got.CancelledAt != nil {
		t.Fatalf("the finished tournament after the refused cancel = %+v, %v; want it unchanged", got, err)
	}
}

// TestAGameEndedBeforeTheCancelKeepsItsResultAndStartsNoOther: the first
// game of a best-of-three ends just before the cancel and is settled
// after it: its result is recorded in the match, but no second game
// starts (the series' next game was created in the cancelled tournament,
// and played).
func TestAGameEndedBeforeTheCancelKeepsItsResultAndStartsNoOther(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	start := time.Now().UTC().Add(time.Hour)
	tour, _ := r.peopleTournament(t, "Series called off", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "single-elimination",
		BestOf: 3, Clock: league.Clock{TurnSeconds: 600}}, "gus", "hal")
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{{Number: 1, StartsAt: start}}); err != nil {
		t.Fatal(err)
	}
	gameID := r.startRoundOneByHand(t, tour.ID)
	r.drawByHand(t, gameID) // ended by play; its settlement has not run
	r.cancelTournament(t, tour.ID)
	if err := r.games.Settle(ctx, gameID); err != nil {
		t.Fatal(err)
	}
	var games []gameRow
	if err := r.db.Gorm.Where("tournament_id = ?", tour.ID).Find(&games).Error; err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 || games[0].Status != league.StatusFinished || games[0].SettledAt == nil {
		t.Fatalf("games of the cancelled tournament: %d, the first %s; want only the first, finished and settled", len(games), games[0].Status)
	}
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	m := rounds[0].Matches[0]
	if len(m.GameWinners) != 1 || m.GameWinners[0] != "" || m.Status != "cancelled" {
		t.Fatalf("the match after the settlement: %+v; want its one game recorded as drawn, and the series left undecided, called off", m)
	}
}

// A cancelled tournament is over: it neither holds its season open nor
// counts in the season's table.
func TestACancelledTournamentDoesNotKeepItsSeasonOpen(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	leagues, season := r.openSeason(t, "Tuesday League")
	tour, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: r.clubID, SeasonID: season.ID, Name: "Called off",
		Config: league.TournamentConfig{Game: "sequence", Format: "swiss"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := leagues.CloseSeason(ctx, r.organizer, season.ID); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("closing a season whose tournament takes entries: %v; want a precondition failure", err)
	}
	r.cancelTournament(t, tour.ID)
	table, err := leagues.CloseSeason(ctx, r.organizer, season.ID)
	if err != nil {
		t.Fatalf("closing a season whose only tournament was cancelled: %v", err)
	}
	if !table.Frozen || len(table.Rows) != 0 {
		t.Fatalf("closed season table: %+v; want it frozen and empty", table)
	}
}

// TestACancelledTournamentShowsNothingInPlay: a final cancelled while its
// game is played said, after the cancel, that its round was "running" and
// its match "playing" (the bracket: "ready", with the aborted game), so
// the web app showed the game as played, with a link to watch it live.
// Its round and match now say "cancelled" in the rounds and the bracket,
// and so do a later round never paired and a match waiting on the final
// (a bracket of three); the match keeps its game, aborted.
func TestACancelledTournamentShowsNothingInPlay(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	start := time.Now().UTC().Add(time.Hour)
	tour, _ := r.peopleTournament(t, "Called off mid-game", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "single-elimination",
		Clock: league.Clock{TurnSeconds: 600}}, "ida", "jon", "kim")
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{
		{Number: 1, StartsAt: start, Deadline: ptr(start.Add(time.Hour))}, {Number: 2, StartsAt: start.Add(2 * time.Hour)}}); err != nil {
		t.Fatal(err)
	}
	gameID := r.startRoundOneByHand(t, tour.ID)
	r.cancelTournament(t, tour.ID)

	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 2 {
		t.Fatalf("rounds after the cancel: %+v; want the two scheduled", rounds)
	}
	for _, rd := range rounds {
		if rd.Status != "cancelled" {
			t.Errorf("round %d after the cancel: %q; want cancelled", rd.Number, rd.Status)
		}
	}
	var played league.TournamentMatch
	for _, m := range rounds[0].Matches {
		if !m.Bye {
			played = m
		}
	}
	if played.Status != "cancelled" || played.Winner != "" || !slices.Equal(played.Games, []string{gameID}) {
		t.Errorf("round 1's match after the cancel: %+v; want it cancelled, undecided, with its aborted game", played)
	}

	raw, err := r.tournaments.Bracket(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	var view bracketView
	if err := json.Unmarshal(raw, &view); err != nil {
		t.Fatal(err)
	}
	states := map[string]string{}
	for _, rd := range view.Rounds {
		for _, m := range rd.Matches {
			states[m.ID] = m.State
			if m.ID == played.ID && !slices.Equal(m.Games, []string{gameID}) {
				t.Errorf("the bracket's %s lists games %v; want its aborted game", m.ID, m.Games)
			}
		}
	}
	cancelled := 0
	for id, st := range states {
		switch st {
		case "cancelled":
			cancelled++
		case "ready", "pending", "playing":
			t.Errorf("bracket match %s after the cancel: %s; want it cancelled", id, st)
		}
	}
	if states[played.ID] != "cancelled" || cancelled != 2 {
		t.Errorf("bracket states after the cancel: %v; want the semifinal played and the final cancelled", states)
	}
}
