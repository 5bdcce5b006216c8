package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/seqleague/seqleague/league/postgres"
	"github.com/seqleague/seqleague/league/testenv"
)

func TestAdminCreatesUsersAndPromotesThem(t *testing.T) {
	dsn := testenv.Postgres(t)
	env := map[string]string{"DATABASE_URL": dsn, "SEQLEAGUE_DATA_DIR": t.TempDir(), "SEQLEAGUE_LOG_LEVEL": "warn"}
	t.Cleanup(func() { adminStdin = os.Stdin })
	admin := func(stdin string, args ...string) (int, string) {
		adminStdin = strings.NewReader(stdin)
		var out bytes.Buffer
		code := run(context.Background(), append([]string{"admin"}, args...), envOf(env), &out, &out)
		return code, out.String()
	}
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
