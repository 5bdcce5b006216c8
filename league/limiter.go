package league

import (
	"context"
	"time"
)

// Limiter counts attempts against budgets shared by every API instance.
type Limiter interface {
	// Take counts one attempt at key against limit attempts per sliding
	// window. Over the limit it counts nothing and returns ETOOMANY with
	// RetryAfterSeconds set to when the oldest counted attempt leaves the
	// window.
	Take(ctx context.Context, key string, limit int, window time.Duration) error
	// Refund gives back one attempt counted at key: an attempt that turned
	// out to be no guess (the right password) should not use up the budget
	// that slows guessing, or ten sign-ins from a family's devices in a
	// quarter of an hour would lock the account.
	Refund(ctx context.Context, key string)
}

// CreationWindow is the period over which an account's creations (clubs,
// tournaments) count against its budget of each: a day, the unit people
// plan clubs and events in.
const CreationWindow = 24 * time.Hour
