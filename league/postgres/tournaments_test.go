package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/competition"
	"github.com/seqleague/seqleague/league/rating"
	"github.com/seqleague/seqleague/league/redisbus"
	"github.com/seqleague/seqleague/league/testenv"
	"github.com/seqleague/seqleague/workers"
)

type tournamentRig struct {
	*gameRig
	tournaments *Tournaments
	ratings     *Ratings
	organizer   league.Actor
	clubID      string
}

func newTournamentRig(t *testing.T) *tournamentRig {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, testenv.Postgres(t), PoolConfig{MaxOpen: 40})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	opt, _ := redis.ParseURL(testenv.Redis(t))
	rdb := redis.NewClient(opt)
	t.Cleanup(func() { rdb.Close() })
	enq := workers.NewEnqueuer(rdb)
	games := NewGames(db, redisbus.New(rdb), enq, GameConfig{}, testLogger(t))
	ratings := NewRatings(db)
	games.AddSettler(ratings)
	tournaments := NewTournaments(db, games, enq, testLogger(t))
	w := workers.New(rdb, workers.Config{Concurrency: 16, PollInterval: 50 * time.Millisecond, ShutdownTimeout: 2 * time.Second}, testLogger(t))
	w.RegisterGames(games)
	w.RegisterCompetitions(tournaments)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Shutdown)
	r := &tournamentRig{gameRig: &gameRig{db: db, games: games, rdb: rdb}, tournaments: tournaments, ratings: ratings}
	r.organizer = r.user(t, "organizer")
	club, err := NewClubs(db).Create(ctx, r.organizer, league.NewClub{Name: "Sequence Club"})
	if err != nil {
		t.Fatal(err)
	}
	r.clubID = club.ID
	return r
}

