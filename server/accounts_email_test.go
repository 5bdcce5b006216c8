package server

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

func emailBody(current, email string) string {
	return `{"email":` + strconv.Quote(email) + `,"current_password":` + strconv.Quote(current) + `}`
}

func (r *rig) storedEmail(userID string) string {
	r.t.Helper()
	var email []string
	if err := r.db.Gorm.Raw("SELECT coalesce(email, '<null>') FROM users WHERE id = ?", userID).Scan(&email).Error; err != nil || len(email) != 1 {
		r.t.Fatal(err, email)
	}
	return email[0]
}

func TestChangingTheEmailTakesThePasswordAndKeepsTheSession(t *testing.T) {
	r := newRig(t)
	annID, _ := r.user("ann", false)
	session := decode[tokenResponse](t, r.login("ann", "password-ann"))
	rec := r.call("PATCH", "/api/v1/me", emailBody("password-ann", "ann@example.org"), session.AccessToken)
	if rec.Code != http.StatusOK {
		t.Fatalf("PATCH /me = %d %s", rec.Code, rec.Body)
	}
	if got := decode[userResponse](t, rec); got.ID != annID || got.Username != "ann" || got.Email != "ann@example.org" {
		t.Errorf("answer = %+v", got)
	}
	if len(rec.Result().Cookies()) != 0 {
		t.Errorf("the change set cookies: %v", rec.Header().Values("Set-Cookie"))
	}
	if got := decode[userResponse](t, r.call("GET", "/api/v1/me", "", session.AccessToken)); got.Email != "ann@example.org" {
		t.Errorf("GET /me after: %+v", got)
	}
	// Others do not see it.
	_, bob := r.user("bob", false)
	if got := decode[userResponse](t, r.call("GET", "/api/v1/users/"+annID, "", bob)); got.Email != "" {
		t.Errorf("bob sees ann's address %q", got.Email)
	}
	// "" removes it.
	rec = r.call("PATCH", "/api/v1/me", emailBody("password-ann", ""), session.AccessToken)
	if got := decode[userResponse](t, rec); rec.Code != http.StatusOK || got.Email != "" {
		t.Errorf("removing it = %d %s", rec.Code, rec.Body)
	}
	if got := r.storedEmail(annID); got != "<null>" {
		t.Errorf("stored email = %q, want none", got)
	}
	if rec := r.refreshWith(session.RefreshToken); rec.Code != http.StatusOK {
		t.Errorf("the session after the change: %d %s", rec.Code, rec.Body)
	}
}

func TestARefusedEmailChangeNamesTheFieldAndChangesNothing(t *testing.T) {
	r := newRig(t)
	annID, ann := r.user("ann", false)
	if rec := r.call("PATCH", "/api/v1/me", emailBody("password-ann", "ann@example.org"), ann); rec.Code != http.StatusOK {
		t.Fatalf("setting it: %d %s", rec.Code, rec.Body)
	}
	for _, tc := range []struct {
		name, body string
		token      bool
		status     int
		field      string
	}{
		{"signed out", emailBody("password-ann", "eve@example.org"), false, http.StatusUnauthorized, ""},
		{"wrong password", emailBody("password-guess", "eve@example.org"), true, http.StatusBadRequest, "current_password"},
		{"no password", `{"email":"eve@example.org"}`, true, http.StatusBadRequest, "current_password"},
		{"no email", `{"current_password":"password-ann"}`, true, http.StatusBadRequest, "email"},
		{"an empty body object", `{}`, true, http.StatusBadRequest, "email"},
		{"not an address", emailBody("password-ann", "eve"), true, http.StatusBadRequest, "email"},
		{"an address with a display name", emailBody("password-ann", "Eve <eve@example.org>"), true, http.StatusBadRequest, "email"},
		{"an address of 255 characters", emailBody("password-ann", strings.Repeat("e", 243)+"@example.org"), true, http.StatusBadRequest, "email"},
		{"an email that is a number", `{"email":5,"current_password":"password-ann"}`, true, http.StatusBadRequest, "email"},
		{"an email of null", `{"email":null,"current_password":"password-ann"}`, true, http.StatusBadRequest, "email"},
		{"a username", `{"email":"eve@example.org","current_password":"password-ann","username":"eve"}`, true, http.StatusBadRequest, "username"},
		{"a new password", `{"email":"eve@example.org","current_password":"password-ann","new_password":"another one"}`, true, http.StatusBadRequest, "new_password"},
		{"an email with NUL", `{"email":"eve\u0000@example.org","current_password":"password-ann"}`, true, http.StatusBadRequest, "email"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			token := ""
			if tc.token {
				token = ann
			}
			before := r.fingerprint()
			rec := r.call("PATCH", "/api/v1/me", tc.body, token)
			wantProblem(t, rec, tc.status, tc.field)
			wantDocumented(t, rec, "PATCH", "/api/v1/me", tc.status)
			if changed := changedTables(before, r.fingerprint()); len(changed) > 0 {
				t.Errorf("a refused change wrote to %v", changed)
			}
			if got := r.storedEmail(annID); got != "ann@example.org" {
				t.Errorf("stored email = %q", got)
			}
		})
	}
}

// Someone holding a stolen access token gets no unlimited guesses at the
// password here either: each attempt spends the login budget.
func TestEmailChangesSpendTheLoginBudget(t *testing.T) {
	r := newRig(t, func(d *Deps) { d.Auth.RatePerUsername = 3 })
	_, ann := r.user("ann", false)
	// Changes refused on their form alone spend nothing.
	for range 5 {
		wantProblem(t, r.call("PATCH", "/api/v1/me", emailBody("password-ann", "eve"), ann), http.StatusBadRequest, "email")
	}
	for i := 0; i < 3; i++ {
		wantProblem(t, r.call("PATCH", "/api/v1/me", emailBody("guess-"+strconv.Itoa(i), "eve@example.org"), ann), http.StatusBadRequest, "current_password")
	}
	rec := r.call("PATCH", "/api/v1/me", emailBody("password-ann", "eve@example.org"), ann)
	wantProblem(t, rec, http.StatusTooManyRequests, "")
	wantDocumented(t, rec, "PATCH", "/api/v1/me", http.StatusTooManyRequests)
	if rec.Header().Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	wantProblem(t, r.login("ann", "password-ann"), http.StatusTooManyRequests, "")
}
