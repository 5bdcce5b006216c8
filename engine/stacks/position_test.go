package stacks

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

func TestFromPositionRefusesImpossiblePositions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		players int
		js      string
	}{
		{"one player", 1, `{"hands": [["R1"]]}`},
		{"seven players", 7, `{}`},
		{"hands for the wrong number of seats", 3, `{"hands": [["R1"], ["R2"]]}`},
		{"ten R1 where the box has nine", 3, `{"hands": [["R1","R1","R1","R1","R1"], ["R1","R1","R1","R1","R1"], []]}`},
		{"three BLOCKs with two players", 2, `{"hands": [["BLOCK","BLOCK"], ["BLOCK"]]}`},
		{"three red piles", 3, `{"piles": [{"color":"red","cards":["R1"]},{"color":"red","cards":["R1"]},{"color":"red","cards":["R1"]}]}`},
		{"a pile that is not a run", 3, `{"piles": [{"color":"red","cards":["R1","R3"]}]}`},
		{"a pile of the wrong colour", 3, `{"piles": [{"color":"blue","cards":["R1"]}]}`},
		{"a complete pile left on the table", 3, `{"piles": [{"color":"red","cards":["R1","R2","R3","R4","R5"]}]}`},
		{"an empty pile", 3, `{"piles": [{"color":"red","cards":[]}]}`},
		{"21 red chips", 2, `{"chips": [{"red": 11, "blue": 0}, {"red": 10, "blue": 0}]}`},
		{"a supply that overflows the box", 2, `{"chips": [{"red": 1, "blue": 0}, {"red": 0, "blue": 0}], "supply": {"red": 20, "blue": 20}}`},
		{"negative chips", 2, `{"chips": [{"red": -1, "blue": 0}, {"red": 0, "blue": 0}]}`},
		{"a turn beyond the table", 3, `{"turn": 3}`},
		{"direction 2", 3, `{"direction": 2}`},
		{"a skipped seat beyond the table", 3, `{"skipped": [4]}`},
		{"a player who has already won", 2, `{"chips": [{"red": 2, "blue": 3}, {"red": 0, "blue": 0}]}`},
		{"a finished game whose winner has not won", 2, `{"status": "finished", "winner": 1}`},
		{"an unknown status", 2, `{"status": "paused"}`},
		{"a window every seat has answered", 2, `{"block_window": {"color": "red", "answered": [1]}}`},
		{"the completer answering its own window", 3, `{"block_window": {"color": "red", "answered": [0]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p Position
			if err := json.Unmarshal([]byte(tc.js), &p); err != nil {
				t.Fatal(err)
			}
			_, err := FromPosition(tc.players, p, rng.Seed{})
			if !errors.Is(err, ErrSetup) {
				t.Fatalf("got %v, want an error wrapping ErrSetup", err)
			}
		})
	}
}

func TestFromPositionAcceptsPartialPositions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		players int
		js      string
	}{
		{"nothing at all", 2, `{}`},
		{"a few cards and an explicit empty supply", 3, `{"hands": [["R1"], [], ["B2"]], "supply": {"red": 0, "blue": 0}}`},
		{"a finished game", 2, `{"chips": [{"red": 2, "blue": 3}, {"red": 0, "blue": 0}], "status": "finished", "winner": 0}`},
		{"an open window", 3, `{"hands": [["R1"], ["BLOCK"], []], "block_window": {"color": "blue", "answered": [2]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p Position
			if err := json.Unmarshal([]byte(tc.js), &p); err != nil {
				t.Fatal(err)
			}
			if _, err := FromPosition(tc.players, p, rng.Seed{}); err != nil {
				t.Fatalf("refused: %v", err)
			}
		})
	}
}

// Position and FromPosition are inverse: any reachable state, windows and
// finished games included, comes back equal except for its generator.
func TestPositionRoundTrips(t *testing.T) {
	n := 0
	forRandomStates(t, 4, 10, func(s *State) {
		n++
		if n%3 != 0 && !s.Over() && s.Phase() != PhaseWindow {
			return
		}
		raw, err := json.Marshal(s.Position())
		if err != nil {
			t.Fatal(err)
		}
		var p Position
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		back, err := FromPosition(4, p, rng.Seed{})
		if err != nil {
			t.Fatalf("FromPosition(Position()): %v\n%s", err, raw)
		}
		back.rng = s.rng
		if back != *s {
			t.Fatalf("round trip changed the state:\n%s", raw)
		}
	})
}

func TestExportVectorIsAVector(t *testing.T) {
	s, _ := New(Config{Players: 3}, rng.SeedFromUint64(8))
	raw, err := ExportVector(&s, "a fresh deal")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Name     string          `json:"name"`
		Game     string          `json:"game"`
		Players  int             `json:"players"`
		Position json.RawMessage `json:"position"`
		Expect   map[string]any  `json:"expect"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Name != "a fresh deal" || doc.Game != "stacks" || doc.Players != 3 || doc.Expect["status"] != "playing" {
		t.Fatalf("header %q %q %d status %v, want the name, stacks, 3, playing", doc.Name, doc.Game, doc.Players, doc.Expect["status"])
	}
	var p Position
	if err := json.Unmarshal(doc.Position, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Deck) != 120-15 || p.Deck[0] != s.deck.top() {
		t.Fatalf("deck of %d starting %v, want 105 cards, top first (%v)", len(p.Deck), p.Deck[0], s.deck.top())
	}
}
