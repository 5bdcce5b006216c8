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
