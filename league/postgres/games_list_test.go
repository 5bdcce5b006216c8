package postgres

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"gorm.io/gorm"

	"github.com/seqleague/seqleague/league"
)

// turnSeatsIn lists userID's games (those where it is their move with
// toMove) and says whose turn each is: -1 for nobody's.
func (r *gameRig) turnSeatsIn(t *testing.T, userID string, toMove bool) map[string]int {
	t.Helper()
	games, _, err := r.games.ListForUser(context.Background(), userID, league.UserGamesQuery{ToMove: toMove})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, g := range games {
		out[g.ID] = -1
		if g.TurnSeat != nil {
			out[g.ID] = *g.TurnSeat
		}
	}
	return out
}

// A player's list of games says whose turn it is in each game being
// played, without opening it: the seat to move follows the moves, and a
// game that has ended, or not begun, has nobody to move. Filtered to the
// player's move, it holds just the games that wait for them.
func TestAGameListSaysWhoseTurnItIs(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.headToHead(t, ann, bob)
	open, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string, wantTurn int, wantAnn, wantBob []string) {
		t.Helper()
		if got := r.turnSeatsIn(t, ann.UserID, false); got[g.ID] != wantTurn || got[open.ID] != -1 || len(got) != 2 {
			t.Errorf("%s: ann's games say seat %d moves, the open game %d (%d games); want %d, nobody (2 games)",
				when, got[g.ID], got[open.ID], len(got), wantTurn)
		}
		for name, p := range map[string]struct {
			user string
			want []string
		}{"ann": {ann.UserID, wantAnn}, "bob": {bob.UserID, wantBob}} {
			got := r.turnSeatsIn(t, p.user, true)
			if len(got) != len(p.want) {
				t.Errorf("%s: %s's games to move: %v; want %v", when, name, got, p.want)
			}
			for _, id := range p.want {
				if _, ok := got[id]; !ok {
					t.Errorf("%s: %s's games to move: %v; want %v", when, name, got, p.want)
				}
			}
		}
	}
	check("at the start", 0, []string{g.ID}, nil)
	r.playFirstMoves(t, g.ID, ann)
	check("after ann's move", 1, nil, []string{g.ID})
	v, err := r.games.View(ctx, bob, g.ID)
	if err != nil || v.Game.TurnSeat == nil || *v.Game.TurnSeat != 1 {
		t.Fatalf("bob's view: turn seat %v, %v; want 1", v.Game.TurnSeat, err)
	}
	if _, err := r.games.Move(ctx, bob, g.ID, league.MoveRequest{Ply: 1, Move: v.LegalMoves[0]}); err != nil {
		t.Fatal(err)
	}
	check("after bob's move", 0, []string{g.ID}, nil)
	if err := r.games.Adjudicate(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	check("once the game has ended", -1, nil, nil)
	var stored *int
	if err := r.db.Gorm.Raw("SELECT turn_seat FROM games WHERE id = ?", g.ID).Scan(&stored).Error; err != nil || stored != nil {
		t.Errorf("a finished game's stored turn_seat = %v, %v; want NULL", stored, err)
	}
	// An SSE client's missed frames show whose turn it was at each.
	frames, err := r.games.Frames(ctx, ann, g.ID, 0)
	if err != nil || len(frames) != 2 {
		t.Fatalf("frames = %d, %v; want 2", len(frames), err)
	}
	if f := frames[0].View.Game.TurnSeat; f == nil || *f != 1 {
		t.Errorf("the frame after ply 0 has turn seat %v; want 1", f)
	}
}

// countStatements counts the statements db sends from now on.
func countStatements(t *testing.T, db *gorm.DB) *atomic.Int64 {
	t.Helper()
	var n atomic.Int64
	count := func(*gorm.DB) { n.Add(1) }
	cb := db.Callback()
	for name, err := range map[string]error{
		"query": cb.Query().After("gorm:query").Register("test:count", count),
		"row":   cb.Row().After("gorm:row").Register("test:count", count),
		"raw":   cb.Raw().After("gorm:raw").Register("test:count", count),
	} {
		if err != nil {
			t.Fatalf("%s callback: %v", name, err)
		}
	}
	return &n
}

