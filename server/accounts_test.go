package server

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/labstack/echo/v4"
)

func (r *rig) login(username, password string) *httptest.ResponseRecorder {
	return r.call(http.MethodPost, "/api/v1/auth/login", `{"username":"`+username+`","password":"`+password+`"}`, "")
}

func (r *rig) refreshWith(token string) *httptest.ResponseRecorder {
	return r.call(http.MethodPost, "/api/v1/auth/refresh", `{"refresh_token":"`+token+`"}`, "")
}

func (r *rig) passwordHash(userID string) string {
	r.t.Helper()
	var hash string
	if err := r.db.Gorm.Table("users").Where("id = ?", userID).Pluck("password_hash", &hash).Error; err != nil {
		r.t.Fatal(err)
	}
	return hash
}

func changePasswordBody(current, next string) string {
	return `{"current_password":` + strconv.Quote(current) + `,"new_password":` + strconv.Quote(next) + `}`
}

func TestChangingThePasswordEndsOtherSessionsAndKeepsTheCallerSignedIn(t *testing.T) {
	r := newRig(t)
	annID, _ := r.user("ann", false)
	rec := r.login("ann", "password-ann")
	if rec.Code != http.StatusOK {
		t.Fatalf("login = %d %s", rec.Code, rec.Body)
	}
	browser := decode[tokenResponse](t, rec)
	phone := decode[tokenResponse](t, r.login("ann", "password-ann"))

	rec = r.call(http.MethodPost, "/api/v1/me/password", changePasswordBody("password-ann", "a much better one"), browser.AccessToken)
	if rec.Code != http.StatusOK {
		t.Fatalf("change = %d %s", rec.Code, rec.Body)
	}
	pair := decode[tokenResponse](t, rec)
	if pair.TokenType != "Bearer" || pair.AccessToken == "" || pair.RefreshToken == "" || pair.ExpiresIn != 900 {
		t.Errorf("token pair = %+v", pair)
	}
	if cc := rec.Header().Get(echo.HeaderCacheControl); cc != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", cc)
	}
	if ck := refreshCookieOf(t, rec); ck.Value != pair.RefreshToken || !ck.HttpOnly {
		t.Errorf("refresh cookie = %+v, want the new refresh token, HttpOnly", ck)
	}

	// Every earlier session must sign in again ...
	wantProblem(t, r.refreshWith(browser.RefreshToken), http.StatusUnauthorized, "")
	wantProblem(t, r.refreshWith(phone.RefreshToken), http.StatusUnauthorized, "")
	// ... while this browser carries on with its new pair.
	if rec := r.call(http.MethodGet, "/api/v1/me", "", pair.AccessToken); rec.Code != http.StatusOK {
		t.Errorf("GET /me with the new access token = %d %s", rec.Code, rec.Body)
	}
	if rec := r.refreshWith(pair.RefreshToken); rec.Code != http.StatusOK {
		t.Errorf("refresh with the new refresh token = %d %s", rec.Code, rec.Body)
	}
	wantProblem(t, r.login("ann", "password-ann"), http.StatusUnauthorized, "")
	if rec := r.login("ann", "a much better one"); rec.Code != http.StatusOK {
		t.Errorf("login with the new password = %d %s", rec.Code, rec.Body)
	}
	if h := r.passwordHash(annID); len(h) < 10 || h[:10] != "$argon2id$" {
		t.Errorf("stored hash = %q, want argon2id", h)
	}
}

