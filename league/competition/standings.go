package competition

import (
	"math"
	"slices"
)

// Points are what a match result is worth in round-based standings.
type Points struct {
	Win  float64 // winning a match (first place in a match of three or more)
	Draw float64 // a drawn match, to every entry in it but those Beaten
	Loss float64 // losing a match (every place but first; beaten in a draw)
	Bye  float64 // a round sat out
}

// DefaultPoints: 2 for a win, 1 for a draw, 0 for a loss. In a match of
// three or more only the winner scores: first place 2, every other place
// 0; a drawn match gives 1 to each entry level at the top (every entry but
// those Beaten, who score 0). A Swiss bye is worth a win (the
// lowest-ranked entry gets it, at most once); a bye in a round robin or a
// group is worth the average result, 2/size (1 in matches of two), because
// there the byes fall by rotation and some entries sit out once more than
// others.
func DefaultPoints(f Format, size int) Points {
	p := Points{Win: 2, Draw: 1, Loss: 0, Bye: 2}
	if f != FormatSwiss && size >= 2 {
		p.Bye = (p.Win + float64(size-1)*p.Loss) / float64(size)
	}
	return p
}

// TieBreak names a standings criterion applied after points.
type TieBreak string

// Tie-breaks; the package documentation defines each one.
const (
	TieBuchholz        TieBreak = "buchholz"
	TieMedianBuchholz  TieBreak = "median-buchholz"
	TieSonnebornBerger TieBreak = "sonneborn-berger"
	TieHeadToHead      TieBreak = "head-to-head"
	TieWins            TieBreak = "wins"
	TieSequences       TieBreak = "sequences"
)

// TieBreaks lists every tie-break.
var TieBreaks = []TieBreak{TieBuchholz, TieMedianBuchholz, TieSonnebornBerger, TieHeadToHead, TieWins, TieSequences}

// DefaultTieBreaks: for Swiss, Buchholz, median Buchholz,
// Sonneborn-Berger, head-to-head, wins; for round robins and groups,
// head-to-head, Sonneborn-Berger, wins, sequences.
func DefaultTieBreaks(f Format) []TieBreak {
	if f == FormatSwiss {
		return []TieBreak{TieBuchholz, TieMedianBuchholz, TieSonnebornBerger, TieHeadToHead, TieWins}
	}
	return []TieBreak{TieHeadToHead, TieSonnebornBerger, TieWins, TieSequences}
}

// Row is one line of a standings table.
type Row struct {
	// Rank is shared by entries equal on points and on every tie-break;
	// tied entries are listed in seed order.
	Rank                      int
	Entry                     string
	Played                    int // matches played; byes not counted
	Wins, Draws, Losses, Byes int
	Sequences                 int
	Points                    float64
	Values                    []TieBreakValue // one per tie-break, in the order applied
}

// TieBreakValue is an entry's value for one tie-break.
type TieBreakValue struct {
	TieBreak TieBreak
	Value    float64
}

// StandingsFor ranks a round-based competition with its configured points
// and tie-breaks; in a Swiss, the rounds a withdrawn entry no longer played
// count as draws in its opponents' tie-breaks (see opponentScores).
func StandingsFor(c Config, entries []Entry, results []Result) ([]Row, error) {
	return standings(entries, results, c.points(), c.tieBreaks(), c.Format == FormatSwiss)
}

type meeting struct {
	opp   int
	score float64 // 1 won against opp, 0 lost to opp, ½ otherwise
	// unplayed: one of the two forfeited the match, absent. The result
	// stands (points, wins, head-to-head), but Buchholz and
	// Sonneborn-Berger count a stand-in opponent instead (opponentScores).
	unplayed bool
}

type tally struct {
	row      Row
	meetings []meeting
	// oppPoints is what the entry counts for as an opponent in Buchholz and
	// Sonneborn-Berger: its points, with a draw for each match it forfeited
	// instead of what it scored there, and a draw for each round it missed
	// after withdrawing from a Swiss.
	oppPoints float64
	// forfeits are the matches the entry forfeited, and forfeitPoints what
	// it scored in them (a loss, unless everyone there was absent).
	forfeits      int
	forfeitPoints float64
}

// Standings ranks entries by points, then by each tie-break in order.
// entries must include every entry that appears in results (withdrawn
// entries too: their points count in their opponents' Buchholz).
func Standings(entries []Entry, results []Result, points Points, tieBreaks []TieBreak) ([]Row, error) {
	return standings(entries, results, points, tieBreaks, false)
}

