package bot

import (
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/sequence"
	"github.com/seqleague/seqleague/engine/stacks"
)

// The decision-time benchmarks time each level on a fixed set of 200
// positions taken from greedy-against-greedy games (the positions bots
// actually meet) and report the median and the 99th percentile of one
// decision. Run them on one core:
//
//	go test -run '^$' -bench Decision -benchtime 1x -cpu 1 ./engine/bot/

const benchPositions = 200

// sequenceBenchViews is n views of the seat to move, from classic games
// of the configuration, spread over the games' lengths.
func sequenceBenchViews(tb testing.TB, cfg sequence.Config, n int) []sequence.View {
	tb.Helper()
	var views []sequence.View
	g := seqGreedy{}
	for game := uint64(0); len(views) < n; game++ {
		s, err := sequence.NewGame(cfg, rng.SeedFromUint64(1000+game))
		if err != nil {
			tb.Fatal(err)
		}
		for ply := 0; s.Status() == sequence.Playing && len(views) < n; ply++ {
			v := s.ViewFor(s.Turn())
			if ply%3 == int(game%3) {
				views = append(views, v)
			}
			r := rng.NewUint64(uint64(ply))
			m, err := g.Choose(&v, &r, Budget{})
			if err != nil {
				tb.Fatal(err)
			}
			if err := s.Do(s.Turn(), m); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return views
}

// stacksBenchViews is n views of a seat that may act, from greedy games.
func stacksBenchViews(tb testing.TB, players, n int) []stacks.View {
	tb.Helper()
	var views []stacks.View
	g := stGreedy{}
	for game := uint64(0); len(views) < n; game++ {
		s, err := stacks.New(stacks.Config{Players: players}, rng.SeedFromUint64(2000+game))
		if err != nil {
			tb.Fatal(err)
		}
		for ply := 0; !s.Over() && len(views) < n; ply++ {
			var m stacks.Move
			if s.Phase() == stacks.PhaseWindow {
				m = stacks.CloseWindow()
				for seat := 0; seat < players; seat++ {
					if !s.MayAct(seat) {
						continue
					}
					v := s.ViewFor(seat)
					if ply%5 == 0 {
						views = append(views, v)
					}
					r := rng.NewUint64(uint64(ply))
					if a, _ := g.Choose(&v, &r, Budget{}); a.Kind == stacks.MoveBlock {
						m = a
						break
					}
				}
			} else {
				v := s.ViewFor(s.Turn())
				if ply%4 == int(game%4) {
					views = append(views, v)
				}
				r := rng.NewUint64(uint64(ply))
				var err error
				if m, err = g.Choose(&v, &r, Budget{}); err != nil {
					tb.Fatal(err)
				}
			}
			if err := s.Apply(m); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return views
}

// reportPercentiles times choose on every view once per b.N round and
// reports the median and 99th percentile of one decision in nanoseconds:
// p50-ns and p99-ns of wall-clock time, and p50-cpu-ns and p99-cpu-ns of
// the process's CPU time, which on a busy machine is the better measure of
// what a decision costs on one core of its own (run with -cpu 1).
func reportPercentiles(b *testing.B, n int, choose func(i int)) {
	var wall, cpu []time.Duration
	for b.Loop() {
		for i := 0; i < n; i++ {
			c0 := cpuTime()
			start := time.Now()
			choose(i)
			wall = append(wall, time.Since(start))
			cpu = append(cpu, cpuTime()-c0)
		}
	}
	pct := func(d []time.Duration, p float64) float64 {
		slices.Sort(d)
		return float64(d[int(p*float64(len(d)-1))].Nanoseconds())
	}
	b.ReportMetric(pct(wall, 0.50), "p50-ns")
	b.ReportMetric(pct(wall, 0.99), "p99-ns")
	b.ReportMetric(pct(cpu, 0.50), "p50-cpu-ns")
	b.ReportMetric(pct(cpu, 0.99), "p99-cpu-ns")
}

// cpuTime is the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDecisionSequence times every level on two-player positions, and
// the strong level on four-player (2v2) ones and on the largest table the
// rules allow (12 players in 3 teams), where it deals eleven hidden hands.
func BenchmarkDecisionSequence(b *testing.B) {
	views := sequenceBenchViews(b, sequence.Config{Players: 2, Teams: 2}, benchPositions)
	for _, level := range Levels {
		b.Run(string(level), func(b *testing.B) { benchSequenceLevel(b, level, views) })
	}
	views4 := sequenceBenchViews(b, sequence.Config{Players: 4, Teams: 2}, benchPositions)
	b.Run("strong-2v2", func(b *testing.B) { benchSequenceLevel(b, Strong, views4) })
	views12 := sequenceBenchViews(b, sequence.Config{Players: 12, Teams: 3}, benchPositions)
	b.Run("strong-12", func(b *testing.B) { benchSequenceLevel(b, Strong, views12) })
}

func benchSequenceLevel(b *testing.B, level Level, views []sequence.View) {
	bt, _ := ForSequence(level)
	reportPercentiles(b, len(views), func(i int) {
		r := rng.NewUint64(uint64(i))
		if _, err := bt.Choose(&views[i], &r, Budget{}); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkDecisionStacks times every level on two-player positions, and
// the strong level on six-player ones, the most the rules allow.
func BenchmarkDecisionStacks(b *testing.B) {
	views := stacksBenchViews(b, 2, benchPositions)
	for _, level := range Levels {
		b.Run(string(level), func(b *testing.B) { benchStacksLevel(b, level, views) })
	}
	views6 := stacksBenchViews(b, 6, benchPositions)
	b.Run("strong-6", func(b *testing.B) { benchStacksLevel(b, Strong, views6) })
}

func benchStacksLevel(b *testing.B, level Level, views []stacks.View) {
	bt, _ := ForStacks(level)
	reportPercentiles(b, len(views), func(i int) {
		r := rng.NewUint64(uint64(i))
		if _, err := bt.Choose(&views[i], &r, Budget{}); err != nil {
			b.Fatal(err)
		}
	})
}
