package server

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

func TestTheRequestLogHoldsNoAccessToken(t *testing.T) {
	var buf bytes.Buffer
	e := echo.New()
	e.Use(requestLogger(slog.New(slog.NewTextHandler(&buf, nil))))
	e.GET("/api/v1/games/:id/events", func(c echo.Context) error { return c.NoContent(http.StatusOK) })

	const token = "eyJhbGciOiJIUzI1NiJ9.secret-claims.signature"
	req := httptest.NewRequest(http.MethodGet, "/api/v1/games/g1/events?last_event_id=7&access_token="+token, nil)
	e.ServeHTTP(httptest.NewRecorder(), req)

	logged := buf.String()
	if strings.Contains(logged, "secret-claims") {
		t.Fatalf("the log holds the token: %s", logged)
	}
	if !strings.Contains(logged, "last_event_id=7") || !strings.Contains(logged, "access_token=REDACTED") {
		t.Fatalf("the log should keep the rest of the query and mark the token as redacted: %s", logged)
	}
}

func TestRedactURILeavesOtherQueriesAlone(t *testing.T) {
	for in, want := range map[string]string{
		"/api/v1/clubs":                              "/api/v1/clubs",
		"/api/v1/clubs?q=corner&limit=5":             "/api/v1/clubs?q=corner&limit=5",
		"/x?access_token=a;b":                        "/x?[unparsable query redacted]",
		"/x?acc%65ss_token=secret&a=1":               "/x?a=1&access_token=REDACTED",
		"/x?access%5Ftoken=secret":                   "/x?access_token=REDACTED",
		"/x?ACCESS_TOKEN=secret":                     "/x?ACCESS_TOKEN=REDACTED",
		"/x?refresh_token=EEEEsecret5":               "/x?refresh_token=REDACTED",
		"/x?password=hunter2&a=1":                    "/x?a=1&password=REDACTED",
		"/x?t=eyJhbGciOi.eyJzdWIi.c2ln":              "/x?t=REDACTED",
		"/x?access_token%3DeyJhbGciOi.eyJzdWIi.c2ln": "/x?REDACTED=",
	} {
		if got := redactURI(in); got != want {
			t.Errorf("redactURI(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAQueryWithABadEscapeIsRefused(t *testing.T) {
	e := echo.New()
	e.HTTPErrorHandler = errorHandler(slog.New(slog.DiscardHandler), nil)
	e.Use(wellFormedQuery)
	e.GET("/clubs", func(c echo.Context) error { return c.NoContent(http.StatusOK) })
	for _, query := range []string{"limit=%zz", "limit=0%", "limit=5&x=%zz"} {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/clubs?"+query, nil))
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `"field":"query"`) {
			t.Errorf("?%s: %d %s; want a 400 problem naming the query", query, rec.Code, rec.Body)
		}
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/clubs?q=a%20b&limit=5", nil))
	if rec.Code != http.StatusOK {
		t.Errorf("a good query: %d", rec.Code)
	}
}
