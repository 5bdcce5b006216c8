package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/seqleague/seqleague/frontend"
)

// mountStatic serves the embedded web app at every path the API does not
// own.
func mountStatic(e *echo.Echo) { serveApp(e, frontend.FS()) }

// Cache rules for the web app. Vite names every file under /assets by its
// content hash, so those never change and are cached for a year; index.html
// names the current ones, so it is revalidated on every load (its ETag
// makes that a 304).
const (
	cacheImmutable  = "public, max-age=31536000, immutable"
	cacheRevalidate = "no-cache"
)

// apiPrefixes are paths the app never answers for: an unknown path there is
// a 404, not the app's page.
var apiPrefixes = []string{"/api", "/healthz", "/readyz", "/metrics"}

// appRoute is the app's catch-all route, GET and HEAD.
const appRoute = "/*"

// serveApp registers the app's files from fsys: a file that exists is
// served (gzip-compressed when the client accepts it and the build left a
// .gz beside it); an extensionless path outside the API is a page of the
// single-page app and gets index.html; anything else is a 404.
func serveApp(e *echo.Echo, fsys fs.FS) {
	index, _ := fs.ReadFile(fsys, "index.html")
	sum := sha256.Sum256(index)
	indexETag := `"` + hex.EncodeToString(sum[:8]) + `"`
	api := apiFallback(e)
	h := func(c echo.Context) error {
		p := c.Request().URL.Path
		for _, prefix := range apiPrefixes {
			if p == prefix || strings.HasPrefix(p, prefix+"/") {
				return api(c) // the API's own answer: HEAD for a GET, or 404 or 405
			}
		}
		name := strings.TrimPrefix(path.Clean("/"+p), "/")
		if name == "" || name == "index.html" {
			return sendIndex(c, index, indexETag)
		}
		for _, seg := range strings.Split(name, "/") {
			if strings.HasPrefix(seg, ".") {
				return echo.ErrNotFound // never dot files (dist/.gitignore)
			}
		}
		if st, err := fs.Stat(fsys, name); err == nil && !st.IsDir() {
			return sendFile(c, fsys, name)
		}
		if path.Ext(name) != "" || strings.HasPrefix(name, "assets/") {
			return echo.ErrNotFound
		}
		return sendIndex(c, index, indexETag)
	}
	e.GET(appRoute, h)
	e.HEAD(appRoute, h)
}

func sendIndex(c echo.Context, index []byte, etag string) error {
	if index == nil {
		return echo.ErrNotFound
	}
	w := c.Response()
	setPolicy(c, appPolicy)
	w.Header().Set(echo.HeaderCacheControl, cacheRevalidate)
	w.Header().Set("ETag", etag)
	w.Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	http.ServeContent(w, c.Request(), "index.html", time.Time{}, bytes.NewReader(index))
	return nil
}

func sendFile(c echo.Context, fsys fs.FS, name string) error {
	w := c.Response()
	if strings.HasPrefix(name, "assets/") {
		w.Header().Set(echo.HeaderCacheControl, cacheImmutable)
	} else {
		w.Header().Set(echo.HeaderCacheControl, cacheRevalidate)
	}
	w.Header().Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	serve := name
	if acceptsGzip(c.Request()) {
		if _, err := fs.Stat(fsys, name+".gz"); err == nil {
			serve = name + ".gz"
			w.Header().Set(echo.HeaderContentEncoding, "gzip")
		}
	}
	f, err := fsys.Open(serve)
	if err != nil {
		return echo.ErrNotFound
	}
	defer f.Close()
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		b, err := io.ReadAll(f)
		if err != nil {
			return err
		}
		rs = bytes.NewReader(b)
	}
	// The content type is the original file's, not the .gz's.
	if ct := mimeOf(name); ct != "" {
		w.Header().Set(echo.HeaderContentType, ct)
	}
	http.ServeContent(w, c.Request(), name, time.Time{}, rs)
	return nil
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get(echo.HeaderAcceptEncoding), ",") {
		enc, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(enc), "gzip") {
			continue
		}
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		return q > 0
	}
	return false
}

// mimeOf names the types the app ships, so they do not depend on the
// host's mime tables.
func mimeOf(name string) string {
	switch path.Ext(name) {
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	case ".ico":
		return "image/x-icon"
	case ".json", ".map":
		return "application/json"
	case ".webmanifest":
		return "application/manifest+json"
	case ".woff2":
		return "font/woff2"
	case ".txt":
		return "text/plain; charset=utf-8"
	}
	return ""
}
