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
}

// CreationWindow is the period over which an account's creations (clubs,
// tournaments) count against its budget of each: a day, the unit people
// plan clubs and events in.
const CreationWindow = 24 * time.Hour
