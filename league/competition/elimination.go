package competition

import "fmt"

// seedSlots is the standard bracket order for p = size^k slots: the seed
// in each first-round slot, top to bottom. It grows from [1] by replacing
// every seed s of a list of length L with the group
// s, 2L+1−s, 3L+1−s … (each further block of L seeds in reverse), so the
// top size seeds sit in different 1/size parts of the bracket, each seed
// meets the weaker the stronger it is, the seeds that run out (the byes)
// fall beside the top seeds, and in matches of two it is the familiar
// 1 v 16, 8 v 9, 4 v 13 … order. (It once snaked, s, 2L+1−s, 2L+s …: in
// matches of three seed 1 met 6 and 7, seed 3 met 4 and 9, and with seven
// entries the byes fell beside seeds 2 and 3, not 1 and 2.)
func seedSlots(p, size int) []int {
	list := []int{1}
	for l := 1; l < p; l *= size {
		next := make([]int, 0, l*size)
		for _, s := range list {
			next = append(next, s)
			for j := 1; j < size; j++ {
				next = append(next, j*l+l+1-s)
			}
		}
		list = next
	}
	return list
}

// SingleElimination builds a knockout bracket in matches of size: the
// first round has size^k slots (the fewest that hold every entry), filled in
// the standard seed order with byes where the seeds run out, so the top
// seeds get the byes; each match's winner advances. A match that byes leave
// with fewer than size entries is played by the entries it has (two or
// more), and one left with a single entry is a walkover. With thirdPlace
// (matches of two only) the semi-final losers play for third place.
func SingleElimination(entries []Entry, size, bestOf int, thirdPlace bool) (Bracket, error) {
	if err := checkMatchSize(size); err != nil {
		return Bracket{}, err
	}
	ordered, err := checkEntries(entries, 2)
	if err != nil {
		return Bracket{}, err
	}
	if thirdPlace && size != 2 {
		return Bracket{}, invalidf("a third-place match needs matches of two")
	}
	b := Bracket{Format: FormatSingleElimination, MatchSize: size, Entries: ordered}
	rounds := b.addKnockout(SectionMain, "M", size, max(bestOf, 1), "")
	if thirdPlace && rounds >= 2 {
		semis := b.Rounds[len(b.Rounds)-2].Matches
		m := Match{ID: "3P", Section: SectionThird, Round: 1, Position: 1, BestOf: max(bestOf, 1)}
		for _, id := range semis {
			m.Slots = append(m.Slots, Slot{Source: FromLoser, Match: id})
		}
		b.Matches = append(b.Matches, m)
		b.Rounds = append(b.Rounds, BracketRound{Section: SectionThird, Number: 1, Name: "Third place", Matches: []string{"3P"}})
	}
	b.resolve()
	return b, nil
}

// addKnockout appends a knockout of b.Entries and returns its number of
// rounds. Match IDs are prefix + "round-position".
func (b *Bracket) addKnockout(section Section, prefix string, size, bestOf int, namePrefix string) int {
	n := len(b.Entries)
	p, k := 1, 0
	for p < n {
		p *= size
		k++
	}
	slots := seedSlots(p, size)
	var prev []string
	for r := 1; r <= k; r++ {
		count := p / pow(size, r)
		round := BracketRound{Section: section, Number: r, Name: roundName(r, k, namePrefix)}
		var ids []string
		for i := range count {
			m := Match{ID: fmt.Sprintf("%s%d-%d", prefix, r, i+1), Section: section, Round: r, Position: i + 1, BestOf: bestOf}
			for j := range size {
				if r == 1 {
					seed := slots[i*size+j]
					if seed <= n {
						m.Slots = append(m.Slots, Slot{Source: FromSeed, Seed: seed})
					} else {
						m.Slots = append(m.Slots, Slot{Source: FromBye})
					}
				} else {
					m.Slots = append(m.Slots, Slot{Source: FromWinner, Match: prev[i*size+j]})
				}
			}
			b.Matches = append(b.Matches, m)
			ids = append(ids, m.ID)
		}
		round.Matches = ids
		b.Rounds = append(b.Rounds, round)
		prev = ids
	}
	return k
}

