package postgres

import (
	"context"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
)

// TestANoShowForfeitsAndLeavesTheSwiss: in a Swiss whose no-show policy
// is forfeit, the player who never moved in round 1 (the round's deadline
// handed the seat to a bot) loses the match whatever the bot made of the
// board, and is withdrawn from the next pairing, as FIDE's Swiss rules
// treat a player absent without notice. Before, the absent entry was
// paired again in round 2, handing its opponent another game against a
// bot, or a free win. An organizer may reinstate such an entry.
func TestANoShowForfeitsAndLeavesTheSwiss(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, people := r.peopleTournament(t, "No-shows", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "swiss",
		Rounds: 2, Clock: league.Clock{TurnSeconds: 600}, NoShow: "forfeit", AtDeadline: "bots"}, "nia", "noel", "nora", "ned")
	r.scheduleShortRoundOne(t, tour.ID, 6*time.Second, true)
	entryOf := r.entryOfCaptain(t, tour.ID)

	// In each game the first to move does, once; the other then has a turn
	// and never moves.
	var games []gameRow
	for end := time.Now().Add(15 * time.Second); len(games) < 2; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("round 1's two games never started: %+v", games)
		}
		if err := r.db.Gorm.Where("tournament_id = ? AND status = ?", tour.ID, league.StatusActive).Find(&games).Error; err != nil {
			t.Fatal(err)
		}
	}
	var present []string
	for _, g := range games {
		present = append(present, entryOf[r.moveOnce(t, g.ID, people...).UserID])
	}
	rounds := r.waitRound(t, tour.ID, 1, 30*time.Second)
	for _, m := range rounds[0].Matches {
		if m.Bye || !slices.Contains(present, m.Winner) {
			t.Errorf("round 1 match %+v: want it won by the entry that moved (%v)", m, present)
		}
	}

	page, err := r.tournaments.Entries(ctx, tour.ID, league.PageRequest{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range page.Items {
		if want := map[bool]string{true: "active", false: "withdrawn"}[slices.Contains(present, e.ID)]; e.Status != want {
			t.Errorf("entry %s: %s, want %s", e.Name, e.Status, want)
		}
	}
	st, err := r.tournaments.Standings(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range st {
		if row.Withdrawn == slices.Contains(present, row.EntryID) {
			t.Errorf("standings: %s withdrawn %v", row.Name, row.Withdrawn)
		}
	}

	// One of them was there after all: an organizer reinstates it, and
	// round 2 pairs the three entries (one of them with the bye).
	var back string
	for _, e := range page.Items {
		if !slices.Contains(present, e.ID) {
			back = e.ID
			break
		}
	}
	if _, err := r.tournaments.Reinstate(ctx, people[0], tour.ID, back); league.ErrorCode(err) != league.EFORBIDDEN {
		t.Fatalf("a player reinstating an entry: %v; want forbidden", err)
	}
	if _, err := r.tournaments.Reinstate(ctx, r.organizer, tour.ID, present[0]); league.ErrorCode(err) != league.ECONFLICT {
		t.Fatalf("reinstating an entry that has not withdrawn: %v; want a conflict", err)
	}
	if e, err := r.tournaments.Reinstate(ctx, r.organizer, tour.ID, back); err != nil || e.Status != "active" {
		t.Fatalf("reinstate: %+v, %v; want the entry active", e, err)
	}
	r.startRoundNow(t, tour.ID, 2)
	for end := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		rounds, err := r.tournaments.Rounds(ctx, tour.ID)
		if err != nil {
			t.Fatal(err)
		}
		if ms := rounds[1].Matches; len(ms) > 0 {
			var paired []string
			for _, m := range ms {
				paired = append(paired, m.Entries...)
			}
			if want := append(slices.Clone(present), back); len(ms) != 2 || !slices.Equal(slices.Sorted(slices.Values(paired)), slices.Sorted(slices.Values(want))) {
				t.Fatalf("round 2 pairs %+v; want the two entries that moved and the one reinstated, %v, and nobody else", ms, want)
			}
			break
		}
		if time.Now().After(end) {
			t.Fatalf("round 2 never paired: %+v", rounds[1])
		}
	}
}

// A Swiss of two whose one player never shows up is over after round 1:
// the no-show is withdrawn, and the one entry left has nobody to play. The
// pairing of round 2 refused the round before, which stayed scheduled with
// an error and the tournament never finished.
func TestASwissLeftWithOneEntryFinishes(t *testing.T) {
	r := newTournamentRig(t)
	tour, people := r.peopleTournament(t, "Two", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "swiss",
		Rounds: 3, Clock: league.Clock{TurnSeconds: 600}, NoShow: "forfeit", AtDeadline: "bots"}, "pia", "pol")
	r.scheduleShortRoundOne(t, tour.ID, 5*time.Second, false)
	r.moveOnce(t, r.waitTournamentGame(t, tour.ID, 15*time.Second), people...)
	r.waitFinished(t, tour.ID, 30*time.Second)
}

