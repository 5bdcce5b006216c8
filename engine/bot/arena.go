package bot

import (
	"fmt"
	"math"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/sequence"
	"github.com/seqleague/seqleague/engine/stacks"
)

// The arena plays level A against level B. Game i of a run is dealt from
// deal i/k, where k is the number of sides (teams in Sequence, seats in
// Stacks), and A takes side i mod k: every deal is played k times, with A
// in each side once, so neither the deal nor moving first favours a level.
// In Sequence A plays every seat of its team and B every seat of the other
// teams; in Stacks A plays one seat and B all the others. Every decision
// uses an iteration budget, so a run is a pure function of its arguments.

// Outcome is one arena game from A's point of view.
type Outcome int8

// Arena outcomes.
const (
	Loss Outcome = iota
	Draw
	Win
)

// ArenaSequence plays game i of a Sequence run.
func ArenaSequence(cfg sequence.Config, a, b Level, iterations int, seed uint64, i int) (Outcome, error) {
	cfg, err := cfg.Normalize()
	if err != nil {
		return Draw, err
	}
	sides := cfg.Teams
	aSide := i % sides
	dealSeed, botBase := arenaSeeds(seed, i/sides)
	s, err := sequence.NewGame(cfg, dealSeed)
	if err != nil {
		return Draw, err
	}
	botA, err := ForSequence(a)
	if err != nil {
		return Draw, err
	}
	botB, err := ForSequence(b)
	if err != nil {
		return Draw, err
	}
	budget := Budget{Iterations: iterations}
	for s.Status() == sequence.Playing {
		seat := s.Turn()
		bt := botB
		if s.TeamOf(seat) == aSide {
			bt = botA
		}
		v := s.ViewFor(seat)
		r := rng.NewUint64(botBase + uint64(s.Ply()))
		m, err := bt.Choose(&v, &r, budget)
		if err != nil {
			return Draw, fmt.Errorf("game %d ply %d: %s bot: %w", i, s.Ply(), bt.Level(), err)
		}
		if err := s.Do(seat, m); err != nil {
			return Draw, fmt.Errorf("game %d ply %d: %s bot chose %v: %w", i, s.Ply(), bt.Level(), m, err)
		}
	}
	switch {
	case s.Status() == sequence.Drawn:
		return Draw, nil
	case s.Winner() == aSide:
		return Win, nil
	}
	return Loss, nil
}

// ArenaStacks plays game i of a Stacks run. Block windows are answered by
// every eligible seat's bot from its own view; the first BLOCK in turn
// order from the completer is played, and otherwise the window closes.
func ArenaStacks(cfg stacks.Config, a, b Level, iterations int, seed uint64, i int) (Outcome, error) {
	if err := cfg.Validate(); err != nil {
		return Draw, err
	}
	sides := cfg.Players
	aSide := i % sides
	dealSeed, botBase := arenaSeeds(seed, i/sides)
	s, err := stacks.New(cfg, dealSeed)
	if err != nil {
		return Draw, err
	}
	botA, err := ForStacks(a)
	if err != nil {
		return Draw, err
	}
	botB, err := ForStacks(b)
	if err != nil {
		return Draw, err
	}
	botOf := func(seat int) StacksBot {
		if seat == aSide {
			return botA
		}
		return botB
	}
	budget := Budget{Iterations: iterations}
	for ply := uint64(0); !s.Over(); ply++ {
		if ply >= maxArenaPlies {
			return Draw, fmt.Errorf("game %d: no end after %d plies", i, ply)
		}
		var m stacks.Move
		if s.Phase() == stacks.PhaseWindow {
			m = stacks.CloseWindow()
			for k := 1; k < sides; k++ {
				seat := (s.Turn() + k*s.Direction() + sides*k) % sides
				if !s.MayAct(seat) {
					continue
				}
				v := s.ViewFor(seat)
				r := rng.NewUint64(botBase + ply*uint64(stacks.MaxPlayers) + uint64(seat))
				ans, err := botOf(seat).Choose(&v, &r, budget)
				if err != nil {
					return Draw, fmt.Errorf("game %d ply %d seat %d: %w", i, ply, seat, err)
				}
				if ans.Kind == stacks.MoveBlock {
					m = ans
					break
				}
			}
		} else {
			seat := s.Turn()
			v := s.ViewFor(seat)
			r := rng.NewUint64(botBase + ply*uint64(stacks.MaxPlayers) + uint64(seat))
			m, err = botOf(seat).Choose(&v, &r, budget)
			if err != nil {
				return Draw, fmt.Errorf("game %d ply %d seat %d: %w", i, ply, seat, err)
			}
		}
		if err := s.Apply(m); err != nil {
			return Draw, fmt.Errorf("game %d ply %d: %v: %w", i, ply, m, err)
		}
	}
	o := s.Outcome()
	switch {
	case o.Status == stacks.Drawn:
		return Draw, nil
	case o.Winner == aSide:
		return Win, nil
	}
	return Loss, nil
}

// maxArenaPlies stops a Stacks game that goes round in circles; the play cap
// counts turns, and a turn can last for ever (a lone REVERSE drawn back at
// once), though no level plays such a turn out.
const maxArenaPlies = 200000

// arenaSeeds derives deal k's seed and the base of its bots' seeds.
func arenaSeeds(seed uint64, k int) (rng.Seed, uint64) {
	r := rng.NewUint64(seed ^ (uint64(k)+1)*0x9e3779b97f4a7c15)
	return rng.SeedFromUint64(r.Uint64()), r.Uint64()
}

// Tally is a run's results for A.
type Tally struct {
	Wins, Losses, Draws int
	Sides               int // 2 for one against one; more in free-for-alls
}

// Games is the number of games.
func (t Tally) Games() int { return t.Wins + t.Losses + t.Draws }

// Add counts one outcome.
func (t *Tally) Add(o Outcome) {
	switch o {
	case Win:
		t.Wins++
	case Loss:
		t.Losses++
	default:
		t.Draws++
	}
}

// WinRate is A's share of games won, with its 95% Wilson score interval.
func (t Tally) WinRate() (p, lo, hi float64) {
	return Wilson(t.Wins, t.Games())
}

// Score is A's average result, a draw counting as 1/sides (a half with two
// sides).
func (t Tally) Score() float64 {
	n := t.Games()
	if n == 0 {
		return 0
	}
	sides := max(t.Sides, 2)
	return (float64(t.Wins) + float64(t.Draws)/float64(sides)) / float64(n)
}

// Elo is the rating difference of A over B that the score implies. With
// more than two sides, A is one side against sides-1 of B, and under the
// Luce choice model (Elo's logistic generalized) A's expected score is
// γA/(γA+(sides-1)γB), so the difference is 400·log10(score·(sides-1)/
// (1-score)); with two sides this is the usual formula. It is ±Inf for a
// clean sweep either way.
func (t Tally) Elo() float64 {
	return EloFromScore(t.Score(), max(t.Sides, 2))
}

// EloFromScore is the Elo difference implied by a score with sides sides.
func EloFromScore(score float64, sides int) float64 {
	return 400 * math.Log10(score*float64(sides-1)/(1-score))
}

// Wilson is the proportion k/n with its 95% Wilson score interval.
func Wilson(k, n int) (p, lo, hi float64) {
	if n == 0 {
		return 0, 0, 1
	}
	const z = 1.959963984540054
	nf := float64(n)
	p = float64(k) / nf
	den := 1 + z*z/nf
	centre := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return p, max(0, centre-half), min(1, centre+half)
}
