package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/seqleague/seqleague/engine/bot"
	"github.com/seqleague/seqleague/engine/sequence"
	"github.com/seqleague/seqleague/engine/stacks"
)

const arenaUsage = `Usage: seqleague arena [flags]

Plays bot level A against level B and prints A's results. Game i is dealt
from deal i/k (k = teams in Sequence, players in Stacks) and A takes side
i mod k, so every deal is played once with A on each side. In Sequence each
team is one level; in Stacks A plays one seat and B the others. Games run in
parallel on GOMAXPROCS workers; the result does not depend on their number.

Flags:
`

// arenaCommand runs `seqleague arena`.
func arenaCommand(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, arenaUsage)
		fs.PrintDefaults()
	}
	game := fs.String("game", "sequence", "sequence or stacks")
	variant := fs.String("variant", "classic", "sequence: classic or bordered")
	players := fs.Int("players", 2, "number of players")
	teams := fs.Int("teams", 0, "sequence: number of teams (default: 2, or 3 with 3 or 9 players)")
	levelA := fs.String("a", "strong", "level A: random, greedy or strong")
	levelB := fs.String("b", "greedy", "level B: random, greedy or strong")
	games := fs.Int("games", 200, "number of games")
	seed := fs.Uint64("seed", 1, "seed of the run")
	budget := fs.Int("budget", 0, "strong level: search iterations per decision (0: the default)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel games")
	progress := fs.Int("progress", 0, "print A's tally so far to stderr every this many games finished (0: a tenth of --games; -1: never)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return nil
		}
		return exitError{2}
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("arena: unexpected argument %q", fs.Arg(0))
	}
	a, err := bot.ParseLevel(*levelA)
	if err != nil {
		return err
	}
	b, err := bot.ParseLevel(*levelB)
	if err != nil {
		return err
	}
	if *games <= 0 || *workers <= 0 || *budget < 0 || *progress < -1 {
		return fmt.Errorf("arena: --games and --workers must be positive, --budget not negative and --progress -1 or more")
	}
	every := *progress
	if every == 0 {
		every = max(*games/10, 1)
	}

	var play func(i int) (bot.Outcome, error)
	var title string
	sides := 0
	switch *game {
	case "sequence":
		v, err := sequence.ParseVariant(*variant)
		if err != nil {
			return err
		}
		t := *teams
		if t == 0 {
			t = defaultTeams(*players)
		}
		cfg := sequence.Config{Variant: v, Players: *players, Teams: t}
		if err := cfg.Validate(); err != nil {
			return err
		}
		sides = t
		title = fmt.Sprintf("sequence %s, %d players in %d teams", v, *players, t)
		play = func(i int) (bot.Outcome, error) { return bot.ArenaSequence(cfg, a, b, *budget, *seed, i) }
	case "stacks":
		if *teams != 0 && *teams != *players {
			return fmt.Errorf("arena: in stacks every player is a team of one")
		}
		cfg := stacks.Config{Players: *players}
		if err := cfg.Validate(); err != nil {
			return err
		}
		sides = *players
		title = fmt.Sprintf("stacks, %d players", *players)
		play = func(i int) (bot.Outcome, error) { return bot.ArenaStacks(cfg, a, b, *budget, *seed, i) }
	default:
		return fmt.Errorf("arena: unknown game %q (want sequence or stacks)", *game)
	}
	budgetText := "default"
	if *budget > 0 {
		budgetText = fmt.Sprint(*budget)
	}
	fmt.Fprintf(stdout, "arena: %s; A=%s B=%s; %d games, seed %d, strong budget %s iterations, %d workers\n",
		title, a, b, *games, *seed, budgetText, *workers)

	start := time.Now()
	outcomes := make([]bot.Outcome, *games)
	errs := make([]error, *games)
	next := make(chan int)
	// A 2,000-game run of strong takes tens of minutes: the tally of the
	// games finished so far says it is moving, and where it is heading.
	var mu sync.Mutex
	soFar := bot.Tally{Sides: sides}
	finished := func(o bot.Outcome) {
		mu.Lock()
		defer mu.Unlock()
		soFar.Add(o)
		if n := soFar.Games(); every > 0 && n%every == 0 && n < *games {
			p, lo, hi := soFar.WinRate()
			elapsed := time.Since(start)
			left := time.Duration(float64(elapsed) * float64(*games-n) / float64(n))
			fmt.Fprintf(stderr, "arena: %d of %d games, A %.1f%% so far (95%% CI %.1f%%–%.1f%%), %s, about %s left\n",
				n, *games, 100*p, 100*lo, 100*hi, elapsed.Round(time.Second), left.Round(time.Second))
		}
	}
	var wg sync.WaitGroup
	for w := 0; w < min(*workers, *games); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				outcomes[i], errs[i] = play(i)
				if errs[i] == nil {
					finished(outcomes[i])
				}
			}
		}()
	}
	for i := 0; i < *games; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	t := bot.Tally{Sides: sides}
	for _, o := range outcomes {
		t.Add(o)
	}
	printTally(stdout, t, time.Since(start))
	return nil
}

func printTally(w io.Writer, t bot.Tally, elapsed time.Duration) {
	p, lo, hi := t.WinRate()
	fmt.Fprintf(w, "A: %d wins, %d losses, %d draws in %d games (%.1fs)\n", t.Wins, t.Losses, t.Draws, t.Games(), elapsed.Seconds())
	fmt.Fprintf(w, "A win rate: %.1f%% (95%% CI %.1f%%–%.1f%%, Wilson)\n", 100*p, 100*lo, 100*hi)
	even := ""
	if t.Sides > 2 {
		even = fmt.Sprintf("; %.1f%% at equal strength", 100/float64(t.Sides))
	}
	score := t.Score()
	fmt.Fprintf(w, "A score: %.1f%% (draws as 1/%d%s) → Elo difference %s\n", 100*score, max(t.Sides, 2), even, formatElo(t.Elo()))
}

func formatElo(e float64) string {
	switch {
	case math.IsInf(e, 1):
		return "+∞"
	case math.IsInf(e, -1):
		return "−∞"
	case math.IsNaN(e):
		return "n/a"
	}
	return fmt.Sprintf("%+.0f", e)
}