func (r *tournamentRig) botTournament(t *testing.T, name string, cfg league.TournamentConfig, entries int) *league.Tournament {
	t.Helper()
	ctx := context.Background()
	tour, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: r.clubID, Name: name, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	levels := []string{"random", "greedy"}
	for i := 0; i < entries; i++ {
		_, err := r.tournaments.Register(ctx, r.organizer, tour.ID, league.NewEntry{
			Name: fmt.Sprintf("bot-%02d", i), Members: []league.EntryMember{{Bot: levels[i%2]}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	return tour
}

// peopleTournament creates a tournament of cfg in the rig's club and enters
// a new club member of each name, alone; it returns the tournament and the
// members in that order.
func (r *tournamentRig) peopleTournament(t *testing.T, name string, cfg league.TournamentConfig, names ...string) (*league.Tournament, []league.Actor) {
	t.Helper()
	ctx := context.Background()
	tour, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: r.clubID, Name: name, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	var people []league.Actor
	for _, n := range names {
		p := r.user(t, n)
		r.joinClub(t, p)
		if _, err := r.tournaments.Register(ctx, p, tour.ID, league.NewEntry{}); err != nil {
			t.Fatal(err)
		}
		people = append(people, p)
	}
	return tour, people
}

// adjudicatedFinal is a single elimination of two new members named
// players, on a ten-minute turn clock (nobody moves before the deadline)
// whose deadline adjudicates, with round 1 scheduled at start until
// deadline.
func (r *tournamentRig) adjudicatedFinal(t *testing.T, name string, start, deadline time.Time, players ...string) *league.Tournament {
	t.Helper()
	tour, _ := r.peopleTournament(t, name, league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "single-elimination",
		Clock: league.Clock{TurnSeconds: 600}, AtDeadline: "adjudicate"}, players...)
	if _, err := r.tournaments.Schedule(context.Background(), r.organizer, tour.ID, []league.RoundSchedule{{Number: 1, StartsAt: start, Deadline: &deadline}}); err != nil {
		t.Fatal(err)
	}
	return tour
}

func (r *tournamentRig) waitFinished(t *testing.T, id string, within time.Duration) *league.Tournament {
	t.Helper()
	end := time.Now().Add(within)
	for time.Now().Before(end) {
		tour, err := r.tournaments.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if tour.Status == league.TournamentFinished {
			return tour
		}
		time.Sleep(100 * time.Millisecond)
	}
	rounds, _ := r.tournaments.Rounds(context.Background(), id)
	t.Fatalf("tournament not finished within %v; rounds: %+v", within, rounds)
	return nil
}

func TestSingleEliminationOfEightBotsRunsToItsChampion(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Knockout", league.TournamentConfig{
		Game: "sequence", MatchSize: 2, Format: "single-elimination", Rated: true}, 8)
	running := league.TournamentRunning
	if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &running}); err != nil {
		t.Fatal(err)
	}
	r.waitFinished(t, tour.ID, 3*time.Minute)
	raw, err := r.tournaments.Bracket(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	var b struct {
		Kind     string
		Champion string
		Rounds   []struct {
			Matches []struct {
				State  string
				Winner string
			}
		}
	}
	json.Unmarshal(raw, &b)
	if b.Kind != "bracket" || b.Champion == "" || len(b.Rounds) != 3 {
		t.Fatalf("bracket = kind %q champion %q rounds %d; want a 3-round bracket with a champion", b.Kind, b.Champion, len(b.Rounds))
	}
	for i, rd := range b.Rounds {
		if len(rd.Matches) != 4>>i {
			t.Fatalf("round %d has %d matches, want %d", i+1, len(rd.Matches), 4>>i)
		}
		for _, m := range rd.Matches {
			if m.State != string(competition.StateDone) || m.Winner == "" {
				t.Fatalf("round %d match unfinished: %+v", i+1, m)
			}
		}
	}
	st, err := r.tournaments.Standings(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 8 || st[0].EntryID != b.Champion || st[0].Rank != 1 || st[1].Rank != 2 {
		t.Fatalf("standings %+v; want the champion first, the finalist second", st[:2])
	}
	// Rated: every game changed the bots' ratings exactly once per player.
	var games, changes int64
	r.db.Gorm.Table("games").Where("tournament_id = ?", tour.ID).Count(&games)
	r.db.Gorm.Table("rating_changes").Where("game_id IN (SELECT id FROM games WHERE tournament_id = ?)", tour.ID).Count(&changes)
	if games < 7 || changes == 0 {
		t.Fatalf("%d games and %d rating changes; want at least 7 games, rated", games, changes)
	}
	var doubled int64
	r.db.Gorm.Raw("SELECT count(*) FROM (SELECT game_id, user_id FROM rating_changes GROUP BY 1, 2 HAVING count(*) > 1) d").Scan(&doubled)
	if doubled != 0 {
		t.Fatal("a game was rated twice")
	}
}

func TestThreeTeamSwissOfNineBotsRunsFromItsSchedule(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Swiss triples", league.TournamentConfig{
		Game: "sequence", MatchSize: 3, Format: "swiss", Rated: true}, 9)
	now := time.Now().UTC()
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{
		{Number: 1, StartsAt: now.Add(time.Second)},
		{Number: 2, StartsAt: now.Add(3 * time.Second)},
	}); err != nil {
		t.Fatal(err)
	}
	r.waitFinished(t, tour.ID, 3*time.Minute)
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != competition.SwissRounds(9, 3) {
		t.Fatalf("%d rounds, want %d", len(rounds), competition.SwissRounds(9, 3))
	}
	for _, rd := range rounds {
		if len(rd.Matches) != 3 {
			t.Fatalf("round %d has %d matches, want 3 triples", rd.Number, len(rd.Matches))
		}
		for _, m := range rd.Matches {
			if len(m.Entries) != 3 || m.Status != "finished" {
				t.Fatalf("round %d match %+v", rd.Number, m)
			}
		}
	}
	st, err := r.tournaments.Standings(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 9 || st[0].Rank != 1 || len(st[0].TieBreaks) == 0 {
		t.Fatalf("standings %+v; want 9 ranked rows with tie-break values", st)
	}
	total := 0.0
	for _, row := range st {
		total += row.Points
	}
	if total == 0 {
		t.Fatal("nobody scored a point")
	}
}

