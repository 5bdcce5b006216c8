package postgres

import (
	"sync"
	"time"

	"github.com/seqleague/seqleague/league"
)

// actorTTL is how long an account check is reused. Every authenticated
// request checks that its account still exists and whether it is an admin;
// a player making moves would otherwise pay a database round trip per move
// for the same answer. A change made through this process (SetAdmin,
// Delete) applies at once; one made elsewhere (another instance, the admin
// command) within actorTTL.
const actorTTL = time.Second

// actorCacheMax bounds the cache; past it, expired entries are swept.
const actorCacheMax = 100_000

type actorCache struct {
	mu      sync.Mutex
	entries map[string]cachedActor
}

type cachedActor struct {
	actor league.Actor
	// sessionsSince ends access tokens issued before it (a password change).
	sessionsSince *time.Time
	until         time.Time
}

func newActorCache() *actorCache { return &actorCache{entries: map[string]cachedActor{}} }

func (c *actorCache) get(userID string, now time.Time) (cachedActor, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[userID]
	if !ok || !now.Before(e.until) {
		return cachedActor{}, false
	}
	return e, true
}

func (c *actorCache) put(e cachedActor, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= actorCacheMax {
		for id, e := range c.entries {
			if !now.Before(e.until) {
				delete(c.entries, id)
			}
		}
		if len(c.entries) >= actorCacheMax {
			clear(c.entries)
		}
	}
	e.until = now.Add(actorTTL)
	c.entries[e.actor.UserID] = e
}

func (c *actorCache) forget(userID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, userID)
}
