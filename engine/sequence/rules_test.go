package sequence

import (
	"errors"
	"slices"
	"testing"
)

func seqNames(s *State, team int) []string {
	var out []string
	for _, w := range s.Sequences(team) {
		out = append(out, w.String())
	}
	return out
}

// The window choice of rules.md 1.4.
func TestWindowChoice(t *testing.T) {
	four := Config{Players: 2, Teams: 2, Options: Options{SequencesToWin: 4}}
	tests := []struct {
		name    string
		f       fixture
		move    string
		want    []string // team a's sequences afterwards
		wantErr error
	}{
		{
			name: "a run of six claims the window nearest the line's start",
			f:    fixture{chips: "a5 b5 d5 e5 f5", hands: "7C|2S", deck: "4C"},
			move: "7C@c5", want: []string{"a5-e5"},
		},
		{
			name: "a named window of a run of six is claimed instead",
			f:    fixture{chips: "a5 b5 d5 e5 f5", hands: "7C|2S", deck: "4C"},
			move: "7C@c5[b5-f5]", want: []string{"b5-f5"},
		},
		{
			name: "a named window that is not five of the team's cells is refused",
			f:    fixture{chips: "a5 b5 d5 e5 f5", hands: "7C|2S", deck: "4C"},
			move: "7C@c5[c5-g5]", wantErr: ErrIllegalMove,
		},
		{
			name: "naming a window when the play completes none is refused",
			f:    fixture{chips: "a5 b5", hands: "7C|2S", deck: "4C"},
			move: "7C@c5[a5-e5]", wantErr: ErrIllegalMove,
		},
		{
			name: "a run of nine bridged in the middle makes two sequences",
			f:    fixture{cfg: four, chips: "a5 b5 c5 d5 f5 g5 h5 i5", hands: "5H|2S", deck: "4C"},
			move: "5H@e5", want: []string{"a5-e5", "e5-i5"},
		},
		{
			name: "naming one window of a bridged nine is refused: it does not give the most",
			f:    fixture{cfg: four, chips: "a5 b5 c5 d5 f5 g5 h5 i5", hands: "5H|2S", deck: "4C"},
			move: "5H@e5[a5-e5]", wantErr: ErrIllegalMove,
		},
		{
			name: "naming both windows of a bridged nine is accepted",
			f:    fixture{cfg: four, chips: "a5 b5 c5 d5 f5 g5 h5 i5", hands: "5H|2S", deck: "4C"},
			move: "5H@e5[e5-i5,a5-e5]", want: []string{"a5-e5", "e5-i5"},
		},
		{
			name: "two lines through the placed cell make two sequences",
			f:    fixture{cfg: four, chips: "a5 b5 c5 d5 e1 e2 e3 e4", hands: "5H|2S", deck: "4C"},
			move: "5H@e5", want: []string{"a5-e5", "e1-e5"},
		},
		{
			name: "a new sequence may share one cell with the team's old one",
			f: fixture{cfg: four, chips: "a5 b5 c5 d5 e5 f5 g5 h5", hands: "7H|2S", deck: "4C",
				seqs: map[string][]Window{"a": {window(t, "a5-e5")}}},
			move: "7H@i5", want: []string{"a5-e5", "e5-i5"},
		},
		{
			name: "a window sharing two cells with the team's old sequence is not claimed",
			f: fixture{cfg: four, chips: "a5 b5 c5 d5 e5 f5 g5", hands: "9D|2S", deck: "4C",
				seqs: map[string][]Window{"a": {window(t, "a5-e5")}}},
			move: "9D@h5", want: []string{"a5-e5"},
		},
		{
			name: "a corner serves one team's sequence and another's",
			f: fixture{chips: "a2 a3 a4 b:b1 b:c1 b:d1 b:e1", hands: "9C|2S", deck: "4C",
				seqs: map[string][]Window{"b": {window(t, "a1-e1")}}},
			move: "9C@a5", want: []string{"a1-a5"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.f.state(t)
			before := s
			err := s.Do(0, move(t, tt.move))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("got error %v, want %v", err, tt.wantErr)
				}
				if s != before {
					t.Fatal("a refused move changed the state")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := seqNames(&s, 0); !slices.Equal(got, tt.want) {
				t.Fatalf("got sequences %v, want %v", got, tt.want)
			}
		})
	}
}
