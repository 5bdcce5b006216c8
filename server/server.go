package server

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/seqleague/seqleague/league"
)

// Check is one readiness probe (PostgreSQL, Redis, ...).
type Check func(ctx context.Context) error

// Deps is what the server needs from the rest of the program.
type Deps struct {
	Logger *slog.Logger
	// Unavailable says whether an error is a moment's outage of a store
	// (postgres.Unavailable): answered 503 with Retry-After, not 500.
	Unavailable func(error) bool
	// Ready lists the dependencies /readyz checks, by name.
	Ready map[string]Check
	// Metrics is the registry /metrics serves; the server adds its HTTP
	// metrics to it.
	Metrics *prometheus.Registry
	// TrustedProxies are the networks whose X-Forwarded-For is believed.
	TrustedProxies []*net.IPNet
	// RequestTimeout bounds ordinary (non-streaming) requests.
	RequestTimeout time.Duration
	// Games runs games; Hub streams their events to this instance's viewers.
	Games GameAPI
	Hub   *Hub
	// Ratings serves ratings and leaderboards.
	Ratings league.Ratings
	// Leagues and Tournaments run competitions.
	Leagues     league.Leagues
	Tournaments league.Tournaments
	// Accounts and Clubs are the account and club services; Limiter backs
	// the login and registration limits; Auth configures tokens and limits.
	Accounts league.Accounts
	Clubs    league.Clubs
	Limiter  league.Limiter
	Auth     AuthConfig
	// PublicURL is the address users reach; an https one turns on
	// Strict-Transport-Security.
	PublicURL string
}

// bodyLimit caps request bodies; no endpoint needs more.
const bodyLimit = "64K"

// bodyTooLarge is the detail of a 413, from the body limit's middleware
// (which says only "Request Entity Too Large") or from bindJSON.
const bodyTooLarge = "the body is over 64 KiB, more than any request needs"

// New builds the HTTP handler.
func New(d Deps) *echo.Echo {
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.RequestTimeout == 0 {
		d.RequestTimeout = 30 * time.Second
	}
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.IPExtractor = ipExtractor(d.TrustedProxies)
	e.HTTPErrorHandler = errorHandler(d.Logger, d.Unavailable)

	e.Use(securityHeaders(d.PublicURL))
	e.Use(ownRequestIDs, middleware.RequestID())
	e.Use(requestLogger(d.Logger))
	e.Use(middleware.Recover())
	if d.Metrics != nil {
		e.Use(httpMetrics(d.Metrics))
	}
	e.Use(middleware.BodyLimit(bodyLimit))
	e.Use(compressAPI())
	e.Use(wellFormedQuery)
	e.Use(preferConcreteRoutes(e))

	e.GET("/healthz", func(c echo.Context) error {
		return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
	})
	e.GET("/readyz", readyz(d.Ready, d.Logger))
	if d.Metrics != nil {
		e.GET("/metrics", metricsHandler(d.Metrics))
	}

	api := e.Group("/api/v1", middleware.ContextTimeout(d.RequestTimeout), singleQueryValues, textQuery)
	mountAPI(e, api, d)
	e.GET("/api/docs", apiDocsPage)
	mountStatic(e)
	mountFallbacks(e)
	return e
}

// ipExtractor trusts X-Forwarded-For only from the configured proxies (and
// never by default), so a client cannot pick its own rate-limit bucket.
func ipExtractor(proxies []*net.IPNet) echo.IPExtractor {
	if len(proxies) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range proxies {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// readyz asks every dependency at once, each within readyTimeout, so that
// one that hangs neither delays the answer past it nor makes the others
// look down; why a check failed goes to the log, not to the caller.
func readyz(checks map[string]Check, logger *slog.Logger) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx, cancel := context.WithTimeout(c.Request().Context(), readyTimeout)
		defer cancel()
		type answer struct {
			name string
			err  error
		}
		answers := make(chan answer, len(checks))
		for name, check := range checks {
			go func() { answers <- answer{name, check(ctx)} }()
		}
		status := map[string]string{}
		ok := true
	wait:
		for range checks {
			select {
			case a := <-answers:
				status[a.name] = "ok"
				if a.err != nil {
					status[a.name], ok = "unavailable", false
					logger.Warn("readiness check failed", "check", a.name, "error", a.err)
				}
			case <-ctx.Done():
				break wait // a check that ignores its context is not waited for
			}
		}
		for name := range checks {
			if _, answered := status[name]; !answered {
				status[name], ok = "unavailable", false
				logger.Warn("readiness check failed", "check", name, "error", ctx.Err())
			}
		}
		if !ok {
			return c.JSON(http.StatusServiceUnavailable, map[string]any{"status": "unavailable", "checks": status})
		}
		return c.JSON(http.StatusOK, map[string]any{"status": "ok", "checks": status})
	}
}

// readyTimeout bounds a readiness answer.
var readyTimeout = 3 * time.Second