func TestARefusedPasswordChangeNamesTheFieldAndChangesNothing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		body   string
		token  bool
		status int
		field  string
	}{
		{"wrong current password", changePasswordBody("password-guess", "a much better one"), true, http.StatusBadRequest, "current_password"},
		{"missing current password", `{"new_password":"a much better one"}`, true, http.StatusBadRequest, "current_password"},
		{"short new password", changePasswordBody("password-ann", "short"), true, http.StatusBadRequest, "new_password"},
		{"new password the same as the current", changePasswordBody("password-ann", "password-ann"), true, http.StatusBadRequest, "new_password"},
		{"unknown field", `{"current_password":"password-ann","new_password":"a much better one","username":"bob"}`, true, http.StatusBadRequest, "username"},
		{"not signed in", changePasswordBody("password-ann", "a much better one"), false, http.StatusUnauthorized, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			annID, _ := r.user("ann", false)
			session := decode[tokenResponse](t, r.login("ann", "password-ann"))
			hash, tokens := r.passwordHash(annID), r.count("refresh_tokens")
			token := ""
			if tc.token {
				token = session.AccessToken
			}

			rec := r.call(http.MethodPost, "/api/v1/me/password", tc.body, token)
			wantProblem(t, rec, tc.status, tc.field)
			if len(rec.Result().Cookies()) != 0 {
				t.Errorf("a refusal set cookies: %v", rec.Header().Values("Set-Cookie"))
			}
			if r.passwordHash(annID) != hash || r.count("refresh_tokens") != tokens {
				t.Error("a refused change wrote to the password or the refresh tokens")
			}
			if rec := r.refreshWith(session.RefreshToken); rec.Code != http.StatusOK {
				t.Errorf("the session ended after a refused change: %d %s", rec.Code, rec.Body)
			}
			if rec := r.login("ann", "password-ann"); rec.Code != http.StatusOK {
				t.Errorf("login with the unchanged password = %d %s", rec.Code, rec.Body)
			}
		})
	}
}

// Someone holding a stolen access token must not get unlimited guesses at
// the password through this endpoint: it spends the login budgets.
func TestPasswordChangesSpendTheLoginBudgetPerUsername(t *testing.T) {
	r := newRig(t, func(d *Deps) { d.Auth.RatePerIP, d.Auth.RatePerUsername = 100, 2 })
	_, token := r.user("ann", false)
	for i, want := range []int{http.StatusBadRequest, http.StatusBadRequest, http.StatusTooManyRequests} {
		rec := r.call(http.MethodPost, "/api/v1/me/password", changePasswordBody("guess-"+strconv.Itoa(i), "a much better one"), token)
		wantProblem(t, rec, want, "")
	}
	// The budget is the one logins spend: signing in is limited now too.
	wantProblem(t, r.login("ann", "password-ann"), http.StatusTooManyRequests, "")
}

func TestPasswordChangesSpendTheLoginBudgetPerClientIP(t *testing.T) {
	r := newRig(t, func(d *Deps) { d.Auth.RatePerIP, d.Auth.RatePerUsername = 2, 100 })
	_, token := r.user("ann", false)
	// Changes refused on their form alone spend nothing.
	for range 3 {
		wantProblem(t, r.call(http.MethodPost, "/api/v1/me/password", changePasswordBody("password-ann", "short"), token),
			http.StatusBadRequest, "new_password")
	}
	wantProblem(t, r.login("bob", "password-bob"), http.StatusUnauthorized, "")
	wantProblem(t, r.call(http.MethodPost, "/api/v1/me/password", changePasswordBody("guess", "a much better one"), token),
		http.StatusBadRequest, "current_password")
	rec := r.call(http.MethodPost, "/api/v1/me/password", changePasswordBody("password-ann", "a much better one"), token)
	wantProblem(t, rec, http.StatusTooManyRequests, "")
	if rec.Header().Get("Retry-After") == "" {
		t.Error("no Retry-After on a limited change")
	}
}

// A password change ends the access tokens of every other session at once,
// not when they expire: a token issued before the change is refused, while
// the caller's new one works.
func TestAPasswordChangeEndsOtherDevicesAccessTokensAtOnce(t *testing.T) {
	r := newRig(t)
	annID, _ := r.user("ann", false)
	browser := decode[tokenResponse](t, r.login("ann", "password-ann"))
	earlier := time.Now().Add(-50 * time.Millisecond) // a phone signed in a moment ago, most likely in the same second
	phone := forge(t, jwt.SigningMethodHS256, []byte(testSecret), jwt.RegisteredClaims{Issuer: testIssuer, Subject: annID,
		Audience: jwt.ClaimStrings{tokenAudience}, IssuedAt: jwt.NewNumericDate(earlier), ExpiresAt: jwt.NewNumericDate(earlier.Add(15 * time.Minute))})
	if rec := r.call(http.MethodGet, "/api/v1/me", "", phone); rec.Code != http.StatusOK {
		t.Fatalf("the phone before the change: %d %s", rec.Code, rec.Body)
	}
	rec := r.call(http.MethodPost, "/api/v1/me/password", changePasswordBody("password-ann", "a much better one"), browser.AccessToken)
	if rec.Code != http.StatusOK {
		t.Fatalf("change = %d %s", rec.Code, rec.Body)
	}
	pair := decode[tokenResponse](t, rec)
	p := wantProblem(t, r.call(http.MethodGet, "/api/v1/me", "", phone), http.StatusUnauthorized, "")
	if !strings.Contains(p.Detail, "password") {
		t.Errorf("detail %q; want it to say the password changed", p.Detail)
	}
	if rec := r.call(http.MethodGet, "/api/v1/me", "", pair.AccessToken); rec.Code != http.StatusOK {
		t.Errorf("the caller's new access token: %d %s", rec.Code, rec.Body)
	}
}

