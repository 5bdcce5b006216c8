package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/golang-jwt/jwt/v5"
	echojwt "github.com/labstack/echo-jwt/v4"
	"github.com/labstack/echo/v4"
	"github.com/seqleague/seqleague/league"
)

// AuthConfig configures access tokens and the limits on login and
// registration.
type AuthConfig struct {
	// Secret is the HMAC key of access tokens (at least 32 bytes).
	Secret []byte
	// Issuer is the tokens' iss claim: the public URL.
	Issuer         string
	AccessTokenTTL time.Duration
	// Login and registration attempts allowed per client IP and per
	// username in any RateWindow (0: unlimited).
	RateWindow      time.Duration
	RatePerIP       int
	RatePerUsername int
}

// tokenAudience is the aud claim: the tokens are for this API only.
const tokenAudience = "seqleague-api"

const (
	tokenContextKey = "seqleague.token"
	actorContextKey = "seqleague.actor"
	// refreshCookie carries the refresh token for the web app, scoped to
	// the auth endpoints so that no other request sends it.
	refreshCookie     = "seqleague_refresh"
	refreshCookiePath = "/api/v1/auth"
)

func (a AuthConfig) issuer() string {
	if a.Issuer == "" {
		return "seqleague"
	}
	return a.Issuer
}

func (a AuthConfig) accessTTL() time.Duration {
	if a.AccessTokenTTL <= 0 {
		return 15 * time.Minute
	}
	return a.AccessTokenTTL
}

// Access tokens carry their times to the millisecond (iat 1764108000.123),
// as RFC 7519's NumericDate allows: a password change refuses every token
// issued before it, and at whole seconds the tokens of other sessions
// issued in the change's own second would survive it, or the caller's new
// one would not.
func init() { jwt.TimePrecision = time.Millisecond }

// accessClaims are an access token's claims: the registered ones and the
// session (refresh-token family) it was issued for, so that ending the
// session (a logout) ends its access tokens too. A token issued before
// sessions were named has none and lives to its expiry, as all did then.
type accessClaims struct {
	jwt.RegisteredClaims
	Session string `json:"sid,omitempty"`
}

// signAccessToken makes a short-lived HS256 access token for a user's
// session ("" names none).
func (a AuthConfig) signAccessToken(userID, session string, now time.Time) (string, error) {
	if len(a.Secret) == 0 {
		return "", errors.New("no JWT secret configured")
	}
	jti := make([]byte, 12)
	if _, err := rand.Read(jti); err != nil {
		return "", err
	}
	claims := accessClaims{RegisteredClaims: jwt.RegisteredClaims{
		Issuer:    a.issuer(),
		Subject:   userID,
		Audience:  jwt.ClaimStrings{tokenAudience},
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(a.accessTTL())),
		ID:        hex.EncodeToString(jti),
	}, Session: session}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(a.Secret)
}

// parseAccessToken accepts only what signAccessToken makes: HS256 with our
// key (never "none", never another algorithm), our issuer and audience, and
// an expiry that has not passed.
func (a AuthConfig) parseAccessToken(s string) (*accessClaims, error) {
	if len(a.Secret) == 0 {
		return nil, errors.New("no JWT secret configured")
	}
	p := jwt.NewParser(
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(a.issuer()),
		jwt.WithAudience(tokenAudience),
		jwt.WithExpirationRequired(),
	)
	claims := &accessClaims{}
	tok, err := p.ParseWithClaims(s, claims, func(*jwt.Token) (any, error) { return a.Secret, nil })
	if err != nil {
		return nil, err
	}
	if !tok.Valid || claims.Subject == "" {
		return nil, errors.New("invalid token")
	}
	return claims, nil
}

