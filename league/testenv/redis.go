package testenv

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

var rd struct {
	once sync.Once
	addr string
	proc *exec.Cmd
	err  error
}

func setupRedis() {
	if url := os.Getenv("TEST_REDIS_URL"); url != "" {
		opt, err := redis.ParseURL(url)
		if err != nil {
			rd.err = fmt.Errorf("TEST_REDIS_URL: %w", err)
			return
		}
		rd.addr = opt.Addr
		return
	}
	if reachable("127.0.0.1:6379") {
		rd.addr = "127.0.0.1:6379"
		return
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		rd.err = fmt.Errorf("no Redis at 127.0.0.1:6379 and no redis-server binary to start one (apt-get install redis-server)")
		return
	}
	port, err := freePort()
	if err != nil {
		rd.err = err
		return
	}
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	if err := cmd.Start(); err != nil {
		rd.err = err
		return
	}
	rd.proc = cmd
	rd.addr = fmt.Sprintf("127.0.0.1:%d", port)
	for i := 0; i < 100 && !reachable(rd.addr); i++ {
		time.Sleep(50 * time.Millisecond)
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// leaseTTL bounds how long a crashed test process can hold a database.
const leaseTTL = 10 * time.Minute

// Redis returns the URL of a Redis database leased to this test alone and
// flushed before use.
func Redis(t TB) string {
	t.Helper()
	rd.once.Do(setupRedis)
	if rd.err != nil {
		unavailable(t, "Redis", rd.err)
		return ""
	}
	ctx := context.Background()
	ctl := redis.NewClient(&redis.Options{Addr: rd.addr, DB: 0})
	defer ctl.Close()
	if err := ctl.Ping(ctx).Err(); err != nil {
		unavailable(t, "Redis", err)
		return ""
	}
	owner := randomSuffix()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		for db := 1; db <= 15; db++ {
			key := fmt.Sprintf("seqleague:testenv:lease:%d", db)
			ok, err := ctl.SetNX(ctx, key, owner, leaseTTL).Result()
			if err != nil {
				t.Fatalf("testenv: lease a Redis database: %v", err)
			}
			if !ok {
				continue
			}
			c := redis.NewClient(&redis.Options{Addr: rd.addr, DB: db})
			c.FlushDB(ctx)
			c.Close()
			t.Cleanup(func() {
				ctl := redis.NewClient(&redis.Options{Addr: rd.addr, DB: 0})
				defer ctl.Close()
				if v, _ := ctl.Get(ctx, key).Result(); v == owner {
					ctl.Del(ctx, key)
				}
			})
			return fmt.Sprintf("redis://%s/%d", rd.addr, db)
		}
		if time.Now().After(deadline) {
			t.Fatalf("testenv: every Redis database stayed leased for 2 minutes")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func stopRedis() {
	if rd.proc != nil {
		rd.proc.Process.Kill()
		rd.proc.Wait()
	}
}

// HungRedis returns the address of a Redis that has stopped answering (a
// stopped process, one side of a network partition): it takes connections
// and reads commands, and never replies. For tests of what a hang does,
// where a refused connection would fail fast.
func HungRedis(t TB) string {
	t.Helper()
	return serveConns(t, func(c net.Conn) { io.Copy(io.Discard, c) })
}

// RedisThatHangs returns the URL of a proxy in front of a Redis database
// leased to this test, passing everything through until hang is called;
// from then on it reads what clients send and answers nothing, as a Redis
// that has stopped does.
func RedisThatHangs(t TB) (redisURL string, hang func()) {
	t.Helper()
	_, redisURL, hang, _ = RedisThatPauses(t)
	return redisURL, hang
}

// RedisThatPauses is RedisThatHangs with resume, which ends the hang: what
// clients sent meanwhile is lost (they time out and drop those
// connections), and what they send from then on is passed through again.
// It returns the URL of the database behind the proxy too, for clients
// that are to reach it directly.
func RedisThatPauses(t TB) (directURL, redisURL string, hang, resume func()) {
	t.Helper()
	directURL = Redis(t)
	real, err := url.Parse(directURL)
	if err != nil {
		t.Fatalf("testenv: %v", err)
	}
	var hung atomic.Bool
	pipe := func(dst, src net.Conn) {
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if err != nil {
				dst.Close()
				return
			}
			if hung.Load() {
				continue // read, never passed on
			}
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
	}
	proxy := *real
	proxy.Host = serveConns(t, func(c net.Conn) {
		s, err := net.Dial("tcp", real.Host)
		if err != nil {
			return
		}
		go pipe(s, c)
		pipe(c, s) // closing c (at the test's end) ends both
	})
	return directURL, proxy.String(), func() { hung.Store(true) }, func() { hung.Store(false) }
}

// serveConns serves each connection to a new local listener with handle,
// in a goroutine of its own, and returns the listener's address; the
// listener and every connection are closed when the test ends.
func serveConns(t TB, handle func(net.Conn)) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("testenv: listen: %v", err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			go func() {
				defer c.Close()
				handle(c)
			}()
		}
	}()
	return l.Addr().String()
}
