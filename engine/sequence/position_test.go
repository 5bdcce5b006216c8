package sequence

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

// A live position exports as vector JSON and imports back to the same
// position (the generator and the discards' interleaving are not part of it).
func TestPositionRoundTripsThroughJSON(t *testing.T) {
	for seed := uint64(0); seed < 30; seed++ {
		s := randomState(t, seed, int(seed*7))
		if seed%5 == 0 && s.Status() == Playing {
			if err := s.Do(Referee, Penalize(int(seed)%2)); err != nil {
				t.Fatal(err)
			}
		}
		raw, err := json.Marshal(s.Position())
		if err != nil {
			t.Fatal(err)
		}
		var p Position
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatalf("seed %d: %v in %s", seed, err, raw)
		}
		back, err := FromPosition(s.Config(), p, rng.SeedFromUint64(seed))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		again, _ := json.Marshal(back.Position())
		if string(again) != string(raw) {
			t.Fatalf("seed %d: got %s, want %s", seed, again, raw)
		}
		if back.Outcome() != s.Outcome() || back.Turn() != s.Turn() || back.Plays() != s.Plays() {
			t.Fatalf("seed %d: got %+v turn %d, want %+v turn %d", seed, back.Outcome(), back.Turn(), s.Outcome(), s.Turn())
		}
	}
}

func TestPositionRefused(t *testing.T) {
	good := func() Position {
		return Position{
			Board:     withChips(t, emptyBoard, "a5 b5 c5 d5 e5 b:b7"),
			Sequences: map[string][]Window{"a": {window(t, "a5-e5")}},
			Hands:     hands(t, "7H 2S|3S"),
			Discards:  hands(t, "|"),
			Deck:      cards(t, "4C 5C"),
		}
	}
	if _, err := FromPosition(twoPlayers, good(), rng.Seed{}); err != nil {
		t.Fatalf("the base position is refused: %v", err)
	}
	tests := []struct {
		name   string
		cfg    Config
		change func(p *Position)
	}{
		{"nine rows", twoPlayers, func(p *Position) { p.Board = p.Board[:9] }},
		{"a row of eleven", twoPlayers, func(p *Position) { p.Board[3] += "." }},
		{"a star off the corners", twoPlayers, func(p *Position) { p.Board[3] = "...*......" }},
		{"a chip on a corner", twoPlayers, func(p *Position) { p.Board[0] = "a........*" }},
		{"a third team's chip in a two-team game", twoPlayers, func(p *Position) { p.Board[3] = "...c......" }},
		{"an unknown square", twoPlayers, func(p *Position) { p.Board[3] = "...x......" }},
		{"sequences of a team not in the game", twoPlayers, func(p *Position) { p.Sequences["c"] = nil }},
		{"a sequence over another team's chip", twoPlayers, func(p *Position) { p.Sequences["b"] = []Window{window(t, "a5-e5")} }},
		{"two sequences sharing two cells", twoPlayers, func(p *Position) {
			p.Board[4] = "aaaaaaaaaa"
			p.Sequences["a"] = []Window{window(t, "a5-e5"), window(t, "d5-h5")}
		}},
		{"a sequence off the board", twoPlayers, func(p *Position) { p.Sequences["a"] = []Window{{Start: 8, Dir: Row}} }},
		{"five in a row not listed", twoPlayers, func(p *Position) { p.Sequences = nil }},
		{"a hand larger than the deal", twoPlayers, func(p *Position) { p.Hands[0] = cards(t, "2S 3S 4S 5S 6S 7S 8S 9S") }},
		{"a jack in the bordered deck", Config{Variant: Bordered, Players: 2, Teams: 2}, func(p *Position) { p.Hands[1] = cards(t, "JC") }},
		{"a bordered wild in the classic deck", twoPlayers, func(p *Position) { p.Hands[1] = cards(t, "W+") }},
		{"a third copy of a card", twoPlayers, func(p *Position) { p.Deck = cards(t, "7H 7H") }},
		{"a turn for a seat not at the table", twoPlayers, func(p *Position) { p.Turn = 2 }},
		{"more hands than seats", twoPlayers, func(p *Position) { p.Hands = append(p.Hands, nil) }},
		{"two teams past the target", Config{Players: 2, Teams: 2, Options: Options{SequencesToWin: 1}}, func(p *Position) {
			p.Board[6] = ".bbbbb...."
			p.Sequences["b"] = []Window{window(t, "b7-f7")}
		}},
		{"a penalty due beyond the hand", twoPlayers, func(p *Position) { p.PenaltyDue = 3 }},
		{"a player count the rules do not allow", Config{Players: 5, Teams: 2}, func(p *Position) {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := good()
			tt.change(&p)
			if _, err := FromPosition(tt.cfg, p, rng.Seed{}); !errors.Is(err, ErrSetup) {
				t.Fatalf("got %v, want %v", err, ErrSetup)
			}
		})
	}
}

func TestPositionWithTheTargetReachedIsAWonGame(t *testing.T) {
	p := Position{
		Board:     withChips(t, emptyBoard, "a5 b5 c5 d5 e5"),
		Sequences: map[string][]Window{"a": {window(t, "a5-e5")}},
		Hands:     hands(t, "|||2S"),
	}
	s, err := FromPosition(Config{Players: 6, Teams: 3}, p, rng.Seed{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Outcome(), (Outcome{Status: Won, Winner: 0}); got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

func TestExportVectorReadsBack(t *testing.T) {
	s := randomState(t, 4, 40)
	raw, err := ExportVector(&s, "a live game")
	if err != nil {
		t.Fatal(err)
	}
	var v Vector
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	cfg, err := v.Config()
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.PositionValue()
	if err != nil {
		t.Fatal(err)
	}
	back, err := FromPosition(cfg, p, rng.Seed{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Name != "a live game" || v.Game != "sequence" || *v.Expect.Turn != back.Turn() || v.Expect.Status != back.Status().String() {
		t.Fatalf("got %s", raw)
	}
}
