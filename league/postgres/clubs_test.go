package postgres

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seqleague/seqleague/league"
)

// joinWithInvite makes an invite as by and has each of people join with it.
func (s *authStore) joinWithInvite(t *testing.T, by league.Actor, clubID string, people ...league.Actor) {
	t.Helper()
	ctx := context.Background()
	inv, err := s.clubs.CreateInvite(ctx, by, clubID, league.NewInvite{MaxUses: len(people)})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range people {
		if _, err := s.clubs.Join(ctx, p, clubID, inv.Code); err != nil {
			t.Fatal(err)
		}
	}
}

func TestOwnershipTransfersToAMemberAndOnlyThenMayTheOwnerLeave(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	ann, bob, cat := s.register(t, "ann"), s.register(t, "bob"), s.register(t, "cat")
	club, err := s.clubs.Create(ctx, ann, league.NewClub{Name: "Corner Club", Description: "Thursdays"})
	if err != nil {
		t.Fatal(err)
	}
	if club.OwnerID != ann.UserID || club.MemberCount != 1 {
		t.Fatalf("new club = %+v, want owner ann and one member", club)
	}
	s.joinWithInvite(t, ann, club.ID, bob)
	wantCode(t, s.clubs.Leave(ctx, ann, club.ID), league.EPRECONDITION)

	_, err = s.clubs.Update(ctx, ann, club.ID, league.ClubUpdate{OwnerID: &cat.UserID})
	wantCode(t, err, league.EINVALID) // cat is no member
	_, err = s.clubs.Update(ctx, bob, club.ID, league.ClubUpdate{OwnerID: &bob.UserID})
	wantCode(t, err, league.EFORBIDDEN)

	club, err = s.clubs.Update(ctx, ann, club.ID, league.ClubUpdate{OwnerID: &bob.UserID})
	if err != nil || club.OwnerID != bob.UserID {
		t.Fatalf("transfer = %+v, %v; want bob the owner", club, err)
	}
	if role, _ := s.clubs.ClubRole(ctx, ann, club.ID); role != league.RoleOrganizer {
		t.Errorf("old owner's role = %q, want organizer", role)
	}
	wantCode(t, s.clubs.Leave(ctx, bob, club.ID), league.EPRECONDITION)
	if err := s.clubs.Leave(ctx, ann, club.ID); err != nil {
		t.Fatalf("old owner leaving: %v", err)
	}
	wantCode(t, s.clubs.Leave(ctx, ann, club.ID), league.ENOTFOUND)
}

func TestClubNamesAreUniqueWithoutRegardToCase(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	ann := s.register(t, "ann")
	if _, err := s.clubs.Create(ctx, ann, league.NewClub{Name: "Corner Club"}); err != nil {
		t.Fatal(err)
	}
	_, err := s.clubs.Create(ctx, ann, league.NewClub{Name: "  corner CLUB "})
	wantCode(t, err, league.ECONFLICT)
	if n := s.count(t, "club_members"); n != 1 {
		t.Fatalf("club_members = %d after a refused club, want 1", n)
	}
	other, _ := s.clubs.Create(ctx, ann, league.NewClub{Name: "Other"})
	name := "CORNER club"
	_, err = s.clubs.Update(ctx, ann, other.ID, league.ClubUpdate{Name: &name})
	wantCode(t, err, league.ECONFLICT)
}

func TestClubListPagesInNameOrderAndSearchesLiterally(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	ann := s.register(t, "ann")
	names := []string{"delta", "Alpha", "charlie", "Bravo", "echo 100%", "foxtrot_x", "foxtrotyx"}
	for _, n := range names {
		if _, err := s.clubs.Create(ctx, ann, league.NewClub{Name: n}); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("pagination does not end")
		}
		page, err := s.clubs.List(ctx, league.Actor{}, league.ClubFilter{Page: league.PageRequest{Limit: 3, Cursor: cursor}})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range page.Items {
			got = append(got, c.Name)
		}
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	want := []string{"Alpha", "Bravo", "charlie", "delta", "echo 100%", "foxtrot_x", "foxtrotyx"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paged names (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"%", []string{"echo 100%"}},
		{"t_x", []string{"foxtrot_x"}},
		{"ALPHA", []string{"Alpha"}},
		{"' OR 1=1 --", nil},
	} {
		page, err := s.clubs.List(ctx, league.Actor{}, league.ClubFilter{Query: tc.q})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range page.Items {
			got = append(got, c.Name)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("q=%q (-want +got):\n%s", tc.q, diff)
		}
	}
	_, err := s.clubs.List(ctx, league.Actor{}, league.ClubFilter{Page: league.PageRequest{Cursor: "not a cursor"}})
	wantCode(t, err, league.EINVALID)
}

