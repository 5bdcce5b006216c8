package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
)

const testIndex = "<!doctype html><title>Seqleague</title><script src=\"/assets/index-abc123.js\"></script>"

func gz(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

// staticServer is the whole server (API routes included) serving a fake
// built app, so the tests see how the app's routes and the API's share
// the path space.
func staticServer(t *testing.T) *echo.Echo {
	t.Helper()
	e := newTestServer(t, nil)
	// New mounted the embedded app; a second registration of the same
	// pattern replaces its handler with one over the fake files.
	serveApp(e, fstest.MapFS{
		"index.html":                {Data: []byte(testIndex)},
		"assets/index-abc123.js":    {Data: []byte("console.log('app')")},
		"assets/index-abc123.js.gz": {Data: gz("console.log('app')")},
		"assets/style-def456.css":   {Data: []byte("body{}")},
		"favicon.svg":               {Data: []byte("<svg/>")},
		".gitignore":                {Data: []byte("*")},
	})
	return e
}

func get(e *echo.Echo, path string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	return rec
}

func TestStaticServesTheAppAndItsPages(t *testing.T) {
	e := staticServer(t)
	for _, tc := range []struct {
		name, path string
		status     int
		cache      string
		body       string
		ctype      string
	}{
		{"the root is index.html, never cached", "/", 200, "no-cache", testIndex, "text/html"},
		{"index.html itself is never cached", "/index.html", 200, "no-cache", testIndex, "text/html"},
		{"an app page falls back to index.html", "/games/0b7c/replay", 200, "no-cache", testIndex, "text/html"},
		{"a page with a trailing slash falls back too", "/clubs/", 200, "no-cache", testIndex, "text/html"},
		{"a hashed asset is cached forever", "/assets/index-abc123.js", 200, "public, max-age=31536000, immutable", "console.log('app')", "text/javascript"},
		{"a stylesheet is cached forever", "/assets/style-def456.css", 200, "public, max-age=31536000, immutable", "body{}", "text/css"},
		{"a top-level file is served and revalidated", "/favicon.svg", 200, "no-cache", "<svg/>", "image/svg+xml"},
		{"an unknown file with an extension is a 404", "/missing.js", 404, "", "", "application/problem+json"},
		{"an unknown asset is a 404", "/assets/index-old999.js", 404, "", "", "application/problem+json"},
		{"an unknown extensionless asset is a 404", "/assets/whatever", 404, "", "", "application/problem+json"},
		{"dot files are never served", "/.gitignore", 404, "", "", "application/problem+json"},
		{"an unknown API path is a 404, not the app", "/api/v1/nothing-here", 404, "", "", "application/problem+json"},
		{"an unknown path under /api is a 404", "/api/v2/games", 404, "", "", "application/problem+json"},
		{"the health paths are not the app", "/healthz/extra", 404, "", "", "application/problem+json"},
		{"the metrics path is not the app", "/metrics/x", 404, "", "", "application/problem+json"},
		{"the readiness path is not the app", "/readyz/x", 404, "", "", "application/problem+json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := get(e, tc.path)
			if rec.Code != tc.status {
				t.Fatalf("GET %s: status = %d, want %d (%s)", tc.path, rec.Code, tc.status, rec.Body)
			}
			if got := rec.Header().Get("Content-Type"); !strings.HasPrefix(got, tc.ctype) {
				t.Errorf("Content-Type = %q, want %q…", got, tc.ctype)
			}
			if tc.status != 200 {
				return
			}
			if got := rec.Header().Get("Cache-Control"); got != tc.cache {
				t.Errorf("Cache-Control = %q, want %q", got, tc.cache)
			}
			if got := rec.Body.String(); got != tc.body {
				t.Errorf("body = %q, want %q", got, tc.body)
			}
		})
	}
}

func TestStaticLeavesTheAPIAlone(t *testing.T) {
	e := staticServer(t)
	if rec := get(e, "/healthz"); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"ok"`) {
		t.Errorf("/healthz = %d %s", rec.Code, rec.Body)
	}
	if rec := get(e, "/api/v1/openapi.json"); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"openapi"`) {
		t.Errorf("/api/v1/openapi.json = %d", rec.Code)
	}
	req := httptest.NewRequest(http.MethodPost, "/games/new", strings.NewReader("{}"))
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code == http.StatusOK {
		t.Errorf("POST to an app page = 200, want a refusal")
	}
}

func TestStaticServesPrecompressedAssets(t *testing.T) {
	e := staticServer(t)
	rec := get(e, "/assets/index-abc123.js", "Accept-Encoding", "gzip, deflate, br")
	if rec.Code != 200 {
		t.Fatalf("status = %d", rec.Code)
	}
	if got := rec.Header().Get("Content-Encoding"); got != "gzip" {
		t.Fatalf("Content-Encoding = %q, want gzip", got)
	}
	if got := rec.Header().Get("Content-Type"); !strings.HasPrefix(got, "text/javascript") {
		t.Errorf("Content-Type = %q, want the original file's", got)
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if string(plain) != "console.log('app')" {
		t.Errorf("decompressed body = %q", plain)
	}
	// A client that refuses gzip gets the plain file.
	rec = get(e, "/assets/index-abc123.js", "Accept-Encoding", "gzip;q=0, identity")
	if rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != "console.log('app')" {
		t.Errorf("gzip;q=0: got encoding %q body %q", rec.Header().Get("Content-Encoding"), rec.Body)
	}
}

func TestStaticIndexRevalidatesWithAnETag(t *testing.T) {
	e := staticServer(t)
	first := get(e, "/")
	etag := first.Header().Get("ETag")
	if etag == "" {
		t.Fatal("index.html has no ETag")
	}
	if rec := get(e, "/some/page", "If-None-Match", etag); rec.Code != http.StatusNotModified {
		t.Errorf("revalidation with the current ETag = %d, want 304", rec.Code)
	}
}

func TestStaticServesTheEmbeddedApp(t *testing.T) {
	e := New(Deps{Metrics: prometheus.NewRegistry(), Logger: quietLogger})
	rec := get(e, "/")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "<title>Seqleague") {
		t.Fatalf("GET / = %d %.200s", rec.Code, rec.Body)
	}
	if got := rec.Header().Get("Cache-Control"); got != "no-cache" {
		t.Errorf("Cache-Control = %q, want no-cache", got)
	}
}
