package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/labstack/echo/v4"
	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/ratelimit"
)

func refreshCookieOf(t *testing.T, rec *httptest.ResponseRecorder) *http.Cookie {
	t.Helper()
	for _, c := range rec.Result().Cookies() {
		if c.Name == refreshCookie {
			return c
		}
	}
	t.Fatalf("no %s cookie in %v", refreshCookie, rec.Header().Values("Set-Cookie"))
	return nil
}

func TestRegisterLoginRefreshLogout(t *testing.T) {
	r := newRig(t)
	rec := r.call(http.MethodPost, "/api/v1/auth/register", `{"username":"Ann","password":"correct horse","email":"ann@example.org"}`, "")
	if rec.Code != http.StatusCreated {
		t.Fatalf("register = %d: %s", rec.Code, rec.Body)
	}
	ann := decode[userResponse](t, rec)
	if ann.Username != "Ann" || ann.Kind != "human" || ann.Email != "ann@example.org" || ann.IsAdmin {
		t.Errorf("registered user = %+v", ann)
	}
	if strings.Contains(rec.Body.String(), "password") {
		t.Errorf("register answer mentions the password: %s", rec.Body)
	}

	rec = r.call(http.MethodPost, "/api/v1/auth/login", `{"username":"ann","password":"correct horse"}`, "")
	if rec.Code != http.StatusOK {
		t.Fatalf("login = %d: %s", rec.Code, rec.Body)
	}
	pair := decode[tokenResponse](t, rec)
	if pair.TokenType != "Bearer" || pair.ExpiresIn != 900 || pair.AccessToken == "" || pair.RefreshToken == "" {
		t.Errorf("token pair = %+v", pair)
	}
	if cc := rec.Header().Get(echo.HeaderCacheControl); cc != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", cc)
	}
	ck := refreshCookieOf(t, rec)
	if ck.Value != pair.RefreshToken || !ck.HttpOnly || !ck.Secure || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/api/v1/auth" {
		t.Errorf("refresh cookie = %+v, want the refresh token, HttpOnly, Secure, SameSite=Strict, Path=/api/v1/auth", ck)
	}

	rec = r.call(http.MethodGet, "/api/v1/me", "", pair.AccessToken)
	if me := decode[userResponse](t, rec); rec.Code != http.StatusOK || me.ID != ann.ID || me.Email != "ann@example.org" {
		t.Fatalf("GET /me = %d %+v", rec.Code, me)
	}
	rec = r.call(http.MethodGet, "/api/v1/users/"+ann.ID, "", "")
	if pub := decode[userResponse](t, rec); rec.Code != http.StatusOK || pub.Username != "Ann" || pub.Email != "" {
		t.Fatalf("public profile = %d %s, want no email", rec.Code, rec.Body)
	}

	// The web app refreshes with the cookie alone.
	rec = r.call(http.MethodPost, "/api/v1/auth/refresh", "", "", withCookie(ck))
	if rec.Code != http.StatusOK {
		t.Fatalf("refresh by cookie = %d: %s", rec.Code, rec.Body)
	}
	next := decode[tokenResponse](t, rec)
	if next.RefreshToken == pair.RefreshToken || refreshCookieOf(t, rec).Value != next.RefreshToken {
		t.Fatal("refresh did not rotate the refresh token and cookie")
	}

	rec = r.call(http.MethodPost, "/api/v1/auth/logout", `{"refresh_token":"`+next.RefreshToken+`"}`, "")
	if rec.Code != http.StatusNoContent || refreshCookieOf(t, rec).MaxAge >= 0 {
		t.Fatalf("logout = %d, cookie %v; want 204 and the cookie cleared", rec.Code, rec.Header().Values("Set-Cookie"))
	}
	rec = r.call(http.MethodPost, "/api/v1/auth/refresh", `{"refresh_token":"`+next.RefreshToken+`"}`, "")
	wantProblem(t, rec, http.StatusUnauthorized, "")

	// Bots are accounts but cannot sign in.
	rec = r.call(http.MethodPost, "/api/v1/auth/login", `{"username":"bot-strong","password":"anything-at-all"}`, "")
	wantProblem(t, rec, http.StatusUnauthorized, "")
	bot, _ := r.accounts.BotUser(context.Background(), league.BotStrong)
	rec = r.call(http.MethodGet, "/api/v1/users/"+bot.ID, "", "")
	if pub := decode[userResponse](t, rec); pub.Kind != "bot" || pub.BotLevel != "strong" {
		t.Errorf("bot profile = %s", rec.Body)
	}
}

