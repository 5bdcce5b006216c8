package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/seqleague/seqleague/workers"
)

// runningTournament is a knockout of two bots whose round 1 is being
// played (the rig has no workers: its bots never move).
func (r *competitionRig) runningTournament(t *testing.T) string {
	t.Helper()
	id := r.tournament(t, "")
	for _, name := range []string{"A", "B"} {
		if rec := r.call("POST", "/api/v1/tournaments/"+id+"/entries", `{"name":"`+name+`","members":[{"bot":"random"}]}`, r.organizer); rec.Code != 201 {
			t.Fatalf("entry: %d %s", rec.Code, rec.Body)
		}
	}
	if rec := r.call("PATCH", "/api/v1/tournaments/"+id, `{"status":"running"}`, r.organizer); rec.Code != 200 {
		t.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	return id
}

// The deadline of the round being played moves later and back earlier;
// each time it is answered with the round, and the task of the new time
// waits in the queue.
func TestTheDeadlineOfTheRoundInPlayMovesThroughTheAPI(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.runningTournament(t)
	ins := asynq.NewInspectorFromRedisClient(r.redis())
	for _, ahead := range []time.Duration{48 * time.Hour, time.Hour} {
		deadline := time.Now().UTC().Add(ahead).Truncate(time.Second)
		rec := r.call("PATCH", "/api/v1/tournaments/"+id+"/rounds/1", fmt.Sprintf(`{"deadline":%q}`, deadline.Format(time.RFC3339)), r.organizer)
		wantDocumented(t, rec, "PATCH", "/api/v1/tournaments/{id}/rounds/{number}", 200)
		got := decode[struct {
			Number   int        `json:"number"`
			Status   string     `json:"status"`
			Deadline *time.Time `json:"deadline"`
		}](t, rec)
		if got.Number != 1 || got.Status != "running" || got.Deadline == nil || !got.Deadline.Equal(deadline) {
			t.Fatalf("round after moving its deadline %v ahead = %+v; want round 1 running until %v", ahead, got, deadline)
		}
		task := fmt.Sprintf("deadline:%s:1:%d", id, deadline.Unix())
		if info, err := ins.GetTaskInfo(workers.QueueSchedule, task); err != nil || !info.NextProcessAt.Equal(deadline) {
			t.Fatalf("task %s: %+v, %v; want it scheduled at %v", task, info, err, deadline)
		}
	}
}

// Every refusal of a moved deadline is a problem naming what is at fault,
// listed in the API's document, and changes nothing.
func TestAMovedDeadlineIsRefusedNamingTheField(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.runningTournament(t)
	_, stranger := r.user("stranger", false)
	in := func(d time.Duration) string {
		return fmt.Sprintf(`{"deadline":%q}`, time.Now().UTC().Add(d).Format(time.RFC3339))
	}
	const path = "/api/v1/tournaments/{id}/rounds/{number}"
	for _, tc := range []struct {
		name, round, body, token string
		status                   int
		field                    string
	}{
		{"a deadline in the past", "1", in(-time.Minute), r.organizer, 422, "deadline"},
		{"no deadline", "1", `{}`, r.organizer, 400, "deadline"},
		{"a null deadline", "1", `{"deadline":null}`, r.organizer, 400, "deadline"},
		{"a deadline that is no time", "1", `{"deadline":"tomorrow"}`, r.organizer, 400, "deadline"},
		{"a deadline in year 9999", "1", `{"deadline":"9999-12-31T23:59:59Z"}`, r.organizer, 400, "deadline"},
		{"a field the request does not take", "1", `{"deadline":"2030-01-01T00:00:00Z","starts_at":"2030-01-01T00:00:00Z"}`, r.organizer, 400, "starts_at"},
		{"a round not scheduled", "2", in(time.Hour), r.organizer, 404, ""},
		{"round 0", "0", in(time.Hour), r.organizer, 404, ""},
		{"a round past 32 bits", "2147483648", in(time.Hour), r.organizer, 404, ""},
		{"a round that is no number", "first", in(time.Hour), r.organizer, 404, ""},
		{"someone outside the club", "1", in(time.Hour), stranger, 403, ""},
		{"no one signed in", "1", in(time.Hour), "", 401, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := r.call("PATCH", "/api/v1/tournaments/"+id+"/rounds/"+tc.round, tc.body, tc.token)
			wantDocumented(t, rec, "PATCH", path, tc.status)
			wantProblem(t, rec, tc.status, tc.field)
		})
	}
	rounds := decode[struct {
		Rounds []struct {
			Deadline *time.Time `json:"deadline"`
		} `json:"rounds"`
	}](t, r.call("GET", "/api/v1/tournaments/"+id+"/rounds", "", ""))
	if len(rounds.Rounds) != 1 || rounds.Rounds[0].Deadline != nil {
		t.Fatalf("rounds after the refusals: %+v; want round 1 still without a deadline", rounds.Rounds)
	}
}

