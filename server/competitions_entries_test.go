package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestACaptainCannotPutANonMemberIntoAnEntry(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, `"format":"round-robin","team_size":2`)
	eveID, eve := r.user("eve", false)
	hankID, _ := r.user("hank", false)
	if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')", r.clubID, eveID).Error; err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf(`{"name":"EH","members":[{"user":%q},{"user":%q}]}`, eveID, hankID)
	wantProblem(t, r.call("POST", "/api/v1/tournaments/"+id+"/entries", body, eve), 400, "members[1].user")
	if n := r.count("entries"); n != 0 {
		t.Errorf("entries after a refused registration: %d", n)
	}
}

// The registration window, sent with offsets, is answered in UTC. (Its
// years follow today's: the window must close in the future, within five
// years.)
func TestATournamentsTimesAreAnsweredInUTC(t *testing.T) {
	r := newCompetitionRig(t)
	y := time.Now().UTC().Year() + 2
	rec := r.call("POST", "/api/v1/tournaments", r.tournamentBody(fmt.Sprintf(
		`"registration_opens":"%d-01-01T10:00:00+05:00","registration_closes":"%d-01-01T10:00:00-03:00"`, y, y+1)), r.organizer)
	if rec.Code != 201 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	got := decode[struct {
		Opens  string `json:"registration_opens"`
		Closes string `json:"registration_closes"`
	}](t, rec)
	wantOpens, wantCloses := fmt.Sprintf("%d-01-01T05:00:00Z", y), fmt.Sprintf("%d-01-01T13:00:00Z", y+1)
	if got.Opens != wantOpens || got.Closes != wantCloses {
		t.Errorf("registration window = %q to %q, want %s to %s", got.Opens, got.Closes, wantOpens, wantCloses)
	}
}

// A registration window stored with an offset (as it was taken before
// requests were bound in UTC) is answered in UTC too.
func TestAStoredRegistrationWindowIsAnsweredInUTC(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, `"registration_opens":"2029-01-01T05:00:00Z"`)
	if err := r.db.Gorm.Exec(`UPDATE tournaments SET config = jsonb_set(config, '{RegistrationOpens}', '"2029-01-01T10:00:00+05:00"') WHERE id = ?`, id).Error; err != nil {
		t.Fatal(err)
	}
	rec := r.call("GET", "/api/v1/tournaments/"+id, "", "")
	if got := decode[struct {
		Opens string `json:"registration_opens"`
	}](t, rec).Opens; got != "2029-01-01T05:00:00Z" {
		t.Errorf("registration_opens = %q, want 2029-01-01T05:00:00Z", got)
	}
}

// Entering oneself twice is the conflict of a player already entered, not
// a refusal of the entry's name, which the client did not send: the name
// defaults to the player's own and so was taken by the first entry.
func TestEnteringOneselfTwiceIsAConflict(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, `"format":"round-robin"`)
	if rec := r.call("POST", "/api/v1/tournaments/"+id+"/entries", "", r.organizer); rec.Code != 201 {
		t.Fatalf("first entry: %d %s", rec.Code, rec.Body)
	}
	p := wantProblem(t, r.call("POST", "/api/v1/tournaments/"+id+"/entries", "", r.organizer), 409, "")
	if len(p.Errors) != 0 {
		t.Errorf("errors = %+v, want none (no field of the request is at fault)", p.Errors)
	}
	// named, the member is the field at fault
	wantProblem(t, r.call("POST", "/api/v1/tournaments/"+id+"/entries", `{"members":[{"user":"me"}]}`, r.organizer), 409, "members[0].user")
	if n := r.count("entries"); n != 1 {
		t.Errorf("entries = %d, want 1", n)
	}
}

// An entry name taken is a 409 naming name, as a club's, a league's or a
// username taken is (it was a 400), in any case and composed or not.
func TestAnEntryNameTakenIsAConflictNamingName(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, `"format":"round-robin"`)
	if rec := r.call("POST", "/api/v1/tournaments/"+id+"/entries", `{"name":"Caf\u00e9 Bots","members":[{"bot":"random"}]}`, r.organizer); rec.Code != 201 {
		t.Fatalf("first entry: %d %s", rec.Code, rec.Body)
	}
	for _, name := range []string{`Caf\u00e9 Bots`, `CAF\u00c9 BOTS`, `Cafe\u0301 Bots`} {
		body := `{"name":"` + name + `","members":[{"bot":"greedy"}]}`
		wantProblem(t, r.call("POST", "/api/v1/tournaments/"+id+"/entries", body, r.organizer), 409, "name")
	}
	if n := r.count("entries"); n != 1 {
		t.Errorf("entries = %d, want 1", n)
	}
}