func TestOnlyOrganizersRunTournamentsAndPlayersSeeTheirOwn(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	member, outsider := r.user(t, "member"), r.user(t, "outsider")
	clubs := NewClubs(r.db)
	if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')", r.clubID, member.UserID).Error; err != nil {
		t.Fatal(err)
	}
	cfg := league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin"}
	for _, tc := range []struct {
		name  string
		actor league.Actor
		want  string
	}{
		{"a member cannot create a tournament", member, league.EFORBIDDEN},
		{"an outsider cannot create a tournament", outsider, league.EFORBIDDEN},
		{"anonymous cannot create a tournament", league.Actor{}, league.EUNAUTHORIZED},
		{"the owner can", r.organizer, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.tournaments.Create(ctx, tc.actor, league.NewTournament{ClubID: r.clubID, Name: "T " + tc.name, Config: cfg})
			if got := league.ErrorCode(err); got != tc.want {
				t.Fatalf("error %v (%q), want %q", err, got, tc.want)
			}
		})
	}
	tour, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: r.clubID, Name: "Open", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.tournaments.Register(ctx, member, tour.ID, league.NewEntry{Members: []league.EntryMember{{Bot: "random"}}}); league.ErrorCode(err) != league.EFORBIDDEN {
		t.Fatalf("a member entering a bot: %v, want forbidden", err)
	}
	e, err := r.tournaments.Register(ctx, member, tour.ID, league.NewEntry{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.tournaments.Register(ctx, member, tour.ID, league.NewEntry{Name: "again"}); league.ErrorCode(err) != league.ECONFLICT {
		t.Fatalf("registering twice: %v, want conflict", err)
	}
	if err := r.tournaments.Withdraw(ctx, outsider, tour.ID, e.ID); league.ErrorCode(err) != league.EFORBIDDEN {
		t.Fatalf("an outsider withdrawing someone's entry: %v", err)
	}
	minePage, err := r.tournaments.ForUser(ctx, member.UserID, league.PageRequest{})
	mine := minePage.Items
	if err != nil || len(mine) != 1 || mine[0].EntryID != e.ID || mine[0].Tournament.ID != tour.ID || mine[0].Tournament.Name != "Open" {
		t.Fatalf("ForUser = %+v, %v; want the one entry", mine, err)
	}
	clPage, err := clubs.UserClubs(ctx, member.UserID, league.PageRequest{})
	cl := clPage.Items
	if err != nil || len(cl) != 1 || cl[0].Role != league.RoleMember || cl[0].Club.ID != r.clubID || cl[0].Club.Name != "Sequence Club" {
		t.Fatalf("UserClubs = %+v, %v", cl, err)
	}
	if _, err := r.tournaments.Schedule(ctx, member, tour.ID, []league.RoundSchedule{{Number: 1, StartsAt: time.Now()}}); league.ErrorCode(err) != league.EFORBIDDEN {
		t.Fatalf("a member scheduling: %v", err)
	}
	// A person's tournaments say how many entries each has and its next round.
	later := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{{Number: 1, StartsAt: later}, {Number: 2, StartsAt: later.Add(time.Hour)}}); err != nil {
		t.Fatal(err)
	}
	if minePage, err = r.tournaments.ForUser(ctx, member.UserID, league.PageRequest{}); err != nil || len(minePage.Items) != 1 {
		t.Fatalf("ForUser after scheduling = %+v, %v", minePage.Items, err)
	}
	if got := minePage.Items[0]; got.Tournament.Entries != 1 || got.NextRound != 1 || got.NextStart == nil || !got.NextStart.Equal(later) {
		t.Fatalf("ForUser: %d entries, next round %d at %v; want 1 entry and round 1 at %v", got.Tournament.Entries, got.NextRound, got.NextStart, later)
	}
}

// openSeason makes a league of the rig's club, named name, with an open
// season "2026", and returns the leagues service and the season.
func (r *tournamentRig) openSeason(t *testing.T, name string) (*Leagues, *league.Season) {
	t.Helper()
	ctx := context.Background()
	leagues := NewLeagues(r.db)
	lg, err := leagues.CreateLeague(ctx, r.organizer, r.clubID, name, "")
	if err != nil {
		t.Fatal(err)
	}
	season, err := leagues.CreateSeason(ctx, r.organizer, lg.ID, "2026")
	if err != nil {
		t.Fatal(err)
	}
	return leagues, season
}