// A round started 10 s after its scheduled start (the organizer started
// the tournament late) keeps its planned hour: the rounds view gives the
// deadline moved later by 10 s and the planned one, and the calendar ends
// the round's event at the moved deadline, a revision (SEQUENCE:1) stamped
// when the round started, so that subscribed calendars take it.
func TestARoundStartedLateShowsItsMovedDeadlineInTheCalendar(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, "")
	for _, name := range []string{"A", "B"} {
		if rec := r.call("POST", "/api/v1/tournaments/"+id+"/entries", `{"name":"`+name+`","members":[{"bot":"random"}]}`, r.organizer); rec.Code != 201 {
			t.Fatalf("entry: %d %s", rec.Code, rec.Body)
		}
	}
	start := time.Now().UTC().Add(-10 * time.Second).Truncate(time.Second)
	planned := start.Add(time.Hour)
	body := fmt.Sprintf(`{"rounds":[{"number":1,"starts_at":%q,"deadline":%q}]}`, start.Format(time.RFC3339), planned.Format(time.RFC3339))
	if rec := r.call("POST", "/api/v1/tournaments/"+id+"/rounds", body, r.organizer); rec.Code != 200 {
		t.Fatalf("schedule: %d %s", rec.Code, rec.Body)
	}
	if rec := r.call("PATCH", "/api/v1/tournaments/"+id, `{"status":"running"}`, r.organizer); rec.Code != 200 {
		t.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	rec := r.call("GET", "/api/v1/tournaments/"+id+"/rounds", "", "")
	wantDocumented(t, rec, "GET", "/api/v1/tournaments/{id}/rounds", 200)
	rounds := decode[struct {
		Rounds []struct {
			StartedAt       *time.Time `json:"started_at"`
			Deadline        *time.Time `json:"deadline"`
			PlannedDeadline *time.Time `json:"planned_deadline"`
		} `json:"rounds"`
	}](t, rec).Rounds
	if len(rounds) != 1 || rounds[0].StartedAt == nil {
		t.Fatalf("rounds %+v; want round 1 started", rounds)
	}
	rd := rounds[0]
	late := rd.StartedAt.Sub(start).Truncate(time.Second)
	moved := planned.Add(late)
	if late < 10*time.Second || rd.Deadline == nil || !rd.Deadline.Equal(moved) || rd.PlannedDeadline == nil || !rd.PlannedDeadline.Equal(planned) {
		t.Fatalf("round started %v late: deadline %v, planned %v; want %v, planned %v", late, rd.Deadline, rd.PlannedDeadline, moved, planned)
	}
	stamp := func(at time.Time) string { return at.UTC().Format("20060102T150405Z") }
	ics := r.call("GET", "/api/v1/tournaments/"+id+"/calendar.ics", "", "").Body.String()
	for _, want := range []string{"DTSTART:" + stamp(*rd.StartedAt) + "\r\n", "DTEND:" + stamp(moved) + "\r\n",
		"SEQUENCE:1\r\n", "DTSTAMP:" + stamp(*rd.StartedAt) + "\r\n"} {
		if !strings.Contains(ics, want) {
			t.Errorf("calendar without %q:\n%s", want, ics)
		}
	}
}