func TestMembersPageInUsernameOrder(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	owner := s.register(t, "zed")
	club, _ := s.clubs.Create(ctx, owner, league.NewClub{Name: "Big Club"})
	var people []league.Actor
	for i := 0; i < 5; i++ {
		people = append(people, s.register(t, fmt.Sprintf("player%d", 5-i)))
	}
	s.joinWithInvite(t, owner, club.ID, people...)
	var got []string
	cursor := ""
	for {
		page, err := s.clubs.Members(ctx, league.Actor{}, club.ID, league.PageRequest{Limit: 2, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range page.Items {
			got = append(got, m.Username+":"+string(m.Role))
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	want := []string{"player1:member", "player2:member", "player3:member", "player4:member", "player5:member", "zed:owner"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("members (-want +got):\n%s", diff)
	}
}

func TestInviteCodesExpireRunOutAndBelongToOneClub(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	ann, bob, cat := s.register(t, "ann"), s.register(t, "bob"), s.register(t, "cat")
	club, _ := s.clubs.Create(ctx, ann, league.NewClub{Name: "Corner Club"})
	other, _ := s.clubs.Create(ctx, ann, league.NewClub{Name: "Other Club"})
	inv, err := s.clubs.CreateInvite(ctx, ann, club.ID, league.NewInvite{})
	if err != nil {
		t.Fatal(err)
	}
	if inv.MaxUses != 1 || inv.ExpiresAt.Sub(time.Now()) < 167*time.Hour {
		t.Errorf("default invite = %+v, want one use for a week", inv)
	}
	_, err = s.clubs.Join(ctx, bob, other.ID, inv.Code)
	wantCode(t, err, league.EINVALID)
	if _, err := s.clubs.Join(ctx, bob, club.ID, " "+strings.ToLower(inv.Code)+" "); err != nil {
		t.Fatalf("join with the code as typed: %v", err)
	}
	_, err = s.clubs.Join(ctx, bob, club.ID, inv.Code)
	wantCode(t, err, league.ECONFLICT)
	_, err = s.clubs.Join(ctx, cat, club.ID, inv.Code)
	wantCode(t, err, league.EINVALID) // used up

	inv, _ = s.clubs.CreateInvite(ctx, ann, club.ID, league.NewInvite{MaxUses: 5})
	s.db.Gorm.Exec("UPDATE club_invites SET expires_at = now() - interval '1 second'")
	_, err = s.clubs.Join(ctx, cat, club.ID, inv.Code)
	wantCode(t, err, league.EINVALID)
	if !strings.Contains(err.Error(), "expired") {
		t.Errorf("error = %v, want it to say the code expired", err)
	}
	for _, bad := range []league.NewInvite{{MaxUses: 1001}, {MaxUses: -1}, {ExpiresIn: time.Minute}, {ExpiresIn: 91 * 24 * time.Hour}} {
		_, err := s.clubs.CreateInvite(ctx, ann, club.ID, bad)
		wantCode(t, err, league.EINVALID)
	}
}

func TestTheLastUseOfAnInviteGoesToOnePerson(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	ann := s.register(t, "ann")
	club, _ := s.clubs.Create(ctx, ann, league.NewClub{Name: "Corner Club"})
	inv, _ := s.clubs.CreateInvite(ctx, ann, club.ID, league.NewInvite{MaxUses: 1})
	var people []league.Actor
	for i := 0; i < 6; i++ {
		people = append(people, s.register(t, fmt.Sprintf("racer%d", i)))
	}
	var wg sync.WaitGroup
	errs := make([]error, len(people))
	for i, p := range people {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.clubs.Join(ctx, p, club.ID, inv.Code)
		}()
	}
	wg.Wait()
	joined := 0
	for _, err := range errs {
		if err == nil {
			joined++
		} else if league.ErrorCode(err) != league.EINVALID {
			t.Errorf("loser's error = %v, want EINVALID", err)
		}
	}
	if joined != 1 || s.count(t, "club_members") != 2 {
		t.Fatalf("%d joined with a one-use code, want 1", joined)
	}
}

func TestCanOrganizeFollowsTheRoles(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	owner, org, member, stranger := s.register(t, "owner"), s.register(t, "org"), s.register(t, "member"), s.register(t, "stranger")
	club, _ := s.clubs.Create(ctx, owner, league.NewClub{Name: "Corner Club"})
	s.joinWithInvite(t, owner, club.ID, org, member)
	if _, err := s.clubs.SetMemberRole(ctx, owner, club.ID, org.UserID, league.RoleOrganizer); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		actor league.Actor
		club  string
		want  string
	}{
		{"owner", owner, club.ID, ""},
		{"organizer", org, club.ID, ""},
		{"member", member, club.ID, league.EFORBIDDEN},
		{"stranger", stranger, club.ID, league.EFORBIDDEN},
		{"site admin", league.Actor{UserID: stranger.UserID, IsAdmin: true}, club.ID, ""},
		{"anonymous", league.Actor{}, club.ID, league.EUNAUTHORIZED},
		{"no such club", owner, "00000000-0000-0000-0000-000000000000", league.ENOTFOUND},
		{"malformed club ID", owner, "1; DROP TABLE clubs", league.ENOTFOUND},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := league.ErrorCode(s.clubs.CanOrganize(ctx, tc.actor, tc.club)); got != tc.want {
				t.Errorf("CanOrganize = %q, want %q", got, tc.want)
			}
		})
	}
	_, err := s.clubs.SetMemberRole(ctx, owner, club.ID, owner.UserID, league.RoleMember)
	wantCode(t, err, league.EPRECONDITION)
	_, err = s.clubs.SetMemberRole(ctx, owner, club.ID, member.UserID, league.RoleOwner)
	wantCode(t, err, league.EINVALID)
}

