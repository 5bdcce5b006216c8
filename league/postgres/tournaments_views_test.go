package postgres

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm/schema"

	"github.com/seqleague/seqleague/league"
)

// Entries that missed the playoffs follow the four that reached them, in
// the group stage's order; two it ranked equal (5th and 5th there, say)
// share a place, and the next takes the place after both.
func TestEntriesOutOfThePlayoffsShareTheirGroupStageTies(t *testing.T) {
	playoffs := []league.StandingRow{{EntryID: "a", Rank: 1}, {EntryID: "b", Rank: 2}, {EntryID: "c", Rank: 3}, {EntryID: "d", Rank: 3}}
	rest := []league.StandingRow{{EntryID: "e", Rank: 3}, {EntryID: "f", Rank: 5}, {EntryID: "g", Rank: 5}, {EntryID: "h", Rank: 7}, {EntryID: "i", Rank: 7}}
	var ranks []int
	for _, row := range placeAfter(playoffs, rest)[4:] {
		ranks = append(ranks, row.Rank)
	}
	if want := []int{5, 6, 6, 8, 8}; !slices.Equal(ranks, want) {
		t.Fatalf("ranks %v, want %v", ranks, want)
	}
}

// Across groups, the entries that missed the playoffs are placed by their
// place in their group first: a group's third was placed 5th above two
// groups' runners-up, on a head-to-head that says nothing across groups
// (today's audit). Runners-up the group stage ranks equal share a place.
func TestEntriesOutOfThePlayoffsArePlacedByTheirGroupPlaceFirst(t *testing.T) {
	playoffs := []league.StandingRow{{EntryID: "a", Rank: 1}, {EntryID: "b", Rank: 2}, {EntryID: "c", Rank: 3}}
	rest := []league.StandingRow{
		{EntryID: "b3", Rank: 4, GroupRank: 3}, {EntryID: "a2", Rank: 5, GroupRank: 2}, {EntryID: "c2", Rank: 5, GroupRank: 2}, {EntryID: "a3", Rank: 5, GroupRank: 3},
	}
	var got []string
	for _, row := range placeAfter(playoffs, rest)[3:] {
		got = append(got, row.EntryID+" "+strconv.Itoa(row.Rank))
	}
	if want := []string{"a2 4", "c2 4", "b3 6", "a3 7"}; !slices.Equal(got, want) {
		t.Fatalf("places %v, want %v", got, want)
	}
}

