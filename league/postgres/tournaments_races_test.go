package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/competition"
)

// Entries and withdrawals racing the start of a tournament, which two
// organizers and the round's own task all ask for at once: the tournament
// starts once, every entry answered yes is in it and paired in round 1
// exactly once, every one answered no (registration closed) left nothing,
// a withdrawal answered yes is gone from the pairing if it came before the
// start (and marked withdrawn after its pairing if after), and
// no round-1 match has more than one game per game of its series.
func TestEntriesAndWithdrawalsRacingTheStartEndInOnePairing(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	second := r.user(t, "second organizer")
	if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'organizer')", r.clubID, second.UserID).Error; err != nil {
		t.Fatal(err)
	}
	for round := range 4 {
		tour, early := r.peopleTournament(t, fmt.Sprintf("Race %d", round),
			league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin"},
			fmt.Sprintf("a%d", round), fmt.Sprintf("b%d", round), fmt.Sprintf("c%d", round), fmt.Sprintf("d%d", round))
		entryOf := r.entriesByCaptain(t, tour.ID)
		var late []league.Actor
		for i := range 8 {
			p := r.user(t, fmt.Sprintf("late%d-%d", round, i))
			r.joinClub(t, p)
			late = append(late, p)
		}
		running := league.TournamentRunning
		racers := map[string]func() error{}
		for i, org := range []league.Actor{r.organizer, second, r.organizer} {
			racers[fmt.Sprintf("start %d", i)] = func() error {
				_, err := r.tournaments.Update(ctx, org, tour.ID, league.TournamentUpdate{Status: &running})
				return err
			}
		}
		for i := range 2 {
			racers[fmt.Sprintf("round task %d", i)] = func() error { return r.tournaments.StartRound(ctx, tour.ID, 1) }
		}
		for i, p := range late {
			racers[fmt.Sprintf("late %d", i)] = func() error {
				_, err := r.tournaments.Register(ctx, p, tour.ID, league.NewEntry{})
				return err
			}
		}
		for i, p := range early[:2] {
			racers[fmt.Sprintf("withdraw %d", i)] = func() error { return r.tournaments.Withdraw(ctx, p, tour.ID, entryOf[p.UserID]) }
		}
		got := race(racers)
		wantRefusals(t, round, got, league.EPRECONDITION)
		for i := range 3 {
			if err := got[fmt.Sprintf("start %d", i)]; err != nil {
				t.Fatalf("round %d: start %d: %v", round, i, err)
			}
		}
		after, err := r.tournaments.Get(ctx, tour.ID)
		if err != nil || after.Status != league.TournamentRunning {
			t.Fatalf("round %d: tournament %+v, %v; want it running", round, after, err)
		}
		entries := r.entriesByCaptain(t, tour.ID)
		want := map[string]bool{} // entries that must be paired
		for i, p := range late {
			_, in := entries[p.UserID]
			if (got[fmt.Sprintf("late %d", i)] == nil) != in {
				t.Fatalf("round %d: late %d's entry answered %v, entered: %v", round, i, got[fmt.Sprintf("late %d", i)], in)
			}
			if in {
				want[entries[p.UserID]] = true
			}
		}
		for i, p := range early {
			withdrawn := i < 2 && got[fmt.Sprintf("withdraw %d", i)] == nil
			var status string
			if err := r.db.Gorm.Raw("SELECT COALESCE((SELECT status FROM entries WHERE id = ?), 'gone')", entryOf[p.UserID]).Scan(&status).Error; err != nil {
				t.Fatal(err)
			}
			// Withdrawn before the start, an entry is gone; after it (a
			// round robin's), it is marked withdrawn, and was paired.
			switch {
			case !withdrawn && status != "active":
				t.Fatalf("round %d: early %d's entry is %s; want it active", round, i, status)
			case withdrawn && status == "active":
				t.Fatalf("round %d: early %d's withdrawal answered yes, entry still active", round, i)
			case status != "gone":
				want[entryOf[p.UserID]] = true
			}
		}
		var matches []matchRow
		if err := r.db.Gorm.Where("tournament_id = ? AND round = 1", tour.ID).Find(&matches).Error; err != nil {
			t.Fatal(err)
		}
		paired := map[string]int{}
		for _, m := range matches {
			for _, e := range m.entries() {
				paired[e]++
			}
			var games int64
			if err := r.db.Gorm.Table("games").Where("tournament_id = ? AND match_id = ?", tour.ID, m.ID).Count(&games).Error; err != nil {
				t.Fatal(err)
			}
			if m.Bye && games != 0 || !m.Bye && games != 1 {
				t.Fatalf("round %d: match %s (bye %v) has %d games", round, m.ID, m.Bye, games)
			}
		}
		for e, n := range paired {
			if n != 1 || !want[e] {
				t.Fatalf("round %d: entry %s paired %d times in round 1 (entered: %v)", round, e, n, want[e])
			}
		}
		if len(paired) != len(want) {
			t.Fatalf("round %d: %d entries paired in round 1, %d in the tournament", round, len(paired), len(want))
		}
	}
}

// entriesByCaptain maps each entry's captain to the entry, withdrawn ones
// too, however many there are.
func (r *tournamentRig) entriesByCaptain(t *testing.T, id string) map[string]string {
	t.Helper()
	var rows []entryRow
	if err := r.db.Gorm.Where("tournament_id = ?", id).Find(&rows).Error; err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range rows {
		if e.CaptainID != nil {
			out[*e.CaptainID] = e.ID
		}
	}
	return out
}

