package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"math"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/seqleague/seqleague/league"
)

// slidingLog keeps, per key, a sorted set of the admitted attempts of the
// last window (score: time in ms). It drops those that left the window,
// admits the attempt if fewer than the limit remain, and otherwise answers
// how many ms until the oldest leaves. Refused attempts are not recorded, so
// a key never holds more than limit members. One script is atomic, so
// instances racing on a key cannot both take the last slot.
var slidingLog = redis.NewScript(`
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tonumber(oldest[2]) + window - now
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return 0
`)

// askTimeout bounds how long one Take waits for Redis. The script answers in
// well under a millisecond; a Redis that hangs would otherwise hold every
// login and registration for the client's read timeout and retries (3.5 to
// 10 s were measured), when the limiter fails open anyway.
const askTimeout = 250 * time.Millisecond

// Limiter is a sliding-window limiter on Redis.
type Limiter struct {
	rdb    redis.UniversalClient
	prefix string
	logger *slog.Logger
	now    func() time.Time
}

var _ league.Limiter = (*Limiter)(nil)

// New returns a limiter keeping its counts under "seqleague:ratelimit:".
func New(rdb redis.UniversalClient, logger *slog.Logger) *Limiter {
	if logger == nil {
		logger = slog.Default()
	}
	return &Limiter{rdb: rdb, prefix: "seqleague:ratelimit:", logger: logger, now: time.Now}
}

// Take implements league.Limiter. A limit of 0 or less means no limit. If
// Redis cannot be reached, or does not answer within askTimeout, the
// attempt is let through and the failure logged: the limits protect against
// floods and guessing, and an outage of Redis should not also lock everyone
// out (the password hasher's own cap still bounds the work).
func (l *Limiter) Take(ctx context.Context, key string, limit int, window time.Duration) error {
	if limit <= 0 || window <= 0 {
		return nil
	}
	now := l.now().UnixMilli()
	askCtx, cancel := context.WithTimeout(ctx, askTimeout)
	defer cancel()
	wait, err := slidingLog.Run(askCtx, l.rdb, []string{l.prefix + key},
		now, window.Milliseconds(), limit, strconv.FormatInt(now, 10)+"-"+nonce()).Int64()
	if err != nil {
		l.logger.WarnContext(ctx, "rate limiter unavailable; letting the attempt through", "key", key, "error", err)
		return nil
	}
	if wait <= 0 {
		return nil
	}
	secs := int(math.Ceil(float64(wait) / 1000))
	if secs < 1 {
		secs = 1
	}
	return &league.Error{Code: league.ETOOMANY, Message: "too many attempts; try again in " + waitWords(secs), RetryAfterSeconds: secs}
}

// waitWords says a wait the way a person reads it: seconds under a minute,
// else whole minutes, rounded up so that trying at the time said works
// ("775 s" is 13 minutes).
func waitWords(secs int) string {
	if secs < 60 {
		return plural(secs, "second")
	}
	return plural((secs+59)/60, "minute")
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// Refund implements league.Limiter: it drops the newest attempt counted
// at key. Which one goes does not matter, only how many stay; the newest
// leaves the others' ages, and so the wait the budget answers, as they were.
// A Redis that cannot be reached is logged, as in Take: the attempt then
// stays counted.
func (l *Limiter) Refund(ctx context.Context, key string) {
	askCtx, cancel := context.WithTimeout(ctx, askTimeout)
	defer cancel()
	if err := l.rdb.ZPopMax(askCtx, l.prefix+key, 1).Err(); err != nil {
		l.logger.WarnContext(ctx, "rate limiter unavailable; an attempt stays counted", "key", key, "error", err)
	}
}

func nonce() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}