// An organizer's change to a round's times after it was published in the
// calendar (rescheduled, its deadline moved) changed DTSTART or DTEND but
// not SEQUENCE, so subscribed calendars could keep the old times. Each
// change is now a revision, stamped when it was made; scheduling the same
// times again is none.
func TestAnOrganizersChangeToARoundsTimesIsARevisionInTheCalendar(t *testing.T) {
	r := newCompetitionRig(t)
	stamp := func(at time.Time) string { return at.UTC().Format("20060102T150405Z") }
	calendar := func(id string) string {
		t.Helper()
		return r.call("GET", "/api/v1/tournaments/"+id+"/calendar.ics", "", "").Body.String()
	}
	wantIn := func(ics string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(ics, w+"\r\n") {
				t.Errorf("calendar without %q:\n%s", w, ics)
			}
		}
	}
	schedule := func(id string, start time.Time) {
		t.Helper()
		body := fmt.Sprintf(`{"rounds":[{"number":1,"starts_at":%q,"deadline":%q}]}`, start.Format(time.RFC3339), start.Add(time.Hour).Format(time.RFC3339))
		if rec := r.call("POST", "/api/v1/tournaments/"+id+"/rounds", body, r.organizer); rec.Code != 200 {
			t.Fatalf("schedule: %d %s", rec.Code, rec.Body)
		}
	}

	id := r.tournament(t, "")
	first := time.Now().UTC().Add(24 * time.Hour).Truncate(time.Second)
	schedule(id, first)
	if ics := calendar(id); strings.Contains(ics, "SEQUENCE:") {
		t.Fatalf("a round as first scheduled has a revision:\n%s", ics)
	}
	schedule(id, first) // the same times: no change
	if ics := calendar(id); strings.Contains(ics, "SEQUENCE:") {
		t.Fatalf("scheduling the same times again made a revision:\n%s", ics)
	}
	before := time.Now().UTC().Truncate(time.Second)
	second := first.Add(2 * time.Hour)
	schedule(id, second)
	ics := calendar(id)
	wantIn(ics, "SEQUENCE:1", "DTSTART:"+stamp(second), "DTEND:"+stamp(second.Add(time.Hour)))
	if _, rest, _ := strings.Cut(ics, "DTSTAMP:"); len(rest) < 16 || rest[:16] < stamp(before) {
		t.Errorf("the revision is stamped before the round moved (%s):\n%s", stamp(before), ics)
	}

	// the deadline of a round in play, moved twice to one time
	id = r.runningTournament(t)
	deadline := time.Now().UTC().Add(48 * time.Hour).Truncate(time.Second)
	for range 2 {
		if rec := r.call("PATCH", "/api/v1/tournaments/"+id+"/rounds/1", fmt.Sprintf(`{"deadline":%q}`, deadline.Format(time.RFC3339)), r.organizer); rec.Code != 200 {
			t.Fatalf("move the deadline: %d %s", rec.Code, rec.Body)
		}
	}
	wantIn(calendar(id), "SEQUENCE:1", "DTEND:"+stamp(deadline))
}

