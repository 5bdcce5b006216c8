package bot

import (
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/sequence"
)

// playOut plays a game between two levels and returns the tables before
// every move, indexed by ply, and the final state.
func playOut(t testing.TB, cfg sequence.Config, seed uint64, a, b Level, until int) ([]sequence.Table, sequence.State) {
	t.Helper()
	s, err := sequence.NewGame(cfg, rng.SeedFromUint64(seed))
	if err != nil {
		t.Fatal(err)
	}
	botA, _ := ForSequence(a)
	botB, _ := ForSequence(b)
	var before []sequence.Table
	for s.Status() == sequence.Playing && s.Ply() < until {
		before = append(before, s.Table)
		bt := botA
		if s.TeamOf(s.Turn())%2 == 1 {
			bt = botB
		}
		v := s.ViewFor(s.Turn())
		r := rng.NewUint64(seed + uint64(s.Ply()))
		m, err := bt.Choose(&v, &r, Budget{Iterations: 200})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Do(s.Turn(), m); err != nil {
			t.Fatal(err)
		}
	}
	return before, s
}

// Taking plays back one by one from the board now reaches, exactly, the
// board each play was made on: the chips, the locks, the sequence counts
// and every window statistic the reading scores moves with.
func TestBoardUndoRetracesTheGame(t *testing.T) {
	removals, unlocked := 0, 0
	for _, players := range []int{2, 4} {
		cfg := sequence.Config{Players: players, Teams: 2}
		for g := range 30 {
			seed := uint64(1000*players + g)
			before, s := playOut(t, cfg, seed, Greedy, Random, 60+g*3)
			v := s.ViewFor(0)
			var a seqAnalysis
			a.analyze(&v.Table, 0, &defaultWeights)
			b := newBoardUndo(&v, &a)
			log := v.DiscardLog()
			// The ply of each logged card: plies with a discard, in order.
			var plies []int
			for ply := range before {
				next := s.Table
				if ply+1 < len(before) {
					next = before[ply+1]
				}
				for range len(next.DiscardLog()) - len(before[ply].DiscardLog()) {
					plies = append(plies, ply)
				}
			}
			plies = plies[len(plies)-len(log):] // since the last reshuffle
			checked := 0
			removals += countRemovals(log)
			for i := len(log) - 1; i >= 0; i-- {
				if log[i].Cell == sequence.NoCell {
					continue
				}
				locked := a.locked[log[i].Cell]
				if !b.undo(log[i]) {
					t.Fatalf("%dp game %d: could not take back %v", players, g, log[i])
				}
				var want seqAnalysis
				want.analyze(&before[plies[i]], 0, &defaultWeights)
				if a.sq != want.sq || a.locked != want.locked || a.seqs != want.seqs || a.live != want.live || a.nLive != want.nLive || a.gap4 != want.gap4 {
					t.Fatalf("%dp game %d: the board before %v (ply %d) differs", players, g, log[i], plies[i])
				}
				checked++
				if locked {
					unlocked++
				}
			}
			if checked == 0 {
				t.Fatalf("%dp game %d: nothing checked", players, g)
			}
		}
	}
	if removals == 0 || unlocked == 0 {
		t.Fatalf("%d removals and %d sequences taken back: the games did not exercise them", removals, unlocked)
	}
}

func countRemovals(log []sequence.Discard) int {
	n := 0
	for _, d := range log {
		if d.Card.IsOneEyed() && d.Cell != sequence.NoCell {
			n++
		}
	}
	return n
}

// A seat that leaves its own four open, when the gap's card or a two-eyed
// jack would have made a sequence, is read as holding neither.
func TestReadingRulesOutCardsTheSeatWouldHavePlayed(t *testing.T) {
	// Team b's four c6–f6 waits on g6 (KH); a:b6 closes the other end.
	v := seqFixture{chips: "b:c6 d6 e6 f6 a:b6", mine: "2S 3S 4S", theirs: "7D 5S 6S 8D",
		deck: "TC QC KC 9C"}.view(t)
	s, err := sequence.FromView(v, [][]sequence.Card{nil, seqCards(t, "7D 5S 6S 8D")}, seqCards(t, "TC QC KC 9C"), rng.Seed{})
	if err != nil {
		t.Fatal(err)
	}
	play := func(m sequence.Move) {
		if err := s.Do(s.Turn(), m); err != nil {
			t.Fatal(err)
		}
	}
	play(sequence.Place(seqCards(t, "2S")[0], mustCell(t, "b1")))
	tv := s.ViewFor(1)
	theirs, err := seqGreedy{}.Choose(&tv, nil, Budget{})
	if err != nil {
		t.Fatal(err)
	}
	play(theirs)
	v = s.ViewFor(0)
	var a seqAnalysis
	a.analyze(&v.Table, 0, &defaultWeights)
	w := readHands(&v, &a).like[1][1] // held at its last decision
	played := w[theirs.Card]
	if played < 0.9 {
		t.Fatalf("the card played, %v, weighs %.3f: want about 1", theirs.Card, played)
	}
	for _, c := range seqCards(t, "KH JD JC") {
		if w[c] > 0.3*played {
			t.Errorf("%v weighs %.3f, the card played %.3f: want under 30%%", c, w[c], played)
		}
	}
}

// On greedy games, hands dealt by the reading hold more of the cards the
// seat truly holds than hands dealt uniformly from the unseen cards.
func TestReadingDealsTheCardsHeld(t *testing.T) {
	cfg := sequence.Config{Players: 2, Teams: 2}
	var read, uniform float64
	r := rng.NewUint64(5)
	for g := range 60 {
		for _, until := range []int{20, 30, 40, 50} {
			_, s := playOut(t, cfg, uint64(g), Greedy, Greedy, until)
			if s.Status() != sequence.Playing || s.Turn() != 0 {
				continue
			}
			v := s.ViewFor(0)
			var a seqAnalysis
			a.analyze(&v.Table, 0, &defaultWeights)
			byReading, blind := newSeqDealer(&v, &a), newSeqDealer(&v, nil)
			for range 50 {
				st, err := byReading.deal(&r)
				if err != nil {
					t.Fatal(err)
				}
				read += float64(sharedCards(st.Hand(1), s.Hand(1)))
				if st, err = blind.deal(&r); err != nil {
					t.Fatal(err)
				}
				uniform += float64(sharedCards(st.Hand(1), s.Hand(1)))
			}
		}
	}
	t.Logf("the reading deals %.2f × as many of the held cards as a uniform deal", read/uniform)
	if read < 1.5*uniform {
		t.Fatal("want at least 1.5 ×")
	}
}

// sharedCards counts the cards two hands have in common, copy by copy.
func sharedCards(a, b []sequence.Card) int {
	n := 0
	used := make([]bool, len(b))
	for _, x := range a {
		for j, y := range b {
			if !used[j] && x == y {
				used[j] = true
				n++
				break
			}
		}
	}
	return n
}