func TestAClosedSeasonIsFrozen(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	leagues, season := r.openSeason(t, "Monday League")
	people := []league.Actor{r.user(t, "p1"), r.user(t, "p2"), r.user(t, "p3")}
	tour, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: r.clubID, SeasonID: season.ID, Name: "Night 1",
		Config: league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin", Clock: league.Clock{TurnSeconds: 1}, AtDeadline: "adjudicate"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range people {
		r.joinClub(t, p)
		if _, err := r.tournaments.Register(ctx, p, tour.ID, league.NewEntry{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := leagues.CloseSeason(ctx, r.organizer, season.ID); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("closing a season with an unfinished tournament: %v", err)
	}
	// Nobody moves: every game is played out by the autopilot and then by
	// fill-in bots; the round robin of three runs to its end.
	running := league.TournamentRunning
	if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &running}); err != nil {
		t.Fatal(err)
	}
	r.waitFinished(t, tour.ID, 4*time.Minute)
	table, err := leagues.CloseSeason(ctx, r.organizer, season.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !table.Frozen || len(table.Rows) != 3 || table.Rows[0].Points < table.Rows[2].Points {
		t.Fatalf("closed season table: %+v", table)
	}
	// A later change to the tournament's results does not reach the table.
	r.db.Gorm.Exec("UPDATE matches SET winner = NULL WHERE tournament_id = ?", tour.ID)
	again, err := leagues.SeasonStandings(ctx, season.ID)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(again.Rows) != fmt.Sprint(table.Rows) {
		t.Fatalf("a frozen table changed:\n%v\n%v", again.Rows, table.Rows)
	}
	if _, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: r.clubID, SeasonID: season.ID, Name: "Late",
		Config: league.TournamentConfig{Game: "sequence", Format: "swiss"}}); league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("a tournament in a closed season: %v", err)
	}
}

func TestAtTheDeadlineUnfinishedGamesAreAdjudicated(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	// Nobody moves on a ten-minute clock; the round's deadline comes first.
	now := time.Now().UTC()
	tour := r.adjudicatedFinal(t, "Deadline", now.Add(time.Second), now.Add(3*time.Second), "p1", "p2")
	r.waitFinished(t, tour.ID, time.Minute)
	rounds, _ := r.tournaments.Rounds(ctx, tour.ID)
	m := rounds[0].Matches[0]
	if m.Status != "finished" || m.Winner == "" || len(m.Games) != 1 {
		t.Fatalf("the final after its deadline: %+v", m)
	}
	v, err := r.games.View(ctx, league.Actor{}, m.Games[0])
	if err != nil {
		t.Fatal(err)
	}
	if v.Game.Status != league.StatusFinished || v.Game.Ply > 2 || v.Game.EndedBy != league.EndedByAdjudication {
		t.Fatalf("game %s at ply %d, ended by %q; want it ended by adjudication, not played out", v.Game.Status, v.Game.Ply, v.Game.EndedBy)
	}
}

func TestThreeTeamKnockoutsPlayShortMatchesAndAdvanceLoneEntries(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		game    string
		entries int
		// first-round matches by the number of entries they hold: a match
		// of two is played as a two-team game, a lone entry advances.
		played, walkovers int
	}{
		{"sequence, 4 entries: 1 and 2 advance, 3 plays 4", "sequence", 4, 1, 2},
		{"sequence, 5 entries: 1 advances, 2 plays 5, 3 plays 4", "sequence", 5, 2, 1},
		{"stacks, 4 entries", "stacks", 4, 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tour := r.botTournament(t, tc.name, league.TournamentConfig{
				Game: tc.game, MatchSize: 3, Format: "single-elimination"}, tc.entries)
			running := league.TournamentRunning
			if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &running}); err != nil {
				t.Fatalf("start: %v", err)
			}
			r.waitFinished(t, tour.ID, 3*time.Minute)
			raw, err := r.tournaments.Bracket(ctx, tour.ID)
			if err != nil {
				t.Fatal(err)
			}
			var b struct {
				Champion string
				Rounds   []struct {
					Matches []struct {
						ID, State string
						Games     []string
						Slots     []struct{ Entry *struct{ ID string } }
					}
				}
			}
			json.Unmarshal(raw, &b)
			if b.Champion == "" || len(b.Rounds) != 2 {
				t.Fatalf("bracket: champion %q, %d rounds; want a champion after 2 rounds: %s", b.Champion, len(b.Rounds), raw)
			}
			played, walkovers := 0, 0
			for _, m := range b.Rounds[0].Matches {
				entries := 0
				for _, s := range m.Slots {
					if s.Entry != nil {
						entries++
					}
				}
				switch {
				case entries == 1 && m.State == string(competition.StateWalkover) && len(m.Games) == 0:
					walkovers++
				case entries == 2 && m.State == string(competition.StateDone) && len(m.Games) > 0:
					played++
					var players, teams int
					r.db.Gorm.Table("games").Select("players").Where("id = ?", m.Games[0]).Scan(&players)
					r.db.Gorm.Table("games").Select("teams").Where("id = ?", m.Games[0]).Scan(&teams)
					if players != 2 || teams != 2 {
						t.Errorf("match %s of two entries played a game of %d players in %d teams, want 2 and 2", m.ID, players, teams)
					}
				default:
					t.Errorf("first-round match %s: %d entries, state %s, %d games", m.ID, entries, m.State, len(m.Games))
				}
			}
			if played != tc.played || walkovers != tc.walkovers {
				t.Errorf("first round: %d played, %d walkovers; want %d and %d", played, walkovers, tc.played, tc.walkovers)
			}
			final := b.Rounds[1].Matches[0]
			if final.State != string(competition.StateDone) || len(final.Slots) != 3 {
				t.Errorf("final: %+v; want three entries, played", final)
			}
		})
	}
}