func pow(b, e int) int {
	r := 1
	for range e {
		r *= b
	}
	return r
}

// DoubleElimination builds a double-elimination bracket (matches of two):
// a winners bracket as in single elimination; a losers bracket whose odd
// rounds pair its survivors and whose even rounds bring in the losers of
// the next winners round, in reverse order on the first such round and
// halves swapped on the next, alternating, so that rematches come late; a
// grand final between the two champions; and, with reset, a second grand
// final when the losers-bracket champion wins the first. An entry is out
// after its second loss.
func DoubleElimination(entries []Entry, bestOf int, reset bool) (Bracket, error) {
	ordered, err := checkEntries(entries, 2)
	if err != nil {
		return Bracket{}, err
	}
	bestOf = max(bestOf, 1)
	b := Bracket{Format: FormatDoubleElimination, MatchSize: 2, Entries: ordered}
	k := b.addKnockout(SectionWinners, "W", 2, bestOf, "Winners")
	wb := func(r, i int) string { return fmt.Sprintf("W%d-%d", r, i) }
	lb := func(r, i int) string { return fmt.Sprintf("L%d-%d", r, i) }
	p := pow(2, k)
	lbRounds := 0
	addLB := func(r int, slots func(i int) []Slot, count int) {
		round := BracketRound{Section: SectionLosers, Number: r}
		for i := 1; i <= count; i++ {
			m := Match{ID: lb(r, i), Section: SectionLosers, Round: r, Position: i, BestOf: bestOf, Slots: slots(i)}
			b.Matches = append(b.Matches, m)
			round.Matches = append(round.Matches, m.ID)
		}
		b.Rounds = append(b.Rounds, round)
		lbRounds = r
	}
	lbChampion := Slot{Source: FromLoser, Match: wb(1, 1)} // two entries: the first loser
	if k >= 2 {
		addLB(1, func(i int) []Slot {
			return []Slot{{Source: FromLoser, Match: wb(1, 2*i-1)}, {Source: FromLoser, Match: wb(1, 2*i)}}
		}, p/4)
		for j := 1; j <= k-1; j++ {
			count := p / pow(2, j+1)
			addLB(2*j, func(i int) []Slot {
				drop := i
				switch {
				case j%2 == 1:
					drop = count + 1 - i
				case count > 1:
					drop = (i-1+count/2)%count + 1
				}
				return []Slot{{Source: FromWinner, Match: lb(2*j-1, i)}, {Source: FromLoser, Match: wb(j+1, drop)}}
			}, count)
			if j < k-1 {
				addLB(2*j+1, func(i int) []Slot {
					return []Slot{{Source: FromWinner, Match: lb(2*j, 2*i-1)}, {Source: FromWinner, Match: lb(2*j, 2*i)}}
				}, count/2)
			}
		}
		lbChampion = Slot{Source: FromWinner, Match: lb(lbRounds, 1)}
		for i := range b.Rounds {
			if b.Rounds[i].Section == SectionLosers {
				b.Rounds[i].Name = roundName(b.Rounds[i].Number, lbRounds, "Losers")
			}
		}
	}
	gf := Match{ID: "GF", Section: SectionFinal, Round: 1, Position: 1, BestOf: bestOf,
		Slots: []Slot{{Source: FromWinner, Match: wb(k, 1)}, lbChampion}}
	b.Matches = append(b.Matches, gf)
	b.Rounds = append(b.Rounds, BracketRound{Section: SectionFinal, Number: 1, Name: "Grand final", Matches: []string{"GF"}})
	if reset {
		gf2 := Match{ID: "GF2", Section: SectionFinal, Round: 2, Position: 1, BestOf: bestOf, Reset: true,
			Slots: []Slot{{Source: FromLoser, Match: "GF"}, {Source: FromWinner, Match: "GF"}}}
		b.Matches = append(b.Matches, gf2)
		b.Rounds = append(b.Rounds, BracketRound{Section: SectionFinal, Number: 2, Name: "Grand final reset", Matches: []string{"GF2"}})
	}
	b.resolve()
	return b, nil
}
