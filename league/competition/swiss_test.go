package competition

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// playRound plays a round with random results: a draw one time in ten.
func playRound(r *rand.Rand, round Round) []Result {
	results := ByeResults(round)
	for _, m := range round.Matches {
		res := Result{Round: round.Number, Match: m.ID, Entries: m.Entries, Sequences: make([]int, len(m.Entries))}
		if r.IntN(10) != 0 {
			w := r.IntN(len(m.Entries))
			res.Winner = m.Entries[w]
			res.Sequences[w] = 2
		}
		results = append(results, res)
	}
	return results
}

// swissLegality rebuilds, independently of the pairing, the graph of legal
// pairs before a round (no rematch; the bye only to an entry without one)
// and answers whether a fully legal pairing exists, with or without a
// given entry taking the bye.
type swissLegality struct {
	ids  []string
	met  map[[2]string]bool
	byes map[string]int
}

func newSwissLegality(entries []Entry, history []Result) swissLegality {
	l := swissLegality{met: map[[2]string]bool{}, byes: map[string]int{}}
	for _, e := range entries {
		l.ids = append(l.ids, e.ID)
	}
	for _, r := range history {
		if r.Bye {
			l.byes[r.Entries[0]]++
			continue
		}
		for _, a := range r.Entries {
			for _, b := range r.Entries {
				if a != b {
					l.met[[2]string{a, b}] = true
				}
			}
		}
	}
	return l
}

// perfect reports whether the entries but skip (if any) can all be paired
// legally, the bye (if their number is odd) going to an entry without one.
func (l swissLegality) perfect(skip string) bool {
	var ids []string
	for _, id := range l.ids {
		if id != skip {
			ids = append(ids, id)
		}
	}
	n := len(ids)
	nv := n + n%2
	adj := make([][]int32, nv)
	for i := range n {
		for j := i + 1; j < n; j++ {
			if !l.met[[2]string{ids[i], ids[j]}] {
				adj[i] = append(adj[i], int32(j))
				adj[j] = append(adj[j], int32(i))
			}
		}
		if n%2 == 1 && l.byes[ids[i]] == 0 {
			adj[i] = append(adj[i], int32(n))
			adj[n] = append(adj[n], int32(i))
		}
	}
	mate := filled(nv, -1)
	maxCardinalityMatching(adj, mate)
	return !slices.Contains(mate, -1)
}

// TestSwissPairsWithoutAvoidableRematches simulates whole two-entry Swiss
// tournaments with random results, past the point where rematches become
// unavoidable, and checks every round against an independent feasibility
// check: no rematch and no second bye when a legal pairing exists, and the
// bye to the lowest-ranked entry without one that leaves a legal pairing.
func TestSwissPairsWithoutAvoidableRematches(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	points := DefaultPoints(FormatSwiss, 2)
	for n := 2; n <= 64; n++ {
		entries := makeEntries(n)
		var history []Result
		rounds := min(n+1, 14)
		for round := 1; round <= rounds; round++ {
			name := fmt.Sprintf("n %d round %d", n, round)
			legal := newSwissLegality(entries, history)
			feasible := legal.perfect("")
			rd, err := SwissRound(entries, history, round, 2, points)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			seen := map[string]bool{}
			rematches := 0
			for _, m := range rd.Matches {
				if len(m.Entries) != 2 {
					t.Fatalf("%s: match of %d", name, len(m.Entries))
				}
				for _, e := range m.Entries {
					if seen[e] {
						t.Fatalf("%s: %s paired twice", name, e)
					}
					seen[e] = true
				}
				if legal.met[[2]string{m.Entries[0], m.Entries[1]}] {
					rematches++
				}
			}
			if got, want := len(rd.Byes), n%2; got != want {
				t.Fatalf("%s: got %d byes, want %d", name, got, want)
			}
			secondBye := false
			for _, b := range rd.Byes {
				seen[b] = true
				secondBye = legal.byes[b] > 0
			}
			if len(seen) != n {
				t.Fatalf("%s: %d entries placed, want %d", name, len(seen), n)
			}
			if feasible && (rematches > 0 || secondBye) {
				t.Errorf("%s: got %d rematches and second bye %v, want none (a legal pairing exists)", name, rematches, secondBye)
			}
			if feasible && len(rd.Byes) == 1 {
				// every eligible entry ranked below the bye must leave no
				// legal pairing of the rest
				rows, err := Standings(entries, history, points, nil)
				if err != nil {
					t.Fatal(err)
				}
				ranked := rankForSwiss(entries, rows)
				at := slices.Index(ranked, rd.Byes[0])
				for _, below := range ranked[at+1:] {
					if legal.byes[below] == 0 && legal.perfect(below) {
						t.Errorf("%s: bye to %s (rank %d), want it to lower-ranked %s", name, rd.Byes[0], at+1, below)
					}
				}
			}
			history = append(history, playRound(r, rd)...)
		}
	}
}

