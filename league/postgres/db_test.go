package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
)

// Times come out of the store in UTC whatever the process's zone: the API
// writes them as they are, and with TZ=America/New_York it answered
// created_at as 03:32:08-05:00 where its contract says RFC 3339 UTC.
func TestTimesAreReadInUTC(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	ann := s.register(t, "ann")
	club, err := s.clubs.Create(ctx, ann, league.NewClub{Name: "Corner Club"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.clubs.Club(ctx, ann, club.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.CreatedAt.Location() != time.UTC {
		t.Errorf("club created_at read in %v, want UTC", got.CreatedAt.Location())
	}
	var now time.Time
	if err := s.db.Gorm.Raw("SELECT now()").Scan(&now).Error; err != nil {
		t.Fatal(err)
	}
	if now.Location() != time.UTC {
		t.Errorf("now() read in %v, want UTC", now.Location())
	}
}
