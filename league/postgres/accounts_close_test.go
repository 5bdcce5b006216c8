package postgres

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
)

// closer is an account service over the rig's database that hands a closed
// account's seats to the rig's games, as the app wires it.
func (r *gameRig) closer() *Accounts {
	a := NewAccounts(r.db, league.NewPasswordHasher(cheapArgon2, 1), time.Hour)
	a.HandSeatsTo(r.games)
	return a
}

func TestClosingAnAccountHandsItsActiveGamesToAFillInBot(t *testing.T) {
	r := newGameRig(t, true)
	ctx := context.Background()
	gina, hank := r.user(t, "gina"), r.user(t, "hank")
	g := r.headToHead(t, gina, hank) // untimed, gina to move at ply 0
	if err := r.closer().Delete(ctx, gina, gina.UserID); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	var v *league.GameView
	for {
		var err error
		if v, err = r.games.View(ctx, hank, g.ID); err != nil {
			t.Fatal(err)
		}
		if slices.Contains(v.ToMove, 1) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !slices.Contains(v.ToMove, 1) || v.Game.Status != league.StatusActive {
		t.Fatalf("after gina closed her account: status %s, ply %d, to move %v; want hank to move", v.Game.Status, v.Game.Ply, v.ToMove)
	}
	if s := v.Game.Seats[0]; !s.Abandoned || !s.FilledByBot || s.AbandonedWhy != league.AbandonedAccountClosed {
		t.Fatalf("gina's seat = %+v; want abandoned (her account closed) and filled by a bot", s)
	}
	moves, err := r.games.Moves(ctx, g.ID, -1)
	if err != nil || len(moves) == 0 || moves[0].Actor != league.ByFillIn {
		t.Fatalf("moves = %+v, %v; want the fill-in's first", moves, err)
	}
}

// A player who has to go leaves a game in play at once: a fill-in bot takes
// the seat, as after max_timeouts, and plays the turn that was theirs. The
// only way out was to walk away while the table waited out their clock.
func TestLeavingAGameInPlayHandsTheSeatToAFillInBot(t *testing.T) {
	r := newGameRig(t, true)
	ctx := context.Background()
	gina, hank := r.user(t, "gina"), r.user(t, "hank")
	g := r.headToHead(t, gina, hank) // untimed, gina to move at ply 0
	left, err := r.games.Leave(ctx, gina, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s := left.Seats[0]; left.Status != league.StatusActive || !s.Abandoned || !s.FilledByBot || s.AbandonedWhy != league.AbandonedLeft {
		t.Fatalf("the game gina left: status %s, her seat %+v; want in play, her seat abandoned (left) to a fill-in bot", left.Status, s)
	}
	deadline := time.Now().Add(20 * time.Second)
	var v *league.GameView
	for {
		if v, err = r.games.View(ctx, hank, g.ID); err != nil {
			t.Fatal(err)
		}
		if slices.Contains(v.ToMove, 1) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !slices.Contains(v.ToMove, 1) {
		t.Fatalf("after gina left: ply %d, to move %v; want the fill-in bot to have played her turn, hank to move", v.Game.Ply, v.ToMove)
	}
	moves, err := r.games.Moves(ctx, g.ID, -1)
	if err != nil || len(moves) == 0 || moves[0].Actor != league.ByFillIn {
		t.Fatalf("moves = %+v, %v; want the fill-in's first", moves, err)
	}
	if _, err := r.games.Leave(ctx, gina, g.ID); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("leaving a seat a bot already plays: %v", err)
	}
	// gina plays no more: she sees no hand, the fill-in's being its own
	// (she could pass it on to a teammate still playing).
	mine, err := r.games.View(ctx, gina, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ Hand []string }
	if err := json.Unmarshal(mine.State, &st); err != nil || mine.YourSeat == nil || *mine.YourSeat != 0 || len(st.Hand) != 0 {
		t.Fatalf("gina's view after she left: seat %v, hand %v (%v); want seat 0, no hand", mine.YourSeat, st.Hand, err)
	}
	if _, err := r.games.Leave(ctx, r.user(t, "ivy"), g.ID); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("leaving a game one does not sit at: %v", err)
	}
	if v, err = r.games.View(ctx, hank, g.ID); err != nil || v.Game.Seats[1].Abandoned || v.Game.Seats[1].FilledByBot {
		t.Fatalf("hank's seat = %+v, %v; want his own", v.Game.Seats[1], err)
	}
}

func TestClosingAnAccountFreesItsSeatsInGamesNotStarted(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	gina, hank, bob, cat := r.user(t, "gina"), r.user(t, "hank"), r.user(t, "bob"), r.user(t, "cat")
	threeWay := func(creator league.Actor) league.NewGame {
		return league.NewGame{Game: "sequence", Players: 3, Teams: 3,
			Seats: []league.SeatSpec{{UserID: creator.UserID}, {Open: true}, {Open: true}}}
	}
	alone, err := r.games.Create(ctx, gina, threeWay(gina))
	if err != nil {
		t.Fatal(err)
	}
	withHank, err := r.games.Create(ctx, gina, threeWay(gina))
	if err != nil {
		t.Fatal(err)
	}
	hanks, err := r.games.Create(ctx, hank, threeWay(hank))
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range []struct {
		who  league.Actor
		game string
	}{{hank, withHank.ID}, {gina, hanks.ID}} {
		if _, err := r.games.Join(ctx, j.who, j.game, nil); err != nil {
			t.Fatal(err)
		}
	}
	accounts := r.closer()
	if err := accounts.Delete(ctx, gina, gina.UserID); err != nil {
		t.Fatal(err)
	}
	if _, err := r.games.Join(ctx, bob, alone.ID, nil); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("joining the game gina created alone after she left: %v; want it aborted", err)
	}
	for _, id := range []string{withHank.ID, hanks.ID} {
		r.games.Join(ctx, bob, id, nil)
		v, err := r.games.View(ctx, cat, id)
		if err == nil && v.Game.Status == league.StatusOpen {
			_, err = r.games.Join(ctx, cat, id, nil)
		}
		if err != nil {
			t.Fatal(err)
		}
		if v, err = r.games.View(ctx, cat, id); err != nil {
			t.Fatal(err)
		}
		if v.Game.Status != league.StatusActive {
			t.Fatalf("game %s is %s after bob and cat joined; want it started", id, v.Game.Status)
		}
		for _, s := range v.Game.Seats {
			if s.UserID == gina.UserID {
				t.Fatalf("game %s started with the closed account seated: %+v", id, v.Game.Seats)
			}
		}
	}
}

