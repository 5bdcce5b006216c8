package play

import (
	"encoding/json"
	"fmt"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/stacks"
)

type stacksGame struct {
	setup Setup
	s     stacks.State
	ply   int
}

func newStacks(su Setup, seed rng.Seed) (Game, error) {
	if su.Variant != "" {
		return nil, &SetupError{Field: "variant", Err: fmt.Errorf("stacks: no variant %q", su.Variant)}
	}
	if su.SequencesToWin != 0 {
		return nil, &SetupError{Field: "sequences_to_win", Err: fmt.Errorf("stacks: sequences_to_win does not apply")}
	}
	s, err := stacks.New(stacks.Config{Players: su.Players, PlayCap: su.PlayCap}, seed)
	if err != nil {
		field := "play_cap"
		if len(TeamCounts("stacks", su.Players)) == 0 {
			field = "players"
		}
		return nil, &SetupError{Field: field, Err: err}
	}
	if su.Teams != 0 && su.Teams != su.Players {
		return nil, &SetupError{Field: "teams", Err: fmt.Errorf("stacks: every player is a team of one (teams must equal players, %d)", su.Players)}
	}
	su.Teams = su.Players
	return &stacksGame{setup: su, s: s}, nil
}

func (g *stacksGame) Setup() Setup        { return g.setup }
func (g *stacksGame) Ply() int            { return g.ply }
func (g *stacksGame) Turn() int           { return g.s.Turn() }
func (g *stacksGame) TurnCount() int      { return g.s.Turns() }
func (g *stacksGame) InWindow() bool      { return g.s.Phase() == stacks.PhaseWindow }
func (g *stacksGame) ServerMove() string  { return stacks.CloseWindow().String() }
func (g *stacksGame) TeamOf(seat int) int { return seat }

func (g *stacksGame) Actors() []int {
	var out []int
	for p := 0; p < g.s.Players(); p++ {
		if g.s.MayAct(p) {
			out = append(out, p)
		}
	}
	return out
}

func (g *stacksGame) Apply(seat int, text string) (Game, error) {
	if seat < 0 {
		seat = stacks.Server
	}
	m, err := stacks.ParseMove(seat, text)
	if err != nil {
		return nil, err
	}
	next := g.s
	if err := next.Apply(m); err != nil {
		return nil, err
	}
	return &stacksGame{setup: g.setup, s: next, ply: g.ply + 1}, nil
}

func (g *stacksGame) LegalMoves(seat int) []string {
	moves := stacks.LegalMovesFor(&g.s, seat, nil)
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.String()
	}
	return out
}

func (g *stacksGame) Status() Status {
	switch g.s.Phase() {
	case stacks.PhaseWon:
		return Status{Over: true, Winner: g.s.Outcome().Winner}
	case stacks.PhaseDrawn:
		return Status{Over: true, Drawn: true, Winner: -1}
	}
	return Status{Winner: -1}
}

// stacksView adds the game's name to the engine's view, which already holds
// exactly what rules.md 2.5 allows.
type stacksView struct {
	Game string `json:"game"`
	Ply  int    `json:"ply"`
	stacks.View
}

func (g *stacksGame) ViewJSON(seat int) json.RawMessage {
	var v stacks.View
	if seat < 0 || seat >= g.s.Players() {
		v = g.s.SpectatorView()
	} else {
		v = g.s.ViewFor(seat)
	}
	if v.Hand == nil {
		v.Hand = []stacks.Card{}
	}
	b, err := json.Marshal(stacksView{Game: "stacks", Ply: g.ply, View: v})
	if err != nil {
		panic(fmt.Sprintf("play: encode stacks view: %v", err))
	}
	return b
}

func (g *stacksGame) VectorJSON(name string) ([]byte, error) {
	return stacks.ExportVector(&g.s, name)
}

func (g *stacksGame) BotMove(level string, seat int, seed uint64, stop func() bool) (string, error) {
	return chooseBotMove(level, g, seat, seed, stop)
}

// botView is all a bot may see: seat's view.
func (g *stacksGame) botView(seat int) stacks.View { return g.s.ViewFor(seat) }

func (g *stacksGame) Scores() []int {
	out := make([]int, g.s.Players())
	for p := range out {
		c := g.s.Chips(p)
		out[p] = c[0] + c[1]
	}
	return out
}
