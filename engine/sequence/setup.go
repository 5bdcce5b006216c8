package sequence

import "github.com/seqleague/seqleague/engine/rng"

// NewGame shuffles and deals a new game. The deck is built in canonical
// order (see fillDeck), shuffled with rng.Shuffle from the generator seeded
// by seed — the same generator later reshuffles the discards — and dealt one
// card at a time from the top, seat 0 first, until every hand is full. The
// top of the shuffled deck is its last element. Seat 0 moves first.
func NewGame(cfg Config, seed rng.Seed) (State, error) {
	cfg, err := cfg.Normalize()
	if err != nil {
		return State{}, err
	}
	s := State{Table: newTable(cfg), rng: rng.New(seed)}
	n := fillDeck(&s.deck, cfg.Variant)
	rng.Shuffle(&s.rng, s.deck[:n])
	s.deckN = uint8(n)
	for round := 0; round < int(s.dealSize); round++ {
		for seat := 0; seat < cfg.Players; seat++ {
			s.draw(seat)
		}
	}
	return s, nil
}
