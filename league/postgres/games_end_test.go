package postgres

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
)

// A game ended off the board (a round's deadline adjudicated it) is one
// the engine would still have someone move in: no view of it, read now,
// from a snapshot or as the last SSE frame, names a seat to move or offers
// a legal move.
func TestAFinishedGameHasNobodyToMove(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.headToHead(t, ann, bob)
	r.playFirstMoves(t, g.ID, ann, bob)
	if err := r.games.Adjudicate(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	snap, err := r.games.Snapshot(ctx, g.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []league.Actor{ann, bob, {}} {
		v, err := r.games.View(ctx, p, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if v.Game.Status != league.StatusFinished {
			t.Fatalf("status %s, want finished", v.Game.Status)
		}
		if len(v.ToMove) != 0 || len(v.LegalMoves) != 0 {
			t.Errorf("view for %q: to move %v, legal moves %v; want nobody and none", p.UserID, v.ToMove, v.LegalMoves)
		}
		if v.State == nil {
			t.Errorf("view for %q has no state; want the final position", p.UserID)
		}
		if sv := snap.ViewFor(p); len(sv.ToMove) != 0 || len(sv.LegalMoves) != 0 {
			t.Errorf("snapshot view for %q: to move %v, legal moves %v; want nobody and none", p.UserID, sv.ToMove, sv.LegalMoves)
		}
	}
	frames, err := r.games.Frames(ctx, ann, g.ID, 0)
	if err != nil || len(frames) != 2 {
		t.Fatalf("frames = %d, %v; want 2", len(frames), err)
	}
	if got := frames[0].View.ToMove; len(got) != 1 || got[0] != 1 {
		t.Errorf("first frame (game active): to move %v, want [1]", got)
	}
	if got := frames[1].View; len(got.ToMove) != 0 || len(got.LegalMoves) != 0 {
		t.Errorf("last frame (game adjudicated): to move %v, legal moves %v; want nobody and none", got.ToMove, got.LegalMoves)
	}
}

// At a round's deadline with at_deadline "bots", a person who has moved in
// the game is finished for by a bot and keeps their result; one who never
// made a move of their own there is recorded as having abandoned, as after
// max_timeouts: the fill-in's moves are labelled so and the rating counts
// the seat as the abandoning side.
func TestHandingAGameToBotsAtADeadlineAbandonsOnlyThoseWhoNeverMoved(t *testing.T) {
	r, _ := newRatingRig(t)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.seat(t, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2, Rated: true,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {}}}, map[int]league.Actor{1: bob})
	v, err := r.games.View(ctx, ann, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.games.Move(ctx, ann, g.ID, league.MoveRequest{Ply: 0, Move: v.LegalMoves[0]}); err != nil {
		t.Fatal(err)
	}
	if err := r.games.HandToBots(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	v, err = r.games.View(ctx, bob, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	// ann, who moved, still sits at her seat (bots finish for her): she
	// sees her hand and is offered no move.
	if mine, err := r.games.View(ctx, ann, g.ID); err != nil || mine.YourSeat == nil || *mine.YourSeat != 0 || len(mine.LegalMoves) != 0 {
		t.Fatalf("ann's view after the hand-over: your seat %v, legal moves %v, %v; want seat 0 and none", mine.YourSeat, mine.LegalMoves, err)
	}
	type seatState struct{ FilledByBot, Abandoned bool }
	want := []seatState{{FilledByBot: true}, {FilledByBot: true, Abandoned: true}}
	for i, s := range v.Game.Seats {
		if got := (seatState{s.FilledByBot, s.Abandoned}); got != want[i] || s.Bot == "" {
			t.Errorf("seat %d after the hand-over: %+v, bot %q; want %+v and a bot", i, got, s.Bot, want[i])
		}
	}
	// The bots finish the game (no workers: the test plays their tasks).
	for i := 0; v.Game.Status == league.StatusActive; i++ {
		if i > 2000 {
			t.Fatalf("bots have not finished the game by ply %d", v.Game.Ply)
		}
		if err := r.games.PlayBot(ctx, g.ID, v.Game.Ply); err != nil {
			t.Fatal(err)
		}
		if v, err = r.games.View(ctx, bob, g.ID); err != nil {
			t.Fatal(err)
		}
	}
	moves, err := r.games.Moves(ctx, g.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	wantBy := map[int]string{0: league.ByBot, 1: league.ByFillIn}
	for _, m := range moves {
		if m.Actor != wantBy[m.Seat] {
			t.Fatalf("ply %d, seat %d played by %q; want %q", m.Ply, m.Seat, m.Actor, wantBy[m.Seat])
		}
	}
	for _, s := range v.Game.Seats {
		if s.Rating != nil {
			t.Fatalf("seat %d shows a rating change %+v before the game was rated", s.Seat, *s.Rating)
		}
	}
	if err := r.games.Settle(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	var changes []struct {
		UserID        string
		Abandoned     bool
		Before, After float64
	}
	if err := r.db.Gorm.Raw(`SELECT user_id, abandoned, before, after FROM rating_changes WHERE game_id = ?`, g.ID).Scan(&changes).Error; err != nil {
		t.Fatal(err)
	}
	// The game's view and archive show each player's change once rated, and
	// so do the views a live stream sends: from a snapshot (the one it opens
	// with) and its last frame of missed moves. Those once had none, and the
	// page that took them read that the game changed no rating.
	rated, err := r.games.View(ctx, bob, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := r.games.Snapshot(ctx, g.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	frames, err := r.games.Frames(ctx, bob, g.ID, v.Game.Ply-1)
	if err != nil || len(frames) != 1 {
		t.Fatalf("frames from the last ply: %d, %v; want 1", len(frames), err)
	}
	if v.Game.SettledAt != nil || rated.Game.SettledAt == nil {
		t.Fatalf("settled_at %v before the settlement and %v after; want none, then a time", v.Game.SettledAt, rated.Game.SettledAt)
	}
	archive, err := r.games.Archive(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		for _, seats := range [][]league.Seat{rated.Game.Seats, archive.Game.Seats, snap.ViewFor(bob).Game.Seats, frames[0].View.Game.Seats} {
			i := slices.IndexFunc(seats, func(s league.Seat) bool { return s.UserID == c.UserID })
			if i < 0 || seats[i].Rating == nil || *seats[i].Rating != (league.SeatRating{Before: c.Before, After: c.After}) {
				t.Fatalf("seats %+v; want %s's rating %.1f → %.1f", seats, c.UserID, c.Before, c.After)
			}
		}
	}
	abandoned := map[string]bool{}
	for _, c := range changes {
		abandoned[c.UserID] = c.Abandoned
	}
	if len(changes) != 2 || abandoned[ann.UserID] || !abandoned[bob.UserID] {
		t.Fatalf("rating changes %+v; want ann rated as played and bob as abandoning", changes)
	}
}

// An open game's creator may leave it like anyone seated; a game left with
// no person seated (only bots and open seats) is aborted, as when the last
// person's account is closed, instead of staying open forever.
func TestAnOpenGameLeftWithNoPersonSeatedIsAborted(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob, cat := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat")
	threeWay := func(third league.SeatSpec) league.NewGame {
		return league.NewGame{Game: "sequence", Players: 3, Teams: 3,
			Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}, third}}
	}
	wantStatus := func(g *league.Game, status, endedBy string) {
		t.Helper()
		if g.Status != status || g.EndedBy != endedBy {
			t.Fatalf("game %s: status %s, ended by %q; want %s, %q", g.ID, g.Status, g.EndedBy, status, endedBy)
		}
	}

	// Alone with a bot: leaving aborts the game.
	alone, err := r.games.Create(ctx, ann, threeWay(league.SeatSpec{Bot: "random"}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.games.Leave(ctx, bob, alone.ID); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("bob, not seated, leaving: %v; want a precondition failure", err)
	}
	left, err := r.games.Leave(ctx, ann, alone.ID)
	if err != nil {
		t.Fatalf("the creator leaving: %v", err)
	}
	wantStatus(left, league.StatusAborted, league.EndedByAbort)
	if left.FinishedAt == nil {
		t.Errorf("an aborted game has no finished_at")
	}
	v, err := r.games.View(ctx, cat, alone.ID)
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(&v.Game, league.StatusAborted, league.EndedByAbort)
	if _, err := r.games.Join(ctx, cat, alone.ID, nil); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("joining an aborted game: %v; want a precondition failure", err)
	}

	// With bob seated: the creator's seat is freed and the game stays
	// open; when bob leaves too, nobody is left and it is aborted.
	shared, err := r.games.Create(ctx, ann, threeWay(league.SeatSpec{Open: true}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.games.Join(ctx, bob, shared.ID, new(1)); err != nil {
		t.Fatal(err)
	}
	g, err := r.games.Leave(ctx, ann, shared.ID)
	if err != nil {
		t.Fatalf("the creator leaving: %v", err)
	}
	wantStatus(g, league.StatusOpen, "")
	if !g.Seats[0].Open || g.Seats[1].UserID != bob.UserID {
		t.Fatalf("seats after the creator left: %+v; want seat 0 open and bob in seat 1", g.Seats)
	}
	if g, err = r.games.Leave(ctx, bob, shared.ID); err != nil {
		t.Fatalf("the last person leaving: %v", err)
	}
	wantStatus(g, league.StatusAborted, league.EndedByAbort)
}

// The answer to a repeated move_id is the game as it stood right after that
// move: if the game has moved on and ended since, still being played, with
// its next player to move.
func TestARepeatedMoveOfAGameThatEndedSinceShowsTheGameAsItWas(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob, g, v := r.annToMove(t)
	req := league.MoveRequest{Ply: 0, Move: v.LegalMoves[0], MoveID: "a1"}
	first, err := r.games.Move(ctx, ann, g.ID, req)
	if err != nil {
		t.Fatal(err)
	}
	if v, err = r.games.View(ctx, bob, g.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := r.games.Move(ctx, bob, g.ID, league.MoveRequest{Ply: 1, Move: v.LegalMoves[0]}); err != nil {
		t.Fatal(err)
	}
	if err := r.games.Adjudicate(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	again, err := r.games.Move(ctx, ann, g.ID, req)
	if err != nil {
		t.Fatal(err)
	}
	if again.Game.Status != league.StatusActive || again.Game.Ply != 1 || again.Game.EndedBy != "" || len(again.ToMove) != 1 || again.ToMove[0] != 1 {
		t.Fatalf("repeated move: %s at ply %d, ended by %q, to move %v; want the game at ply 1, active, bob to move (first answer: %s, %v)",
			again.Game.Status, again.Game.Ply, again.Game.EndedBy, again.ToMove, first.Game.Status, first.ToMove)
	}
}

// At a deadline, a person whose turn never came is not a no-show: only the
// one who had the turn (and let it go by) is recorded as abandoned.
func TestHandingAGameToBotsSparesThoseWhoseTurnNeverCame(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.headToHead(t, ann, bob) // ann moves first, and never does
	if err := r.games.HandToBots(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	v, err := r.games.View(ctx, league.Actor{}, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s := v.Game.Seats; !s[0].Abandoned || s[0].AbandonedWhy != league.AbandonedNoShow || s[1].Abandoned || s[1].AbandonedWhy != "" || !s[1].FilledByBot {
		t.Fatalf("seats after the hand-over: ann abandoned %v (%q), bob abandoned %v (%q, filled %v); want only ann, whose turn it was, a no-show",
			s[0].Abandoned, s[0].AbandonedWhy, s[1].Abandoned, s[1].AbandonedWhy, s[1].FilledByBot)
	}
}

// Joining or leaving a game that is no longer open says what became of it.
func TestJoiningAnAbortedGameSaysItWasAborted(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.games.Leave(ctx, ann, g.ID); err != nil {
		t.Fatal(err)
	}
	for name, try := range map[string]func() error{
		"join":  func() error { _, err := r.games.Join(ctx, bob, g.ID, nil); return err },
		"leave": func() error { _, err := r.games.Leave(ctx, ann, g.ID); return err },
	} {
		var e *league.Error
		if err := try(); !errors.As(err, &e) || e.Code != league.EPRECONDITION || e.Message != "the game was aborted" {
			t.Errorf("%s after the abort: %v; want a precondition failure saying the game was aborted", name, err)
		}
	}
}

// A creator who seated nobody (themselves included) can still call off the
// open game while no person has joined; anyone else not seated cannot.
func TestACreatorWhoSeatedNobodyCanCallTheGameOff(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2,
		Seats: []league.SeatSpec{{Open: true}, {Bot: "random"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.games.Leave(ctx, bob, g.ID); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("a stranger calling the game off: %v; want a precondition failure", err)
	}
	got, err := r.games.Leave(ctx, ann, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != league.StatusAborted || got.EndedBy != league.EndedByAbort {
		t.Fatalf("after its creator called it off: %s, ended by %q; want aborted", got.Status, got.EndedBy)
	}
}

// A rated game whose open seats nobody took by its start would be bots
// against bots, moving their ratings: it is called off instead of filled.
func TestARatedGameNobodyJoinedIsCalledOffAtItsStart(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann := r.user(t, "ann")
	start := time.Now().Add(-time.Second)
	g, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2, Rated: true, ScheduledStart: &start,
		Seats: []league.SeatSpec{{Bot: "random"}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.games.StartScheduled(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	v, err := r.games.View(ctx, ann, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Game.Status != league.StatusAborted || v.Game.EndedBy != league.EndedByAbort {
		t.Fatalf("a rated game nobody joined, at its start: %s, ended by %q; want aborted", v.Game.Status, v.Game.EndedBy)
	}
}
