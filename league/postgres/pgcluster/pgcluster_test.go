package pgcluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The data directory of `make run` must survive a machine crash (fsync on);
// the test harness's throwaway clusters trade that for speed (fsync off).
func TestAClusterSyncsToDiskUnlessItIsThrowaway(t *testing.T) {
	if _, err := FindBinDir(); errors.Is(err, ErrNoBinaries) {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	for _, tc := range []struct {
		d    Durability
		want string
	}{{Durable, "on"}, {Throwaway, "off"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		// not t.TempDir(): its parent is private to us, and the postgres
		// user, when we are root, must reach in
		dir, err := os.MkdirTemp("", "seqleague-pgcluster-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		_ = os.Chmod(dir, 0o755)
		c, err := Start(ctx, filepath.Join(dir, "data"), tc.d)
		if err != nil {
			t.Fatal(err)
		}
		conn, err := pgx.Connect(ctx, c.DSN("postgres"))
		if err != nil {
			c.Stop()
			t.Fatal(err)
		}
		var fsync string
		err = conn.QueryRow(ctx, "SHOW fsync").Scan(&fsync)
		conn.Close(ctx)
		if stopErr := c.Stop(); stopErr != nil {
			t.Error(stopErr)
		}
		if err != nil {
			t.Fatal(err)
		}
		if fsync != tc.want {
			t.Errorf("a %v cluster runs with fsync=%s, want %s", tc.d, fsync, tc.want)
		}
	}
}

// As root the cluster runs as the postgres user, who must pass through the
// data directory's parents: a clone in root's 0700 home failed in initdb
// with a bare "Permission denied". The refusal names the directory and the
// way out.
func TestAParentThePostgresUserCannotEnterIsNamed(t *testing.T) {
	base, err := os.MkdirTemp("", "reachable") // not t.TempDir(): its parent is private to us
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	private := filepath.Join(base, "home")
	if err := os.Mkdir(private, 0o700); err != nil {
		t.Fatal(err)
	}
	stranger := &syscall.Credential{Uid: 54321, Gid: 54321}
	err = reachable(filepath.Join(private, "repo", ".data"), stranger)
	if err == nil || !strings.Contains(err.Error(), "cannot enter "+private+" (mode 0700)") {
		t.Fatalf("a 0700 parent: %v; want it named", err)
	}
	if err := os.Chmod(private, 0o711); err != nil {
		t.Fatal(err)
	}
	if err := reachable(filepath.Join(private, "repo", ".data"), stranger); err != nil {
		t.Fatalf("a parent others may enter: %v", err)
	}
}
