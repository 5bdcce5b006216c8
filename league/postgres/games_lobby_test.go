package postgres

import (
	"context"
	"errors"
	"slices"
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
	// Once bob's seat is no longer kept, anyone may take it: it is listed
	// (its players, and the others', still on their tables' pages).
	r.games.now = func() time.Time { return time.Now().Add(seatKeptFor + time.Second) }
	r.here(t, ann, first, rematch.ID)
	r.here(t, bob, second)
	r.here(t, cat, third)
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

// here marks p here at each game, as the game's event stream does at every
// heartbeat (three heartbeats of 15 s).
func (r *gameRig) here(t *testing.T, p league.Actor, gameIDs ...string) {
	t.Helper()
	for _, id := range gameIDs {
		if ok, err := r.games.Here(context.Background(), p, id, 45*time.Second); err != nil || !ok {
			t.Fatalf("%s here at %s: %v, %v; want marked", p.UserID, id, ok, err)
		}
	}
}

// The lobby offers a table only while every person seated at it is here:
// within the grace of sitting down (making it or joining it), then while
// the table's event stream keeps them. A table whose player walked away is
// neither listed nor, with a player away, offered; back on its page, the
// player brings it back. The link, a player's own list and the table's
// view still find it, and someone with the link may still join it.
func TestTheLobbyOffersOnlyTablesWhosePlayersAreHere(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob, cat, dan := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat"), r.user(t, "dan")
	start := time.Now()
	at := func(d time.Duration) { r.games.now = func() time.Time { return start.Add(d) } }
	at(0)
	duel, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	threeWay, err := r.games.Create(ctx, bob, league.NewGame{Game: "sequence", Players: 3, Teams: 3,
		Seats: []league.SeatSpec{{UserID: bob.UserID}, {Open: true}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	// Nobody waits at a table of bots and open seats: it is not offered.
	if _, err := r.games.Create(ctx, dan, league.NewGame{Game: "sequence", Players: 2, Seats: []league.SeatSpec{{Open: true}, {Bot: "random"}}}); err != nil {
		t.Fatal(err)
	}
	want := func(when string, ids ...string) {
		t.Helper()
		got, _ := lobbyIDs(t, r, league.StatusOpen, 10, "")
		if !slices.Equal(got, ids) {
			t.Fatalf("%s: the lobby offers %v, want %v", when, got, ids)
		}
	}
	want("just made", threeWay.ID, duel.ID)
	at(hereGrace - time.Second)
	want("within the grace", threeWay.ID, duel.ID)
	at(hereGrace + time.Second)
	want("the grace over, nobody following the tables", nil...)
	r.here(t, ann, duel.ID)
	want("ann back on her table's page", duel.ID)
	// cat joins bob's table: cat is here, bob is not.
	if _, err := r.games.Join(ctx, cat, threeWay.ID, nil); err != nil {
		t.Fatal(err)
	}
	want("cat here and bob away", duel.ID)
	r.here(t, bob, threeWay.ID)
	want("bob back too", threeWay.ID, duel.ID)
	at(hereGrace + 47*time.Second) // ann's stream stopped: three heartbeats missed
	r.here(t, bob, threeWay.ID)
	want("ann's stream stopped", threeWay.ID)

	// Away, ann's table is still hers, seen by its link, and joined by it.
	mine, _, err := r.games.ListForUser(ctx, ann.UserID, league.UserGamesQuery{Viewer: ann})
	if err != nil || len(mine) != 1 || mine[0].ID != duel.ID {
		t.Fatalf("ann's own games: %v, %v; want her table", mine, err)
	}
	if ok, err := r.games.Here(ctx, dan, threeWay.ID, time.Minute); err != nil || ok {
		t.Fatalf("a spectator marked here: %v, %v", ok, err)
	}
	if g, err := r.games.Join(ctx, dan, duel.ID, nil); err != nil || g.Status != league.StatusActive {
		t.Fatalf("dan joining ann's table by its link: %v, %v; want it started", g, err)
	}
	if ok, err := r.games.Here(ctx, ann, duel.ID, time.Minute); err != nil || ok {
		t.Fatalf("marked here at a game being played: %v, %v", ok, err)
	}
}

// A table that starts or is called off waits for nobody: its seats leave
// the index of the people here (which would otherwise hold every seat ever
// marked), and the stream's refresh marks nobody there any more.
func TestAStartedOrCancelledTableForgetsWhoIsHere(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	marked := func(gameID string) int64 {
		t.Helper()
		var n int64
		if err := r.db.Gorm.Table("game_seats").Where("game_id = ? AND here_until IS NOT NULL", gameID).Count(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	table := func() *league.Game {
		t.Helper()
		g, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}}})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	started := table()
	if _, err := r.games.Join(ctx, bob, started.ID, nil); err != nil {
		t.Fatal(err)
	}
	if n := marked(started.ID); n != 0 {
		t.Fatalf("%d seats marked here at a started game, want 0", n)
	}
	if ok, err := r.games.Here(ctx, ann, started.ID, 45*time.Second); err != nil || ok {
		t.Fatalf("ann here at a started game: %v, %v; want no mark", ok, err)
	}
	cancelled := table()
	r.here(t, ann, cancelled.ID)
	if _, err := r.games.Leave(ctx, ann, cancelled.ID); err != nil {
		t.Fatal(err)
	}
	if n := marked(cancelled.ID); n != 0 {
		t.Fatalf("%d seats marked here at a cancelled game, want 0", n)
	}
}

// The marks of a table its players walked away from lapse, and the sweep
// clears them: the index of the people here holds those here now, not
// every table ever left open. A mark renewed in time stays, and the lobby
// offers the same tables before and after.
func TestTheSweepClearsLapsedMarks(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	start := time.Now()
	at := func(d time.Duration) { r.games.now = func() time.Time { return start.Add(d) } }
	at(0)
	left, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	kept, err := r.games.Create(ctx, bob, league.NewGame{Game: "sequence", Players: 2, Seats: []league.SeatSpec{{UserID: bob.UserID}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	marks := func() []string {
		t.Helper()
		var ids []string
		if err := r.db.Gorm.Table("game_seats").Where("game_id IN ? AND here_until IS NOT NULL", []string{left.ID, kept.ID}).
			Pluck("game_id", &ids).Error; err != nil {
			t.Fatal(err)
		}
		return ids
	}
	at(hereGrace + time.Minute)
	r.here(t, bob, kept.ID)
	before, _ := lobbyIDs(t, r, league.StatusOpen, 10, "")
	if n, err := r.games.ForgetLapsed(ctx); err != nil || n != 1 {
		t.Fatalf("ForgetLapsed = %d, %v; want ann's lapsed mark cleared", n, err)
	}
	if got := marks(); !slices.Equal(got, []string{kept.ID}) {
		t.Fatalf("marked after the sweep: %v; want bob's table only", got)
	}
	if after, _ := lobbyIDs(t, r, league.StatusOpen, 10, ""); !slices.Equal(after, before) || !slices.Equal(after, []string{kept.ID}) {
		t.Fatalf("the lobby offers %v after the sweep, %v before; want bob's table both times", after, before)
	}
}

// lobbyPages walks the lobby of q a page of two at a time, and returns the
// games' IDs in order.
func lobbyPages(t *testing.T, r *gameRig, q league.GamesQuery) []string {
	t.Helper()
	var ids []string
	q.Page = league.PageRequest{Limit: 2}
	for pages := 0; ; pages++ {
		games, next, err := r.games.List(context.Background(), q)
		if err != nil {
			t.Fatalf("the lobby of %+v: %v", q, err)
		}
		for _, g := range games {
			ids = append(ids, g.ID)
		}
		if next == "" || pages > 10 {
			return ids
		}
		q.Page.Cursor = next
	}
}

// ?club= keeps the tables made by the club's members (its members now: not
// one who has left) and the games of the club's tournaments, a page at a
// time; never a private table, which stays out of the lobby for everyone;
// and not the tables of another club's members or of people in no club. A
// club that does not exist, or an ID that is no UUID, is a 404 naming club;
// a club with no tables is an empty lobby.
func TestTheLobbyKeepsAClubsTables(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	clubs := NewClubs(r.db)
	ann, amy, cy, bea, ola := r.user(t, "ann"), r.user(t, "amy"), r.user(t, "cy"), r.user(t, "bea"), r.user(t, "ola")
	for _, p := range []league.Actor{ann, amy, cy} {
		r.joinClub(t, p)
	}
	other, err := clubs.Create(ctx, bea, league.NewClub{Name: "Other Club"})
	if err != nil {
		t.Fatal(err)
	}
	empty, err := clubs.Create(ctx, r.user(t, "eve"), league.NewClub{Name: "Empty Club"}) // eve makes no table
	if err != nil {
		t.Fatal(err)
	}
	table := func(p league.Actor, private bool) string {
		t.Helper()
		g, err := r.games.Create(ctx, p, league.NewGame{Game: "sequence", Players: 2, Private: private, Seats: []league.SeatSpec{{UserID: p.UserID}, {Open: true}}})
		if err != nil {
			t.Fatal(err)
		}
		return g.ID
	}
	annFirst := table(ann, false)
	table(ann, true) // private: out of every lobby
	table(cy, false) // cy leaves the club below
	beaTable := table(bea, false)
	table(ola, false)
	annSecond := table(ann, false)
	amyTable := table(amy, false)
	annDuel := r.headToHead(t, ann, ola).ID
	beaDuel := r.headToHead(t, bea, ola).ID
	r.headToHead(t, ola, bea) // made by someone in no club
	// The club's tournament: its game, in play, was made by nobody.
	tour := r.adjudicatedFinal(t, "Club Cup", time.Now().Add(time.Hour), time.Now().Add(2*time.Hour), "kim", "lou")
	if err := r.db.Gorm.Exec("UPDATE rounds SET starts_at = now() - interval '1 second' WHERE tournament_id = ?", tour.ID).Error; err != nil {
		t.Fatal(err)
	}
	if err := r.tournaments.StartRound(ctx, tour.ID, 1); err != nil {
		t.Fatal(err)
	}
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil || len(rounds) != 1 || len(rounds[0].Matches) != 1 || len(rounds[0].Matches[0].Games) != 1 {
		t.Fatalf("the cup's rounds = %+v, %v; want its one game in play", rounds, err)
	}
	cupGame := rounds[0].Matches[0].Games[0]
	// cy leaves the club: cy's table is no longer the club's.
	if err := clubs.Leave(ctx, cy, r.clubID); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name string
		q    league.GamesQuery
		want []string
	}{
		{"the club's tables to join", league.GamesQuery{Status: league.StatusOpen, Club: r.clubID}, []string{amyTable, annSecond, annFirst}},
		{"the club's games to watch", league.GamesQuery{Status: league.StatusActive, Club: r.clubID}, []string{cupGame, annDuel}},
		{"the other club's tables to join", league.GamesQuery{Status: league.StatusOpen, Club: other.ID}, []string{beaTable}},
		{"the other club's games to watch", league.GamesQuery{Status: league.StatusActive, Club: other.ID}, []string{beaDuel}},
		{"the club's two-player Sequence tables", league.GamesQuery{Status: league.StatusOpen, Club: r.clubID, Game: "sequence", Players: 2}, []string{amyTable, annSecond, annFirst}},
		{"the club's Stacks tables", league.GamesQuery{Status: league.StatusOpen, Club: r.clubID, Game: "stacks"}, nil},
		{"an empty club's tables", league.GamesQuery{Status: league.StatusOpen, Club: empty.ID}, nil},
	} {
		if got := lobbyPages(t, r.gameRig, tc.q); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	for _, id := range []string{"7d1c5c0e-3f7a-4c59-9b52-1c0f5b0f2a11", "not-a-uuid"} {
		var e *league.Error
		_, _, err := r.games.List(ctx, league.GamesQuery{Status: league.StatusOpen, Club: id})
		if !errors.As(err, &e) || e.Code != league.ENOTFOUND || !hasField(e.Fields, "club") {
			t.Errorf("the lobby of club %q: %v, want a 404 naming club", id, err)
		}
	}
}
