package postgres

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
)

// A player who sees the game lost resigns: the game ends at once, won by
// the other side, and counts as any result does (rated as a win and a
// loss, nobody abandoned, and the tournament's match won by the other
// entry). They could only leave, and then a fill-in bot played their seat
// out against an opponent kept at the table, and might win the match for
// them.
func TestResigningEndsTheGameAsAWinForTheOtherSide(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, people := r.peopleTournament(t, "Final", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "single-elimination", Rated: true}, "ada", "bo")
	ada, bo := people[0], people[1]
	r.startNow(t, tour.ID)
	gameID := r.waitTournamentGame(t, tour.ID, 30*time.Second)
	g, err := r.games.Resign(ctx, bo, gameID)
	if err != nil {
		t.Fatal(err)
	}
	adaTeam, boTeam := -1, -1
	for _, s := range g.Seats {
		switch s.UserID {
		case ada.UserID:
			adaTeam = s.Team
		case bo.UserID:
			boTeam = s.Team
		}
	}
	if g.Status != league.StatusFinished || g.EndedBy != league.EndedByResign || g.Winner == nil || *g.Winner != adaTeam {
		t.Fatalf("the game after bo resigned: status %s, ended_by %s, winner %v; want finished by resign, won by ada's team %d (bo's %d)",
			g.Status, g.EndedBy, g.Winner, adaTeam, boTeam)
	}
	wantCode(t, errOnly(r.games.Resign(ctx, bo, gameID)), league.EPRECONDITION)
	wantCode(t, errOnly(r.games.Resign(ctx, ada, gameID)), league.EPRECONDITION)

	r.waitFinished(t, tour.ID, 30*time.Second)
	if m, entryOf := r.firstMatch(t, tour.ID), r.entryOfCaptain(t, tour.ID); m.Winner != entryOf[ada.UserID] {
		t.Errorf("the final's winner: %s, want ada's entry %s", m.Winner, entryOf[ada.UserID])
	}
	changes := r.ratingChanges(t, gameID)
	if len(changes) != 2 {
		t.Fatalf("rating changes: %+v, want ada's and bo's", changes)
	}
	for _, c := range changes {
		if c.Abandoned || (c.UserID == ada.UserID) != (c.Delta > 0) {
			t.Errorf("rating change %+v: want ada up, bo down, nobody abandoned", c)
		}
	}
	if n := r.rowsOf(t, "game_archive", gameID); n != 1 {
		t.Errorf("%d archives of the resigned game, want 1", n)
	}
}

// Who may resign: a person who still plays their own seat of a game of
// two sides, with nobody else of their side still playing. The view says
// so (may_resign) exactly when Resign would take it.
func TestOnlyASideNobodyElsePlaysOnForMayResign(t *testing.T) {
	r := newGameRig(t, false)
	ctx := context.Background()
	ann, bob, cat, dan := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat"), r.user(t, "dan")
	mayResign := func(p league.Actor, gameID string) bool {
		t.Helper()
		v, err := r.games.View(ctx, p, gameID)
		if err != nil {
			t.Fatal(err)
		}
		return v.MayResign
	}

	// Two against two: ann's teammate cat plays on, until she leaves.
	pairs := r.seat(t, ann, league.NewGame{Game: "sequence", Players: 4, Teams: 2,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {}, {}, {Bot: "greedy"}}}, map[int]league.Actor{1: bob, 2: cat})
	_, err := r.games.Resign(ctx, ann, pairs.ID)
	wantCode(t, err, league.EPRECONDITION)
	if err == nil || !strings.Contains(err.Error(), "cat still plays for your team") {
		t.Errorf("ann resigning while cat plays on: %v, want it to name cat", err)
	}
	if mayResign(ann, pairs.ID) || !mayResign(bob, pairs.ID) {
		t.Errorf("may_resign: ann %v, bob %v; want false (cat plays on), true (his teammate is a bot)", mayResign(ann, pairs.ID), mayResign(bob, pairs.ID))
	}
	wantCode(t, errOnly(r.games.Resign(ctx, dan, pairs.ID)), league.EPRECONDITION) // not seated
	if mayResign(dan, pairs.ID) {
		t.Error("may_resign for a spectator")
	}
	if _, err := r.games.Leave(ctx, cat, pairs.ID); err != nil {
		t.Fatal(err)
	}
	wantCode(t, errOnly(r.games.Resign(ctx, cat, pairs.ID)), league.EPRECONDITION) // a fill-in bot has her seat
	if !mayResign(ann, pairs.ID) {
		t.Error("may_resign for ann once cat left: false")
	}
	g, err := r.games.Resign(ctx, ann, pairs.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g.Winner == nil || *g.Winner != 1 || g.EndedBy != league.EndedByResign {
		t.Errorf("the pairs game after ann resigned: winner %v, ended_by %s; want team 1, resign", g.Winner, g.EndedBy)
	}

	// A side every player of which left is a walk-over, rated as a win
	// whatever the board says: resigning to it read as a loss and rated as
	// a win (the audit of today's changes).
	walkOver := r.headToHead(t, ann, bob)
	if _, err := r.games.Leave(ctx, bob, walkOver.ID); err != nil {
		t.Fatal(err)
	}
	_, err = r.games.Resign(ctx, ann, walkOver.ID)
	wantCode(t, err, league.EPRECONDITION)
	if err == nil || !strings.Contains(err.Error(), "left the game") || mayResign(ann, walkOver.ID) {
		t.Errorf("resigning to a side that left: %v (may_resign %v), want a refusal saying they left", err, mayResign(ann, walkOver.ID))
	}

	// Three teams: the other two would play on, which has no rule.
	three := r.seat(t, ann, league.NewGame{Game: "sequence", Players: 3, Teams: 3,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {}, {Bot: "greedy"}}}, map[int]league.Actor{1: bob})
	_, err = r.games.Resign(ctx, ann, three.ID)
	wantCode(t, err, league.EPRECONDITION)
	if err == nil || !strings.Contains(err.Error(), "two sides") || mayResign(ann, three.ID) {
		t.Errorf("resigning a three-team game: %v (may_resign %v), want a refusal saying only two sides may", err, mayResign(ann, three.ID))
	}

	// Stacks of two: each player is a side.
	stacks := r.seat(t, ann, league.NewGame{Game: "stacks", Players: 2,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {}}}, map[int]league.Actor{1: dan})
	g, err = r.games.Resign(ctx, dan, stacks.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g.Winner == nil || *g.Winner != 0 {
		t.Errorf("dan resigning Stacks: winner %v; want ann (seat 0)", g.Winner)
	}
}

func errOnly(_ *league.Game, err error) error { return err }

// ratingChange is a game's rating change for one player, as stored.
type ratingChange struct {
	UserID    string
	Delta     float64
	Abandoned bool
}

func (r *gameRig) ratingChanges(t *testing.T, gameID string) []ratingChange {
	t.Helper()
	var changes []ratingChange
	if err := r.db.Gorm.Raw("SELECT user_id, after - before AS delta, abandoned FROM rating_changes WHERE game_id = ?", gameID).Scan(&changes).Error; err != nil {
		t.Fatal(err)
	}
	return changes
}
