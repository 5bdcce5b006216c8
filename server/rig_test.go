package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/postgres"
	"github.com/seqleague/seqleague/league/ratelimit"
	"github.com/seqleague/seqleague/league/testenv"
)

// The accounts rig: the server over real account and club services on
// PostgreSQL, with the limiter on Redis.

const (
	testSecret = "test-secret-0123456789-0123456789-abcdef"
	testIssuer = "https://seqleague.test"
)

// cheapArgon2 keeps tests that create many accounts fast.
var cheapArgon2 = league.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

type rig struct {
	t        *testing.T
	e        *echo.Echo
	d        Deps
	db       *postgres.DB
	redisURL string
	accounts *postgres.Accounts
	clubs    *postgres.Clubs
	hasher   *league.PasswordHasher
}

func newRig(t *testing.T, tweak ...func(*Deps)) *rig {
	t.Helper()
	db, err := postgres.Open(context.Background(), testenv.Postgres(t), postgres.PoolConfig{MaxOpen: 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	url := testenv.Redis(t)
	hasher := league.NewPasswordHasher(cheapArgon2, 2)
	r := &rig{t: t, db: db, redisURL: url, hasher: hasher,
		accounts: postgres.NewAccounts(db, hasher, time.Hour), clubs: postgres.NewClubs(db)}
	r.d = Deps{
		Logger:   quietLogger,
		Metrics:  prometheus.NewRegistry(),
		Accounts: r.accounts,
		Clubs:    r.clubs,
		Limiter:  ratelimit.New(r.redis(), quietLogger),
		Auth: AuthConfig{Secret: []byte(testSecret), Issuer: testIssuer, AccessTokenTTL: 15 * time.Minute,
			RateWindow: time.Minute, RatePerIP: 1000, RatePerUsername: 1000},
	}
	for _, f := range tweak {
		f(&r.d)
	}
	r.e = New(r.d)
	return r
}

// redis is a new client of the rig's Redis database.
func (r *rig) redis() *redis.Client {
	opt, err := redis.ParseURL(r.redisURL)
	if err != nil {
		r.t.Fatal(err)
	}
	c := redis.NewClient(opt)
	r.t.Cleanup(func() { c.Close() })
	return c
}

// user creates an account through the service and returns its ID and an
// access token.
func (r *rig) user(name string, admin bool) (string, string) {
	r.t.Helper()
	actor := league.Actor{}
	if admin {
		actor = league.SystemActor
	}
	u, err := r.accounts.Register(context.Background(), actor, league.NewUser{Username: name, Password: "password-" + name, Admin: admin})
	if err != nil {
		r.t.Fatalf("create %s: %v", name, err)
	}
	return u.ID, r.token(u.ID)
}

func (r *rig) token(userID string) string {
	r.t.Helper()
	tok, err := r.d.Auth.signAccessToken(userID, "", time.Now())
	if err != nil {
		r.t.Fatal(err)
	}
	return tok
}

// call is one request through the router. Options edit the request.
func (r *rig) call(method, path, body, token string, opts ...func(*http.Request)) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	}
	if token != "" {
		req.Header.Set(echo.HeaderAuthorization, "Bearer "+token)
	}
	req.RemoteAddr = "192.0.2.10:40000"
	for _, o := range opts {
		o(req)
	}
	rec := httptest.NewRecorder()
	r.e.ServeHTTP(rec, req)
	return rec
}

func from(addr string) func(*http.Request) {
	return func(req *http.Request) { req.RemoteAddr = addr }
}

func withHeader(k, v string) func(*http.Request) {
	return func(req *http.Request) { req.Header.Set(k, v) }
}

func withCookie(c *http.Cookie) func(*http.Request) {
	return func(req *http.Request) { req.AddCookie(c) }
}

func (r *rig) count(table string) int64 {
	r.t.Helper()
	var n int64
	if err := r.db.Gorm.Table(table).Count(&n).Error; err != nil {
		r.t.Fatal(err)
	}
	return n
}

type problemBody struct {
	Status int
	Detail string
	Errors []struct{ Field, Message string }
}

// wantProblem checks a problem+json answer and, if field is set, that it
// names that field.
func wantProblem(t *testing.T, rec *httptest.ResponseRecorder, status int, field string) problemBody {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status = %d, want %d: %s", rec.Code, status, rec.Body)
	}
	if ct := rec.Header().Get(echo.HeaderContentType); ct != "application/problem+json" {
		t.Errorf("Content-Type = %q, want application/problem+json", ct)
	}
	var p problemBody
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		t.Fatalf("problem is not JSON: %v: %s", err, rec.Body)
	}
	if field != "" {
		found := false
		for _, f := range p.Errors {
			found = found || f.Field == field
		}
		if !found {
			t.Errorf("errors = %+v, want one naming %q", p.Errors, field)
		}
	}
	return p
}

func decode[T any](t *testing.T, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("body is not the expected JSON: %v: %s", err, rec.Body)
	}
	return v
}
