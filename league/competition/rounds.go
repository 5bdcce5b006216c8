package competition

// RoundsNeeded is the most rounds a competition of entries (every entry
// that started, those withdrawn since marked so) can play: a round robin
// its schedule, a Swiss its set rounds (or the default for its field), an
// elimination bracket its waves of matches (a wave being every match ready
// once the wave before is over, as a tournament pairs them) with every
// match played that may be, a grand-final reset too, and groups then
// playoffs its longest group's round robin and then its playoffs' waves.
// A schedule's rounds past it are never played.
func RoundsNeeded(c Config, entries []Entry) (int, error) {
	switch c.Format {
	case FormatRoundRobin:
		if c.Schedule != nil {
			return len(c.Schedule), nil
		}
		rounds, err := RoundRobin(entries, c.MatchSize, c.Double)
		return len(rounds), err
	case FormatSwiss:
		if c.Rounds > 0 {
			return c.Rounds, nil
		}
		return SwissRounds(len(entries), c.MatchSize), nil
	case FormatSingleElimination, FormatDoubleElimination:
		b, err := NewBracket(c, entries)
		if err != nil {
			return 0, err
		}
		return bracketWaves(b)
	case FormatGroupsPlayoffs:
		groups, err := Groups(entries, c.Groups)
		if err != nil {
			return 0, err
		}
		stage, advancing := len(c.Schedule), 0
		for _, g := range groups {
			if c.Schedule == nil {
				stage = max(stage, len(roundRobinIndices(len(g), c.MatchSize, c.Double).matches))
			}
			advancing += min(c.Advance, len(g))
		}
		seeded := make([]Entry, advancing)
		for i := range seeded {
			seeded[i] = Entry{ID: GroupName(i), Seed: i + 1}
		}
		b, err := SingleElimination(seeded, c.MatchSize, c.BestOf, c.ThirdPlace)
		if err != nil {
			return 0, err
		}
		playoffs, err := bracketWaves(b)
		return stage + playoffs, err
	}
	return 0, invalidf("unknown format %q", c.Format)
}

// bracketWaves counts the waves of a bracket not yet played, the
// grand-final reset played: a match is played in the wave after the last
// of the matches its slots come from (seeds are there from the start), and
// one left with a single entry (a walkover) or none (void) is decided with
// them, in no wave. Which slots are empty is the bracket's shape alone: a
// seed past the entries, a bye, the winner of a void match, the loser of
// a walkover or of a match of three. In one pass over the matches, which
// come after those they come from (resolve's order): the waves of a
// bracket of 10,000 entries are counted at once, where playing it out
// with Report took seconds.
func bracketWaves(b Bracket) (int, error) {
	type outcome struct {
		entries int // the entries that play it
		done    int // the wave it is decided in
	}
	at := make(map[string]outcome, len(b.Matches))
	most := 0
	for _, m := range b.Matches {
		var o outcome
		for _, s := range m.Slots {
			switch s.Source {
			case FromSeed:
				if s.Seed >= 1 && s.Seed <= len(b.Entries) {
					o.entries++
				}
			case FromWinner, FromLoser:
				src, ok := at[s.Match]
				if !ok {
					return 0, statef("match %s comes from %s, not an earlier match", m.ID, s.Match)
				}
				o.done = max(o.done, src.done)
				if (s.Source == FromWinner && src.entries > 0) || (s.Source == FromLoser && src.entries == 2) {
					o.entries++
				}
			}
		}
		if o.entries >= 2 {
			o.done++
		}
		at[m.ID] = o
		most = max(most, o.done)
	}
	return most, nil
}