// Two organizers moving round 1 to later times while its start task runs
// (its time has come): either the round starts and both moves are refused
// (409: already paired), or a move comes first and the task finds the round
// not due and comes back at its new time; never a round paired and then
// moved, nor both moves lost.
func TestOrganizersMovingARoundRacingItsStartEitherStartOrMoveIt(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	second := r.user(t, "second organizer")
	if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'organizer')", r.clubID, second.UserID).Error; err != nil {
		t.Fatal(err)
	}
	for round := range 6 {
		tour, _ := r.peopleTournament(t, fmt.Sprintf("Moved %d", round),
			league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin"},
			fmt.Sprintf("a%d", round), fmt.Sprintf("b%d", round), fmt.Sprintf("c%d", round), fmt.Sprintf("d%d", round))
		later := []time.Time{time.Now().UTC().Add(time.Hour).Truncate(time.Second), time.Now().UTC().Add(2 * time.Hour).Truncate(time.Second)}
		if _, err := r.tournaments.Schedule(ctx, r.organizer, tour.ID, []league.RoundSchedule{{Number: 1, StartsAt: later[0]}}); err != nil {
			t.Fatal(err)
		}
		if err := r.db.Gorm.Exec("UPDATE rounds SET starts_at = now() - interval '1 second' WHERE tournament_id = ?", tour.ID).Error; err != nil {
			t.Fatal(err)
		}
		racers := map[string]func() error{}
		for i, org := range []league.Actor{r.organizer, second} {
			racers[fmt.Sprintf("move %d", i)] = func() error {
				_, err := r.tournaments.Schedule(ctx, org, tour.ID, []league.RoundSchedule{{Number: 1, StartsAt: later[i]}})
				return err
			}
		}
		for i := range 2 {
			racers[fmt.Sprintf("task %d", i)] = func() error {
				err := r.tournaments.StartRound(ctx, tour.ID, 1)
				var notYet *league.NotYet
				if errors.As(err, &notYet) {
					if !slices.ContainsFunc(later, notYet.At.Equal) {
						return fmt.Errorf("comes back at %v, no time asked for", notYet.At)
					}
					return nil
				}
				return err
			}
		}
		got := race(racers)
		wantRefusals(t, round, got, league.ECONFLICT)
		var rd roundRow
		if err := r.db.Gorm.Where("tournament_id = ? AND number = 1", tour.ID).Take(&rd).Error; err != nil {
			t.Fatal(err)
		}
		moved := 0
		for i := range 2 {
			if got[fmt.Sprintf("move %d", i)] == nil {
				moved++
			}
		}
		switch {
		case rd.PairedAt != nil && moved > 0:
			t.Fatalf("round %d: round 1 paired and moved %d times (%v)", round, moved, got)
		case rd.PairedAt == nil && (moved == 0 || !slices.ContainsFunc(later, rd.StartsAt.Equal)):
			t.Fatalf("round %d: round 1 neither paired nor moved: starts %v (%v)", round, rd.StartsAt, got)
		}
	}
}

// A tournament created in a season as the season closes is either in it
// before the close, which then refuses (a tournament of the season is not
// over), or refused (the season is closed): a closed season never gets a
// tournament whose results its frozen table leaves out. Before, the
// creation read the season as open, waited for the close on the season's
// row (its reference to it) and was stored after it.
func TestATournamentCreatedAsItsSeasonClosesIsNotLeftOutOfIt(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	for round := range 10 {
		leagues, season := r.openSeason(t, fmt.Sprintf("League %d", round))
		got := race(map[string]func() error{
			"create": func() error {
				_, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: r.clubID, SeasonID: season.ID, Name: "Night",
					Config: league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin"}})
				return err
			},
			"close": func() error { _, err := leagues.CloseSeason(ctx, r.organizer, season.ID); return err },
		})
		wantRefusals(t, round, got, league.EPRECONDITION)
		if (got["create"] == nil) == (got["close"] == nil) {
			t.Fatalf("round %d: create %v, close %v; want exactly one done", round, got["create"], got["close"])
		}
	}
}

// The last places of a tournament taken by eight members at once: as many
// get in as there are places, the others are told it is full (422), and
// the tournament never holds more entries than it can start with.
func TestTheLastPlacesOfATournamentRacedForFillItExactly(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: r.clubID, Name: "Packed",
		Config: league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "swiss", Rounds: 3}})
	if err != nil {
		t.Fatal(err)
	}
	// All but two places taken by bots, stored at once.
	if err := r.db.Gorm.Exec(`INSERT INTO entries (tournament_id, name, seed, rating, status, created_at)
		SELECT ?, 'bot ' || n, 0, 1500, 'active', now() FROM generate_series(1, ?) AS n`, tour.ID, competition.MaxEntries-2).Error; err != nil {
		t.Fatal(err)
	}
	racers := map[string]func() error{}
	for i := range 8 {
		p := r.user(t, fmt.Sprintf("late%d", i))
		r.joinClub(t, p)
		racers[p.UserID] = func() error { _, err := r.tournaments.Register(ctx, p, tour.ID, league.NewEntry{}); return err }
	}
	got := race(racers)
	wantRefusals(t, 0, got, league.EPRECONDITION)
	in := 0
	for _, err := range got {
		if err == nil {
			in++
		}
	}
	var entries int64
	if err := r.db.Gorm.Model(&entryRow{}).Where("tournament_id = ?", tour.ID).Count(&entries).Error; err != nil {
		t.Fatal(err)
	}
	if in != 2 || entries != competition.MaxEntries {
		t.Fatalf("%d of 8 got the last 2 places; the tournament has %d entries, the most is %d", in, entries, competition.MaxEntries)
	}
}
