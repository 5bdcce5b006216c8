package competition

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGroupsSnakeSeeding(t *testing.T) {
	groups, err := Groups(makeEntries(10), 3)
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, g := range groups {
		var names []string
		for _, e := range g {
			names = append(names, e.ID)
		}
		got = append(got, names)
	}
	want := [][]string{
		{"e01", "e06", "e07"},
		{"e02", "e05", "e08"},
		{"e03", "e04", "e09", "e10"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("groups (-want +got):\n%s", diff)
	}
}

func TestGroupName(t *testing.T) {
	for i, want := range map[int]string{0: "A", 1: "B", 25: "Z", 26: "AA", 27: "AB", 52: "BA"} {
		if got := GroupName(i); got != want {
			t.Errorf("GroupName(%d): got %q, want %q", i, got, want)
		}
	}
}

// playGroupStage plays every round of the group stage, the better seed
// winning every match, and returns the results.
func playGroupStage(t *testing.T, c Config, entries []Entry) []Result {
	t.Helper()
	seed := map[string]int{}
	for i, e := range SeedOrder(entries) {
		seed[e.ID] = i
	}
	var results []Result
	for round := 1; ; round++ {
		rd, err := NextRound(c, entries, results, round)
		if errors.Is(err, ErrState) {
			return results
		}
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, ByeResults(rd)...)
		for _, m := range rd.Matches {
			best := slices.MinFunc(m.Entries, func(a, b string) int { return seed[a] - seed[b] })
			results = append(results, Result{Round: round, Match: m.ID, Entries: m.Entries, Winner: best})
		}
	}
}

