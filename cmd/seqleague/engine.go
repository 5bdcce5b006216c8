package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/seqleague/seqleague/engine/play"
	"github.com/seqleague/seqleague/engine/sequence"
	"github.com/seqleague/seqleague/engine/stacks"
	"github.com/seqleague/seqleague/engine/vectors"
)

// defaultTeams is the team count of a Sequence table of players when
// --teams is left out: the fewest the rules allow (2, or 3 at tables of 3
// and 9), or 2 for a player count the rules refuse, which the set-up's
// check then reports.
func defaultTeams(players int) int {
	if counts := play.TeamCounts("sequence", players); len(counts) > 0 {
		return counts[0]
	}
	return 2
}

func engineCommand(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: seqleague engine vectors PATH… | engine selfplay [flags]")
	}
	switch args[0] {
	case "vectors":
		if len(args) < 2 {
			// No vectors named is a run that checked nothing: exit 2, as
			// for a path that cannot be read.
			fmt.Fprintln(stderr, "usage: seqleague engine vectors PATH…")
			return exitError{vectors.ExitUnreadable}
		}
		if code := vectors.Run(args[1:], stdout); code != 0 {
			return exitError{code}
		}
		return nil
	case "selfplay":
		return selfplayCommand(args[1:], stdout, stderr)
	}
	return fmt.Errorf("unknown engine command %q", args[0])
}

// selfplayCommand plays random legal games and prints the results and the
// engine's speed.
func selfplayCommand(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("engine selfplay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	game := fs.String("game", "sequence", "sequence or stacks")
	variant := fs.String("variant", "classic", "classic or bordered (sequence)")
	players := fs.Int("players", 2, "number of players")
	teams := fs.Int("teams", 0, "number of teams (sequence; default: 2, or 3 for 3 and 9 players)")
	games := fs.Int("games", 1000, "games to play")
	seed := fs.Uint64("seed", 1, "seed of the first game")
	if err := fs.Parse(args); err != nil {
		return exitError{2}
	}
	if *games < 1 {
		return fmt.Errorf("--games must be at least 1")
	}
	switch *game {
	case "sequence":
		v, err := sequence.ParseVariant(*variant)
		if err != nil {
			return err
		}
		if *teams == 0 {
			*teams = defaultTeams(*players)
		}
		cfg := sequence.Config{Variant: v, Players: *players, Teams: *teams}
		if _, err := cfg.Normalize(); err != nil {
			return err
		}
		start := time.Now()
		st := sequence.SelfPlay(cfg, *games, *seed)
		took := time.Since(start)
		if st.Err != nil {
			return st.Err
		}
		fmt.Fprintf(stdout, "sequence %s, %d players in %d teams, %d games (seed %d)\n", v, *players, *teams, st.Games, *seed)
		for t := 0; t < *teams; t++ {
			fmt.Fprintf(stdout, "team %s wins: %d\n", sequence.TeamLetter(t), st.Wins[t])
		}
		printSelfplayTotals(stdout, st.Games, st.Draws, st.Plies, took)
	case "stacks":
		cfg := stacks.Config{Players: *players}
		if err := cfg.Validate(); err != nil {
			return err
		}
		start := time.Now()
		st := stacks.SelfPlay(cfg, *games, *seed)
		took := time.Since(start)
		fmt.Fprintf(stdout, "stacks, %d players, %d games (seed %d)\n", *players, st.Games, *seed)
		for p, w := range st.Wins {
			fmt.Fprintf(stdout, "seat %d wins: %d\n", p, w)
		}
		printSelfplayTotals(stdout, st.Games, st.Draws, int64(st.Plies), took)
	default:
		return fmt.Errorf("--game must be sequence or stacks")
	}
	return nil
}

func printSelfplayTotals(w io.Writer, games, draws int, plies int64, took time.Duration) {
	fmt.Fprintf(w, "draws: %d\n", draws)
	fmt.Fprintf(w, "mean plies: %.1f\n", float64(plies)/float64(games))
	fmt.Fprintf(w, "games per second: %.0f (%d games in %v, one core)\n", float64(games)/took.Seconds(), games, took.Round(time.Millisecond))
}
