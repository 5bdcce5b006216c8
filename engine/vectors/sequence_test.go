package vectors

import (
	"errors"
	"strings"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/sequence"
)

// Every Sequence vector in the project's copy must pass.
func TestSequenceVectors(t *testing.T) {
	files, err := Files([]string{"../testdata/vectors/sequence"})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no sequence vectors found")
	}
	for _, f := range files {
		r := CheckFile(f)
		if r.Err != nil {
			t.Errorf("FAIL %s (%s): %v", r.Name, f, r.Err)
		}
	}
}

// sequenceBase is a small passing vector that the checker tests mutate.
const sequenceBase = `{
  "name": "base", "game": "sequence", "variant": "classic", "players": 2, "teams": 2,
  "position": {
    "board": ["*........*", "..........", "..........", "..........", "..........",
              "..........", "..........", "..........", "..........", "*........*"],
    "hands": [["7H", "JC"], ["2S"]], "discards": [[], []], "deck": ["4C", "5C"], "turn": 0
  },
  "steps": [STEPS],
  "expect": {EXPECT}
}`

func sequenceVector(steps, expect string) []byte {
	return []byte(strings.NewReplacer("STEPS", steps, "EXPECT", expect).Replace(sequenceBase))
}

// The checker fails a vector whose engine result differs, and says what
// differed.
func TestSequenceCheckerReportsWhatDiffered(t *testing.T) {
	place := `{"seat": 0, "play": "7H", "at": "i5"}`
	tests := []struct {
		name, steps, expect, want string
	}{
		{"a passing vector passes", place, `"turn": 1, "hands": [["JC", "4C"], ["2S"]], "status": "playing", "winner": null`, ""},
		{"a wrong board fails", place, `"board": ["*........*", "..........", "..........", "..........", "....a.....", "..........", "..........", "..........", "..........", "*........*"]`, "board row 5"},
		{"a wrong turn fails", place, `"turn": 0`, "turn: got seat 1, want seat 0"},
		{"a wrong hand fails", place, `"hands": [["JC", "5C"], ["2S"]]`, "hand of seat 0"},
		{"a wrong discard pile fails", place, `"discards": [[], ["7H"]]`, "discard pile of seat 0"},
		{"a wrong deck size fails", place, `"deck_size": 2`, "deck_size: got 1, want 2"},
		{"a wrong sequence count fails", place, `"sequences": {"a": 1}`, "sequences of team a: got 0, want 1"},
		{"a wrong locked list fails", place, `"locked": ["i5"]`, "locked"},
		{"a wrong status fails", place, `"status": "finished"`, "status: got playing, want finished"},
		{"a wrong winner fails", place, `"winner": "a"`, "winner: got null, want a"},
		{"an illegal step that is accepted fails", `{"seat": 0, "play": "7H", "at": "i5", "expect": "illegal"}`, `"turn": 0`, "accepted, want illegal"},
		{"a legal step that is refused fails", `{"seat": 0, "play": "JC", "at": "a1"}`, `"turn": 0`, "refused"},
		{"an unwritable illegal step counts as refused", `{"seat": 0, "play": "ZZ", "at": "i5", "expect": "illegal"}`, `"turn": 0`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Check(sequenceVector(tt.steps, tt.expect))
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("got %v, want a pass", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("got %v, want a failure saying %q", err, tt.want)
			}
		})
	}
}

func TestSequenceCheckerSetupExpectations(t *testing.T) {
	refused := strings.Replace(string(sequenceVector(`{"seat": 0, "pass": true}`, `"turn": 0`)), `"players": 2`, `"players": 5`, 1)
	if _, err := Check([]byte(refused)); err == nil || !strings.Contains(err.Error(), "set-up was refused") {
		t.Fatalf("a refused set-up: got %v, want a failure", err)
	}
	accepted := `{"name": "x", "game": "sequence", "players": 2, "teams": 2, "expect_error": "setup",
	  "position": {"board": ["*........*", "..........", "..........", "..........", "..........",
	  "..........", "..........", "..........", "..........", "*........*"], "hands": [[], []]}}`
	if _, err := Check([]byte(accepted)); err == nil || !strings.Contains(err.Error(), "accepted") {
		t.Fatalf("an accepted set-up that should be refused: got %v, want a failure", err)
	}
	var fe *FileError
	if _, err := Check([]byte(`{"name": "x", "game": "sequence", "players": "two"}`)); !errors.As(err, &fe) {
		t.Fatalf("an unreadable vector: got %v, want a *FileError", err)
	}
}

// A vector the runner cannot read as the author meant it is a broken file
// (exit 2), not a PASS that checked nothing nor an illegal move: a misspelt
// expected field, and a step naming no action, two of them or half of one.
func TestSequenceMalformedVectorsAreFileErrors(t *testing.T) {
	place := `{"seat": 0, "play": "7H", "at": "i5"}`
	for _, tc := range []struct{ name, steps, expect string }{
		{"a misspelt expected field", place, `"trun": 1`},
		{"a status no game has", place, `"status": "won"`},
		{"a step with no action", `{"seat": 0, "expect": "illegal"}`, `"turn": 0`},
		{"a step with two actions", `{"seat": 0, "play": "7H", "at": "i5", "pass": true, "expect": "illegal"}`, `"turn": 0`},
		{"a play with neither at nor remove", `{"seat": 0, "play": "7H", "expect": "illegal"}`, `"turn": 0`},
		{"a play with both at and remove", `{"seat": 0, "play": "JC", "at": "i5", "remove": "i6", "expect": "illegal"}`, `"turn": 0`},
		{"at without play", `{"seat": 0, "at": "i5", "expect": "illegal"}`, `"turn": 0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Check(sequenceVector(tc.steps, tc.expect))
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a *FileError", err)
			}
		})
	}
}

// A step with no seat is made by the seat whose turn it is (as in Stacks),
// a penalty by the referee; an omitted board is an empty one, as any
// omitted list is empty (vectors.md).
func TestSequenceStepsAndPositionsOmitWhatTheyMay(t *testing.T) {
	seatless := sequenceVector(`{"play": "7H", "at": "i5"}, {"pass": true, "expect": "illegal"}`, `"turn": 1, "hands": [["JC", "4C"], ["2S"]]`)
	if _, err := Check(seatless); err != nil {
		t.Fatalf("seatless steps: %v", err)
	}
	noBoard := `{"name": "x", "game": "sequence", "players": 2, "teams": 2,
	  "position": {"hands": [["7H"], ["2S"]], "deck": ["4C"]},
	  "steps": [{"seat": 0, "play": "7H", "at": "i5"}],
	  "expect": {"board": ["*........*", "..........", "..........", "..........", "........a.",
	    "..........", "..........", "..........", "..........", "*........*"], "turn": 1}}`
	if _, err := Check([]byte(noBoard)); err != nil {
		t.Fatalf("a position with no board: %v", err)
	}
}

// A live game's position exports as a vector that passes.
func TestExportedSequenceVectorsPass(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		cfg := sequence.Config{Variant: sequence.Variant(seed % 2), Players: 6, Teams: 3}
		s, err := sequence.NewGame(cfg, rng.SeedFromUint64(seed))
		if err != nil {
			t.Fatal(err)
		}
		r := rng.NewUint64(seed)
		for i := 0; i < int(seed)*10 && s.Status() == sequence.Playing; i++ {
			moves := sequence.LegalMoves(&s, nil)
			if err := s.Do(s.Turn(), moves[r.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
		raw, err := sequence.ExportVector(&s, "exported")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Check(raw); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, raw)
		}
	}
}
