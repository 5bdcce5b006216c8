package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/postgres"
	"github.com/seqleague/seqleague/league/rating"
	"github.com/seqleague/seqleague/league/redisbus"
	"github.com/seqleague/seqleague/workers"
)

// competitionRig is the accounts rig with the league and tournament
// services on the same database (no workers: tasks wait in Redis), and a
// club its organizer owns.
type competitionRig struct {
	*rig
	clubID    string
	organizer string // access token of the club's owner
}

func newCompetitionRig(t *testing.T) *competitionRig {
	t.Helper()
	r := newRig(t)
	rdb := r.redis()
	enq := workers.NewEnqueuer(rdb)
	games := postgres.NewGames(r.db, redisbus.New(rdb), enq, postgres.GameConfig{}, quietLogger)
	r.d.Leagues = postgres.NewLeagues(r.db)
	r.d.Tournaments = postgres.NewTournaments(r.db, games, enq, quietLogger)
	r.d.Metrics = prometheus.NewRegistry() // the rig's server registered its own
	r.e = New(r.d)
	ownerID, owner := r.user("organizer", false)
	club, err := r.clubs.Create(context.Background(), league.Actor{UserID: ownerID}, league.NewClub{Name: "Tournament Club"})
	if err != nil {
		t.Fatal(err)
	}
	return &competitionRig{rig: r, clubID: club.ID, organizer: owner}
}

// tournament creates a tournament from the settings (a JSON object's
// members without braces) and returns its ID.
func (r *competitionRig) tournament(t *testing.T, settings string) string {
	t.Helper()
	rec := r.call("POST", "/api/v1/tournaments", r.tournamentBody(settings), r.organizer)
	if rec.Code != 201 {
		t.Fatalf("create tournament: %d %s", rec.Code, rec.Body)
	}
	return decode[struct{ ID string }](t, rec).ID
}

// tournamentBody is a tournament of the rig's club with settings (JSON
// members, as `"game":"stacks"`) over the defaults: a body gives each key
// once, or it is refused.
func (r *competitionRig) tournamentBody(settings string) string {
	body := map[string]json.RawMessage{}
	if err := json.Unmarshal([]byte(fmt.Sprintf(`{"club_id":%q,"name":"Cup","game":"sequence","format":"single-elimination"}`, r.clubID)), &body); err != nil {
		panic(err)
	}
	if settings != "" {
		if err := json.Unmarshal([]byte("{"+settings+"}"), &body); err != nil {
			return "{" + settings + "}" // not JSON: let the server say so
		}
	}
	out, _ := json.Marshal(body)
	return string(out)
}

