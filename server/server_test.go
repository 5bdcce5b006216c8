package server

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/seqleague/seqleague/league"
)

func newTestServer(t *testing.T, ready map[string]Check) *echo.Echo {
	t.Helper()
	return New(Deps{Metrics: prometheus.NewRegistry(), Ready: ready, Logger: quietLogger})
}

var quietLogger = slog.New(slog.NewTextHandler(io.Discard, nil))

func do(e *echo.Echo, method, path string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, nil)
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	return rec
}

func TestReadyzReportsEachDependency(t *testing.T) {
	down := func(context.Context) error { return errors.New("connection refused") }
	up := func(context.Context) error { return nil }
	hangs := func(context.Context) error { time.Sleep(time.Hour); return nil } // ignores its context
	old := readyTimeout
	readyTimeout = 100 * time.Millisecond
	t.Cleanup(func() { readyTimeout = old })
	for _, tc := range []struct {
		name   string
		checks map[string]Check
		want   int
	}{
		{"all up is ready", map[string]Check{"postgres": up, "redis": up}, http.StatusOK},
		{"redis down is unavailable", map[string]Check{"postgres": up, "redis": down}, http.StatusServiceUnavailable},
		{"a check that hangs is unavailable", map[string]Check{"postgres": up, "redis": hangs}, http.StatusServiceUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(newTestServer(t, tc.checks), http.MethodGet, "/readyz")
			if rec.Code != tc.want {
				t.Fatalf("status = %d, want %d (%s)", rec.Code, tc.want, rec.Body)
			}
			if strings.Contains(rec.Body.String(), "connection refused") {
				t.Errorf("readyz leaks the error text: %s", rec.Body)
			}
			if !strings.Contains(rec.Body.String(), `"postgres":"ok"`) {
				t.Errorf("postgres, which answered, is not ok: %s", rec.Body)
			}
		})
	}
}

func TestErrorsAreProblemJSON(t *testing.T) {
	e := newTestServer(t, nil)
	e.GET("/test/invalid", func(c echo.Context) error {
		return league.Invalid("bad input", league.FieldError{Field: "username", Message: "too short"})
	})
	e.GET("/test/internal", func(c echo.Context) error { return errors.New("secret database detail") })
	e.GET("/test/panic", func(c echo.Context) error { panic("boom") })
	e.GET("/test/limited", func(c echo.Context) error {
		return &league.Error{Code: league.ETOOMANY, Message: "slow down", RetryAfterSeconds: 7}
	})
	for _, tc := range []struct {
		path       string
		wantStatus int
		wantField  string
	}{
		{"/test/invalid", http.StatusBadRequest, "username"},
		{"/test/internal", http.StatusInternalServerError, ""},
		{"/test/panic", http.StatusInternalServerError, ""},
		{"/test/limited", http.StatusTooManyRequests, ""},
		{"/api/v1/no/such/route", http.StatusNotFound, ""},
	} {
		t.Run(tc.path, func(t *testing.T) {
			rec := do(e, http.MethodGet, tc.path)
			if rec.Code != tc.wantStatus {
				t.Fatalf("status = %d, want %d", rec.Code, tc.wantStatus)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/problem+json" {
				t.Errorf("Content-Type = %q, want application/problem+json", ct)
			}
			var p struct {
				Status    int
				Detail    string
				RequestID string `json:"request_id"`
				Errors    []struct{ Field, Message string }
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
				t.Fatalf("body is not JSON: %v: %s", err, rec.Body)
			}
			if p.Status != tc.wantStatus || p.RequestID == "" {
				t.Errorf("problem = %+v, want status %d and a request id", p, tc.wantStatus)
			}
			if tc.wantField != "" && (len(p.Errors) != 1 || p.Errors[0].Field != tc.wantField) {
				t.Errorf("errors = %+v, want one for field %q", p.Errors, tc.wantField)
			}
			if strings.Contains(rec.Body.String(), "secret database detail") || strings.Contains(rec.Body.String(), "boom") {
				t.Errorf("internal detail leaked: %s", rec.Body)
			}
		})
	}
	if got := do(e, http.MethodGet, "/test/limited").Header().Get("Retry-After"); got != "7" {
		t.Errorf("Retry-After = %q, want 7", got)
	}
}

