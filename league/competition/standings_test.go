package competition

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func ids(names ...string) []Entry {
	out := make([]Entry, len(names))
	for i, n := range names {
		out[i] = Entry{ID: n, Seed: i + 1}
	}
	return out
}

func win(round int, winner string, others ...string) Result {
	return Result{Round: round, Entries: append([]string{winner}, others...), Winner: winner}
}

func draw(round int, entries ...string) Result {
	return Result{Round: round, Entries: entries}
}

func bye(round int, e string) Result {
	return Result{Round: round, Entries: []string{e}, Bye: true}
}

// order lists (rank, entry) of standings rows.
type ranked struct {
	Rank  int
	Entry string
}

func order(rows []Row) []ranked {
	out := make([]ranked, len(rows))
	for i, r := range rows {
		out[i] = ranked{r.Rank, r.Entry}
	}
	return out
}

func TestStandings(t *testing.T) {
	swiss := DefaultPoints(FormatSwiss, 2)
	tests := []struct {
		name      string
		entries   []Entry
		results   []Result
		points    Points
		tieBreaks []TieBreak
		want      []ranked
	}{
		{
			name:    "points rank first",
			entries: ids("a", "b", "c", "d"),
			results: []Result{
				win(1, "a", "b"), draw(1, "c", "d"),
				win(2, "a", "c"), win(2, "b", "d"),
				draw(3, "a", "d"), win(3, "b", "c"),
			},
			points: swiss,
			want:   []ranked{{1, "a"}, {2, "b"}, {3, "d"}, {4, "c"}},
		},
		{
			name:    "head-to-head breaks two-way ties",
			entries: ids("a", "b", "c", "d"),
			results: []Result{
				win(1, "a", "b"), win(1, "c", "d"),
				win(2, "a", "c"), win(2, "b", "d"),
				win(3, "d", "a"), win(3, "b", "c"),
			},
			points:    swiss,
			tieBreaks: []TieBreak{TieHeadToHead},
			want:      []ranked{{1, "a"}, {2, "b"}, {3, "c"}, {4, "d"}},
		},
		{
			name:    "a circular three-way tie shares the rank, in seed order",
			entries: ids("a", "b", "c"),
			results: []Result{
				win(1, "a", "b"), win(2, "b", "c"), win(3, "c", "a"),
			},
			points:    swiss,
			tieBreaks: []TieBreak{TieHeadToHead, TieSonnebornBerger, TieWins},
			want:      []ranked{{1, "a"}, {1, "b"}, {1, "c"}},
		},
		{
			name:    "Buchholz prefers the harder opponents",
			entries: ids("a", "b", "c", "d", "e", "f"),
			results: []Result{
				win(1, "a", "b"), win(1, "c", "d"), win(1, "e", "f"),
				win(2, "a", "c"), win(2, "e", "b"), win(2, "d", "f"),
			},
			points:    swiss,
			tieBreaks: []TieBreak{TieBuchholz},
			want:      []ranked{{1, "a"}, {2, "e"}, {3, "c"}, {4, "d"}, {5, "b"}, {6, "f"}},
		},
		{
			name:    "sequences break a tie left by every other criterion",
			entries: ids("x", "y", "z", "w"),
			results: []Result{
				{Round: 1, Entries: []string{"x", "y", "z"}, Winner: "x", Sequences: []int{2, 0, 1}},
				{Round: 2, Entries: []string{"y", "z", "w"}, Winner: "w", Sequences: []int{0, 1, 2}},
				{Round: 3, Entries: []string{"x", "z", "w"}, Sequences: []int{1, 1, 2}},
			},
			points:    DefaultPoints(FormatRoundRobin, 3),
			tieBreaks: []TieBreak{TieBuchholz, TieSonnebornBerger, TieHeadToHead, TieWins, TieSequences},
			want:      []ranked{{1, "w"}, {2, "x"}, {3, "z"}, {4, "y"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, err := Standings(tt.entries, tt.results, tt.points, tt.tieBreaks)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, order(rows)); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStandingsValues checks every tie-break value against a hand count:
//
//	round 1: a beat b, c drew d; round 2: a beat c, b beat d;
//	round 3: a drew d, b beat c.
//	points (2/1/0): a 5, b 4, d 2, c 1.
//	Buchholz: a 4+1+2 = 7, b 5+2+1 = 8, d 1+4+5 = 10, c 2+5+4 = 11.
//	median: drop the best and worst: a 2, b 2, d 4, c 4.
//	Sonneborn-Berger: a 4+1+½·2 = 6, b 2+1 = 3, d ½·1+½·5 = 3, c ½·2 = 1.
func TestStandingsValues(t *testing.T) {
	results := []Result{
		win(1, "a", "b"), draw(1, "c", "d"),
		win(2, "a", "c"), win(2, "b", "d"),
		draw(3, "a", "d"), win(3, "b", "c"),
	}
	tbs := []TieBreak{TieBuchholz, TieMedianBuchholz, TieSonnebornBerger, TieWins}
	rows, err := Standings(ids("a", "b", "c", "d"), results, DefaultPoints(FormatSwiss, 2), tbs)
	if err != nil {
		t.Fatal(err)
	}
	values := func(v ...float64) []TieBreakValue {
		out := make([]TieBreakValue, len(v))
		for i := range v {
			out[i] = TieBreakValue{TieBreak: tbs[i], Value: v[i]}
		}
		return out
	}
	want := []Row{
		{Rank: 1, Entry: "a", Played: 3, Wins: 2, Draws: 1, Points: 5, Values: values(7, 2, 6, 2)},
		{Rank: 2, Entry: "b", Played: 3, Wins: 2, Losses: 1, Points: 4, Values: values(8, 2, 3, 2)},
		{Rank: 3, Entry: "d", Played: 3, Draws: 2, Losses: 1, Points: 2, Values: values(10, 4, 3, 0)},
		{Rank: 4, Entry: "c", Played: 3, Draws: 1, Losses: 2, Points: 1, Values: values(11, 4, 1, 0)},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

func TestStandingsByeIsAVirtualOpponentInBuchholzOnly(t *testing.T) {
	results := []Result{win(1, "a", "b"), bye(1, "c"), win(2, "c", "a"), bye(2, "b")}
	tbs := []TieBreak{TieBuchholz, TieSonnebornBerger}
	rows, err := Standings(ids("a", "b", "c"), results, DefaultPoints(FormatSwiss, 2), tbs)
	if err != nil {
		t.Fatal(err)
	}
	// points: a 2, b 2 (bye), c 4 (bye + win); a bye's stand-in scores the
	// entry's own points, at most a draw a round: 2 after two rounds
	got := map[string][]TieBreakValue{}
	for _, r := range rows {
		got[r.Entry] = r.Values
	}
	want := map[string][]TieBreakValue{
		"a": {{TieBuchholz, 2 + 4}, {TieSonnebornBerger, 2}},
		"b": {{TieBuchholz, 2 + 2}, {TieSonnebornBerger, 0}}, // a, then itself for the bye
		"c": {{TieBuchholz, 2 + 2}, {TieSonnebornBerger, 2}}, // itself for the bye (4, capped at 2), then a
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
}

// A bye counted in Buchholz as an opponent with the entry's own points,
// however many: e, with a round-1 bye and two wins over entries of 0 and 2
// points, had Buchholz 2 + 6 = 8 and ranked above a, level on 6 points,
// whose three opponents had 2 each (6). We cap the stand-in at a draw a
// round, 3 here (as FIDE's current text does too, over all the rounds):
// e's Buchholz is 5, below a's.
func TestStandingsByeCountsAtMostADrawARoundInBuchholz(t *testing.T) {
	results := []Result{
		bye(1, "e"), win(1, "a", "b"), win(1, "c", "d"), win(1, "f", "g"),
		bye(2, "d"), win(2, "e", "g"), win(2, "a", "f"), win(2, "c", "b"),
		bye(3, "b"), win(3, "a", "d"), win(3, "e", "f"), win(3, "c", "g"),
	}
	rows, err := Standings(ids("a", "b", "c", "d", "e", "f", "g"), results, DefaultPoints(FormatSwiss, 2), DefaultTieBreaks(FormatSwiss))
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		Rank     int
		Entry    string
		Points   float64
		Buchholz float64
	}
	var got []line
	for _, r := range rows[:3] {
		got = append(got, line{r.Rank, r.Entry, r.Points, r.Values[0].Value})
	}
	want := []line{{1, "a", 6, 2 + 2 + 2}, {2, "e", 6, 0 + 2 + 3}, {3, "c", 6, 2 + 2 + 0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("top three (-want +got):\n%s", diff)
	}
}

func TestStandingsThreeTeamPoints(t *testing.T) {
	results := []Result{
		win(1, "x", "y", "z"),
		draw(2, "x", "y", "z"),
	}
	rows, err := Standings(ids("x", "y", "z"), results, DefaultPoints(FormatRoundRobin, 3), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, r := range rows {
		got[r.Entry] = r.Points
	}
	if diff := cmp.Diff(map[string]float64{"x": 3, "y": 1, "z": 1}, got); diff != "" {
		t.Errorf("points (-want +got):\n%s", diff)
	}
}

// A match of three drawn between two entries that won a game each, the
// third having won none: the two share the draw, the third loses it, and
// in the tie-breaks' meetings each of the two beat it (every entry scored
// the draw's point before).
func TestStandingsAMatchOfThreeDrawnAtTheTopBeatsTheEntryBelow(t *testing.T) {
	results := []Result{{Round: 1, Entries: []string{"x", "y", "z"}, Beaten: []string{"z"}}}
	rows, err := Standings(ids("x", "y", "z"), results, DefaultPoints(FormatRoundRobin, 3), []TieBreak{TieSonnebornBerger})
	if err != nil {
		t.Fatal(err)
	}
	type record struct {
		W, D, L int
		Points  float64
	}
	got := map[string]record{}
	for _, r := range rows {
		got[r.Entry] = record{r.Wins, r.Draws, r.Losses, r.Points}
	}
	want := map[string]record{"x": {0, 1, 0, 1}, "y": {0, 1, 0, 1}, "z": {0, 0, 1, 0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]ranked{{1, "x"}, {1, "y"}, {3, "z"}}, order(rows)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestStandingsRejectsBadResults(t *testing.T) {
	tests := []struct {
		name   string
		result Result
	}{
		{"unknown entry", win(1, "a", "nobody")},
		{"winner who did not play", Result{Round: 1, Entries: []string{"a", "b"}, Winner: "c"}},
		{"entry twice", Result{Round: 1, Entries: []string{"a", "a"}}},
		{"bye of two", Result{Round: 1, Entries: []string{"a", "b"}, Bye: true}},
		{"sequence counts that do not fit", Result{Round: 1, Entries: []string{"a", "b"}, Sequences: []int{1}}},
		{"forfeited by an entry not in it", Result{Round: 1, Entries: []string{"a", "b"}, Winner: "a", Forfeited: []string{"c"}}},
		{"beaten in a match won", Result{Round: 1, Entries: []string{"a", "b", "c"}, Winner: "a", Beaten: []string{"c"}}},
		{"beaten without playing", Result{Round: 1, Entries: []string{"a", "b"}, Beaten: []string{"c"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Standings(ids("a", "b", "c"), []Result{tt.result}, DefaultPoints(FormatSwiss, 2), nil)
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("got %v, want ErrInvalid", err)
			}
		})
	}
}

// w lost to a in round 1 and withdrew. Counted at its 0 points, w made a's
// Buchholz 8 against d's 10, and d ranked above a, level on points and
// every other tie-break, only because a's first opponent left. In a Swiss,
// FIDE counts the rounds a withdrawn entry missed as draws (C.07 art. 16):
// w counts 0 + 1 + 1 and a and d share second place.
func TestStandingsSwissCountsAWithdrawnEntrysMissedRoundsAsDraws(t *testing.T) {
	entries := ids("a", "b", "c", "d", "x", "w")
	entries[5].Withdrawn = true
	results := []Result{
		win(1, "a", "w"), win(1, "d", "c"), win(1, "b", "x"),
		win(2, "b", "a"), win(2, "d", "x"), bye(2, "c"),
		win(3, "b", "d"), win(3, "a", "c"), bye(3, "x"),
	}
	type line struct {
		Rank            int
		Entry           string
		Buchholz, Berge float64
	}
	tally := func(c Config) []line {
		t.Helper()
		rows, err := StandingsFor(c, entries, results)
		if err != nil {
			t.Fatal(err)
		}
		var got []line
		for _, r := range rows[1:3] {
			got = append(got, line{r.Rank, r.Entry, r.Values[0].Value, r.Values[2].Value})
		}
		return got
	}
	swiss := Config{Format: FormatSwiss, MatchSize: 2}
	want := []line{{2, "a", 2 + 6 + 2, 2 + 0 + 2}, {2, "d", 2 + 2 + 6, 2 + 2 + 0}}
	if diff := cmp.Diff(want, tally(swiss)); diff != "" {
		t.Errorf("Swiss: second and third (-want +got):\n%s", diff)
	}
	// A round robin keeps a withdrawn entry in its schedule, and its missed
	// meetings are byes for the others: it counts with the points it has.
	rr := Config{Format: FormatRoundRobin, MatchSize: 2, Points: DefaultPoints(FormatSwiss, 2), TieBreaks: DefaultTieBreaks(FormatSwiss)}
	want = []line{{2, "d", 2 + 2 + 6, 2 + 2 + 0}, {3, "a", 0 + 6 + 2, 0 + 0 + 2}}
	if diff := cmp.Diff(want, tally(rr)); diff != "" {
		t.Errorf("round robin: second and third (-want +got):\n%s", diff)
	}
}

// forfeit is a match that loser forfeited, absent: winner won it unplayed.
func forfeit(round int, winner, loser string) Result {
	return Result{Round: round, Entries: []string{winner, loser}, Winner: winner, Forfeited: []string{loser}}
}

// f lost to a over the board in round 1, then forfeited round 2 to b,
// absent. Counted as a played loss, f's 0 points made a's Buchholz and
// Sonneborn-Berger 2 (c) + 0 (f), and b's forfeit win counted f as an
// opponent met, of 0. f's forfeited round is a draw in its opponents'
// tie-breaks (f counts 1: FIDE's rule until 2023, kept here; see the
// package documentation), and, as FIDE counts a participant's own
// unplayed round (C.07 art. 16), b's unplayed meeting is a stand-in with
// b's own points, 2, in Buchholz and nothing in Sonneborn-Berger, as a bye
// is; f's own Buchholz likewise has a stand-in (its 0 points) for the
// round it missed. Points stay as scored.
func TestStandingsCountAForfeitedMatchAsUnplayedInTheTieBreaks(t *testing.T) {
	results := []Result{
		win(1, "a", "f"), win(1, "c", "b"),
		forfeit(2, "b", "f"), win(2, "a", "c"),
	}
	rows, err := Standings(ids("a", "b", "c", "f"), results, DefaultPoints(FormatSwiss, 2), []TieBreak{TieBuchholz, TieSonnebornBerger, TieHeadToHead})
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		Points, Buchholz, Berger float64
		Wins                     int
	}
	got := map[string]line{}
	for _, r := range rows {
		got[r.Entry] = line{r.Points, r.Values[0].Value, r.Values[1].Value, r.Wins}
	}
	want := map[string]line{
		"a": {4, 2 + 1, 2 + 1, 2},
		"b": {2, 2 + 2, 0, 1}, // c, then the stand-in of its forfeit win
		"c": {2, 2 + 4, 2, 1},
		"f": {0, 4 + 0, 0, 0}, // a, then its own stand-in
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("points, Buchholz, Sonneborn-Berger, wins (-want +got):\n%s", diff)
	}
}

// In a match of three that one entry forfeited, the two present played:
// their meeting counts as any other, and only their meetings with the
// absent one are unplayed.
func TestStandingsAThreeTeamForfeitLeavesTheOthersMeetingPlayed(t *testing.T) {
	results := []Result{
		{Round: 1, Entries: []string{"x", "y", "z"}, Winner: "x", Forfeited: []string{"z"}},
		win(2, "z", "y", "x"),
	}
	rows, err := Standings(ids("x", "y", "z"), results, DefaultPoints(FormatSwiss, 3), []TieBreak{TieBuchholz})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, r := range rows {
		got[r.Entry] = r.Values[0].Value
	}
	// points x 2, y 0, z 2; z counts 2 - 0 + 1 = 3 as an opponent; the
	// stand-ins are capped at a draw a round, 2.
	want := map[string]float64{
		"x": 0 + 2 + (0 + 3), // y, its stand-in for z; then y and z
		"y": 2 + 0 + (3 + 2), // x, its stand-in for z (0 points); then z and x
		"z": 2 + 2 + (0 + 2), // its stand-ins for x and y; then y and x
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Buchholz (-want +got):\n%s", diff)
	}
}

// TestSonnebornBergerIsEvenWhenEveryMatchSeatsEveryEntry: in a round robin
// of three entries in matches of three (a Stacks table of three) every
// match seats all of them, and Sonneborn-Berger is arithmetic that cannot
// tell them apart: with W the match wins and no drawn match, each entry's
// value is Win × Σ over pairs of W_a·W_b (here 2 × (2·1 + 2·0 + 1·0) = 4),
// the same for all. With a drawn match it differs, but never between
// entries level on points (they have as many wins, and their records are
// each other's mirror), so it ranks as points do. Not a defect: such a
// table is a free-for-all, and nothing but the results themselves can part
// entries whose results are the same.
func TestSonnebornBergerIsEvenWhenEveryMatchSeatsEveryEntry(t *testing.T) {
	c := Config{Format: FormatRoundRobin, MatchSize: 3, TieBreaks: []TieBreak{TieSonnebornBerger}}
	berger := func(results ...Result) map[string]float64 {
		t.Helper()
		rows, err := StandingsFor(c, ids("x", "y", "z"), results)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]float64{}
		for _, r := range rows {
			got[r.Entry] = r.Values[0].Value
		}
		return got
	}
	got := berger(win(1, "x", "y", "z"), win(2, "x", "y", "z"), win(3, "y", "x", "z"))
	if diff := cmp.Diff(map[string]float64{"x": 4, "y": 4, "z": 4}, got); diff != "" {
		t.Errorf("no draws (-want +got):\n%s", diff)
	}
	// x won one, one was drawn: x 3 points, y and z 1 each. x: 1×(1+1) +
	// ½×(1+1) = 3; y: ½×1 (z, beside it behind x) + ½×(3+1) = 2.5; z alike.
	got = berger(win(1, "x", "y", "z"), draw(2, "x", "y", "z"))
	if diff := cmp.Diff(map[string]float64{"x": 3, "y": 2.5, "z": 2.5}, got); diff != "" {
		t.Errorf("one drawn (-want +got):\n%s", diff)
	}
}

// Tie-break values add up fractions (a bye in a match of three scores ⅓):
// a Sonneborn-Berger of 10 read 9.999999999999998 beside another entry's
// 10, in the JSON and the CSV alike. Every points total and tie-break
// value within 1e-9 of a whole number is that number, over random round
// robins of five entries in triples.
func TestStandingsShowNoFloatingPointNoise(t *testing.T) {
	c := Config{Format: FormatRoundRobin, MatchSize: 3, TieBreaks: []TieBreak{TieSonnebornBerger, TieHeadToHead, TieWins}}
	entries := makeEntries(5)
	sched, err := RoundRobin(entries, 3, false)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 3))
	for trial := range 2000 {
		var results []Result
		for _, round := range sched {
			results = append(results, ByeResults(round)...)
			for _, m := range round.Matches {
				res := Result{Round: round.Number, Entries: m.Entries}
				if k := r.IntN(len(m.Entries) + 1); k < len(m.Entries) {
					res.Winner = m.Entries[k]
				}
				results = append(results, res)
			}
		}
		rows, err := StandingsFor(c, entries, results)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			values := []float64{row.Points}
			for _, v := range row.Values {
				values = append(values, v.Value)
			}
			for _, v := range values {
				if w := math.Round(v); v != w && math.Abs(v-w) < 1e-9 {
					t.Fatalf("trial %d: %s shows %v, want %v", trial, row.Entry, v, w)
				}
			}
		}
	}
}