// TestAForfeitCountsAsUnplayedInTheSwissTieBreaks: the match of a Swiss of
// two that one player forfeited, absent, is marked so in the rounds, and
// the standings count it as FIDE counts an unplayed round (C.07 art. 16):
// the winner's Buchholz has a stand-in with its own points (2, capped at a
// draw a round: 1) instead of the absent entry's 0 points, which counted
// it as an opponent met over the board.
func TestAForfeitCountsAsUnplayedInTheSwissTieBreaks(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, people := r.peopleTournament(t, "Forfeited", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "swiss",
		Rounds: 3, Clock: league.Clock{TurnSeconds: 600}, NoShow: "forfeit", AtDeadline: "bots"}, "fred", "flo")
	r.scheduleShortRoundOne(t, tour.ID, 5*time.Second, false)
	mover := r.moveOnce(t, r.waitTournamentGame(t, tour.ID, 15*time.Second), people...)
	r.waitFinished(t, tour.ID, 30*time.Second)

	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	m := rounds[0].Matches[0]
	if len(m.Forfeited) != 1 || m.Forfeited[0] == m.Winner || m.Winner == "" {
		t.Fatalf("round 1's match: winner %q, forfeited %v; want one entry forfeited, the other the winner", m.Winner, m.Forfeited)
	}
	st, err := r.tournaments.Standings(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	buchholz := map[string]float64{}
	for _, row := range st {
		if row.TieBreaks[0].Name != "buchholz" {
			t.Fatalf("standings row %+v: want Buchholz first", row)
		}
		buchholz[row.EntryID] = row.TieBreaks[0].Value
	}
	if want := map[string]float64{m.Winner: 1, m.Forfeited[0]: 0}; !maps.Equal(buchholz, want) {
		t.Errorf("Buchholz %v; want the winner's stand-in 1 (%s moved), the absent entry's own stand-in 0", buchholz, mover.UserID)
	}
}

