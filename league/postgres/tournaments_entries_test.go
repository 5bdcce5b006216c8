package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
)

// joinClub makes a a plain member of the rig's club.
func (r *tournamentRig) joinClub(t *testing.T, a league.Actor) {
	t.Helper()
	if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')", r.clubID, a.UserID).Error; err != nil {
		t.Fatal(err)
	}
}

func (r *tournamentRig) pairsTournament(t *testing.T) *league.Tournament {
	t.Helper()
	tour, err := r.tournaments.Create(context.Background(), r.organizer, league.NewTournament{ClubID: r.clubID, Name: "Pairs",
		Config: league.TournamentConfig{Game: "sequence", MatchSize: 2, TeamSize: 2, Format: "round-robin"}})
	if err != nil {
		t.Fatal(err)
	}
	return tour
}

func TestOnlyClubMembersEnterAndAnyPlayerMayWithdraw(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	eve, hank, ivy := r.user(t, "eve"), r.user(t, "hank"), r.user(t, "ivy")
	r.joinClub(t, eve)
	r.joinClub(t, ivy)
	tour := r.pairsTournament(t)

	_, err := r.tournaments.Register(ctx, eve, tour.ID, league.NewEntry{Name: "EH",
		Members: []league.EntryMember{{UserID: eve.UserID}, {UserID: hank.UserID}}})
	var fe *league.Error
	if league.ErrorCode(err) != league.EINVALID || !errors.As(err, &fe) || len(fe.Fields) != 1 || fe.Fields[0].Field != "members[1].user" {
		t.Fatalf("a captain naming a non-member: %#v, want invalid members[1].user", err)
	}

	_, err = r.tournaments.Register(ctx, eve, tour.ID, league.NewEntry{Name: "E", Members: []league.EntryMember{{UserID: eve.UserID}}})
	if !errors.As(err, &fe) || len(fe.Fields) != 1 || fe.Fields[0].Field != "members" || fe.Fields[0].Message != "an entry has 2 players, not 1" {
		t.Fatalf("an entry of one in a tournament of pairs: %v, want members: an entry has 2 players, not 1", err)
	}

	e, err := r.tournaments.Register(ctx, eve, tour.ID, league.NewEntry{Name: "EI",
		Members: []league.EntryMember{{UserID: eve.UserID}, {UserID: ivy.UserID}}})
	if err != nil {
		t.Fatalf("a captain naming a club member: %v", err)
	}
	// Someone outside the club enters none of its tournaments, alone or
	// naming members into a team.
	for _, members := range [][]league.EntryMember{nil, {{UserID: hank.UserID}, {UserID: ivy.UserID}}} {
		if _, err := r.tournaments.Register(ctx, hank, tour.ID, league.NewEntry{Name: "H", Members: members}); league.ErrorCode(err) != league.EFORBIDDEN {
			t.Fatalf("a non-member entering with %v: %v, want forbidden", members, err)
		}
	}
	if err := r.tournaments.Withdraw(ctx, hank, tour.ID, e.ID); league.ErrorCode(err) != league.EFORBIDDEN {
		t.Fatalf("someone outside the entry withdrawing it: %v, want forbidden", err)
	}
	if err := r.tournaments.Withdraw(ctx, ivy, tour.ID, e.ID); err != nil {
		t.Fatalf("a named player withdrawing the entry: %v", err)
	}

	// Organizers enter members and bots, but not someone who never joined
	// the club: a stranger's name in a rated tournament with a short clock
	// would be rated as abandoning games never chosen.
	_, err = r.tournaments.Register(ctx, r.organizer, tour.ID, league.NewEntry{Name: "HB",
		Members: []league.EntryMember{{UserID: hank.UserID}, {Bot: "random"}}})
	if !errors.As(err, &fe) || fe.Code != league.EINVALID || len(fe.Fields) != 1 || fe.Fields[0].Field != "members[0].user" {
		t.Fatalf("an organizer entering a non-member: %v, want invalid members[0].user", err)
	}
	if _, err := r.tournaments.Register(ctx, r.organizer, tour.ID, league.NewEntry{Name: "IB",
		Members: []league.EntryMember{{UserID: ivy.UserID}, {Bot: "random"}}}); err != nil {
		t.Fatalf("an organizer entering a member with a bot: %v", err)
	}
}