// rankForSwiss is the Swiss ranking: points, then seed.
func rankForSwiss(entries []Entry, rows []Row) []string {
	seed := map[string]int{}
	for i, e := range SeedOrder(entries) {
		seed[e.ID] = i
	}
	slices.SortStableFunc(rows, func(a, b Row) int {
		if a.Points != b.Points {
			if a.Points > b.Points {
				return -1
			}
			return 1
		}
		return seed[a.Entry] - seed[b.Entry]
	})
	var out []string
	for _, r := range rows {
		out = append(out, r.Entry)
	}
	return out
}

func TestSwissLargeFieldUsesTheWindowAndStaysLegal(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	entries := makeEntries(701)
	var history []Result
	for round := 1; round <= 9; round++ {
		legal := newSwissLegality(entries, history)
		rd, err := SwissRound(entries, history, round, 2, DefaultPoints(FormatSwiss, 2))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range rd.Matches {
			if legal.met[[2]string{m.Entries[0], m.Entries[1]}] {
				t.Errorf("round %d: rematch %v", round, m.Entries)
			}
		}
		for _, b := range rd.Byes {
			if legal.byes[b] > 0 {
				t.Errorf("round %d: second bye to %s", round, b)
			}
		}
		history = append(history, playRound(r, rd)...)
	}
}

func TestSwissFirstRoundIsTopHalfAgainstBottomHalf(t *testing.T) {
	rd, err := SwissRound(makeEntries(8), nil, 1, 2, DefaultPoints(FormatSwiss, 2))
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, m := range rd.Matches {
		p := slices.Clone(m.Entries)
		slices.Sort(p)
		got = append(got, p)
	}
	want := [][]string{{"e01", "e05"}, {"e02", "e06"}, {"e03", "e07"}, {"e04", "e08"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pairs (-want +got):\n%s", diff)
	}
}

func TestSwissPairsWithinScoreGroups(t *testing.T) {
	entries := makeEntries(8)
	// after round 1 the odd seeds won
	var history []Result
	for i := 0; i < 8; i += 2 {
		history = append(history, Result{Round: 1, Entries: []string{entries[i].ID, entries[i+1].ID}, Winner: entries[i].ID})
	}
	rd, err := SwissRound(entries, history, 2, 2, DefaultPoints(FormatSwiss, 2))
	if err != nil {
		t.Fatal(err)
	}
	winners := map[string]bool{"e01": true, "e03": true, "e05": true, "e07": true}
	for _, m := range rd.Matches {
		if winners[m.Entries[0]] != winners[m.Entries[1]] {
			t.Errorf("got %v across score groups, want winners against winners", m.Entries)
		}
	}
}

// TestSwissManyEntriesPerMatch simulates three-entry (and larger) Swiss
// tournaments: every entry is placed once a round, byes go to entries
// without one while any remain, and rematches stay at zero while the field
// is roomy enough for the heuristic to avoid them.
func TestSwissManyEntriesPerMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for size := 3; size <= 6; size++ {
		for n := size; n <= 64; n++ {
			entries := makeEntries(n)
			var history []Result
			met := map[[2]string]int{}
			byes := map[string]int{}
			rounds := SwissRounds(n, size) + 2
			for round := 1; round <= rounds; round++ {
				name := fmt.Sprintf("size %d n %d round %d", size, n, round)
				rd, err := SwissRound(entries, history, round, size, DefaultPoints(FormatSwiss, size))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				seen := map[string]bool{}
				rematches := 0
				for _, m := range rd.Matches {
					if len(m.Entries) != size {
						t.Fatalf("%s: match of %d", name, len(m.Entries))
					}
					for i, a := range m.Entries {
						if seen[a] {
							t.Fatalf("%s: %s placed twice", name, a)
						}
						seen[a] = true
						for _, b := range m.Entries[i+1:] {
							if met[[2]string{min(a, b), max(a, b)}] > 0 {
								rematches++
							}
						}
					}
				}
				if got, want := len(rd.Byes), n%size; got != want {
					t.Fatalf("%s: got %d byes, want %d", name, got, want)
				}
				eligible := 0
				for _, e := range entries {
					if byes[e.ID] == 0 {
						eligible++
					}
				}
				for _, b := range rd.Byes {
					seen[b] = true
					if byes[b] > 0 && eligible >= n%size {
						t.Errorf("%s: second bye to %s while %d entries have none", name, b, eligible)
					}
				}
				if len(seen) != n {
					t.Fatalf("%s: %d entries placed, want %d", name, len(seen), n)
				}
				// each round an entry meets size−1 others. Matches of
				// three: with room for three more rounds' worth of new
				// opponents, none repeats. Larger tables (a harder packing
				// problem): while a round more of opponents stays under half
				// the field
				// and there are at least as many tables as seats, without
				// which the members of one earlier table cannot all be
				// parted.
				roomy := (round+2)*(size-1) < n-1
				if size > 3 {
					roomy = 2*(round+1)*(size-1) < n-1 && n/size >= size
				}
				if roomy && rematches > 0 {
					t.Errorf("%s: got %d rematches, want 0", name, rematches)
				}
				for _, m := range rd.Matches {
					for i, a := range m.Entries {
						for _, b := range m.Entries[i+1:] {
							met[[2]string{min(a, b), max(a, b)}]++
						}
					}
				}
				for _, b := range rd.Byes {
					byes[b]++
				}
				history = append(history, playRound(r, rd)...)
			}
		}
	}
}

