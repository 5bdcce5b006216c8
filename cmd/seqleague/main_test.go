package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league/postgres"
	"github.com/seqleague/seqleague/league/testenv"
	"github.com/seqleague/seqleague/migrations"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// envOf turns a map into a getenv function.
func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func testEnv(t *testing.T, dsn string) map[string]string {
	return map[string]string{
		"SEQLEAGUE_ADDR":      "127.0.0.1:0",
		"DATABASE_URL":        dsn,
		"REDIS_URL":           testenv.Redis(t),
		"SEQLEAGUE_DATA_DIR":  t.TempDir(),
		"JWT_SECRET":          strings.Repeat("k", 32),
		"SEQLEAGUE_LOG_LEVEL": logLevelForTests(),
	}
}

func startApp(t *testing.T, env map[string]string, wrap func(http.Handler) http.Handler) (*App, chan error) {
	t.Helper()
	cfg, err := LoadConfig(envOf(env))
	if err != nil {
		t.Fatal(err)
	}
	app := &App{cfg: cfg, mode: Mode{API: true, Workers: true}, logger: newLogger(cfg, testLogWriter()), wrap: wrap}
	done := make(chan error, 1)
	ready := make(chan struct{})
	go func() {
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		app.startedHook = func() { close(ready) }
		done <- serveUntilSignal(ctx, app)
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("app stopped during start: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("app did not start within 60 s")
	}
	return app, done
}

func waitReady(t *testing.T, base string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s/readyz never answered 200", base)
}

func TestWholeProgramServesAndMigrationsRoundTrip(t *testing.T) {
	dsn := testenv.EmptyPostgres(t)
	env := testEnv(t, dsn)
	app, done := startApp(t, env, nil)
	base := "http://" + app.Addr()
	waitReady(t, base)

	for _, path := range []string{"/healthz", "/metrics", "/api/v1/openapi.json", "/api/docs"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s = %d, want 200", path, resp.StatusCode)
		}
		if path == "/metrics" && !bytes.Contains(body, []byte("go_goroutines")) {
			t.Errorf("/metrics lacks Go runtime metrics")
		}
	}
	sendSIGTERM(t)
	if err := <-done; err != nil {
		t.Fatalf("shutdown: %v", err)
	}

	// migrate down to nothing, then up again, through the subcommand.
	ctx := context.Background()
	var out bytes.Buffer
	for {
		db, err := postgres.Open(ctx, dsn, postgres.PoolConfig{MaxOpen: 1})
		if err != nil {
			t.Fatal(err)
		}
		list, err := migrations.List(ctx, db.SQL)
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
		applied := 0
		for _, m := range list {
			if m.Applied {
				applied++
			}
		}
		if applied == 0 {
			break
		}
		if code := run(ctx, []string{"migrate", "down"}, envOf(env), &out, &out); code != 0 {
			t.Fatalf("migrate down exit %d: %s", code, out.String())
		}
	}
	if code := run(ctx, []string{"migrate", "up"}, envOf(env), &out, &out); code != 0 {
		t.Fatalf("migrate up exit %d: %s", code, out.String())
	}
	out.Reset()
	if code := run(ctx, []string{"migrate", "status"}, envOf(env), &out, &out); code != 0 {
		t.Fatalf("migrate status exit %d: %s", code, out.String())
	}
	if strings.Contains(out.String(), "pending") || !strings.Contains(out.String(), "applied") {
		t.Fatalf("after down and up, status shows:\n%s", out.String())
	}
}

// A binary older than the database's schema refuses to migrate (and so to
// start), and `migrate status` shows the migration it does not know.
func TestAnOlderBinaryRefusesANewerSchema(t *testing.T) {
	dsn := testenv.EmptyPostgres(t)
	env := testEnv(t, dsn)
	ctx := context.Background()
	var out bytes.Buffer
	if code := run(ctx, []string{"migrate", "up"}, envOf(env), &out, &out); code != 0 {
		t.Fatalf("migrate up exit %d: %s", code, out.String())
	}
	db, err := postgres.Open(ctx, dsn, postgres.PoolConfig{MaxOpen: 1})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Gorm.Exec("INSERT INTO goose_db_version (version_id, is_applied) VALUES (9999, true)").Error
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run(ctx, []string{"migrate", "up"}, envOf(env), &out, &out); code == 0 || !strings.Contains(out.String(), "newer than this binary") {
		t.Fatalf("migrate up on a newer schema: exit %d, %q", code, out.String())
	}
	out.Reset()
	if code := run(ctx, []string{"migrate", "status"}, envOf(env), &out, &out); code != 0 || !strings.Contains(out.String(), "9999") {
		t.Fatalf("migrate status on a newer schema: exit %d:\n%s", code, out.String())
	}
}

