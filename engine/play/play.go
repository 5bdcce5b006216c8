// Package play puts both games behind one interface, so that the game
// service, the workers and the tools handle a Sequence table and a Stacks
// table the same way: moves travel as the engines' text notation, views as
// JSON that holds only what a seat may see.
package play

import (
	"encoding/json"
	"fmt"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/sequence"
	"github.com/seqleague/seqleague/engine/stacks"
)

// Spectator is the seat of a viewer who is not playing.
const Spectator = -1

// Setup is everything that fixes a game before the seed.
type Setup struct {
	Game           string // "sequence" or "stacks"
	Variant        string // "classic" or "bordered" for sequence; "" for stacks
	Players        int
	Teams          int // sequence: 2 or 3; stacks: equal to Players (each for themselves)
	SequencesToWin int // 0: the default for the team count
	PlayCap        int // 0: the game's default
}

// Status is where a game stands.
type Status struct {
	Over   bool
	Drawn  bool
	Winner int // team (sequence) or seat (stacks) when Over and not Drawn; else -1
}

// Game is one immutable position of either game; Apply returns a new one.
type Game interface {
	Setup() Setup
	// Ply counts the moves applied since the deal.
	Ply() int
	// Actors are the seats that may move now: the seat whose turn it is, or
	// in a Stacks block window every seat but the completer.
	Actors() []int
	// Turn is the seat whose turn it is (the completer during a window).
	Turn() int
	// TurnCount counts finished turns; it changes exactly when a new turn
	// begins (a Stacks turn spans many plies, a Sequence turn one or two).
	TurnCount() int
	// InWindow reports an open Stacks block window, which the server closes
	// with ServerMove when its time runs out.
	InWindow() bool
	// ServerMove is the move the server plays to close a block window.
	ServerMove() string
	// Apply plays move (engine notation) for seat.
	Apply(seat int, move string) (Game, error)
	// LegalMoves lists seat's legal moves now, in notation (nil if none).
	LegalMoves(seat int) []string
	Status() Status
	// Scores is each team's score so far: sequences made (Sequence) or
	// chips held (Stacks). Standings and adjudication read it.
	Scores() []int
	TeamOf(seat int) int
	// ViewJSON is seat's view (Spectator: the public view) as JSON.
	ViewJSON(seat int) json.RawMessage
	// VectorJSON exports the position as a rule vector named name.
	VectorJSON(name string) ([]byte, error)
	// BotMove asks the bot of level to choose seat's move from seat's view
	// only, at the level's default budget. stop, if not nil, may end a
	// search early (a time limit: the engine reads no clock); without it
	// the same position, seat and seed give the same move.
	BotMove(level string, seat int, seed uint64, stop func() bool) (string, error)
}

// SetupError is a set-up the rules do not allow. Field names the set-up
// field at fault as rule vectors spell it (game, variant, players, teams,
// sequences_to_win, play_cap), so that a caller can say what to change.
type SetupError struct {
	Field string
	Err   error
}

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }

// TeamCounts lists the team counts the rules allow players to play game in,
// fewest first, or nil if they cannot play it at all. Sequence tables of 6
// and 12 choose between 2 and 3 teams; every other Sequence table, and
// every Stacks table (each for themselves), has one way only.
func TeamCounts(game string, players int) []int {
	var out []int
	switch game {
	case "sequence":
		for teams := 1; teams <= sequence.MaxTeams; teams++ {
			if sequence.DealSize(players, teams) > 0 {
				out = append(out, teams)
			}
		}
	case "stacks":
		if players >= stacks.MinPlayers && players <= stacks.MaxPlayers {
			out = append(out, players)
		}
	}
	return out
}

// New deals a game.
func New(s Setup, seed rng.Seed) (Game, error) {
	switch s.Game {
	case "sequence":
		return newSequence(s, seed)
	case "stacks":
		return newStacks(s, seed)
	}
	return nil, &SetupError{Field: "game", Err: fmt.Errorf("unknown game %q (want sequence or stacks)", s.Game)}
}

// Replay deals a game and applies moves in order: (set-up, seed, moves)
// determine the state exactly.
func Replay(s Setup, seed rng.Seed, moves []SeatMove) (Game, error) {
	g, err := New(s, seed)
	if err != nil {
		return nil, err
	}
	for i, m := range moves {
		if g, err = g.Apply(m.Seat, m.Move); err != nil {
			return nil, fmt.Errorf("replay ply %d (%q by seat %d): %w", i, m.Move, m.Seat, err)
		}
	}
	return g, nil
}

// SeatMove is one logged move.
type SeatMove struct {
	Seat int
	Move string
}