func TestLoginOfAnUnknownUserSpendsAHashAndAnswersLikeAWrongPassword(t *testing.T) {
	r := newRig(t)
	r.user("ann", false)
	var bodies []string
	for _, body := range []string{`{"username":"nobody","password":"password"}`, `{"username":"ann","password":"wrong-password"}`} {
		before := r.hasher.Hashes()
		rec := r.call(http.MethodPost, "/api/v1/auth/login", body, "")
		p := wantProblem(t, rec, http.StatusUnauthorized, "")
		bodies = append(bodies, p.Detail)
		if n := r.hasher.Hashes() - before; n != 1 {
			t.Errorf("login %s spent %d hashes, want 1", body, n)
		}
	}
	if bodies[0] != bodies[1] {
		t.Errorf("unknown user says %q, wrong password says %q; want the same", bodies[0], bodies[1])
	}
}

// forge signs claims with a method and key of the test's choosing.
func forge(t *testing.T, method jwt.SigningMethod, key any, claims jwt.Claims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(method, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestTokenAttacksAreRefused(t *testing.T) {
	r := newRig(t)
	annID, annToken := r.user("ann", false)
	adminID, _ := r.user("root", true)
	now := time.Now()
	claims := func(edit func(*jwt.RegisteredClaims)) jwt.RegisteredClaims {
		c := jwt.RegisteredClaims{Issuer: testIssuer, Subject: annID, Audience: jwt.ClaimStrings{tokenAudience},
			IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(time.Minute))}
		if edit != nil {
			edit(&c)
		}
		return c
	}
	key := []byte(testSecret)
	// Tampered: ann's real token with the payload rewritten to name the
	// admin, signature kept.
	parts := strings.Split(annToken, ".")
	payload, _ := json.Marshal(claims(func(c *jwt.RegisteredClaims) { c.Subject = adminID }))
	tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString(payload) + "." + parts[2]

	deletedID, deletedToken := r.user("gone", false)
	if err := r.accounts.Delete(context.Background(), league.Actor{UserID: deletedID}, deletedID); err != nil {
		t.Fatal(err)
	}

	if rec := r.call(http.MethodGet, "/api/v1/me", "", forge(t, jwt.SigningMethodHS256, key, claims(nil))); rec.Code != http.StatusOK {
		t.Fatalf("a well-made token is refused (%d %s): the cases below would prove nothing", rec.Code, rec.Body)
	}
	for _, tc := range []struct {
		name  string
		token string
	}{
		{"alg none", forge(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claims(nil))},
		{"HS256 with the wrong secret", forge(t, jwt.SigningMethodHS256, []byte("another-secret-another-secret-another"), claims(nil))},
		{"HS512 with the right secret", forge(t, jwt.SigningMethodHS512, key, claims(nil))},
		{"wrong audience", forge(t, jwt.SigningMethodHS256, key, claims(func(c *jwt.RegisteredClaims) { c.Audience = jwt.ClaimStrings{"another-api"} }))},
		{"no audience", forge(t, jwt.SigningMethodHS256, key, claims(func(c *jwt.RegisteredClaims) { c.Audience = nil }))},
		{"wrong issuer", forge(t, jwt.SigningMethodHS256, key, claims(func(c *jwt.RegisteredClaims) { c.Issuer = "https://evil.example" }))},
		{"expired", forge(t, jwt.SigningMethodHS256, key, claims(func(c *jwt.RegisteredClaims) { c.ExpiresAt = jwt.NewNumericDate(now.Add(-time.Second)) }))},
		{"no expiry", forge(t, jwt.SigningMethodHS256, key, claims(func(c *jwt.RegisteredClaims) { c.ExpiresAt = nil }))},
		{"no subject", forge(t, jwt.SigningMethodHS256, key, claims(func(c *jwt.RegisteredClaims) { c.Subject = "" }))},
		{"subject that is no account", forge(t, jwt.SigningMethodHS256, key, claims(func(c *jwt.RegisteredClaims) { c.Subject = "00000000-0000-0000-0000-000000000000" }))},
		{"tampered payload", tampered},
		{"deleted user", deletedToken},
		{"garbage", "not.a.token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/api/v1/me", "/api/v1/clubs"} { // required and optional auth
				rec := r.call(http.MethodGet, path, "", tc.token)
				wantProblem(t, rec, http.StatusUnauthorized, "")
				if rec.Header().Get(echo.HeaderWWWAuthenticate) == "" {
					t.Errorf("GET %s: 401 without WWW-Authenticate", path)
				}
			}
		})
	}
	// Two Authorization headers, a good one among them, in either order.
	for _, order := range [][2]string{{annToken, "garbage"}, {"garbage", annToken}} {
		for _, path := range []string{"/api/v1/me", "/api/v1/clubs"} {
			rec := r.call(http.MethodGet, path, "", "", func(req *http.Request) {
				req.Header.Add(echo.HeaderAuthorization, "Bearer "+order[0])
				req.Header.Add(echo.HeaderAuthorization, "Bearer "+order[1])
			})
			wantProblem(t, rec, http.StatusUnauthorized, "")
		}
	}
}

