package postgres

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
)

func lobbyIDs(t *testing.T, r *gameRig, status string, limit int, cursor string) ([]string, string) {
	t.Helper()
	games, next, err := r.games.List(context.Background(), league.GamesQuery{Status: status, Page: league.PageRequest{Limit: limit, Cursor: cursor}})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(games))
	for i, g := range games {
		ids[i] = g.ID
	}
	return ids, next
}

// The lobby lists the games anyone may join now, newest first and a page at
// a time, and apart from them the games being played, to watch: not a game
// whose seats are taken, nor one whose only open seat a rematch keeps for
// its player (until the keeping ends).
func TestTheLobbyListsTheGamesToJoinAndToWatch(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob, cat := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat")
	open := func(p league.Actor) string {
		g, err := r.games.Create(ctx, p, league.NewGame{Game: "sequence", Players: 2, Seats: []league.SeatSpec{{UserID: p.UserID}, {Open: true}}})
		if err != nil {
			t.Fatal(err)
		}
		return g.ID
	}
	first, second := open(ann), open(bob)
	vsBot, err := r.games.Create(ctx, cat, league.NewGame{Game: "stacks", Players: 2, Seats: []league.SeatSpec{{UserID: cat.UserID}, {Bot: "random"}}})
	if err != nil {
		t.Fatal(err)
	}
	// A finished game's rematch: its only open seat is kept for bob.
	duel := r.headToHead(t, ann, bob)
	r.drawByHand(t, duel.ID)
	rematch, err := r.games.Rematch(ctx, ann, duel.ID)
	if err != nil {
		t.Fatal(err)
	}
	third := open(cat)

	if ids, next := lobbyIDs(t, r, league.StatusOpen, 2, ""); len(ids) != 2 || ids[0] != third || ids[1] != second || next == "" {
		t.Fatalf("first page of games to join = %v (next %q), want [%s %s] and a next page", ids, next, third, second)
	} else if ids, next := lobbyIDs(t, r, league.StatusOpen, 2, next); len(ids) != 1 || ids[0] != first || next != "" {
		t.Fatalf("second page of games to join = %v (next %q), want [%s] and no more", ids, next, first)
	}
	if ids, _ := lobbyIDs(t, r, league.StatusActive, 10, ""); len(ids) != 1 || ids[0] != vsBot.ID {
		t.Fatalf("games to watch = %v, want [%s]", ids, vsBot.ID)
	}
	// Once bob's seat is no longer kept, anyone may take it: it is listed.
	r.games.now = func() time.Time { return time.Now().Add(seatKeptFor + time.Second) }
	if ids, _ := lobbyIDs(t, r, league.StatusOpen, 10, ""); len(ids) != 4 || ids[1] != rematch.ID {
		t.Fatalf("games to join once the rematch's seat is free = %v, want %s second of 4 (after the newest, %s)", ids, rematch.ID, third)
	}
	var e *league.Error
	if _, _, err := r.games.List(ctx, league.GamesQuery{Status: "finished"}); !errors.As(err, &e) || !hasField(e.Fields, "status") {
		t.Errorf("a lobby of finished games: %v, want a 400 naming status", err)
	}
}

// One player may have at most cfg.MaxLiveGames casual games waiting or in
// play: the next, a rematch too, is refused until one ends or is
// cancelled, and nothing of it is written.
func TestAPlayersLiveGamesAreBounded(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	const bound = 4
	r.games.cfg.MaxLiveGames = bound
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	waiting := league.NewGame{Game: "sequence", Players: 2, Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}}}
	duel := r.headToHead(t, ann, bob) // in play: it counts
	var last string
	for i := 1; i < bound; i++ {
		g, err := r.games.Create(ctx, ann, waiting)
		if err != nil {
			t.Fatalf("game %d of %d: %v", i+1, bound, err)
		}
		last = g.ID
	}
	games := r.count(t, "games")
	if _, err := r.games.Create(ctx, ann, waiting); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("game %d: %v, want a precondition error", bound+1, err)
	}
	if n := r.count(t, "games"); n != games {
		t.Fatalf("the refused game wrote %d rows", n-games)
	}
	// bob is not bounded by ann's games
	if _, err := r.games.Create(ctx, bob, league.NewGame{Game: "sequence", Players: 2, Seats: []league.SeatSpec{{UserID: bob.UserID}, {Open: true}}}); err != nil {
		t.Fatalf("bob's game: %v", err)
	}
	// The duel ends: its rematch would be one live game too many.
	r.drawByHand(t, duel.ID)
	if _, err := r.games.Create(ctx, ann, waiting); err != nil {
		t.Fatalf("a game once the duel ended: %v", err)
	}
	if _, err := r.games.Rematch(ctx, ann, duel.ID); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("a rematch beyond the bound: %v, want a precondition error", err)
	}
	// Cancelling a waiting game makes room.
	if _, err := r.games.Leave(ctx, ann, last); err != nil {
		t.Fatal(err)
	}
	if _, err := r.games.Rematch(ctx, ann, duel.ID); err != nil {
		t.Fatalf("the rematch once a game was cancelled: %v", err)
	}
}