// A page of a player's games is read in two statements however many games
// it holds (the games, then all of their seats), not one more per game:
// a page of 100 games took 101.
func TestAPageOfGamesIsReadInTwoStatements(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	const games = 7
	for range games {
		r.headToHead(t, ann, bob)
	}
	n := countStatements(t, r.db.Gorm)
	for _, q := range []league.UserGamesQuery{{}, {ToMove: true}, {Page: league.PageRequest{Limit: 3}}} {
		n.Store(0)
		page, _, err := r.games.ListForUser(ctx, ann.UserID, q)
		if err != nil {
			t.Fatal(err)
		}
		want := games
		if q.Page.Limit > 0 {
			want = min(games, q.Page.Limit)
		}
		if len(page) != want {
			t.Fatalf("%+v: %d games, want %d", q, len(page), want)
		}
		for _, g := range page {
			if len(g.Seats) != 2 || g.Seats[0].Username != "ann" || g.Seats[1].Username != "bob" {
				t.Fatalf("%+v: game %s seats %+v; want ann and bob", q, g.ID, g.Seats)
			}
		}
		if got := n.Load(); got != 2 {
			t.Errorf("%+v: a page of %d games took %d statements, want 2", q, len(page), got)
		}
	}
}

// A game that was being played before games stored whose turn it is
// (migration 00014) is given its seat to move by the sweep, from the
// engine; a move stored since has written its own.
func TestTheSweepFillsInTheTurnOfGamesFromBeforeTheColumn(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.headToHead(t, ann, bob)
	r.playFirstMoves(t, g.ID, ann)
	if err := r.db.Gorm.Exec("UPDATE games SET turn_seat = NULL WHERE id = ?", g.ID).Error; err != nil {
		t.Fatal(err)
	}
	if got := r.turnSeatsIn(t, bob.UserID, false)[g.ID]; got != -1 {
		t.Fatalf("before the sweep: seat %d to move; want none known", got)
	}
	if _, err := r.games.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	if got := r.turnSeatsIn(t, bob.UserID, true); got[g.ID] != 1 {
		t.Errorf("after the sweep: bob's games to move %v; want this one, seat 1", got)
	}
}

// A player's games page newest first, the game's ID breaking a tie, over
// pages of every size, from the creation times kept on their seats (00038)
// however the game was made: the store's seats and a seat inserted by hand
// (the trigger copies the time) alike; other players' games stay out.
func TestAPlayersGamesPageNewestFirstFromTheirSeats(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	var ids []string
	for range 5 {
		g, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Teams: 2,
			Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
	}
	if _, err := r.games.Create(ctx, bob, league.NewGame{Game: "sequence", Players: 2, Teams: 2,
		Seats: []league.SeatSpec{{UserID: bob.UserID}, {Open: true}}}); err != nil {
		t.Fatal(err)
	}
	// Two of ann's games made at the same moment; one whose seat is
	// written by hand, as the seed and older tests write them.
	if err := r.db.Gorm.Exec("UPDATE games SET created_at = (SELECT created_at FROM games WHERE id = ?) WHERE id = ?", ids[1], ids[2]).Error; err != nil {
		t.Fatal(err)
	}
	if err := r.db.Gorm.Exec("UPDATE game_seats s SET game_created_at = g.created_at FROM games g WHERE g.id = s.game_id").Error; err != nil {
		t.Fatal(err)
	}
	if err := r.db.Gorm.Exec("DELETE FROM game_seats WHERE game_id = ? AND seat = 0", ids[3]).Error; err != nil {
		t.Fatal(err)
	}
	if err := r.db.Gorm.Exec("INSERT INTO game_seats (game_id, seat, user_id) VALUES (?, 0, ?)", ids[3], ann.UserID).Error; err != nil {
		t.Fatal(err)
	}
	var want []string
	if err := r.db.Gorm.Raw("SELECT id FROM games WHERE id IN ? ORDER BY created_at DESC, id DESC", ids).Scan(&want).Error; err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{1, 2, 3, 5, 6} {
		var got []string
		q := league.UserGamesQuery{Viewer: ann, Page: league.PageRequest{Limit: limit}}
		for {
			page, next, err := r.games.ListForUser(ctx, ann.UserID, q)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range page {
				got = append(got, g.ID)
			}
			if next == "" {
				break
			}
			q.Page.Cursor = next
		}
		if !slices.Equal(got, want) {
			t.Errorf("pages of %d: %v, want %v", limit, got, want)
		}
	}
}
