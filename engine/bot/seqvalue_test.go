package bot

import "testing"

// leafChance is team 0's chance to win the fixture by the leaf value.
func leafChance(t *testing.T, f seqFixture) float64 {
	t.Helper()
	s := f.state(t)
	var a seqAnalysis
	a.analyze(&s.Table, 0, &defaultWeights)
	reward := make([]float64, 2)
	a.leafRewards(&s, reward)
	if sum := reward[0] + reward[1]; sum < 0.999 || sum > 1.001 {
		t.Fatalf("rewards %v do not sum to 1", reward)
	}
	return reward[0]
}

// The learned value reads the hands of the determinized leaf: the same
// board is all but won for the team to move when it holds the card for its
// winning four's gap, and open when it does not.
func TestLeafValueReadsTheHands(t *testing.T) {
	board := "a:b9 c9 d9 e9 f9 b3 c3 d3 e3 b:a3"
	gapCard := mustCell(t, "f3").Card().String()
	holds := leafChance(t, seqFixture{chips: board, sequences: map[string]string{"a": "b9-f9"},
		mine: gapCard + " 2S 3S KD QD 8D 6D", theirs: "7D 4C 5C 6C 7C 8C 9C", deck: "TC"})
	lacks := leafChance(t, seqFixture{chips: board, sequences: map[string]string{"a": "b9-f9"},
		mine: "2H 2S 3S KD QD 8D 6D", theirs: "7D 4C 5C 6C 7C 8C 9C", deck: "TC"})
	t.Logf("holds %.3f, lacks %.3f", holds, lacks)
	if holds < 0.95 {
		t.Errorf("holding the winning card: chance %.3f, want ≥ 0.95", holds)
	}
	if lacks >= holds-0.05 {
		t.Errorf("without the winning card: chance %.3f, want well below %.3f", lacks, holds)
	}
	// The other team's mirror image: their chance is ours.
	mirror := leafChance(t, seqFixture{chips: "b:b9 c9 d9 e9 f9 b3 c3 d3 e3 a:a3", sequences: map[string]string{"b": "b9-f9"},
		mine: "2H 2S 3S KD QD 8D 6D", theirs: gapCard + " 4C 5C 6C 7C 8C 9C", deck: "TC"})
	if mirror > 0.5 {
		t.Errorf("the other team holding its winning card: our chance %.3f, want < 0.5", mirror)
	}
}
