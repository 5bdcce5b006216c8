package postgres

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/testenv"
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

// JIT is off on the service's connections unless the URL turns it on: its
// compile time, not the query, was most of a prolific player's profile.
func TestJITIsOffUnlessTheURLAsks(t *testing.T) {
	url := testenv.Postgres(t)
	for _, tc := range []struct{ url, want string }{
		{url, "off"},
		{withParam(url, "jit", "on"), "on"},
	} {
		db, err := Open(context.Background(), tc.url, PoolConfig{MaxOpen: 1})
		if err != nil {
			t.Fatal(err)
		}
		var jit string
		err = db.Gorm.Raw("SHOW jit").Scan(&jit).Error
		db.Close()
		if err != nil || jit != tc.want {
			t.Errorf("jit = %q, %v; want %s", jit, err, tc.want)
		}
	}
}

// withParam adds a run-time parameter to a database URL or key=value DSN.
func withParam(dsn, key, value string) string {
	switch {
	case !strings.Contains(dsn, "://"):
		return dsn + " " + key + "=" + value
	case strings.Contains(dsn, "?"):
		return dsn + "&" + key + "=" + value
	}
	return dsn + "?" + key + "=" + value
}

// Unavailable tells a moment's outage of PostgreSQL (nothing listening, a
// connection the server ended) from a fault of the query or the request.
func TestUnavailableTellsAnOutageFromAFault(t *testing.T) {
	ctx := context.Background()
	_, err := Open(ctx, "postgres://postgres@127.0.0.1:1/none?sslmode=disable&connect_timeout=2", PoolConfig{MaxOpen: 1})
	if err == nil || !Unavailable(err) {
		t.Errorf("nothing listening: %v; want an outage", err)
	}
	db, err := Open(ctx, testenv.Postgres(t), PoolConfig{MaxOpen: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.SQL.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var pid int
	if err := conn.QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	other, err := Open(ctx, testenv.Postgres(t), PoolConfig{MaxOpen: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.Gorm.Exec("SELECT pg_terminate_backend(?)", pid).Error; err != nil {
		t.Fatal(err)
	}
	// What a shutdown or restart does to a connection in the pool.
	if _, err := conn.ExecContext(ctx, "SELECT 1"); err == nil || !Unavailable(err) {
		t.Errorf("a connection the server ended: %v; want an outage", err)
	}
	if err := other.Gorm.Exec("SELECT * FROM no_such_table").Error; err == nil || Unavailable(err) {
		t.Errorf("a bad query: %v; want no outage", err)
	}
	short, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	if err := other.Gorm.WithContext(short).Exec("SELECT pg_sleep(1)").Error; err == nil || Unavailable(err) {
		t.Errorf("a request past its deadline: %v; want no outage", err)
	}
}