func TestTournamentSettingsAreRefusedNamingTheirField(t *testing.T) {
	r := newCompetitionRig(t)
	nextYear := time.Now().UTC().AddDate(1, 0, 0).Truncate(time.Hour)
	for _, tc := range []struct {
		name, settings, field string
	}{
		{"no club", `"club_id":""`, "club_id"}, // was a 404 "no such club"
		{"an unknown variant", `"variant":"weird"`, "variant"},
		{"an unknown fill-in level", `"fill_level":"godlike"`, "fill_level"},
		{"a double knockout", `"double":true`, "double"},
		{"groups in a Swiss", `"format":"swiss","groups":4`, "groups"},
		{"Swiss rounds in a round robin", `"format":"round-robin","rounds":5`, "rounds"},
		{"a reset in a single knockout", `"reset":true`, "reset"},
		{"a team size too large for any number", `"team_size":1e400`, "team_size"},
		{"a team size of 2^31", `"team_size":2147483648`, "team_size"},
		{"a Stacks table of 2^31", `"game":"stacks","match_size":2147483648`, "match_size"},
		{"a Stacks table of seven", `"game":"stacks","match_size":7`, "match_size"},
		{"a Sequence table of five teams", `"match_size":5`, "match_size"},
		{"a Sequence team the rules have no table for", `"match_size":3,"team_size":5`, "team_size"},
		{"sequences to win out of range", `"sequences_to_win":9`, "sequences_to_win"},
		{"a negative round gap", `"round_gap_seconds":-5`, "round_gap_seconds"},
		{"a round gap of a century", `"round_gap_seconds":3000000000`, "round_gap_seconds"},
		// Settings the game layer or the format refuses only when the
		// tournament starts are refused when it is set up.
		{"both a turn clock and a bank", `"clock":{"turn_seconds":10,"bank_seconds":10}`, "clock"},
		{"a turn of 30,000 years", `"clock":{"turn_seconds":1000000000000}`, "clock.turn_seconds"},
		{"a negative increment", `"clock":{"bank_seconds":5,"increment_seconds":-2}`, "clock.increment_seconds"},
		{"a bank of 2^31 seconds", `"clock":{"bank_seconds":2147483648}`, "clock.bank_seconds"},
		{"a variant of Stacks", `"game":"stacks","variant":"bordered"`, "variant"},
		{"negative Swiss rounds", `"format":"swiss","rounds":-1`, "rounds"},
		{"a Swiss of 100,000 rounds", `"format":"swiss","rounds":100000`, "rounds"},
		{"groups-playoffs without groups", `"format":"groups-playoffs","advance":1`, "groups"},
		{"groups-playoffs without advance", `"format":"groups-playoffs","groups":2`, "advance"},
		{"negative groups", `"format":"groups-playoffs","groups":-1,"advance":1`, "groups"},
		{"negative advance", `"format":"groups-playoffs","groups":2,"advance":-1`, "advance"},
		{"absurd groups", `"format":"groups-playoffs","groups":1000000000000,"advance":1`, "groups"},
		{"absurd advance", `"format":"groups-playoffs","groups":2,"advance":1000000000000`, "advance"},
		{"absurd rounds", `"format":"swiss","rounds":1000000000000`, "rounds"},
		{"double elimination in matches of three", `"format":"double-elimination","match_size":3`, "match_size"},
		{"a third-place match between three", `"match_size":3,"third_place":true`, "third_place"},
		{"a rating band upside down", `"min_rating":1600,"max_rating":1400`, "max_rating"},
		{"a minimum rating of 1e308", `"min_rating":1e308`, "min_rating"},
		{"a negative minimum rating", `"min_rating":-1e308`, "min_rating"},
		{"a maximum rating of 1e308", `"max_rating":1e308`, "max_rating"},
		{"a maximum rating below 0", `"max_rating":-1`, "max_rating"},
		{"a maximum rating above 4000", `"min_rating":1400,"max_rating":4000.5`, "max_rating"},
		{"an absurd minimum above the maximum", `"min_rating":1e308,"max_rating":1400`, "min_rating"},
		{"registration closing in the past", `"registration_closes":"2020-01-01T00:00:00Z"`, "registration_closes"},
		{"registration closing before it opens", `"registration_opens":"` + nextYear.AddDate(0, 1, 0).Format(time.RFC3339) + `","registration_closes":"` + nextYear.Format(time.RFC3339) + `"`, "registration_closes"},
		{"registration opening in a century", `"registration_opens":"2126-01-01T00:00:00Z"`, "registration_opens"},
		{"registration closing in a century", `"registration_closes":"2126-01-01T00:00:00Z"`, "registration_closes"},
		// A zero time is a client's unset field, not an opening: it was
		// taken, and shown as "Registration from 1 Jan 1".
		{"registration opening at Go's zero time", `"registration_opens":"0001-01-01T00:00:00Z"`, "registration_opens"},
		{"registration opening at the zero time with an offset", `"registration_opens":"0001-01-01T00:00:00+01:00"`, "registration_opens"},
		{"registration opening at the Unix epoch", `"registration_opens":"1970-01-01T00:00:00Z"`, "registration_opens"},
		{"registration open for a century", `"registration_opens":"` + nextYear.Format(time.RFC3339) + `","registration_closes":"2126-01-01T00:00:00Z"`, "registration_closes"},
		{"negative minimum games", `"min_games":-1`, "min_games"},
		{"absurd minimum games", `"min_games":1000000000000`, "min_games"},
		{"a tie-break twice", `"tie_breaks":["wins","buchholz","wins"]`, "tie_breaks[2]"},
		{"Stacks ranked on sequences", `"game":"stacks","tie_breaks":["wins","sequences"]`, "tie_breaks[1]"},
		{"thousands of tie-breaks", `"tie_breaks":[` + strings.TrimSuffix(strings.Repeat(`"wins",`, 3000), ",") + `]`, "tie_breaks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := r.count("tournaments")
			p := wantProblem(t, r.call("POST", "/api/v1/tournaments", r.tournamentBody(tc.settings), r.organizer), 400, tc.field)
			for _, f := range p.Errors {
				if f.Field == tc.field && strings.Contains(f.Message, "negative") && !strings.Contains(tc.settings, "-") {
					t.Errorf("%s: %q for a positive value", f.Field, f.Message)
				}
			}
			if len(p.Errors) > 5 {
				t.Errorf("%d errors; want the setting named once: %+v", len(p.Errors), p.Errors[:5])
			}
			seen := map[string]bool{}
			for _, f := range p.Errors {
				if seen[f.Field] {
					t.Errorf("%s named twice: %+v", f.Field, p.Errors)
				}
				seen[f.Field] = true
				if f.Field != tc.field && !strings.HasPrefix(f.Field, tc.field+".") {
					t.Errorf("also named %s (%s); want only %s", f.Field, f.Message, tc.field)
				}
			}
			if after := r.count("tournaments"); after != before {
				t.Errorf("tournaments: %d before, %d after", before, after)
			}
		})
	}
	r.tournament(t, `"min_rating":0,"max_rating":4000`) // the rating limits' own ends are kept
}

