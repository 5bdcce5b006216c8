package stacks

import (
	"math/bits"

	"github.com/seqleague/seqleague/engine/rng"
)

// SelfPlayStats sums up a run of random games.
type SelfPlayStats struct {
	Games int
	Wins  []int // per seat
	Draws int
	Plies int // moves applied, block-window answers included
	Turns int // finished turns
}

// Validate reports whether the set-up can be played; the CLI checks it
// before SelfPlay, which returns empty stats for a bad set-up.
func (c Config) Validate() error { return c.validate() }

// SelfPlay plays games random games: every seat, and the server closing
// block windows, picks uniformly among all legal moves. Game i is dealt from
// rng.SeedFromUint64(seed+i), so a run is reproducible and any single game
// can be replayed. Discards are legal moves too, so a random turn stops after
// a few plays; the play cap ends any game that does not finish.
func SelfPlay(cfg Config, games int, seed uint64) SelfPlayStats {
	st := SelfPlayStats{}
	if cfg.validate() != nil || games <= 0 {
		return st
	}
	st.Wins = make([]int, cfg.Players)
	var buf [MaxLegalMoves]Move
	for i := 0; i < games; i++ {
		g := seed + uint64(i)
		s, _ := New(cfg, rng.SeedFromUint64(g))
		policy := rng.NewUint64(^g)
		plies := playRandom(&s, &policy, buf[:0])
		st.Games++
		st.Plies += plies
		st.Turns += s.Turns()
		if o := s.Outcome(); o.Status == Finished {
			st.Wins[o.Winner]++
		} else {
			st.Draws++
		}
	}
	return st
}

// playRandom plays s to the end with uniformly random legal moves and
// returns the number of moves. buf needs capacity MaxLegalMoves.
func playRandom(s *State, r *rng.Rand, buf []Move) int {
	plies := 0
	for !s.Over() {
		s.apply(RandomMove(s, r, buf))
		plies++
	}
	return plies
}

// RandomMove is a uniformly random legal move: LegalMoves(s, buf)[r.IntN(n)]
// for the same generator, without listing the discards one by one (most
// moves of a turn are discards). It is the random policy of SelfPlay and a
// fast playout policy for bots. s must not be over.
func RandomMove(s *State, r *rng.Rand, buf []Move) Move {
	if s.phase != PhasePlay {
		moves := LegalMoves(s, buf)
		return moves[r.IntN(len(moves))]
	}
	if cap(buf) < MaxLegalMoves {
		buf = make([]Move, 0, MaxLegalMoves)
	}
	l := moveList{a: (*[MaxLegalMoves]Move)(buf[:MaxLegalMoves])}
	p := int(s.turn)
	s.playMoves(&l, p)
	mask := s.handMask[p]
	ends := bits.OnesCount32(mask)
	if ends == 0 {
		ends = 1 // "/"
	}
	k := r.IntN(l.n + ends)
	if k < l.n {
		return l.a[k]
	}
	if mask == 0 {
		return EndTurn(p)
	}
	for k -= l.n; k > 0; k-- {
		mask &= mask - 1
	}
	return Discard(p, Card(bits.TrailingZeros32(mask)))
}
