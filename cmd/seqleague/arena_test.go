package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestArenaPrintsTheTallyOfEveryGame(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{
			name: "sequence, one against one",
			args: []string{"arena", "--game", "sequence", "--a", "greedy", "--b", "random", "--games", "6", "--seed", "3"},
			want: []string{"sequence classic, 2 players in 2 teams", "in 6 games", "A win rate:", "Elo difference"},
		},
		{
			name: "sequence, three teams, bordered",
			args: []string{"arena", "--game", "sequence", "--variant", "bordered", "--players", "3", "--a", "random", "--b", "greedy", "--games", "3"},
			want: []string{"sequence bordered, 3 players in 3 teams", "in 3 games", "33.3% at equal strength"},
		},
		{
			name: "stacks, four seats",
			args: []string{"arena", "--game", "stacks", "--players", "4", "--a", "strong", "--b", "greedy", "--games", "4", "--budget", "20"},
			want: []string{"stacks, 4 players", "in 4 games", "strong budget 20 iterations"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(context.Background(), tt.args, envOf(nil), &out, &errOut); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}

// A long run says how far it is, on stderr, leaving stdout to the tally.
func TestArenaPrintsItsProgress(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"arena", "--game", "sequence", "--a", "greedy", "--b", "random", "--games", "6", "--progress", "2", "--workers", "2"}
	if code := run(context.Background(), args, envOf(nil), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, w := range []string{"arena: 2 of 6 games, A ", "arena: 4 of 6 games, A ", "% so far (95% CI ", "left\n"} {
		if !strings.Contains(errOut.String(), w) {
			t.Errorf("stderr lacks %q:\n%s", w, errOut.String())
		}
	}
	if strings.Contains(errOut.String(), "6 of 6") || strings.Contains(out.String(), "so far") {
		t.Errorf("the last game's line belongs to the tally on stdout alone:\nstdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
	}
	errOut.Reset()
	args = append(args[:len(args)-4], "--progress", "-1")
	if code := run(context.Background(), args, envOf(nil), &out, &errOut); code != 0 || errOut.Len() > 0 {
		t.Errorf("--progress -1: exit %d, stderr %q", code, errOut.String())
	}
}

func TestArenaRefusesABadTable(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{name: "five players of sequence", args: []string{"arena", "--game", "sequence", "--players", "5"}},
		{name: "an unknown level", args: []string{"arena", "--a", "grandmaster"}},
		{name: "an unknown game", args: []string{"arena", "--game", "chess"}},
		{name: "a negative progress step", args: []string{"arena", "--progress", "-2"}},
		{name: "teams in stacks", args: []string{"arena", "--game", "stacks", "--players", "4", "--teams", "2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(context.Background(), tt.args, envOf(nil), &out, &errOut); code == 0 {
				t.Fatalf("exit 0, want a refusal; output:\n%s", out.String())
			}
		})
	}
}
