package pgcluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
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