func TestRefreshTokenReuseRevokesTheFamily(t *testing.T) {
	r := newRig(t)
	r.user("ann", false)
	login := func() tokenResponse {
		rec := r.call(http.MethodPost, "/api/v1/auth/login", `{"username":"ann","password":"password-ann"}`, "")
		if rec.Code != http.StatusOK {
			t.Fatalf("login = %d %s", rec.Code, rec.Body)
		}
		return decode[tokenResponse](t, rec)
	}
	refresh := func(token string) *httptest.ResponseRecorder {
		return r.call(http.MethodPost, "/api/v1/auth/refresh", `{"refresh_token":"`+token+`"}`, "")
	}
	first := login()
	otherDevice := login()
	rec := refresh(first.RefreshToken)
	if rec.Code != http.StatusOK {
		t.Fatalf("first refresh = %d %s", rec.Code, rec.Body)
	}
	second := decode[tokenResponse](t, rec)

	// The attacker replays the spent token: refused, and the family dies,
	// so the legitimate holder's newer token fails too.
	wantProblem(t, refresh(first.RefreshToken), http.StatusUnauthorized, "")
	wantProblem(t, refresh(second.RefreshToken), http.StatusUnauthorized, "")
	// Another login's family is untouched.
	if rec := refresh(otherDevice.RefreshToken); rec.Code != http.StatusOK {
		t.Fatalf("another family's refresh = %d %s", rec.Code, rec.Body)
	}
	wantProblem(t, refresh("made-up-token"), http.StatusUnauthorized, "")
	wantProblem(t, r.call(http.MethodPost, "/api/v1/auth/refresh", "", ""), http.StatusUnauthorized, "")
}

