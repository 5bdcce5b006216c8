package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/postgres"
	"github.com/seqleague/seqleague/league/testenv"
)

func TestAdminCreatesUsersAndPromotesThem(t *testing.T) {
	dsn := testenv.Postgres(t)
	admin := adminOn(t, dsn)
	if code, out := admin("a-long-password\n", "create-user", "--admin", "--email", "root@example.org", "root"); code != 0 || !strings.Contains(out, "root\tadmin=true") {
		t.Fatalf("create-user --admin: exit %d, %s", code, out)
	}
	if code, out := admin("another-password\n", "create-user", "ann"); code != 0 || !strings.Contains(out, "ann\tadmin=false") {
		t.Fatalf("create-user: exit %d, %s", code, out)
	}
	if code, out := admin("", "promote", "ANN"); code != 0 || !strings.Contains(out, "ann\tadmin=true") {
		t.Fatalf("promote: exit %d, %s", code, out)
	}
	for _, tc := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"no password on stdin", "", []string{"create-user", "bob"}, "standard input"},
		{"short password", "short\n", []string{"create-user", "bob"}, "password"},
		{"taken name", "a-long-password\n", []string{"create-user", "Root"}, "taken"},
		{"unknown user", "", []string{"promote", "nobody"}, "nobody"},
		{"no subcommand", "", nil, "usage"},
		{"stray flag", "", []string{"promote", "--admin", "ann"}, "usage"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, out := admin(tc.stdin, tc.args...); code == 0 || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, output %q; want failure mentioning %q", code, out, tc.want)
			}
		})
	}
	db, err := postgres.Open(context.Background(), dsn, postgres.PoolConfig{MaxOpen: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var admins []string
	db.Gorm.Table("users").Where("is_admin").Order("username").Pluck("username", &admins)
	if strings.Join(admins, ",") != "ann,root" {
		t.Fatalf("admins = %v, want ann and root", admins)
	}
}

// A player who forgot their password gets back in through an operator:
// set-password gives the account a new one (read from standard input) and
// ends every session it had, as a change of password does.
func TestAdminSetsANewPassword(t *testing.T) {
	dsn := testenv.Postgres(t)
	admin := adminOn(t, dsn)
	if code, out := admin("the-forgotten-one\n", "create-user", "ann"); code != 0 {
		t.Fatalf("create-user: exit %d, %s", code, out)
	}
	ctx := context.Background()
	db, err := postgres.Open(ctx, dsn, postgres.PoolConfig{MaxOpen: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	accounts := postgres.NewAccounts(db, league.NewPasswordHasher(league.DefaultArgon2Params, 1), time.Hour)
	_, session, err := accounts.Login(ctx, "ann", "the-forgotten-one")
	if err != nil {
		t.Fatal(err)
	}
	if code, out := admin("a-new-password\n", "set-password", "ANN"); code != 0 || !strings.Contains(out, "\tann\t") {
		t.Fatalf("set-password: exit %d, %s", code, out)
	}
	if _, _, err := accounts.Login(ctx, "ann", "the-forgotten-one"); err == nil {
		t.Fatal("the old password still signs ann in")
	}
	if _, _, err := accounts.Login(ctx, "ann", "a-new-password"); err != nil {
		t.Fatalf("the new password: %v", err)
	}
	if _, _, err := accounts.Refresh(ctx, session.Token); err == nil {
		t.Fatal("a session from before the new password still refreshes")
	}
	for _, tc := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"no password on stdin", "", []string{"set-password", "ann"}, "standard input"},
		{"short password", "short\n", []string{"set-password", "ann"}, "password"},
		{"unknown user", "a-long-password\n", []string{"set-password", "nobody"}, "nobody"},
		{"a bot", "a-long-password\n", []string{"set-password", "bot-greedy"}, "bot-greedy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, out := admin(tc.stdin, tc.args...); code == 0 || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, output %q; want failure mentioning %q", code, out, tc.want)
			}
		})
	}
}

// adminOn runs `seqleague admin ARGS` against the database dsn, with stdin
// as its standard input, and answers its exit code and output.
func adminOn(t *testing.T, dsn string) func(stdin string, args ...string) (int, string) {
	env := map[string]string{"DATABASE_URL": dsn, "SEQLEAGUE_DATA_DIR": t.TempDir(), "SEQLEAGUE_LOG_LEVEL": "warn"}
	t.Cleanup(func() { adminStdin = os.Stdin })
	return func(stdin string, args ...string) (int, string) {
		adminStdin = strings.NewReader(stdin)
		var out bytes.Buffer
		code := run(context.Background(), append([]string{"admin"}, args...), envOf(env), &out, &out)
		return code, out.String()
	}
}
