package play

import (
	"fmt"

	"github.com/seqleague/seqleague/engine/bot"
	"github.com/seqleague/seqleague/engine/rng"
)

// chooseBotMove picks seat's move with the bot of level, from seat's view
// only, at the level's default budget. The same position, seat and seed
// give the same move.
func chooseBotMove(level string, g Game, seat int, seed uint64) (string, error) {
	lv, err := bot.ParseLevel(level)
	if err != nil {
		return "", err
	}
	r := rng.NewUint64(seed)
	switch g := g.(type) {
	case *sequenceGame:
		b, err := bot.ForSequence(lv)
		if err != nil {
			return "", err
		}
		v := g.botView(seat)
		m, err := b.Choose(&v, &r, bot.Budget{})
		if err != nil {
			return "", err
		}
		return m.String(), nil
	case *stacksGame:
		b, err := bot.ForStacks(lv)
		if err != nil {
			return "", err
		}
		v := g.botView(seat)
		m, err := b.Choose(&v, &r, bot.Budget{})
		if err != nil {
			return "", err
		}
		return m.String(), nil
	}
	return "", fmt.Errorf("play: no bot for %T", g)
}
