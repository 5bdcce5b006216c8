package play

import (
	"fmt"

	"github.com/seqleague/seqleague/engine/rng"
)

// chooseBotMove picks seat's move. TEMPORARY until engine/bot lands: every
// level plays a uniformly random legal move.
func chooseBotMove(level string, g Game, seat int, seed uint64) (string, error) {
	moves := g.LegalMoves(seat)
	if len(moves) == 0 {
		return "", fmt.Errorf("seat %d has no legal move", seat)
	}
	r := rng.NewUint64(seed)
	return moves[r.IntN(len(moves))], nil
}
