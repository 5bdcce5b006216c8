package play

import (
	"fmt"

	"github.com/seqleague/seqleague/engine/bot"
	"github.com/seqleague/seqleague/engine/rng"
)

// chooseBotMove picks seat's move with the bot of level, from seat's view
// only, at the level's default budget, ended early if stop says so.
func chooseBotMove(level string, g Game, seat int, seed uint64, stop func() bool) (string, error) {
	lv, err := bot.ParseLevel(level)
	if err != nil {
		return "", err
	}
	r := rng.NewUint64(seed)
	switch g := g.(type) {
	case *sequenceGame:
		v := g.botView(seat)
		return choose(bot.ForSequence, lv, &v, &r, stop)
	case *stacksGame:
		v := g.botView(seat)
		return choose(bot.ForStacks, lv, &v, &r, stop)
	}
	return "", fmt.Errorf("play: no bot for %T", g)
}

// choose asks the bot of level, built by forLevel, for its move from view.
func choose[V any, M fmt.Stringer](forLevel func(bot.Level) (bot.Bot[V, M], error), level bot.Level, view *V, r *rng.Rand, stop func() bool) (string, error) {
	b, err := forLevel(level)
	if err != nil {
		return "", err
	}
	m, err := b.Choose(view, r, bot.Budget{Stop: stop})
	if err != nil {
		return "", err
	}
	return m.String(), nil
}
