package competition

import (
	"slices"
)

// GroupName is the name of group i (0-based): "A" … "Z", then "AA", "AB" ….
func GroupName(i int) string {
	name := ""
	for {
		name = string(rune('A'+i%26)) + name
		i = i/26 - 1
		if i < 0 {
			return name
		}
	}
}

// Groups deals entries into groups by snake seeding: in seed order, the
// first groups entries go to groups A, B, C …, the next to … C, B, A, and so
// on, so every group gets one entry of each "pot" and the group strengths
// even out.
func Groups(entries []Entry, groups int) ([][]Entry, error) {
	if groups < 1 {
		return nil, invalidf("%d groups", groups)
	}
	ordered, err := checkEntries(entries, groups)
	if err != nil {
		return nil, err
	}
	out := make([][]Entry, groups)
	for i, e := range ordered {
		row, col := i/groups, i%groups
		if row%2 == 1 {
			col = groups - 1 - col
		}
		out[col] = append(out[col], e)
	}
	return out, nil
}

// groupRound is round r of the group stage: every group's round-robin
// round r together (groups of different sizes may have different numbers
// of rounds).
func groupRound(c Config, entries []Entry, round int) (Round, error) {
	groups, err := Groups(entries, c.Groups)
	if err != nil {
		return Round{}, err
	}
	out := Round{Number: round}
	any := false
	for gi, g := range groups {
		if len(g) < c.MatchSize {
			return Round{}, invalidf("group %s has %d entries for matches of %d", GroupName(gi), len(g), c.MatchSize)
		}
		s := roundRobinIndices(len(g), c.MatchSize, c.Double)
		if round > len(s.matches) {
			continue
		}
		any = true
		rr := s.rounds(g, GroupName(gi))[round-1]
		out.Matches = append(out.Matches, rr.Matches...)
		out.Byes = append(out.Byes, rr.Byes...)
	}
	if !any {
		return Round{}, statef("the group stage has fewer than %d rounds", round)
	}
	return out, nil
}

// GroupTable is one group's standings.
type GroupTable struct {
	Group   string
	Entries []string // the group's entries in seed order
	Rows    []Row
	// Complete: every match of the group's schedule has a result.
	Complete bool
}

// GroupStandings ranks every group of a groups-then-playoffs competition
// from the results of the group stage (results are assigned to a group by
// their entries).
func GroupStandings(c Config, entries []Entry, results []Result) ([]GroupTable, error) {
	if err := c.Validate(len(entries)); err != nil {
		return nil, err
	}
	if c.Format != FormatGroupsPlayoffs {
		return nil, invalidf("%s has no groups", c.Format)
	}
	groups, err := Groups(entries, c.Groups)
	if err != nil {
		return nil, err
	}
	var out []GroupTable
	for gi, g := range groups {
		ids := make([]string, len(g))
		for i, e := range g {
			ids[i] = e.ID
		}
		var mine []Result
		played := 0
		for _, r := range results {
			if len(r.Entries) > 0 && slices.Contains(ids, r.Entries[0]) {
				for _, id := range r.Entries {
					if !slices.Contains(ids, id) {
						return nil, invalidf("a result pairs %q and %q of different groups", r.Entries[0], id)
					}
				}
				mine = append(mine, r)
				if !r.Bye {
					played++
				}
			}
		}
		rows, err := Standings(g, mine, c.points(), c.tieBreaks())
		if err != nil {
			return nil, err
		}
		scheduled := 0
		if c.Schedule != nil {
			for _, r := range c.Schedule {
				for _, m := range r.Matches {
					if m.Group == GroupName(gi) {
						scheduled++
					}
				}
			}
		} else {
			for _, ms := range roundRobinIndices(len(g), c.MatchSize, c.Double).matches {
				scheduled += len(ms)
			}
		}
		out = append(out, GroupTable{Group: GroupName(gi), Entries: ids, Rows: rows, Complete: played >= scheduled})
	}
	return out, nil
}

// Playoffs builds the single-elimination playoff of a groups-then-playoffs
// competition once every group is complete: the top Advance of each group
// qualify, seeded by place (all group winners first, then the runners-up
// …) and within a place by group order (A first), then first-round meetings
// of two entries from the same group are undone, where another entry of the
// same place can swap in, so that group-mates meet again as late as the
// bracket allows.
func Playoffs(c Config, entries []Entry, results []Result) (Bracket, error) {
	tables, err := GroupStandings(c, entries, results)
	if err != nil {
		return Bracket{}, err
	}
	type qualifier struct {
		id           string
		group, place int
	}
	var qs []qualifier
	for place := 0; place < c.Advance; place++ {
		for gi, t := range tables {
			if !t.Complete {
				return Bracket{}, statef("group %s is not finished", t.Group)
			}
			if place < len(t.Rows) {
				qs = append(qs, qualifier{id: t.Rows[place].Entry, group: gi, place: place})
			}
		}
	}
	// Undo same-group first-round meetings by swapping within a place.
	size := c.MatchSize
	p := 1
	for p < len(qs) {
		p *= size
	}
	slots := seedSlots(p, size)
	clash := func() (int, bool) {
		for m := 0; m < len(slots); m += size {
			var gs []int
			for _, s := range slots[m : m+size] {
				if s <= len(qs) {
					if slices.Contains(gs, qs[s-1].group) {
						return s - 1, true
					}
					gs = append(gs, qs[s-1].group)
				}
			}
		}
		return 0, false
	}
	for tries := 0; tries < len(qs)*len(qs); tries++ {
		i, ok := clash()
		if !ok {
			break
		}
		fixed := false
		for j := len(qs) - 1; j >= 0 && !fixed; j-- {
			if j == i || qs[j].place != qs[i].place || qs[j].group == qs[i].group {
				continue
			}
			before := countClashes(qs, slots, size, func(q qualifier) int { return q.group })
			qs[i], qs[j] = qs[j], qs[i]
			if countClashes(qs, slots, size, func(q qualifier) int { return q.group }) < before {
				fixed = true
			} else {
				qs[i], qs[j] = qs[j], qs[i]
			}
		}
		if !fixed {
			break
		}
	}
	seeded := make([]Entry, len(qs))
	for i, q := range qs {
		seeded[i] = Entry{ID: q.id, Seed: i + 1}
	}
	b, err := SingleElimination(seeded, size, c.BestOf, c.ThirdPlace)
	if err != nil {
		return Bracket{}, err
	}
	return b, nil
}

func countClashes[T any](qs []T, slots []int, size int, group func(T) int) int {
	n := 0
	for m := 0; m < len(slots); m += size {
		var gs []int
		for _, s := range slots[m : m+size] {
			if s <= len(qs) {
				g := group(qs[s-1])
				if slices.Contains(gs, g) {
					n++
				}
				gs = append(gs, g)
			}
		}
	}
	return n
}