func TestKnockoutMatchesCountInTheStandingsAndTheSeasonTable(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	running := league.TournamentRunning
	// checkCounts compares every standings row with the stored matches:
	// matches played, won and lost, byes (walkovers) and sequences.
	checkCounts := func(t *testing.T, id string, walkovers map[string]int) []league.StandingRow {
		t.Helper()
		rounds, err := r.tournaments.Rounds(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		type counts struct{ played, wins, losses, byes, sequences int }
		want := map[string]*counts{}
		for _, rd := range rounds {
			for _, m := range rd.Matches {
				for i, e := range m.Entries {
					if want[e] == nil {
						want[e] = &counts{}
					}
					c := want[e]
					c.played++
					if m.Winner == e {
						c.wins++
					} else {
						c.losses++
					}
					c.sequences += m.Sequences[i]
				}
			}
		}
		for e, n := range walkovers {
			if want[e] == nil {
				want[e] = &counts{}
			}
			want[e].byes = n
		}
		st, err := r.tournaments.Standings(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, row := range st {
			total += row.Sequences
			w := want[row.EntryID]
			if w == nil {
				w = &counts{}
			}
			got := counts{row.Played, row.Wins, row.Losses, row.Byes, row.Sequences}
			if got != *w {
				t.Errorf("%s (rank %d): played/wins/losses/byes/sequences = %v, want %v", row.Name, row.Rank, got, *w)
			}
		}
		if total == 0 {
			t.Error("no sequences in the standings; every game played out scores some")
		}
		return st
	}

	t.Run("single elimination of three bots: the top seed's walkover is a bye", func(t *testing.T) {
		tour := r.botTournament(t, "Three bots", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "single-elimination"}, 3)
		if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &running}); err != nil {
			t.Fatal(err)
		}
		r.waitFinished(t, tour.ID, 2*time.Minute)
		raw, _ := r.tournaments.Bracket(ctx, tour.ID)
		var b struct {
			Rounds []struct {
				Matches []struct {
					State  string
					Winner string
				}
			}
		}
		json.Unmarshal(raw, &b)
		walkovers := map[string]int{}
		for _, rd := range b.Rounds {
			for _, m := range rd.Matches {
				if m.State == string(competition.StateWalkover) {
					walkovers[m.Winner]++
				}
			}
		}
		if len(walkovers) != 1 {
			t.Fatalf("walkovers %v, want the top seed's", walkovers)
		}
		st := checkCounts(t, tour.ID, walkovers)
		if st[0].Wins == 0 {
			t.Errorf("champion %+v: want the final won", st[0])
		}
	})

	t.Run("double elimination of four bots", func(t *testing.T) {
		tour := r.botTournament(t, "Four bots", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "double-elimination"}, 4)
		if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &running}); err != nil {
			t.Fatal(err)
		}
		r.waitFinished(t, tour.ID, 2*time.Minute)
		st := checkCounts(t, tour.ID, nil)
		if st[0].Wins < 2 {
			t.Errorf("champion %+v: want at least two wins", st[0])
		}
	})

	t.Run("the season table counts knockout match wins and sequences", func(t *testing.T) {
		leagues := NewLeagues(r.db)
		lg, err := leagues.CreateLeague(ctx, r.organizer, r.clubID, "Cup League", "")
		if err != nil {
			t.Fatal(err)
		}
		season, err := leagues.CreateSeason(ctx, r.organizer, lg.ID, "Cup season")
		if err != nil {
			t.Fatal(err)
		}
		tour, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: r.clubID, SeasonID: season.ID, Name: "Cup",
			Config: league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "single-elimination", Clock: league.Clock{TurnSeconds: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"cup1", "cup2"} {
			p := r.user(t, name)
			r.joinClub(t, p)
			if _, err := r.tournaments.Register(ctx, p, tour.ID, league.NewEntry{}); err != nil {
				t.Fatal(err)
			}
		}
		// Nobody moves: the autopilot, then fill-in bots, play the final out.
		if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &running}); err != nil {
			t.Fatal(err)
		}
		r.waitFinished(t, tour.ID, 4*time.Minute)
		st := checkCounts(t, tour.ID, nil)
		table, err := leagues.SeasonStandings(ctx, season.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(table.Rows) != 2 {
			t.Fatalf("season rows %+v, want two", table.Rows)
		}
		for _, row := range table.Rows {
			var entry league.StandingRow
			for _, s := range st {
				if s.Name == row.Username {
					entry = s
				}
			}
			if row.MatchWins != entry.Wins || row.Sequences != entry.Sequences {
				t.Errorf("season row %+v; want match wins %d and sequences %d as in the tournament", row, entry.Wins, entry.Sequences)
			}
		}
		if table.Rows[0].MatchWins != 1 {
			t.Errorf("season leader %+v: want the final's win counted", table.Rows[0])
		}
	})
}

