package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strings"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/postgres"
	"github.com/seqleague/seqleague/migrations"
)

const adminUsage = `usage:
  seqleague admin create-user [--admin] [--email ADDRESS] USERNAME   (password on standard input)
  seqleague admin promote USERNAME                                   (make a site admin)
  seqleague admin demote USERNAME                                    (withdraw site admin)
  seqleague admin set-password USERNAME                              (new password on standard input; signs the account out everywhere)`

// adminStdin is where create-user and set-password read the password (tests replace it). The
// password is never an argument, so it stays out of shell history and ps.
var adminStdin io.Reader = os.Stdin

// adminCommand runs the operator's account commands, as league.SystemActor.
func adminCommand(ctx context.Context, cfg Config, args []string, logger *slog.Logger, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New(adminUsage)
	}
	cmd, args := args[0], args[1:]
	var (
		admin    bool
		email    string
		username string
	)
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--admin" && cmd == "create-user":
			admin = true
		case a == "--email" && cmd == "create-user" && i+1 < len(args):
			i++
			email = args[i]
		case strings.HasPrefix(a, "--email=") && cmd == "create-user":
			email = strings.TrimPrefix(a, "--email=")
		case strings.HasPrefix(a, "-") || username != "":
			return errors.New(adminUsage)
		default:
			username = a
		}
	}
	if username == "" || (cmd != "create-user" && cmd != "promote" && cmd != "demote" && cmd != "set-password") {
		return errors.New(adminUsage)
	}
	var password string
	if cmd == "create-user" || cmd == "set-password" {
		line, err := bufio.NewReader(adminStdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		password = strings.TrimRight(line, "\r\n")
		if password == "" {
			return fmt.Errorf("%s reads the password from standard input; none was given", cmd)
		}
	}

	db, cluster, err := openDatabase(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer func() {
		db.Close()
		if cluster != nil {
			cluster.Stop()
		}
	}()
	if err := migrations.Up(ctx, db.SQL, logger); err != nil {
		return err
	}
	accounts := postgres.NewAccounts(db, league.NewPasswordHasher(league.DefaultArgon2Params, runtime.GOMAXPROCS(0)), cfg.RefreshTokenTTL)
	var u league.User
	switch cmd {
	case "create-user":
		u, err = accounts.Register(ctx, league.SystemActor, league.NewUser{Username: username, Password: password, Email: email, Admin: admin})
	case "promote":
		u, err = accounts.SetAdmin(ctx, league.SystemActor, username, true)
	case "demote":
		u, err = accounts.SetAdmin(ctx, league.SystemActor, username, false)
	case "set-password":
		u, err = accounts.ResetPassword(ctx, league.SystemActor, username, password)
	}
	if err != nil {
		var le *league.Error
		if errors.As(err, &le) && len(le.Fields) > 0 {
			return fmt.Errorf("%s: %s %s", le.Message, le.Fields[0].Field, le.Fields[0].Message)
		}
		return err
	}
	fmt.Fprintf(stdout, "%s\t%s\tadmin=%t\n", u.ID, u.Username, u.IsAdmin)
	return nil
}
