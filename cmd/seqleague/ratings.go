package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/seqleague/seqleague/league/postgres"
	"github.com/seqleague/seqleague/league/postgres/pgcluster"
	"github.com/seqleague/seqleague/migrations"
)

// ratingsCommand: `seqleague ratings recompute [--write]`.
func ratingsCommand(ctx context.Context, cfg Config, args []string, logger *slog.Logger, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "recompute" {
		return fmt.Errorf("usage: seqleague ratings recompute [--write]")
	}
	fs := flag.NewFlagSet("ratings recompute", flag.ContinueOnError)
	write := fs.Bool("write", false, "store the replayed ratings where they differ")
	if err := fs.Parse(args[1:]); err != nil {
		return exitError{2}
	}
	db, cluster, err := openDatabase(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer closeDatabase(db, cluster)
	res, err := postgres.NewRatings(db).Recompute(ctx, *write)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "replayed %d rated games of %d players (%d ratings, one per player and pool): %d stored ratings and %d history entries differ",
		res.Games, res.Players, res.Ratings, res.Mismatches, res.History)
	differ := res.Mismatches > 0 || res.History > 0
	if *write && differ {
		fmt.Fprint(stdout, " (rewritten)")
	}
	fmt.Fprintln(stdout)
	if differ && !*write {
		return exitError{1}
	}
	return nil
}

// seedCommand: `seqleague seed --players N --games M`.
func seedCommand(ctx context.Context, cfg Config, args []string, logger *slog.Logger, stdout io.Writer) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	players := fs.Int("players", 1000, "synthetic players to create (with sequence-2team ratings)")
	games := fs.Int("games", 0, "finished, rated, unsettled 1-v-1 games to create")
	seed := fs.Uint64("seed", uint64(time.Now().UnixNano()), "random seed")
	if err := fs.Parse(args); err != nil {
		return exitError{2}
	}
	if *players < 2 || *games < 0 {
		return fmt.Errorf("--players must be at least 2 and --games not negative")
	}
	db, cluster, err := openDatabase(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer closeDatabase(db, cluster)
	if err := migrations.Up(ctx, db.SQL, logger); err != nil {
		return err
	}
	start := time.Now()
	res, err := postgres.Seed(ctx, db, *players, *games, *seed)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "created %d players and %d games in %v\n", res.Players, res.Games, time.Since(start).Round(time.Millisecond))
	return nil
}

// closeDatabase closes what openDatabase opened.
func closeDatabase(db *postgres.DB, cluster *pgcluster.Cluster) {
	db.Close()
	if cluster != nil {
		cluster.Stop()
	}
}