// A member is named by user (or bot); the username an entry's answer shows
// is not a field of the request, and is refused by its name rather than
// ignored (the request shared the answer's type, so {"username":"eve"} was
// taken, dropped, and refused as naming neither user nor bot).
func TestAnEntryMemberGivenByUsernameIsRefusedNamingUsername(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, `"format":"round-robin"`)
	eveID, eve := r.user("eve", false)
	if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')", r.clubID, eveID).Error; err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{`{"members":[{"username":"eve"}]}`, fmt.Sprintf(`{"members":[{"user":%q,"username":"someone else"}]}`, eveID)} {
		wantProblem(t, r.call("POST", "/api/v1/tournaments/"+id+"/entries", body, eve), 400, "members[0].username")
	}
	if n := r.count("entries"); n != 0 {
		t.Errorf("entries after a refused registration: %d", n)
	}
}

// A teammate who already plays in the tournament (in another entry) was
// refused as "a player of this entry already plays in the tournament",
// naming no member: a captain could not tell which. The 409 now names the
// member (members[i].user), who it is and the entry they play in; a
// player named twice in one entry is a 400 naming the second.
func TestATeammateAlreadyEnteredIsRefusedByName(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, `"format":"round-robin","team_size":2`)
	ids := map[string]string{}
	tokens := map[string]string{}
	for _, name := range []string{"alice", "bob", "carol", "dave"} {
		ids[name], tokens[name] = r.user(name, false)
		if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')", r.clubID, ids[name]).Error; err != nil {
			t.Fatal(err)
		}
	}
	entries := "/api/v1/tournaments/" + id + "/entries"
	if rec := r.call("POST", entries, fmt.Sprintf(`{"name":"Aces","members":[{"user":"me"},{"user":%q}]}`, ids["bob"]), tokens["alice"]); rec.Code != 201 {
		t.Fatalf("first entry: %d %s", rec.Code, rec.Body)
	}
	p := wantProblem(t, r.call("POST", entries, fmt.Sprintf(`{"name":"Cats","members":[{"user":"me"},{"user":%q}]}`, ids["bob"]), tokens["carol"]), 409, "members[1].user")
	if len(p.Errors) != 1 || p.Errors[0].Message != "bob already plays in the tournament, in Aces" {
		t.Errorf("errors = %+v, want members[1].user alone, saying bob plays in Aces", p.Errors)
	}
	p = wantProblem(t, r.call("POST", entries, fmt.Sprintf(`{"name":"Cats","members":[{"user":"me"},{"user":%q}]}`, ids["carol"]), tokens["carol"]), 400, "members[1].user")
	if len(p.Errors) != 1 {
		t.Errorf("errors = %+v, want members[1].user alone", p.Errors)
	}
	if rec := r.call("POST", entries, fmt.Sprintf(`{"name":"Cats","members":[{"user":"me"},{"user":%q}]}`, ids["dave"]), tokens["carol"]); rec.Code != 201 {
		t.Fatalf("carol and dave: %d %s", rec.Code, rec.Body)
	}
	if n := r.count("entries"); n != 2 {
		t.Errorf("entries = %d, want 2", n)
	}
}