func standings(entries []Entry, results []Result, points Points, tieBreaks []TieBreak, swiss bool) ([]Row, error) {
	ordered, err := checkEntries(entries, 1)
	if err != nil {
		return nil, err
	}
	for _, tb := range tieBreaks {
		if !slices.Contains(TieBreaks, tb) {
			return nil, invalidf("unknown tie-break %q", tb)
		}
	}
	index := make(map[string]int, len(ordered))
	t := make([]tally, len(ordered))
	for i, e := range ordered {
		index[e.ID] = i
		t[i].row.Entry = e.ID
	}
	for ri, res := range results {
		idx := make([]int, len(res.Entries))
		for i, id := range res.Entries {
			x, ok := index[id]
			if !ok {
				return nil, invalidf("result %d: unknown entry %q", ri, id)
			}
			if slices.Contains(idx[:i], x) {
				return nil, invalidf("result %d: entry %q twice", ri, id)
			}
			idx[i] = x
		}
		if res.Sequences != nil && len(res.Sequences) != len(res.Entries) {
			return nil, invalidf("result %d: %d sequence counts for %d entries", ri, len(res.Sequences), len(res.Entries))
		}
		if res.Bye {
			if len(idx) != 1 {
				return nil, invalidf("result %d: a bye of %d entries", ri, len(idx))
			}
			t[idx[0]].row.Byes++
			t[idx[0]].row.Points += points.Bye
			continue
		}
		if len(idx) < 2 {
			return nil, invalidf("result %d: a match of %d entries", ri, len(idx))
		}
		if err := res.checkOutcome(ri); err != nil {
			return nil, err
		}
		for _, id := range res.Forfeited {
			if !slices.Contains(res.Entries, id) {
				return nil, invalidf("result %d: %q forfeited a match it was not in", ri, id)
			}
		}
		for i, x := range idx {
			r := &t[x].row
			r.Played++
			scored := points.Loss
			switch res.Outcome(res.Entries[i]) {
			case Drew:
				r.Draws++
				scored = points.Draw
			case Won:
				r.Wins++
				scored = points.Win
			default:
				r.Losses++
			}
			r.Points += scored
			absent := slices.Contains(res.Forfeited, res.Entries[i])
			if absent {
				t[x].forfeits++
				t[x].forfeitPoints += scored
			}
			if res.Sequences != nil {
				r.Sequences += res.Sequences[i]
			}
			for j, y := range idx {
				if j == i {
					continue
				}
				// the one that finished higher in the match beat the other
				s := 0.5
				if oi, oj := res.Outcome(res.Entries[i]), res.Outcome(res.Entries[j]); oi > oj {
					s = 1
				} else if oi < oj {
					s = 0
				}
				unplayed := absent || slices.Contains(res.Forfeited, res.Entries[j])
				t[x].meetings = append(t[x].meetings, meeting{opp: y, score: s, unplayed: unplayed})
			}
		}
	}

	// A bye's stand-in opponent in Buchholz scores the entry's own points,
	// but no more than a draw in every round played so far: see opponentScores.
	rounds := roundsSoFar(t)
	dummyMax := points.Draw * float64(rounds)
	for i := range t {
		t[i].oppPoints = t[i].row.Points - t[i].forfeitPoints + points.Draw*float64(t[i].forfeits)
		if swiss && ordered[i].Withdrawn {
			t[i].oppPoints += points.Draw * float64(rounds-t[i].row.Played-t[i].row.Byes)
		}
	}

	// groups holds runs of entry indices still tied, best first.
	all := make([]int, len(t))
	for i := range all {
		all[i] = i
	}
	groups := split([][]int{all}, func(i int) float64 { return t[i].row.Points })
	for _, tb := range tieBreaks {
		values := make([]float64, len(t))
		for _, g := range groups {
			for _, i := range g {
				values[i] = tidy(tieBreakValue(tb, t, i, g, dummyMax))
				t[i].row.Values = append(t[i].row.Values, TieBreakValue{TieBreak: tb, Value: values[i]})
			}
		}
		groups = split(groups, func(i int) float64 { return values[i] })
	}
	rows := make([]Row, 0, len(t))
	for _, g := range groups {
		rank := len(rows) + 1
		for _, i := range g { // in seed order: split is stable
			r := t[i].row
			r.Rank, r.Points = rank, tidy(r.Points)
			rows = append(rows, r)
		}
	}
	return rows, nil
}

