package postgres

import (
	"context"
	"errors"
	"testing"

	"github.com/seqleague/seqleague/league"
)

// wantRefusal fails unless err is a league error of code naming field.
func wantRefusal(t *testing.T, what string, err error, code, field string) {
	t.Helper()
	var e *league.Error
	if !errors.As(err, &e) || e.Code != code || field != "" && !hasField(e.Fields, field) {
		t.Fatalf("%s: %v, want %s naming %q", what, err, code, field)
	}
}

// bob declines the seat ann kept for him: it is open to anyone, the table
// leaves his invitations, and a stranger takes it. Declining again, or at a
// table that keeps nothing for him, is refused.
func TestDecliningAKeptSeatOpensItToAnyone(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob, cat := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat")
	g, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true, For: "bob"}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.games.Decline(ctx, cat, g.ID)
	wantRefusal(t, "cat declining a seat kept for bob", err, league.EPRECONDITION, "")
	_, err = r.games.Decline(ctx, league.Actor{}, g.ID)
	wantRefusal(t, "a visitor declining", err, league.EUNAUTHORIZED, "")

	declined, err := r.games.Decline(ctx, bob, g.ID)
	if err != nil || !declined.Seats[1].Open || declined.Seats[1].KeptFor != "" {
		t.Fatalf("bob declining: %+v, %v; want seat 1 open to anyone", declined, err)
	}
	if invited, err := r.invitations(t, bob.UserID, bob); err != nil || len(invited) != 0 {
		t.Fatalf("bob's invitations once declined = %+v, %v; want none", invited, err)
	}
	_, err = r.games.Decline(ctx, bob, g.ID)
	wantRefusal(t, "bob declining twice", err, league.EPRECONDITION, "")
	if j, err := r.games.Join(ctx, cat, g.ID, nil); err != nil || j.Seats[1].UserID != cat.UserID || j.Status != league.StatusActive {
		t.Fatalf("cat joining the declined seat: %+v, %v; want seated and the game started", j, err)
	}
	_, err = r.games.Decline(ctx, bob, g.ID)
	wantRefusal(t, "declining at a game that started", err, league.EPRECONDITION, "")
}

