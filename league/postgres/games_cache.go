package postgres

import (
	"container/list"
	"slices"
	"sync"

	"github.com/seqleague/seqleague/engine/play"
)

// stateCache keeps the latest replayed state of recently active games so a
// move does not replay the whole game. A state is used only when its ply
// equals the ply read from the game's row, and entries are put only after
// their transaction committed, so a cached state is always the committed
// truth (replay is deterministic, so every process agrees on it). An entry
// may also hold the row and seats this process last stored (putStored):
// those may be out of date, and are trusted only by a write that checks
// the game's revision (saveTurn).
type stateCache struct {
	mu    sync.Mutex
	size  int
	order *list.List // front = most recent; values are *cacheEntry
	byID  map[string]*list.Element
}

type cacheEntry struct {
	id   string
	game play.Game
	// row and seats are the game as this process last stored it, at
	// row.Revision; nil when game was put without them.
	row   *gameRow
	seats []seatRow
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
		if e.row != nil && e.row.Ply != g.Ply() {
			e.row, e.seats = nil, nil
		}
		c.order.MoveToFront(el)
		return
	}
	c.byID[id] = c.order.PushFront(&cacheEntry{id: id, game: g})
	c.evict()
}

// putStored keeps a game as this process has just committed it: the state
// with its row and seats, so that the next move can skip reading them
// (saveTurn's revision check catches a change made elsewhere since).
func (c *stateCache) putStored(row *gameRow, seats []seatRow, g play.Game) {
	c.put(row.ID, g)
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byID[row.ID]; ok {
		if e := el.Value.(*cacheEntry); e.game.Ply() == row.Ply {
			r := *row
			e.row, e.seats = &r, slices.Clone(seats)
		}
	}
}

// getStored returns copies of what putStored kept.
func (c *stateCache) getStored(id string) (*gameRow, []seatRow, play.Game, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byID[id]
	if !ok {
		return nil, nil, nil, false
	}
	e := el.Value.(*cacheEntry)
	if e.row == nil {
		return nil, nil, nil, false
	}
	r := *e.row
	return &r, slices.Clone(e.seats), e.game, true
}

func (c *stateCache) evict() {
	for c.order.Len() > c.size {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byID, last.Value.(*cacheEntry).id)
	}
}
