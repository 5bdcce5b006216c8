package play

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/sequence"
)

// sequenceGame adapts the board game. turns counts turn changes, which the
// engine does not need but clocks do.
type sequenceGame struct {
	setup Setup
	s     sequence.State
	turns int
}

func newSequence(su Setup, seed rng.Seed) (Game, error) {
	variant, err := sequence.ParseVariant(su.Variant)
	if err != nil {
		return nil, &SetupError{Field: "variant", Err: err}
	}
	cfg := sequence.Config{Variant: variant, Players: su.Players, Teams: su.Teams,
		Options: sequence.Options{SequencesToWin: su.SequencesToWin, PlayCap: su.PlayCap}}
	s, err := sequence.NewGame(cfg, seed)
	if err != nil {
		return nil, &SetupError{Field: sequenceFieldAtFault(cfg), Err: err}
	}
	return &sequenceGame{setup: su, s: s}, nil
}

// sequenceFieldAtFault finds the field of a refused set-up by elimination
// (the engine checks the table, then the target, then the cap), so that
// the engine's ranges are stated in one place only: its own.
func sequenceFieldAtFault(cfg sequence.Config) string {
	switch {
	case sequence.DealSize(cfg.Players, cfg.Teams) == 0 && len(TeamCounts("sequence", cfg.Players)) > 0:
		return "teams"
	case sequence.DealSize(cfg.Players, cfg.Teams) == 0:
		return "players"
	}
	cfg.Options.PlayCap = 0
	if cfg.Validate() == nil {
		return "play_cap"
	}
	return "sequences_to_win"
}

func (g *sequenceGame) Setup() Setup        { return g.setup }
func (g *sequenceGame) Ply() int            { return g.s.Ply() }
func (g *sequenceGame) Turn() int           { return g.s.Turn() }
func (g *sequenceGame) TurnCount() int      { return g.turns }
func (g *sequenceGame) InWindow() bool      { return false }
func (g *sequenceGame) ServerMove() string  { return "" }
func (g *sequenceGame) TeamOf(seat int) int { return g.s.TeamOf(seat) }

func (g *sequenceGame) Actors() []int {
	if g.s.Status() != sequence.Playing {
		return nil
	}
	return []int{g.s.Turn()}
}

// errRefereeOnly keeps the table-talk penalty, a referee's decision, out of
// the players' hands.
var errRefereeOnly = errors.New("only a referee can impose the table-talk penalty")

func (g *sequenceGame) Apply(seat int, text string) (Game, error) {
	m, err := sequence.ParseMove(text)
	if err != nil {
		return nil, err
	}
	if m.Kind == sequence.KindPenalize {
		return nil, errRefereeOnly
	}
	next, err := sequence.Apply(g.s, seat, m)
	if err != nil {
		return nil, err
	}
	turns := g.turns
	if next.Turn() != g.s.Turn() {
		turns++
	}
	return &sequenceGame{setup: g.setup, s: next, turns: turns}, nil
}

func (g *sequenceGame) LegalMoves(seat int) []string {
	if seat != g.s.Turn() || g.s.Status() != sequence.Playing {
		return nil
	}
	moves := sequence.LegalMoves(&g.s, nil)
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.String()
	}
	return out
}

func (g *sequenceGame) Status() Status {
	o := g.s.Outcome()
	switch o.Status {
	case sequence.Won:
		return Status{Over: true, Winner: o.Winner}
	case sequence.Drawn:
		return Status{Over: true, Drawn: true, Winner: -1}
	}
	return Status{Winner: -1}
}

// sequenceView is the JSON of a seat's view: rules.md 1.6 and nothing more.
type sequenceView struct {
	Game           string                       `json:"game"`
	Variant        string                       `json:"variant"`
	Seat           int                          `json:"seat"` // -1 for a spectator
	Players        int                          `json:"players"`
	Teams          int                          `json:"teams"`
	SequencesToWin int                          `json:"sequences_to_win"`
	Board          []string                     `json:"board"`
	Sequences      map[string][]sequence.Window `json:"sequences"`
	Locked         []sequence.Cell              `json:"locked"`
	Discards       [][]sequence.Card            `json:"discards"`
	HandSizes      []int                        `json:"hand_sizes"`
	DeckSize       int                          `json:"deck_size"`
	Hand           []sequence.Card              `json:"hand"`
	Turn           int                          `json:"turn"`
	Ply            int                          `json:"ply"`
	Exchanged      bool                         `json:"exchanged"`
	PenaltyOwed    []int                        `json:"penalty_owed"`
	Plays          int                          `json:"plays"`
	Status         string                       `json:"status"`
	Winner         *string                      `json:"winner"`
}

func (g *sequenceGame) ViewJSON(seat int) json.RawMessage {
	if seat < 0 || seat >= g.setup.Players {
		seat = sequence.Spectator
	}
	v := g.s.ViewFor(seat)
	out := sequenceView{
		Game: "sequence", Variant: v.Variant().String(), Seat: v.Seat(), Players: v.Players(), Teams: v.Teams(),
		SequencesToWin: v.SequencesToWin(), Board: v.BoardRows(), Sequences: map[string][]sequence.Window{},
		Locked: v.LockedCells(), DeckSize: v.DeckSize(), Hand: v.Hand(), Turn: v.Turn(), Ply: v.Ply(),
		Exchanged: v.Exchanged(), Plays: v.Plays(), Status: v.Status().String(),
	}
	if out.Hand == nil {
		out.Hand = []sequence.Card{}
	}
	if out.Locked == nil {
		out.Locked = []sequence.Cell{}
	}
	for team := 0; team < v.Teams(); team++ {
		if w := v.Sequences(team); len(w) > 0 {
			out.Sequences[sequence.TeamLetter(team)] = w
		}
	}
	for p := 0; p < v.Players(); p++ {
		d := v.Discards(p)
		if d == nil {
			d = []sequence.Card{}
		}
		out.Discards = append(out.Discards, d)
		out.HandSizes = append(out.HandSizes, v.HandSize(p))
		out.PenaltyOwed = append(out.PenaltyOwed, v.PenaltyOwed(p))
	}
	if v.Status() == sequence.Won {
		w := sequence.TeamLetter(v.Winner())
		out.Winner = &w
	}
	b, err := json.Marshal(out)
	if err != nil {
		panic(fmt.Sprintf("play: encode sequence view: %v", err)) // only plain data: cannot fail
	}
	return b
}

func (g *sequenceGame) VectorJSON(name string) ([]byte, error) {
	return sequence.ExportVector(&g.s, name)
}

func (g *sequenceGame) BotMove(level string, seat int, seed uint64, stop func() bool) (string, error) {
	return chooseBotMove(level, g, seat, seed, stop)
}

// botView is all a bot may see: seat's view.
func (g *sequenceGame) botView(seat int) sequence.View { return g.s.ViewFor(seat) }

func (g *sequenceGame) Scores() []int {
	out := make([]int, g.s.Teams())
	for t := range out {
		out[t] = g.s.SequenceCount(t)
	}
	return out
}
