package postgres

import (
	"container/list"
	"sync"

	"github.com/seqleague/seqleague/engine/play"
)

// stateCache keeps the latest replayed state of recently active games so a
// move does not replay the whole game. An entry is used only when its ply
// equals the ply read from the locked row, and entries are put only after
// their transaction committed, so a cached state is always the committed
// truth (replay is deterministic, so every process agrees on it).
type stateCache struct {
	mu    sync.Mutex
	size  int
	order *list.List // front = most recent; values are *cacheEntry
	byID  map[string]*list.Element
}

type cacheEntry struct {
	id   string
	game play.Game
}

func newStateCache(size int) *stateCache {
	return &stateCache{size: size, order: list.New(), byID: map[string]*list.Element{}}
}

func (c *stateCache) get(id string, ply int) (play.Game, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byID[id]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if e.game.Ply() != ply {
		return nil, false
	}
	c.order.MoveToFront(el)
	return e.game, true
}

func (c *stateCache) put(id string, g play.Game) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byID[id]; ok {
		e := el.Value.(*cacheEntry)
		if e.game.Ply() > g.Ply() {
			return // never move a game backwards
		}
		e.game = g
		c.order.MoveToFront(el)
		return
	}
	c.byID[id] = c.order.PushFront(&cacheEntry{id: id, game: g})
	for c.order.Len() > c.size {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byID, last.Value.(*cacheEntry).id)
	}
}