func TestLoginIsRateLimitedPerClientIP(t *testing.T) {
	_, trusted, _ := net.ParseCIDR("10.0.0.0/8")
	r := newRig(t, func(d *Deps) {
		d.Auth.RatePerIP, d.Auth.RatePerUsername = 3, 100
		d.TrustedProxies = []*net.IPNet{trusted}
	})
	r.user("ann", false)
	login := func(opts ...func(*http.Request)) *httptest.ResponseRecorder {
		return r.call(http.MethodPost, "/api/v1/auth/login", `{"username":"ann","password":"wrong-password"}`, "", opts...)
	}
	client := from("203.0.113.7:5555")
	for i := 0; i < 3; i++ {
		wantProblem(t, login(client), http.StatusUnauthorized, "")
	}
	rec := login(client)
	wantProblem(t, rec, http.StatusTooManyRequests, "")
	if s, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || s < 1 || s > 60 {
		t.Errorf("Retry-After = %q, want 1..60 seconds", rec.Header().Get("Retry-After"))
	}
	hashes := r.hasher.Hashes()

	// An untrusted peer cannot pick another bucket with X-Forwarded-For.
	rec = login(client, withHeader(echo.HeaderXForwardedFor, "198.51.100.1"))
	wantProblem(t, rec, http.StatusTooManyRequests, "")
	rec = login(client, withHeader(echo.HeaderXRealIP, "198.51.100.2"))
	wantProblem(t, rec, http.StatusTooManyRequests, "")
	if r.hasher.Hashes() != hashes {
		t.Error("refused attempts still hashed a password")
	}
	// A trusted proxy's X-Forwarded-For names the client, whose bucket is
	// its own ...
	viaProxy := []func(*http.Request){from("10.1.2.3:443"), withHeader(echo.HeaderXForwardedFor, "198.51.100.1")}
	wantProblem(t, login(viaProxy...), http.StatusUnauthorized, "")
	// ... and the limited client is limited through the proxy too; a
	// spoofed entry it prepends does not help.
	rec = login(from("10.1.2.3:443"), withHeader(echo.HeaderXForwardedFor, "192.0.2.99, 203.0.113.7"))
	wantProblem(t, rec, http.StatusTooManyRequests, "")
	// Another client is unaffected.
	wantProblem(t, login(from("203.0.113.8:5555")), http.StatusUnauthorized, "")
}

// A username's wrong passwords are counted per address and from all
// addresses together: a client guessing one account is stopped at the
// username's budget, a botnet at ten addresses' worth, and neither locks
// the owner out from another address until then (a single budget let
// anyone lock any account with ten wrong passwords a window: the security
// audit).
func TestLoginIsRateLimitedPerUsername(t *testing.T) {
	r := newRig(t, func(d *Deps) { d.Auth.RatePerIP, d.Auth.RatePerUsername = 100, 2 })
	r.user("ann", false)
	login := func(password, addr string) *httptest.ResponseRecorder {
		return r.call(http.MethodPost, "/api/v1/auth/login", `{"username":"ANN","password":"`+password+`"}`, "", from(addr+":1000"))
	}
	for i, want := range []int{http.StatusUnauthorized, http.StatusUnauthorized, http.StatusTooManyRequests} {
		wantProblem(t, login("guess"+strconv.Itoa(i), "203.0.113.1"), want, "")
	}
	wantProblem(t, login("password-ann", "203.0.113.1"), http.StatusTooManyRequests, "")
	if rec := login("password-ann", "198.51.100.200"); rec.Code != http.StatusOK {
		t.Fatalf("the owner from another address after a stranger's wrong passwords: %d %s, want 200", rec.Code, rec.Body)
	}
	// From a new address each time: a botnet guessing one account has 20
	// guesses (2 of them spent above) before every address is refused.
	for i := range 18 {
		wantProblem(t, login("guess", "198.51.100."+strconv.Itoa(i+1)), http.StatusUnauthorized, "")
	}
	wantProblem(t, login("guess", "198.51.100.100"), http.StatusTooManyRequests, "")
	wantProblem(t, login("password-ann", "198.51.100.101"), http.StatusTooManyRequests, "")
	rec := r.call(http.MethodPost, "/api/v1/auth/login", `{"username":"bob","password":"guess"}`, "", from("198.51.100.9:1000"))
	wantProblem(t, rec, http.StatusUnauthorized, "")
}