func TestMetricsLabelRoutesByPattern(t *testing.T) {
	e := newTestServer(t, nil)
	e.GET("/test/items/:id", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) })
	do(e, http.MethodGet, "/test/items/123")
	do(e, http.MethodGet, "/test/items/456")
	body := do(e, http.MethodGet, "/metrics").Body.String()
	if !strings.Contains(body, `route="/test/items/:id",status="204"} 2`) {
		t.Errorf("metrics lack a per-pattern series counting both requests:\n%s", grep(body, "seqleague_http_requests_total"))
	}
	if strings.Contains(body, "/test/items/123") {
		t.Error("metrics are labelled by raw path")
	}
	// Made-up methods share one label, or each would start new series.
	for _, m := range []string{"M1", "M2", "BREW"} {
		do(e, m, "/healthz")
	}
	body = do(e, http.MethodGet, "/metrics").Body.String()
	if strings.Contains(body, `method="M1"`) || !strings.Contains(body, `method="OTHER",route="/healthz"`) {
		t.Errorf("made-up methods are labelled one by one:\n%s", grep(body, "/healthz"))
	}
}

func TestBodyLimitRefusesOversizedBodies(t *testing.T) {
	e := newTestServer(t, nil)
	e.POST("/test/echo", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) })
	req := httptest.NewRequest(http.MethodPost, "/test/echo", strings.NewReader(strings.Repeat("x", 70<<10)))
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("status = %d, want 413", rec.Code)
	}
	// It says what the limit is, not only the status's name.
	if !strings.Contains(rec.Body.String(), `"detail":"the body is over 64 KiB`) {
		t.Errorf("413 body = %s, want its detail to name the 64 KiB limit", rec.Body)
	}
}

func grep(s, substr string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, substr) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// Every route the server serves is in the OpenAPI document, and every path
// in the document is served.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	e := New(Deps{Metrics: prometheus.NewRegistry(), Logger: quietLogger})
	var doc struct {
		Paths map[string]map[string]any
	}
	if err := json.Unmarshal(openAPIJSON, &doc); err != nil {
		t.Fatal(err)
	}
	param := regexp.MustCompile(`:([a-zA-Z_]+)`)
	served := map[string]bool{}
	for _, r := range e.Routes() {
		if strings.HasPrefix(r.Path, "/test/") || r.Path == "/*" || strings.HasPrefix(r.Method, "echo_route") {
			continue
		}
		path := param.ReplaceAllString(r.Path, "{$1}")
		key := strings.ToLower(r.Method) + " " + path
		served[key] = true
		if _, ok := doc.Paths[path][strings.ToLower(r.Method)]; !ok && path != "/api/docs" {
			t.Errorf("route %s %s is not in the OpenAPI document", r.Method, path)
		}
	}
	for path, ops := range doc.Paths {
		for method := range ops {
			if method == "parameters" {
				continue
			}
			if !served[method+" "+path] {
				t.Errorf("OpenAPI documents %s %s, which is not served", strings.ToUpper(method), path)
			}
		}
	}
}

func TestOpenAPIReferencesResolve(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]any
		}
	}
	if err := json.Unmarshal(openAPIJSON, &doc); err != nil {
		t.Fatal(err)
	}
	refs := regexp.MustCompile(`"\$ref":\s*"#/components/schemas/([^"]+)"`).FindAllSubmatch(openAPIJSON, -1)
	if len(refs) == 0 {
		t.Fatal("the document has no schema references")
	}
	for _, m := range refs {
		if _, ok := doc.Components.Schemas[string(m[1])]; !ok {
			t.Errorf("$ref to schema %s, which is not defined", m[1])
		}
	}
}

// A request whose client hung up is no server fault: it is recorded as
// 499, not answered or logged as a 500.
func TestAClientThatHungUpIsNoServerError(t *testing.T) {
	var logs strings.Builder
	e := echo.New()
	e.HTTPErrorHandler = errorHandler(slog.New(slog.NewTextHandler(&logs, nil)), nil)
	e.GET("/slow", func(c echo.Context) error { return fmt.Errorf("list: %w", c.Request().Context().Err()) })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest(http.MethodGet, "/slow", nil).WithContext(ctx)
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code != statusClientClosed || strings.Contains(logs.String(), "level=ERROR") {
		t.Fatalf("status %d, log %q; want 499 and no error logged", rec.Code, logs.String())
	}
}

