// Command seqleague is the whole of Seqleague in one binary: the API, the
// workers, migrations and the engine tools. `seqleague help` lists the
// subcommands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

const usage = `seqleague — tournaments and leagues for the Sequence games

Usage:
  seqleague [all]                 API and workers in one process (the default)
  seqleague serve                 the API only
  seqleague work                  the workers only
  seqleague migrate up|down|status
  seqleague config                show the configuration (secrets masked)
  seqleague admin create-user|promote|demote|set-password …
  seqleague ratings recompute [--write]
  seqleague seed --players N --games M   synthetic data for benchmarks
  seqleague arena …               bot strength
  seqleague engine vectors PATH…  check rule vectors
  seqleague engine selfplay …     play random games and print statistics
`

// exitError carries an exit code other than 1 out of a subcommand.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// run is main without the process: it returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	err := dispatch(ctx, args, getenv, stdout, stderr)
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	default:
		fmt.Fprintln(stderr, "seqleague:", err)
		return 1
	}
}

func dispatch(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := "all"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	case "engine":
		return engineCommand(args, stdout, stderr)
	case "arena":
		return arenaCommand(args, stdout, stderr)
	}
	switch cmd {
	case "all", "serve", "work", "config":
		// These take no arguments: `serve --help` or a stray flag must not
		// start a live server (or worker) with its defaults.
		if len(args) > 0 {
			fmt.Fprintf(stderr, "seqleague %s takes no arguments (configuration is read from the environment)\n\n%s", cmd, usage)
			return exitError{2}
		}
	}
	cfg, err := LoadConfig(getenv)
	if err != nil {
		return err
	}
	logger := newLogger(cfg, stderr)
	switch cmd {
	case "all":
		return serveUntilSignal(ctx, &App{cfg: cfg, mode: Mode{API: true, Workers: true}, logger: logger})
	case "serve":
		return serveUntilSignal(ctx, &App{cfg: cfg, mode: Mode{API: true}, logger: logger})
	case "work":
		return serveUntilSignal(ctx, &App{cfg: cfg, mode: Mode{Workers: true}, logger: logger})
	case "migrate":
		return migrateCommand(ctx, cfg, args, logger, stdout)
	case "admin":
		return adminCommand(ctx, cfg, args, logger, stdout)
	case "config":
		cfg.Print(stdout, getenv)
		return nil
	case "ratings":
		return ratingsCommand(ctx, cfg, args, logger, stdout)
	case "seed":
		return seedCommand(ctx, cfg, args, logger, stdout)
	}
	fmt.Fprint(stderr, usage)
	return exitError{2}
}

// serveUntilSignal runs app until SIGINT, SIGTERM or SIGHUP, then shuts it
// down cleanly: in-flight requests finish, workers stop, embedded servers
// stop. SIGHUP is a closed terminal, which killed `make run` before and left
// its private cluster running for good.
func serveUntilSignal(ctx context.Context, app *App) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if err := app.Start(ctx); err != nil {
		return err
	}
	err := app.Wait(ctx)
	stop()
	app.logger.Info("shutting down")
	return errors.Join(err, app.Shutdown())
}
