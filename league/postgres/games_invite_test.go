package postgres

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/migrations"
)

func (r *gameRig) invitations(t *testing.T, userID string, viewer league.Actor) ([]league.Game, error) {
	t.Helper()
	games, _, err := r.games.ListForUser(context.Background(), userID, league.UserGamesQuery{Invited: true, Viewer: viewer})
	return games, err
}

// A seat kept for a named player stays theirs until the game starts, a day
// later too: nobody else takes it (409 naming seat), the lobby does not
// offer a game whose only open seat it is, the invitation is listed to the
// player alone, with its creator's name, and the player's join takes it
// and starts the game.
func TestASeatKeptForAPlayerIsTheirsUntilTheGameStarts(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob, cat := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat")
	g, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true, For: "BOB"}}}) // usernames ignore case
	if err != nil {
		t.Fatal(err)
	}
	if s := g.Seats[1]; !s.Open || s.KeptFor != bob.UserID || s.KeptForName != "bob" || s.KeptUntil != nil {
		t.Fatalf("seat 1 = %+v, want open, kept for bob with no end", s)
	}
	// A day on, it is still kept.
	r.games.now = func() time.Time { return time.Now().UTC().Add(24 * time.Hour) }
	if ids, _ := lobbyIDs(t, r, league.StatusOpen, 50, ""); len(ids) != 0 {
		t.Fatalf("games to join = %v, want none: the only open seat is kept for bob", ids)
	}
	for _, seat := range []*int{nil, new(int)} {
		if seat != nil {
			*seat = 1
		}
		_, err := r.games.Join(ctx, cat, g.ID, seat)
		var e *league.Error
		if !errors.As(err, &e) || e.Code != league.ECONFLICT {
			t.Fatalf("cat joining (seat %v): %v, want a conflict", seat, err)
		}
		if seat != nil && !hasField(e.Fields, "seat") {
			t.Fatalf("cat joining seat 1: %v, want it to name seat", err)
		}
	}
	invited, err := r.invitations(t, bob.UserID, bob)
	if err != nil || len(invited) != 1 || invited[0].ID != g.ID || invited[0].CreatedByName != "ann" {
		t.Fatalf("bob's invitations = %+v, %v; want %s by ann", invited, err, g.ID)
	}
	if invited, err := r.invitations(t, cat.UserID, cat); err != nil || len(invited) != 0 {
		t.Fatalf("cat's invitations = %+v, %v; want none", invited, err)
	}
	if _, err := r.invitations(t, bob.UserID, cat); league.ErrorCode(err) != league.EFORBIDDEN {
		t.Fatalf("cat asking for bob's invitations: %v, want forbidden", err)
	}
	if _, err := r.invitations(t, bob.UserID, league.Actor{}); league.ErrorCode(err) != league.EUNAUTHORIZED {
		t.Fatalf("a visitor asking for bob's invitations: %v, want unauthorized", err)
	}
	if _, _, err := r.games.ListForUser(ctx, bob.UserID, league.UserGamesQuery{Invited: true, ToMove: true, Viewer: bob}); league.ErrorCode(err) != league.EINVALID {
		t.Fatalf("invited with to_move: %v, want invalid", err)
	}
	joined, err := r.games.Join(ctx, bob, g.ID, nil)
	if err != nil {
		t.Fatalf("bob joining: %v", err)
	}
	if joined.Status != league.StatusActive || joined.Seats[1].UserID != bob.UserID || joined.Seats[1].KeptFor != "" {
		t.Fatalf("after bob's join: status %s, seat 1 %+v; want bob seated and the game started", joined.Status, joined.Seats[1])
	}
	if invited, err := r.invitations(t, bob.UserID, bob); err != nil || len(invited) != 0 {
		t.Fatalf("bob's invitations once seated = %+v, %v; want none", invited, err)
	}
}