// split breaks every group into runs of equal value, highest first,
// keeping the order inside each run.
func split(groups [][]int, value func(int) float64) [][]int {
	var out [][]int
	for _, g := range groups {
		sorted := slices.Clone(g)
		slices.SortStableFunc(sorted, func(a, b int) int {
			va, vb := value(a), value(b)
			switch {
			case equal(va, vb):
				return 0
			case va > vb:
				return -1
			}
			return 1
		})
		for i := 0; i < len(sorted); {
			j := i + 1
			for j < len(sorted) && equal(value(sorted[i]), value(sorted[j])) {
				j++
			}
			out = append(out, sorted[i:j])
			i = j
		}
	}
	return out
}

// equal compares tie-break values, which are sums of configured points and
// so may carry rounding error.
func equal(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// tidy drops the rounding error of a sum of fractions (a bye in a match of
// three scores ⅓), which equal already ignores: a Sonneborn-Berger of 10
// read 9.999999999999998 beside another entry's 10 in the standings and
// their CSV. Values are kept to nine decimals.
func tidy(v float64) float64 { return math.Round(v*1e9) / 1e9 }

func tieBreakValue(tb TieBreak, t []tally, i int, group []int, dummyMax float64) float64 {
	e := &t[i]
	switch tb {
	case TieBuchholz:
		sum := 0.0
		for _, v := range opponentScores(t, i, dummyMax) {
			sum += v
		}
		return sum
	case TieMedianBuchholz:
		vs := opponentScores(t, i, dummyMax)
		sum := 0.0
		for _, v := range vs {
			sum += v
		}
		if len(vs) >= 3 {
			sum -= slices.Max(vs) + slices.Min(vs)
		}
		return sum
	case TieSonnebornBerger:
		sum := 0.0
		for _, m := range e.meetings {
			if !m.unplayed {
				sum += float64(m.score * t[m.opp].oppPoints)
			}
		}
		return sum
	case TieHeadToHead:
		sum := 0.0
		for _, m := range e.meetings {
			if m.opp != i && slices.Contains(group, m.opp) {
				sum += m.score
			}
		}
		return sum
	case TieWins:
		return float64(e.row.Wins)
	case TieSequences:
		return float64(e.row.Sequences)
	}
	return 0
}

// opponentScores lists what every opponent met counts for (once per match
// met in: oppPoints), and for each bye and each meeting unplayed (one of
// the two forfeited) a stand-in opponent with the entry's own points, at
// most dummyMax.
//
// Set against FIDE's Tie-Break Regulations (C.07, art. 16 as revised in
// 2023; the package documentation has the detail): an opponent counts its
// points as scored, forfeit wins and byes included, as FIDE counts them
// (before 2023 FIDE counted them as draws); a withdrawn Swiss entry counts
// a draw for each round it missed after leaving, as FIDE does, since
// otherwise every entry that met it early loses Buchholz for rounds it
// never got to play. A match an entry forfeited, absent, counts a draw in
// its opponents' tie-breaks whatever it scored there: ours, where FIDE now
// counts the loss it was; counted as a loss, it cost those who met the
// absent entry in a played game for a game it never played. The meeting
// nobody played counts for both its entries as a bye does, a dummy with
// their own points, as FIDE counts a participant's own unplayed rounds.
// The dummy is capped at a draw in every round so far: uncapped, an entry
// that had a bye and then won everything was credited with a
// leader-strength opponent it never met, and ranked above an entry level
// on points that had beaten real opponents of more points. FIDE's current
// text caps a bye's dummy at a draw a round over the whole tournament and
// a forfeit's at the scheduled opponent's adjusted score; counting the
// rounds so far, a table in the middle of an event caps at the same share.
func opponentScores(t []tally, i int, dummyMax float64) []float64 {
	var vs []float64
	dummies := t[i].row.Byes
	for _, m := range t[i].meetings {
		if m.unplayed {
			dummies++
			continue
		}
		vs = append(vs, t[m.opp].oppPoints)
	}
	for range dummies {
		vs = append(vs, min(t[i].row.Points, dummyMax))
	}
	return vs
}

// roundsSoFar is the most rounds any entry has played or sat out (one match
// or bye a round).
func roundsSoFar(t []tally) int {
	rounds := 0
	for _, e := range t {
		rounds = max(rounds, e.row.Played+e.row.Byes)
	}
	return rounds
}
