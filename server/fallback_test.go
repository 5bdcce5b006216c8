package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A wrong method on a path the API has is a 405 that names the path's
// methods; a path it does not have is a 404 whatever the method; and the
// app still answers its deep links.
func TestWrongMethodIsMethodNotAllowed(t *testing.T) {
	e := staticServer(t)
	for _, tc := range []struct {
		name, method, path string
		status             int
		allow              string
	}{
		{"deleting the leaderboard is not allowed", http.MethodDelete, "/api/v1/leaderboards/classic", 405, "OPTIONS, GET, HEAD"},
		{"putting the games list is not allowed", http.MethodPut, "/api/v1/games", 405, "OPTIONS, GET, HEAD, POST"},
		{"getting a rematch is not allowed", http.MethodGet, "/api/v1/games/0b7c/rematch", 405, "OPTIONS, POST"},
		{"deleting a game is not allowed", http.MethodDelete, "/api/v1/games/0b7c", 405, "OPTIONS, GET, HEAD"},
		{"getting a join is not allowed", http.MethodGet, "/api/v1/games/0b7c/join", 405, "OPTIONS, POST"},
		{"a path with two methods names both", http.MethodDelete, "/api/v1/games/0b7c/moves", 405, "OPTIONS, GET, HEAD, POST"},
		// A fixed path beside a parameter's is its own path (as OpenAPI
		// matches them), not the parameter's: GET /games/quick was a 404
		// "no such game" from GET /games/{id}.
		{"getting the quick match is not allowed", http.MethodGet, "/api/v1/games/quick", 405, "OPTIONS, POST"},
		{"heading the quick match is not allowed", http.MethodHead, "/api/v1/games/quick", 405, "OPTIONS, POST"},
		{"patching one's own membership is not allowed", http.MethodPatch, "/api/v1/clubs/0b7c/members/me", 405, "OPTIONS, DELETE"},
		{"posting to the event stream is not allowed", http.MethodPost, "/api/v1/games/0b7c/events", 405, "OPTIONS, GET, HEAD"},
		{"posting the OpenAPI document is not allowed", http.MethodPost, "/api/v1/openapi.json", 405, "OPTIONS, GET, HEAD"},
		{"posting the API docs page is not allowed", http.MethodPost, "/api/docs", 405, "OPTIONS, GET, HEAD"},
		{"posting the health check is not allowed", http.MethodPost, "/healthz", 405, "OPTIONS, GET, HEAD"},
		{"an unknown API path is a 404 for any method", http.MethodDelete, "/api/v1/nothing-here", 404, ""},
		{"an unknown API path is a 404 for GET", http.MethodGet, "/api/v1/nothing-here", 404, ""},
		{"an unknown API version is a 404", http.MethodDelete, "/api/v2/games", 404, ""},
		{"the API root is a 404", http.MethodPost, "/api", 404, ""},
		{"the API version root is a 404", http.MethodGet, "/api/v1", 404, ""},
		{"an unknown health path is a 404", http.MethodPost, "/healthz/extra", 404, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(e, tc.method, tc.path)
			if rec.Code != tc.status {
				t.Fatalf("%s %s: status = %d, want %d (%s)", tc.method, tc.path, rec.Code, tc.status, rec.Body)
			}
			if got := rec.Header().Get("Content-Type"); got != "application/problem+json" {
				t.Errorf("Content-Type = %q, want application/problem+json", got)
			}
			var p problem
			err := json.Unmarshal(rec.Body.Bytes(), &p)
			if tc.method != http.MethodHead && (err != nil || p.Status != tc.status) { // HEAD: no body
				t.Errorf("body = %s, want a problem with status %d", rec.Body, tc.status)
			}
			if got := rec.Header().Get("Allow"); got != tc.allow {
				t.Errorf("Allow = %q, want %q", got, tc.allow)
			}
		})
	}
}

func TestOptionsOnAnAPIPathListsItsMethods(t *testing.T) {
	e := staticServer(t)
	rec := do(e, http.MethodOptions, "/api/v1/games/0b7c/moves")
	if rec.Code != http.StatusNoContent {
		t.Fatalf("status = %d, want 204 (%s)", rec.Code, rec.Body)
	}
	if got, want := rec.Header().Get("Allow"), "OPTIONS, GET, HEAD, POST"; got != want {
		t.Errorf("Allow = %q, want %q", got, want)
	}
	rec = do(e, http.MethodOptions, "/api/v1/games/quick")
	if got, want := rec.Header().Get("Allow"), "OPTIONS, POST"; rec.Code != http.StatusNoContent || got != want {
		t.Errorf("OPTIONS on the quick match = %d, Allow %q; want 204, %q", rec.Code, got, want)
	}
	if rec := do(e, http.MethodOptions, "/api/v1/nothing-here"); rec.Code != http.StatusNotFound {
		t.Errorf("OPTIONS on an unknown API path = %d, want 404", rec.Code)
	}
}

func TestAppDeepLinksStillServeTheApp(t *testing.T) {
	e := staticServer(t)
	for _, method := range []string{http.MethodGet, http.MethodHead} {
		for _, path := range []string{"/games/0b7c", "/leaderboards/classic", "/apiary", "/clubs/x/members"} {
			rec := do(e, method, path)
			if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
				t.Errorf("%s %s = %d %q, want the app's page", method, path, rec.Code, rec.Header().Get("Content-Type"))
			}
		}
	}
}

// HEAD on an API path that has a GET answers as the GET would, without its
// body (over a real connection, which is what drops the body).
func TestHeadOnAnAPIPathAnswersLikeItsGet(t *testing.T) {
	srv := httptest.NewServer(staticServer(t))
	defer srv.Close()
	for _, tc := range []struct {
		path        string
		status      int
		contentType string
	}{
		{"/healthz", http.StatusOK, ""},
		{"/api/v1/openapi.json", http.StatusOK, "application/json"},
		{"/api/v1/nothing-here", http.StatusNotFound, "application/problem+json"},
	} {
		req, _ := http.NewRequest(http.MethodHead, srv.URL+tc.path, nil)
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status || len(body) != 0 {
			t.Errorf("HEAD %s = %d with %d bytes, want %d and no body", tc.path, res.StatusCode, len(body), tc.status)
		}
		if got := res.Header.Get("Content-Type"); !strings.HasPrefix(got, tc.contentType) {
			t.Errorf("HEAD %s: Content-Type %q, want %q", tc.path, got, tc.contentType)
		}
	}
}