// Within the second an instance reuses its answer about an account, a
// request of an account closed meanwhile (by another instance) gets a 401,
// the answer a client signs out on, not "no such user".
func TestAnAccountClosedElsewhereIsSignedOutNotMissing(t *testing.T) {
	r := newGamesRig(t)
	id, tok := r.user("gina", false)
	if rec := r.call("GET", "/api/v1/me", "", tok); rec.Code != http.StatusOK {
		t.Fatalf("me: %d", rec.Code)
	}
	if err := r.db.Gorm.Exec("UPDATE users SET deleted_at = now() WHERE id = ?", id).Error; err != nil {
		t.Fatal(err)
	}
	wantProblem(t, r.call("GET", "/api/v1/me", "", tok), http.StatusUnauthorized, "")
	wantProblem(t, r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`, tok), http.StatusUnauthorized, "")
}

// Signing out ends the session's access tokens at once, not when they
// expire (15 minutes later): they are refused wherever a token is read,
// with the 401 a client signs out on, while another session of the same
// account, and a token that names no session (issued before tokens named
// theirs), go on working.
func TestSigningOutEndsTheSessionsAccessTokens(t *testing.T) {
	r := newRig(t)
	annID, _ := r.user("ann", false)
	laptop := decode[tokenResponse](t, r.login("ann", "password-ann"))
	phone := decode[tokenResponse](t, r.login("ann", "password-ann"))
	older := r.token(annID)
	if rec := r.call(http.MethodGet, "/api/v1/me", "", laptop.AccessToken); rec.Code != http.StatusOK {
		t.Fatalf("the laptop before signing out: %d %s", rec.Code, rec.Body)
	}
	if rec := r.call(http.MethodPost, "/api/v1/auth/logout", `{"refresh_token":"`+laptop.RefreshToken+`"}`, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("logout = %d %s", rec.Code, rec.Body)
	}
	for _, path := range []string{"/api/v1/me", "/api/v1/users/" + annID} {
		p := wantProblem(t, r.call(http.MethodGet, path, "", laptop.AccessToken), http.StatusUnauthorized, "")
		if !strings.Contains(p.Detail, "signed out") {
			t.Errorf("GET %s: detail %q; want it to say the session was signed out", path, p.Detail)
		}
	}
	for name, tok := range map[string]string{"the phone's session": phone.AccessToken, "a token naming no session": older} {
		if rec := r.call(http.MethodGet, "/api/v1/me", "", tok); rec.Code != http.StatusOK {
			t.Errorf("%s after the laptop signed out: %d %s", name, rec.Code, rec.Body)
		}
	}
}

// A spent refresh token replayed ends its family, and with it the access
// tokens of that session: the thief's as well as the victim's.
func TestAReplayedRefreshTokenEndsItsSessionsAccessTokens(t *testing.T) {
	r := newRig(t)
	r.user("ann", false)
	first := decode[tokenResponse](t, r.login("ann", "password-ann"))
	thief := decode[tokenResponse](t, r.refreshWith(first.RefreshToken))
	wantProblem(t, r.refreshWith(first.RefreshToken), http.StatusUnauthorized, "")
	wantProblem(t, r.call(http.MethodGet, "/api/v1/me", "", thief.AccessToken), http.StatusUnauthorized, "")
}