// Only wrong passwords are guesses: signing in with the right one, more
// often than the username's budget, never locks the account (every sign-in
// counted, and a family's devices signing in ten times in a quarter of an
// hour did), nor does it leave fewer wrong guesses than the budget.
func TestRightPasswordsDoNotSpendTheUsernamesBudget(t *testing.T) {
	r := newRig(t, func(d *Deps) { d.Auth.RatePerIP, d.Auth.RatePerUsername = 100, 2 })
	_, ann := r.user("ann", false)
	for i := range 5 {
		if rec := r.login("ann", "password-ann"); rec.Code != http.StatusOK {
			t.Fatalf("sign-in %d with the right password: %d %s", i+1, rec.Code, rec.Body)
		}
	}
	// A password proved at an e-mail change is no guess either.
	for i := range 3 {
		if rec := r.call("PATCH", "/api/v1/me", emailBody("password-ann", "ann"+strconv.Itoa(i)+"@example.org"), ann); rec.Code != http.StatusOK {
			t.Fatalf("e-mail change %d with the right password: %d %s", i+1, rec.Code, rec.Body)
		}
	}
	// Nor is one proved right before the request is refused for another
	// reason: an owner cannot close the account (the audit of today's
	// changes: ten such refusals locked the owner out of signing in).
	if rec := r.call("POST", "/api/v1/clubs", `{"name":"Ann's club"}`, ann); rec.Code != http.StatusCreated {
		t.Fatalf("ann's club: %d %s", rec.Code, rec.Body)
	}
	for range 3 {
		wantProblem(t, r.call("DELETE", "/api/v1/me", `{"current_password":"password-ann"}`, ann), http.StatusUnprocessableEntity, "")
	}
	for i, want := range []int{http.StatusUnauthorized, http.StatusUnauthorized, http.StatusTooManyRequests} {
		wantProblem(t, r.login("ann", "guess"+strconv.Itoa(i)), want, "")
	}
	wantProblem(t, r.login("ann", "password-ann"), http.StatusTooManyRequests, "")
}

func TestRegistrationIsRateLimitedPerClientIP(t *testing.T) {
	r := newRig(t, func(d *Deps) { d.Auth.RatePerIP = 2 })
	for i, want := range []int{http.StatusCreated, http.StatusCreated, http.StatusTooManyRequests} {
		rec := r.call(http.MethodPost, "/api/v1/auth/register", `{"username":"user`+strconv.Itoa(i)+`","password":"password"}`, "")
		if rec.Code != want {
			t.Fatalf("registration %d = %d, want %d: %s", i+1, rec.Code, want, rec.Body)
		}
	}
	if n := r.count("users"); n != 2+int64(len(league.BotLevels)) {
		t.Fatalf("users = %d, want the 2 admitted plus the bots", n)
	}
}

// Two API instances on one Redis share the budget.
func TestRateLimitsAreSharedByEveryInstance(t *testing.T) {
	r := newRig(t, func(d *Deps) { d.Auth.RatePerIP = 2 })
	other := r.d
	other.Metrics = nil
	other.Limiter = ratelimit.New(r.redis(), quietLogger)
	second := New(other)
	body := `{"username":"ann","password":"password"}`
	wantProblem(t, r.call(http.MethodPost, "/api/v1/auth/login", body, ""), http.StatusUnauthorized, "")
	req := httptest.NewRequest(http.MethodPost, "/api/v1/auth/login", strings.NewReader(body))
	req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	req.RemoteAddr = "192.0.2.10:40000"
	rec := httptest.NewRecorder()
	second.ServeHTTP(rec, req)
	wantProblem(t, rec, http.StatusUnauthorized, "")
	wantProblem(t, r.call(http.MethodPost, "/api/v1/auth/login", body, ""), http.StatusTooManyRequests, "")
}