// A body with several faults found before the database is read is refused
// once, naming each: a bad name, a bad setting and a missing club_id, not
// only the first of them.
func TestATournamentsFaultsAreAllNamedInOne400(t *testing.T) {
	r := newCompetitionRig(t)
	p := wantProblem(t, r.call("POST", "/api/v1/tournaments", r.tournamentBody(`"club_id":"","name":" ","best_of":4,"min_games":-1`), r.organizer), 400, "")
	var got []string
	for _, f := range p.Errors {
		got = append(got, f.Field)
	}
	if want := []string{"club_id", "name", "best_of", "min_games"}; !slices.Equal(got, want) {
		t.Errorf("errors name %v, want %v: %+v", got, want, p.Errors)
	}
	if n := r.count("tournaments"); n != 0 {
		t.Errorf("%d tournaments stored", n)
	}
}

// An opening in the past means registration is open already: a client
// sending "now", which has passed by the time it arrives, is not refused.
func TestARegistrationThatOpenedYesterdayIsOpenAlready(t *testing.T) {
	r := newCompetitionRig(t)
	yesterday := time.Now().UTC().AddDate(0, 0, -1).Truncate(time.Second)
	rec := r.call("POST", "/api/v1/tournaments", r.tournamentBody(`"registration_opens":"`+yesterday.Format(time.RFC3339)+`"`), r.organizer)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	id := decode[struct{ ID string }](t, rec).ID
	if rec := r.call("POST", "/api/v1/tournaments/"+id+"/entries", "", r.organizer); rec.Code != http.StatusCreated {
		t.Errorf("entering a tournament whose registration opened yesterday: %d %s", rec.Code, rec.Body)
	}
}

// A reference in the body to nothing is the body's fault, a 400 naming its
// field, whichever it is: a club_id naming no club was a 404 (404 is for
// the path's resource) while a season_id naming no season was a 400. A
// closed season is a 422 naming season_id.
func TestATournamentOfAClubOrSeasonThatDoesNotExistIsA400NamingTheField(t *testing.T) {
	r := newCompetitionRig(t)
	for _, tc := range []struct{ field, body string }{
		{"club_id", `"club_id":"00000000-0000-0000-0000-000000000000"`},
		{"club_id", `"club_id":"not-a-uuid"`},
		{"season_id", `"season_id":"00000000-0000-0000-0000-000000000000"`},
		{"season_id", `"season_id":"not-a-uuid"`},
	} {
		before := r.count("tournaments")
		rec := r.call("POST", "/api/v1/tournaments", r.tournamentBody(tc.body), r.organizer)
		wantDocumented(t, rec, "POST", "/api/v1/tournaments", http.StatusBadRequest)
		wantProblem(t, rec, http.StatusBadRequest, tc.field)
		if after := r.count("tournaments"); after != before {
			t.Errorf("%s: tournaments: %d before, %d after", tc.body, before, after)
		}
	}
	leagueID := decode[struct{ ID string }](t, r.call("POST", "/api/v1/clubs/"+r.clubID+"/leagues", `{"name":"League"}`, r.organizer)).ID
	season := decode[struct{ ID string }](t, r.call("POST", "/api/v1/leagues/"+leagueID+"/seasons", `{"name":"2030"}`, r.organizer)).ID
	if rec := r.call("POST", "/api/v1/seasons/"+season+"/close", "", r.organizer); rec.Code != http.StatusOK {
		t.Fatalf("close the season: %d %s", rec.Code, rec.Body)
	}
	rec := r.call("POST", "/api/v1/tournaments", r.tournamentBody(fmt.Sprintf(`"season_id":%q`, season)), r.organizer)
	wantDocumented(t, rec, "POST", "/api/v1/tournaments", http.StatusUnprocessableEntity)
	wantProblem(t, rec, http.StatusUnprocessableEntity, "season_id")
}