// Clubs created at once by one account cannot all take the last place of
// its daily budget: of eight racing creations with two places, two are
// made and six refused with ETOOMANY and a Retry-After within the day.
func TestRacingCreationsTakeOnlyTheBudgetsPlaces(t *testing.T) {
	s := openAuthStore(t)
	s.clubs.WithDailyLimit(2)
	ann := s.register(t, "ann")
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = s.clubs.Create(context.Background(), ann, league.NewClub{Name: fmt.Sprintf("Club %d", i)})
		})
	}
	wg.Wait()
	made := 0
	for _, err := range errs {
		if err == nil {
			made++
			continue
		}
		wantCode(t, err, league.ETOOMANY)
		if wait := err.(*league.Error).RetryAfterSeconds; wait < 1 || wait > int(league.CreationWindow.Seconds()) {
			t.Errorf("RetryAfterSeconds = %d; want 1 to a day", wait)
		}
	}
	if made != 2 {
		t.Errorf("%d clubs made; want the budget's 2", made)
	}
}

// An invite code is read out and typed: 16 characters of A–Z and 2–7, none
// of base64's - and _ (a code could begin with "-"). A code made before, in
// base64 uppercased, still lets people join.
func TestInviteCodesAreBase32AndOldCodesStillJoin(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	ann, bob := s.register(t, "ann"), s.register(t, "bob")
	club, _ := s.clubs.Create(ctx, ann, league.NewClub{Name: "Corner Club"})
	shape := regexp.MustCompile(`^[A-Z2-7]{16}$`)
	for range 50 {
		inv, err := s.clubs.CreateInvite(ctx, ann, club.ID, league.NewInvite{})
		if err != nil {
			t.Fatal(err)
		}
		if !shape.MatchString(inv.Code) {
			t.Fatalf("code %q, want 16 characters of A-Z and 2-7", inv.Code)
		}
	}
	old := "-AB_CD12EF34GH" // base64url uppercased, as codes were made before
	if err := s.db.Gorm.Exec(`INSERT INTO club_invites (id, club_id, code_hash, created_by, created_at, expires_at, max_uses, uses)
		VALUES (gen_random_uuid(), ?, ?, ?, now(), now() + interval '1 day', 1, 0)`, club.ID, hashSecret(old), ann.UserID).Error; err != nil {
		t.Fatal(err)
	}
	if _, err := s.clubs.Join(ctx, bob, club.ID, strings.ToLower(old)); err != nil {
		t.Fatalf("join with an old code: %v", err)
	}
}