// A player whose turn never came is not a no-show: a round adjudicated at
// its deadline before the second player had a turn (a 10-minute turn
// clock, a 5-second round) withdraws neither entry. Counted absent with
// the player who did not move first, both were withdrawn.
func TestAPlayerWhoseTurnNeverCameStaysInTheSwiss(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, _ := r.peopleTournament(t, "Waiting", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "swiss",
		Rounds: 3, Clock: league.Clock{TurnSeconds: 600}, NoShow: "forfeit", AtDeadline: "adjudicate"}, "wes", "wyn")
	r.scheduleShortRoundOne(t, tour.ID, 4*time.Second, true)
	r.waitRound(t, tour.ID, 1, 30*time.Second)
	page, err := r.tournaments.Entries(ctx, tour.ID, league.PageRequest{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range page.Items {
		if e.Status != "active" {
			t.Errorf("entry %s: %s after a round adjudicated before anyone's turn was played; want active", e.Name, e.Status)
		}
	}
}

// scheduleShortRoundOne schedules round 1 of a tournament to start within
// a second and end lasting later, and with roundTwo round 2 an hour on
// (paired only when a test starts it; without, it is paired as round 1
// ends).
func (r *tournamentRig) scheduleShortRoundOne(t *testing.T, id string, lasting time.Duration, roundTwo bool) {
	t.Helper()
	start := time.Now().UTC().Add(time.Second).Truncate(time.Second)
	deadline := start.Add(lasting)
	rounds := []league.RoundSchedule{{Number: 1, StartsAt: start, Deadline: &deadline}}
	if roundTwo {
		rounds = append(rounds, league.RoundSchedule{Number: 2, StartsAt: start.Add(time.Hour)})
	}
	if _, err := r.tournaments.Schedule(context.Background(), r.organizer, id, rounds); err != nil {
		t.Fatal(err)
	}
}

// TestANoShowForfeitsTheRestOfItsSeries: in a best-of-3 final whose round
// runs an hour, the player who never moved in game 1 (they left at once, a
// fill-in bot playing their turns) forfeits the match there: it is decided
// for the one who moved, with game 1 alone played and recorded, and the
// tournament is over. Before, game 2 was created, and the player present
// sat through the no-show wait of every game left.
func TestANoShowForfeitsTheRestOfItsSeries(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, people := r.peopleTournament(t, "Best of three", league.TournamentConfig{Game: "sequence", MatchSize: 2,
		Format: "single-elimination", BestOf: 3, Clock: league.Clock{TurnSeconds: 600}, NoShow: "forfeit", AtDeadline: "bots"},
		"fay", "fin")
	r.scheduleShortRoundOne(t, tour.ID, time.Hour, false)
	game := r.waitTournamentGame(t, tour.ID, 15*time.Second)
	mover := r.moveOnce(t, game, people...)
	absent := people[0]
	if absent == mover {
		absent = people[1]
	}
	// The absent player leaves first, so that a bot plays their turn; the
	// one who moved then leaves too, and the bots finish the game.
	for _, p := range []league.Actor{absent, mover} {
		if _, err := r.games.Leave(ctx, p, game); err != nil {
			t.Fatalf("leave: %v", err)
		}
	}
	r.waitFinished(t, tour.ID, 30*time.Second)

	entryOf := r.entryOfCaptain(t, tour.ID)
	m := r.firstMatch(t, tour.ID)
	if want := entryOf[mover.UserID]; m.Winner != want || !slices.Equal(m.GameWinners, []string{want}) || len(m.Games) != 1 {
		t.Errorf("the final: winner %q, game winners %v, games %v; want it won by %s on game 1 alone", m.Winner, m.GameWinners, m.Games, want)
	}
	if want := []string{entryOf[absent.UserID]}; !slices.Equal(m.Forfeited, want) {
		t.Errorf("the final's forfeits: %v; want the absent entry, %v", m.Forfeited, want)
	}
}

// TestTheTwoPresentPlayOnAfterAThirdForfeits: in a best-of-3 match of
// three, the player who never moved in game 1 forfeits the rest of the
// series, and the two who moved play the games left between them, as a
// two-team game that does not seat the absent one again. Before, every
// game seated all three, and the two present sat through the third's
// no-show wait in each.
func TestTheTwoPresentPlayOnAfterAThirdForfeits(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, people := r.peopleTournament(t, "Three", league.TournamentConfig{Game: "sequence", MatchSize: 3,
		Format: "single-elimination", BestOf: 3, Clock: league.Clock{TurnSeconds: 600}, NoShow: "forfeit", AtDeadline: "bots"},
		"tia", "tom", "ted")
	r.scheduleShortRoundOne(t, tour.ID, time.Hour, false)
	game := r.waitTournamentGame(t, tour.ID, 15*time.Second)
	first := r.moveOnce(t, game, people...)
	var rest []league.Actor
	for _, p := range people {
		if p != first {
			rest = append(rest, p)
		}
	}
	second := r.moveOnce(t, game, rest...)
	present := []league.Actor{first, second}
	var absent league.Actor
	for _, p := range rest {
		if p != second {
			absent = p
		}
	}
	leaveAll := func(game string, ps ...league.Actor) {
		t.Helper()
		for _, p := range ps {
			if _, err := r.games.Leave(ctx, p, game); err != nil {
				t.Fatalf("leave: %v", err)
			}
		}
	}
	leaveAll(game, absent, first, second)

	// Every later game: only the two present sit; each moves once and
	// leaves, and the bots finish it.
	played := map[string]bool{game: true}
	for end := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the match never finished; games %v", played)
		}
		tour, err := r.tournaments.Get(ctx, tour.ID)
		if err != nil {
			t.Fatal(err)
		}
		if tour.Status == league.TournamentFinished {
			break
		}
		var next []gameRow
		if err := r.db.Gorm.Where("tournament_id = ? AND status = ?", tour.ID, league.StatusActive).Find(&next).Error; err != nil {
			t.Fatal(err)
		}
		if len(next) == 0 || played[next[0].ID] {
			continue
		}
		g := next[0].ID
		played[g] = true
		var seated []string
		if err := r.db.Gorm.Model(&seatRow{}).Where("game_id = ?", g).Order("seat").Pluck("user_id", &seated).Error; err != nil {
			t.Fatal(err)
		}
		if want := []string{first.UserID, second.UserID}; !slices.Equal(slices.Sorted(slices.Values(seated)), slices.Sorted(slices.Values(want))) {
			t.Fatalf("game %d of the series seats %v; want the two present alone, %v", len(played), seated, want)
		}
		one := r.moveOnce(t, g, present...)
		other := present[0]
		if other == one {
			other = present[1]
		}
		r.moveOnce(t, g, other)
		leaveAll(g, one, other)
	}
	if len(played) < 2 {
		t.Fatalf("the series ended after game 1: %v; want the two present to play on", played)
	}

	entryOf := r.entryOfCaptain(t, tour.ID)
	m := r.firstMatch(t, tour.ID)
	if m.Winner == entryOf[absent.UserID] || m.Winner == "" || !slices.Equal(m.Forfeited, []string{entryOf[absent.UserID]}) {
		t.Errorf("the match: winner %q, forfeited %v; want it won by one of the two present, the third forfeited", m.Winner, m.Forfeited)
	}
}

