package server

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/seqleague/seqleague/league"
)

func TestBadInputIsRefusedAndTheDatabaseUnchanged(t *testing.T) {
	r := newRig(t)
	ownerID, owner := r.user("ann", false)
	club, err := r.clubs.Create(context.Background(), league.Actor{UserID: ownerID}, league.NewClub{Name: "Corner Club"})
	if err != nil {
		t.Fatal(err)
	}
	clubPath := "/api/v1/clubs/" + club.ID
	tables := []string{"users", "refresh_tokens", "clubs", "club_members", "club_invites"}
	const register = "/api/v1/auth/register"
	for _, tc := range []struct {
		name, method, path, body, token string
		contentType                     string // "" means application/json
		status                          int
		field                           string // the field the problem must name
	}{
		{"malformed JSON", "POST", register, `{"username": "bob",`, "", "", 400, ""},
		{"JSON syntax error", "POST", register, `{"username" "bob"}`, "", "", 400, ""},
		{"empty body", "POST", register, ``, "", "", 400, ""},
		{"not an object", "POST", register, `["bob","password"]`, "", "", 400, ""},
		{"two objects", "POST", register, `{"username":"bob","password":"password"} {}`, "", "", 400, ""},
		{"username of the wrong type", "POST", register, `{"username":123,"password":"password"}`, "", "", 400, "username"},
		{"password of the wrong type", "POST", register, `{"username":"bob","password":true}`, "", "", 400, "password"},
		{"unknown field (mass assignment)", "POST", register, `{"username":"bob","password":"password","is_admin":true}`, "", "", 400, "is_admin"},
		{"oversized body", "POST", register, `{"username":"bob","password":"` + strings.Repeat("p", 70<<10) + `"}`, "", "", 413, ""},
		{"not JSON content", "POST", register, `username=bob&password=password`, "", "application/x-www-form-urlencoded", 415, ""},
		{"overlong username", "POST", register, `{"username":"` + strings.Repeat("b", 25) + `","password":"password"}`, "", "", 400, "username"},
		{"short username", "POST", register, `{"username":"bo","password":"password"}`, "", "", 400, "username"},
		{"non-ASCII username", "POST", register, `{"username":"jöhn","password":"password"}`, "", "", 400, "username"},
		{"escaped non-ASCII username", "POST", register, `{"username":"b\u00f6b","password":"password"}`, "", "", 400, "username"},
		{"NUL in username", "POST", register, `{"username":"bob\u0000","password":"password"}`, "", "", 400, "username"},
		{"SQL-looking username", "POST", register, `{"username":"x' OR '1'='1","password":"password"}`, "", "", 400, "username"},
		{"SQL-injecting username", "POST", register, `{"username":"bob'); DROP TABLE users;--","password":"password"}`, "", "", 400, "username"},
		{"short password", "POST", register, `{"username":"bob","password":"short"}`, "", "", 400, "password"},
		{"overlong password", "POST", register, `{"username":"bob","password":"` + strings.Repeat("p", 129) + `"}`, "", "", 400, "password"},
		{"bad email", "POST", register, `{"username":"bob","password":"password","email":"bob at example"}`, "", "", 400, "email"},
		{"email with a direction override", "POST", register, `{"username":"bob","password":"password","email":"bob@example.com\u202e"}`, "", "", 400, "email"},
		{"email with a zero-width space", "POST", register, `{"username":"bob","password":"password","email":"bob@exa\u200bmple.com"}`, "", "", 400, "email"},
		{"taken username, other case", "POST", register, `{"username":"ANN","password":"password"}`, "", "", 409, "username"},
		{"login without password", "POST", "/api/v1/auth/login", `{"username":"ann"}`, "", "", 400, "password"},
		{"login with SQL", "POST", "/api/v1/auth/login", `{"username":"ann' --","password":"x' OR '1'='1"}`, "", "", 401, ""},
		{"refresh token of the wrong type", "POST", "/api/v1/auth/refresh", `{"refresh_token":42}`, "", "", 400, "refresh_token"},
		{"club name of the wrong type", "POST", "/api/v1/clubs", `{"name":123}`, owner, "", 400, "name"},
		{"club name too long", "POST", "/api/v1/clubs", `{"name":"` + strings.Repeat("n", 65) + `"}`, owner, "", 400, "name"},
		{"club name with a control character", "POST", "/api/v1/clubs", `{"name":"bad\nname"}`, owner, "", 400, "name"},
		{"club name with a direction override", "POST", "/api/v1/clubs", `{"name":"Club \u202eeulb"}`, owner, "", 400, "name"},
		{"club name across two lines by a line separator", "POST", "/api/v1/clubs", `{"name":"Club\u2028Two"}`, owner, "", 400, "name"},
		{"club name with an invisible soft hyphen", "POST", "/api/v1/clubs", `{"name":"corner\u00adclub"}`, owner, "", 400, "name"},
		{"club description too long", "POST", "/api/v1/clubs", `{"name":"Fine name","description":"` + strings.Repeat("d", 2001) + `"}`, owner, "", 400, "description"},
		{"club name taken", "POST", "/api/v1/clubs", `{"name":"corner club"}`, owner, "", 409, "name"},
		{"club edit with an unknown field", "PATCH", clubPath, `{"owner":"me"}`, owner, "", 400, "owner"},
		{"club description of null (taken as left out, a 200)", "PATCH", clubPath, `{"description":null}`, owner, "", 400, "description"},
		{"invite uses of null (taken as the default, a new invite)", "POST", clubPath + "/invites", `{"max_uses":null}`, owner, "", 400, "max_uses"},
		{"transfer to a non-member", "PATCH", clubPath, `{"owner_id":"00000000-0000-0000-0000-000000000000"}`, owner, "", 400, "owner_id"},
		{"invite hours of the wrong type", "POST", clubPath + "/invites", `{"expires_in_hours":"soon"}`, owner, "", 400, "expires_in_hours"},
		{"invite hours fractional", "POST", clubPath + "/invites", `{"expires_in_hours":1.5}`, owner, "", 400, "expires_in_hours"},
		{"invite hours out of range", "POST", clubPath + "/invites", `{"expires_in_hours":99999999999}`, owner, "", 400, "expires_in_hours"},
		{"invite uses out of range", "POST", clubPath + "/invites", `{"max_uses":0.5}`, owner, "", 400, "max_uses"},
		{"too many invite uses", "POST", clubPath + "/invites", `{"max_uses":1001}`, owner, "", 400, "max_uses"},
		{"invite uses of zero", "POST", clubPath + "/invites", `{"max_uses":0}`, owner, "", 400, "max_uses"},
		{"invite hours of zero", "POST", clubPath + "/invites", `{"expires_in_hours":0}`, owner, "", 400, "expires_in_hours"},
		{"join without a code", "POST", clubPath + "/members", `{}`, owner, "", 400, "code"},
		{"role that does not exist", "PATCH", clubPath + "/members/" + ownerID, `{"role":"emperor"}`, owner, "", 400, "role"},
		{"limit not a number", "GET", "/api/v1/clubs?limit=ten", ``, "", "", 400, "limit"},
		{"limit too big", "GET", "/api/v1/clubs?limit=1000", ``, "", "", 400, "limit"},
		{"limit negative", "GET", "/api/v1/clubs?limit=-3", ``, "", "", 400, "limit"},
		{"limit of zero", "GET", "/api/v1/clubs?limit=0", ``, "", "", 400, "limit"},
		{"forged cursor", "GET", "/api/v1/clubs?cursor='%20OR%201=1", ``, "", "", 400, "cursor"},
		{"limit given twice, the second bad", "GET", "/api/v1/clubs?limit=2&limit=abc", ``, "", "", 400, "limit"},
		{"a search given twice", "GET", "/api/v1/clubs?q=corner&q=other", ``, "", "", 400, "q"},
		{"a cursor given twice, escaped", "GET", "/api/v1/clubs?cursor=a&%63ursor=b", ``, "", "", 400, "cursor"},
		{"an invite given twice", "POST", clubPath + "/invites?x=1&x=2", `{}`, owner, "", 400, "x"},
		{"overlong search", "GET", "/api/v1/clubs?q=" + strings.Repeat("q", 65), ``, "", "", 400, "q"},
		{"NUL in a search", "GET", "/api/v1/clubs?q=a%00b", ``, "", "", 400, "q"},
		// PostgreSQL refused the bytes of a search that is not UTF-8: a 500
		{"a search that is not UTF-8", "GET", "/api/v1/clubs?q=a%FF%FEb", ``, "", "", 400, "q"},
		{"a parameter named in bytes that are not UTF-8", "GET", "/api/v1/clubs?%FF=1", ``, "", "", 400, "\uFFFD"},
		{"club ID that is no UUID", "GET", "/api/v1/clubs/1%20OR%201=1", ``, "", "", 404, ""},
		{"user ID that is no UUID", "GET", "/api/v1/users/'--", ``, "", "", 404, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := map[string]int64{}
			for _, tb := range tables {
				before[tb] = r.count(tb)
			}
			rec := r.call(tc.method, tc.path, tc.body, tc.token, func(req *http.Request) {
				if tc.contentType != "" {
					req.Header.Set(echo.HeaderContentType, tc.contentType)
				}
			})
			p := wantProblem(t, rec, tc.status, tc.field)
			if p.Detail == "" {
				t.Errorf("problem has no detail: %s", rec.Body)
			}
			for _, tb := range tables {
				if after := r.count(tb); after != before[tb] {
					t.Errorf("%s rows: %d before, %d after", tb, before[tb], after)
				}
			}
		})
	}
}

