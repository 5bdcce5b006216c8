package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/seqleague/seqleague/league/testenv"
)

func TestEngineVectorsPassesTheSuiteAndFailsOnABadFile(t *testing.T) {
	var out bytes.Buffer
	if code := run(context.Background(), []string{"engine", "vectors", "../../engine/testdata/vectors"}, envOf(nil), &out, &out); code != 0 {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
	if !strings.HasSuffix(strings.TrimSpace(out.String()), " 0 failed") {
		t.Fatalf("closing line: %q", out.String())
	}
	bad := t.TempDir() + "/bad.json"
	writeFile(t, bad, "{not json")
	out.Reset()
	if code := run(context.Background(), []string{"engine", "vectors", bad}, envOf(nil), &out, &out); code != 2 {
		t.Fatalf("unreadable vector: exit %d, want 2:\n%s", code, out.String())
	}
	// A directory with no vectors (a mistyped path in CI) passes nothing.
	out.Reset()
	if code := run(context.Background(), []string{"engine", "vectors", t.TempDir()}, envOf(nil), &out, &out); code != 2 {
		t.Fatalf("an empty directory: exit %d, want 2:\n%s", code, out.String())
	}
	// A missing path is reported, and the paths beside it still checked.
	out.Reset()
	if code := run(context.Background(), []string{"engine", "vectors", "../../engine/testdata/vectors/stacks", t.TempDir() + "/missing"}, envOf(nil), &out, &out); code != 2 ||
		!strings.Contains(out.String(), "PASS ") || !strings.Contains(out.String(), "ERROR ") {
		t.Fatalf("a missing path beside a suite: exit %d, want 2 with the suite's PASS lines:\n%s", code, out.String())
	}
	// So is naming no path at all.
	out.Reset()
	if code := run(context.Background(), []string{"engine", "vectors"}, envOf(nil), &out, &out); code != 2 {
		t.Fatalf("no path: exit %d, want 2:\n%s", code, out.String())
	}
}

func TestSelfplayPrintsResultsForBothGames(t *testing.T) {
	for _, args := range [][]string{
		{"engine", "selfplay", "--variant", "classic", "--players", "4", "--teams", "2", "--games", "50", "--seed", "1"},
		{"engine", "selfplay", "--game", "stacks", "--players", "4", "--games", "50"},
	} {
		var out bytes.Buffer
		if code := run(context.Background(), args, envOf(nil), &out, &out); code != 0 {
			t.Fatalf("%v: exit %d:\n%s", args, code, out.String())
		}
		for _, want := range []string{"wins:", "draws:", "mean plies:", "games per second:"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, out.String())
			}
		}
	}
	var out bytes.Buffer
	if code := run(context.Background(), []string{"engine", "selfplay", "--players", "5"}, envOf(nil), &out, &out); code == 0 || !strings.Contains(out.String(), "5 players") {
		t.Fatalf("5 players: exit %d, output %q; want a clear refusal", code, out.String())
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSeedThenRecomputeFindsTheSeededRatingsUnplayed(t *testing.T) {
	env := map[string]string{"DATABASE_URL": testenv.Postgres(t), "SEQLEAGUE_DATA_DIR": t.TempDir()}
	var out bytes.Buffer
	if code := run(context.Background(), []string{"seed", "--players", "500", "--games", "40", "--seed", "7"}, envOf(env), &out, &out); code != 0 {
		t.Fatalf("seed: exit %d: %s", code, out.String())
	}
	if !strings.Contains(out.String(), "created 500 players and 40 games") {
		t.Fatalf("seed output: %q", out.String())
	}
	// Seeded ratings have no history behind them, so a recompute reports
	// every one of them as different, and exits 1.
	out.Reset()
	code := run(context.Background(), []string{"ratings", "recompute"}, envOf(env), &out, &out)
	if code != 1 || !strings.Contains(out.String(), "replayed 0 rated games of 0 players (0 ratings, one per player and pool): 500 stored ratings and 0 history entries differ") {
		t.Fatalf("recompute: exit %d: %s", code, out.String())
	}
	// The same seed again makes the same accounts: a plain refusal, not a
	// raw duplicate-key error.
	out.Reset()
	if code := run(context.Background(), []string{"seed", "--players", "500", "--seed", "7"}, envOf(env), &out, &out); code != 1 || !strings.Contains(out.String(), "give another --seed") {
		t.Fatalf("seed 7 again: exit %d: %s", code, out.String())
	}
}