// With a seat kept for bob and another open, the lobby offers the game, a
// stranger takes the open one and the kept one stays bob's; the creator
// still cancels a game nobody joined, and a closed account's kept seat is
// opened to anyone.
func TestAKeptSeatLeavesTheOthersToAnyone(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob, cat, dan := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat"), r.user(t, "dan")
	g, err := r.games.Create(ctx, ann, league.NewGame{Game: "stacks", Players: 3,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true, For: "bob"}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if ids, _ := lobbyIDs(t, r, league.StatusOpen, 50, ""); !slices.Equal(ids, []string{g.ID}) {
		t.Fatalf("games to join = %v, want [%s]", ids, g.ID)
	}
	if j, err := r.games.Join(ctx, cat, g.ID, nil); err != nil || j.Seats[2].UserID != cat.UserID || j.Seats[1].KeptFor != bob.UserID {
		t.Fatalf("cat's join: %+v, %v; want seat 2, seat 1 still kept for bob", j, err)
	}
	if _, err := r.games.Join(ctx, dan, g.ID, nil); league.ErrorCode(err) != league.ECONFLICT {
		t.Fatalf("dan's join with only bob's seat open: %v, want a conflict", err)
	}
	// bob closes his account: his seat is anyone's.
	if err := r.closer().Delete(ctx, bob, bob.UserID); err != nil {
		t.Fatal(err)
	}
	if j, err := r.games.Join(ctx, dan, g.ID, nil); err != nil || j.Seats[1].UserID != dan.UserID || j.Status != league.StatusActive {
		t.Fatalf("dan's join once bob closed his account: %+v, %v; want seat 1 and the game started", j, err)
	}
	// A table ann kept for cat alone: ann may call it off.
	solo, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2, Private: true,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true, For: "cat"}}})
	if err != nil {
		t.Fatal(err)
	}
	if left, err := r.games.Leave(ctx, ann, solo.ID); err != nil || left.Status != league.StatusAborted {
		t.Fatalf("ann cancelling: %+v, %v; want aborted", left, err)
	}
	if invited, err := r.invitations(t, cat.UserID, cat); err != nil || len(invited) != 0 {
		t.Fatalf("cat's invitations once cancelled = %+v, %v; want none", invited, err)
	}
}

// A seat cannot be kept for an unknown or closed account, a bot, the
// creator or one person twice: each is a 422 naming the seat's for, and
// nothing is written; "for" on a seat that is not open is a 400.
func TestASeatIsKeptOnlyForAnotherLivePerson(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, _, gone := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "gone")
	if err := r.db.Gorm.Exec("UPDATE users SET deleted_at = now() WHERE id = ?", gone.UserID).Error; err != nil {
		t.Fatal(err)
	}
	if err := r.db.Gorm.Exec("INSERT INTO users (username, kind, bot_level) VALUES ('bot-greedy', 'bot', 'greedy') ON CONFLICT DO NOTHING").Error; err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		seats []league.SeatSpec
		code  string
		field string
	}{
		{"an unknown player", []league.SeatSpec{{UserID: ann.UserID}, {Open: true, For: "nobody"}}, league.EPRECONDITION, "seats[1].for"},
		{"no username at all", []league.SeatSpec{{UserID: ann.UserID}, {Open: true, For: "a\x00b"}}, league.EPRECONDITION, "seats[1].for"},
		{"a closed account", []league.SeatSpec{{UserID: ann.UserID}, {Open: true, For: "gone"}}, league.EPRECONDITION, "seats[1].for"},
		{"a bot", []league.SeatSpec{{UserID: ann.UserID}, {Open: true, For: "bot-greedy"}}, league.EPRECONDITION, "seats[1].for"},
		{"oneself", []league.SeatSpec{{Open: true, For: "Ann"}, {Bot: "random"}}, league.EPRECONDITION, "seats[0].for"},
		{"one person twice", []league.SeatSpec{{UserID: ann.UserID}, {Open: true, For: "bob"}, {Open: true, For: "BOB"}}, league.EPRECONDITION, "seats[2].for"},
		{"a seat not open", []league.SeatSpec{{UserID: ann.UserID}, {Bot: "random", For: "bob"}}, league.EINVALID, "seats[1].for"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			games, seats := r.count(t, "games"), r.count(t, "game_seats")
			_, err := r.games.Create(ctx, ann, league.NewGame{Game: "stacks", Players: len(tc.seats), Seats: tc.seats})
			var e *league.Error
			if !errors.As(err, &e) || e.Code != tc.code || !hasField(e.Fields, tc.field) {
				t.Fatalf("%v, want %s naming %s", err, tc.code, tc.field)
			}
			if r.count(t, "games") != games || r.count(t, "game_seats") != seats {
				t.Fatalf("the refused game wrote rows")
			}
		})
	}
}