// An error the store calls a moment's outage (PostgreSQL restarting) is a
// 503 with Retry-After that tells the client to try again, where it was a
// 500 "internal error"; any other error is still a 500.
func TestAStoreOutageIsA503(t *testing.T) {
	outage := errors.New("FATAL: the database system is shutting down (SQLSTATE 57P03)")
	e := echo.New()
	e.HTTPErrorHandler = errorHandler(slog.New(slog.DiscardHandler), func(err error) bool { return errors.Is(err, outage) })
	e.GET("/outage", func(c echo.Context) error { return fmt.Errorf("list games: %w", outage) })
	e.GET("/bug", func(c echo.Context) error { return errors.New("a bug") })
	rec := do(e, http.MethodGet, "/outage")
	var p struct{ Detail string }
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" ||
		json.Unmarshal(rec.Body.Bytes(), &p) != nil || !strings.Contains(p.Detail, "try again") || strings.Contains(rec.Body.String(), "SQLSTATE") {
		t.Errorf("an outage: %d, Retry-After %q, %s; want 503 with Retry-After saying to try again, and nothing of the cause", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	if rec := do(e, http.MethodGet, "/bug"); rec.Code != http.StatusInternalServerError || rec.Header().Get("Retry-After") != "" {
		t.Errorf("a bug: %d, Retry-After %q; want a plain 500", rec.Code, rec.Header().Get("Retry-After"))
	}
}

// A client's X-Request-ID is kept when it is a plain token of at most 64
// characters, and replaced by the server's own otherwise: the id is echoed
// in the response and written in every log line of the request (the
// security audit sent one of 500 KB).
func TestAClientsRequestIDIsKeptOnlyWhenPlain(t *testing.T) {
	e := newTestServer(t, nil)
	for _, tc := range []struct {
		name, id string
		kept     bool
	}{
		{"a uuid", "0b6b7c1e-5d0f-4a53-9d1e-2f9c3a7b8e10", true},
		{"a trace id", "trace.42:span_7", true},
		{"65 characters", strings.Repeat("a", 65), false},
		{"500 KB", strings.Repeat("x", 500<<10), false},
		{"a space", "two words", false},
		{"a quote", `a"b`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/healthz", nil)
			req.Header.Set(echo.HeaderXRequestID, tc.id)
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			got := rec.Header().Get(echo.HeaderXRequestID)
			if kept := got == tc.id; kept != tc.kept || got == "" || len(got) > 64 {
				t.Fatalf("X-Request-ID %.20q… answered with %.70q; kept %v, want %v", tc.id, got, kept, tc.kept)
			}
		})
	}
}

// An API answer of more than a packet is gzipped for a client that accepts
// it, and a small one, a client that does not, and an event stream are
// sent as they are.
func TestLargeAPIAnswersAreCompressed(t *testing.T) {
	e := newTestServer(t, nil)
	big := strings.Repeat(`{"name":"an entry of a large tournament"},`, 200)
	e.GET("/api/v1/test/big", func(c echo.Context) error { return c.JSONBlob(http.StatusOK, []byte("["+big+"{}]")) })
	e.GET("/api/v1/test/small", func(c echo.Context) error { return c.JSONBlob(http.StatusOK, []byte(`{"ok":true}`)) })
	e.GET("/api/v1/test/events", func(c echo.Context) error { return c.Blob(http.StatusOK, "text/event-stream", []byte(big)) })
	for _, tc := range []struct {
		path, accept string
		gzipped      bool
	}{
		{"/api/v1/test/big", "gzip", true},
		{"/api/v1/test/big", "", false},
		{"/api/v1/test/small", "gzip", false},
		{"/api/v1/test/events", "gzip", false},
	} {
		req := httptest.NewRequest(http.MethodGet, tc.path, nil)
		if tc.accept != "" {
			req.Header.Set(echo.HeaderAcceptEncoding, tc.accept)
		}
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		got := rec.Header().Get(echo.HeaderContentEncoding) == "gzip"
		if got != tc.gzipped || rec.Code != http.StatusOK {
			t.Errorf("%s with Accept-Encoding %q: %d, gzipped %v, want %v", tc.path, tc.accept, rec.Code, got, tc.gzipped)
			continue
		}
		if got {
			sent := rec.Body.Len()
			zr, err := gzip.NewReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			plain, _ := io.ReadAll(zr)
			if !json.Valid(plain) || sent >= len(plain)/4 {
				t.Errorf("%s: %d bytes gzipped from %d, want valid JSON at under a quarter", tc.path, sent, len(plain))
			}
		}
	}
}
