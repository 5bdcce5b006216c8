package server

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// wantSecurityHeaders checks the headers every response carries, and its
// Content-Security-Policy.
func wantSecurityHeaders(t *testing.T, what string, h http.Header, policy string) {
	t.Helper()
	for k, want := range map[string]string{
		"Content-Security-Policy":      policy,
		"X-Content-Type-Options":       "nosniff",
		"X-Frame-Options":              "DENY",
		"Referrer-Policy":              "same-origin",
		"Cross-Origin-Opener-Policy":   "same-origin",
		"Cross-Origin-Resource-Policy": "same-origin",
		"Permissions-Policy":           "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
	} {
		if got := h.Values(k); len(got) != 1 || got[0] != want {
			t.Errorf("%s: %s = %q, want %q once", what, k, got, want)
		}
	}
	if got := h.Get("Strict-Transport-Security"); got != "" {
		t.Errorf("%s: Strict-Transport-Security = %q on an http site, want none", what, got)
	}
}

func TestEveryResponseCarriesTheSecurityHeaders(t *testing.T) {
	e := staticServer(t)
	etag := get(e, "/").Header().Get("ETag")
	for _, tc := range []struct {
		name, method, path string
		header             []string
		status             int
		policy             string
	}{
		{"the app's page", "GET", "/", nil, 200, appPolicy},
		{"an app page by its path", "GET", "/games/0b7c", nil, 200, appPolicy},
		{"the app's page revalidated", "GET", "/clubs", []string{"If-None-Match", etag}, 304, appPolicy},
		{"the app's page, HEAD", "HEAD", "/", nil, 200, appPolicy},
		{"a script", "GET", "/assets/index-abc123.js", nil, 200, lockedPolicy},
		{"a compressed script", "GET", "/assets/index-abc123.js", []string{"Accept-Encoding", "gzip"}, 200, lockedPolicy},
		{"a style sheet", "GET", "/assets/style-def456.css", nil, 200, lockedPolicy},
		{"the icon", "GET", "/favicon.svg", nil, 200, lockedPolicy},
		{"a missing file", "GET", "/assets/index-old999.js", nil, 404, lockedPolicy},
		{"the liveness probe", "GET", "/healthz", nil, 200, lockedPolicy},
		{"the metrics", "GET", "/metrics", nil, 200, lockedPolicy},
		{"the API document", "GET", "/api/v1/openapi.json", nil, 200, lockedPolicy},
		{"an API problem (400)", "GET", "/api/v1/tournaments?limit=1&limit=2", nil, 400, lockedPolicy},
		{"an API problem (401)", "GET", "/api/v1/me", []string{"Authorization", "Bearer forged"}, 401, lockedPolicy},
		{"an unknown API path (404)", "GET", "/api/v1/nothing-here", nil, 404, lockedPolicy},
		{"a method the path does not have (405)", "POST", "/api/docs", nil, 405, lockedPolicy},
		{"the OPTIONS answer", "OPTIONS", "/api/v1/openapi.json", nil, 204, lockedPolicy},
		{"the API docs page", "GET", "/api/docs", nil, 200, docsPolicy},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.path, nil)
			for i := 0; i+1 < len(tc.header); i += 2 {
				req.Header.Set(tc.header[i], tc.header[i+1])
			}
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Fatalf("%s %s = %d, want %d: %.200s", tc.method, tc.path, rec.Code, tc.status, rec.Body)
			}
			wantSecurityHeaders(t, tc.path, rec.Header(), tc.policy)
		})
	}
}

// The policies themselves: what each page may load, and that nothing
// anywhere may frame a page or run inline or evaluated code.
func TestThePoliciesAllowWhatEachPageLoadsAndNoMore(t *testing.T) {
	for _, tc := range []struct {
		name, policy string
		want         []string
	}{
		{"the app", appPolicy, []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'",
			"connect-src 'self'", "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'"}},
		{"the docs page", docsPolicy, []string{"default-src 'none'", "style-src 'sha256-", "img-src 'self'",
			"base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"}},
		{"everything else", lockedPolicy, []string{"default-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"}},
	} {
		directives := strings.Split(tc.policy, "; ")
		if len(directives) != len(tc.want) {
			t.Errorf("%s: policy %q has %d directives, want %d", tc.name, tc.policy, len(directives), len(tc.want))
		}
		for _, w := range tc.want {
			if !strings.Contains(tc.policy, w) {
				t.Errorf("%s: policy %q lacks %q", tc.name, tc.policy, w)
			}
		}
		for _, bad := range []string{"unsafe-", "*", "data:", "http:", "https:"} {
			if strings.Contains(tc.policy, bad) {
				t.Errorf("%s: policy %q allows %q", tc.name, tc.policy, bad)
			}
		}
	}
}

// The docs page's inline style sheet is the one its policy names by hash,
// and the page has no script.
func TestTheDocsPageFitsItsPolicy(t *testing.T) {
	rec := get(newTestServer(t, nil), "/api/docs")
	body := rec.Body.String()
	styles := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindAllStringSubmatch(body, -1)
	if len(styles) != 1 {
		t.Fatalf("the docs page has %d style elements, want 1", len(styles))
	}
	sum := sha256.Sum256([]byte(styles[0][1]))
	hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	if policy := rec.Header().Get("Content-Security-Policy"); !strings.Contains(policy, "style-src "+hash+";") {
		t.Errorf("the docs page's style sheet hashes to %s, which its policy %q does not allow", hash, policy)
	}
	if strings.Contains(body, "<script") || strings.Contains(body, " style=") {
		t.Error("the docs page holds a script or a style attribute, which its policy refuses")
	}
}

func TestStrictTransportSecurityOnlyWhenThePublicAddressIsHTTPS(t *testing.T) {
	for _, tc := range []struct {
		publicURL, want string
	}{
		{"https://seqleague.example", "max-age=31536000"},
		{"HTTPS://seqleague.example", "max-age=31536000"},
		{"http://localhost:8080", ""},
		{"", ""},
	} {
		e := New(Deps{Metrics: prometheus.NewRegistry(), Logger: quietLogger, PublicURL: tc.publicURL})
		for _, path := range []string{"/", "/healthz", "/api/v1/nothing-here"} {
			if got := get(e, path).Header().Values("Strict-Transport-Security"); strings.Join(got, ",") != tc.want {
				t.Errorf("public URL %q, %s: Strict-Transport-Security = %q, want %q", tc.publicURL, path, got, tc.want)
			}
		}
	}
}

// A game's event stream and the API's answers about it, through a real
// HTTP server (the stream's headers are written before its first event).
func TestAGameStreamCarriesTheSecurityHeaders(t *testing.T) {
	r := newGamesRig(t)
	id, alice, _ := startedGame(t, r, 0)
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close)
	res, _ := openEvents(t, srv, id, alice, "")
	wantSecurityHeaders(t, "the event stream", res.Header, lockedPolicy)
	wantSecurityHeaders(t, "a game's view", r.call("GET", "/api/v1/games/"+id, "", alice).Header(), lockedPolicy)
	rec := r.call("POST", "/api/v1/games/"+id+"/moves", `{"ply":7,"move":"x","move_id":"m"}`, alice)
	if rec.Code < 400 {
		t.Fatalf("a move at the wrong ply = %d, want a problem", rec.Code)
	}
	wantSecurityHeaders(t, "a refused move", rec.Header(), lockedPolicy)
}
