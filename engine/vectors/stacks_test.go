package vectors

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/stacks"
)

// TestStacksVectors runs every stacks vector the project keeps; each one is
// a subtest named after the vector, so a failure names the ruling it breaks.
func TestStacksVectors(t *testing.T) {
	files, err := Files([]string{filepath.Join("..", "testdata", "vectors", "stacks")})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no stacks vectors found")
	}
	for _, f := range files {
		r := CheckFile(f)
		t.Run(filepath.Base(f), func(t *testing.T) {
			var fe *FileError
			switch {
			case errors.As(r.Err, &fe):
				t.Errorf("ERROR %v", fe)
			case r.Err != nil:
				t.Errorf("FAIL %s: %v", r.Name, r.Err)
			}
		})
	}
}

// An exported game position is a vector that passes as it is: the export,
// the importer and the checker agree on every field.
func TestStacksExportedPositionsPass(t *testing.T) {
	var buf [stacks.MaxLegalMoves]stacks.Move
	for players := stacks.MinPlayers; players <= stacks.MaxPlayers; players++ {
		s, err := stacks.New(stacks.Config{Players: players}, rng.SeedFromUint64(uint64(players)))
		if err != nil {
			t.Fatal(err)
		}
		r := rng.NewUint64(uint64(players))
		for ply := 0; !s.Over(); ply++ {
			moves := stacks.LegalMoves(&s, buf[:0])
			if err := s.Apply(moves[r.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
			if ply%25 != 0 && !s.Over() {
				continue
			}
			raw, err := stacks.ExportVector(&s, "exported")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Check(raw); err != nil {
				t.Fatalf("%d players, ply %d: the exported vector fails: %v\n%s", players, ply, err, raw)
			}
		}
	}
}

// A FAIL says what differed, field by field, and which step went wrong.
func TestStacksFailuresSayWhatDiffered(t *testing.T) {
	const base = `{"name": "n", "game": "stacks", "players": 2,
		"position": {"piles": [{"color": "red", "cards": ["R1"]}], "hands": [["R2", "B1"], ["B2"]], "deck": ["B3", "B4", "B5"]},
		"steps": [%s], "expect": {%s}}`
	for _, tc := range []struct {
		name, steps, expect, want string
	}{
		{"a wrong field", `{"seat": 0, "play": "R2", "pile": 0}`, `"piles": [{"color": "red", "cards": ["R1"]}], "turn": 0`,
			`piles: got [{"color":"red","cards":["R1","R2"]}], want [{"color":"red","cards":["R1"]}]`},
		{"a refused step", `{"seat": 1, "play": "B2", "pile": "new"}`, ``,
			`step 1 (seat 1: B2>new): refused: stacks: this seat may not act now`},
		{"an accepted illegal step", `{"seat": 0, "discard": "B1", "expect": "illegal"}`, ``,
			`step 1 (seat 0: /B1): accepted; want it refused`},
		{"a winner that differs", ``, `"winner": 1, "status": "finished"`,
			`status: got "playing", want "finished"; winner: got null, want 1`},
		{"a set-up that should have been refused", ``, ``, `set-up was accepted`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := fmt.Sprintf(base, tc.steps, tc.expect)
			if tc.name == "a set-up that should have been refused" {
				raw = `{"name": "n", "game": "stacks", "players": 2, "position": {}, "expect_error": "setup"}`
			}
			_, err := Check([]byte(raw))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want a failure containing %q", err, tc.want)
			}
		})
	}
}

// Any step but an answer first closes an open block window (vectors.md),
// and one naming something that does not exist is no exception: the chip
// is granted whether the refused step could be read or not.
func TestEveryStepButAnAnswerClosesTheWindow(t *testing.T) {
	const base = `{"name": "n", "game": "stacks", "players": 3,
		"position": {"piles": [{"color": "red", "cards": ["R1", "R2", "R3", "R4"]}],
		  "hands": [["R5", "B1", "B3"], ["B2"], ["BLOCK"]], "deck": ["B4", "B5"]},
		"steps": [{"seat": 0, "play": "R5", "pile": 0}, %s, {"seat": 2, "play": "BLOCK", "expect": "illegal"}],
		"expect": {"chips": [{"red": 1, "blue": 0}, {"red": 0, "blue": 0}, {"red": 0, "blue": 0}]}}`
	for _, step := range []string{
		`{"seat": 0, "play": "B1", "pile": 0, "expect": "illegal"}`,
		`{"seat": 0, "play": "B1", "pile": "top", "expect": "illegal"}`,
		`{"seat": 0, "play": "Q9", "pile": "new", "expect": "illegal"}`,
		`{"seat": 0, "play": "B1", "pile": "new"}`,
	} {
		if _, err := Check([]byte(fmt.Sprintf(base, step))); err != nil {
			t.Errorf("after %s: %v", step, err)
		}
	}
}

func TestStacksMalformedVectorsAreFileErrors(t *testing.T) {
	for _, raw := range []string{
		`{"name": "n", "game": "stacks", "players": 2, "steps": [{"seat": 0}], "expect": {}}`,
		`{"name": "n", "game": "stacks", "players": 2, "steps": [], "expect": {"colour": 1}}`,
		`{"name": "n", "game": "stacks", "players": 2, "expect_error": "later"}`,
		`{"name": "n", "game": "stacks", "players": "two"}`,
	} {
		_, err := Check([]byte(raw))
		var fe *FileError
		if err != nil && !errors.As(err, &fe) {
			t.Errorf("%s: got %v, want a file error", raw, err)
		}
		if err == nil {
			t.Errorf("%s: passed", raw)
		}
	}
}
