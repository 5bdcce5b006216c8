package server

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/seqleague/seqleague/engine/play"
	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/postgres"
	"github.com/seqleague/seqleague/workers"
)

// The authorization sweep: every route that takes an access token refuses a
// bad one, every change refuses a caller without the right to make it, and
// neither changes anything; and a Stacks game shows nobody a hand but their
// own, anywhere.

// newAuthzRig is the server over every service a caller can change:
// accounts, clubs, games (with the event hub), leagues and tournaments;
// and the ratings, so that every operation of the document has its service.
func newAuthzRig(t *testing.T) (*rig, *postgres.Games) {
	t.Helper()
	r := newRig(t)
	bus := &hubBus{}
	games := postgres.NewGames(r.db, bus, discardTasks{}, postgres.GameConfig{}, quietLogger)
	r.accounts.HandSeatsTo(games)
	r.d.Games = games
	r.d.Hub = NewHub(games, quietLogger)
	bus.hub = r.d.Hub
	t.Cleanup(r.d.Hub.Close)
	r.d.Leagues = postgres.NewLeagues(r.db)
	r.d.Tournaments = postgres.NewTournaments(r.db, games, workers.NewEnqueuer(r.redis()), quietLogger)
	r.d.Ratings = postgres.NewRatings(r.db)
	r.d.Metrics = prometheus.NewRegistry() // the first server registered its metrics on the rig's
	r.e = New(r.d)
	return r, games
}