func TestSwissRounds(t *testing.T) {
	tests := []struct{ n, size, want int }{
		{2, 2, 1}, {8, 2, 3}, {9, 2, 4}, {2000, 2, 11}, {9, 3, 2}, {10, 3, 3}, {27, 3, 3}, {36, 6, 2},
	}
	for _, tt := range tests {
		if got := SwissRounds(tt.n, tt.size); got != tt.want {
			t.Errorf("SwissRounds(%d, %d): got %d, want %d", tt.n, tt.size, got, tt.want)
		}
	}
}

func TestSwissIgnoresWithdrawnEntries(t *testing.T) {
	entries := makeEntries(5)
	history := []Result{
		{Round: 1, Entries: []string{"e01", "e03"}, Winner: "e01"},
		{Round: 1, Entries: []string{"e02", "e04"}, Winner: "e02"},
		{Round: 1, Entries: []string{"e05"}, Bye: true},
	}
	active := entries[:4] // e05 withdrew
	rd, err := SwissRound(active, history, 2, 2, DefaultPoints(FormatSwiss, 2))
	if err != nil {
		t.Fatal(err)
	}
	if len(rd.Matches) != 2 || len(rd.Byes) != 0 {
		t.Fatalf("got %+v, want two matches and no bye", rd)
	}
	if got := rd.Matches[0].Entries; !slices.Contains(got, "e01") || !slices.Contains(got, "e02") {
		t.Errorf("board 1 got %v, want the two winners", got)
	}
}

// A Swiss that withdrawals leave with too few entries to pair is over, not
// stuck: NextRound says so (ErrState, which finishes the tournament),
// where it refused the round as a bad set-up, and the round stayed
// scheduled with an error nobody could act on. A first round with too few
// entries is still a bad set-up.
func TestASwissLeftWithOneEntryIsOver(t *testing.T) {
	c := Config{Format: FormatSwiss, MatchSize: 2, Rounds: 3}
	entries := makeEntries(2)
	entries[1].Withdrawn = true
	history := []Result{{Round: 1, Entries: []string{"e01", "e02"}, Winner: "e01"}}
	if _, err := NextRound(c, entries, history, 2); !errors.Is(err, ErrState) {
		t.Errorf("round 2 with one entry left: %v; want the Swiss over (ErrState)", err)
	}
	if _, err := NextRound(c, entries, nil, 1); err == nil || errors.Is(err, ErrState) {
		t.Errorf("round 1 with one entry: %v; want it refused as a set-up", err)
	}
}

