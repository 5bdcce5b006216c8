package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
)

func (r *gameRig) quick(t *testing.T, p league.Actor, q league.QuickMatchRequest) (*league.Game, bool) {
	t.Helper()
	g, created, err := r.games.QuickMatch(context.Background(), p, q)
	if err != nil {
		t.Fatal(err)
	}
	return g, created
}

// Strangers asking for the same set-up at the same moment sit down at as
// few tables as can seat them: 8 at once for a 2-player Sequence game make
// 4 games of 2, and 8 for a 4-player one 2 games of 4, each started, each
// player at one. Without the set-up's lock most of them made a game each.
func TestQuickMatchesAskedAtOnceShareTables(t *testing.T) {
	r := newGameRig(t, false)
	for _, tc := range []struct {
		q     league.QuickMatchRequest
		games int
	}{
		{league.QuickMatchRequest{Game: "sequence", Players: 2}, 4},
		{league.QuickMatchRequest{Game: "stacks", Players: 2}, 4},
		{league.QuickMatchRequest{Game: "sequence", Variant: "bordered", Players: 4}, 2},
	} {
		name := fmt.Sprintf("%s %s %d", tc.q.Game, tc.q.Variant, tc.q.Players)
		t.Run(name, func(t *testing.T) {
			const people = 8
			players := make([]league.Actor, people)
			for i := range players {
				players[i] = r.user(t, fmt.Sprintf("q%d%s%d", tc.q.Players, tc.q.Game[:2]+tc.q.Variant, i))
			}
			start := make(chan struct{})
			var wg sync.WaitGroup
			gameOf := make([]string, people)
			errs := make([]error, people)
			for i, p := range players {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					g, _, err := r.games.QuickMatch(context.Background(), p, tc.q)
					if err == nil {
						gameOf[i] = g.ID
					}
					errs[i] = err
				}()
			}
			close(start)
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			seated := map[string]int{}
			for _, id := range gameOf {
				seated[id]++
			}
			if len(seated) != tc.games {
				t.Fatalf("%d quick matches made %d games (%v), want %d", people, len(seated), seated, tc.games)
			}
			for id, n := range seated {
				g, err := r.games.View(context.Background(), players[0], id)
				if err != nil {
					t.Fatal(err)
				}
				people := 0
				for _, s := range g.Game.Seats {
					if s.UserID != "" {
						people++
					}
				}
				if n != tc.q.Players || people != tc.q.Players || g.Game.Status != league.StatusActive {
					t.Errorf("game %s: %d answered there, %d seated, %s; want %d and %d seated, active", id, n, people, g.Game.Status, tc.q.Players, tc.q.Players)
				}
				if g.Game.Clock != league.QuickMatchClock || g.Game.Rated {
					t.Errorf("game %s: clock %+v rated %v, want %+v unrated", id, g.Game.Clock, g.Game.Rated, league.QuickMatchClock)
				}
			}
		})
	}
}