func TestIPExtractorTrustsXForwardedForOnlyFromConfiguredProxies(t *testing.T) {
	_, proxies, _ := net.ParseCIDR("10.0.0.0/8")
	for _, tc := range []struct {
		name    string
		proxies []*net.IPNet
		remote  string
		xff     string
		want    string
	}{
		{"no proxies: the peer", nil, "203.0.113.7:1", "198.51.100.1", "203.0.113.7"},
		{"no proxies: loopback peer is not trusted either", nil, "127.0.0.1:1", "198.51.100.1", "127.0.0.1"},
		{"untrusted peer", []*net.IPNet{proxies}, "203.0.113.7:1", "198.51.100.1", "203.0.113.7"},
		{"private peer outside the list", []*net.IPNet{proxies}, "192.168.1.1:1", "198.51.100.1", "192.168.1.1"},
		{"trusted proxy", []*net.IPNet{proxies}, "10.0.0.5:1", "198.51.100.1", "198.51.100.1"},
		{"trusted chain, spoofed head", []*net.IPNet{proxies}, "10.0.0.5:1", "1.2.3.4, 198.51.100.1, 10.0.0.6", "198.51.100.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			req.RemoteAddr = tc.remote
			req.Header.Set(echo.HeaderXForwardedFor, tc.xff)
			if got := ipExtractor(tc.proxies)(req); got != tc.want {
				t.Errorf("client IP = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestIPv6ClientsShareABucketPerSlash64(t *testing.T) {
	e := echo.New()
	e.IPExtractor = echo.ExtractIPDirect()
	bucket := func(remote string) string {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.RemoteAddr = remote
		return clientBucket(e.NewContext(req, httptest.NewRecorder()))
	}
	if a, b := bucket("[2001:db8:1:2::1]:1"), bucket("[2001:db8:1:2:ffff::9]:1"); a != b {
		t.Errorf("one /64 has buckets %q and %q", a, b)
	}
	if a, b := bucket("[2001:db8:1:2::1]:1"), bucket("[2001:db8:1:3::1]:1"); a == b {
		t.Errorf("two /64s share bucket %q", a)
	}
	if got := bucket("203.0.113.7:1"); got != "203.0.113.7" {
		t.Errorf("IPv4 bucket = %q", got)
	}
}

// Closing one's own account took the session alone: a device left signed
// in, or an access token that leaked, was enough to end the account for
// good, where an e-mail change already asked for the password. Closing now
// takes the password: none, or a wrong one, is a 400 naming
// current_password that leaves the account open, and a wrong one spends
// the login budgets as a wrong login does.
func TestClosingOnesAccountTakesItsPassword(t *testing.T) {
	r := newRig(t, func(d *Deps) { d.Auth.RatePerUsername = 3 })
	_, ann := r.user("ann", false)
	for name, body := range map[string]string{"no body": "", "no password": `{}`, "an empty password": `{"current_password":""}`,
		"a wrong password": `{"current_password":"not ann's"}`} {
		rec := r.call(http.MethodDelete, "/api/v1/me", body, ann)
		if body == "" {
			wantProblem(t, rec, http.StatusBadRequest, "")
		} else {
			wantProblem(t, rec, http.StatusBadRequest, "current_password")
		}
		if rec := r.call(http.MethodGet, "/api/v1/me", "", ann); rec.Code != http.StatusOK {
			t.Fatalf("after %s: ann's account answers %d, want it still open", name, rec.Code)
		}
	}
	// Wrong passwords are guesses: the username's login budget runs out.
	for i := 0; i < 2; i++ {
		r.call(http.MethodDelete, "/api/v1/me", `{"current_password":"guess"}`, ann)
	}
	if rec := r.call(http.MethodDelete, "/api/v1/me", `{"current_password":"password-ann"}`, ann); rec.Code != http.StatusTooManyRequests {
		t.Fatalf("a close after three wrong passwords: %d %s, want 429", rec.Code, rec.Body)
	}
	if rec := r.call(http.MethodPost, "/api/v1/auth/login", `{"username":"ann","password":"password-ann"}`, ""); rec.Code != http.StatusTooManyRequests {
		t.Fatalf("a login after three wrong passwords at closing: %d, want 429 (one budget)", rec.Code)
	}
	r.redis().FlushDB(context.Background())
	if rec := r.call(http.MethodDelete, "/api/v1/me", `{"current_password":"password-ann"}`, ann); rec.Code != http.StatusNoContent {
		t.Fatalf("a close with the password: %d %s, want 204", rec.Code, rec.Body)
	}
	wantProblem(t, r.call(http.MethodGet, "/api/v1/me", "", ann), http.StatusUnauthorized, "")

	// DELETE /users/{id} on one's own id is the same close: it took the
	// session alone (the security audit closed an account with a token).
	bobID, bob := r.user("bob", false)
	wantProblem(t, r.call(http.MethodDelete, "/api/v1/users/"+bobID, `{}`, bob), http.StatusBadRequest, "current_password")
	wantProblem(t, r.call(http.MethodDelete, "/api/v1/users/"+bobID, `{"current_password":"not bob's"}`, bob), http.StatusBadRequest, "current_password")
	if rec := r.call(http.MethodGet, "/api/v1/me", "", bob); rec.Code != http.StatusOK {
		t.Fatalf("after DELETE /users/{own id} with no password: %d, want the account still open", rec.Code)
	}
	if rec := r.call(http.MethodDelete, "/api/v1/users/"+bobID, `{"current_password":"password-bob"}`, bob); rec.Code != http.StatusNoContent {
		t.Fatalf("DELETE /users/{own id} with the password: %d %s, want 204", rec.Code, rec.Body)
	}
}

func TestClosingAnAccountEndsItsSessions(t *testing.T) {
	r := newRig(t)
	annID, annToken := r.user("ann", false)
	bobID, bobToken := r.user("bob", false)
	_, rootToken := r.user("root", true)
	wantProblem(t, r.call(http.MethodDelete, "/api/v1/me", "", ""), http.StatusUnauthorized, "")
	wantProblem(t, r.call(http.MethodDelete, "/api/v1/users/"+annID, "", bobToken), http.StatusForbidden, "")
	if rec := r.call(http.MethodDelete, "/api/v1/me", `{"current_password":"password-ann"}`, annToken); rec.Code != http.StatusNoContent {
		t.Fatalf("DELETE /me = %d %s, want 204", rec.Code, rec.Body)
	}
	wantProblem(t, r.call(http.MethodGet, "/api/v1/me", "", annToken), http.StatusUnauthorized, "")
	// The profile stays, as the record ann's games and ratings link to,
	// and says the account is closed.
	rec := r.call(http.MethodGet, "/api/v1/users/"+annID, "", bobToken)
	var profile struct {
		Username string     `json:"username"`
		ClosedAt *time.Time `json:"closed_at"`
	}
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &profile) != nil || profile.Username != "ann" || profile.ClosedAt == nil {
		t.Fatalf("a closed account's profile = %d %s, want 200 with closed_at", rec.Code, rec.Body)
	}
	rootPassword := `{"current_password":"password-root"}`
	if rec := r.call(http.MethodDelete, "/api/v1/users/"+bobID, rootPassword, rootToken); rec.Code != http.StatusNoContent {
		t.Fatalf("an admin's DELETE /users/{id} = %d %s, want 204", rec.Code, rec.Body)
	}
	wantProblem(t, r.call(http.MethodGet, "/api/v1/me", "", bobToken), http.StatusUnauthorized, "")
	wantProblem(t, r.call(http.MethodDelete, "/api/v1/users/not-an-id", "", rootToken), http.StatusNotFound, "")
	// A bot's account exists and is nobody's to close: a 422 saying so, not
	// "no such user" (the security audit).
	bot, err := r.accounts.BotUser(context.Background(), "greedy")
	if err != nil {
		t.Fatal(err)
	}
	rec = r.call(http.MethodDelete, "/api/v1/users/"+bot.ID, rootPassword, rootToken)
	wantDocumented(t, rec, http.MethodDelete, "/api/v1/users/{id}", http.StatusUnprocessableEntity)
	wantProblem(t, rec, http.StatusUnprocessableEntity, "")
}

// A username that only looks like another's (a full-width letter, a
// ligature, a Roman numeral, a dotted capital I: forms that Unicode's
// compatibility normalization, NFKC with case folding, makes another's
// name) is refused at registration naming username, and signs nobody in:
// usernames are ASCII letters, digits, _ and - only, where NFKC changes
// nothing and case folding is lower(), which the unique index on
// lower(username) already holds to one account.
func TestALookAlikeUsernameIsRefused(t *testing.T) {
	r := newRig(t)
	r.user("alice", false)
	r.user("fiona", false)
	r.user("ivy", false)
	users := r.count("users")
	for _, name := range []string{"ａlice", "ALİCE", "ﬁona", "ⅰvy", "ＩＶＹ", "alice\u0301"} {
		t.Run(name, func(t *testing.T) {
			body := `{"username":` + strconv.Quote(name) + `,"password":"a long password"}`
			wantProblem(t, r.call(http.MethodPost, "/api/v1/auth/register", body, ""), http.StatusBadRequest, "username")
			wantProblem(t, r.login(name, "password-alice"), http.StatusUnauthorized, "")
		})
	}
	wantProblem(t, r.call(http.MethodPost, "/api/v1/auth/register", `{"username":"ALICE","password":"a long password"}`, ""),
		http.StatusConflict, "username")
	if got := r.count("users"); got != users {
		t.Errorf("users = %d, want %d: a look-alike was created", got, users)
	}
}

// A site admin closed another's account with the session alone: a leaked
// admin token could end every account for good (the security audit), where
// closing one's own takes the password. Closing another's account now
// takes the acting admin's own password: none is a 400 naming
// current_password and a wrong one is the same 400 (spending the admin's
// login budgets), each leaving the account open; a caller who is no admin
// is refused (403) before any password is asked.
func TestClosingAnotherAccountTakesTheAdminsPassword(t *testing.T) {
	r := newRig(t)
	annID, ann := r.user("ann", false)
	_, bob := r.user("bob", false)
	_, root := r.user("root", true)
	wantProblem(t, r.call(http.MethodDelete, "/api/v1/users/"+annID, `{"current_password":"password-bob"}`, bob), http.StatusForbidden, "")
	for name, body := range map[string]string{"no body": "", "no password": `{}`, "an empty password": `{"current_password":""}`,
		"ann's password": `{"current_password":"password-ann"}`, "a wrong password": `{"current_password":"not root's"}`} {
		rec := r.call(http.MethodDelete, "/api/v1/users/"+annID, body, root)
		wantProblem(t, rec, http.StatusBadRequest, "current_password")
		if rec := r.call(http.MethodGet, "/api/v1/me", "", ann); rec.Code != http.StatusOK {
			t.Fatalf("after an admin's close with %s: ann's account answers %d, want it still open", name, rec.Code)
		}
	}
	rec := r.call(http.MethodDelete, "/api/v1/users/"+annID, `{"current_password":"password-root"}`, root)
	if rec.Code != http.StatusNoContent {
		t.Fatalf("an admin's close with the admin's password: %d %s, want 204", rec.Code, rec.Body)
	}
	wantProblem(t, r.call(http.MethodGet, "/api/v1/me", "", ann), http.StatusUnauthorized, "")
	if rec := r.call(http.MethodGet, "/api/v1/me", "", bob); rec.Code != http.StatusOK {
		t.Fatalf("bob's account answers %d after ann's close, want it open", rec.Code)
	}
}