// A table's kept seats stop being kept once it can no longer be joined:
// called off by its creator, lapsed, or started with a bot in the seat. The
// seat's kept_for would otherwise stay in game_seats_kept_for_idx for good,
// which every player's invitations are read through.
func TestATableThatEndsOrStartsKeepsNoSeat(t *testing.T) {
	r := newLapseRig(t)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	keptForBob := func(at *time.Time) league.NewGame {
		ng := waiting(ann)
		ng.Seats[1].For = "bob"
		ng.ScheduledStart = at
		return ng
	}
	called, err := r.games.Create(ctx, ann, keptForBob(nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.games.Leave(ctx, ann, called.ID); err != nil {
		t.Fatal(err)
	}
	lapsing, err := r.games.Create(ctx, ann, keptForBob(nil))
	if err != nil {
		t.Fatal(err)
	}
	soon := r.start.Add(time.Hour)
	scheduled, err := r.games.Create(ctx, ann, keptForBob(&soon))
	if err != nil {
		t.Fatal(err)
	}
	r.at(2 * time.Hour)
	if err := r.games.StartScheduled(ctx, scheduled.ID); err != nil {
		t.Fatal(err)
	}
	r.at(testLifetime + hereGrace + time.Minute)
	if n, err := r.games.LapseOpenTables(ctx); err != nil || n != 1 {
		t.Fatalf("LapseOpenTables = %d, %v; want the one table left open", n, err)
	}
	for name, id := range map[string]string{"called off": called.ID, "lapsed": lapsing.ID, "started": scheduled.ID} {
		var kept int64
		if err := r.db.Gorm.Model(&seatRow{}).Where("game_id = ? AND (kept_for IS NOT NULL OR kept_until IS NOT NULL)", id).
			Count(&kept).Error; err != nil {
			t.Fatal(err)
		}
		if kept != 0 {
			t.Errorf("the %s table still keeps %d seat(s); want none", name, kept)
		}
	}
	if g := r.gameRow(t, scheduled.ID); g.Status != league.StatusActive {
		t.Fatalf("the scheduled table is %s, want active with a bot in bob's seat", g.Status)
	}
	if inv, err := r.invitations(t, bob.UserID, bob); err != nil || len(inv) != 0 {
		t.Fatalf("bob's invitations = %v, %v; want none", inv, err)
	}
}

// Migration 00031 forgets the seats that games which started or ended
// before forgetWaiting kept, and keeps those of the tables still waiting.
func TestMigrationForgetsTheSeatsKeptAtGamesNoLongerWaiting(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	kept := waiting(ann)
	kept.Seats[1].For = "bob"
	ended, err := r.games.Create(ctx, ann, kept)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.games.Leave(ctx, ann, ended.ID); err != nil {
		t.Fatal(err)
	}
	open, err := r.games.Create(ctx, ann, kept)
	if err != nil {
		t.Fatal(err)
	}
	// As the code before forgetWaiting left a called-off table.
	if err := r.db.Gorm.Exec("UPDATE game_seats SET kept_for = ? WHERE game_id = ? AND seat = 1", bob.UserID, ended.ID).Error; err != nil {
		t.Fatal(err)
	}
	up, err := fs.ReadFile(migrations.Files(), "00031_seats_kept_forgotten.sql")
	if err != nil {
		t.Fatal(err)
	}
	sql, _, _ := strings.Cut(string(up), "-- +goose Down")
	if err := r.db.Gorm.Exec(sql).Error; err != nil {
		t.Fatal(err)
	}
	keptAt := func(id string) (n int64) {
		if err := r.db.Gorm.Model(&seatRow{}).Where("game_id = ? AND kept_for IS NOT NULL", id).Count(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := keptAt(ended.ID); n != 0 {
		t.Errorf("the called-off table keeps %d seat(s) after the migration, want none", n)
	}
	if n := keptAt(open.ID); n != 1 {
		t.Errorf("the waiting table keeps %d seat(s) after the migration, want bob's", n)
	}
}