func TestSQLLookingTextIsStoredVerbatim(t *testing.T) {
	r := newRig(t)
	_, owner := r.user("ann", false)
	name := `Robert'); DROP TABLE clubs;--`
	rec := r.call(http.MethodPost, "/api/v1/clubs", `{"name":"Robert'); DROP TABLE clubs;--","description":"50% off_ \\ all"}`, owner)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create = %d %s", rec.Code, rec.Body)
	}
	created := decode[clubResponse](t, rec)
	if created.Name != name || created.Description != `50% off_ \ all` {
		t.Fatalf("stored club = %+v", created)
	}
	rec = r.call(http.MethodGet, "/api/v1/clubs?q="+"%25+off", "", "")
	if list := decode[listResponse[clubResponse]](t, rec); len(list.Items) != 0 {
		t.Errorf("search for %q matched %d clubs (by description?), want 0", "% off", len(list.Items))
	}
	rec = r.call(http.MethodGet, "/api/v1/clubs?q="+"DROP+TABLE", "", "")
	if list := decode[listResponse[clubResponse]](t, rec); len(list.Items) != 1 || list.Items[0].Name != name {
		t.Errorf("search = %s", rec.Body)
	}
	if n := r.count("clubs"); n != 1 {
		t.Fatalf("clubs = %d, want 1", n)
	}
}
