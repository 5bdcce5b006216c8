package sequence

import "github.com/seqleague/seqleague/engine/rng"

// SelfPlayStats sums up a run of random games.
type SelfPlayStats struct {
	Games int
	Wins  [MaxTeams]int // per team
	Draws int
	Plies int64 // moves applied, over all games
	Err   error // a configuration that cannot be played; nothing was played
}

// SelfPlay plays games random legal games (every move drawn uniformly from
// LegalMoves) and counts the results. It is a pure function of its
// arguments: game i is dealt from a seed and played with choices both drawn
// from a generator seeded by seed. The caller times it.
func SelfPlay(cfg Config, games int, seed uint64) SelfPlayStats {
	var stats SelfPlayStats
	if err := cfg.Validate(); err != nil {
		stats.Err = err
		return stats
	}
	master := rng.NewUint64(seed)
	buf := make([]Move, 0, MaxMoves)
	for i := 0; i < games; i++ {
		s, _ := NewGame(cfg, rng.SeedFromUint64(master.Uint64()))
		choices := rng.NewUint64(master.Uint64())
		PlayRandom(&s, &choices, buf)
		stats.Games++
		stats.Plies += int64(s.Ply())
		switch s.Status() {
		case Won:
			stats.Wins[s.Winner()]++
		default:
			stats.Draws++
		}
	}
	return stats
}

// PlayRandom plays uniformly random legal moves until the game ends. buf is
// scratch space for LegalMoves (capacity MaxMoves avoids allocating).
func PlayRandom(s *State, r *rng.Rand, buf []Move) {
	for s.status == Playing {
		moves := LegalMoves(s, buf)
		m := moves[r.IntN(len(moves))]
		chosen, _ := s.check(int(s.turn), m) // listed moves are legal; check finds their windows
		s.apply(int(s.turn), m, chosen)
	}
}