func TestATournamentStatusOutsideTheTransitionsIsRefusedNamingStatus(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, "")
	for _, status := range []string{"bogus", "finished", "registration", ""} {
		t.Run(status, func(t *testing.T) {
			p := wantProblem(t, r.call("PATCH", "/api/v1/tournaments/"+id, fmt.Sprintf(`{"status":%q}`, status), r.organizer), 400, "status")
			for _, f := range p.Errors {
				if f.Field == "status" && (!strings.Contains(f.Message, "running") || !strings.Contains(f.Message, "paused")) {
					t.Errorf("message %q does not list the allowed values", f.Message)
				}
			}
		})
	}
	if rec := r.call("PATCH", "/api/v1/tournaments/"+id, `{"status":"paused"}`, r.organizer); rec.Code != 422 {
		t.Errorf("pausing a tournament in registration: %d, want 422 (an allowed value, not now)", rec.Code)
	}
	wantProblem(t, r.call("PATCH", "/api/v1/tournaments/"+id, `{"status":"paused"}`, r.organizer), 422, "status")
	// Starting it with too few entries is refused as pausing it is, at
	// status (it named no field).
	p := wantProblem(t, r.call("PATCH", "/api/v1/tournaments/"+id, `{"status":"running"}`, r.organizer), 422, "status")
	for _, f := range p.Errors {
		if f.Field == "status" && !strings.Contains(f.Message, "cannot start with 0 entries") {
			t.Errorf("status: %q, want it to say why the tournament cannot start", f.Message)
		}
	}
}

// A user named in an entry who does not exist is a 400 naming the member
// (a reference in a body to nothing), as a seat kept for nobody names
// seats[i].for (a 422: a username, see the games' tests).
func TestAnEntryOfAnUnknownUserNamesTheMember(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, "")
	body := `{"name":"X","members":[{"user":"00000000-0000-0000-0000-00000000000f"}]}`
	wantProblem(t, r.call("POST", "/api/v1/tournaments/"+id+"/entries", body, r.organizer), 400, "members[0].user")
}

func TestEntrySeedsOutOfRangeOrTakenAreRefusedNamingSeed(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, `"seeding":"manual"`)
	path := "/api/v1/tournaments/" + id + "/entries"
	entry := func(name string, seed int64) string {
		return fmt.Sprintf(`{"name":%q,"members":[{"bot":"random"}],"seed":%d}`, name, seed)
	}
	if rec := r.call("POST", path, entry("first", 1), r.organizer); rec.Code != 201 {
		t.Fatalf("seed 1: %d %s", rec.Code, rec.Body)
	}
	for _, tc := range []struct {
		name string
		seed int64
	}{
		{"a negative seed", -1},
		{"a seed past int4", 1000000000000},
		{"a seed past the most entries", 10001},
		{"a seed another entry has", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := r.count("entries")
			wantProblem(t, r.call("POST", path, entry(tc.name, tc.seed), r.organizer), 400, "seed")
			if after := r.count("entries"); after != before {
				t.Errorf("entries: %d before, %d after", before, after)
			}
		})
	}
	if rec := r.call("POST", path, entry("second", 2), r.organizer); rec.Code != 201 {
		t.Fatalf("seed 2: %d %s", rec.Code, rec.Body)
	}
}

func TestAScheduleSpanOutOfBoundsIsRefusedNamingTheField(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, "")
	path := "/api/v1/tournaments/" + id + "/rounds"
	// The schedule starts a year from now, at midnight: a fixed date would
	// pass, and rounds in the past start at once.
	first := time.Now().UTC().AddDate(1, 0, 0).Truncate(24 * time.Hour)
	at := func(d time.Duration) string { return first.Add(d).Format(time.RFC3339) }
	span := func(count, interval, deadline int64) string {
		return fmt.Sprintf(`{"first_start":%q,"count":%d,"interval_seconds":%d,"deadline_seconds":%d}`, at(0), count, interval, deadline)
	}
	for _, tc := range []struct {
		name  string
		body  string
		field string
	}{
		{"an interval of 30 million years", span(2, 1000000000000000, 0), "interval_seconds"},
		{"an interval past a month", span(2, 31*86400+1, 0), "interval_seconds"},
		{"no interval", span(2, 0, 0), "interval_seconds"},
		{"no rounds", span(0, 3600, 0), "count"},
		{"201 rounds", span(201, 3600, 0), "count"},
		{"a negative deadline", span(2, 3600, -1), "deadline_seconds"},
		{"a deadline of 30 million years", span(2, 3600, 1000000000000000), "deadline_seconds"},
		{"a first start in year 9999", `{"first_start":"9999-12-31T23:59:59Z","count":2,"interval_seconds":3600}`, "first_start"},
		{"monthly rounds for 16 years", span(200, 31*86400, 0), "count"},
		{"a count without a first start", `{"count":2,"interval_seconds":3600}`, "first_start"},
		{"a round past the horizon", `{"rounds":[{"number":1,"starts_at":"9999-12-31T23:59:59Z"}]}`, "rounds[0].starts_at"},
		// A mistyped year started the tournament at once (the contract audit).
		{"a round ten years ago", fmt.Sprintf(`{"rounds":[{"number":1,"starts_at":%q}]}`, time.Now().UTC().AddDate(-10, 0, 0).Format(time.RFC3339)), "rounds[0].starts_at"},
		{"a first start ten years ago", fmt.Sprintf(`{"first_start":%q,"count":2,"interval_seconds":3600}`, time.Now().UTC().AddDate(-10, 0, 0).Format(time.RFC3339)), "first_start"},
		// Either form alone: the two together are not one list of rounds.
		{"rounds and a whole event", fmt.Sprintf(`{"rounds":[{"number":1,"starts_at":%q}],"first_start":%q,"count":2,"interval_seconds":3600}`, at(0), at(31*24*time.Hour)), "rounds"},
		{"rounds with a deadline for a whole event", fmt.Sprintf(`{"rounds":[{"number":1,"starts_at":%q}],"deadline_seconds":600}`, at(0)), "rounds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantProblem(t, r.call("POST", path, tc.body, r.organizer), 400, tc.field)
			if n := r.count("rounds"); n != 0 {
				t.Errorf("%d rounds stored", n)
			}
		})
	}
	// one round needs no interval (it was a 400 naming interval_seconds)
	if rec := r.call("POST", path, fmt.Sprintf(`{"first_start":%q,"count":1}`, at(0)), r.organizer); rec.Code != 200 {
		t.Fatalf("one round with no interval: %d %s", rec.Code, rec.Body)
	}
	rec := r.call("POST", path, span(2, 31*86400, 3600), r.organizer)
	if rec.Code != 200 {
		t.Fatalf("a monthly schedule: %d %s", rec.Code, rec.Body)
	}
	got := decode[struct {
		Rounds []struct {
			StartsAt time.Time `json:"starts_at"`
		}
	}](t, rec)
	want := first.Add(31 * 24 * time.Hour)
	if len(got.Rounds) != 2 || !got.Rounds[1].StartsAt.Equal(want) {
		t.Errorf("rounds %+v; want round 2 at %v", got.Rounds, want)
	}
}

