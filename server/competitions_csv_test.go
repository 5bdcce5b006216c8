package server

import (
	"encoding/csv"
	"strings"
	"testing"
)

func TestStandingsCSVColumnNamesAreDistinct(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, `"format":"round-robin"`)
	for _, name := range []string{"one", "two"} {
		if rec := r.call("POST", "/api/v1/tournaments/"+id+"/entries", `{"name":"`+name+`","members":[{"bot":"random"}]}`, r.organizer); rec.Code != 201 {
			t.Fatalf("entry %s: %d %s", name, rec.Code, rec.Body)
		}
	}
	rec := r.call("GET", "/api/v1/tournaments/"+id+"/standings.csv", "", r.organizer)
	if rec.Code != 200 {
		t.Fatalf("standings.csv: %d %s", rec.Code, rec.Body)
	}
	header, err := csv.NewReader(strings.NewReader(rec.Body.String())).Read()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, col := range header {
		if seen[col] {
			t.Fatalf("column %q twice in %q", col, header)
		}
		seen[col] = true
	}
	if !seen["wins"] || !seen["tie_break_wins"] || !seen["tie_break_head-to-head"] {
		t.Fatalf("header %q: want the record's wins and the tie-breaks as tie_break_<name>", header)
	}
}