// An organizer puts a withdrawn entry back in through the API; a player,
// an entry that has not withdrawn and an unknown entry are refused, each
// with a problem naming what is at fault.
func TestAnOrganizerReinstatesAWithdrawnEntry(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, `"format":"swiss"`)
	entries := r.botEntries(t, id, "stays", "leaves", "third")
	const op = "/api/v1/tournaments/{id}/entries/{entry}/reinstate"
	path := func(entry string) string { return "/api/v1/tournaments/" + id + "/entries/" + entry + "/reinstate" }
	// before the start a withdrawal deletes the entry: nothing to reinstate
	rec := r.call("POST", path(entries["stays"]), "", r.organizer)
	wantDocumented(t, rec, "POST", op, 422)
	if rec := r.call("PATCH", "/api/v1/tournaments/"+id, `{"status":"running"}`, r.organizer); rec.Code != 200 {
		t.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	if rec := r.call("DELETE", "/api/v1/tournaments/"+id+"/entries?entry="+entries["leaves"], "", r.organizer); rec.Code != 204 {
		t.Fatalf("withdraw: %d %s", rec.Code, rec.Body)
	}
	_, stranger := r.user("stranger", false)
	for _, c := range []struct {
		entry, token string
		status       int
		field        string
	}{
		{entries["leaves"], "", 401, ""},
		{entries["leaves"], stranger, 403, ""},
		{entries["stays"], r.organizer, 409, "entry"},
		{"00000000-0000-0000-0000-000000000000", r.organizer, 404, "entry"},
		{"not-an-id", r.organizer, 404, "entry"},
	} {
		rec := r.call("POST", path(c.entry), "", c.token)
		wantDocumented(t, rec, "POST", op, c.status)
		wantProblem(t, rec, c.status, c.field)
	}
	rec = r.call("POST", path(entries["leaves"]), "", r.organizer)
	wantDocumented(t, rec, "POST", op, 200)
	if got := decode[struct {
		Name, Status string
	}](t, rec); got.Name != "leaves" || got.Status != "active" {
		t.Fatalf("reinstated: %+v; want leaves, active", got)
	}
	for _, row := range r.standingsCSV(t, id) {
		if row["withdrawn"] != "false" {
			t.Errorf("after the reinstatement, row %v still says withdrawn", row)
		}
	}
}

// A member's open tournaments are their clubs' tournaments taking entries
// (now, or from a later opening) that they have not entered: not another
// club's, not one whose window has closed, not one under way, and one
// leaves the list when they enter it.
func TestOpenTournamentsAreTheMembersClubsNotEnteredAndTakingEntries(t *testing.T) {
	r := newCompetitionRig(t)
	eveID, eve := r.user("eve", false)
	if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')", r.clubID, eveID).Error; err != nil {
		t.Fatal(err)
	}
	y := time.Now().UTC().Year() + 1
	open := r.tournament(t, `"name":"Open now"`)
	later := r.tournament(t, fmt.Sprintf(`"name":"Opens later","registration_opens":"%d-03-01T10:00:00Z"`, y))
	closed := r.tournament(t, `"name":"Window closed"`)
	if err := r.db.Gorm.Exec(`UPDATE tournaments SET config = jsonb_set(config, '{RegistrationCloses}', '"2020-01-01T00:00:00Z"') WHERE id = ?`, closed).Error; err != nil {
		t.Fatal(err)
	}
	running := r.tournament(t, `"name":"Under way"`)
	if err := r.db.Gorm.Exec(`UPDATE tournaments SET status = 'running' WHERE id = ?`, running).Error; err != nil {
		t.Fatal(err)
	}
	entered := r.tournament(t, `"name":"Entered"`)
	if rec := r.call("POST", "/api/v1/tournaments/"+entered+"/entries", "", eve); rec.Code != 201 {
		t.Fatalf("enter: %d %s", rec.Code, rec.Body)
	}
	otherClub := decode[struct{ ID string }](t, r.call("POST", "/api/v1/clubs", `{"name":"Another Club"}`, r.organizer)).ID
	if rec := r.call("POST", "/api/v1/tournaments", fmt.Sprintf(`{"club_id":%q,"name":"Elsewhere","game":"sequence","format":"single-elimination"}`, otherClub), r.organizer); rec.Code != 201 {
		t.Fatalf("other club's tournament: %d %s", rec.Code, rec.Body)
	}

	path := "/api/v1/users/" + eveID + "/open-tournaments"
	rec := r.call("GET", path, "", "") // signed out too: clubs and tournaments are public
	wantDocumented(t, rec, "GET", "/api/v1/users/{id}/open-tournaments", 200)
	for _, item := range decode[listResponse[struct {
		ClubName string `json:"club_name"`
	}]](t, rec).Items {
		if item.ClubName != "Tournament Club" {
			t.Errorf("club_name %q, want the tournament's club, Tournament Club", item.ClubName)
		}
	}
	if diff := cmp.Diff([]string{later, open}, r.walkPages(t, path)); diff != "" {
		t.Errorf("open tournaments (-want +got):\n%s", diff)
	}
	if rec := r.call("POST", "/api/v1/tournaments/"+open+"/entries", "", eve); rec.Code != 201 {
		t.Fatalf("enter: %d %s", rec.Code, rec.Body)
	}
	if diff := cmp.Diff([]string{later}, r.walkPages(t, path)); diff != "" {
		t.Errorf("after entering one (-want +got):\n%s", diff)
	}
}