// The standings of groups then playoffs were one table of every group
// together: after round 1 of two groups of three, the two match winners
// shared rank 1, and nothing said which group a row was of. Every row now
// names its group and its rank there, as the group's own table ranks it
// (winner, bye, loser: 1, 2, 3 in both groups), which is what decides who
// reaches the playoffs.
func TestGroupsThenPlayoffsStandingsRankEachGroupApart(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Groups", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "groups-playoffs", Groups: 2, Advance: 1}, 6)
	st, err := r.tournaments.Standings(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range st {
		if row.Group != "" || row.GroupRank != 0 || row.Qualified {
			t.Fatalf("before the start %s is in group %q at %d (qualified %v); the groups are drawn at the start", row.Name, row.Group, row.GroupRank, row.Qualified)
		}
	}
	r.scheduleRoundOneOnly(t, tour.ID)
	rounds := r.waitRound(t, tour.ID, 1, 2*time.Minute)
	// the group of each entry round 1 paired (group matches are "A-R1-1";
	// a bye names no group: each group has one, and three entries)
	groupOf := map[string]string{}
	want := map[string]int{}
	for _, m := range rounds[0].Matches {
		for _, e := range m.Entries {
			if !m.Bye {
				groupOf[e] = m.ID[:1]
			}
			switch {
			case m.Bye:
				want[e] = 2
			case m.Winner == e:
				want[e] = 1
			case m.Winner == "":
				t.Fatalf("match %s drawn; this test needs a winner", m.ID)
			default:
				want[e] = 3
			}
		}
	}
	st, err = r.tournaments.Standings(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 6 || len(want) != 6 {
		t.Fatalf("%d rows, %d entries in round 1; want 6 of each", len(st), len(want))
	}
	perGroup := map[string][]int{}
	for _, row := range st {
		perGroup[row.Group] = append(perGroup[row.Group], row.GroupRank)
		if g, paired := groupOf[row.EntryID]; paired && row.Group != g || row.GroupRank != want[row.EntryID] {
			t.Errorf("%s: group %q rank %d in it, want group %q rank %d (overall rank %d)", row.Name, row.Group, row.GroupRank, g, want[row.EntryID], row.Rank)
		}
	}
	for _, g := range []string{"A", "B"} {
		slices.Sort(perGroup[g])
		if !slices.Equal(perGroup[g], []int{1, 2, 3}) {
			t.Errorf("group %s ranks %v, want 1, 2, 3 (all groups: %v)", g, perGroup[g], perGroup)
		}
	}
}

// A Swiss entry withdrawn after round 1 was in the standings like any
// other: nothing said it had left. Its row now says withdrawn, and it
// keeps its result, which still counts in its opponent's Buchholz — after
// round 2, with a draw for the round it missed (FIDE's rule; it counted 2,
// its points, before).
func TestAWithdrawnEntryIsMarkedInTheStandingsAndStillCountsForItsOpponent(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Swiss", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "swiss"}, 4)
	r.scheduleRoundOneOnly(t, tour.ID)
	rounds := r.waitRound(t, tour.ID, 1, 2*time.Minute)
	var gone, opponent string
	for _, m := range rounds[0].Matches {
		if !m.Bye && m.Winner != "" {
			gone = m.Winner
			opponent = m.Entries[0]
			if opponent == gone {
				opponent = m.Entries[1]
			}
			break
		}
	}
	if gone == "" {
		t.Fatalf("round 1 has no match won: %+v", rounds[0].Matches)
	}
	if err := r.tournaments.Withdraw(ctx, r.organizer, tour.ID, gone); err != nil {
		t.Fatal(err)
	}
	wantBuchholz := func(st []league.StandingRow, rounds int, want float64) {
		t.Helper()
		for _, row := range st {
			if row.EntryID == opponent && (len(row.TieBreaks) == 0 || row.TieBreaks[0].Name != "buchholz" || row.TieBreaks[0].Value != want) {
				t.Errorf("after %d rounds, %s, who lost to the withdrawn entry: tie-breaks %+v, want Buchholz %v", rounds, row.Name, row.TieBreaks, want)
			}
		}
	}
	st, err := r.tournaments.Standings(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 4 {
		t.Fatalf("%d rows, want the 4 entries, the withdrawn one too", len(st))
	}
	for _, row := range st {
		if row.Withdrawn != (row.EntryID == gone) {
			t.Errorf("%s: withdrawn %v, want %v", row.Name, row.Withdrawn, row.EntryID == gone)
		}
		switch row.EntryID {
		case gone:
			if row.Wins != 1 || row.Points != 2 {
				t.Errorf("withdrawn %s: %d wins, %v points; want its round 1 win kept", row.Name, row.Wins, row.Points)
			}
		}
	}
	wantBuchholz(st, 1, 2)

	r.startRoundNow(t, tour.ID, 2)
	r.waitRound(t, tour.ID, 2, 2*time.Minute)
	if st, err = r.tournaments.Standings(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	// The opponent's Buchholz is its round-2 opponent's points plus the
	// withdrawn entry's 2 and a draw (1) for the round it missed.
	var second float64
	rounds, err = r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	points := map[string]float64{}
	for _, row := range st {
		points[row.EntryID] = row.Points
	}
	for _, m := range rounds[1].Matches {
		if i := slices.Index(m.Entries, opponent); i >= 0 {
			if m.Bye {
				second = min(points[opponent], 2) // a bye's stand-in: its own points, at most a draw a round
			} else {
				second = points[m.Entries[1-i]]
			}
		}
	}
	wantBuchholz(st, 2, 2+1+second)
}

// A row of groups then playoffs counts the entry's playoff matches too,
// while its points and tie-breaks are the group stage's; its group stage's
// own record rides beside them (GroupStage), for the group's table. Four
// bots in two groups of two, one advancing from each: the finalists played
// two matches, one of them in their group, and only they say qualified
// (the group_rank of entries tied at the cut did not say who went through).
func TestGroupsThenPlayoffsRowsKeepTheirGroupStageRecordApart(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Groups", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "groups-playoffs", Groups: 2, Advance: 1}, 4)
	running := league.TournamentRunning
	if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &running}); err != nil {
		t.Fatal(err)
	}
	r.waitFinished(t, tour.ID, 3*time.Minute)
	st, err := r.tournaments.Standings(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	finalists := 0
	for _, row := range st {
		g := row.GroupStage
		if row.Group == "" || g == nil {
			t.Fatalf("%s: group %q, group stage %+v; want both", row.Name, row.Group, g)
		}
		if g.Played != 1 || g.Wins+g.Draws+g.Losses != 1 || g.Byes != 0 {
			t.Errorf("%s: group stage %+v; want the one match of a group of two", row.Name, *g)
		}
		if row.Qualified != (row.Played == 2) {
			t.Errorf("%s played %d matches, qualified %v; want qualified only for the finalists", row.Name, row.Played, row.Qualified)
		}
		switch row.Played {
		case 2:
			finalists++
			if row.Wins+row.Draws+row.Losses != 2 || row.Sequences < g.Sequences {
				t.Errorf("%s: %+v with group stage %+v; want the final counted on top of the group match", row.Name, row, *g)
			}
		case 1:
			if row.Wins != g.Wins || row.Sequences != g.Sequences {
				t.Errorf("%s out in the groups: %+v, group stage %+v; want the same record", row.Name, row, *g)
			}
		default:
			t.Errorf("%s played %d matches; want 1, or 2 for a finalist", row.Name, row.Played)
		}
	}
	if finalists != 2 {
		t.Errorf("%d finalists, want 2: %+v", finalists, st)
	}
}

// TestAUsersTournamentsSayTheEntrysOwnNextStep: Home said "round 2 · in an
// hour" to a semifinalist whose semifinal was still being played (the
// list's next round is the tournament's first round not yet paired,
// whoever plays in it). Each tournament being played gives the entry's
// own step: its match being played and the game; the final as its next
// round only if it goes through; once the other semifinal is over, its
// winner waiting in the final for an opponent and its loser knocked out.
func TestAUsersTournamentsSayTheEntrysOwnNextStep(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, people := r.peopleTournament(t, "Cup", league.TournamentConfig{Game: "sequence", MatchSize: 2,
		Format: "single-elimination", Clock: league.Clock{TurnSeconds: 600}, AtDeadline: "bots"}, "ada", "bo", "cy", "di")
	r.scheduleShortRoundOne(t, tour.ID, time.Hour, true)
	var semis []league.TournamentMatch
	for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		rounds, err := r.tournaments.Rounds(ctx, tour.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(rounds) > 0 && len(rounds[0].Matches) == 2 && len(rounds[0].Matches[0].Games) == 1 && len(rounds[0].Matches[1].Games) == 1 {
			semis = rounds[0].Matches
			break
		}
	}
	if semis == nil {
		t.Fatal("the semifinals never started")
	}
	entryOf := r.entryOfCaptain(t, tour.ID)
	userOf := map[string]league.Actor{}
	for _, p := range people {
		userOf[entryOf[p.UserID]] = p
	}
	step := func(p league.Actor) league.UserTournament {
		t.Helper()
		page, err := r.tournaments.ForUser(ctx, p.UserID, league.PageRequest{})
		if err != nil || len(page.Items) != 1 {
			t.Fatalf("ForUser = %+v, %v; want the one tournament", page.Items, err)
		}
		return page.Items[0]
	}
	played, other := semis[0], semis[1]
	for _, m := range semis {
		for _, e := range m.Entries {
			ut := step(userOf[e])
			if ut.NextRound != 2 {
				t.Errorf("%s: next_round %d; want the tournament's round 2 still", e, ut.NextRound)
			}
			if ut.EntryMatch == nil || ut.EntryMatch.Round != 1 || ut.EntryMatch.MatchID != m.ID || ut.EntryMatch.Status != "playing" || ut.EntryMatch.GameID != m.Games[0] {
				t.Errorf("%s: entry match %+v; want semifinal %s being played, game %s", e, ut.EntryMatch, m.ID, m.Games[0])
			}
			if n := ut.EntryNextRound; n == nil || n.Number != 2 || !n.IfThrough || n.StartsAt == nil {
				t.Errorf("%s: entry next round %+v; want round 2 with its start, if it goes through", e, n)
			}
			if ut.KnockedOut || ut.EntryWaiting {
				t.Errorf("%s: knocked out %v, waiting %v; want neither", e, ut.KnockedOut, ut.EntryWaiting)
			}
		}
	}
	// the first semifinal's two players leave: the bots finish it
	for _, e := range played.Entries {
		if _, err := r.games.Leave(ctx, userOf[e], played.Games[0]); err != nil {
			t.Fatalf("leave: %v", err)
		}
	}
	var done league.TournamentMatch
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end) && done.Winner == ""; time.Sleep(100 * time.Millisecond) {
		rounds, err := r.tournaments.Rounds(ctx, tour.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range rounds[0].Matches {
			if m.ID == played.ID && m.Status == "finished" {
				done = m
			}
		}
	}
	if done.Winner == "" {
		t.Fatal("the first semifinal was not decided")
	}
	for _, e := range done.Entries {
		ut := step(userOf[e])
		if ut.EntryMatch == nil || ut.EntryMatch.Status != "finished" || ut.EntryMatch.MatchID != played.ID {
			t.Errorf("%s: entry match %+v; want its semifinal, over", e, ut.EntryMatch)
		}
		if ut.EntryNextRound != nil {
			t.Errorf("%s: entry next round %+v; want none", e, ut.EntryNextRound)
		}
		if won := e == done.Winner; ut.EntryWaiting != won || ut.KnockedOut == won {
			t.Errorf("%s (won: %v): waiting %v, knocked out %v; want the winner waiting in the final, the loser knocked out", e, won, ut.EntryWaiting, ut.KnockedOut)
		}
	}
	for _, e := range other.Entries {
		if ut := step(userOf[e]); ut.EntryMatch == nil || ut.EntryMatch.Status != "playing" || ut.EntryNextRound == nil || !ut.EntryNextRound.IfThrough {
			t.Errorf("%s: entry match %+v, next round %+v; want its semifinal still being played, the final if it goes through", e, ut.EntryMatch, ut.EntryNextRound)
		}
	}
}

// The page said "Round 1" with no total for a round robin of three-team
// matches, groups then playoffs and double elimination, whose rounds the
// web app could not count: once started, a tournament says how many rounds
// it plays (six entries in triples: 5; none while entries come and go).
func TestAStartedTournamentSaysHowManyRoundsItPlays(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		cfg  league.TournamentConfig
		n    int
		want int
	}{
		{"round robin in triples", league.TournamentConfig{Game: "sequence", MatchSize: 3, Format: "round-robin"}, 6, 5},
		{"double elimination", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "double-elimination"}, 4, 4},
	} {
		tour := r.botTournament(t, tc.name, tc.cfg, tc.n)
		if got, err := r.tournaments.Get(ctx, tour.ID); err != nil || got.RoundsPlanned != 0 {
			t.Fatalf("%s before the start: %d rounds planned, %v; want none said", tc.name, got.RoundsPlanned, err)
		}
		r.scheduleRoundOneOnly(t, tour.ID)
		r.waitRound(t, tour.ID, 1, 2*time.Minute)
		if got, err := r.tournaments.Get(ctx, tour.ID); err != nil || got.RoundsPlanned != tc.want {
			t.Errorf("%s once started: %d rounds planned, %v; want %d", tc.name, got.RoundsPlanned, err, tc.want)
		}
	}
}

// A player's list of games said of a tournament game only "Sequence · 2
// players vs bob": the list names its tournament and round.
func TestAListedTournamentGameNamesItsTournamentAndRound(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, people := r.peopleTournament(t, "Spring Cup", league.TournamentConfig{Game: "sequence", MatchSize: 2,
		Format: "single-elimination", Clock: league.Clock{TurnSeconds: 600}}, "ada", "bo")
	r.scheduleShortRoundOne(t, tour.ID, time.Hour, false)
	ada := people[0]
	for end := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		games, _, err := r.games.ListForUser(ctx, ada.UserID, league.UserGamesQuery{Viewer: ada})
		if err != nil {
			t.Fatal(err)
		}
		if len(games) == 1 {
			if got := games[0].Tournament; got == nil || *got != (league.GameTournament{Name: "Spring Cup", Round: 1}) {
				t.Fatalf("the listed game's tournament: %+v; want Spring Cup, round 1", got)
			}
			return
		}
		if time.Now().After(end) {
			t.Fatalf("ada's games: %d; want her round 1 game", len(games))
		}
	}
}

