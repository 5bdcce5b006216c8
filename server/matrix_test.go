package server

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/seqleague/seqleague/league"
)

// matrixWorld is a fresh club for each cell of the matrix, so that cells
// that change it (leave, remove, transfer) do not disturb each other: ann
// owns it, olga and oscar organize it, mia and tom are members, and ursula
// owns another club. The club has a league with an open season.
type matrixWorld struct {
	club, code                 string
	league, season             string
	owner, organizer, deputy   string // user IDs
	member, target, otherOwner string
	refresh                    string // a live refresh token of tom
	n                          int
}

func TestAuthorizationMatrix(t *testing.T) {
	r, _ := newAuthzRig(t)
	ctx := context.Background()
	ids, tokens := map[string]string{}, map[string]string{"anonymous": ""}
	names := map[string]string{"member": "mia", "organizer": "olga", "owner": "ann", "other owner": "ursula", "deputy": "oscar", "target": "tom"}
	for who, name := range names {
		ids[who], tokens[who] = r.user(name, false)
	}
	names["admin"] = "root"
	ids["admin"], tokens["admin"] = r.user("root", true)
	actor := func(who string) league.Actor { return league.Actor{UserID: ids[who]} }
	if _, err := r.clubs.Create(ctx, actor("other owner"), league.NewClub{Name: "Ursula's club"}); err != nil {
		t.Fatal(err)
	}
	n := 0
	newWorld := func() matrixWorld {
		t.Helper()
		n++
		club, err := r.clubs.Create(ctx, actor("owner"), league.NewClub{Name: fmt.Sprintf("Club %d", n)})
		if err != nil {
			t.Fatal(err)
		}
		inv, err := r.clubs.CreateInvite(ctx, actor("owner"), club.ID, league.NewInvite{MaxUses: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, who := range []string{"member", "organizer", "deputy", "target"} {
			if _, err := r.clubs.Join(ctx, actor(who), club.ID, inv.Code); err != nil {
				t.Fatal(err)
			}
		}
		for _, who := range []string{"organizer", "deputy"} {
			if _, err := r.clubs.SetMemberRole(ctx, actor("owner"), club.ID, ids[who], league.RoleOrganizer); err != nil {
				t.Fatal(err)
			}
		}
		_, rt, err := r.accounts.Login(ctx, "tom", "password-tom")
		if err != nil {
			t.Fatal(err)
		}
		lg, err := r.d.Leagues.CreateLeague(ctx, actor("owner"), club.ID, "Monday League", "")
		if err != nil {
			t.Fatal(err)
		}
		season, err := r.d.Leagues.CreateSeason(ctx, actor("owner"), lg.ID, "2030")
		if err != nil {
			t.Fatal(err)
		}
		return matrixWorld{club: club.ID, code: inv.Code, league: lg.ID, season: season.ID, owner: ids["owner"], organizer: ids["organizer"], deputy: ids["deputy"],
			member: ids["member"], target: ids["target"], otherOwner: ids["other owner"], refresh: rt.Token, n: n}
	}

	// want lists the status for: anonymous, member, organizer, owner,
	// other club's owner, site admin.
	actors := []string{"anonymous", "member", "organizer", "owner", "other owner", "admin"}
	type want [6]int
	const (
		ok, created, noContent = http.StatusOK, http.StatusCreated, http.StatusNoContent
		unauth, forbid, gone   = http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound
		conflict, refused      = http.StatusConflict, http.StatusUnprocessableEntity
	)
	cases := []struct {
		name   string
		method string
		path   func(w matrixWorld) string
		body   func(w matrixWorld) string
		want   want
	}{
		{"register", "POST", fixed("/api/v1/auth/register"),
			func(w matrixWorld) string { return fmt.Sprintf(`{"username":"new%d","password":"password"}`, w.n) },
			want{created, created, created, created, created, created}},
		{"login", "POST", fixed("/api/v1/auth/login"), body(`{"username":"tom","password":"password-tom"}`),
			want{ok, ok, ok, ok, ok, ok}},
		{"refresh", "POST", fixed("/api/v1/auth/refresh"),
			func(w matrixWorld) string { return `{"refresh_token":"` + w.refresh + `"}` },
			want{ok, ok, ok, ok, ok, ok}},
		{"logout", "POST", fixed("/api/v1/auth/logout"),
			func(w matrixWorld) string { return `{"refresh_token":"` + w.refresh + `"}` },
			want{noContent, noContent, noContent, noContent, noContent, noContent}},
		{"me", "GET", fixed("/api/v1/me"), nil,
			want{unauth, ok, ok, ok, ok, ok}},
		{"change one's e-mail", "PATCH", fixed("/api/v1/me"), nil,
			want{unauth, ok, ok, ok, ok, ok}},
		{"user profile", "GET", func(w matrixWorld) string { return "/api/v1/users/" + w.target }, nil,
			want{ok, ok, ok, ok, ok, ok}},
		{"create club", "POST", fixed("/api/v1/clubs"),
			func(w matrixWorld) string { return fmt.Sprintf(`{"name":"New club %d"}`, w.n) },
			want{unauth, created, created, created, created, created}},
		{"list clubs", "GET", fixed("/api/v1/clubs?q=club&limit=5"), nil,
			want{ok, ok, ok, ok, ok, ok}},
		{"get club", "GET", clubPath(""), nil,
			want{ok, ok, ok, ok, ok, ok}},
		{"edit club", "PATCH", clubPath(""), body(`{"description":"edited"}`),
			want{unauth, forbid, forbid, ok, forbid, ok}},
		{"transfer club", "PATCH", clubPath(""),
			func(w matrixWorld) string { return `{"owner_id":"` + w.target + `"}` },
			want{unauth, forbid, forbid, ok, forbid, ok}},
		{"list members", "GET", clubPath("/members?limit=2"), nil,
			want{ok, ok, ok, ok, ok, ok}},
		{"join with code", "POST", clubPath("/members"),
			func(w matrixWorld) string { return `{"code":"` + w.code + `"}` },
			want{unauth, conflict, conflict, conflict, created, created}},
		{"make invite", "POST", clubPath("/invites"), body(`{"expires_in_hours":24,"max_uses":3}`),
			want{unauth, forbid, created, created, forbid, created}},
		{"leave", "DELETE", clubPath("/members/me"), nil,
			want{unauth, noContent, noContent, refused, gone, gone}},
		{"remove a member", "DELETE", func(w matrixWorld) string { return clubPath("/members/" + w.target)(w) }, nil,
			want{unauth, forbid, noContent, noContent, forbid, noContent}},
		{"remove an organizer", "DELETE", func(w matrixWorld) string { return clubPath("/members/" + w.deputy)(w) }, nil,
			want{unauth, forbid, forbid, noContent, forbid, noContent}},
		{"remove the owner", "DELETE", func(w matrixWorld) string { return clubPath("/members/" + w.owner)(w) }, nil,
			want{unauth, forbid, forbid, refused, forbid, refused}},
		{"make organizer", "PATCH", func(w matrixWorld) string { return clubPath("/members/" + w.target)(w) }, body(`{"role":"organizer"}`),
			want{unauth, forbid, forbid, ok, forbid, ok}},
		{"demote organizer", "PATCH", func(w matrixWorld) string { return clubPath("/members/" + w.deputy)(w) }, body(`{"role":"member"}`),
			want{unauth, forbid, forbid, ok, forbid, ok}},
		{"edit league", "PATCH", func(w matrixWorld) string { return "/api/v1/leagues/" + w.league }, body(`{"name":"Tuesday League","description":"moved"}`),
			want{unauth, forbid, ok, ok, forbid, ok}},
		{"rename season", "PATCH", func(w matrixWorld) string { return "/api/v1/seasons/" + w.season }, body(`{"name":"Spring 2030"}`),
			want{unauth, forbid, ok, ok, forbid, ok}},
	}
	// The bodies that differ by caller: each gives their own password.
	bodyAs := map[string]func(who string) string{
		"change one's e-mail": func(who string) string {
			return fmt.Sprintf(`{"email":"%s@example.org","current_password":"password-%s"}`, names[who], names[who])
		},
	}
	for _, tc := range cases {
		for i, who := range actors {
			t.Run(tc.name+"/"+who, func(t *testing.T) {
				w := newWorld()
				b := ""
				if tc.body != nil {
					b = tc.body(w)
				}
				if as, ok := bodyAs[tc.name]; ok {
					b = as(who)
				}
				rec := r.call(tc.method, tc.path(w), b, tokens[who])
				if rec.Code != tc.want[i] {
					t.Fatalf("%s %s as %s = %d, want %d: %s", tc.method, tc.path(w), who, rec.Code, tc.want[i], rec.Body)
				}
				if rec.Code >= 400 {
					wantProblem(t, rec, tc.want[i], "")
				}
			})
		}
	}
}

func fixed(p string) func(matrixWorld) string { return func(matrixWorld) string { return p } }

func body(b string) func(matrixWorld) string { return func(matrixWorld) string { return b } }

func clubPath(suffix string) func(matrixWorld) string {
	return func(w matrixWorld) string { return "/api/v1/clubs/" + w.club + suffix }
}