// TestSwissPairsAgainAMeetingOneSideForfeited: a match one entry
// forfeited, absent, was never played, and FIDE's Swiss rules do not count
// it as a meeting (C.04.1 F.2 as long written: "pairings not actually
// played ... not considered to be illegal in future rounds"): the two may
// meet over the board later. Round 1 e01 v e02 went to e01 by e02's
// forfeit; after round 2, e01 and e02 are alone on 2 points between two
// pairs of their own (e03, e05 on 4; e04, e06 on 0), and round 3 pairs
// every score group within itself. Before, the forfeit counted as a
// meeting and e01 and e02 floated across groups (e01 v e06, e02 v e04).
func TestSwissPairsAgainAMeetingOneSideForfeited(t *testing.T) {
	entries := makeEntries(6)
	history := []Result{
		{Round: 1, Entries: []string{"e01", "e02"}, Winner: "e01", Forfeited: []string{"e02"}},
		{Round: 1, Entries: []string{"e03", "e04"}, Winner: "e03"},
		{Round: 1, Entries: []string{"e05", "e06"}, Winner: "e05"},
		{Round: 2, Entries: []string{"e01", "e03"}, Winner: "e03"},
		{Round: 2, Entries: []string{"e02", "e06"}, Winner: "e02"},
		{Round: 2, Entries: []string{"e05", "e04"}, Winner: "e05"},
	}
	rd, err := SwissRound(entries, history, 3, 2, DefaultPoints(FormatSwiss, 2))
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, m := range rd.Matches {
		got = append(got, slices.Sorted(slices.Values(m.Entries)))
	}
	want := [][]string{{"e01", "e02"}, {"e03", "e05"}, {"e04", "e06"}}
	slices.SortFunc(got, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("round 3 (-want +got):\n%s", diff)
	}
}

// TestSwissForfeitWinBarsTheBye: FIDE C.04.1 (art. d, art. 4 from July
// 2025): an entry that has scored a win without playing, its opponent
// absent, may not get the pairing bye, as one that has had a bye may not.
// e05 won round 1 by e02's forfeit (e02 then withdrew) and is the
// lowest-ranked entry without a bye before round 3 (e06 had round 2's);
// the bye goes to the next one up, e04. Before, it went to e05, which
// then had two rounds' points without a game.
func TestSwissForfeitWinBarsTheBye(t *testing.T) {
	entries := makeEntries(6)
	entries[1].Withdrawn = true
	history := []Result{
		{Round: 1, Entries: []string{"e05", "e02"}, Winner: "e05", Forfeited: []string{"e02"}},
		{Round: 1, Entries: []string{"e01", "e04"}, Winner: "e01"},
		{Round: 1, Entries: []string{"e03", "e06"}, Winner: "e03"},
		{Round: 2, Entries: []string{"e06"}, Bye: true},
		{Round: 2, Entries: []string{"e01", "e03"}, Winner: "e01"},
		{Round: 2, Entries: []string{"e04", "e05"}, Winner: "e04"},
	}
	rd, err := NextRound(Config{Format: FormatSwiss, MatchSize: 2, Rounds: 3}, entries, history, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rd.Byes, []string{"e04"}) {
		t.Errorf("round 3's bye: %v; want e04 (e06 had one, e05 won by forfeit)", rd.Byes)
	}
}

// TestSwissForfeitedMatchSeatsNobody: a match not played does not count
// in the seat balance (FIDE's unplayed games count for no colour): e01,
// seated first against e02 who never came, has sat first in no game, and
// as the better-ranked of two entries level on first seats takes it again
// in round 2 (board 1). Counted, the seat went to e02.
func TestSwissForfeitedMatchSeatsNobody(t *testing.T) {
	entries := makeEntries(2)
	history := []Result{{Round: 1, Entries: []string{"e01", "e02"}, Winner: "e01", Forfeited: []string{"e02"}}}
	rd, err := SwissRound(entries, history, 2, 2, DefaultPoints(FormatSwiss, 2))
	if err != nil {
		t.Fatal(err)
	}
	if len(rd.Matches) != 1 || !slices.Equal(rd.Matches[0].Entries, []string{"e01", "e02"}) {
		t.Errorf("round 2: %+v; want e01 v e02, e01 seated first", rd.Matches)
	}
}
