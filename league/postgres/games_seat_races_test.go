package postgres

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
)

// race runs the racers at once, released together, and returns what each
// got back, by its name.
func race(racers map[string]func() error) map[string]error {
	start := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	out := map[string]error{}
	for name, f := range racers {
		wg.Go(func() {
			<-start
			err := f()
			mu.Lock()
			out[name] = err
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return out
}

// wantRefusals fails the test for any error that is not a refusal of one
// of the codes allowed: a racer that lost is told why (a 4xx), never an
// internal error.
func wantRefusals(t *testing.T, round int, got map[string]error, allowed ...string) {
	t.Helper()
	for who, err := range got {
		if err == nil {
			continue
		}
		ok := false
		for _, code := range allowed {
			ok = ok || league.ErrorCode(err) == code
		}
		if !ok {
			t.Errorf("round %d: %s: %v (code %q); want success or one of %v", round, who, err, league.ErrorCode(err), allowed)
		}
	}
}

// Ten people racing for the last two seats of a table while its creator
// at once gives one of them to a bot, leaves, and starts the game: every
// join answered yes is a seat held, every one answered no holds none,
// nobody sits twice, and the game is started exactly when no seat is left
// open.
func TestTheLastSeatsRacedByJoinersAndTheCreatorEndConsistent(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	var joiners []league.Actor
	for i := range 10 {
		joiners = append(joiners, r.user(t, fmt.Sprintf("joiner%d", i)))
	}
	for round := range 6 {
		g := r.seat(t, ann, league.NewGame{Game: "sequence", Players: 4, Teams: 2,
			Seats: []league.SeatSpec{{UserID: ann.UserID}, {}, {Open: true}, {Open: true}}}, map[int]league.Actor{1: bob})
		racers := map[string]func() error{
			"ann sets seat 3 to a bot": func() error {
				_, err := r.games.SetSeat(ctx, ann, g.ID, 3, league.SeatSpec{Bot: "random"})
				return err
			},
			"ann leaves": func() error { _, err := r.games.Leave(ctx, ann, g.ID); return err },
			"ann starts": func() error { _, err := r.games.Start(ctx, ann, g.ID); return err },
		}
		if round%2 == 1 {
			delete(racers, "ann leaves") // a creator who stays, so that the table fills
		}
		for i, j := range joiners {
			racers[fmt.Sprintf("joiner%d", i)] = func() error {
				var seat *int
				if i%3 == 0 {
					s := 3
					seat = &s
				}
				_, err := r.games.Join(ctx, j, g.ID, seat)
				return err
			}
		}
		got := race(racers)
		// A creator who left hands the table over: her seat change or
		// start after it is a stranger's, refused.
		_, leaving := racers["ann leaves"]
		refusals := maps.Clone(got)
		for _, who := range []string{"ann sets seat 3 to a bot", "ann starts"} {
			if leaving && got["ann leaves"] == nil && league.ErrorCode(got[who]) == league.EFORBIDDEN {
				delete(refusals, who)
			}
		}
		wantRefusals(t, round, refusals, league.ECONFLICT, league.EPRECONDITION)
		v, err := r.games.View(ctx, bob, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		held := map[string]int{}
		open := 0
		for _, s := range v.Game.Seats {
			switch {
			case s.UserID != "" && s.Bot == "":
				held[s.UserID]++
			case s.Bot == "":
				open++
			}
		}
		for id, n := range held {
			if n > 1 {
				t.Fatalf("round %d: %s holds %d seats: %+v", round, id, n, v.Game.Seats)
			}
		}
		for i, j := range joiners {
			if joined := got[fmt.Sprintf("joiner%d", i)] == nil; joined != (held[j.UserID] == 1) {
				t.Fatalf("round %d: joiner%d's join answered %v, and holds %d seats: %+v", round, i, got[fmt.Sprintf("joiner%d", i)], held[j.UserID], v.Game.Seats)
			}
		}
		if left := got["ann leaves"] == nil && racers["ann leaves"] != nil; left == (held[ann.UserID] == 1) {
			t.Fatalf("round %d: ann's leave answered %v, and she holds %d seats", round, got["ann leaves"], held[ann.UserID])
		}
		if (v.Game.Status == league.StatusActive) != (open == 0) || v.Game.Status != league.StatusActive && v.Game.Status != league.StatusOpen {
			t.Fatalf("round %d: game %s with %d seats open: %+v", round, v.Game.Status, open, v.Game.Seats)
		}
	}
}

// The same move (same move_id) sent many times at once, a client retrying
// on a slow network, is played once, and every one of the sends is
// answered with the game right after it: none is told it conflicted with
// itself.
func TestTheSameMoveIDSentManyTimesAtOnceIsPlayedOnceAndAnsweredAlike(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	for round := range 4 {
		ann, bob := r.user(t, fmt.Sprintf("ann%d", round)), r.user(t, fmt.Sprintf("bob%d", round))
		g := r.headToHead(t, ann, bob)
		v, err := r.games.View(ctx, ann, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		req := league.MoveRequest{Ply: 0, Move: v.LegalMoves[0], MoveID: "m-1"}
		var wg sync.WaitGroup
		views := make([]*league.GameView, 12)
		errs := make([]error, len(views))
		start := make(chan struct{})
		for i := range views {
			wg.Go(func() {
				<-start
				views[i], errs[i] = r.games.Move(ctx, ann, g.ID, req)
			})
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d: send %d of one move: %v; want the answer to the move", round, i, err)
			}
			if views[i].Game.Ply != 1 || len(views[i].LegalMoves) != 0 {
				t.Fatalf("round %d: send %d answered at ply %d with %d legal moves; want ply 1, bob to move", round, i, views[i].Game.Ply, len(views[i].LegalMoves))
			}
		}
		if n := r.rowsOf(t, "game_moves", g.ID); n != 1 {
			t.Fatalf("round %d: %d moves stored for one move sent 12 times", round, n)
		}
		// alike to the microsecond PostgreSQL keeps: the answer made from
		// the clock said started_at to the nanosecond, the repeats read
		// back from the row did not (the live-games audit)
		stored, err := r.games.View(ctx, ann, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range views {
			if v.Game.StartedAt == nil || !v.Game.StartedAt.Equal(*stored.Game.StartedAt) {
				t.Fatalf("round %d: send %d answered started_at %v; the stored game says %v", round, i, v.Game.StartedAt, stored.Game.StartedAt)
			}
		}
	}
}

// An account closed while its owner's requests are on their way (past the
// sign-in check) is left nowhere: a join of a table, a quick match, a
// game of its own, a club's invite and a tournament entry each either
// come first, and the close releases what they took, or find the account
// closed and are refused as signed out (401). Before, the close looked for
// seats and entries without waiting for them, and a join committed just
// after it held its seat for good.
func TestRequestsRacingTheCloseOfTheAccountLeaveItNowhere(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	accounts := r.closer()
	clubs := NewClubs(r.db)
	bob := r.user(t, "bob")
	tour, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: r.clubID, Name: "Open",
		Config: league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin"}})
	if err != nil {
		t.Fatal(err)
	}
	for round := range 10 {
		eve := r.user(t, fmt.Sprintf("eve%d", round))
		r.joinClub(t, eve)
		other, err := clubs.Create(ctx, bob, league.NewClub{Name: fmt.Sprintf("Other club %d", round)})
		if err != nil {
			t.Fatal(err)
		}
		inv, err := clubs.CreateInvite(ctx, bob, other.ID, league.NewInvite{})
		if err != nil {
			t.Fatal(err)
		}
		g, err := r.games.Create(ctx, bob, league.NewGame{Game: "sequence", Players: 3, Teams: 3,
			Seats: []league.SeatSpec{{UserID: bob.UserID}, {Open: true}, {Open: true}}})
		if err != nil {
			t.Fatal(err)
		}
		got := race(map[string]func() error{
			"join": func() error { _, err := r.games.Join(ctx, eve, g.ID, nil); return err },
			"quick match": func() error {
				_, _, err := r.games.QuickMatch(ctx, eve, league.QuickMatchRequest{Game: "stacks", Players: 3})
				return err
			},
			"create": func() error {
				_, err := r.games.Create(ctx, eve, league.NewGame{Game: "sequence", Players: 2, Teams: 2,
					Seats: []league.SeatSpec{{UserID: eve.UserID}, {Open: true}}})
				return err
			},
			"club join": func() error { _, err := clubs.Join(ctx, eve, other.ID, inv.Code); return err },
			"entry":     func() error { _, err := r.tournaments.Register(ctx, eve, tour.ID, league.NewEntry{}); return err },
			"close":     func() error { return accounts.Delete(ctx, eve, eve.UserID) },
		})
		if got["close"] != nil {
			t.Fatalf("round %d: close: %v", round, got["close"])
		}
		wantRefusals(t, round, got, league.EUNAUTHORIZED)
		if n := r.seatsHeldInPerson(t, eve.UserID); n != 0 {
			t.Fatalf("round %d: the closed account holds %d seats (%v)", round, n, got)
		}
		var entries, memberships int64
		if err := r.db.Gorm.Raw(`SELECT count(*) FROM entry_members WHERE user_id = ?`, eve.UserID).Scan(&entries).Error; err != nil {
			t.Fatal(err)
		}
		if err := r.db.Gorm.Raw(`SELECT count(*) FROM club_members WHERE user_id = ?`, eve.UserID).Scan(&memberships).Error; err != nil {
			t.Fatal(err)
		}
		if entries != 0 || memberships != 0 {
			t.Fatalf("round %d: the closed account is entered %d times and a member of %d clubs (%v)", round, entries, memberships, got)
		}
	}
}

// The three players of a finished game all asking for a rematch, each
// several times at once (a double click, two tabs): one rematch is made,
// the finished game names it, everyone is seated there once, and it
// starts; every ask is answered with it.
func TestRematchesAskedAtOnceByEveryPlayerMakeOneGame(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	for round := range 4 {
		people := []league.Actor{r.user(t, fmt.Sprintf("ann%d", round)), r.user(t, fmt.Sprintf("bob%d", round)), r.user(t, fmt.Sprintf("cat%d", round))}
		g := r.seat(t, people[0], league.NewGame{Game: "sequence", Players: 3, Teams: 3,
			Seats: []league.SeatSpec{{UserID: people[0].UserID}, {}, {}}}, map[int]league.Actor{1: people[1], 2: people[2]})
		r.drawByHand(t, g.ID)
		racers := map[string]func() error{}
		answers := make([]string, 9)
		for i := range answers {
			racers[fmt.Sprintf("ask %d", i)] = func() error {
				re, err := r.games.Rematch(ctx, people[i%3], g.ID)
				if err == nil {
					answers[i] = re.ID
				}
				return err
			}
		}
		got := race(racers)
		wantRefusals(t, round, got)
		var rematches []string
		if err := r.db.Gorm.Raw("SELECT id FROM games WHERE id <> ? AND created_by IN ?", g.ID,
			[]string{people[0].UserID, people[1].UserID, people[2].UserID}).Scan(&rematches).Error; err != nil {
			t.Fatal(err)
		}
		if len(rematches) != 1 {
			t.Fatalf("round %d: %d rematches made by 9 asks at once: %v", round, len(rematches), rematches)
		}
		for i, id := range answers {
			if id != rematches[0] {
				t.Fatalf("round %d: ask %d answered game %q; want the rematch %s", round, i, id, rematches[0])
			}
		}
		v, err := r.games.View(ctx, people[0], rematches[0])
		if err != nil {
			t.Fatal(err)
		}
		seated := map[string]int{}
		for _, s := range v.Game.Seats {
			seated[s.UserID]++
		}
		for i, p := range people {
			if seated[p.UserID] != 1 {
				t.Fatalf("round %d: player %d sits %d times at the rematch: %+v", round, i, seated[p.UserID], v.Game.Seats)
			}
		}
		if v.Game.Status != league.StatusActive {
			t.Fatalf("round %d: the rematch with everyone back is %s; want it started", round, v.Game.Status)
		}
		if before, err := r.games.View(ctx, people[0], g.ID); err != nil || before.Game.RematchID != rematches[0] {
			t.Fatalf("round %d: the finished game names rematch %q (%v); want %s", round, before.Game.RematchID, err, rematches[0])
		}
	}
}

// A seat kept for a player while that player closes their account is not
// kept for them afterwards: the keeping either comes first, and the close
// opens the seat to anyone, or finds the account closed (a 412 naming
// the seat's for). A seat kept for a closed account held the table until
// its creator noticed.
func TestASeatKeptForAPlayerClosingTheirAccountIsNotKeptAfter(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	accounts := r.closer()
	bob := r.user(t, "bob")
	for round := range 10 {
		name := fmt.Sprintf("eve%d", round)
		eve := r.user(t, name)
		g, err := r.games.Create(ctx, bob, league.NewGame{Game: "sequence", Players: 2, Teams: 2,
			Seats: []league.SeatSpec{{UserID: bob.UserID}, {Open: true}}})
		if err != nil {
			t.Fatal(err)
		}
		got := race(map[string]func() error{
			"keep": func() error {
				_, err := r.games.SetSeat(ctx, bob, g.ID, 1, league.SeatSpec{Open: true, For: name})
				return err
			},
			"close": func() error { return accounts.Delete(ctx, eve, eve.UserID) },
		})
		if got["close"] != nil {
			t.Fatalf("round %d: close: %v", round, got["close"])
		}
		wantRefusals(t, round, got, league.EPRECONDITION)
		var kept int64
		if err := r.db.Gorm.Raw("SELECT count(*) FROM game_seats WHERE kept_for = ?", eve.UserID).Scan(&kept).Error; err != nil {
			t.Fatal(err)
		}
		if kept != 0 {
			t.Fatalf("round %d: %d seats kept for the closed account (keep: %v)", round, kept, got["keep"])
		}
	}
}

// seatsHeldInPerson counts the seats userID holds in person (no bot in its
// place) at games not over.
func (r *gameRig) seatsHeldInPerson(t *testing.T, userID string) int64 {
	t.Helper()
	var n int64
	if err := r.db.Gorm.Raw(`SELECT count(*) FROM game_seats s JOIN games g ON g.id = s.game_id
		WHERE s.user_id = ? AND s.bot_level IS NULL AND g.status IN ?`, userID, []string{league.StatusOpen, league.StatusActive}).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// A heartbeat racing the start of its table leaves no presence mark on the
// started game: the start clears the marks (forgetWaiting), and a heartbeat
// that read the table open just before wrote its mark after the clearing,
// which stayed until the sweep (ForgetLapsed) came by. Ann's stream beats
// without pause while bob takes the last seat, which starts the game.
func TestAHeartbeatRacingTheStartLeavesNoMark(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	r.games.now = time.Now // a mark of a millisecond is due again at nearly every beat
	marked := 0
	for round := range 30 {
		g, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2,
			Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}}})
		if err != nil {
			t.Fatal(err)
		}
		// The mark of sitting down has lapsed: every beat writes one.
		if err := r.db.Gorm.Exec("UPDATE game_seats SET here_until = now() - interval '1 hour' WHERE game_id = ? AND here_until IS NOT NULL", g.ID).Error; err != nil {
			t.Fatal(err)
		}
		got := race(map[string]func() error{
			"ann's stream beats": func() error {
				for {
					here, err := r.games.Here(ctx, ann, g.ID, time.Millisecond)
					if err != nil || !here {
						return err
					}
				}
			},
			"bob takes the last seat": func() error { _, err := r.games.Join(ctx, bob, g.ID, nil); return err },
		})
		wantRefusals(t, round, got)
		var status string
		var marks int64
		if err := r.db.Gorm.Raw("SELECT status FROM games WHERE id = ?", g.ID).Scan(&status).Error; err != nil {
			t.Fatal(err)
		}
		if err := r.db.Gorm.Raw("SELECT count(*) FROM game_seats WHERE game_id = ? AND here_until IS NOT NULL", g.ID).Scan(&marks).Error; err != nil {
			t.Fatal(err)
		}
		if status != league.StatusActive {
			t.Fatalf("round %d: the game is %s after bob took the last seat, want active", round, status)
		}
		if marks > 0 {
			marked++
		}
	}
	if marked > 0 {
		t.Errorf("%d of 30 started games kept a presence mark written by a heartbeat racing the start", marked)
	}
}

// A quick match asked again racing the start of the caller's table is no
// mark either: asking again is being here while the table waits, and it
// wrote its mark as the heartbeat did, after the start had cleared the
// marks.
func TestAQuickMatchAskedAgainRacingTheStartLeavesNoMark(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	two := league.QuickMatchRequest{Game: "sequence", Players: 2}
	marked := 0
	for round := range 30 {
		g, created, err := r.games.QuickMatch(ctx, ann, two)
		if err != nil || !created {
			t.Fatalf("round %d: ann's table: created %v, %v", round, created, err)
		}
		var last *league.Game
		got := race(map[string]func() error{
			"ann asks again": func() error {
				for {
					again, _, err := r.games.QuickMatch(ctx, ann, two)
					if err != nil || again.ID != g.ID || again.Status != league.StatusOpen {
						last = again
						return err
					}
				}
			},
			"bob takes the last seat": func() error { _, err := r.games.Join(ctx, bob, g.ID, nil); return err },
		})
		wantRefusals(t, round, got)
		var marks int64
		if err := r.db.Gorm.Raw("SELECT count(*) FROM game_seats WHERE game_id = ? AND here_until IS NOT NULL", g.ID).Scan(&marks).Error; err != nil {
			t.Fatal(err)
		}
		if marks > 0 {
			marked++
		}
		if last != nil && last.ID != g.ID {
			// Asked once the table had started: a new table, left.
			if _, err := r.games.Leave(ctx, ann, last.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	if marked > 0 {
		t.Errorf("%d of 30 started games kept a presence mark written by a quick match racing the start", marked)
	}
}
