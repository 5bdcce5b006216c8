package bot

import (
	"errors"
	"fmt"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/sequence"
	"github.com/seqleague/seqleague/engine/stacks"
)

// Level names a bot's strength.
type Level string

// The three levels (see the package documentation).
const (
	Random Level = "random"
	Greedy Level = "greedy"
	Strong Level = "strong"
)

// Levels lists every level, weakest first.
var Levels = []Level{Random, Greedy, Strong}

// ParseLevel reads a level's name.
func ParseLevel(text string) (Level, error) {
	for _, l := range Levels {
		if string(l) == text {
			return l, nil
		}
	}
	return "", fmt.Errorf("%w: %q (want random, greedy or strong)", ErrUnknownLevel, text)
}

// Default iteration budgets of the strong level, chosen so that a decision
// takes at most 200 ms at the 99th percentile on one core (see the README's
// decision-time table). Sequence tables of more than two players get the
// same budget: 4,000 and 6,000 roll-outs won no more often than 3,000 at
// 2v2 (engine/bot/STRENGTH.md).
const (
	DefaultSequenceIterations = 3000
	DefaultStacksIterations   = 2000
)

// Budget bounds a search. Only the strong level searches; the other levels
// ignore it.
type Budget struct {
	// Iterations is the number of roll-outs (one candidate move played
	// out from one sampled deal); 0 means the level's default. With Stop
	// nil the decision is a pure function of the view, the random source
	// and Iterations.
	Iterations int
	// Stop, if set, is asked between deals whether to stop early; a caller
	// that wants a time budget passes a closure over its own clock (the
	// engine reads none). Every candidate is played out from at least one
	// deal first, so the move returned has been looked at.
	Stop func() bool
}

func (b Budget) iterations(def int) int {
	if b.Iterations > 0 {
		return b.Iterations
	}
	return def
}

// Bot chooses a move for the seat whose view it is given. It sees only that
// view: hidden cards are sampled from what the view leaves unseen, with r.
// The same view, the same state of r and the same iteration budget give the
// same move.
type Bot[V, M any] interface {
	Level() Level
	Choose(v *V, r *rng.Rand, b Budget) (M, error)
}

// SequenceBot plays the board game.
type SequenceBot = Bot[sequence.View, sequence.Move]

// StacksBot plays Sequence Stacks.
type StacksBot = Bot[stacks.View, stacks.Move]

// Errors.
var (
	// ErrUnknownLevel: a level name that is not random, greedy or strong.
	ErrUnknownLevel = errors.New("bot: unknown level")
	// ErrCannotAct: the view's seat may not move now (not its turn, a
	// spectator's view, or a game that is over).
	ErrCannotAct = errors.New("bot: the seat may not act now")
)

// ForSequence is the board-game bot of a level.
func ForSequence(level Level) (SequenceBot, error) {
	switch level {
	case Random:
		return seqRandom{}, nil
	case Greedy:
		return seqGreedy{}, nil
	case Strong:
		return seqStrong{}, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrUnknownLevel, level)
}

// ForStacks is the Sequence Stacks bot of a level.
func ForStacks(level Level) (StacksBot, error) {
	switch level {
	case Random:
		return stRandom{}, nil
	case Greedy:
		return stGreedy{}, nil
	case Strong:
		return stStrong{}, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrUnknownLevel, level)
}