func TestSIGTERMLetsASlowRequestFinish(t *testing.T) {
	env := testEnv(t, testenv.Postgres(t))
	started := make(chan struct{})
	app, done := startApp(t, env, func(api http.Handler) http.Handler {
		mux := http.NewServeMux()
		mux.Handle("/", api)
		mux.HandleFunc("GET /test/slow", func(w http.ResponseWriter, r *http.Request) {
			close(started)
			time.Sleep(2 * time.Second)
			io.WriteString(w, "finished")
		})
		return mux
	})
	base := "http://" + app.Addr()
	waitReady(t, base)

	type result struct {
		status int
		body   string
		err    error
	}
	res := make(chan result, 1)
	go func() {
		resp, err := http.Get(base + "/test/slow")
		if err != nil {
			res <- result{err: err}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		res <- result{status: resp.StatusCode, body: string(b)}
	}()
	<-started
	sent := sendSIGTERM(t)
	r := <-res
	if r.err != nil || r.status != http.StatusOK || r.body != "finished" {
		t.Fatalf("slow request during shutdown = %d %q %v, want 200 \"finished\"", r.status, r.body, r.err)
	}
	wantEndedWithin(t, done, sent, 10*time.Second)
	// New connections are refused once shutdown began.
	if _, err := http.Get(base + "/healthz"); err == nil {
		t.Fatal("server still accepts requests after shutdown")
	}
}

// buildBinary compiles the program once per test run.
var buildOnce struct {
	sync.Once
	path string
	err  error
}

func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "seqleague-bin-")
		if err != nil {
			buildOnce.err = err
			return
		}
		buildOnce.path = filepath.Join(dir, "seqleague")
		out, err := exec.Command("go", "build", "-o", buildOnce.path, ".").CombinedOutput()
		if err != nil {
			buildOnce.err = fmt.Errorf("go build: %v: %s", err, out)
		}
	})
	if buildOnce.err != nil {
		t.Fatal(buildOnce.err)
	}
	return buildOnce.path
}

func TestSixConcurrentMigrateUpAllSucceed(t *testing.T) {
	dsn := testenv.EmptyPostgres(t)
	bin := binary(t)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	outs := make([][]byte, 6)
	start := time.Now()
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cmd := exec.Command(bin, "migrate", "up")
			cmd.Env = append(os.Environ(), "DATABASE_URL="+dsn, "SEQLEAGUE_DATA_DIR="+t.TempDir(), "SEQLEAGUE_LOG_LEVEL=warn")
			outs[i], errs[i] = cmd.CombinedOutput()
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("process %d: %v\n%s", i, err, outs[i])
		}
	}
	t.Logf("six concurrent `migrate up` finished in %v", time.Since(start).Round(time.Millisecond))
}

func TestConfigMasksSecrets(t *testing.T) {
	env := map[string]string{
		"DATABASE_URL": "postgres://app:hunter2@db.example:5432/seq?sslmode=disable&password=s3cret",
		"REDIS_URL":    "redis://:pw-in-url@cache.example:6379/0?password=qs-secret",
		"JWT_SECRET":   "super-secret-super-secret-super-secret",
	}
	var out bytes.Buffer
	if code := run(context.Background(), []string{"config"}, envOf(env), &out, &out); code != 0 {
		t.Fatalf("config exit %d: %s", code, out.String())
	}
	got := out.String()
	for _, secret := range []string{"hunter2", "super-secret", "s3cret", "pw-in-url", "qs-secret"} {
		if strings.Contains(got, secret) {
			t.Errorf("config output shows secret %q:\n%s", secret, got)
		}
	}
	for _, want := range []string{"db.example:5432", "sslmode=disable", "SEQLEAGUE_ADDR", ":8080", "SEQLEAGUE_DATA_DIR"} {
		if !strings.Contains(got, want) {
			t.Errorf("config output lacks %q:\n%s", want, got)
		}
	}
}