// fingerprint is a digest of every row of every table: two equal
// fingerprints mean nothing was written in between.
func (r *rig) fingerprint() map[string]string {
	r.t.Helper()
	var tables []string
	if err := r.db.Gorm.Raw(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()
		AND table_type = 'BASE TABLE' AND table_name <> 'goose_db_version' ORDER BY 1`).Scan(&tables).Error; err != nil {
		r.t.Fatal(err)
	}
	out := map[string]string{}
	for _, table := range tables {
		var sum string
		q := fmt.Sprintf(`SELECT count(*)::text || ':' || coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '') FROM %q x`, table)
		if err := r.db.Gorm.Raw(q).Scan(&sum).Error; err != nil {
			r.t.Fatal(err)
		}
		out[table] = sum
	}
	return out
}

// changedTables names the tables whose rows differ between two fingerprints.
func changedTables(before, after map[string]string) []string {
	var out []string
	for table, sum := range after {
		if before[table] != sum {
			out = append(out, table)
		}
	}
	sort.Strings(out)
	return out
}

// created is the ID of what a 201 answered.
func created(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	return decode[struct{ ID string }](t, rec).ID
}

// TestEveryRouteThatTakesATokenRefusesABadOneAndChangesNothing: every
// operation the OpenAPI document says answers 401, reads and changes
// alike, is asked with each kind of bad credential, with a body it would
// otherwise take; each answers 401 with WWW-Authenticate, and no table
// changes. The event stream is asked with the token in the header and in
// ?access_token=.
// apiScene is a club with a league, a season, a tournament with an entry
// and a game under way, all ann's, with a body for every change an
// operation of the API makes that ann may make: the sweeps over every
// operation send these, so that what refuses them is what they test.
type apiScene struct {
	annID, ann      string // the owner of everything, and her token
	tomID           string // a plain member of ann's club
	entryID, gameID string
	ids             map[string]string // the ID for /{collection}/{id}
	bodies          map[string]string // "METHOD /path" -> a body ann may send
	queries         map[string]string // "METHOD /path" -> the query it needs
}

func newAPIScene(t *testing.T, r *rig) *apiScene {
	t.Helper()
	ctx := context.Background()
	annID, ann := r.user("ann", false)
	_, bob := r.user("bob", false)
	tomID, _ := r.user("tom", false)
	club, err := r.clubs.Create(ctx, league.Actor{UserID: annID}, league.NewClub{Name: "Ann's club"})
	if err != nil {
		t.Fatal(err)
	}
	inv, err := r.clubs.CreateInvite(ctx, league.Actor{UserID: annID}, club.ID, league.NewInvite{MaxUses: 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.clubs.Join(ctx, league.Actor{UserID: tomID}, club.ID, inv.Code); err != nil {
		t.Fatal(err)
	}
	leagueID := created(t, r.call("POST", "/api/v1/clubs/"+club.ID+"/leagues", `{"name":"Sunday League"}`, ann))
	seasonID := created(t, r.call("POST", "/api/v1/leagues/"+leagueID+"/seasons", `{"name":"2030"}`, ann))
	tourID := created(t, r.call("POST", "/api/v1/tournaments", fmt.Sprintf(`{"club_id":%q,"season_id":%q,"name":"Cup",
		"game":"sequence","format":"round-robin"}`, club.ID, seasonID), ann))
	entryID := created(t, r.call("POST", "/api/v1/tournaments/"+tourID+"/entries", `{"members":[{"bot":"random"}]}`, ann))
	gameID := created(t, r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`, ann))
	if rec := r.call("POST", "/api/v1/games/"+gameID+"/join", "", bob); rec.Code != http.StatusOK {
		t.Fatalf("join: %d %s", rec.Code, rec.Body)
	}
	view := decode[gameViewResponse](t, r.call("GET", "/api/v1/games/"+gameID, "", ann))
	if len(view.LegalMoves) == 0 {
		t.Fatal("ann has no move to offer")
	}

	s := &apiScene{annID: annID, ann: ann, tomID: tomID, entryID: entryID, gameID: gameID}
	s.ids = map[string]string{"clubs": club.ID, "users": tomID, "games": gameID, "leagues": leagueID, "seasons": seasonID, "tournaments": tourID}
	// A round a year from now: a fixed date would pass, and a round
	// scheduled in the past starts at once.
	nextYear := time.Now().UTC().AddDate(1, 0, 0).Format(time.RFC3339)
	s.bodies = map[string]string{
		"DELETE /api/v1/me":                                       `{"current_password":"password-ann"}`,
		"DELETE /api/v1/users/{id}":                               `{"current_password":"password-tom"}`,
		"POST /api/v1/me/password":                                `{"current_password":"password-ann","new_password":"a brand new password"}`,
		"PATCH /api/v1/me":                                        `{"email":"eve@example.org","current_password":"password-ann"}`,
		"PATCH /api/v1/leagues/{id}":                              `{"name":"Taken over","description":"by a bad token"}`,
		"PATCH /api/v1/seasons/{id}":                              `{"name":"Taken over"}`,
		"POST /api/v1/clubs":                                      `{"name":"Another club"}`,
		"PATCH /api/v1/clubs/{id}":                                fmt.Sprintf(`{"description":"taken over","owner_id":%q}`, tomID),
		"POST /api/v1/clubs/{id}/members":                         fmt.Sprintf(`{"code":%q}`, inv.Code),
		"PATCH /api/v1/clubs/{id}/members/{user_id}":              `{"role":"organizer"}`,
		"POST /api/v1/clubs/{id}/invites":                         `{"max_uses":5}`,
		"POST /api/v1/games":                                      `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`,
		"POST /api/v1/games/quick":                                `{"game":"sequence","players":2}`,
		"POST /api/v1/games/{id}/join":                            `{"seat":1}`,
		"POST /api/v1/games/{id}/leave":                           "",
		"POST /api/v1/games/{id}/resign":                          "",
		"POST /api/v1/games/{id}/start":                           "",
		"PUT /api/v1/games/{id}/seats/{seat}":                     `{"bot":"greedy"}`,
		"POST /api/v1/games/{id}/decline":                         "",
		"POST /api/v1/games/{id}/rematch":                         "",
		"POST /api/v1/seasons/{id}/close":                         "",
		"POST /api/v1/games/{id}/moves":                           fmt.Sprintf(`{"ply":0,"move":%q,"move_id":"m0"}`, view.LegalMoves[0]),
		"POST /api/v1/clubs/{id}/leagues":                         `{"name":"Another league"}`,
		"POST /api/v1/leagues/{id}/seasons":                       `{"name":"2031"}`,
		"POST /api/v1/tournaments":                                fmt.Sprintf(`{"club_id":%q,"name":"Another cup","game":"sequence","format":"round-robin"}`, club.ID),
		"PATCH /api/v1/tournaments/{id}":                          `{"name":"Renamed","status":"running"}`,
		"POST /api/v1/tournaments/{id}/entries":                   `{"members":[{"bot":"greedy"}]}`,
		"POST /api/v1/tournaments/{id}/rounds":                    fmt.Sprintf(`{"rounds":[{"number":1,"starts_at":%q}]}`, nextYear),
		"PATCH /api/v1/tournaments/{id}/rounds/{number}":          fmt.Sprintf(`{"deadline":%q}`, nextYear),
		"POST /api/v1/tournaments/{id}/entries/{entry}/reinstate": "",
	}
	s.queries = map[string]string{"DELETE /api/v1/tournaments/{id}/entries": "?entry=" + entryID, "GET /api/v1/tournaments": "?club=" + club.ID}

	return s
}

// url is the path of an operation of the document for the scene: each
// parameter replaced by the scene's thing of its kind, and the query the
// operation needs.
func (s *apiScene) url(t *testing.T, method, path string) string {
	t.Helper()
	url := strings.NewReplacer("{user_id}", s.tomID, "{pool}", "sequence-2team", "{number}", "1", "{seat}", "1", "{entry}", s.entryID).Replace(path)
	if parts := strings.Split(path, "/"); len(parts) > 4 && parts[4] == "{id}" {
		id, ok := s.ids[parts[3]]
		if !ok {
			t.Fatalf("%s %s: no ID for /%s/{id}", method, path, parts[3])
		}
		url = strings.ReplaceAll(url, "{id}", id)
	}
	return url + s.queries[method+" "+path]
}

