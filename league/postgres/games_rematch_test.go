package postgres

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
)

func TestARematchMovesEveryoneOneSeatOnAndStartsWhenThePeopleAreBack(t *testing.T) {
	r := newGameRig(t, true)
	ctx := context.Background()
	ann, bob, cat := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat")
	g := r.seat(t, ann, league.NewGame{
		Game: "sequence", Players: 4, Teams: 2, Clock: league.Clock{TurnSeconds: 90},
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Bot: "random"}, {}, {Bot: "greedy"}},
	}, map[int]league.Actor{2: bob})
	if _, err := r.games.Rematch(ctx, ann, g.ID); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("a rematch of a game in play: %v, want a precondition error", err)
	}
	r.playAsHumans(t, g.ID, []league.Actor{ann, bob}, 60*time.Second)

	if _, err := r.games.Rematch(ctx, league.Actor{}, g.ID); league.ErrorCode(err) != league.EUNAUTHORIZED {
		t.Errorf("anonymous rematch: %v", err)
	}
	if _, err := r.games.Rematch(ctx, cat, g.ID); league.ErrorCode(err) != league.EFORBIDDEN {
		t.Errorf("a rematch asked by someone who did not play: %v", err)
	}
	if _, err := r.games.Rematch(ctx, ann, "00000000-0000-0000-0000-000000000000"); league.ErrorCode(err) != league.ENOTFOUND {
		t.Errorf("a rematch of no game: %v", err)
	}
	games := r.count(t, "games")

	re, err := r.games.Rematch(ctx, ann, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if re.ID == g.ID || re.Status != league.StatusOpen || re.CreatedBy != ann.UserID {
		t.Fatalf("rematch %s: status %s, created by %s", re.ID, re.Status, re.CreatedBy)
	}
	if re.Game != g.Game || re.Players != 4 || re.Teams != 2 || re.Clock != g.Clock || re.Rated != g.Rated || re.SequencesToWin != g.SequencesToWin {
		t.Errorf("rematch set-up %+v, want the game's %+v", re, g)
	}
	// Everyone one seat on: the seat that moved last moves first, and
	// teammates (seats i and i+2) stay together.
	want := []string{"bot greedy", "person " + ann.UserID, "bot random", "open"}
	if got := seatList(re.Seats); !slices.Equal(got, want) {
		t.Errorf("rematch seats %v, want %v", got, want)
	}
	v, err := r.games.View(ctx, bob, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Game.RematchID != re.ID {
		t.Errorf("the finished game names rematch %q, want %q", v.Game.RematchID, re.ID)
	}
	// Bob's seat is kept for him: nobody else may sit there for now.
	if s := re.Seats[3]; s.KeptFor != bob.UserID || s.KeptForName != "bob" || s.KeptUntil == nil {
		t.Errorf("bob's seat in the rematch: %+v, want it kept for bob", s)
	}
	if _, err := r.games.Join(ctx, cat, re.ID, nil); league.ErrorCode(err) != league.ECONFLICT {
		t.Errorf("cat takes the first open seat of the rematch: %v, want a conflict (it is kept for bob)", err)
	}
	three := 3
	var e *league.Error
	if _, err := r.games.Join(ctx, cat, re.ID, &three); !errors.As(err, &e) || e.Code != league.ECONFLICT || !hasField(e.Fields, "seat") {
		t.Errorf("cat takes bob's seat: %v, want a conflict at seat", err)
	}
	// Asking again makes no second game.
	if again, err := r.games.Rematch(ctx, ann, g.ID); err != nil || again.ID != re.ID {
		t.Fatalf("asked twice: %v, %v", again, err)
	}
	if n := r.count(t, "games"); n != games+1 {
		t.Errorf("%d games made by two asks, want 1", n-games)
	}
	// Bob asks: he takes his seat, one on, and the table is full.
	joined, err := r.games.Rematch(ctx, bob, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if joined.ID != re.ID || joined.Status != league.StatusActive {
		t.Fatalf("bob's rematch %s is %s; want %s started", joined.ID, joined.Status, re.ID)
	}
	if got := seatList(joined.Seats)[3]; got != "person "+bob.UserID {
		t.Errorf("bob sits %q in the rematch, want seat 3 (his seat 2, one on)", got)
	}
	if s := joined.Seats[3]; s.KeptFor != "" {
		t.Errorf("bob's taken seat is still marked kept: %+v", s)
	}
	// A rematch in play is not a finished game: its own rematch waits.
	if _, err := r.games.Rematch(ctx, ann, re.ID); league.ErrorCode(err) != league.EPRECONDITION {
		t.Errorf("a rematch of the rematch in play: %v", err)
	}
}

func TestAStacksRematchAmongBotsStartsAtOnceWithTheSameSetUp(t *testing.T) {
	r := newGameRig(t, true)
	ctx := context.Background()
	ann := r.user(t, "ann")
	g := r.stacksAgainstBots(t, ann, 60)
	re, err := r.games.Rematch(ctx, ann, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if re.Status != league.StatusActive {
		t.Errorf("a rematch with every seat taken is %s, want active", re.Status)
	}
	if re.PlayCap != 60 || re.BlockWindowSeconds != 1 {
		t.Errorf("rematch play cap %d, block window %d s; want the game's 60 and 1", re.PlayCap, re.BlockWindowSeconds)
	}
	want := []string{"bot greedy", "person " + ann.UserID, "bot random"}
	if got := seatList(re.Seats); !slices.Equal(got, want) {
		t.Errorf("rematch seats %v, want %v", got, want)
	}
}

func TestATournamentGameHasNoRematch(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Final", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "single-elimination"}, 2)
	running := league.TournamentRunning
	if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &running}); err != nil {
		t.Fatal(err)
	}
	r.waitFinished(t, tour.ID, time.Minute)
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	game := rounds[0].Matches[0].Games[0]
	// Its view leads back to the tournament.
	if v, err := r.games.View(ctx, league.Actor{}, game); err != nil || v.Game.TournamentID != tour.ID {
		t.Fatalf("the final's view names tournament %q, %v; want %s", v.Game.TournamentID, err, tour.ID)
	}
	if _, err := r.games.Rematch(ctx, r.organizer, game); league.ErrorCode(err) != league.EPRECONDITION {
		t.Errorf("a rematch of a tournament game: %v, want a precondition error", err)
	}
}

func TestASeatKeptForAPlayerOpensToAnyoneOnceItsTimeIsUp(t *testing.T) {
	r := newGameRig(t, true)
	ctx := context.Background()
	ann, bob, cat := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat")
	g := r.headToHead(t, ann, bob)
	r.drawByHand(t, g.ID)
	re, err := r.games.Rematch(ctx, ann, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.games.Join(ctx, cat, re.ID, nil); league.ErrorCode(err) != league.ECONFLICT {
		t.Fatalf("cat joins while bob's seat is kept: %v", err)
	}
	// Ann leaves the rematch before anyone joins: it is aborted, and her
	// next ask makes a new one instead of sending her back to it.
	if _, err := r.games.Leave(ctx, ann, re.ID); err != nil {
		t.Fatal(err)
	}
	// The finished game no longer names it: its page offered "Play the
	// rematch" and sent spectators to the aborted table.
	if v, err := r.games.View(ctx, league.Actor{}, g.ID); err != nil || v.Game.RematchID != "" {
		t.Fatalf("the finished game after its rematch was aborted: rematch %q, %v; want none", v.Game.RematchID, err)
	}
	again, err := r.games.Rematch(ctx, ann, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if again.ID == re.ID || again.Status != league.StatusOpen {
		t.Fatalf("asked after the rematch was aborted: %s (%s), want a new open game", again.ID, again.Status)
	}
	re = again
	later := time.Now().Add(seatKeptFor + time.Second)
	r.games.now = func() time.Time { return later }
	joined, err := r.games.Join(ctx, cat, re.ID, nil)
	if err != nil {
		t.Fatalf("cat joins once bob's seat is no longer kept: %v", err)
	}
	if joined.Status != league.StatusActive || joined.Seats[0].UserID != cat.UserID {
		t.Errorf("after cat joined: %s, seat 0 %+v", joined.Status, joined.Seats[0])
	}
}

func seatList(seats []league.Seat) []string {
	out := make([]string, len(seats))
	for i, s := range seats {
		switch {
		case s.Open:
			out[i] = "open"
		case s.Bot != "" && !s.FilledByBot:
			out[i] = "bot " + s.Bot
		default:
			out[i] = "person " + s.UserID
		}
	}
	return out
}

func (r *gameRig) count(t *testing.T, table string) int64 {
	t.Helper()
	var n int64
	if err := r.db.Gorm.Table(table).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// drawByHand ends a game as a draw in its row alone: for what reads only a
// game's status (a rematch, the lobby), without playing a hundred moves.
func (r *gameRig) drawByHand(t *testing.T, gameID string) {
	t.Helper()
	if err := r.db.Gorm.Exec(`UPDATE games SET status = 'finished', result_status = 'drawn', finished_at = now(),
		turn_deadline = NULL, revision = revision + 1 WHERE id = ?`, gameID).Error; err != nil {
		t.Fatal(err)
	}
}

// A rematch keeps no seat for a player whose account has closed since the
// game: the seat was held for them for seatKeptFor, and nobody else could
// sit there while the table waited for someone who cannot come.
func TestARematchKeepsNoSeatForAClosedAccount(t *testing.T) {
	r := newGameRig(t, true)
	ctx := context.Background()
	ann, bob, cat := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat")
	g := r.headToHead(t, ann, bob)
	r.drawByHand(t, g.ID)
	if err := r.closer().Delete(ctx, bob, bob.UserID); err != nil {
		t.Fatal(err)
	}
	re, err := r.games.Rematch(ctx, ann, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"open", "person " + ann.UserID}; !slices.Equal(seatList(re.Seats), want) {
		t.Fatalf("rematch seats %v, want %v", seatList(re.Seats), want)
	}
	if s := re.Seats[0]; s.KeptFor != "" || s.KeptUntil != nil {
		t.Errorf("the closed account's seat in the rematch: %+v, want it open to anyone", s)
	}
	joined, err := r.games.Join(ctx, cat, re.ID, nil)
	if err != nil {
		t.Fatalf("cat joins the rematch of a closed account's game: %v", err)
	}
	if joined.Status != league.StatusActive || joined.Seats[0].UserID != cat.UserID {
		t.Errorf("after cat joined: %s, seat 0 %+v", joined.Status, joined.Seats[0])
	}
}