// Rescheduling a round already paired was a 409 naming no field: it names
// the round at fault, and the round keeps its times.
func TestReschedulingAPairedRoundNamesIt(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, `"format":"round-robin"`)
	for _, name := range []string{"one", "two", "three"} {
		if rec := r.call("POST", "/api/v1/tournaments/"+id+"/entries", `{"name":"`+name+`","members":[{"bot":"random"}]}`, r.organizer); rec.Code != 201 {
			t.Fatalf("entry %s: %d %s", name, rec.Code, rec.Body)
		}
	}
	if rec := r.call("PATCH", "/api/v1/tournaments/"+id, `{"status":"running"}`, r.organizer); rec.Code != 200 {
		t.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	later := time.Now().UTC().Add(24 * time.Hour).Truncate(time.Second)
	body := fmt.Sprintf(`{"rounds":[{"number":2,"starts_at":%q},{"number":1,"starts_at":%q}]}`,
		later.Format(time.RFC3339), later.Add(time.Hour).Format(time.RFC3339))
	wantProblem(t, r.call("POST", "/api/v1/tournaments/"+id+"/rounds", body, r.organizer), http.StatusConflict, "rounds[1].number")
	// A series is numbered from round 1 unless it says first_round: the web app's "several rounds"
	// form could schedule no round once round 1 was paired.
	series := func(extra string) string {
		return fmt.Sprintf(`{"first_start":%q,"count":2,"interval_seconds":3600%s}`, later.Format(time.RFC3339), extra)
	}
	wantProblem(t, r.call("POST", "/api/v1/tournaments/"+id+"/rounds", series(""), r.organizer), http.StatusConflict, "count")
	wantProblem(t, r.call("POST", "/api/v1/tournaments/"+id+"/rounds", series(`,"first_round":201`), r.organizer), http.StatusBadRequest, "first_round")
	// past the last round (3): said of the series' rounds, "must be 1–3" alone read as a bound on count
	p := wantProblem(t, r.call("POST", "/api/v1/tournaments/"+id+"/rounds", series(`,"first_round":3`), r.organizer), http.StatusBadRequest, "count")
	if msg := p.Errors[0].Message; msg != "the series is rounds 3–4, and a round's number must be 1–3" {
		t.Errorf("the refusal says %q", msg)
	}
	rec := r.call("POST", "/api/v1/tournaments/"+id+"/rounds", series(`,"first_round":2`), r.organizer)
	if rec.Code != http.StatusOK {
		t.Fatalf("rounds 2 and 3 as a series: %d %s", rec.Code, rec.Body)
	}
	got := decode[struct {
		Rounds []struct {
			Number   int       `json:"number"`
			StartsAt time.Time `json:"starts_at"`
		}
	}](t, rec)
	if n := len(got.Rounds); n != 3 || got.Rounds[1].Number != 2 || !got.Rounds[1].StartsAt.Equal(later) || !got.Rounds[2].StartsAt.Equal(later.Add(time.Hour)) {
		t.Fatalf("the rounds after scheduling 2 and 3: %+v", got.Rounds)
	}
}