func TestNameLimitsCountCharactersNotBytes(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: r.clubID, Name: strings.Repeat("é", 100),
		Config: league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin"}})
	if err != nil {
		t.Fatalf("a tournament name of 100 two-byte characters: %v", err)
	}
	renamed := strings.Repeat("é", 51)
	if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Name: &renamed}); err != nil {
		t.Fatalf("renaming to 51 two-byte characters: %v", err)
	}
	tooLong := strings.Repeat("é", 101)
	if _, err := r.tournaments.Update(ctx, r.organizer, tour.ID, league.TournamentUpdate{Name: &tooLong}); league.ErrorCode(err) != league.EINVALID {
		t.Fatalf("renaming to 101 characters: %v, want invalid", err)
	}
	if _, err := r.tournaments.Register(ctx, r.organizer, tour.ID, league.NewEntry{Name: strings.Repeat("é", 60)}); err != nil {
		t.Fatalf("an entry name of 60 two-byte characters: %v", err)
	}
	if _, err := r.tournaments.Register(ctx, r.organizer, tour.ID, league.NewEntry{Name: strings.Repeat("é", 61),
		Members: []league.EntryMember{{Bot: "random"}}}); league.ErrorCode(err) != league.EINVALID {
		t.Fatalf("an entry name of 61 characters: %v, want invalid", err)
	}
}

// A player whose entry withdrew from a running Swiss still finds the
// tournament among theirs, said withdrawn, with no next round: it read
// "round 2" on their home page as if they were still in it.
func TestAWithdrawnEntryHasNoNextRound(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour := r.botTournament(t, "Swiss", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "swiss", Rounds: 3}, 3)
	ann := r.user(t, "ann")
	r.joinClub(t, ann)
	e, err := r.tournaments.Register(ctx, ann, tour.ID, league.NewEntry{})
	if err != nil {
		t.Fatal(err)
	}
	r.scheduleRoundOneOnly(t, tour.ID)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		if rounds, err := r.tournaments.Rounds(ctx, tour.ID); err == nil && len(rounds) > 0 && rounds[0].StartedAt != nil {
			break // ann's game is on: she never moves in it, and need not
		}
		if time.Now().After(deadline) {
			t.Fatal("round 1 did not start within a minute")
		}
	}
	mine := func() league.UserTournament {
		t.Helper()
		page, err := r.tournaments.ForUser(ctx, ann.UserID, league.PageRequest{})
		if err != nil || len(page.Items) != 1 {
			t.Fatalf("ann's tournaments: %+v, %v; want the Swiss", page.Items, err)
		}
		return page.Items[0]
	}
	if got := mine(); got.Withdrawn || got.NextRound != 2 {
		t.Fatalf("before withdrawing: withdrawn %v, next round %d; want in, with round 2 next", got.Withdrawn, got.NextRound)
	}
	if err := r.tournaments.Withdraw(ctx, ann, tour.ID, e.ID); err != nil {
		t.Fatal(err)
	}
	if got := mine(); !got.Withdrawn || got.NextRound != 0 || got.NextStart != nil {
		t.Fatalf("after withdrawing: withdrawn %v, next round %d at %v; want withdrawn, with no next round", got.Withdrawn, got.NextRound, got.NextStart)
	}
}