// syncBuffer is a log sink the workers and the test may share.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestARoundThatCannotStartEndsItsTaskWithAnErrorLogged(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	var logs syncBuffer
	r.tournaments.logger = slog.New(slog.NewTextHandler(&logs, nil))
	tour := r.botTournament(t, "Unstartable", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "single-elimination"}, 2)
	// Round 1 is due (written without its task; the test runs the task).
	if err := r.db.Gorm.Exec(`INSERT INTO rounds (tournament_id, number, starts_at) VALUES (?, 1, now() - interval '1 second')`, tour.ID).Error; err != nil {
		t.Fatal(err)
	}
	// A tournament stored before its clock was checked at creation: both a
	// turn clock and a bank, which the game layer refuses.
	if err := r.db.Gorm.Exec(`UPDATE tournaments SET config = jsonb_set(config, '{Clock}', '{"TurnSeconds":10,"BankSeconds":10,"IncrementSeconds":0}') WHERE id = ?`, tour.ID).Error; err != nil {
		t.Fatal(err)
	}
	if err := r.tournaments.StartRound(ctx, tour.ID, 1); err != nil {
		t.Fatalf("StartRound = %v; want the task ended (nil): a retry cannot help", err)
	}
	line := logs.String()
	if !strings.Contains(line, "level=ERROR") || !strings.Contains(line, "cannot start") || !strings.Contains(line, tour.ID) || !strings.Contains(line, "round=1") {
		t.Errorf("log %q; want an error naming the tournament and the round", line)
	}
	got, err := r.tournaments.Get(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != league.TournamentRegistration || got.CurrentRound != 0 {
		t.Errorf("tournament %s at round %d; want it left in registration, nothing kept", got.Status, got.CurrentRound)
	}
	// The organizer sees why beside the round, until it is scheduled again.
	rounds, err := r.tournaments.Rounds(ctx, tour.ID)
	if err != nil || len(rounds) != 1 {
		t.Fatalf("rounds = %+v, %v; want the one round", rounds, err)
	}
	if !strings.Contains(rounds[0].StartError, "clock") || rounds[0].Status != "scheduled" {
		t.Errorf("round 1: %s, start error %q; want it scheduled, saying the clock is at fault", rounds[0].Status, rounds[0].StartError)
	}
	if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{{Number: 1, StartsAt: time.Now().Add(time.Hour)}}); err != nil {
		t.Fatal(err)
	}
	if rounds, _ = r.tournaments.Rounds(ctx, tour.ID); rounds[0].StartError != "" {
		t.Errorf("start error after scheduling again: %q; want none", rounds[0].StartError)
	}
}

