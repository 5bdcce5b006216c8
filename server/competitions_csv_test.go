package server

import (
	"encoding/csv"
	"strconv"
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

// A tournament's standings and calendar download under its own name: every
// one was standings.csv (calendar.ics), so a second download saved as
// "standings (1).csv", saying nothing of whose it was.
func TestATournamentsDownloadsAreNamedAfterIt(t *testing.T) {
	r := newCompetitionRig(t)
	for _, c := range []struct{ name, csv, ics string }{
		{"Friday Cup #3", `attachment; filename="friday-cup-3-standings.csv"`, `attachment; filename="friday-cup-3-calendar.ics"`},
		{"Coupe d'été", `attachment; filename="standings.csv"; filename*=UTF-8''coupe-d-%C3%A9t%C3%A9-standings.csv`,
			`attachment; filename="calendar.ics"; filename*=UTF-8''coupe-d-%C3%A9t%C3%A9-calendar.ics`},
		{"东京杯", `attachment; filename="standings.csv"; filename*=UTF-8''%E4%B8%9C%E4%BA%AC%E6%9D%AF-standings.csv`,
			`attachment; filename="calendar.ics"; filename*=UTF-8''%E4%B8%9C%E4%BA%AC%E6%9D%AF-calendar.ics`},
		{`"; ---`, `attachment; filename="standings.csv"`, `attachment; filename="calendar.ics"`},
	} {
		id := r.tournament(t, `"name":`+strconv.Quote(c.name))
		for path, want := range map[string]string{"/standings.csv": c.csv, "/calendar.ics": c.ics} {
			rec := r.call("GET", "/api/v1/tournaments/"+id+path, "", "")
			if got := rec.Header().Get("Content-Disposition"); rec.Code != 200 || got != want {
				t.Errorf("%q%s: %d, Content-Disposition %s; want %s", c.name, path, rec.Code, got, want)
			}
		}
	}
	if rec := r.call("GET", "/api/v1/tournaments/00000000-0000-0000-0000-000000000000/standings.csv", "", ""); rec.Code != 404 {
		t.Errorf("an unknown tournament's standings.csv: %d, want 404", rec.Code)
	}
}

// The standings.csv of groups then playoffs did not say which group a row
// was of: once the groups are drawn (at the start) every row gives its
// group and its rank there, as the JSON rows do.
func TestGroupsThenPlayoffsStandingsCSVNamesEachRowsGroup(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, `"format":"groups-playoffs","groups":2,"advance":1`)
	for _, name := range []string{"one", "two", "three", "four"} {
		if rec := r.call("POST", "/api/v1/tournaments/"+id+"/entries", `{"name":"`+name+`","members":[{"bot":"random"}]}`, r.organizer); rec.Code != 201 {
			t.Fatalf("entry %s: %d %s", name, rec.Code, rec.Body)
		}
	}
	for _, row := range r.standingsCSV(t, id) {
		if _, ok := row["group"]; ok {
			t.Fatalf("before the start, row %v names a group; the groups are drawn at the start", row)
		}
	}
	if rec := r.call("PATCH", "/api/v1/tournaments/"+id, `{"status":"running"}`, r.organizer); rec.Code != 200 {
		t.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	groups := map[string]int{}
	for _, row := range r.standingsCSV(t, id) {
		groups[row["group"]]++
		if row["group_rank"] != "1" || row["qualified"] != "false" {
			t.Errorf("row %v: before any result every entry is first in its group, and none has qualified", row)
		}
	}
	if groups["A"] != 2 || groups["B"] != 2 {
		t.Errorf("rows per group %v, want 2 in A and 2 in B", groups)
	}
}

// An entry withdrawn after the start was marked in the JSON standings but
// not in standings.csv, where it read like any other row.
func TestStandingsCSVMarksAWithdrawnEntry(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, `"format":"round-robin"`)
	entries := r.botEntries(t, id, "stays", "leaves", "third")
	if rec := r.call("PATCH", "/api/v1/tournaments/"+id, `{"status":"running"}`, r.organizer); rec.Code != 200 {
		t.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	if rec := r.call("DELETE", "/api/v1/tournaments/"+id+"/entries?entry="+entries["leaves"], "", r.organizer); rec.Code != 204 {
		t.Fatalf("withdraw: %d %s", rec.Code, rec.Body)
	}
	rows := r.standingsCSV(t, id)
	if len(rows) != 3 {
		t.Fatalf("%d rows, want the 3 entries, the withdrawn one too: %v", len(rows), rows)
	}
	for _, row := range rows {
		if got, want := row["withdrawn"], strconv.FormatBool(row["entry"] == "leaves"); got != want {
			t.Errorf("row %v: withdrawn %q, want %s", row, got, want)
		}
	}
}

// standingsCSV reads a tournament's standings.csv, a map of column to
// value per row.
func (r *competitionRig) standingsCSV(t *testing.T, id string) []map[string]string {
	t.Helper()
	rec := r.call("GET", "/api/v1/tournaments/"+id+"/standings.csv", "", "")
	if rec.Code != 200 {
		t.Fatalf("standings.csv: %d %s", rec.Code, rec.Body)
	}
	all, err := csv.NewReader(strings.NewReader(rec.Body.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, rec := range all[1:] {
		row := map[string]string{}
		for i, col := range all[0] {
			row[col] = rec[i]
		}
		out = append(out, row)
	}
	return out
}

// Entry names are written so that a spreadsheet shows them and runs none
// as a formula: a leading =, +, -, @ or apostrophe gets an apostrophe,
// which spreadsheets hide. Without one for the apostrophe, the names "=1"
// and "'=1" both showed as =1.
func TestStandingsCSVNeverWritesANameAsAFormula(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, `"format":"round-robin"`)
	want := map[string]string{
		"=1+1":     "'=1+1",
		"'=1":      "''=1",
		"+cmd":     "'+cmd",
		"-2":       "'-2",
		"@SUM(A1)": "'@SUM(A1)",
		"plain":    "plain",
	}
	for name := range want {
		r.botEntries(t, id, name)
	}
	got := map[string]bool{}
	for _, row := range r.standingsCSV(t, id) {
		got[row["entry"]] = true
	}
	for name, cell := range want {
		if !got[cell] {
			t.Errorf("entry %q: no row reads %q (rows: %v)", name, cell, got)
		}
	}
}

// botEntries enters a random bot under each name and returns the entries'
// IDs by name.
func (r *competitionRig) botEntries(t *testing.T, id string, names ...string) map[string]string {
	t.Helper()
	entries := map[string]string{}
	for _, name := range names {
		rec := r.call("POST", "/api/v1/tournaments/"+id+"/entries", `{"name":`+strconv.Quote(name)+`,"members":[{"bot":"random"}]}`, r.organizer)
		if rec.Code != 201 {
			t.Fatalf("entry %s: %d %s", name, rec.Code, rec.Body)
		}
		entries[name] = decode[struct {
			ID string `json:"id"`
		}](t, rec).ID
	}
	return entries
}
