package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/postgres"
	"github.com/seqleague/seqleague/league/testenv"
)

// BenchmarkAnAuthenticatedRequest is the cost every signed-in request
// pays before its handler: the token's signature and claims, then the
// account check (its answer reused, as between a player's moves).
func BenchmarkAnAuthenticatedRequest(b *testing.B) {
	ctx := context.Background()
	db, err := postgres.Open(ctx, testenv.Postgres(b), postgres.PoolConfig{MaxOpen: 4})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	accounts := postgres.NewAccounts(db, league.NewPasswordHasher(cheapArgon2, 1), time.Hour)
	d := Deps{Logger: quietLogger, Metrics: prometheus.NewRegistry(), Accounts: accounts,
		Auth: AuthConfig{Secret: []byte(testSecret), Issuer: testIssuer, AccessTokenTTL: 15 * time.Minute}}
	if _, err := accounts.Register(ctx, league.Actor{}, league.NewUser{Username: "ann", Password: "password-ann"}); err != nil {
		b.Fatal(err)
	}
	u, rt, err := accounts.Login(ctx, "ann", "password-ann")
	if err != nil {
		b.Fatal(err)
	}
	token := benchAccessToken(b, d.Auth, u, rt)
	e := New(d)
	e.GET("/bench/signed-in", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) }, authRequired(d))
	req := httptest.NewRequest(http.MethodGet, "/bench/signed-in", nil)
	req.Header.Set(echo.HeaderAuthorization, "Bearer "+token)
	for b.Loop() {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != http.StatusNoContent {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
}

func benchAccessToken(b *testing.B, a AuthConfig, u league.User, rt league.RefreshToken) string {
	tok, err := a.signAccessToken(u.ID, rt.Session, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	return tok
}