// Starting a tournament its entries do not allow says why in words an
// organizer reads, not with the competition package's error prefix.
func TestATournamentThatCannotStartSaysWhyPlainly(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Empty", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin"}, 0)
	running := league.TournamentRunning
	_, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &running})
	if league.ErrorCode(err) != league.EPRECONDITION {
		t.Fatalf("starting with no entries: %v; want a precondition failure", err)
	}
	const want = "the tournament cannot start with 0 entries: matches of 2 teams need at least 2 entries"
	var e *league.Error
	if !errors.As(err, &e) || e.Message != want {
		t.Errorf("error %v, want the message %q", err, want)
	}
}

// Entries are seeded by their members' ratings in the tournament's pool
// when it starts: a bot by its level's account (not a flat 1500), and a
// person by their rating then, not on the day they registered.
func TestEntriesAreSeededByTodaysRatingsBotsIncluded(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	setRating := func(userID string, value float64) {
		t.Helper()
		if err := r.db.Gorm.Exec(`INSERT INTO ratings (user_id, pool, rating, games, peak) VALUES (?, ?, ?, 40, ?)
			ON CONFLICT (user_id, pool) DO UPDATE SET rating = EXCLUDED.rating`, userID, rating.PoolSequence2, value, value).Error; err != nil {
			t.Fatal(err)
		}
	}
	for level, value := range map[string]float64{"greedy": 1700, "random": 1300} {
		id, err := botUserID(r.db.Gorm, level)
		if err != nil || id == "" {
			t.Fatalf("the %s bot's account: %q, %v", level, id, err)
		}
		setRating(id, value)
	}
	tour := r.botTournament(t, "Seeded", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "single-elimination", Seeding: "rating"}, 2)
	ann := r.user(t, "ann")
	r.joinClub(t, ann)
	if _, err := r.tournaments.Register(ctx, ann, tour.ID, league.NewEntry{Members: []league.EntryMember{{UserID: ann.UserID}}}); err != nil {
		t.Fatal(err)
	}
	ratings := func() map[string]float64 {
		t.Helper()
		entries, err := loadEntries(r.db.Gorm, tour.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]float64{}
		for _, e := range entries {
			out[e.Name] = e.Rating
		}
		return out
	}
	if got := ratings(); got["bot-00"] != 1300 || got["bot-01"] != 1700 || got["ann"] != rating.InitialRating {
		t.Fatalf("entry ratings at registration = %v; want the bots' own (random 1300, greedy 1700) and ann's 1500", got)
	}
	setRating(ann.UserID, 1800) // ann wins games elsewhere before the start
	running := league.TournamentRunning
	if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Status: &running}); err != nil {
		t.Fatal(err)
	}
	if got := ratings(); got["ann"] != 1800 || got["bot-01"] != 1700 || got["bot-00"] != 1300 {
		t.Fatalf("entry ratings at the start = %v; want ann 1800, greedy 1700, random 1300", got)
	}
}

// A Stacks tournament ranks on no sequences by default: Stacks makes none,
// and its standings showed a tie-break column of zeros. A Sequence round
// robin keeps them.
func TestStacksStandingsBreakNoTieOnSequences(t *testing.T) {
	for _, c := range []struct {
		game string
		want bool
	}{{league.GameStacks, false}, {league.GameSequence, true}} {
		for _, f := range []string{"round-robin", "groups-playoffs"} {
			cc := competitionConfig(league.TournamentConfig{Game: c.game, Format: f})
			tbs := cc.TieBreaks
			if tbs == nil {
				tbs = competition.DefaultTieBreaks(cc.Format)
			}
			if got := slices.Contains(tbs, competition.TieSequences); got != c.want {
				t.Errorf("%s %s: tie-breaks %v, sequences among them %v; want %v", c.game, f, tbs, got, c.want)
			}
		}
	}
}
