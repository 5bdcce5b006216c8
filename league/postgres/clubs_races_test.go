package postgres

import (
	"context"
	"fmt"
	"testing"

	"github.com/seqleague/seqleague/league"
)

// A club handed to a member who at that moment closes their account still
// has one owner, a live one: either the hand-over comes first and the close
// is refused (an owner must hand the club on first), or the close does and
// the hand-over is refused (no such member). Before, the close counted the
// clubs the account owned before the hand-over committed, then deleted its
// memberships, the new owner's among them: the club was left with no owner.
func TestAClubHandedToAMemberClosingTheirAccountKeepsALiveOwner(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	for round := range 10 {
		ann, eve := s.register(t, fmt.Sprintf("ann%d", round)), s.register(t, fmt.Sprintf("eve%d", round))
		club, err := s.clubs.Create(ctx, ann, league.NewClub{Name: fmt.Sprintf("Club %d", round)})
		if err != nil {
			t.Fatal(err)
		}
		s.joinWithInvite(t, ann, club.ID, eve)
		got := race(map[string]func() error{
			"hand over": func() error {
				_, err := s.clubs.Update(ctx, ann, club.ID, league.ClubUpdate{OwnerID: &eve.UserID})
				return err
			},
			"close": func() error { return s.accounts.Delete(ctx, eve, eve.UserID) },
		})
		wantRefusals(t, round, got, league.EINVALID, league.EPRECONDITION)
		if (got["hand over"] == nil) == (got["close"] == nil) {
			t.Fatalf("round %d: hand over %v, close %v; want exactly one of them done", round, got["hand over"], got["close"])
		}
		var owners []string
		if err := s.db.Gorm.Raw(`SELECT m.user_id FROM club_members m JOIN users u ON u.id = m.user_id
			WHERE m.club_id = ? AND m.role = 'owner' AND u.deleted_at IS NULL`, club.ID).Scan(&owners).Error; err != nil {
			t.Fatal(err)
		}
		if len(owners) != 1 {
			t.Fatalf("round %d: the club has %d live owners (hand over: %v, close: %v)", round, len(owners), got["hand over"], got["close"])
		}
	}
}

// A club made by an account as it closes is either made first, and the
// close refused (the account owns a club), or refused as signed out: never
// a club whose owner is a closed account, whom nobody can reach to hand it
// on. Before, the close counted the clubs it owned before the new one
// committed.
func TestAClubMadeByAnAccountAsItClosesHasALiveOwner(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	for round := range 12 {
		eve := s.register(t, fmt.Sprintf("eve%d", round))
		got := race(map[string]func() error{
			"create": func() error {
				_, err := s.clubs.Create(ctx, eve, league.NewClub{Name: fmt.Sprintf("Eve's club %d", round)})
				return err
			},
			"close": func() error { return s.accounts.Delete(ctx, eve, eve.UserID) },
		})
		wantRefusals(t, round, got, league.EUNAUTHORIZED, league.EPRECONDITION)
		if (got["create"] == nil) == (got["close"] == nil) {
			t.Fatalf("round %d: create %v, close %v; want exactly one done", round, got["create"], got["close"])
		}
		var orphaned int64
		if err := s.db.Gorm.Raw(`SELECT count(*) FROM clubs c WHERE NOT EXISTS (SELECT 1 FROM club_members m JOIN users u ON u.id = m.user_id
			WHERE m.club_id = c.id AND m.role = 'owner' AND u.deleted_at IS NULL)`).Scan(&orphaned).Error; err != nil {
			t.Fatal(err)
		}
		if orphaned != 0 {
			t.Fatalf("round %d: %d clubs without a live owner (create %v, close %v)", round, orphaned, got["create"], got["close"])
		}
	}
}