// The creator keeps an open seat for another player, opens it to anyone,
// or seats a bot there, which fills the table and starts the game. A seat a
// person holds, a stranger's request, a tournament game and bad seats are
// refused, each naming its field, and change nothing.
func TestTheCreatorChangesAnOpenSeat(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob, cat, dan := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat"), r.user(t, "dan")
	g, err := r.games.Create(ctx, ann, league.NewGame{Game: "stacks", Players: 3, Private: true,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true, For: "bob"}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	// bob never comes: ann keeps his seat for cat instead.
	kept, err := r.games.SetSeat(ctx, ann, g.ID, 1, league.SeatSpec{Open: true, For: "cat"})
	if err != nil || kept.Seats[1].KeptFor != cat.UserID || kept.Seats[1].KeptUntil != nil {
		t.Fatalf("keeping seat 1 for cat: %+v, %v", kept, err)
	}
	if invited, _ := r.invitations(t, bob.UserID, bob); len(invited) != 0 {
		t.Fatalf("bob's invitations = %+v, want none once his seat went to cat", invited)
	}
	if invited, _ := r.invitations(t, cat.UserID, cat); len(invited) != 1 {
		t.Fatalf("cat's invitations = %+v, want this table", invited)
	}
	_, err = r.games.Join(ctx, bob, g.ID, nil)
	if err != nil {
		t.Fatalf("bob joins the other open seat: %v", err)
	}

	for _, c := range []struct {
		what  string
		who   league.Actor
		seat  int
		spec  league.SeatSpec
		code  string
		field string
	}{
		{"a stranger", dan, 1, league.SeatSpec{Open: true}, league.EFORBIDDEN, ""},
		{"a seat a person holds", ann, 2, league.SeatSpec{Open: true}, league.ECONFLICT, "seat"},
		{"no such seat", ann, 3, league.SeatSpec{Open: true}, league.ENOTFOUND, "seat"},
		{"seating a person", ann, 1, league.SeatSpec{UserID: dan.UserID}, league.EINVALID, "user"},
		{"nothing said", ann, 1, league.SeatSpec{}, league.EINVALID, "open"},
		{"an unknown level", ann, 1, league.SeatSpec{Bot: "genius"}, league.EINVALID, "bot"},
		{"for without open", ann, 1, league.SeatSpec{Bot: "greedy", For: "dan"}, league.EINVALID, "for"},
		{"kept for a player seated here", ann, 1, league.SeatSpec{Open: true, For: "bob"}, league.EPRECONDITION, "for"},
		{"kept for the creator", ann, 1, league.SeatSpec{Open: true, For: "ann"}, league.EPRECONDITION, "for"},
		{"kept for nobody known", ann, 1, league.SeatSpec{Open: true, For: "zed"}, league.EPRECONDITION, "for"},
	} {
		_, err := r.games.SetSeat(ctx, c.who, g.ID, c.seat, c.spec)
		wantRefusal(t, c.what, err, c.code, c.field)
	}
	if v, err := r.games.View(ctx, ann, g.ID); err != nil || v.Game.Seats[1].KeptFor != cat.UserID || v.Game.Status != league.StatusOpen {
		t.Fatalf("after the refusals: %+v, %v; want seat 1 still kept for cat", v, err)
	}

	opened, err := r.games.SetSeat(ctx, ann, g.ID, 1, league.SeatSpec{Open: true})
	if err != nil || !opened.Seats[1].Open || opened.Seats[1].KeptFor != "" {
		t.Fatalf("opening seat 1 to anyone: %+v, %v", opened, err)
	}
	started, err := r.games.SetSeat(ctx, ann, g.ID, 1, league.SeatSpec{Bot: "greedy"})
	if err != nil || started.Seats[1].Bot != "greedy" || started.Status != league.StatusActive {
		t.Fatalf("seating a bot in the last open seat: %+v, %v; want the game started", started, err)
	}
	_, err = r.games.SetSeat(ctx, ann, g.ID, 1, league.SeatSpec{Open: true})
	wantRefusal(t, "changing a seat once started", err, league.EPRECONDITION, "")
}

// A rated game keeps a person at the table: with nobody seated, its last
// open seat cannot go to a bot.
func TestARatedTableKeepsASeatForAPerson(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann := r.user(t, "ann")
	g, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Rated: true,
		Seats: []league.SeatSpec{{Bot: "greedy"}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.games.SetSeat(ctx, ann, g.ID, 1, league.SeatSpec{Bot: "strong"})
	wantRefusal(t, "a rated game of bots alone", err, league.EINVALID, "bot")
	if _, err := r.games.SetSeat(ctx, ann, g.ID, 0, league.SeatSpec{Open: true}); err != nil {
		t.Fatalf("opening the bot's seat: %v", err)
	}
}

// The creator who left an open table kept its seats: alice made a table
// of three, bob joined, alice left, and alice still seated a strong bot
// (the security audit), so bob played bots chosen by someone no longer at
// the table. Leaving hands the table (created_by, and with it the seats,
// the start and the cancel) to the person in its lowest seat still held;
// the one who left is a stranger to it.
func TestACreatorWhoLeftTheTableNoLongerChangesItsSeats(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	alice, bob, cat := r.user(t, "alice"), r.user(t, "bob"), r.user(t, "cat")
	g, err := r.games.Create(ctx, alice, league.NewGame{Game: "stacks", Players: 3,
		Seats: []league.SeatSpec{{UserID: alice.UserID}, {Open: true}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	two := 2
	if _, err := r.games.Join(ctx, bob, g.ID, &two); err != nil {
		t.Fatalf("bob joins: %v", err)
	}
	left, err := r.games.LeaveTable(ctx, alice, g.ID)
	if err != nil || left.Status != league.StatusOpen {
		t.Fatalf("alice leaves: %+v, %v; want the table still open", left, err)
	}
	if left.CreatedBy != bob.UserID {
		t.Fatalf("after alice left, the table is %q's, want bob's (%s)", left.CreatedBy, bob.UserID)
	}
	_, err = r.games.SetSeat(ctx, alice, g.ID, 1, league.SeatSpec{Bot: "strong"})
	wantRefusal(t, "alice, who left, seating a bot", err, league.EFORBIDDEN, "")
	_, err = r.games.SetSeat(ctx, alice, g.ID, 0, league.SeatSpec{Open: true, For: "cat"})
	wantRefusal(t, "alice, who left, keeping a seat", err, league.EFORBIDDEN, "")
	_, err = r.games.Start(ctx, alice, g.ID)
	wantRefusal(t, "alice, who left, starting the game", err, league.EFORBIDDEN, "")
	var seated int64
	if err := r.db.Gorm.Table("game_seats").Where("game_id = ? AND (bot_level IS NOT NULL OR kept_for IS NOT NULL)", g.ID).Count(&seated).Error; err != nil || seated != 0 {
		t.Fatalf("%d seats changed by alice (%v), want none", seated, err)
	}
	// bob, at the table, runs it now.
	kept, err := r.games.SetSeat(ctx, bob, g.ID, 0, league.SeatSpec{Open: true, For: "cat"})
	if err != nil || kept.Seats[0].KeptFor != cat.UserID {
		t.Fatalf("bob keeping seat 0 for cat: %+v, %v", kept, err)
	}
	if got, err := r.games.SetSeat(ctx, bob, g.ID, 1, league.SeatSpec{Bot: "greedy"}); err != nil || got.Status != league.StatusOpen {
		t.Fatalf("bob seating a bot: %+v, %v", got, err)
	}
	if got, err := r.games.Join(ctx, cat, g.ID, nil); err != nil || got.Status != league.StatusActive {
		t.Fatalf("cat joining the seat kept for her: %+v, %v; want the game started", got, err)
	}
}