// A quick match joins the oldest game of its set-up with a seat anyone may
// take, one made by hand too; not one of another set-up, clock, rating,
// rules or start, not a seat a rematch keeps, and not a second seat of the
// caller's own: the game they wait at is the answer again. It makes a game
// within the caller's bound on live games.
func TestAQuickMatchJoinsTheOldestTableOfItsSetUpOrMakesOne(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob, cat, dan, eve := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat"), r.user(t, "dan"), r.user(t, "eve")
	two := league.QuickMatchRequest{Game: "sequence", Players: 2}

	// Tables a 2-player classic quick match passes by, eve's.
	soon := time.Now().Add(time.Hour)
	clock := league.QuickMatchClock
	var passed []string
	for _, ng := range []league.NewGame{
		{Game: "sequence", Players: 2},
		{Game: "sequence", Variant: "bordered", Players: 2, Clock: clock},
		{Game: "stacks", Players: 2, Clock: clock},
		{Game: "sequence", Players: 2, Clock: clock, Rated: true},
		{Game: "sequence", Players: 2, Clock: clock, ScheduledStart: &soon},
		{Game: "sequence", Players: 2, Clock: clock, SequencesToWin: 1},
	} {
		ng.Seats = []league.SeatSpec{{UserID: eve.UserID}, {Open: true}}
		g, err := r.games.Create(ctx, eve, ng)
		if err != nil {
			t.Fatal(err)
		}
		passed = append(passed, g.ID)
	}
	byHand, err := r.games.Create(ctx, bob, league.NewGame{Game: "sequence", Players: 2, Clock: clock,
		Seats: []league.SeatSpec{{UserID: bob.UserID}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if g, created := r.quick(t, ann, two); g.ID != byHand.ID || created || g.Status != league.StatusActive {
		t.Fatalf("ann's quick match: %s (made %v, %s), want bob's %s joined and started", g.ID, created, g.Status, byHand.ID)
	}
	// The rematch keeps its open seat for bob: not a seat for cat.
	r.drawByHand(t, byHand.ID)
	rematch, err := r.games.Rematch(ctx, ann, byHand.ID)
	if err != nil {
		t.Fatal(err)
	}
	catsGame, created := r.quick(t, cat, two)
	if !created || catsGame.ID == rematch.ID || catsGame.Status != league.StatusOpen {
		t.Fatalf("cat's quick match: %s (made %v, %s), want a new game, not the rematch %s", catsGame.ID, created, catsGame.Status, rematch.ID)
	}
	if s := catsGame.Seats; len(s) != 2 || s[0].UserID != cat.UserID || !s[1].Open || catsGame.Clock != clock || catsGame.Rated {
		t.Fatalf("cat's game: %+v, want cat in seat 0, seat 1 open, %+v, unrated", catsGame, clock)
	}
	games := r.count(t, "games")
	if g, created := r.quick(t, cat, two); g.ID != catsGame.ID || created {
		t.Fatalf("cat's second quick match: %s (made %v), want the game cat waits at, %s", g.ID, created, catsGame.ID)
	}
	if n := r.count(t, "games"); n != games {
		t.Fatalf("cat's second quick match made %d games", n-games)
	}
	if g, created := r.quick(t, dan, two); g.ID != catsGame.ID || created || g.Status != league.StatusActive {
		t.Fatalf("dan's quick match: %s (made %v, %s), want cat's %s joined and started", g.ID, created, g.Status, catsGame.ID)
	}
	for _, id := range passed {
		if n := r.seatedIn(t, id); n != 1 {
			t.Errorf("eve's game %s, of another set-up, has %d seated, want eve alone", id, n)
		}
	}
	// eve has 6 live games; with a bound of 6 her quick match, which
	// finds no table (the rematch's seat is kept), may make none.
	r.games.cfg.MaxLiveGames = 6
	games = r.count(t, "games")
	if _, _, err := r.games.QuickMatch(ctx, eve, two); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("a quick match past the bound: %v, want a precondition error", err)
	}
	if n := r.count(t, "games"); n != games {
		t.Fatalf("the refused quick match made %d games", n-games)
	}
}

func (r *gameRig) seatedIn(t *testing.T, gameID string) int64 {
	t.Helper()
	var n int64
	if err := r.db.Gorm.Table("game_seats").Where("game_id = ? AND user_id IS NOT NULL", gameID).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// A bad set-up is refused by the field at fault, and a signed-out caller
// is told to sign in; nothing is written.
func TestAQuickMatchRefusesABadSetUpByItsField(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann := r.user(t, "ann")
	for _, tc := range []struct {
		q     league.QuickMatchRequest
		field string
	}{
		{league.QuickMatchRequest{Game: "chess", Players: 2}, "game"},
		{league.QuickMatchRequest{Players: 2}, "game"},
		{league.QuickMatchRequest{Game: "sequence"}, "players"},
		{league.QuickMatchRequest{Game: "sequence", Players: 5}, "players"},
		{league.QuickMatchRequest{Game: "sequence", Players: 1 << 30}, "players"},
		{league.QuickMatchRequest{Game: "stacks", Players: -1}, "players"},
		{league.QuickMatchRequest{Game: "sequence", Players: 6}, "teams"},
		{league.QuickMatchRequest{Game: "sequence", Players: 4, Teams: 3}, "teams"},
		{league.QuickMatchRequest{Game: "sequence", Variant: "jumbo", Players: 2}, "variant"},
		{league.QuickMatchRequest{Game: "stacks", Variant: "bordered", Players: 2}, "variant"},
	} {
		_, _, err := r.games.QuickMatch(ctx, ann, tc.q)
		var e *league.Error
		if !errors.As(err, &e) || e.Code != league.EINVALID || !hasField(e.Fields, tc.field) || hasField(e.Fields, "seats") {
			t.Errorf("%+v: %v (%+v), want invalid naming %s alone", tc.q, err, e, tc.field)
		}
	}
	if _, _, err := r.games.QuickMatch(ctx, league.Actor{}, league.QuickMatchRequest{Game: "sequence", Players: 2}); league.ErrorCode(err) != league.EUNAUTHORIZED {
		t.Errorf("signed out: %v, want unauthorized", err)
	}
	if n := r.count(t, "games"); n != 0 {
		t.Errorf("refused quick matches made %d games", n)
	}
}

// The lobby keeps the games of one kind, or one table size, or both, and
// refuses a kind or size no game has by its field.
func TestTheLobbyFiltersByGameAndTableSize(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann := r.user(t, "ann")
	table := func(game string, players int) string {
		t.Helper()
		ng := league.NewGame{Game: game, Players: players, Teams: players, Seats: make([]league.SeatSpec, players)}
		if game == "sequence" && players == 4 {
			ng.Teams = 2
		}
		ng.Seats[0].UserID = ann.UserID
		for i := 1; i < players; i++ {
			ng.Seats[i].Open = true
		}
		g, err := r.games.Create(ctx, ann, ng)
		if err != nil {
			t.Fatal(err)
		}
		return g.ID
	}
	seq2, seq4, st2, st4 := table("sequence", 2), table("sequence", 4), table("stacks", 2), table("stacks", 4)
	list := func(q league.GamesQuery) []string {
		t.Helper()
		q.Status = league.StatusOpen
		games, _, err := r.games.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		ids := make([]string, len(games))
		for i, g := range games {
			ids[i] = g.ID
		}
		return ids
	}
	for _, tc := range []struct {
		q    league.GamesQuery
		want []string
	}{
		{league.GamesQuery{}, []string{st4, st2, seq4, seq2}},
		{league.GamesQuery{Game: "sequence"}, []string{seq4, seq2}},
		{league.GamesQuery{Game: "stacks", Players: 4}, []string{st4}},
		{league.GamesQuery{Players: 2}, []string{st2, seq2}},
		{league.GamesQuery{Game: "stacks", Players: 5}, []string{}},
	} {
		if got := list(tc.q); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%+v: %v, want %v", tc.q, got, tc.want)
		}
	}
	for _, tc := range []struct {
		q     league.GamesQuery
		field string
	}{
		{league.GamesQuery{Game: "chess"}, "game"},
		{league.GamesQuery{Game: "sequence", Players: 5}, "players"},
		{league.GamesQuery{Game: "stacks", Players: 8}, "players"},
		{league.GamesQuery{Players: 13}, "players"},
		{league.GamesQuery{Players: -2}, "players"},
	} {
		tc.q.Status = league.StatusActive
		_, _, err := r.games.List(ctx, tc.q)
		var e *league.Error
		if !errors.As(err, &e) || e.Code != league.EINVALID || !hasField(e.Fields, tc.field) {
			t.Errorf("%+v: %v, want invalid naming %s", tc.q, err, tc.field)
		}
	}
}

// A quick match seats nobody across from a player who walked away: the
// table of someone no longer here (their grace over, no stream keeping
// them) is passed by, and a new one made instead; nor a table where one
// of two people seated is away. A caller's own waiting table is still
// their answer, here or not, and asking makes them here again; a player
// back on the table's page brings it back.
func TestAQuickMatchSeatsNobodyAcrossFromAnAbsentPlayer(t *testing.T) {
	r := newGameRig(t, false)
	ann, bob, cat, dan, eve, fay := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat"), r.user(t, "dan"), r.user(t, "eve"), r.user(t, "fay")
	start := time.Now()
	at := func(d time.Duration) { r.games.now = func() time.Time { return start.Add(d) } }
	two := league.QuickMatchRequest{Game: "sequence", Players: 2}
	four := league.QuickMatchRequest{Game: "sequence", Players: 4}

	at(0)
	anns, created := r.quick(t, ann, two)
	if !created {
		t.Fatal("ann's quick match found a table in an empty lobby")
	}
	at(hereGrace + time.Second)
	bobs, created := r.quick(t, bob, two)
	if !created || bobs.ID == anns.ID {
		t.Fatalf("bob's quick match with ann away: game %s (created %v), want a new table, not ann's %s", bobs.ID, created, anns.ID)
	}
	again, created := r.quick(t, ann, two)
	if created || again.ID != anns.ID {
		t.Fatalf("ann asking again while away: game %s (created %v), want her own table %s", again.ID, created, anns.ID)
	}
	// Asking again made ann here: cat is seated at the oldest table, hers.
	cats, created := r.quick(t, cat, two)
	if created || cats.ID != anns.ID || cats.Status != league.StatusActive {
		t.Fatalf("cat's quick match: game %s (created %v, %s), want ann's %s started", cats.ID, created, cats.Status, anns.ID)
	}

	// Four seats: dan makes the table and eve joins it; once their grace
	// is over only dan keeps following it.
	at(0)
	dans, _ := r.quick(t, dan, four)
	if eves, created := r.quick(t, eve, four); created || eves.ID != dans.ID {
		t.Fatalf("eve's quick match: game %s (created %v), want dan's %s", eves.ID, created, dans.ID)
	}
	at(hereGrace + time.Second)
	r.here(t, dan, dans.ID)
	fays, created := r.quick(t, fay, four)
	if !created || fays.ID == dans.ID {
		t.Fatalf("fay's quick match with eve away: game %s (created %v), want a new table, not dan's %s", fays.ID, created, dans.ID)
	}
	r.here(t, eve, dans.ID)
	if bobs2, created := r.quick(t, bob, four); created || bobs2.ID != dans.ID {
		t.Fatalf("bob's quick match with eve back: game %s (created %v), want dan's %s, the oldest", bobs2.ID, created, dans.ID)
	}
}
