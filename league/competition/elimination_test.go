package competition

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// playOut reports random winners until the bracket is done, checking that
// it always has a ready match until then, and returns the matches played
// (in order) and each entry's losses.
func playOut(t *testing.T, r *rand.Rand, b Bracket) (Bracket, []Match, map[string]int) {
	t.Helper()
	losses := map[string]int{}
	var played []Match
	for steps := 0; !b.Done(); steps++ {
		ready := b.Ready()
		if len(ready) == 0 {
			t.Fatalf("bracket not done but nothing ready: %+v", b.Matches)
		}
		if steps > 4*len(b.Matches) {
			t.Fatalf("bracket does not finish")
		}
		m := ready[r.IntN(len(ready))]
		es := m.Entries()
		w := es[r.IntN(len(es))]
		var err error
		b, err = b.Report(m.ID, w)
		if err != nil {
			t.Fatalf("Report(%s, %s): %v", m.ID, w, err)
		}
		done, _ := b.Match(m.ID)
		played = append(played, done)
		for _, e := range es {
			if e != w {
				losses[e]++
			}
		}
	}
	return b, played, losses
}

func TestSeedSlotsStandardOrder(t *testing.T) {
	tests := []struct {
		name       string
		slots      int
		size       int
		firstRound []int
	}{
		{"four slots", 4, 2, []int{1, 4, 2, 3}},
		{"eight slots", 8, 2, []int{1, 8, 4, 5, 2, 7, 3, 6}},
		{"sixteen slots", 16, 2, []int{1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11}},
		{"nine slots of three", 9, 3, []int{1, 6, 9, 2, 5, 8, 3, 4, 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.firstRound, seedSlots(tt.slots, tt.size)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// In a knockout of three-team matches the top seeds get the byes: ordered
// by their top seeds, the first-round matches are short of entries in
// non-increasing numbers. Seven entries in nine slots used to give seed 1
// a full three-team game (1, 6, 7) and seeds 2 and 3 two-team ones (the
// byes fell beside 2 and 3).
func TestThreeTeamKnockoutByesGoToTheTopSeeds(t *testing.T) {
	for n := 2; n <= 81; n++ {
		b, err := SingleElimination(makeEntries(n), 3, 1, false)
		if err != nil {
			t.Fatal(err)
		}
		type short struct{ top, byes int }
		var matches []short
		for _, m := range b.Matches {
			if m.Round != 1 || m.Section != SectionMain {
				continue
			}
			sm := short{top: 1 << 30}
			for _, s := range m.Slots {
				if s.Source == FromBye {
					sm.byes++
				} else {
					sm.top = min(sm.top, s.Seed)
				}
			}
			matches = append(matches, sm)
		}
		slices.SortFunc(matches, func(a, b short) int { return a.top - b.top })
		for i := 1; i < len(matches); i++ {
			if matches[i].byes > matches[i-1].byes {
				t.Fatalf("%d entries: seed %d's match has %d byes, seed %d's %d: want the top seeds' matches the shortest",
					n, matches[i].top, matches[i].byes, matches[i-1].top, matches[i-1].byes)
			}
		}
	}
}

// TestSingleEliminationByesAndSeeds: for every field size the first round
// has the right number of byes, they go to the top seeds, seeds 1 and 2
// can only meet in the final, and a random playout crowns one champion
// after everyone else lost once.
func TestSingleEliminationByesAndSeeds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for size := 2; size <= 3; size++ {
		for n := 2; n <= 64; n++ {
			for _, third := range []bool{false, true} {
				if third && size != 2 {
					continue
				}
				name := fmt.Sprintf("size %d n %d third %v", size, n, third)
				b, err := SingleElimination(makeEntries(n), size, 1, third)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				slots := 1
				for slots < n {
					slots *= size
				}
				byeSlots, advancing := 0, map[int]bool{}
				for _, m := range b.Matches {
					if m.Round != 1 || m.Section != SectionMain {
						continue
					}
					for _, s := range m.Slots {
						if s.Source == FromBye {
							byeSlots++
						}
					}
					if m.State == StateWalkover {
						advancing[m.Slots[0].Seed] = true
					}
				}
				if byeSlots != slots-n {
					t.Errorf("%s: got %d bye slots, want %d", name, byeSlots, slots-n)
				}
				for s := 1; s <= len(advancing); s++ {
					if !advancing[s] {
						t.Errorf("%s: seed %d has no bye but %d seeds do", name, s, len(advancing))
					}
				}
				for trial := 0; trial < 3; trial++ {
					done, played, losses := playOut(t, r, b)
					final := done.Rounds[slices.IndexFunc(done.Rounds, func(br BracketRound) bool { return br.Name == "Final" })].Matches[0]
					for _, m := range played {
						if m.ID != final && m.Section == SectionMain && slices.Contains(m.Entries(), "e01") && slices.Contains(m.Entries(), "e02") {
							t.Errorf("%s: seeds 1 and 2 met in %s, want only in the final", name, m.ID)
						}
					}
					champ := done.Champion()
					if champ == "" || losses[champ] != 0 {
						t.Fatalf("%s: champion %q with %d losses", name, champ, losses[champ])
					}
					for _, e := range done.Entries {
						got := losses[e.ID]
						switch {
						case e.ID == champ:
						case done.isThirdPlayer(e.ID):
							// lost a semi-final, then won or lost for third
							if got != 1 && got != 2 {
								t.Errorf("%s: %s lost %d times, want 1 or 2", name, e.ID, got)
							}
						case got != 1:
							t.Errorf("%s: %s lost %d times, want 1", name, e.ID, got)
						}
					}
					places := done.Placements()
					if len(places) != n || places[0].Place != 1 || places[0].Entry != champ {
						t.Errorf("%s: placements got %+v, want all %d placed, champion first", name, places, n)
					}
				}
			}
		}
	}
}

func (b Bracket) isThirdPlayer(id string) bool {
	m, ok := b.Match("3P")
	return ok && slices.Contains(m.Entries(), id)
}

// TestDoubleEliminationTwoLosses: every entry but the champion is out after
// exactly two losses (without a reset the runner-up may have only one); the
// champion has at most one.
func TestDoubleEliminationTwoLosses(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := 2; n <= 64; n++ {
		for _, reset := range []bool{false, true} {
			name := fmt.Sprintf("n %d reset %v", n, reset)
			b, err := DoubleElimination(makeEntries(n), 1, reset)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for trial := 0; trial < 4; trial++ {
				done, _, losses := playOut(t, r, b)
				champ := done.Champion()
				gf, _ := done.Match("GF")
				runnerUp := loserOf(gf)
				if gf2, ok := done.Match("GF2"); ok && gf2.State == StateDone {
					runnerUp = loserOf(gf2)
				}
				for _, e := range done.Entries {
					got := losses[e.ID]
					switch {
					case e.ID == champ:
						if got > 1 {
							t.Errorf("%s: champion %s lost %d times, want at most 1", name, e.ID, got)
						}
					case e.ID == runnerUp && !reset:
						if got < 1 || got > 2 {
							t.Errorf("%s: runner-up %s lost %d times, want 1 or 2", name, e.ID, got)
						}
					case got != 2:
						t.Errorf("%s: %s lost %d times, want 2", name, e.ID, got)
					}
				}
				places := done.Placements()
				if len(places) != n || places[0].Entry != champ || places[1].Place != 2 {
					t.Errorf("%s: placements got %+v, want %d placed, champion then runner-up", name, places, n)
				}
			}
		}
	}
}

func TestDoubleEliminationResetIsSkippedWhenTheUnbeatenWins(t *testing.T) {
	b, err := DoubleElimination(makeEntries(2), 1, true)
	if err != nil {
		t.Fatal(err)
	}
	if b, err = b.Report("W1-1", "e01"); err != nil {
		t.Fatal(err)
	}
	gf, _ := b.Match("GF")
	if diff := cmp.Diff([]string{"e01", "e02"}, gf.Entries()); diff != "" {
		t.Fatalf("grand final entries (-want +got):\n%s", diff)
	}
	won, err := b.Report("GF", "e01")
	if err != nil {
		t.Fatal(err)
	}
	if gf2, _ := won.Match("GF2"); gf2.State != StateSkipped || won.Champion() != "e01" {
		t.Errorf("unbeaten wins: reset got %s, champion %q; want skipped, e01", gf2.State, won.Champion())
	}
	lost, err := b.Report("GF", "e02")
	if err != nil {
		t.Fatal(err)
	}
	if gf2, _ := lost.Match("GF2"); gf2.State != StateReady {
		t.Errorf("unbeaten loses: reset got %s, want ready", gf2.State)
	}
	if lost.Champion() != "" {
		t.Errorf("champion got %q before the reset, want none", lost.Champion())
	}
}

// TestThreeTeamBrackets: 3^k slots, the top three seeds in different
// thirds, byes to the top seeds, one champion.
func TestThreeTeamBrackets(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	tests := []struct {
		name       string
		n          int
		slots      int
		walkovers  int // top seeds advancing without playing
		twoEntries int // first-round matches of two entries and a bye
	}{
		{"ten entries fill 27 slots", 10, 27, 8, 1},
		{"28 entries fill 81 slots", 28, 81, 26, 1},
		{"nine entries fill 9 slots", 9, 9, 0, 0},
		{"four entries fill 9 slots", 4, 9, 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := SingleElimination(makeEntries(tt.n), 3, 1, false)
			if err != nil {
				t.Fatal(err)
			}
			first := b.Rounds[0].Matches
			if got := len(first) * 3; got != tt.slots {
				t.Errorf("got %d slots, want %d", got, tt.slots)
			}
			third := len(first) / 3
			for s := 1; s <= 3 && third > 0; s++ {
				at := slices.IndexFunc(b.Matches, func(m Match) bool {
					return m.Round == 1 && slices.ContainsFunc(m.Slots, func(sl Slot) bool { return sl.Seed == s })
				})
				if got := b.Matches[at].Position - 1; got/third != s-1 {
					t.Errorf("seed %d in match %d, want it in third %d", s, got+1, s)
				}
			}
			walk, two := 0, 0
			for _, m := range b.Matches {
				if m.Round != 1 {
					continue
				}
				switch len(m.Entries()) {
				case 1:
					walk++
					if m.Slots[0].Seed > tt.walkovers {
						t.Errorf("seed %d advances unplayed, want only the top %d", m.Slots[0].Seed, tt.walkovers)
					}
				case 2:
					two++
				}
			}
			if walk != tt.walkovers || two != tt.twoEntries {
				t.Errorf("got %d walkovers and %d two-entry matches, want %d and %d", walk, two, tt.walkovers, tt.twoEntries)
			}
			done, _, losses := playOut(t, r, b)
			champ := done.Champion()
			for _, e := range done.Entries {
				want := 1
				if e.ID == champ {
					want = 0
				}
				if losses[e.ID] != want {
					t.Errorf("%s lost %d times, want %d", e.ID, losses[e.ID], want)
				}
			}
		})
	}
}

func TestReport(t *testing.T) {
	fresh := func() Bracket {
		b, err := SingleElimination(makeEntries(4), 2, 1, false)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	t.Run("winner advances to the next match", func(t *testing.T) {
		b, err := fresh().Report("M1-1", "e04")
		if err != nil {
			t.Fatal(err)
		}
		final, _ := b.Match("M2-1")
		if got := final.Slots[0].Entry; got != "e04" {
			t.Errorf("final slot got %q, want e04", got)
		}
	})
	t.Run("the old bracket is unchanged", func(t *testing.T) {
		b := fresh()
		if _, err := b.Report("M1-1", "e01"); err != nil {
			t.Fatal(err)
		}
		if m, _ := b.Match("M1-1"); m.State != StateReady || m.Winner != "" {
			t.Errorf("old bracket match got %s %q, want ready without winner", m.State, m.Winner)
		}
	})
	t.Run("a correction before the next match is played", func(t *testing.T) {
		b, _ := fresh().Report("M1-1", "e01")
		b, err := b.Report("M1-1", "e04")
		if err != nil {
			t.Fatal(err)
		}
		final, _ := b.Match("M2-1")
		if got := final.Slots[0].Entry; got != "e04" {
			t.Errorf("final slot got %q, want e04", got)
		}
	})
	t.Run("no correction once the next match is played", func(t *testing.T) {
		b, _ := fresh().Report("M1-1", "e01")
		b, _ = b.Report("M1-2", "e02")
		b, _ = b.Report("M2-1", "e01")
		if _, err := b.Report("M1-1", "e04"); !errors.Is(err, ErrState) {
			t.Errorf("got %v, want ErrState", err)
		}
	})
	t.Run("a match not ready is refused", func(t *testing.T) {
		if _, err := fresh().Report("M2-1", "e01"); !errors.Is(err, ErrState) {
			t.Errorf("got %v, want ErrState", err)
		}
	})
	t.Run("a winner not in the match is refused", func(t *testing.T) {
		if _, err := fresh().Report("M1-1", "e02"); !errors.Is(err, ErrInvalid) {
			t.Errorf("got %v, want ErrInvalid", err)
		}
	})
	t.Run("an unknown match is refused", func(t *testing.T) {
		if _, err := fresh().Report("M9-9", "e01"); !errors.Is(err, ErrInvalid) {
			t.Errorf("got %v, want ErrInvalid", err)
		}
	})
}

// TestReportTakesASeriesWinner: the service keeps a series' games and
// reports its winner once SeriesWinner decides it (2–1 after four games
// with a draw); the bracket then moves the winner on.
func TestReportTakesASeriesWinner(t *testing.T) {
	b, err := SingleElimination(makeEntries(2), 2, 3, false)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := b.Match("M1-1")
	var games []string
	for i, g := range []string{"e02", "", "e01", "e01"} {
		games = append(games, g)
		w, ok := SeriesWinner(m.BestOf, m.Entries(), games)
		if ok != (i == 3) {
			t.Fatalf("after game %d decided %v", i+1, ok)
		}
		if !ok {
			continue
		}
		if b, err = b.Report("M1-1", w); err != nil {
			t.Fatal(err)
		}
	}
	if m, _ := b.Match("M1-1"); m.State != StateDone {
		t.Errorf("state got %s, want done", m.State)
	}
	if b.Champion() != "e01" {
		t.Errorf("champion got %q, want e01", b.Champion())
	}
}

func TestSeriesWinner(t *testing.T) {
	two := []string{"a", "b"}
	three := []string{"a", "b", "c"}
	tests := []struct {
		name    string
		bestOf  int
		entries []string
		games   []string
		want    string
		decided bool
	}{
		{"single game decides", 1, two, []string{"b"}, "b", true},
		{"no games yet", 3, two, nil, "", false},
		{"one win of three is not enough", 3, two, []string{"a"}, "", false},
		{"two wins of three decide", 3, two, []string{"a", "b", "a"}, "a", true},
		{"three of five decide early", 5, two, []string{"a", "a", "a"}, "a", true},
		{"a draw leaves it open", 1, two, []string{""}, "", false},
		{"after a draw the next win decides", 1, two, []string{"", "b"}, "b", true},
		{"level after all games goes on", 3, two, []string{"a", "b", ""}, "", false},
		{"three entries: two wins of three decide", 3, three, []string{"c", "c"}, "c", true},
		{"three entries: one win each goes on", 3, three, []string{"a", "b", "c"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := SeriesWinner(tt.bestOf, tt.entries, tt.games)
			if got != tt.want || ok != tt.decided {
				t.Errorf("got %q %v, want %q %v", got, ok, tt.want, tt.decided)
			}
		})
	}
}

func TestSingleEliminationThirdPlacePlacements(t *testing.T) {
	b, err := SingleElimination(makeEntries(8), 2, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	// favourites win everything; e04 beats e03 for third
	for _, step := range [][2]string{
		{"M1-1", "e01"}, {"M1-2", "e04"}, {"M1-3", "e02"}, {"M1-4", "e03"},
		{"M2-1", "e01"}, {"M2-2", "e02"}, {"3P", "e04"}, {"M3-1", "e01"},
	} {
		if b, err = b.Report(step[0], step[1]); err != nil {
			t.Fatalf("%v: %v", step, err)
		}
	}
	want := []Placement{
		{1, "e01"}, {2, "e02"}, {3, "e04"}, {4, "e03"}, {5, "e05"}, {5, "e06"}, {5, "e07"}, {5, "e08"},
	}
	if diff := cmp.Diff(want, b.Placements()); diff != "" {
		t.Errorf("placements (-want +got):\n%s", diff)
	}
}

// In a bracket under way (or cancelled), an entry knocked out places below
// every entry still in: the four first-round losers of eight are 5, and a
// semi-final loser 4 while three entries play on (it shares 3 once the
// other semi-final is played). They were 1, level with the entries still
// in, so the standings of a cancelled knockout ranked its losers 1.
func TestPlacementsOfABracketUnderWayPutTheEntriesOutBelowThoseStillIn(t *testing.T) {
	b, err := SingleElimination(makeEntries(8), 2, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range [][2]string{{"M1-1", "e01"}, {"M1-2", "e04"}, {"M1-3", "e02"}, {"M1-4", "e03"}, {"M2-1", "e01"}} {
		if b, err = b.Report(step[0], step[1]); err != nil {
			t.Fatalf("%v: %v", step, err)
		}
	}
	want := []Placement{{4, "e04"}, {5, "e05"}, {5, "e06"}, {5, "e07"}, {5, "e08"}}
	if diff := cmp.Diff(want, b.Placements()); diff != "" {
		t.Errorf("placements (-want +got):\n%s", diff)
	}
}

func TestBracketRoundNames(t *testing.T) {
	b, err := DoubleElimination(makeEntries(8), 1, true)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range b.Rounds {
		got = append(got, fmt.Sprintf("%s:%s:%d", r.Section, r.Name, len(r.Matches)))
	}
	want := []string{
		"winners:Winners round 1:4", "winners:Winners round 2:2", "winners:Winners final:1",
		"losers:Losers round 1:2", "losers:Losers round 2:2", "losers:Losers round 3:1", "losers:Losers final:1",
		"final:Grand final:1", "final:Grand final reset:1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rounds (-want +got):\n%s", diff)
	}
}