func unauthorized(c echo.Context, msg string) error {
	c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="seqleague"`)
	return league.Errorf(league.EUNAUTHORIZED, "%s", msg)
}

// jwtMiddleware checks the bearer token with echo-jwt. When optional, a
// request without one goes on anonymously; a request with a bad one is
// refused either way (a client with a stale token should refresh, not be
// silently served as a stranger).
func jwtMiddleware(d Deps, optional bool) echo.MiddlewareFunc {
	check := echojwt.WithConfig(echojwt.Config{
		ContextKey: tokenContextKey,
		ParseTokenFunc: func(c echo.Context, auth string) (any, error) {
			return d.Auth.parseAccessToken(auth)
		},
		ContinueOnIgnoredError: optional,
		ErrorHandler: func(c echo.Context, err error) error {
			var missing *echojwt.TokenExtractionError
			if errors.As(err, &missing) {
				if optional {
					return nil
				}
				return unauthorized(c, "sign in first: this needs an access token (Authorization: Bearer …)")
			}
			return unauthorized(c, "the access token is invalid or expired")
		},
	})
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		checked := check(next)
		return func(c echo.Context) error {
			// echo-jwt tries every Authorization header until one holds a
			// good token; a request with two is a confused (or probing)
			// client, and which credential it meant is not ours to guess.
			if len(c.Request().Header.Values(echo.HeaderAuthorization)) > 1 {
				return unauthorized(c, "send one Authorization header")
			}
			return checked(c)
		}
	}
}

// resolveActor turns a checked token into the Actor, asking the account
// service whether the account still exists and the token's session was
// not signed out, so that a closed account's tokens, and a signed-out
// session's, stop working (within the service's one-second reuse of
// answers).
func resolveActor(d Deps) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			claims, ok := c.Get(tokenContextKey).(*accessClaims)
			if !ok {
				return next(c)
			}
			if d.Accounts == nil {
				return unauthorized(c, "accounts are not available")
			}
			actor, err := claims.actor(c.Request().Context(), d.Accounts)
			if e := (*league.Error)(nil); errors.As(err, &e) && e.Code == league.EUNAUTHORIZED {
				return unauthorized(c, e.Message)
			}
			if err != nil {
				return err
			}
			c.Set(actorContextKey, actor)
			return next(c)
		}
	}
}

// actor asks the account service who holds the token, and whether it
// still may.
func (claims *accessClaims) actor(ctx context.Context, accounts league.Accounts) (league.Actor, error) {
	return accounts.Actor(ctx, claims.Subject, claims.issuedAt(), claims.Session)
}

// issuedAt is when a token was issued (the zero time if it does not say,
// which any password change postdates).
func (claims *accessClaims) issuedAt() time.Time {
	if claims.IssuedAt == nil {
		return time.Time{}
	}
	return claims.IssuedAt.Time
}

// authRequired refuses requests without a valid access token of a live
// account (401 problem+json) and makes the caller available to actorOf.
func authRequired(d Deps) echo.MiddlewareFunc {
	check, resolve := jwtMiddleware(d, false), resolveActor(d)
	return func(next echo.HandlerFunc) echo.HandlerFunc { return check(resolve(next)) }
}

// authOptional lets anonymous requests through (actorOf gives the zero
// Actor) but still refuses an invalid token. Every operation a signed-out
// caller may use takes it, even where the answer is the same for everyone,
// so that a client with a stale token learns to refresh wherever it sends
// it (only the auth operations themselves and the API document ignore the
// Authorization header).
func authOptional(d Deps) echo.MiddlewareFunc {
	check, resolve := jwtMiddleware(d, true), resolveActor(d)
	return func(next echo.HandlerFunc) echo.HandlerFunc { return check(resolve(next)) }
}

// actorOf is who is asking: the zero Actor when anonymous.
func actorOf(c echo.Context) league.Actor {
	a, _ := c.Get(actorContextKey).(league.Actor)
	return a
}

func setRefreshCookie(c echo.Context, token string, expires time.Time) {
	c.SetCookie(&http.Cookie{
		Name:     refreshCookie,
		Value:    token,
		Path:     refreshCookiePath,
		Expires:  expires,
		MaxAge:   int(time.Until(expires).Seconds()),
		HttpOnly: true,
		Secure:   true,
		SameSite: http.SameSiteStrictMode,
	})
}

func clearRefreshCookie(c echo.Context) {
	c.SetCookie(&http.Cookie{
		Name:     refreshCookie,
		Value:    "",
		Path:     refreshCookiePath,
		MaxAge:   -1,
		HttpOnly: true,
		Secure:   true,
		SameSite: http.SameSiteStrictMode,
	})
}

// clientBucket is the rate-limit identity of the client: its IP as the
// server's IPExtractor sees it (X-Forwarded-For only from trusted proxies),
// with IPv6 addresses grouped by /64, since one host usually holds a whole
// /64.
func clientBucket(c echo.Context) string {
	ip := net.ParseIP(c.RealIP())
	if ip == nil {
		return c.RealIP()
	}
	if ip.To4() == nil {
		return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return ip.String()
}
