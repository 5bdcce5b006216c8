// Package pgcluster runs a private PostgreSQL cluster from the PostgreSQL
// binaries installed on the machine. `make run` uses it so that Seqleague
// starts with no configuration, and the test harness uses it when no server
// is reachable. The cluster listens on a unix socket only (no TCP port, so
// it never collides with another server), is reused on the next start and
// stopped by Stop.
//
// initdb refuses to run as root, so when the process is root the cluster's
// files belong to the `postgres` account and its commands run as that user.
package pgcluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrNoBinaries means no PostgreSQL installation was found.
var ErrNoBinaries = errors.New("no PostgreSQL binaries found (install them, e.g. `apt-get install postgresql`, or set DATABASE_URL)")

// socketPort names the socket file (.s.PGSQL.<port>). The socket lives in
// the cluster's own directory, so any fixed number is safe.
const socketPort = 5432

// Cluster is a running private cluster.
type Cluster struct {
	dir     string // data directory
	binDir  string
	cred    *syscall.Credential // nil unless commands run as another user
	started bool                // whether Start launched the server (and Stop should stop it)
}

// FindBinDir locates the directory holding initdb and pg_ctl: pg_config's
// bindir, Debian's /usr/lib/postgresql/<newest>/bin, or the PATH.
func FindBinDir() (string, error) {
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		dir := strings.TrimSpace(string(out))
		if hasBinaries(dir) {
			return dir, nil
		}
	}
	if dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin"); len(dirs) > 0 {
		sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
		for _, d := range dirs {
			if hasBinaries(d) {
				return d, nil
			}
		}
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil && hasBinaries(filepath.Dir(real)) {
			return filepath.Dir(real), nil
		}
	}
	return "", ErrNoBinaries
}

func versionOf(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func hasBinaries(dir string) bool {
	for _, name := range []string{"initdb", "pg_ctl", "postgres"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return false
		}
	}
	return true
}

// Durability says whether a cluster's data must survive the machine
// crashing (a power cut, a kernel panic; a killed process loses nothing
// either way).
type Durability bool

const (
	// Durable keeps PostgreSQL's fsync on: `make run`'s data directory
	// holds accounts, ratings and every finished game.
	Durable Durability = true
	// Throwaway turns fsync off, several times faster for the test
	// harness's clusters, whose data is made again at will.
	Throwaway Durability = false
)

// Start initialises the cluster in dir if needed and starts it (reusing a
// server that is already running there, with the settings it was started
// with).
func Start(ctx context.Context, dir string, d Durability) (*Cluster, error) {
	binDir, err := FindBinDir()
	if err != nil {
		return nil, err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: dir, binDir: binDir}
	if os.Geteuid() == 0 {
		cred, err := postgresCredential()
		if err != nil {
			return nil, err
		}
		c.cred = cred
		if err := reachable(filepath.Dir(dir), cred); err != nil {
			return nil, err
		}
	}
	if err := c.initdb(ctx); err != nil {
		return nil, err
	}
	if c.running(ctx) {
		return c, nil
	}
	// A server killed without a clean stop leaves postmaster.pid behind;
	// pg_ctl checks whether that process still lives before refusing.
	opts := fmt.Sprintf("-c listen_addresses='' -k %s -p %d", c.dir, socketPort)
	if d == Throwaway {
		opts += " -c fsync=off"
	}
	if out, err := c.command(ctx, "pg_ctl", "-D", c.dir, "-o", opts, "-l", filepath.Join(c.dir, "server.log"), "-w", "-t", "60", "start").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pg_ctl start: %v: %s", err, bytes.TrimSpace(out))
	}
	c.started = true
	return c, nil
}

func postgresCredential() (*syscall.Credential, error) {
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root needs a `postgres` user to own the private cluster: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// reachable checks that the user of cred may pass through dir and each of
// its parents, as the cluster's server, running as that user, must: a
// clone in root's 0700 home failed in initdb with "could not access
// directory … Permission denied", naming neither the directory at fault
// nor the user (the make run audit). Directories not made yet are skipped:
// initdb's parents are made traversable.
func reachable(dir string, cred *syscall.Credential) error {
	for d := dir; ; d = filepath.Dir(d) {
		var st syscall.Stat_t
		if err := syscall.Stat(d, &st); err == nil {
			var x uint32 = 0o001
			switch {
			case st.Uid == cred.Uid:
				x = 0o100
			case st.Gid == cred.Gid:
				x = 0o010
			}
			if st.Mode&x == 0 {
				return fmt.Errorf("the private PostgreSQL cluster runs as the postgres user when seqleague runs as root, and that user cannot enter %s (mode %04o): allow it (chmod o+x %s) or set SEQLEAGUE_DATA_DIR to a directory it can reach", d, st.Mode&0o7777, d)
			}
		}
		if parent := filepath.Dir(d); parent == d {
			return nil
		}
	}
}

func (c *Cluster) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(c.binDir, name), args...)
	cmd.Dir = os.TempDir()
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred, Setpgid: true}
	// Keep the caller's locale settings from breaking initdb.
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8", "LANG=C.UTF-8")
	return cmd
}

func (c *Cluster) initdb(ctx context.Context) error {
	if _, err := os.Stat(filepath.Join(c.dir, "PG_VERSION")); err == nil {
		return nil
	}
	// The parents must stay traversable by the postgres user.
	if err := os.MkdirAll(filepath.Dir(c.dir), 0o755); err != nil {
		return err
	}
	if err := os.Mkdir(c.dir, 0o700); err != nil && !os.IsExist(err) {
		return err
	}
	if c.cred != nil {
		if err := os.Chown(c.dir, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
			return err
		}
	}
	out, err := c.command(ctx, "initdb", "-D", c.dir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync").CombinedOutput()
	if err != nil {
		return fmt.Errorf("initdb: %v: %s", err, bytes.TrimSpace(out))
	}
	return nil
}

func (c *Cluster) running(ctx context.Context) bool {
	return c.command(ctx, "pg_ctl", "-D", c.dir, "status").Run() == nil
}

// DSN is a connection string for database name on the cluster's socket.
func (c *Cluster) DSN(database string) string {
	return fmt.Sprintf("host=%s port=%d user=postgres dbname=%s sslmode=disable", c.dir, socketPort, database)
}

// Started says whether Start launched the server (rather than finding one
// running).
func (c *Cluster) Started() bool { return c.started }

// Adopt makes Stop stop a server Start found running, for a caller that
// knows the process that started it is gone: it would otherwise run on
// after every later process, none of which started it.
func (c *Cluster) Adopt() { c.started = true }

// Stop stops the server if Start started it (or it was adopted).
func (c *Cluster) Stop() error {
	if !c.started {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := c.command(ctx, "pg_ctl", "-D", c.dir, "-m", "fast", "-w", "stop").CombinedOutput()
	if err != nil {
		return fmt.Errorf("pg_ctl stop: %v: %s", err, bytes.TrimSpace(out))
	}
	c.started = false
	return nil
}