// TestBotEntriesAreNumberedNotSuffixed: an organizer's bot entries without
// a name are called after their level, the second of a level numbered
// ("Bot greedy", "Bot greedy 2"), not given a random suffix ("Bot greedy
// 6dqo") to read in the entries, the bracket and the standings; the first
// free number is taken (a withdrawn entry's name is free again), a name
// taken in any case is skipped, and registrations at once still get one
// name each (they are made under the tournament's row lock).
func TestBotEntriesAreNumberedNotSuffixed(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	tour, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: r.clubID, Name: "Bots",
		Config: league.TournamentConfig{Game: "sequence", Format: "swiss"}})
	if err != nil {
		t.Fatal(err)
	}
	bot := func(level, name string) *league.Entry {
		t.Helper()
		e, err := r.tournaments.Register(ctx, r.organizer, tour.ID, league.NewEntry{Name: name, Members: []league.EntryMember{{Bot: level}}})
		if err != nil {
			t.Fatalf("entering a %s bot: %v", level, err)
		}
		return e
	}
	var got []string
	for _, level := range []string{"greedy", "greedy", "random", "greedy"} {
		got = append(got, bot(level, "").Name)
	}
	if want := []string{"Bot greedy", "Bot greedy 2", "Bot random", "Bot greedy 3"}; !slices.Equal(got, want) {
		t.Fatalf("bot entries named %q; want %q", got, want)
	}
	second := got[1]
	entries, err := r.tournaments.Entries(ctx, tour.ID, league.PageRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries.Items {
		if e.Name == second {
			if err := r.tournaments.Withdraw(ctx, r.organizer, tour.ID, e.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	if e := bot("greedy", ""); e.Name != "Bot greedy 2" {
		t.Errorf("a greedy bot after Bot greedy 2 was removed: %q; want the name free again", e.Name)
	}
	bot("strong", "BOT STRONG") // an organizer's own name, in another case
	if e := bot("strong", ""); e.Name != "Bot strong 2" {
		t.Errorf("a strong bot after an entry named BOT STRONG: %q; want Bot strong 2", e.Name)
	}

	const n = 8
	names := make(chan string, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e, err := r.tournaments.Register(ctx, r.organizer, tour.ID, league.NewEntry{Members: []league.EntryMember{{Bot: "random"}}})
			if err != nil {
				t.Errorf("a random bot entered at once with others: %v", err)
				return
			}
			names <- e.Name
		}()
	}
	wg.Wait()
	close(names)
	var random []string
	for name := range names {
		random = append(random, name)
	}
	slices.Sort(random)
	want := []string{"Bot random 2", "Bot random 3", "Bot random 4", "Bot random 5", "Bot random 6", "Bot random 7", "Bot random 8", "Bot random 9"}
	if !slices.Equal(random, want) {
		t.Errorf("random bots entered at once: %q; want %q", random, want)
	}
}

// Only members enter a club's tournaments, so leaving the club, or being
// removed from it, takes one's entries out of its tournaments still taking
// entries (a pair's entry too: a pair with someone outside the club could
// not have entered); they were kept, and the tournament started with
// someone from outside the club in it. Other clubs' tournaments, and the
// club's tournaments under way, keep their entries.
func TestLeavingAClubWithdrawsItsEntriesBeforeTheStart(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	open, people := r.peopleTournament(t, "Open", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin"}, "gina", "hank", "ivy")
	gina, hank, ivy := people[0], people[1], people[2]
	pairs := r.pairsTournament(t)
	if _, err := r.tournaments.Register(ctx, hank, pairs.ID, league.NewEntry{Members: []league.EntryMember{{UserID: hank.UserID}, {UserID: ivy.UserID}}}); err != nil {
		t.Fatal(err)
	}
	running := r.botTournament(t, "Under way", league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin"}, 1)
	if _, err := r.tournaments.Register(ctx, gina, running.ID, league.NewEntry{}); err != nil {
		t.Fatal(err)
	}
	status := league.TournamentRunning
	if _, err := r.tournaments.Update(ctx, r.organizer, running.ID, league.TournamentUpdate{Status: &status}); err != nil {
		t.Fatal(err)
	}
	clubs := NewClubs(r.db)
	other, err := clubs.Create(ctx, r.organizer, league.NewClub{Name: "Other Club"})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')", other.ID, gina.UserID).Error; err != nil {
		t.Fatal(err)
	}
	elsewhere, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: other.ID, Name: "Elsewhere",
		Config: league.TournamentConfig{Game: "sequence", MatchSize: 2, Format: "round-robin"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.tournaments.Register(ctx, gina, elsewhere.ID, league.NewEntry{}); err != nil {
		t.Fatal(err)
	}
	entered := func(tourID string) []string {
		t.Helper()
		page, err := r.tournaments.Entries(ctx, tourID, league.PageRequest{})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range page.Items {
			names = append(names, e.Name+" "+e.Status)
		}
		return names
	}

	if err := clubs.Leave(ctx, gina, r.clubID); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(entered(open.ID)); got != "[hank active ivy active]" {
		t.Errorf("Open after gina left the club: %s, want hank's and ivy's entries only", got)
	}
	if got := fmt.Sprint(entered(elsewhere.ID)); got != "[gina active]" {
		t.Errorf("the other club's tournament after gina left the first: %s, want her entry kept", got)
	}
	if got := fmt.Sprint(entered(running.ID)); !strings.Contains(got, "gina active") {
		t.Errorf("the tournament under way after gina left the club: %s, want her entry playing on", got)
	}

	if err := clubs.RemoveMember(ctx, r.organizer, r.clubID, ivy.UserID); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(entered(open.ID)); got != "[hank active]" {
		t.Errorf("Open after ivy was removed from the club: %s, want hank's entry only", got)
	}
	if got := entered(pairs.ID); len(got) != 0 {
		t.Errorf("Pairs after ivy was removed from the club: %v, want hank and ivy's entry gone", got)
	}
}

// A site admin may organize every club's tournaments without being a
// member, and so was let past the membership check for himself: root,
// outside the club, entered its tournament as a player (the security
// audit: POST /tournaments/{id}/entries {} by an admin was a 201), where
// anyone else outside the club enters none. Whoever enters them, the
// players entered are the club's members; an admin still enters members
// and bots.
func TestASiteAdminOutsideTheClubEntersNoneOfItsTournamentsAsAPlayer(t *testing.T) {
	r := newTournamentRig(t)
	ctx := context.Background()
	ivy := r.user(t, "ivy")
	r.joinClub(t, ivy)
	root := r.user(t, "root")
	if err := r.db.Gorm.Exec("UPDATE users SET is_admin = true WHERE id = ?", root.UserID).Error; err != nil {
		t.Fatal(err)
	}
	root.IsAdmin = true
	tour := r.pairsTournament(t)
	for _, members := range [][]league.EntryMember{nil, {{UserID: root.UserID}, {UserID: ivy.UserID}}, {{UserID: root.UserID}, {Bot: "random"}}} {
		if _, err := r.tournaments.Register(ctx, root, tour.ID, league.NewEntry{Members: members}); league.ErrorCode(err) != league.EFORBIDDEN {
			t.Fatalf("a site admin outside the club entering himself with %v: %v, want forbidden", members, err)
		}
	}
	singles, err := r.tournaments.Create(ctx, r.organizer, league.NewTournament{ClubID: r.clubID, Name: "Singles",
		Config: league.TournamentConfig{Game: "sequence", MatchSize: 2, TeamSize: 1, Format: "round-robin"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.tournaments.Register(ctx, root, singles.ID, league.NewEntry{}); league.ErrorCode(err) != league.EFORBIDDEN {
		t.Fatalf("a site admin outside the club entering himself alone: %v, want forbidden", err)
	}
	var n int64
	if err := r.db.Gorm.Table("entry_members").Where("user_id = ?", root.UserID).Count(&n).Error; err != nil || n != 0 {
		t.Fatalf("root is in %d entries (%v), want none", n, err)
	}
	// Organizing stays his: he enters members and bots.
	if _, err := r.tournaments.Register(ctx, root, tour.ID, league.NewEntry{Name: "IB",
		Members: []league.EntryMember{{UserID: ivy.UserID}, {Bot: "random"}}}); err != nil {
		t.Fatalf("a site admin entering a member with a bot: %v", err)
	}
	if _, err := r.tournaments.Register(ctx, root, singles.ID, league.NewEntry{Members: []league.EntryMember{{Bot: "greedy"}}}); err != nil {
		t.Fatalf("a site admin entering a bot: %v", err)
	}
}