// A finished tournament says the rounds it played: a Swiss of two rounds
// that withdrawals ended after one said 2 to the end.
func TestAFinishedTournamentSaysTheRoundsItPlayed(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Swiss", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "swiss", Rounds: 2}, 4)
	r.scheduleRoundOneOnly(t, tour.ID)
	rounds := r.waitRound(t, tour.ID, 1, 2*time.Minute)
	if got, err := r.tournaments.Get(ctx, tour.ID); err != nil || got.RoundsPlanned != 2 {
		t.Fatalf("after round 1: %d rounds planned, %v; want 2", got.RoundsPlanned, err)
	}
	left := 0
	for _, m := range rounds[0].Matches {
		for _, e := range m.Entries {
			if left < 3 {
				if err := r.tournaments.Withdraw(ctx, r.organizer, tour.ID, e); err != nil {
					t.Fatal(err)
				}
				left++
			}
		}
	}
	r.startRoundNow(t, tour.ID, 2)
	r.waitFinished(t, tour.ID, time.Minute)
	if got, err := r.tournaments.Get(ctx, tour.ID); err != nil || got.RoundsPlanned != 1 {
		t.Fatalf("finished after one round: %d rounds planned, %v; want the 1 it played", got.RoundsPlanned, err)
	}
}

// A user's list of tournaments reads every column of a tournament but its
// schedule: a column added to the row and not to the list would read as
// empty there.
func TestAUsersTournamentsReadEveryColumnButTheSchedule(t *testing.T) {
	s, err := schema.Parse(&tournamentRow{}, &sync.Map{}, schema.NamingStrategy{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range s.Fields {
		listed := strings.Contains(tournamentColumnsButSchedule, "t."+f.DBName+",") || strings.HasSuffix(tournamentColumnsButSchedule, "t."+f.DBName)
		if listed == (f.DBName == "schedule") {
			t.Errorf("column %s: listed %v", f.DBName, listed)
		}
	}
}
