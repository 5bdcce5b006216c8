package stacks

import (
	"fmt"

	"github.com/seqleague/seqleague/engine/rng"
)

// Replay rebuilds a game from its set-up, seed and moves, the way a server
// restores a game or an archive is checked (rules.md part 3). The state holds
// its generator, which Position does not carry, so a game is stored as
// (config, seed, moves) and replayed rather than restored from a position.
func Replay(cfg Config, seed rng.Seed, moves []Move) (State, error) {
	s, err := New(cfg, seed)
	if err != nil {
		return s, err
	}
	for i, m := range moves {
		if err := s.Apply(m); err != nil {
			return s, fmt.Errorf("stacks: move %d (seat %d %s): %w", i, m.Seat, m, err)
		}
	}
	return s, nil
}