// redactURI hides credentials carried in a request's query — the event
// stream's ?access_token=, which EventSource cannot send as a header — so
// that a request log never holds a token someone could replay. Keys are
// read as the server reads them, escapes decoded (acc%65ss_token is
// access_token too), and any key or value shaped like a JWT is hidden
// whatever its key (ACCESS_TOKEN=, access_token%3D…).
func redactURI(uri string) string {
	path, query, ok := strings.Cut(uri, "?")
	if !ok {
		return uri
	}
	values, err := url.ParseQuery(query)
	if err != nil {
		return path + "?[unparsable query redacted]"
	}
	redacted := url.Values{}
	changed := false
	for k, vs := range values {
		if looksLikeJWT(k) {
			k, changed = "REDACTED", true
		}
		for _, v := range vs {
			if secretQueryKey(k) || looksLikeJWT(v) {
				v, changed = "REDACTED", true
			}
			redacted.Add(k, v)
		}
	}
	if !changed {
		return uri
	}
	return path + "?" + redacted.Encode()
}

// secretQueryKey names a credential no query string should carry, but a
// client might put there anyway (a refresh token, a password).
func secretQueryKey(k string) bool {
	switch strings.ToLower(k) {
	case "access_token", "refresh_token", "token", "password", "current_password", "new_password":
		return true
	}
	return false
}

// jwtShape is a JWT's compact form: a header (base64url of `{"`), a
// payload and a signature, joined by dots.
var jwtShape = regexp.MustCompile(`eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*`)

func looksLikeJWT(s string) bool { return jwtShape.MatchString(s) }

// wellFormedQuery refuses a query string with a bad percent-escape (?limit=%zz):
// Go's parser drops such a pair without a word, so the request would run
// as if the parameter had not been given.
func wellFormedQuery(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if _, err := url.ParseQuery(c.Request().URL.RawQuery); err != nil {
			return league.Invalid("the query string is not well formed",
				league.FieldError{Field: "query", Message: "has a bad percent-escape or a semicolon: " + err.Error()})
		}
		return next(c)
	}
}

// singleQueryValues refuses a query parameter given twice (?limit=2&limit=abc):
// no parameter of the API takes more than one value, and reading only the
// first would answer a request other than the one the client thinks it
// sent, as a key given twice in a body is refused rather than guessed at.
func singleQueryValues(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		values, _ := url.ParseQuery(c.Request().URL.RawQuery) // wellFormedQuery has refused a bad one
		var fields []league.FieldError
		for _, k := range slices.Sorted(maps.Keys(values)) {
			if len(values[k]) > 1 {
				fields = append(fields, league.FieldError{Field: k, Message: fmt.Sprintf("is given %d times; give it once", len(values[k]))})
			}
		}
		if len(fields) > 0 {
			return league.Invalid("a query parameter is given more than once", fields...)
		}
		return next(c)
	}
}

// textQuery refuses a query parameter that is not UTF-8 text once its
// percent-escapes are decoded (?q=%FF): every parameter of the API is text,
// as a body must be, and PostgreSQL refuses such bytes in a text value,
// which a club search answered with a 500.
func textQuery(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		values, _ := url.ParseQuery(c.Request().URL.RawQuery) // wellFormedQuery has refused a bad one
		var fields []league.FieldError
		for _, k := range slices.Sorted(maps.Keys(values)) {
			if !utf8.ValidString(k) || slices.ContainsFunc(values[k], notUTF8) {
				fields = append(fields, league.FieldError{Field: strings.ToValidUTF8(k, "\uFFFD"), Message: "must be UTF-8 text (percent-escapes of UTF-8 bytes)"})
			}
		}
		if len(fields) > 0 {
			return league.Invalid("a query parameter is not UTF-8 text", fields...)
		}
		return next(c)
	}
}

// notUTF8 says whether s holds a byte sequence that is not UTF-8.
func notUTF8(s string) bool { return !utf8.ValidString(s) }

func requestLogger(logger *slog.Logger) echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus:    true,
		LogURI:       true,
		LogMethod:    true,
		LogLatency:   true,
		LogRequestID: true,
		LogRemoteIP:  true,
		LogError:     true,
		HandleError:  true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			level := slog.LevelInfo
			if v.Status >= 500 {
				level = slog.LevelError
			}
			logger.LogAttrs(c.Request().Context(), level, "request",
				slog.String("request_id", v.RequestID),
				slog.String("method", v.Method),
				slog.String("uri", redactURI(v.URI)),
				slog.Int("status", v.Status),
				slog.Duration("latency", v.Latency),
				slog.String("remote_ip", v.RemoteIP),
			)
			return nil
		},
	})
}

// ownRequestIDs drops a client's X-Request-ID that is no plain token of at
// most 64 characters, so that RequestID makes one: the id is echoed in the
// response, the problem body and every log line of the request, and a
// client sent one of 500 KB (the security audit).
func ownRequestIDs(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Request().Header
		if id := h.Get(echo.HeaderXRequestID); id != "" && !plainRequestID(id) {
			h.Del(echo.HeaderXRequestID)
		}
		return next(c)
	}
}

func plainRequestID(id string) bool {
	if len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.:", r)) {
			return false
		}
	}
	return true
}

// compressAPI gzips the API's answers of more than about one packet for a
// client that accepts it: a tournament page polls its rounds, bracket and
// standings every 3 s while it is live, 300 KB a viewer at 256 entries,
// which gzip makes about a fifth (the scale audit). The web app's files
// are compressed by the static handler, and an event stream is not
// buffered behind a compressor.
func compressAPI() echo.MiddlewareFunc {
	return middleware.GzipWithConfig(middleware.GzipConfig{
		MinLength: 1400,
		Skipper: func(c echo.Context) bool {
			p := c.Request().URL.Path
			return !strings.HasPrefix(p, "/api/") || strings.HasSuffix(p, "/events")
		},
	})
}
