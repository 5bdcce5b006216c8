package postgres

import (
	"sync"
	"time"

	"github.com/seqleague/seqleague/league"
)

// actorTTL is how long an account check is reused. Every authenticated
// request checks that its account still exists, whether it is an admin
// and whether its session was ended; a player making moves would otherwise
// pay a database round trip per move for the same answer. A change made
// through this process (SetAdmin, Delete, Logout, a password change)
// applies at once; one made elsewhere (another instance, the admin
// command) within actorTTL: a signed-out session's access token still
// passes on another instance for at most this long.
const actorTTL = time.Second

// actorCacheMax bounds the cache; past it, expired entries are swept.
const actorCacheMax = 100_000

type actorCache struct {
	mu      sync.Mutex
	entries map[string]cachedActor
}

// actorAnswer is what the database said about an account, and about the
// one session asked after.
type actorAnswer struct {
	actor league.Actor
	// sessionsSince ends access tokens issued before it (a password change).
	sessionsSince *time.Time
	// sessionEnded: the session (refresh-token family) was revoked.
	sessionEnded bool
}

type cachedActor struct {
	actorAnswer
	// endedSessions holds, for every session asked after while the entry
	// lives, whether it was ended ("" is no session and never ended).
	endedSessions map[string]bool
	until         time.Time
}

func newActorCache() *actorCache { return &actorCache{entries: map[string]cachedActor{}} }

// get answers from the cache when it holds a fresh answer for the account
// and for the session.
func (c *actorCache) get(userID, session string, now time.Time) (actorAnswer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[userID]
	if !ok || !now.Before(e.until) {
		return actorAnswer{}, false
	}
	a := e.actorAnswer
	if session != "" {
		if a.sessionEnded, ok = e.endedSessions[session]; !ok {
			return actorAnswer{}, false
		}
	}
	return a, true
}

// put keeps an answer about an account and session. Another session of an
// account already cached joins its entry (which keeps its expiry), so that
// two devices of one player do not evict each other's answers.
func (c *actorCache) put(a actorAnswer, session string, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	userID := a.actor.UserID
	e, ok := c.entries[userID]
	if !ok || !now.Before(e.until) {
		c.makeRoom(now)
		e = cachedActor{endedSessions: map[string]bool{}, until: now.Add(actorTTL)}
	}
	e.actorAnswer = a
	e.sessionEnded = false
	if session != "" {
		e.endedSessions[session] = a.sessionEnded
	}
	c.entries[userID] = e
}

func (c *actorCache) makeRoom(now time.Time) {
	if len(c.entries) < actorCacheMax {
		return
	}
	for id, e := range c.entries {
		if !now.Before(e.until) {
			delete(c.entries, id)
		}
	}
	if len(c.entries) >= actorCacheMax {
		clear(c.entries)
	}
}

func (c *actorCache) forget(userID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, userID)
}