func TestClosingAnAccountWithdrawsItsEntriesBeforeTheStart(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	gina := r.user(t, "gina")
	if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')", r.clubID, gina.UserID).Error; err != nil {
		t.Fatal(err)
	}
	tour, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: r.clubID, Name: "Open",
		Config: league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.tournaments.Register(ctx, gina, tour.ID, league.NewEntry{}); err != nil {
		t.Fatal(err)
	}
	accounts := r.closer()
	for range 2 { // the second close finds the account closed and changes nothing
		err := accounts.Delete(ctx, gina, gina.UserID)
		if err != nil && league.ErrorCode(err) != league.ENOTFOUND {
			t.Fatal(err)
		}
	}
	entries, err := r.tournaments.Entries(ctx, tour.ID, league.PageRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries.Items) != 0 {
		t.Fatalf("entries after gina closed her account: %+v; want hers withdrawn", entries.Items)
	}
}

// An account closed before closing released its games still holds its
// seats; a site admin closing it again releases them. Without the games
// wired in, the bot is left for the sweep to schedule.
func TestAnAdminClosingAClosedAccountAgainReleasesItsGames(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	gina, hank := r.user(t, "gina"), r.user(t, "hank")
	g := r.headToHead(t, gina, hank)
	if err := r.db.Gorm.Exec("UPDATE users SET deleted_at = now() WHERE id = ?", gina.UserID).Error; err != nil {
		t.Fatal(err)
	}
	accounts := NewAccounts(r.db, league.NewPasswordHasher(cheapArgon2, 1), time.Hour)
	wantCode(t, accounts.Delete(ctx, gina, gina.UserID), league.ENOTFOUND)
	if err := accounts.Delete(ctx, league.Actor{UserID: hank.UserID, IsAdmin: true}, gina.UserID); err != nil {
		t.Fatal(err)
	}
	var seat struct {
		Abandoned bool
		BotDue    *time.Time
	}
	r.db.Gorm.Raw(`SELECT s.abandoned, g.bot_due_at AS bot_due FROM game_seats s JOIN games g ON g.id = s.game_id
		WHERE s.game_id = ? AND s.seat = 0`, g.ID).Scan(&seat)
	if !seat.Abandoned || seat.BotDue == nil {
		t.Fatalf("gina's seat after an admin closed her account again: %+v; want abandoned with the bot due", seat)
	}
}

// A creator whose account was closed after the token was checked is told
// the session is over (401), by Create and by QuickMatch alike, rather than
// that the seat they took is bad; nothing is written.
func TestAClosedAccountCreatesNoGame(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	gone := r.user(t, "gone")
	if err := r.db.Gorm.Exec("UPDATE users SET deleted_at = now() WHERE id = ?", gone.UserID).Error; err != nil {
		t.Fatal(err)
	}
	games := r.count(t, "games")
	_, err := r.games.Create(ctx, gone, league.NewGame{Game: "stacks", Players: 2,
		Seats: []league.SeatSpec{{UserID: gone.UserID}, {Open: true}}})
	if league.ErrorCode(err) != league.EUNAUTHORIZED {
		t.Errorf("create: %v, want unauthorized", err)
	}
	_, _, err = r.games.QuickMatch(ctx, gone, league.QuickMatchRequest{Game: "sequence", Players: 2})
	if league.ErrorCode(err) != league.EUNAUTHORIZED {
		t.Errorf("quick match: %v, want unauthorized", err)
	}
	if n := r.count(t, "games"); n != games {
		t.Errorf("%d games, want %d", n, games)
	}
}