func TestEveryAPIOperationRefusesABadTokenAndChangesNothing(t *testing.T) {
	r, _ := newAuthzRig(t)
	ctx := context.Background()
	s := newAPIScene(t, r)
	annID, ann := s.annID, s.ann
	// The credentials. Each names ann (or, forged, the site admin), so a
	// route that took one would act for someone.
	adminID, _ := r.user("root", true)
	now := time.Now()
	key := []byte(testSecret)
	claims := func(sub string, edit func(*jwt.RegisteredClaims)) jwt.RegisteredClaims {
		c := jwt.RegisteredClaims{Issuer: testIssuer, Subject: sub, Audience: jwt.ClaimStrings{tokenAudience},
			IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(time.Minute))}
		if edit != nil {
			edit(&c)
		}
		return c
	}
	_, annRefresh, err := r.accounts.Login(ctx, "ann", "password-ann")
	if err != nil {
		t.Fatal(err)
	}
	closedID, closed := r.user("gone", false)
	if err := r.accounts.Delete(ctx, league.Actor{UserID: closedID}, closedID); err != nil {
		t.Fatal(err)
	}
	daveID, _ := r.user("dave", false)
	daveBefore, err := r.d.Auth.signAccessToken(daveID, "", now.Add(-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.accounts.ChangePassword(ctx, league.Actor{UserID: daveID}, "password-dave", "a new password for dave"); err != nil {
		t.Fatal(err)
	}
	tokens := []struct{ name, token string }{
		{"garbage", "not.a.token"},
		{"alg none as the admin", forge(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claims(adminID, nil))},
		{"HS256 with the wrong key", forge(t, jwt.SigningMethodHS256, []byte("another-secret-another-secret-another"), claims(annID, nil))},
		{"HS512 with the right key", forge(t, jwt.SigningMethodHS512, key, claims(annID, nil))},
		{"expired", forge(t, jwt.SigningMethodHS256, key, claims(annID, func(c *jwt.RegisteredClaims) { c.ExpiresAt = jwt.NewNumericDate(now.Add(-time.Second)) }))},
		{"not yet valid", forge(t, jwt.SigningMethodHS256, key, claims(annID, func(c *jwt.RegisteredClaims) { c.NotBefore = jwt.NewNumericDate(now.Add(time.Hour)) }))},
		{"another issuer", forge(t, jwt.SigningMethodHS256, key, claims(annID, func(c *jwt.RegisteredClaims) { c.Issuer = "https://evil.example" }))},
		{"ann's token naming the admin", tamper(t, ann, adminID)},
		{"a refresh token", annRefresh.Token},
		{"a closed account's", closed},
		{"issued before a password change", daveBefore},
	}

	doc := openAPIDoc(t)
	probed := 0
	for path, ops := range doc["paths"].(map[string]any) {
		for method := range ops.(map[string]any) {
			method = strings.ToUpper(method)
			if method == "PARAMETERS" || !strings.HasPrefix(path, "/api/v1/") || path == "/api/v1/openapi.json" || strings.HasPrefix(path, "/api/v1/auth/") {
				continue
			}
			op := method + " " + path
			if !documented(doc, method, path, http.StatusUnauthorized) {
				t.Errorf("%s does not list the 401 every API operation gives a bad token", op)
				continue
			}
			url := s.url(t, method, path)
			body, ok := s.bodies[op]
			if !ok && method != http.MethodGet && method != http.MethodDelete {
				t.Errorf("%s: no body to send it; add one", op)
			}
			probed++
			before := r.fingerprint()
			for _, tc := range tokens {
				for _, viaQuery := range []bool{false, true} {
					if viaQuery && !strings.HasSuffix(path, "/events") {
						continue
					}
					var rec *httptest.ResponseRecorder
					if viaQuery {
						rec = r.call(method, url+"?access_token="+tc.token, body, "")
					} else {
						rec = r.call(method, url, body, tc.token)
					}
					if rec.Code != http.StatusUnauthorized {
						t.Errorf("%s with %s (query %v) = %d, want 401: %s", op, tc.name, viaQuery, rec.Code, rec.Body)
						continue
					}
					wantProblem(t, rec, http.StatusUnauthorized, "")
					if rec.Header().Get("WWW-Authenticate") == "" {
						t.Errorf("%s with %s: 401 without WWW-Authenticate", op, tc.name)
					}
				}
			}
			if changed := changedTables(before, r.fingerprint()); len(changed) > 0 {
				t.Errorf("%s with bad tokens changed %v", op, changed)
			}
		}
	}
	if probed < 50 {
		t.Fatalf("probed %d operations; the document lists more that answer 401", probed)
	}
	t.Logf("%d operations × %d credentials", probed, len(tokens))
	// The credentials above were refused for themselves: ann's own token
	// does what they could not.
	if rec := r.call("POST", "/api/v1/games/"+s.gameID+"/moves", s.bodies["POST /api/v1/games/{id}/moves"], ann); rec.Code != http.StatusOK {
		t.Errorf("ann's own move: %d %s", rec.Code, rec.Body)
	}
}

// tamper rewrites a real token's payload to name another subject, keeping
// its signature.
func tamper(t *testing.T, token, subject string) string {
	t.Helper()
	parts := strings.Split(token, ".")
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(token, claims); err != nil {
		t.Fatal(err)
	}
	claims["sub"] = subject
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	return parts[0] + "." + base64.RawURLEncoding.EncodeToString(payload) + "." + parts[2]
}

// TestCallersWithoutTheRightAreRefusedAndChangeNothing: the competition,
// game and account changes, each asked first by every kind of caller who
// may not make it (no token, a stranger who runs a club of their own, a
// plain member, a member of someone else's team, a player of another game,
// the opponent out of turn, a site admin where even they may not), each
// refusal leaving every table as it was, and then by the caller who may,
// who succeeds: so each refusal was for the caller, not for the request.
func TestCallersWithoutTheRightAreRefusedAndChangeNothing(t *testing.T) {
	r, _ := newAuthzRig(t)
	ctx := context.Background()
	ids, tokens := map[string]string{}, map[string]string{"anonymous": ""}
	for who, name := range map[string]string{"owner": "ann", "organizer": "olga", "member": "mia", "another member": "tina",
		"stranger": "sam", "other game's player": "pat", "opponent": "bob", "bystander": "uma", "fourth": "zoe"} {
		ids[who], tokens[who] = r.user(name, false)
	}
	ids["admin"], tokens["admin"] = r.user("root", true)
	actor := func(who string) league.Actor { return league.Actor{UserID: ids[who]} }
	club, err := r.clubs.Create(ctx, actor("owner"), league.NewClub{Name: "Ann's club"})
	if err != nil {
		t.Fatal(err)
	}
	inv, err := r.clubs.CreateInvite(ctx, actor("owner"), club.ID, league.NewInvite{MaxUses: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"organizer", "member", "another member"} {
		if _, err := r.clubs.Join(ctx, actor(who), club.ID, inv.Code); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.clubs.SetMemberRole(ctx, actor("owner"), club.ID, ids["organizer"], league.RoleOrganizer); err != nil {
		t.Fatal(err)
	}
	org := tokens["organizer"]
	leagueID := created(t, r.call("POST", "/api/v1/clubs/"+club.ID+"/leagues", `{"name":"Sunday League"}`, org))
	seasonID := created(t, r.call("POST", "/api/v1/leagues/"+leagueID+"/seasons", `{"name":"2030"}`, org))
	emptySeasonID := created(t, r.call("POST", "/api/v1/leagues/"+leagueID+"/seasons", `{"name":"2029"}`, org))
	tourID := created(t, r.call("POST", "/api/v1/tournaments", fmt.Sprintf(`{"club_id":%q,"season_id":%q,"name":"Cup",
		"game":"sequence","format":"round-robin"}`, club.ID, seasonID), org))
	tinaEntry := created(t, r.call("POST", "/api/v1/tournaments/"+tourID+"/entries", "", tokens["another member"]))
	// The stranger runs a club of their own, with a season.
	samClub := created(t, r.call("POST", "/api/v1/clubs", `{"name":"Sam's club"}`, tokens["stranger"]))
	samLeague := created(t, r.call("POST", "/api/v1/clubs/"+samClub+"/leagues", `{"name":"Sam's league"}`, tokens["stranger"]))
	created(t, r.call("POST", "/api/v1/leagues/"+samLeague+"/seasons", `{"name":"2030"}`, tokens["stranger"]))

	// Games: ann against bob, under way; pat against zoe, under way; and
	// ann's game with a bot, every seat taken, waiting for its time.
	game := func(creator, joiner string) string {
		id := created(t, r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`, tokens[creator]))
		if rec := r.call("POST", "/api/v1/games/"+id+"/join", "", tokens[joiner]); rec.Code != http.StatusOK {
			t.Fatalf("join: %d %s", rec.Code, rec.Body)
		}
		return id
	}
	annGame, patGame := game("owner", "opponent"), game("other game's player", "fourth")
	waiting := created(t, r.call("POST", "/api/v1/games", fmt.Sprintf(`{"game":"sequence","players":2,
		"seats":[{"user":"me"},{"bot":"random"}],"scheduled_start":%q}`, time.Now().Add(time.Hour).UTC().Format(time.RFC3339)), tokens["owner"]))
	// owner's table for 2, its open seat kept for the member (mia)
	keptForMia := created(t, r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true,"for":"mia"}]}`, tokens["owner"]))
	move := func(gameID, player string) func() string {
		return func() string {
			v := decode[gameViewResponse](t, r.call("GET", "/api/v1/games/"+gameID, "", tokens[player]))
			if len(v.LegalMoves) == 0 {
				t.Fatalf("%s has no move in %s", player, gameID)
			}
			return fmt.Sprintf(`{"ply":%d,"move":%q,"move_id":"m%d"}`, v.Ply, v.LegalMoves[0], v.Ply)
		}
	}
	tournament := fmt.Sprintf(`{"club_id":%q,"name":"Another cup","game":"sequence","format":"round-robin"}`, club.ID)
	// A round a year from now, so that it is still to come when the
	// tournament starts: a fixed date would pass.
	nextYear := time.Now().UTC().AddDate(1, 0, 0).Format(time.RFC3339)

	const (
		unauth, forbid = http.StatusUnauthorized, http.StatusForbidden
		refused, bad   = http.StatusUnprocessableEntity, http.StatusBadRequest
	)
	type refusal map[string]int
	cases := []struct {
		name, method, path string
		body               func() string
		refused            refusal
		by                 string // who may, and then does (none: nobody may)
		want               int
	}{
		{"create a league", "POST", "/api/v1/clubs/" + club.ID + "/leagues", fixedBody(`{"name":"Evening League"}`),
			refusal{"anonymous": unauth, "stranger": forbid, "member": forbid}, "organizer", http.StatusCreated},
		{"open a season", "POST", "/api/v1/leagues/" + leagueID + "/seasons", fixedBody(`{"name":"2031"}`),
			refusal{"anonymous": unauth, "stranger": forbid, "member": forbid}, "organizer", http.StatusCreated},
		{"edit a league", "PATCH", "/api/v1/leagues/" + leagueID, fixedBody(`{"name":"Sunday Evening League","description":"at six"}`),
			refusal{"anonymous": unauth, "stranger": forbid, "member": forbid}, "organizer", http.StatusOK},
		{"rename a season", "PATCH", "/api/v1/seasons/" + seasonID, fixedBody(`{"name":"Spring 2030"}`),
			refusal{"anonymous": unauth, "stranger": forbid, "member": forbid}, "organizer", http.StatusOK},
		{"change one's e-mail", "PATCH", "/api/v1/me", fixedBody(`{"email":"mia@example.org","current_password":"password-mia"}`),
			refusal{"anonymous": unauth, "owner": bad, "stranger": bad}, "member", http.StatusOK},
		{"close a season", "POST", "/api/v1/seasons/" + emptySeasonID + "/close", fixedBody(""),
			refusal{"anonymous": unauth, "stranger": forbid, "member": forbid}, "organizer", http.StatusOK},
		{"rename a closed season", "PATCH", "/api/v1/seasons/" + emptySeasonID, fixedBody(`{"name":"2029 (closed)"}`),
			refusal{"anonymous": unauth, "member": forbid, "organizer": refused, "owner": refused, "admin": refused}, "", 0},
		{"create a tournament", "POST", "/api/v1/tournaments", fixedBody(tournament),
			refusal{"anonymous": unauth, "stranger": forbid, "member": forbid}, "organizer", http.StatusCreated},
		{"hang one's tournament on another club's season", "POST", "/api/v1/tournaments",
			fixedBody(fmt.Sprintf(`{"club_id":%q,"season_id":%q,"name":"Sneaky","game":"sequence","format":"round-robin"}`, samClub, seasonID)),
			refusal{"stranger": bad}, "", 0},
		{"rename a tournament", "PATCH", "/api/v1/tournaments/" + tourID, fixedBody(`{"name":"Spring Cup"}`),
			refusal{"anonymous": unauth, "stranger": forbid, "member": forbid}, "organizer", http.StatusOK},
		{"enter a bot", "POST", "/api/v1/tournaments/" + tourID + "/entries", fixedBody(`{"members":[{"bot":"random"}]}`),
			refusal{"anonymous": unauth, "stranger": forbid, "member": forbid}, "organizer", http.StatusCreated},
		{"enter another member alone", "POST", "/api/v1/tournaments/" + tourID + "/entries",
			fixedBody(fmt.Sprintf(`{"members":[{"user":%q}]}`, ids["member"])),
			refusal{"another member": forbid, "stranger": forbid}, "", 0},
		{"seed one's own entry", "POST", "/api/v1/tournaments/" + tourID + "/entries", fixedBody(`{"seed":1}`),
			refusal{"member": forbid}, "", 0},
		{"enter oneself", "POST", "/api/v1/tournaments/" + tourID + "/entries", fixedBody(""),
			refusal{"anonymous": unauth, "stranger": forbid, "other game's player": forbid}, "member", http.StatusCreated},
		{"withdraw another's entry", "DELETE", "/api/v1/tournaments/" + tourID + "/entries?entry=" + tinaEntry, fixedBody(""),
			refusal{"anonymous": unauth, "stranger": forbid, "member": forbid}, "another member", http.StatusNoContent},
		{"schedule rounds", "POST", "/api/v1/tournaments/" + tourID + "/rounds", fixedBody(fmt.Sprintf(`{"rounds":[{"number":1,"starts_at":%q}]}`, nextYear)),
			refusal{"anonymous": unauth, "stranger": forbid, "member": forbid}, "organizer", http.StatusOK},
		{"start a tournament", "PATCH", "/api/v1/tournaments/" + tourID, fixedBody(`{"status":"running"}`),
			refusal{"anonymous": unauth, "stranger": forbid, "member": forbid}, "organizer", http.StatusOK},
		{"pause a tournament", "PATCH", "/api/v1/tournaments/" + tourID, fixedBody(`{"status":"paused"}`),
			refusal{"stranger": forbid, "member": forbid}, "organizer", http.StatusOK},
		{"read someone's invitations", "GET", "/api/v1/users/" + ids["member"] + "/games?invited=true", fixedBody(""),
			refusal{"anonymous": unauth, "stranger": forbid, "owner": forbid, "admin": forbid}, "member", http.StatusOK},
		{"take a seat kept for someone else", "POST", "/api/v1/games/" + keptForMia + "/join", fixedBody(`{"seat":1}`),
			refusal{"anonymous": unauth, "stranger": http.StatusConflict, "admin": http.StatusConflict}, "member", http.StatusOK},
		{"start someone's game", "POST", "/api/v1/games/" + waiting + "/start", fixedBody(""),
			refusal{"anonymous": unauth, "stranger": forbid, "other game's player": forbid, "opponent": forbid}, "owner", http.StatusOK},
		{"move in someone's game", "POST", "/api/v1/games/" + annGame + "/moves", move(annGame, "owner"),
			refusal{"anonymous": unauth, "stranger": forbid, "other game's player": forbid, "admin": forbid, "opponent": refused}, "owner", http.StatusOK},
		{"move in another game", "POST", "/api/v1/games/" + patGame + "/moves", move(patGame, "other game's player"),
			refusal{"owner": forbid, "opponent": forbid}, "other game's player", http.StatusOK},
		{"read the archive of a game under way", "GET", "/api/v1/games/" + annGame + "/archive", fixedBody(""),
			refusal{"anonymous": refused, "stranger": refused, "owner": refused, "admin": refused}, "", 0},
		{"close someone's account", "DELETE", "/api/v1/users/" + ids["bystander"], fixedBody(`{"current_password":"password-root"}`),
			refusal{"anonymous": unauth, "stranger": forbid, "owner": forbid, "organizer": forbid}, "admin", http.StatusNoContent},
	}
	n := 0
	for _, tc := range cases {
		callers := make([]string, 0, len(tc.refused))
		for who := range tc.refused {
			callers = append(callers, who)
		}
		sort.Strings(callers)
		for _, who := range callers {
			before := r.fingerprint()
			rec := r.call(tc.method, tc.path, tc.body(), tokens[who])
			n++
			if rec.Code != tc.refused[who] {
				t.Errorf("%s as %s: %d, want %d: %s", tc.name, who, rec.Code, tc.refused[who], rec.Body)
			} else {
				wantProblem(t, rec, tc.refused[who], "")
			}
			if changed := changedTables(before, r.fingerprint()); len(changed) > 0 {
				t.Errorf("%s as %s (refused %d) changed %v", tc.name, who, rec.Code, changed)
			}
		}
		if tc.by != "" {
			if rec := r.call(tc.method, tc.path, tc.body(), tokens[tc.by]); rec.Code != tc.want {
				t.Errorf("%s as %s: %d, want %d: %s", tc.name, tc.by, rec.Code, tc.want, rec.Body)
			}
		}
	}
	t.Logf("%d refusals", n)
}

func fixedBody(b string) func() string { return func() string { return b } }

// sseLog collects one stream's events in the background.
type sseLog struct {
	viewer string
	mu     sync.Mutex
	events []sseEvent
}

type sseEvent struct {
	id         int
	name, data string
}

func (l *sseLog) snapshot() []sseEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.events)
}

// collectEvents opens a game's event stream for viewer (resuming after
// lastID unless it is empty) and records its events until the test ends.
func collectEvents(t *testing.T, srv *httptest.Server, gameID, viewer, token, lastID string) *sseLog {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/v1/games/"+gameID+"/events", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s's stream: %d", viewer, res.StatusCode)
	}
	l := &sseLog{viewer: viewer}
	go func() {
		defer res.Body.Close()
		in := bufio.NewReader(res.Body)
		ev := sseEvent{id: -1}
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSuffix(line, "\n")
			switch {
			case strings.HasPrefix(line, "id: "):
				fmt.Sscan(line[4:], &ev.id)
			case strings.HasPrefix(line, "event: "):
				ev.name = line[7:]
			case strings.HasPrefix(line, "data: "):
				ev.data = line[6:]
			case line == "" && ev.name != "":
				l.mu.Lock()
				l.events = append(l.events, ev)
				l.mu.Unlock()
				ev = sseEvent{id: -1}
			}
		}
	}()
	return l
}

