package stacks

import (
	"fmt"

	"github.com/seqleague/seqleague/engine/rng"
)

// Table limits. The state is made of fixed-size arrays so that it is a
// comparable value: copying it is a snapshot, == checks a replay bit for bit,
// and the hot path never allocates.
const (
	MinPlayers     = 2
	MaxPlayers     = 6
	MaxCards       = 120 // the full box
	HandSize       = 5
	MaxPiles       = 4 // two per colour
	PileLength     = 5 // the card that makes five completes the pile
	ChipsPerColor  = 20
	ChipsToWin     = 5
	ChipsEachColor = 2
	DefaultPlayCap = 500 // turns
)

// Config is a game's set-up.
type Config struct {
	Players int
	// PlayCap is the number of finished turns after which the game is drawn;
	// 0 means DefaultPlayCap.
	PlayCap int
}

func (c Config) playCap() int {
	if c.PlayCap == 0 {
		return DefaultPlayCap
	}
	return c.PlayCap
}

func (c Config) validate() error {
	if c.Players < MinPlayers || c.Players > MaxPlayers {
		return fmt.Errorf("stacks: %d players; Sequence Stacks is for %d–%d", c.Players, MinPlayers, MaxPlayers)
	}
	if c.PlayCap < 0 || c.PlayCap > 65535 {
		return fmt.Errorf("stacks: play cap %d out of range 1–65535", c.PlayCap)
	}
	return nil
}

// Phase says who may act.
type Phase uint8

const (
	// PhasePlay: the player whose turn it is plays, discards or ends the turn.
	PhasePlay Phase = iota
	// PhaseWindow: a pile was just completed; the other seats may BLOCK or
	// answer noblock, and the server may close the window.
	PhaseWindow
	// PhaseWon: a player met the winning condition; the game is over.
	PhaseWon
	// PhaseDrawn: the play cap was reached; the game is over.
	PhaseDrawn
)

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// pile is a sequence pile on the table: a run of one colour, bottom first,
// whose i-th card is the number i+1 or a wild of the colour. Its top value is
// its length, since every run starts at 1.
type pile struct {
	col   Color
	n     uint8
	cards [PileLength - 1]Card
}

// stack is an ordered pile of cards, bottom first: the top is c[n-1]. The
// draw pile, the set-aside pile and each discard pile are stacks.
type stack struct {
	n uint8
	c [MaxCards]Card
}

func (s *stack) push(c Card) { s.c[s.n] = c; s.n++ }

func (s *stack) pop() Card { s.n--; c := s.c[s.n]; s.c[s.n] = NoCard; return c }

func (s *stack) top() Card {
	if s.n == 0 {
		return NoCard
	}
	return s.c[s.n-1]
}

func (s *stack) cards() []Card { return s.c[:s.n] }

// State is a whole game, hidden cards and generator included. It is a value:
// copy it to keep a snapshot, compare it with == to check a replay. Servers
// keep it; seats only ever get a View.
type State struct {
	players uint8
	turn    uint8
	dir     int8
	phase   Phase
	winner  int8
	// window: the colour of the pile just completed and the seats that have
	// answered noblock (bit per seat). Meaningful only in PhaseWindow.
	winColor Color
	answered uint8
	nPiles   uint8
	playCap  uint16
	turns    uint16 // finished turns, for the play cap
	supply   [2]uint8
	chips    [MaxPlayers][2]uint8
	skipped  [MaxPlayers]uint8 // 1: the seat will lose its next turn
	handN    [MaxPlayers]uint8
	hands    [MaxPlayers][NumKinds]uint8
	handMask [MaxPlayers]uint32 // bit c set while the hand holds a c
	piles    [MaxPiles]pile
	deck     stack // top is the next card drawn
	setaside stack
	discards [MaxPlayers]stack
	rng      rng.Rand
}

// New deals a game: the box (rules.md 2.1) in canonical kind order is shuffled
// with the engine's Fisher–Yates over the generator seeded from seed, and five
// cards are dealt one at a time, seat 0 first, from the top (the end of the
// shuffled array). Seat 0 starts, direction +1.
func New(cfg Config, seed rng.Seed) (State, error) {
	var s State
	if err := cfg.validate(); err != nil {
		return s, err
	}
	s.players = uint8(cfg.Players)
	s.playCap = uint16(cfg.playCap())
	s.dir = 1
	s.winner = -1
	s.supply = [2]uint8{ChipsPerColor, ChipsPerColor}
	s.rng = rng.New(seed)
	comp := Composition(cfg.Players)
	for k := R1; k < numKinds; k++ {
		for i := 0; i < comp[k]; i++ {
			s.deck.push(k)
		}
	}
	rng.Shuffle(&s.rng, s.deck.c[:s.deck.n])
	for r := 0; r < HandSize; r++ {
		for p := 0; p < cfg.Players; p++ {
			s.draw(p)
		}
	}
	return s, nil
}