// The serving commands take no arguments: `serve --help` or a stray flag
// must not start a live server with its defaults.
func TestServingCommandsRefuseArguments(t *testing.T) {
	for _, args := range [][]string{{"serve", "--help"}, {"work", "--bogus"}, {"all", "--port", "9999"}, {"config", "-v"}} {
		var out bytes.Buffer
		if code := run(context.Background(), args, envOf(nil), &out, &out); code != 2 || !strings.Contains(out.String(), "takes no arguments") {
			t.Errorf("%v: exit %d, %q; want 2 and a usage message", args, code, out.String())
		}
	}
}

// `serve` and `work` share their queue and events through Redis: on their
// own in-process Redis they would be cut off, so they refuse to start.
func TestServeAndWorkNeedARealRedis(t *testing.T) {
	for _, cmd := range []string{"serve", "work"} {
		var out bytes.Buffer
		code := run(context.Background(), []string{cmd}, envOf(map[string]string{"DATABASE_URL": testenv.Postgres(t)}), &out, &out)
		if code == 0 || !strings.Contains(out.String(), "REDIS_URL is required") {
			t.Errorf("%s without REDIS_URL: exit %d, %q", cmd, code, out.String())
		}
	}
}

// A Redis URL the parser refuses is reported without its password.
func TestABadRedisURLIsReportedWithoutItsPassword(t *testing.T) {
	var out bytes.Buffer
	code := run(context.Background(), []string{"work"}, envOf(map[string]string{
		"DATABASE_URL": testenv.Postgres(t), "REDIS_URL": "redis://:TopSecretPw@127.0.0.1:notaport/10"}), &out, &out)
	if code == 0 || strings.Contains(out.String(), "TopSecretPw") || !strings.Contains(out.String(), "REDIS_URL") {
		t.Fatalf("exit %d, output %q; want a failure naming REDIS_URL without the password", code, out.String())
	}
}

func TestBadConfigurationIsRefusedWithTheVariableNamed(t *testing.T) {
	for name, value := range map[string]string{"SEQLEAGUE_LOG_FORMAT": "xml", "JWT_SECRET": "short", "SEQLEAGUE_PUBLIC_URL": "notaurl"} {
		for _, cmd := range []string{"serve", "config"} {
			var out bytes.Buffer
			code := run(context.Background(), []string{cmd}, envOf(map[string]string{name: value}), &out, &out)
			if code == 0 || !strings.Contains(out.String(), name) {
				t.Errorf("%s with %s=%q: exit %d, output %q; want a failure naming %s", cmd, name, value, code, out.String(), name)
			}
		}
	}
}

// testLogWriter shows the program's logs when SEQLEAGUE_TEST_LOGS is set.
func testLogWriter() io.Writer {
	if os.Getenv("SEQLEAGUE_TEST_LOGS") != "" {
		return os.Stderr
	}
	return io.Discard
}

func logLevelForTests() string {
	if os.Getenv("SEQLEAGUE_TEST_LOGS") != "" {
		return "debug"
	}
	return "warn"
}

// Open casual tables lapse after a day unless configured otherwise; 0s
// keeps them for ever, and a value that is no duration is refused by name.
func TestTheOpenTableLifetimeIsConfigured(t *testing.T) {
	for value, want := range map[string]time.Duration{"": 24 * time.Hour, "90m": 90 * time.Minute, "0s": 0} {
		cfg, err := LoadConfig(envOf(map[string]string{"SEQLEAGUE_OPEN_TABLE_LIFETIME": value}))
		if err != nil || cfg.OpenTableLifetime != want {
			t.Errorf("SEQLEAGUE_OPEN_TABLE_LIFETIME=%q: %v, %v; want %v", value, cfg.OpenTableLifetime, err, want)
		}
	}
	for _, value := range []string{"a day", "-1h"} {
		if _, err := LoadConfig(envOf(map[string]string{"SEQLEAGUE_OPEN_TABLE_LIFETIME": value})); err == nil ||
			!strings.Contains(err.Error(), "SEQLEAGUE_OPEN_TABLE_LIFETIME") {
			t.Errorf("SEQLEAGUE_OPEN_TABLE_LIFETIME=%q: %v; want a refusal naming it", value, err)
		}
	}
}
