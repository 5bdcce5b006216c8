package postgres

import (
	"context"
	"slices"
	"testing"

	"github.com/seqleague/seqleague/league"
)

// A private table is never listed in the lobby, to join or to watch, nor
// found by a quick match of its set-up, though its set-up is the quick
// match's own; anyone with its link may still view it and join its open
// seat, and its rematch is private too.
func TestAPrivateGameIsJoinedByItsLinkAlone(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob, cat := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat")
	// The quick match's set-up: 2-player classic Sequence, 60 s a turn, unrated.
	table := func(p league.Actor, private bool) league.NewGame {
		return league.NewGame{Game: "sequence", Players: 2, Seats: []league.SeatSpec{{UserID: p.UserID}, {Open: true}},
			Clock: league.QuickMatchClock, Private: private}
	}
	private, err := r.games.Create(ctx, ann, table(ann, true))
	if err != nil {
		t.Fatal(err)
	}
	if !private.Private {
		t.Fatalf("the created game says private = false")
	}
	public, err := r.games.Create(ctx, bob, table(bob, false))
	if err != nil {
		t.Fatal(err)
	}
	if public.Private {
		t.Fatalf("a game made without private says private = true")
	}
	if ids, _ := lobbyIDs(t, r, league.StatusOpen, 50, ""); !slices.Equal(ids, []string{public.ID}) {
		t.Fatalf("games to join = %v, want only the public one %s", ids, public.ID)
	}
	games, _, err := r.games.List(ctx, league.GamesQuery{Status: league.StatusOpen, Game: "sequence", Players: 2})
	if err != nil || len(games) != 1 || games[0].ID != public.ID {
		t.Fatalf("2-player Sequence games to join = %v, %v; want only %s", games, err, public.ID)
	}
	// cat's quick match takes bob's public table, the older private one never.
	if g, created := r.quick(t, cat, league.QuickMatchRequest{Game: "sequence", Players: 2}); created || g.ID != public.ID {
		t.Fatalf("cat's quick match: game %s (created %v), want a seat at the public %s", g.ID, created, public.ID)
	}
	// ann, waiting at her private table, is not answered it by a quick
	// match either: she gets a new public table.
	if g, created := r.quick(t, ann, league.QuickMatchRequest{Game: "sequence", Players: 2}); !created || g.ID == private.ID || g.Private {
		t.Fatalf("ann's quick match: game %s (created %v, private %v), want a new public game", g.ID, created, g.Private)
	}
	// The link still works: cat sees it and joins it, and it starts.
	if v, err := r.games.View(ctx, cat, private.ID); err != nil || !v.Game.Private {
		t.Fatalf("cat viewing the private game: %+v, %v", v, err)
	}
	joined, err := r.games.Join(ctx, cat, private.ID, nil)
	if err != nil {
		t.Fatalf("cat joining the private game by its link: %v", err)
	}
	if joined.Status != league.StatusActive {
		t.Fatalf("the private game once full is %s, want active", joined.Status)
	}
	// Being played, it is not among the games to watch; bob's is.
	if ids, _ := lobbyIDs(t, r, league.StatusActive, 50, ""); !slices.Equal(ids, []string{public.ID}) {
		t.Fatalf("games to watch = %v, want only the public %s", ids, public.ID)
	}
	// Its rematch is private too.
	r.drawByHand(t, private.ID)
	re, err := r.games.Rematch(ctx, cat, private.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !re.Private {
		t.Fatalf("the rematch of a private game is public")
	}
}

// A player's list of games shows their private tables to them alone until
// the game is over: a stranger reading it must not be led to the open seat
// (or the live play) that the link is for. Once over, it is history.
func TestAPlayersPrivateTableIsNotListedToOthersUntilOver(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob, cat := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat")
	private, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}}, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	public, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	listed := func(viewer league.Actor) []string {
		t.Helper()
		games, _, err := r.games.ListForUser(ctx, ann.UserID, league.UserGamesQuery{Viewer: viewer})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, g := range games {
			ids = append(ids, g.ID)
		}
		return ids
	}
	both := []string{public.ID, private.ID} // newest first
	if ids := listed(ann); !slices.Equal(ids, both) {
		t.Fatalf("ann's own list = %v, want %v", ids, both)
	}
	for name, viewer := range map[string]league.Actor{"cat": cat, "a stranger signed out": {}} {
		if ids := listed(viewer); !slices.Equal(ids, []string{public.ID}) {
			t.Fatalf("ann's list read by %s, the private table open = %v, want only %s", name, ids, public.ID)
		}
	}
	if _, err := r.games.Join(ctx, bob, private.ID, nil); err != nil {
		t.Fatal(err)
	}
	if ids := listed(cat); !slices.Equal(ids, []string{public.ID}) {
		t.Fatalf("ann's list read by cat, the private game being played = %v, want only %s", ids, public.ID)
	}
	r.drawByHand(t, private.ID)
	if ids := listed(cat); !slices.Equal(ids, both) {
		t.Fatalf("ann's list read by cat, the private game over = %v, want %v", ids, both)
	}
}
