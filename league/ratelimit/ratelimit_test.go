package ratelimit

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func newRedis(t *testing.T) *redis.Client {
	t.Helper()
	opt, err := redis.ParseURL(testenv.Redis(t))
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestTheAttemptOverTheLimitIsRefusedUntilTheWindowSlides(t *testing.T) {
	ctx := context.Background()
	l := New(newRedis(t), quietLog)
	now := time.Unix(1_700_000_000, 0)
	l.now = func() time.Time { return now }
	for i := 0; i < 3; i++ {
		if err := l.Take(ctx, "login:ip:a", 3, time.Minute); err != nil {
			t.Fatalf("attempt %d: %v", i+1, err)
		}
		now = now.Add(10 * time.Second)
	}
	// Fourth attempt at +30 s: the first (at +0) leaves the window at +60 s.
	err := l.Take(ctx, "login:ip:a", 3, time.Minute)
	var le *league.Error
	if !errors.As(err, &le) || le.Code != league.ETOOMANY || le.RetryAfterSeconds != 30 {
		t.Fatalf("fourth attempt = %v, want ETOOMANY with Retry-After 30", err)
	}
	if !strings.HasSuffix(le.Message, "try again in 30 seconds") {
		t.Errorf("refusal says %q; want it to end \"try again in 30 seconds\"", le.Message)
	}
	if err := l.Take(ctx, "login:ip:b", 3, time.Minute); err != nil {
		t.Fatalf("another key shares the budget: %v", err)
	}
	now = now.Add(30 * time.Second)
	if err := l.Take(ctx, "login:ip:a", 3, time.Minute); err != nil {
		t.Fatalf("after the window slid: %v", err)
	}
	if err := l.Take(ctx, "login:ip:a", 3, time.Minute); err == nil {
		t.Fatal("refused attempts were counted as admitted or the window slid too far")
	}
}

// Instances share budgets, and racing instances cannot overshoot the limit.
func TestInstancesShareOneBudget(t *testing.T) {
	ctx := context.Background()
	url := testenv.Redis(t)
	var limiters []*Limiter
	for i := 0; i < 4; i++ {
		opt, _ := redis.ParseURL(url)
		rdb := redis.NewClient(opt)
		t.Cleanup(func() { rdb.Close() })
		limiters = append(limiters, New(rdb, quietLog))
	}
	var mu sync.Mutex
	admitted := 0
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(l *Limiter) {
			defer wg.Done()
			if l.Take(ctx, "register:ip:x", 10, time.Minute) == nil {
				mu.Lock()
				admitted++
				mu.Unlock()
			}
		}(limiters[i%len(limiters)])
	}
	wg.Wait()
	if admitted != 10 {
		t.Fatalf("admitted %d of 40 racing attempts across 4 instances, want exactly 10", admitted)
	}
}

func TestAnUnreachableRedisLetsAttemptsThrough(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	defer rdb.Close()
	if err := New(rdb, quietLog).Take(context.Background(), "k", 1, time.Minute); err != nil {
		t.Fatalf("Take with Redis down = %v, want nil (fail open)", err)
	}
}

// A Redis that accepts connections but never answers (hung, or a network
// that drops replies) must not hold a login for the client's read timeout
// and retries: the limiter gives up after askTimeout and fails open.
func TestAHungRedisLetsAttemptsThroughAtOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var conns []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // held open, never answered
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	}()
	rdb := redis.NewClient(&redis.Options{Addr: ln.Addr().String(), ContextTimeoutEnabled: true})
	defer rdb.Close()
	l := New(rdb, quietLog)
	start := time.Now()
	for i := 0; i < 2; i++ { // a login asks twice: per address and per username
		if err := l.Take(context.Background(), "login:ip:a", 1, time.Minute); err != nil {
			t.Fatalf("Take %d with Redis hung = %v, want nil (fail open)", i+1, err)
		}
	}
	if got, want := time.Since(start), 4*askTimeout; got > want {
		t.Fatalf("two Takes with Redis hung took %v, want at most %v", got, want)
	}
}

// A wait is said in seconds under a minute and in whole minutes, rounded
// up, beyond: "775 s" read as a number to work out.
func TestTheWaitIsSaidInWords(t *testing.T) {
	for secs, want := range map[int]string{1: "1 second", 59: "59 seconds", 60: "1 minute", 61: "2 minutes", 775: "13 minutes", 900: "15 minutes"} {
		if got := waitWords(secs); got != want {
			t.Errorf("waitWords(%d) = %q; want %q", secs, got, want)
		}
	}
}
