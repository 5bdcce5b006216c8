package postgres

import (
	"context"
	"testing"

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
	for ply, p := range []league.Actor{ann, bob} {
		v, err := r.games.View(ctx, p, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.games.Move(ctx, p, g.ID, league.MoveRequest{Ply: ply, Move: v.LegalMoves[0]}); err != nil {
			t.Fatal(err)
		}
	}
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
	if err := r.games.Settle(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	var changes []struct {
		UserID    string
		Abandoned bool
	}
	if err := r.db.Gorm.Raw(`SELECT user_id, abandoned FROM rating_changes WHERE game_id = ?`, g.ID).Scan(&changes).Error; err != nil {
		t.Fatal(err)
	}
	abandoned := map[string]bool{}
	for _, c := range changes {
		abandoned[c.UserID] = c.Abandoned
	}
	if len(changes) != 2 || abandoned[ann.UserID] || !abandoned[bob.UserID] {
		t.Fatalf("rating changes %+v; want ann rated as played and bob as abandoning", changes)
	}
}
