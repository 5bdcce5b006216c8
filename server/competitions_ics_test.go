package server

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// RFC 5545 (3.1) holds every line of a calendar to 75 octets, the space
// that opens a continuation line included; the calendar folded a long line
// into continuations of 75 octets of text, lines of 76, which a strict
// reader refuses or cuts. A long name (100 three-byte characters, with the
// characters iCalendar escapes) now folds into lines of at most 75 octets,
// none splitting a character, that unfold to the name escaped.
func TestACalendarsLinesAreAtMost75Octets(t *testing.T) {
	r := newCompetitionRig(t)
	name := "Cup; round, one\\" + strings.Repeat("東", 84)
	id := r.tournament(t, `"name":`+strconv.Quote(name))
	rec := r.call("GET", "/api/v1/tournaments/"+id+"/calendar.ics", "", "")
	if rec.Code != 200 {
		t.Fatalf("calendar: %d %s", rec.Code, rec.Body)
	}
	body := rec.Body.String()
	if !strings.HasSuffix(body, "\r\n") {
		t.Fatalf("the calendar does not end with CRLF: %q", body[max(len(body)-20, 0):])
	}
	lines := strings.Split(strings.TrimSuffix(body, "\r\n"), "\r\n")
	for i, l := range lines {
		if len(l) > 75 {
			t.Errorf("line %d is %d octets, more than 75: %q", i+1, len(l), l)
		}
		if !utf8.ValidString(l) {
			t.Errorf("line %d splits a character: %q", i+1, l)
		}
		if strings.ContainsAny(l, "\r\n") {
			t.Errorf("line %d holds a bare line break: %q", i+1, l)
		}
	}
	want := "X-WR-CALNAME:Cup\\; round\\, one\\\\" + strings.Repeat("東", 84)
	if unfolded := strings.ReplaceAll(body, "\r\n ", ""); !strings.Contains(unfolded, want+"\r\n") {
		t.Errorf("the unfolded calendar does not name the tournament %q:\n%s", want, unfolded)
	}
}
