package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"text/tabwriter"

	"github.com/seqleague/seqleague/migrations"
)

func migrateCommand(ctx context.Context, cfg Config, args []string, logger *slog.Logger, stdout io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: seqleague migrate up|down|status")
	}
	db, cluster, err := openDatabase(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer closeDatabase(db, cluster)
	switch args[0] {
	case "up":
		return migrations.Up(ctx, db.SQL, logger)
	case "down":
		return migrations.Down(ctx, db.SQL, logger)
	case "status":
		list, err := migrations.List(ctx, db.SQL)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "VERSION\tSTATE\tFILE")
		for _, m := range list {
			state := "pending"
			if m.Applied {
				state = "applied"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\n", m.Version, state, m.Name)
		}
		return tw.Flush()
	}
	return fmt.Errorf("usage: seqleague migrate up|down|status")
}