func TestGroupsThenPlayoffs(t *testing.T) {
	tests := []struct {
		name      string
		config    Config
		entries   int
		wantFirst [][]string // first-round playoff matches, as entry IDs
	}{
		{
			name:    "two groups, two advance: winners meet the other group's runner-up",
			config:  Config{Format: FormatGroupsPlayoffs, MatchSize: 2, Groups: 2, Advance: 2},
			entries: 8,
			// A: e01 e04 e05 e08; B: e02 e03 e06 e07
			wantFirst: [][]string{{"e01", "e03"}, {"e02", "e04"}},
		},
		{
			name:    "four groups, two advance",
			config:  Config{Format: FormatGroupsPlayoffs, MatchSize: 2, Groups: 4, Advance: 2},
			entries: 16,
			// winners e01–e04, runners-up e08 (A) e07 (B) e06 (C) e05 (D)
			wantFirst: [][]string{{"e01", "e05"}, {"e04", "e08"}, {"e02", "e06"}, {"e03", "e07"}},
		},
		{
			name:      "three groups of three-team matches, one advances to a final",
			config:    Config{Format: FormatGroupsPlayoffs, MatchSize: 3, Groups: 3, Advance: 1},
			entries:   9,
			wantFirst: [][]string{{"e01", "e02", "e03"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entries := makeEntries(tt.entries)
			if _, err := Playoffs(tt.config, entries, nil); !errors.Is(err, ErrState) {
				t.Errorf("playoffs before the groups finish: got %v, want ErrState", err)
			}
			results := playGroupStage(t, tt.config, entries)
			tables, err := GroupStandings(tt.config, entries, results)
			if err != nil {
				t.Fatal(err)
			}
			for _, tb := range tables {
				if !tb.Complete {
					t.Errorf("group %s not complete after every round", tb.Group)
				}
			}
			b, err := Playoffs(tt.config, entries, results)
			if err != nil {
				t.Fatal(err)
			}
			var got [][]string
			for _, id := range b.Rounds[0].Matches {
				m, _ := b.Match(id)
				es := m.Entries()
				slices.Sort(es)
				got = append(got, es)
			}
			if diff := cmp.Diff(tt.wantFirst, got); diff != "" {
				t.Errorf("first playoff round (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPlayoffsKeepGroupMatesApartInTheFirstRound(t *testing.T) {
	for groups := 2; groups <= 8; groups++ {
		for advance := 1; advance <= 4; advance++ {
			c := Config{Format: FormatGroupsPlayoffs, MatchSize: 2, Groups: groups, Advance: advance}
			entries := makeEntries(groups * 4)
			results := playGroupStage(t, c, entries)
			b, err := Playoffs(c, entries, results)
			if err != nil {
				t.Fatal(err)
			}
			group := map[string]int{}
			gs, _ := Groups(entries, groups)
			for gi, g := range gs {
				for _, e := range g {
					group[e.ID] = gi
				}
			}
			for _, id := range b.Rounds[0].Matches {
				m, _ := b.Match(id)
				if es := m.Entries(); len(es) == 2 && group[es[0]] == group[es[1]] && groups > 1 {
					t.Errorf("%d groups, %d advance: %s pairs group-mates %v", groups, advance, id, es)
				}
			}
		}
	}
}

func TestNextRoundRoundRobin(t *testing.T) {
	c := Config{Format: FormatRoundRobin, MatchSize: 3}
	entries := makeEntries(9)
	for round := 1; round <= 4; round++ {
		rd, err := NextRound(c, entries, nil, round)
		if err != nil {
			t.Fatal(err)
		}
		if len(rd.Matches) != 3 || len(rd.Byes) != 0 || rd.Matches[0].ID != fmt.Sprintf("R%d-1", round) {
			t.Errorf("round %d got %+v, want three matches R%d-1…", round, rd, round)
		}
	}
	if _, err := NextRound(c, entries, nil, 5); !errors.Is(err, ErrState) {
		t.Errorf("round 5 of 4: got %v, want ErrState", err)
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name    string
		config  Config
		entries int
		ok      bool
	}{
		{"two-team Swiss", Config{Format: FormatSwiss, MatchSize: 2}, 10, true},
		{"six-seat Stacks round robin", Config{Format: FormatRoundRobin, MatchSize: 6}, 12, true},
		{"seven seats is too many", Config{Format: FormatRoundRobin, MatchSize: 7}, 12, false},
		{"fewer entries than seats", Config{Format: FormatSwiss, MatchSize: 3}, 2, false},
		{"double elimination of three", Config{Format: FormatDoubleElimination, MatchSize: 3}, 9, false},
		{"third place needs matches of two", Config{Format: FormatSingleElimination, MatchSize: 3, ThirdPlace: true}, 9, false},
		{"more advancing than a group holds", Config{Format: FormatGroupsPlayoffs, MatchSize: 2, Groups: 2, Advance: 5}, 8, false},
		{"unknown tie-break", Config{Format: FormatSwiss, MatchSize: 2, TieBreaks: []TieBreak{"coin"}}, 8, false},
		{"unknown format", Config{Format: "ladder", MatchSize: 2}, 8, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.config.Validate(tt.entries)
			if tt.ok && err != nil || !tt.ok && !errors.Is(err, ErrInvalid) {
				t.Errorf("got %v, want ok %v", err, tt.ok)
			}
		})
	}
}

func TestSettingsNoEntriesCanMendAreNamed(t *testing.T) {
	manyTieBreaks := make([]TieBreak, 3000)
	for i := range manyTieBreaks {
		manyTieBreaks[i] = TieWins
	}
	tests := []struct {
		name   string
		config Config
		want   []string // the settings named, in order
	}{
		{"a plain knockout", Config{Format: FormatSingleElimination, MatchSize: 3}, nil},
		{"negative Swiss rounds", Config{Format: FormatSwiss, MatchSize: 2, Rounds: -1}, []string{"rounds"}},
		{"a Swiss of 100,000 rounds", Config{Format: FormatSwiss, MatchSize: 2, Rounds: 100000}, []string{"rounds"}},
		{"groups-playoffs without groups or advance", Config{Format: FormatGroupsPlayoffs, MatchSize: 2}, []string{"groups", "advance"}},
		{"negative groups and advance", Config{Format: FormatRoundRobin, MatchSize: 2, Groups: -1, Advance: -1}, []string{"groups", "advance"}},
		{"absurd groups and advance", Config{Format: FormatGroupsPlayoffs, MatchSize: 2, Groups: 1e12, Advance: 1e12}, []string{"groups", "advance"}},
		{"one group advancing one", Config{Format: FormatGroupsPlayoffs, MatchSize: 2, Groups: 1, Advance: 1}, []string{"advance"}},
		{"double elimination of three", Config{Format: FormatDoubleElimination, MatchSize: 3}, []string{"match_size"}},
		{"third place in matches of three", Config{Format: FormatSingleElimination, MatchSize: 3, ThirdPlace: true}, []string{"third_place"}},
		{"a tie-break twice", Config{Format: FormatSwiss, MatchSize: 2, TieBreaks: []TieBreak{TieWins, TieBuchholz, TieWins}}, []string{"tie_breaks[2]"}},
		{"thousands of tie-breaks: one error", Config{Format: FormatSwiss, MatchSize: 2, TieBreaks: manyTieBreaks}, []string{"tie_breaks"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, e := range tt.config.CheckSettings() {
				got = append(got, e.Setting)
				if !errors.Is(e, ErrInvalid) {
					t.Errorf("%v is not ErrInvalid", e)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("settings named (-want +got):\n%s", diff)
			}
			if err := tt.config.Validate(100); len(tt.want) > 0 && !errors.Is(err, ErrInvalid) {
				t.Errorf("Validate(100) = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestSeedOrder(t *testing.T) {
	entries := []Entry{
		{ID: "rated-low", Rating: 1400},
		{ID: "seed-2", Seed: 2},
		{ID: "rated-high", Rating: 1800},
		{ID: "seed-1", Seed: 1, Rating: 1000},
		{ID: "rated-tie-b", Rating: 1500},
		{ID: "rated-tie-a", Rating: 1500},
	}
	var got []string
	for _, e := range SeedOrder(entries) {
		got = append(got, e.ID)
	}
	want := []string{"seed-1", "seed-2", "rated-high", "rated-tie-a", "rated-tie-b", "rated-low"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}