// stacksCard is a Stacks card at the start of a notation: a move names the
// card it plays (R3>0, /B2, STEAL_CARD@2:hand) after an optional / or ^.
var stacksCard = regexp.MustCompile(`^[/^]?(R[1-5W]|B[1-5W]|SKIP|REVERSE|STEAL_CARD|BLOCK|STEAL_CHIP)`)

// listedMove is the path of a move's notation in GET /games/{id}/moves.
var listedMove = regexp.MustCompile(`^\.moves\[\d+\]\.move$`)

// stacksTruth replays a Stacks game from its stored set-up, seed and moves
// and returns every seat's hand after each ply.
func stacksTruth(t *testing.T, r *rig, gameID string) [][][]string {
	t.Helper()
	var row struct {
		Seed    []byte
		Players int
	}
	if err := r.db.Gorm.Raw("SELECT seed, players FROM games WHERE id = ?", gameID).Scan(&row).Error; err != nil {
		t.Fatal(err)
	}
	var seed rng.Seed
	copy(seed[:], row.Seed)
	g, err := play.New(play.Setup{Game: "stacks", Players: row.Players, Teams: row.Players}, seed)
	if err != nil {
		t.Fatal(err)
	}
	var moves []struct {
		Seat int
		Move string
	}
	if err := r.db.Gorm.Raw("SELECT seat, move FROM game_moves WHERE game_id = ? ORDER BY ply", gameID).Scan(&moves).Error; err != nil {
		t.Fatal(err)
	}
	hands := func(g play.Game) [][]string {
		var v struct {
			Position struct {
				Hands [][]string `json:"hands"`
			} `json:"position"`
		}
		doc, err := g.VectorJSON("truth")
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(doc, &v); err != nil {
			t.Fatal(err)
		}
		return v.Position.Hands
	}
	out := [][][]string{hands(g)}
	for i, m := range moves {
		if g, err = g.Apply(m.Seat, m.Move); err != nil {
			t.Fatalf("ply %d does not replay: %v", i, err)
		}
		out = append(out, hands(g))
	}
	return out
}