// An open tournament whose entry limits bar the member is listed with the
// reason, as the entry would be refused; one they may enter says nothing.
func TestOpenTournamentsSayWhyTheirLimitsBarTheMember(t *testing.T) {
	r := newCompetitionRig(t)
	eveID, eve := r.user("eve", false)
	if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')", r.clubID, eveID).Error; err != nil {
		t.Fatal(err)
	}
	band := r.tournament(t, `"name":"Band","min_rating":1600`)
	seasoned := r.tournament(t, `"name":"Seasoned","min_games":5`)
	free := r.tournament(t, `"name":"Free","max_rating":1600`)
	rec := r.call("GET", "/api/v1/users/"+eveID+"/open-tournaments", "", "")
	wantDocumented(t, rec, "GET", "/api/v1/users/{id}/open-tournaments", 200)
	barred := map[string]string{}
	for _, item := range decode[listResponse[struct {
		ID     string `json:"id"`
		Barred string `json:"barred"`
	}]](t, rec).Items {
		barred[item.ID] = item.Barred
	}
	want := map[string]string{
		band:     "rating 1500 is outside the tournament's band",
		seasoned: "0 rated games, the tournament asks for 5",
		free:     "",
	}
	if diff := cmp.Diff(want, barred); diff != "" {
		t.Errorf("barred (-want +got):\n%s", diff)
	}
	// The entry is refused for the reason the list gave.
	for _, id := range []string{band, seasoned} {
		rec := r.call("POST", "/api/v1/tournaments/"+id+"/entries", "", eve)
		wantDocumented(t, rec, "POST", "/api/v1/tournaments/{id}/entries", 400)
		if p := wantProblem(t, rec, 400, ""); !strings.Contains(rec.Body.String(), want[id]) {
			t.Errorf("entering %s: %+v; want it refused saying %q", id, p, want[id])
		}
	}
	if rec := r.call("POST", "/api/v1/tournaments/"+free+"/entries", "", eve); rec.Code != 201 {
		t.Errorf("entering the tournament that does not bar eve: %d %s", rec.Code, rec.Body)
	}
}

// The reasons are read from the member's rating in the tournament's pool,
// not another pool's, and a rating within the limits bars nothing.
func TestOpenTournamentsReadTheMembersRatingInTheirPool(t *testing.T) {
	r := newCompetitionRig(t)
	eveID, _ := r.user("eve", false)
	if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')", r.clubID, eveID).Error; err != nil {
		t.Fatal(err)
	}
	for pool, rated := range map[string]float64{"sequence-2team": 1700, "stacks": 1100} {
		if err := r.db.Gorm.Exec("INSERT INTO ratings (user_id, pool, rating, games, peak) VALUES (?, ?, ?, 40, ?)", eveID, pool, rated, rated).Error; err != nil {
			t.Fatal(err)
		}
	}
	within := r.tournament(t, `"name":"Within","min_rating":1600`)
	above := r.tournament(t, `"name":"Above","max_rating":1600`)
	seasoned := r.tournament(t, `"name":"Seasoned","min_games":50`)
	barred := map[string]string{}
	for _, item := range decode[listResponse[struct {
		ID     string `json:"id"`
		Barred string `json:"barred"`
	}]](t, r.call("GET", "/api/v1/users/"+eveID+"/open-tournaments", "", "")).Items {
		barred[item.ID] = item.Barred
	}
	want := map[string]string{
		within:   "",
		above:    "rating 1700 is outside the tournament's band",
		seasoned: "40 rated games, the tournament asks for 50",
	}
	if diff := cmp.Diff(want, barred); diff != "" {
		t.Errorf("barred (-want +got):\n%s", diff)
	}
}