// Players is the number of seats.
func (s *State) Players() int { return int(s.players) }

// Turn is the seat whose turn it is (also the completer during a window).
func (s *State) Turn() int { return int(s.turn) }

// Direction is +1 (seat+1) or -1.
func (s *State) Direction() int { return int(s.dir) }

// Phase says who may act now.
func (s *State) Phase() Phase { return s.phase }

// Turns is the number of finished turns.
func (s *State) Turns() int { return int(s.turns) }

// PlayCap is the number of finished turns after which the game is drawn.
func (s *State) PlayCap() int { return int(s.playCap) }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.phase >= PhaseWon }

// Status of a game, as the vectors name it.
type Status uint8

const (
	Playing Status = iota
	Finished
	Drawn
)

func (st Status) String() string {
	if int(st) < len(statusNames) {
		return statusNames[st]
	}
	return fmt.Sprintf("Status(%d)", uint8(st))
}

// Outcome is how the game stands: Winner is the winning seat, or -1.
type Outcome struct {
	Status Status
	Winner int
}

// Outcome reports whether the game is still going, won (and by whom) or drawn.
func (s *State) Outcome() Outcome {
	switch s.phase {
	case PhaseWon:
		return Outcome{Status: Finished, Winner: int(s.winner)}
	case PhaseDrawn:
		return Outcome{Status: Drawn, Winner: -1}
	}
	return Outcome{Status: Playing, Winner: -1}
}

// MayAct reports whether seat may submit a move now: the player whose turn it
// is in PhasePlay; in a block window every other seat that has not answered
// yet (whether or not it holds a BLOCK: the answer reveals nothing), and
// Server, which closes the window when its time runs out.
func (s *State) MayAct(seat int) bool {
	switch s.phase {
	case PhasePlay:
		return seat == int(s.turn)
	case PhaseWindow:
		if seat == Server {
			return true
		}
		return seat >= 0 && seat < int(s.players) && seat != int(s.turn) && s.answered&(1<<seat) == 0
	}
	return false
}

// HandSize is the number of cards seat holds.
func (s *State) HandSize(seat int) int { return int(s.handN[seat]) }

// Hand is seat's hand in kind order. Only that seat (and the server) may see it.
func (s *State) Hand(seat int) []Card {
	return handCards(&s.hands[seat], make([]Card, 0, s.handN[seat]))
}

func handCards(h *[NumKinds]uint8, buf []Card) []Card {
	for k := R1; k < numKinds; k++ {
		for i := uint8(0); i < h[k]; i++ {
			buf = append(buf, k)
		}
	}
	return buf
}

// Chips is seat's chips, indexed by Color.
func (s *State) Chips(seat int) [2]int {
	return [2]int{int(s.chips[seat][Red]), int(s.chips[seat][Blue])}
}

// wins is the winning condition (rules.md 2.4).
func wins(red, blue int) bool {
	return red+blue >= ChipsToWin && red >= ChipsEachColor && blue >= ChipsEachColor
}

// next is the seat after seat in the current direction.
func (s *State) next(seat int) int {
	n := seat + int(s.dir)
	switch {
	case n < 0:
		n += int(s.players)
	case n >= int(s.players):
		n -= int(s.players)
	}
	return n
}

var phaseNames = [...]string{"play", "block-window", "won", "drawn"}

// MarshalText writes the phase's name, for views sent as JSON.
func (p Phase) MarshalText() ([]byte, error) {
	if int(p) >= len(phaseNames) {
		return nil, fmt.Errorf("stacks: invalid phase %d", uint8(p))
	}
	return []byte(phaseNames[p]), nil
}

// UnmarshalText reads a phase's name.
func (p *Phase) UnmarshalText(b []byte) error {
	for i, n := range phaseNames {
		if n == string(b) {
			*p = Phase(i)
			return nil
		}
	}
	return fmt.Errorf("stacks: unknown phase %q", b)
}

var statusNames = [...]string{"playing", "finished", "drawn"}

// MarshalText writes the status as vectors name it.
func (st Status) MarshalText() ([]byte, error) {
	if int(st) >= len(statusNames) {
		return nil, fmt.Errorf("stacks: invalid status %d", uint8(st))
	}
	return []byte(statusNames[st]), nil
}

// UnmarshalText reads a status.
func (st *Status) UnmarshalText(b []byte) error {
	for i, n := range statusNames {
		if n == string(b) {
			*st = Status(i)
			return nil
		}
	}
	return fmt.Errorf("stacks: unknown status %q", b)
}