// TestNobodySeesAnotherStacksHand plays a three-player Stacks game of
// people (hands stolen from whenever a STEAL_CARD allows, block windows
// closed by the server) and scans everything its players, a signed-in
// stranger and an anonymous spectator were sent against the true hands at
// that ply: the views, every move's answer and its repeat by move_id, the
// moves list, the refusals of illegal moves and of the archive, and every
// event of live streams and of streams resumed with Last-Event-ID. The
// only hand anywhere is the viewer's own, whole and exact; no deck, no
// other hand, no seed; a card appears only in a public pile, a played
// move, or a legal move of a card the viewer holds.
func TestNobodySeesAnotherStacksHand(t *testing.T) {
	r, games := newAuthzRig(t)
	ctx := context.Background()
	tokens := map[string]string{"spectator": ""}
	players := []string{"ann", "bob", "cat"}
	for _, name := range players {
		_, tokens[name] = r.user(name, false)
	}
	_, tokens["stranger"] = r.user("sam", false)
	seatOf := map[string]int{"ann": 0, "bob": 1, "cat": 2, "stranger": -1, "spectator": -1}
	id := created(t, r.call("POST", "/api/v1/games", `{"game":"stacks","players":3,"seats":[{"user":"me"},{"open":true},{"open":true}]}`, tokens["ann"]))
	for _, p := range players[1:] {
		if rec := r.call("POST", "/api/v1/games/"+id+"/join", "", tokens[p]); rec.Code != http.StatusOK {
			t.Fatalf("join: %d %s", rec.Code, rec.Body)
		}
	}
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close)
	viewers := []string{"ann", "bob", "cat", "stranger", "spectator"}
	var streams []*sseLog
	for _, v := range viewers {
		streams = append(streams, collectEvents(t, srv, id, v, tokens[v], ""))
	}

	type seen struct {
		viewer, what string
		ply          int
		body         []byte
	}
	var got []seen
	record := func(viewer, what string, ply int, rec *httptest.ResponseRecorder) {
		got = append(got, seen{viewer, what, ply, rec.Body.Bytes()})
	}
	rnd := rand.New(rand.NewSource(1))
	steals, windows, blocks := 0, 0, 0
	ply := 0
	for {
		views := map[string]gameViewResponse{}
		for _, v := range viewers {
			rec := r.call("GET", "/api/v1/games/"+id, "", tokens[v])
			if rec.Code != http.StatusOK {
				t.Fatalf("view: %d %s", rec.Code, rec.Body)
			}
			views[v] = decode[gameViewResponse](t, rec)
			record(v, "GET view", views[v].Ply, rec)
		}
		ply = views["ann"].Ply
		if views["ann"].Status != league.StatusActive || ply >= 150 {
			break
		}
		if ply%10 == 0 {
			for _, v := range viewers {
				rec := r.call("GET", "/api/v1/games/"+id+"/moves", "", tokens[v])
				record(v, "GET moves", -1, rec)
				rec = r.call("GET", "/api/v1/games/"+id+"/archive", "", tokens[v])
				if rec.Code != http.StatusUnprocessableEntity {
					t.Fatalf("archive of a game under way to %s: %d %s", v, rec.Code, rec.Body)
				}
				record(v, "GET archive", -1, rec)
			}
		}
		if ply%25 == 7 {
			for _, v := range viewers {
				streams = append(streams, collectEvents(t, srv, id, v, tokens[v], fmt.Sprint(ply-6)))
			}
		}
		mover := ""
		for _, p := range players {
			if len(views[p].LegalMoves) > 0 && (mover == "" || rnd.Intn(2) == 0) {
				mover = p
			}
		}
		if mover == "" {
			// A block window nobody can answer: the server closes it when
			// its time is up.
			windows++
			if err := r.db.Gorm.Exec(`UPDATE games SET turn_deadline = now() - interval '1 second' WHERE id = ?`, id).Error; err != nil {
				t.Fatal(err)
			}
			if err := games.TimeOut(ctx, id, ply); err != nil {
				t.Fatal(err)
			}
			if v := decode[gameViewResponse](t, r.call("GET", "/api/v1/games/"+id, "", "")); v.Ply != ply+1 {
				t.Fatalf("nobody may move at ply %d, and the server's timeout did not move the game on (ply %d)", ply, v.Ply)
			}
			continue
		}
		legal := views[mover].LegalMoves
		m := legal[rnd.Intn(len(legal))]
		for _, l := range legal {
			if strings.HasPrefix(l, "STEAL_CARD") && strings.HasSuffix(l, ":hand") {
				m = l
			}
		}
		steals += boolInt(strings.HasPrefix(m, "STEAL_CARD") && strings.HasSuffix(m, ":hand"))
		blocks += boolInt(m == "BLOCK")
		// A card the mover does not hold: the refusal speaks of the mover's
		// hand alone.
		for _, try := range []string{"R3>new", "STEAL_CARD@1:hand", "/SKIP", "BLOCK"} {
			if !slices.Contains(legal, try) {
				rec := r.call("POST", "/api/v1/games/"+id+"/moves", fmt.Sprintf(`{"ply":%d,"move":%q,"move_id":"bad-%d"}`, ply, try, ply), tokens[mover])
				record(mover, "illegal "+try, -1, rec)
			}
		}
		body := fmt.Sprintf(`{"ply":%d,"move":%q,"move_id":"m-%d"}`, ply, m, ply)
		rec := r.call("POST", "/api/v1/games/"+id+"/moves", body, tokens[mover])
		if rec.Code != http.StatusOK {
			t.Fatalf("%s plays %s at ply %d: %d %s", mover, m, ply, rec.Code, rec.Body)
		}
		record(mover, "POST move", ply+1, rec)
		rec = r.call("POST", "/api/v1/games/"+id+"/moves", body, tokens[mover])
		record(mover, "POST move again", ply+1, rec)
	}
	if steals == 0 {
		t.Fatal("no card was stolen from a hand: the game tested less than it should")
	}
	// Every live stream has the last move before the scan (and, when the
	// game ended before ply 150, the end event after it, which has no id).
	for deadline := time.Now().Add(5 * time.Second); ; {
		done := true
		for _, s := range streams[:len(viewers)] {
			evs := s.snapshot()
			for len(evs) > 0 && evs[len(evs)-1].name == "end" {
				evs = evs[:len(evs)-1]
			}
			done = done && len(evs) > 0 && evs[len(evs)-1].id == ply
		}
		if done {
			break
		}
		if time.Now().After(deadline) {
			for _, s := range streams[:len(viewers)] {
				evs := s.snapshot()
				t.Logf("%s: %d events, last %+v", s.viewer, len(evs), evs[max(len(evs)-3, 0):])
			}
			t.Fatalf("the streams did not reach ply %d", ply)
		}
		time.Sleep(20 * time.Millisecond)
	}
	truth := stacksTruth(t, r, id)
	if len(truth)-1 != ply {
		t.Fatalf("the replay has %d plies, the game %d", len(truth)-1, ply)
	}
	events, hands := 0, 0
	scan := func(viewer, what string, ply int, body []byte) {
		t.Helper()
		var doc any
		if err := json.Unmarshal(body, &doc); err != nil {
			t.Fatalf("%s to %s is not JSON: %v: %s", what, viewer, err, body)
		}
		finished := false
		if m, ok := doc.(map[string]any); ok {
			v := m
			if inner, ok := m["view"].(map[string]any); ok {
				v = inner
			}
			if p, ok := v["ply"].(float64); ok && ply < 0 && v["state"] != nil {
				ply = int(p)
			}
			finished = v["status"] == league.StatusFinished
		}
		seat := seatOf[viewer]
		var own []string
		if seat >= 0 && ply >= 0 {
			own = slices.Clone(truth[ply][seat])
		}
		var walk func(path string, x any)
		walk = func(path string, x any) {
			switch x := x.(type) {
			case map[string]any:
				for k, child := range x {
					if k == "hands" || k == "deck" || (k == "seed" && !finished) {
						t.Errorf("%s to %s at ply %d carries %q at %s", what, viewer, ply, k, path)
					}
					walk(path+"."+k, child)
				}
			case []any:
				if strings.HasSuffix(path, ".state.hand") {
					hand := make([]string, len(x))
					for i, c := range x {
						hand[i], _ = c.(string)
					}
					slices.Sort(hand)
					slices.Sort(own)
					if !slices.Equal(hand, own) || ply < 0 {
						t.Errorf("%s to %s at ply %d shows the hand %v; the viewer holds %v", what, viewer, ply, hand, own)
					}
					hands++
					return
				}
				for i, child := range x {
					walk(fmt.Sprintf("%s[%d]", path, i), child)
				}
			case string:
				card := stacksCard.FindStringSubmatch(x)
				switch {
				case card == nil:
				case strings.Contains(path, ".state.discards"), strings.Contains(path, ".state.piles"),
					strings.Contains(path, ".state.setaside"), strings.HasSuffix(path, ".move.move"),
					listedMove.MatchString(path), path == ".request_id":
				case strings.Contains(path, ".legal_moves"):
					if !strings.HasPrefix(x, "^") && !slices.Contains(own, card[1]) {
						t.Errorf("%s to %s at ply %d offers %s, a card the viewer does not hold", what, viewer, ply, x)
					}
				default:
					t.Errorf("%s to %s at ply %d: card-like text %q at %s", what, viewer, ply, x, path)
				}
			}
		}
		walk("", doc)
	}
	for _, s := range got {
		scan(s.viewer, s.what, s.ply, s.body)
	}
	for _, s := range streams {
		for _, ev := range s.snapshot() {
			events++
			scan(s.viewer, "event "+ev.name, -1, []byte(ev.data))
		}
	}
	if hands == 0 || events == 0 || windows == 0 {
		t.Fatalf("scanned %d hands and %d events over %d windows: the scan checked too little", hands, events, windows)
	}
	t.Logf("%d plies, %d steals from a hand, %d block windows closed by the server, %d blocks; %d answers and %d events scanned, %d hands checked",
		ply, steals, windows, blocks, len(got), events, hands)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