// TestABestOfThreeBothMissedEndsAfterGameOne: when both players of a
// best-of-3 final are found absent in game 1 (both leave before moving,
// bots playing every turn), neither is left to play the series: the
// match stands as game 1 left it, won by the entry the board gave it to,
// rather than have the bots play games 2 and 3 for nobody.
func TestABestOfThreeBothMissedEndsAfterGameOne(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, people := r.peopleTournament(t, "Nobody came", league.TournamentConfig{Game: "sequence", MatchSize: 2,
		Format: "single-elimination", BestOf: 3, Clock: league.Clock{TurnSeconds: 600}, NoShow: "forfeit", AtDeadline: "bots"},
		"amy", "abe")
	r.scheduleShortRoundOne(t, tour.ID, time.Hour, false)
	game := r.waitTournamentGame(t, tour.ID, 15*time.Second)
	for _, p := range people {
		if _, err := r.games.Leave(ctx, p, game); err != nil {
			t.Fatalf("leave: %v", err)
		}
	}
	r.waitFinished(t, tour.ID, 30*time.Second)
	m := r.firstMatch(t, tour.ID)
	if len(m.Games) != 1 || len(m.Forfeited) != 2 || len(m.GameWinners) != 1 || m.Winner == "" {
		t.Errorf("the final: games %v, forfeited %v, game winners %v, winner %q; want game 1 alone, both forfeited, a winner (the board's, or the better seed)",
			m.Games, m.Forfeited, m.GameWinners, m.Winner)
	}
	if w := m.GameWinners[0]; w != "" && m.Winner != w {
		t.Errorf("the final went to %s; want game 1's winner, %s", m.Winner, w)
	}
}