// A tournament result a fill-in bot played for a player who left read, in
// the rounds, as the player's own (the web app read every finished game
// to find out): each match says which entries a bot stood in for, with
// the games and the players, and says nothing of a seat its player kept.
func TestTheRoundsNameTheEntriesAFillInBotStoodIn(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, "")
	people := map[string]string{}
	for _, name := range []string{"eve", "hank"} {
		uid, tok := r.user(name, false)
		if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')", r.clubID, uid).Error; err != nil {
			t.Fatal(err)
		}
		if rec := r.call("POST", "/api/v1/tournaments/"+id+"/entries", fmt.Sprintf(`{"members":[{"user":%q}]}`, uid), tok); rec.Code != 201 {
			t.Fatalf("entry: %d %s", rec.Code, rec.Body)
		}
		people[name] = tok
		people[name+"-id"] = uid
	}
	if rec := r.call("PATCH", "/api/v1/tournaments/"+id, `{"status":"running"}`, r.organizer); rec.Code != 200 {
		t.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	game := r.gameInPlay(t, id)
	type standIns struct {
		Rounds []struct {
			Matches []struct {
				StandIns []struct {
					EntryID string   `json:"entry_id"`
					Games   []string `json:"games"`
					Players []struct {
						User     string `json:"user"`
						Username string `json:"username"`
					} `json:"players"`
				} `json:"stand_ins"`
			} `json:"matches"`
		} `json:"rounds"`
	}
	rec := r.call("GET", "/api/v1/tournaments/"+id+"/rounds", "", "")
	wantDocumented(t, rec, "GET", "/api/v1/tournaments/{id}/rounds", 200)
	if !strings.Contains(rec.Body.String(), `"stand_ins":[]`) {
		t.Fatalf("rounds before anyone left: %s; want stand_ins empty", rec.Body)
	}
	// hank leaves (the rig serves no games: his seat is given to a fill-in bot as leaving does)
	if err := r.db.Gorm.Exec("UPDATE game_seats SET bot_level = 'greedy', filled_by_bot = true, abandoned = true WHERE game_id = ? AND user_id = ?",
		game, people["hank-id"]).Error; err != nil {
		t.Fatal(err)
	}
	got := decode[standIns](t, r.call("GET", "/api/v1/tournaments/"+id+"/rounds", "", ""))
	si := got.Rounds[0].Matches[0].StandIns
	if len(si) != 1 || si[0].EntryID == "" || len(si[0].Games) != 1 || si[0].Games[0] != game ||
		len(si[0].Players) != 1 || si[0].Players[0].User != people["hank-id"] || si[0].Players[0].Username != "hank" {
		t.Fatalf("stand-ins after hank left: %+v; want hank's entry alone, in game %s", si, game)
	}
}

// GET /users/{id}/tournaments gives the entry's own next step: in a final
// being played, the match and its game to play (entry_match), and no next
// round (the tournament's next_round was whoever's it was).
func TestAUsersTournamentsGiveTheEntrysMatchBeingPlayed(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, "")
	uid, tok := r.user("eve", false)
	for i, name := range []string{"eve", "hank"} {
		u, k := uid, tok
		if i == 1 {
			u, k = r.user(name, false)
		}
		if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')", r.clubID, u).Error; err != nil {
			t.Fatal(err)
		}
		if rec := r.call("POST", "/api/v1/tournaments/"+id+"/entries", fmt.Sprintf(`{"members":[{"user":%q}]}`, u), k); rec.Code != 201 {
			t.Fatalf("entry: %d %s", rec.Code, rec.Body)
		}
	}
	if rec := r.call("PATCH", "/api/v1/tournaments/"+id, `{"status":"running"}`, r.organizer); rec.Code != 200 {
		t.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	game := r.gameInPlay(t, id)
	rec := r.call("GET", "/api/v1/users/"+uid+"/tournaments", "", tok)
	wantDocumented(t, rec, "GET", "/api/v1/users/{id}/tournaments", 200)
	got := decode[struct {
		Items []struct {
			EntryMatch *struct {
				Round  int    `json:"round"`
				Status string `json:"status"`
				GameID string `json:"game_id"`
			} `json:"entry_match"`
			EntryNextRound *struct{} `json:"entry_next_round"`
			KnockedOut     bool      `json:"knocked_out"`
		} `json:"items"`
	}](t, rec)
	if len(got.Items) != 1 {
		t.Fatalf("items: %s; want the one tournament", rec.Body)
	}
	it := got.Items[0]
	if it.EntryMatch == nil || it.EntryMatch.Round != 1 || it.EntryMatch.Status != "playing" || it.EntryMatch.GameID != game {
		t.Errorf("entry_match: %s; want round 1 being played, game %s", rec.Body, game)
	}
	if it.EntryNextRound != nil || it.KnockedOut {
		t.Errorf("%s: want no next round after the final, and not knocked out", rec.Body)
	}
}