// walkPages follows next_cursor from the first page of path at limit 2
// and returns the ids of every item in the order served.
func (r *competitionRig) walkPages(t *testing.T, path string) []string {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	var ids []string
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatalf("%s: the pages do not end", path)
		}
		rec := r.call("GET", path+sep+"limit=2&cursor="+url.QueryEscape(cursor), "", r.organizer)
		if rec.Code != 200 {
			t.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
		page := decode[listResponse[struct{ ID string }]](t, rec)
		if len(page.Items) > 2 {
			t.Fatalf("%s: %d items on a page of 2", path, len(page.Items))
		}
		for _, it := range page.Items {
			ids = append(ids, it.ID)
		}
		if page.NextCursor == "" {
			return ids
		}
		cursor = page.NextCursor
	}
}

func reversed(s []string) []string {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

func TestCompetitionListsPageThroughEveryItemOnceInOrder(t *testing.T) {
	r := newCompetitionRig(t)
	me := decode[struct{ ID string }](t, r.call("GET", "/api/v1/me", "", r.organizer)).ID
	created := func(path, body string) string {
		t.Helper()
		rec := r.call("POST", path, body, r.organizer)
		if rec.Code != 201 {
			t.Fatalf("POST %s: %d %s", path, rec.Code, rec.Body)
		}
		return decode[struct{ ID string }](t, rec).ID
	}
	var tournaments []string
	for range 5 {
		id := r.tournament(t, "")
		created("/api/v1/tournaments/"+id+"/entries", `{}`) // the organizer plays in each
		tournaments = append(tournaments, id)
	}
	cup := tournaments[0]
	entries := []string{r.walkPages(t, "/api/v1/tournaments/"+cup+"/entries")[0]}
	for i := range 4 {
		entries = append(entries, created("/api/v1/tournaments/"+cup+"/entries", fmt.Sprintf(`{"name":"bot %d","members":[{"bot":"random"}]}`, i)))
	}
	leagueIDs := map[string]string{}
	for _, name := range []string{"delta", "Alpha", "charlie", "Bravo", "echo"} {
		leagueIDs[name] = created("/api/v1/clubs/"+r.clubID+"/leagues", fmt.Sprintf(`{"name":%q}`, name))
	}
	var seasons []string
	for i := range 5 {
		seasons = append(seasons, created("/api/v1/leagues/"+leagueIDs["echo"]+"/seasons", fmt.Sprintf(`{"name":"%d"}`, 2020+i)))
	}
	clubs := map[string]string{"Tournament Club": r.clubID}
	for _, name := range []string{"zulu", "Mike", "alpha"} {
		clubs[name] = created("/api/v1/clubs", fmt.Sprintf(`{"name":%q}`, name))
	}
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/api/v1/tournaments?club=" + r.clubID, reversed(tournaments)},
		{"/api/v1/users/" + me + "/tournaments", reversed(tournaments)},
		{"/api/v1/tournaments/" + cup + "/entries", entries},
		{"/api/v1/clubs/" + r.clubID + "/leagues", []string{leagueIDs["Alpha"], leagueIDs["Bravo"], leagueIDs["charlie"], leagueIDs["delta"], leagueIDs["echo"]}},
		{"/api/v1/leagues/" + leagueIDs["echo"] + "/seasons", reversed(seasons)},
		{"/api/v1/users/" + me + "/clubs", []string{clubs["alpha"], clubs["Mike"], clubs["Tournament Club"], clubs["zulu"]}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, r.walkPages(t, tc.path)); diff != "" {
				t.Errorf("ids over the pages (-want +got):\n%s", diff)
			}
			sep := "?"
			if strings.Contains(tc.path, "?") {
				sep = "&"
			}
			for _, bad := range []struct{ query, field string }{
				{"limit=-3", "limit"}, {"limit=0", "limit"}, {"limit=101", "limit"}, {"limit=ten", "limit"},
				{"cursor='%20OR%201=1", "cursor"}, {"cursor=" + url.QueryEscape(base64.RawURLEncoding.EncodeToString([]byte("k:forged"))), "cursor"},
			} {
				wantProblem(t, r.call("GET", tc.path+sep+bad.query, "", r.organizer), 400, bad.field)
			}
		})
	}
}

