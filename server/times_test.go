package server

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"
)

// RFC 3339 §5.6 allows the "T" between date and time and the "Z" of UTC in
// lower case: times so written are taken wherever a client sends a time
// (a tournament's settings, a round's schedule, a list's cursor), as the
// same instants as in capitals; a time malformed otherwise is still a 400
// naming its field.
func TestTimesWithLowerCaseTAndZAreTaken(t *testing.T) {
	r := newCompetitionRig(t)
	rec := r.call("POST", "/api/v1/tournaments", r.tournamentBody(`"registration_closes":"2030-01-31t18:00:00z"`), r.organizer)
	if rec.Code != http.StatusCreated {
		t.Fatalf("a tournament closing registration at 2030-01-31t18:00:00z: %d %s", rec.Code, rec.Body)
	}
	created := decode[struct {
		ID                 string    `json:"id"`
		RegistrationCloses time.Time `json:"registration_closes"`
	}](t, rec)
	if want := time.Date(2030, 1, 31, 18, 0, 0, 0, time.UTC); !created.RegistrationCloses.Equal(want) {
		t.Errorf("registration_closes = %v, want %v", created.RegistrationCloses, want)
	}
	id := created.ID
	body := `{"rounds":[{"number":1,"starts_at":"2030-02-01t18:00:00.5+01:00","deadline":"2030-02-01t19:00:00z"}]}`
	if rec := r.call("POST", "/api/v1/tournaments/"+id+"/rounds", body, r.organizer); rec.Code != http.StatusOK {
		t.Fatalf("schedule with lower-case t and z: %d %s", rec.Code, rec.Body)
	}
	rounds := decode[struct {
		Rounds []struct {
			StartsAt *time.Time `json:"starts_at"`
			Deadline *time.Time `json:"deadline"`
		} `json:"rounds"`
	}](t, r.call("GET", "/api/v1/tournaments/"+id+"/rounds", "", "")).Rounds
	wantStart, wantDeadline := time.Date(2030, 2, 1, 17, 0, 0, 5e8, time.UTC), time.Date(2030, 2, 1, 19, 0, 0, 0, time.UTC)
	if len(rounds) == 0 || rounds[0].StartsAt == nil || !rounds[0].StartsAt.Equal(wantStart) || rounds[0].Deadline == nil || !rounds[0].Deadline.Equal(wantDeadline) {
		t.Errorf("round 1 = %+v; want it to start at %v with its deadline at %v", rounds, wantStart, wantDeadline)
	}

	for _, tc := range []struct{ name, value string }{
		{"another letter between date and time", "2030-02-01x18:00:00z"},
		{"no offset", "2030-02-01t18:00:00"},
		{"a day the month has not", "2030-02-30t18:00:00z"},
		{"a lower-case z inside", "2030-02-01t18:00z00z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := `{"rounds":[{"number":1,"starts_at":"2030-02-01T18:00:00Z"},{"number":2,"starts_at":"` + tc.value + `"}]}`
			p := wantProblem(t, r.call("POST", "/api/v1/tournaments/"+id+"/rounds", body, r.organizer), http.StatusBadRequest, "rounds[1].starts_at")
			if !strings.Contains(p.Errors[0].Message, "RFC 3339") {
				t.Errorf("message %q; want it to say the form a time takes", p.Errors[0].Message)
			}
		})
	}

	// A list's cursor holds a time too: written in lower case it continues
	// the list where the capitals would.
	second := r.tournament(t, `"name":"Second cup"`)
	page := decode[struct {
		Items      []struct{ ID string } `json:"items"`
		NextCursor string                `json:"next_cursor"`
	}](t, r.call("GET", "/api/v1/tournaments?club="+r.clubID+"&limit=1", "", ""))
	if len(page.Items) != 1 || page.Items[0].ID != second || page.NextCursor == "" {
		t.Fatalf("first page %+v; want the second cup and a cursor", page)
	}
	key, err := base64.RawURLEncoding.DecodeString(page.NextCursor)
	if err != nil {
		t.Fatal(err)
	}
	lower := strings.NewReplacer("T", "t", "Z", "z").Replace(string(key[:strings.IndexByte(string(key), '|')])) + string(key[strings.IndexByte(string(key), '|'):])
	if lower == string(key) {
		t.Fatalf("cursor %q holds no T or Z", key)
	}
	rec = r.call("GET", "/api/v1/tournaments?club="+r.clubID+"&limit=1&cursor="+base64.RawURLEncoding.EncodeToString([]byte(lower)), "", "")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), id) {
		t.Errorf("the next page by a cursor in lower case: %d %s; want the first cup", rec.Code, rec.Body)
	}
}