// entryOfCaptain maps each entry's captain to the entry, for a tournament
// of at most ten entries.
func (r *tournamentRig) entryOfCaptain(t *testing.T, id string) map[string]string {
	t.Helper()
	page, err := r.tournaments.Entries(context.Background(), id, league.PageRequest{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	entryOf := map[string]string{}
	for _, e := range page.Items {
		entryOf[e.CaptainID] = e.ID
	}
	return entryOf
}

// firstMatch is round 1's first match.
func (r *tournamentRig) firstMatch(t *testing.T, id string) league.TournamentMatch {
	t.Helper()
	rounds, err := r.tournaments.Rounds(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return rounds[0].Matches[0]
}

// TestASwissNoShowIsWithdrawnAndForfeitsTheRestOfItsSeries: the same in a
// Swiss of best-of-3 matches, where the no-show is also withdrawn: its
// match is decided for the entry present on game 1 alone, no game 2 or 3
// is created for it, and with one entry left the Swiss is over.
func TestASwissNoShowIsWithdrawnAndForfeitsTheRestOfItsSeries(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, people := r.peopleTournament(t, "Swiss best of three", league.TournamentConfig{Game: "sequence", MatchSize: 2,
		Format: "swiss", Rounds: 2, BestOf: 3, Clock: league.Clock{TurnSeconds: 600}, NoShow: "forfeit", AtDeadline: "bots"},
		"sia", "sol")
	r.scheduleShortRoundOne(t, tour.ID, time.Hour, false)
	game := r.waitTournamentGame(t, tour.ID, 15*time.Second)
	mover := r.moveOnce(t, game, people...)
	absent := people[0]
	if absent == mover {
		absent = people[1]
	}
	for _, p := range []league.Actor{absent, mover} {
		if _, err := r.games.Leave(ctx, p, game); err != nil {
			t.Fatalf("leave: %v", err)
		}
	}
	r.waitFinished(t, tour.ID, 30*time.Second)

	entryOf := r.entryOfCaptain(t, tour.ID)
	m := r.firstMatch(t, tour.ID)
	if want := entryOf[mover.UserID]; m.Winner != want || !slices.Equal(m.GameWinners, []string{want}) || len(m.Games) != 1 {
		t.Errorf("the match: winner %q, game winners %v, games %v; want it won by %s on game 1 alone", m.Winner, m.GameWinners, m.Games, want)
	}
	var games int64
	if err := r.db.Gorm.Model(&gameRow{}).Where("tournament_id = ?", tour.ID).Count(&games).Error; err != nil {
		t.Fatal(err)
	}
	if games != 1 {
		t.Errorf("%d games created for the tournament; want game 1 alone", games)
	}
	page, err := r.tournaments.Entries(ctx, tour.ID, league.PageRequest{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range page.Items {
		if want := map[bool]string{true: "withdrawn", false: "active"}[e.ID == entryOf[absent.UserID]]; e.Status != want {
			t.Errorf("entry %s: %s, want %s", e.Name, e.Status, want)
		}
	}
}

// TestTheRoundsSayWhereAFillInBotStoodIn: a result a fill-in bot played
// for a player who left (their seat filled by a bot and abandoned) read,
// in the rounds, as the player's own: each match names the entries a bot
// stood in for, with the games and the players, and only once it
// happened (a seat played by its player says nothing).
func TestTheRoundsSayWhereAFillInBotStoodIn(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, people := r.peopleTournament(t, "Stand-ins", league.TournamentConfig{Game: "sequence", MatchSize: 2,
		Format: "single-elimination", Clock: league.Clock{TurnSeconds: 600}, NoShow: "bots", AtDeadline: "bots"},
		"sia", "sol")
	r.scheduleShortRoundOne(t, tour.ID, time.Hour, false)
	game := r.waitTournamentGame(t, tour.ID, 15*time.Second)
	mover := r.moveOnce(t, game, people...)
	if m := r.firstMatch(t, tour.ID); len(m.StandIns) != 0 {
		t.Fatalf("stand-ins before anyone left: %+v", m.StandIns)
	}
	leaver := people[0]
	if leaver == mover {
		leaver = people[1]
	}
	if _, err := r.games.Leave(ctx, leaver, game); err != nil {
		t.Fatalf("leave: %v", err)
	}
	entryOf := r.entryOfCaptain(t, tour.ID)
	m := r.firstMatch(t, tour.ID)
	if len(m.StandIns) != 1 || m.StandIns[0].EntryID != entryOf[leaver.UserID] || !slices.Equal(m.StandIns[0].Games, []string{game}) ||
		len(m.StandIns[0].Players) != 1 || m.StandIns[0].Players[0].UserID != leaver.UserID || m.StandIns[0].Players[0].Username == "" {
		t.Fatalf("stand-ins after %s left: %+v; want their entry %s alone, in game %s", leaver.UserID, m.StandIns, entryOf[leaver.UserID], game)
	}
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, rd := range rounds[1:] {
		for _, o := range rd.Matches {
			if len(o.StandIns) != 0 {
				t.Errorf("round %d's match %s: stand-ins %+v; want none", rd.Number, o.ID, o.StandIns)
			}
		}
	}
}

// TestANoShowAtAnAdjudicatedDeadlineIsRatedAsAbandoning: under the forfeit
// policy with a deadline that adjudicates, the player whose turn the
// autopilot played and who never moved forfeits the match and is rated as
// having abandoned, the one who came as winning. The game was rated on the
// adjudicated board, a 0–0 draw, so the no-show gained rating from the
// player who came (the ratings audit).
func TestANoShowAtAnAdjudicatedDeadlineIsRatedAsAbandoning(t *testing.T) {
	r := newTournamentRig(t)
	tour, people := r.peopleTournament(t, "Adjudicated", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "single-elimination",
		Rated: true, Clock: league.Clock{TurnSeconds: 2}, NoShow: "forfeit", AtDeadline: "adjudicate"}, "gwen", "fred")
	// the absent player's first turn times out 2 s in (the autopilot plays
	// it), the round ends 4 s in, before a third timeout would abandon it
	r.scheduleShortRoundOne(t, tour.ID, 4*time.Second, false)
	game := r.waitTournamentGame(t, tour.ID, 15*time.Second)
	came := r.moveOnce(t, game, people...)
	r.waitFinished(t, tour.ID, 30*time.Second)

	entryOf := r.entryOfCaptain(t, tour.ID)
	m := r.firstMatch(t, tour.ID)
	var absent league.Actor
	for _, p := range people {
		if p.UserID != came.UserID {
			absent = p
		}
	}
	if m.Winner != entryOf[came.UserID] || !slices.Equal(m.Forfeited, []string{entryOf[absent.UserID]}) {
		t.Errorf("the final: winner %s, forfeited %v; want %s the winner and %s forfeited", m.Winner, m.Forfeited, entryOf[came.UserID], entryOf[absent.UserID])
	}
	changes := r.ratingChanges(t, game)
	if len(changes) != 2 {
		t.Fatalf("rating changes: %+v, want both players'", changes)
	}
	for _, c := range changes {
		if absentOne := c.UserID == absent.UserID; c.Abandoned != absentOne || (c.Delta > 0) == absentOne {
			t.Errorf("rating change %+v: want the no-show abandoned and down, the one who came up", c)
		}
	}
	var why []string
	if err := r.db.Gorm.Raw("SELECT abandoned_why FROM game_seats WHERE game_id = ? AND abandoned", game).Scan(&why).Error; err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(why, []string{league.AbandonedNoShow}) {
		t.Errorf("abandoned seats say %v, want one no_show", why)
	}
}

// TestAResignationIsNoAbsence: under the forfeit policy, a resigned game
// goes to the side that did not resign, whoever the autopilot played for:
// here the first player's turn times out (the autopilot plays it), the
// second moves and resigns. The match went to the one who resigned, the
// other found absent for never having moved (the audit of today's
// changes; in a best-of-3 the resigner was found absent and lost the
// series, in a Swiss withdrawn).
func TestAResignationIsNoAbsence(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, people := r.peopleTournament(t, "Resigned", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "single-elimination",
		Rated: true, Clock: league.Clock{TurnSeconds: 2}, NoShow: "forfeit", AtDeadline: "bots"}, "pia", "quin")
	r.startNow(t, tour.ID)
	game := r.waitTournamentGame(t, tour.ID, 15*time.Second)
	var first, second league.Actor
	for end := time.Now().Add(15 * time.Second); second.UserID == ""; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the first turn was never played for its player")
		}
		for i, p := range people {
			v, err := r.games.View(ctx, p, game)
			if err != nil {
				t.Fatal(err)
			}
			if v.Game.Ply == 1 && len(v.LegalMoves) > 0 { // the autopilot played ply 0
				first, second = people[1-i], p
			}
		}
	}
	if r.moveOnce(t, game, second).UserID != second.UserID {
		t.Fatal("the second player did not move")
	}
	if _, err := r.games.Resign(ctx, second, game); err != nil {
		t.Fatal(err)
	}
	r.waitFinished(t, tour.ID, 30*time.Second)
	entryOf := r.entryOfCaptain(t, tour.ID)
	if m := r.firstMatch(t, tour.ID); m.Winner != entryOf[first.UserID] || len(m.Forfeited) != 0 {
		t.Errorf("the final after the second player resigned: winner %s, forfeited %v; want the first player's entry %s, nobody forfeited", m.Winner, m.Forfeited, entryOf[first.UserID])
	}
}