// A list under an ID (a user's games, a club's leagues, a game's moves) of
// a well-formed ID that names nothing, or names another kind of thing, is
// the 404 of an ID that is no UUID, not an empty page; an empty list of
// something that exists is still an empty page.
func TestAListUnderAnIDThatNamesNothingIsNotFound(t *testing.T) {
	r := newCompetitionRig(t)
	bus := &hubBus{}
	games := postgres.NewGames(r.db, bus, discardTasks{}, postgres.GameConfig{}, quietLogger)
	r.d.Games, r.d.Hub = games, NewHub(games, quietLogger)
	bus.hub = r.d.Hub
	t.Cleanup(r.d.Hub.Close)
	r.d.Metrics = prometheus.NewRegistry()
	r.e = New(r.d)
	loner, _ := r.user("loner", false) // in no club, game or tournament
	emptyClub := decode[struct{ ID string }](t, r.call("POST", "/api/v1/clubs", `{"name":"Empty Club"}`, r.organizer)).ID
	leagueID := decode[struct{ ID string }](t, r.call("POST", "/api/v1/clubs/"+r.clubID+"/leagues", `{"name":"League"}`, r.organizer)).ID
	season := decode[struct{ ID string }](t, r.call("POST", "/api/v1/leagues/"+leagueID+"/seasons", `{"name":"2030"}`, r.organizer)).ID
	rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`, r.organizer)
	if rec.Code != 201 {
		t.Fatalf("create game: %d %s", rec.Code, rec.Body)
	}
	openGame := decode[struct{ ID string }](t, rec).ID
	for _, tc := range []struct{ path, exists string }{
		{"/api/v1/games/%s/moves", openGame},
		{"/api/v1/games/%s/moves?after=5", openGame},
		{"/api/v1/users/%s/games", loner},
		{"/api/v1/users/%s/clubs", loner},
		{"/api/v1/users/%s/tournaments", loner},
		{"/api/v1/users/%s/open-tournaments", loner},
		{"/api/v1/clubs/%s/leagues", emptyClub},
		{"/api/v1/tournaments?club=%s", emptyClub},
		{"/api/v1/tournaments?season=%s", season},
	} {
		for _, id := range []string{"7d1c5c0e-3f7a-4c59-9b52-1c0f5b0f2a11", season, "not-a-uuid"} {
			if id == tc.exists {
				continue
			}
			wantProblem(t, r.call("GET", fmt.Sprintf(tc.path, id), "", r.organizer), 404, "")
		}
		if rec := r.call("GET", fmt.Sprintf(tc.path, tc.exists), "", r.organizer); rec.Code != 200 {
			t.Errorf("%s of something that exists: %d %s", fmt.Sprintf(tc.path, tc.exists), rec.Code, rec.Body)
		}
	}
}

// ?club= and ?season= together keep the tournaments of both: a club's
// filter is not dropped for the season's, which would list another club's.
func TestTournamentsOfAClubAndASeasonAreThoseOfBoth(t *testing.T) {
	r := newCompetitionRig(t)
	leagueID := decode[struct{ ID string }](t, r.call("POST", "/api/v1/clubs/"+r.clubID+"/leagues", `{"name":"League"}`, r.organizer)).ID
	season := decode[struct{ ID string }](t, r.call("POST", "/api/v1/leagues/"+leagueID+"/seasons", `{"name":"2030"}`, r.organizer)).ID
	inSeason := r.tournament(t, fmt.Sprintf(`"season_id":%q`, season))
	r.tournament(t, "") // the club's, outside the season
	_, other := r.user("olive", false)
	otherClub := decode[struct{ ID string }](t, r.call("POST", "/api/v1/clubs", `{"name":"Other Club"}`, other)).ID
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"season=" + season, []string{inSeason}},
		{"club=" + r.clubID + "&season=" + season, []string{inSeason}},
		{"club=" + otherClub + "&season=" + season, nil},
	} {
		if got := r.walkPages(t, "/api/v1/tournaments?"+tc.query); !slices.Equal(got, tc.want) {
			t.Errorf("?%s: %v, want %v", tc.query, got, tc.want)
		}
	}
	wantProblem(t, r.call("GET", "/api/v1/tournaments?club=7d1c5c0e-3f7a-4c59-9b52-1c0f5b0f2a11&season="+season, "", ""), 404, "")
}

// A query parameter that names nothing is named in its 404, as ?around=
// is: the path exists, so without the field the client cannot tell which
// of its inputs the "no such ..." was about.
func TestANotFoundOfAQueryParameterNamesIt(t *testing.T) {
	r := newCompetitionRig(t)
	r.d.Ratings = postgres.NewRatings(r.db)
	r.d.Metrics = prometheus.NewRegistry()
	r.e = New(r.d)
	leagueID := decode[struct{ ID string }](t, r.call("POST", "/api/v1/clubs/"+r.clubID+"/leagues", `{"name":"League"}`, r.organizer)).ID
	season := decode[struct{ ID string }](t, r.call("POST", "/api/v1/leagues/"+leagueID+"/seasons", `{"name":"2030"}`, r.organizer)).ID
	tournament := r.tournament(t, "")
	const unknown = "7d1c5c0e-3f7a-4c59-9b52-1c0f5b0f2a11"
	for _, tc := range []struct{ method, path, field string }{
		{"GET", "/api/v1/leaderboards/" + rating.PoolSequence2 + "?club=" + unknown, "club"},
		{"GET", "/api/v1/leaderboards/" + rating.PoolSequence2 + "?club=not-a-uuid", "club"},
		{"GET", "/api/v1/leaderboards/" + rating.PoolSequence2 + "?league=" + unknown, "league"},
		{"GET", "/api/v1/leaderboards/" + rating.PoolSequence2 + "?league=not-a-uuid", "league"},
		{"GET", "/api/v1/tournaments?club=" + unknown, "club"},
		{"GET", "/api/v1/tournaments?club=not-a-uuid", "club"},
		{"GET", "/api/v1/tournaments?season=" + unknown, "season"},
		{"GET", "/api/v1/tournaments?season=not-a-uuid", "season"},
		{"GET", "/api/v1/tournaments?club=" + unknown + "&season=" + season, "club"},
		{"GET", "/api/v1/tournaments?club=" + r.clubID + "&season=" + unknown, "season"},
		{"DELETE", "/api/v1/tournaments/" + tournament + "/entries?entry=" + unknown, "entry"},
		{"DELETE", "/api/v1/tournaments/" + tournament + "/entries?entry=not-a-uuid", "entry"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			p := wantProblem(t, r.call(tc.method, tc.path, "", r.organizer), 404, tc.field)
			if len(p.Errors) != 1 {
				t.Errorf("errors = %+v, want only %s", p.Errors, tc.field)
			}
		})
	}
	// The path's tournament is no query parameter: its 404 names none.
	if p := wantProblem(t, r.call("DELETE", "/api/v1/tournaments/"+unknown+"/entries?entry="+unknown, "", r.organizer), 404, ""); len(p.Errors) != 0 {
		t.Errorf("an unknown tournament: errors = %+v, want none", p.Errors)
	}
}

func TestASeasonWithADescriptionIsRefused(t *testing.T) {
	r := newCompetitionRig(t)
	rec := r.call("POST", "/api/v1/clubs/"+r.clubID+"/leagues", `{"name":"Monday","description":"weekly"}`, r.organizer)
	if rec.Code != 201 {
		t.Fatalf("create league: %d %s", rec.Code, rec.Body)
	}
	path := "/api/v1/leagues/" + decode[struct{ ID string }](t, rec).ID + "/seasons"
	wantProblem(t, r.call("POST", path, `{"name":"2026","description":"dropped before"}`, r.organizer), 400, "description")
	if n := r.count("seasons"); n != 0 {
		t.Fatalf("seasons = %d after a refused creation, want 0", n)
	}
	if rec := r.call("POST", path, `{"name":"2026"}`, r.organizer); rec.Code != 201 {
		t.Fatalf("a season with a name only: %d %s", rec.Code, rec.Body)
	}
}

// A round started by hand, or later than scheduled, is listed and put in
// the calendar at the time it started, not at a schedule it never had (or
// one long past).
func TestARoundIsInTheCalendarWhenItStarted(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, "")
	for _, name := range []string{"A", "B"} {
		if rec := r.call("POST", "/api/v1/tournaments/"+id+"/entries", `{"name":"`+name+`","members":[{"bot":"random"}]}`, r.organizer); rec.Code != 201 {
			t.Fatalf("entry: %d %s", rec.Code, rec.Body)
		}
	}
	before := time.Now().UTC()
	if rec := r.call("PATCH", "/api/v1/tournaments/"+id, `{"status":"running"}`, r.organizer); rec.Code != 200 {
		t.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	rounds := decode[struct {
		Rounds []struct {
			StartedAt *time.Time `json:"started_at"`
		} `json:"rounds"`
	}](t, r.call("GET", "/api/v1/tournaments/"+id+"/rounds", "", ""))
	if len(rounds.Rounds) != 1 || rounds.Rounds[0].StartedAt == nil || rounds.Rounds[0].StartedAt.Before(before.Truncate(time.Second)) {
		t.Fatalf("rounds %+v; want round 1 started now", rounds.Rounds)
	}
	ics := r.call("GET", "/api/v1/tournaments/"+id+"/calendar.ics", "", "").Body.String()
	if want := "DTSTART:" + rounds.Rounds[0].StartedAt.UTC().Format("20060102T150405Z"); !strings.Contains(ics, want) {
		t.Fatalf("calendar without %s:\n%s", want, ics)
	}
}
