package main

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league/testenv"
)

// redisThatHangs is a proxy in front of the test's real Redis that passes
// everything through until hang is called; from then on it reads what
// clients send and answers nothing, as a Redis that has stopped does.
type redisThatHangs struct {
	url  string
	hung atomic.Bool
}

func newRedisThatHangs(t *testing.T) *redisThatHangs {
	t.Helper()
	real, err := url.Parse(testenv.Redis(t))
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
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
	p := &redisThatHangs{}
	u := *real
	u.Host = l.Addr().String()
	p.url = u.String()
	pipe := func(dst, src net.Conn) {
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if err != nil {
				dst.Close()
				return
			}
			if p.hung.Load() {
				continue // read, never passed on
			}
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", real.Host)
			if err != nil {
				c.Close()
				continue
			}
			mu.Lock()
			conns = append(conns, c, s)
			mu.Unlock()
			go pipe(s, c)
			go pipe(c, s)
		}
	}()
	return p
}

func (p *redisThatHangs) hang() { p.hung.Store(true) }

// The HTTP server and the workers each have SEQLEAGUE_SHUTDOWN_TIMEOUT to
// stop; stopped one after the other, a slow request and workers waiting on
// a Redis that hangs took the two together, past the timeout (13.9 s for
// a 10 s timeout, measured with the binary). They now stop side by side.
func TestSIGTERMWithASlowRequestAndRedisHungEndsWithinTheTimeout(t *testing.T) {
	redis := newRedisThatHangs(t)
	env := testEnv(t, testenv.Postgres(t))
	env["REDIS_URL"] = redis.url
	const grace = 4 * time.Second
	env["SEQLEAGUE_SHUTDOWN_TIMEOUT"] = grace.String()
	started := make(chan struct{})
	app, done := startApp(t, env, func(api http.Handler) http.Handler {
		mux := http.NewServeMux()
		mux.Handle("/", api)
		mux.HandleFunc("GET /test/slow", func(w http.ResponseWriter, r *http.Request) {
			close(started)
			time.Sleep(grace - time.Second)
			io.WriteString(w, "finished")
		})
		return mux
	})
	waitReady(t, "http://"+app.Addr())
	answered := make(chan int, 1)
	go func() {
		resp, err := http.Get("http://" + app.Addr() + "/test/slow")
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	<-started
	redis.hang()
	sent := time.Now()
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown returned %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("program still running 30 s after SIGTERM")
	}
	if took := time.Since(sent); took > grace+1500*time.Millisecond {
		t.Fatalf("shutdown took %v with SEQLEAGUE_SHUTDOWN_TIMEOUT=%v", took, grace)
	}
	if code := <-answered; code != http.StatusOK {
		t.Fatalf("the slow request got %d, want 200", code)
	}
}
