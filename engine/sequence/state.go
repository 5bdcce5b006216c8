package sequence

import (
	"github.com/seqleague/seqleague/engine/rng"
)

// Square is what a cell holds.
type Square int8

// The contents of a cell. A chip is TeamA+team.
const (
	Empty  Square = 0
	TeamA  Square = 1
	TeamB  Square = 2
	TeamC  Square = 3
	Corner Square = 4 // a free corner: counts for every team, holds no chip
)

// Team is the chip's team (0 = a), or -1 for an empty cell or a corner.
func (q Square) Team() int {
	if q >= TeamA && q <= TeamC {
		return int(q - TeamA)
	}
	return -1
}

// Status is where the game stands.
type Status uint8

// Game statuses.
const (
	Playing Status = iota
	Won
	Drawn
)

// String is the vector format's word: playing, finished or drawn.
func (s Status) String() string {
	switch s {
	case Playing:
		return "playing"
	case Won:
		return "finished"
	case Drawn:
		return "drawn"
	}
	return "Status(?)"
}

// Outcome is the result so far.
type Outcome struct {
	Status Status
	Winner int // the winning team (0 = a) when Status is Won, else -1
}

// Table is everything every seat and every spectator may see (rules.md 1.6):
// the board, the locked windows, every discard pile, the size of the draw
// pile and of every hand, and whose turn it is and how far it has got. It
// holds no card that is hidden from anyone, nor the generator, so a View can
// carry it whole.
type Table struct {
	cfg      Config // normalized
	dealSize uint8

	board  [Cells]Square
	open   bitboard           // empty cells (corners are never open)
	chips  [MaxTeams]bitboard // each team's chips
	locked bitboard           // chips of completed sequences; never corners

	seqs [MaxTeams][maxSequences]Window // completed sequences, in the order they were made
	seqN [MaxTeams]uint8

	// The discard piles share one log in the order the cards were laid down;
	// discardSeat says whose pile each card is on and discardCell where it
	// was played (NoCell for a card turned in or discarded).
	discards    [MaxCards]Card
	discardSeat [MaxCards]uint8
	discardCell [MaxCards]Cell
	discardN    uint8

	deckN uint8
	handN [MaxPlayers]uint8

	turn      uint8
	exchanged bool              // the mover has turned in a dead card this turn
	due       uint8             // penalty discards the mover owes before anything else
	owed      [MaxPlayers]uint8 // penalty discards owed at the start of each seat's next turn
	passes    uint8             // consecutive passes
	status    Status
	winner    int8
	plays     uint32 // placements and removals, for the play cap
	ply       uint32 // every applied move, the referee's included
}

// State is a whole game: the Table plus the hidden cards and the generator
// that will reshuffle the discards. It is a comparable value of fixed size:
// assignment copies it without allocating, and == compares two games exactly.
// The zero State is not a game; use NewGame, FromPosition or FromView.
type State struct {
	Table
	hands [MaxPlayers][MaxHand]Card // hands[seat][:handN[seat]], in the order drawn
	deck  [MaxCards]Card            // deck[:deckN]; the top is deck[deckN-1]
	rng   rng.Rand
}

// Config is the game's set-up, defaults filled in.
func (t *Table) Config() Config { return t.cfg }

// Variant is the deck in use.
func (t *Table) Variant() Variant { return t.cfg.Variant }

// Players is the number of seats.
func (t *Table) Players() int { return t.cfg.Players }

// Teams is the number of teams.
func (t *Table) Teams() int { return t.cfg.Teams }

// SequencesToWin is the target.
func (t *Table) SequencesToWin() int { return t.cfg.Options.SequencesToWin }

// DealSize is the number of cards each player was dealt.
func (t *Table) DealSize() int { return int(t.dealSize) }

// TeamOf is the team a seat plays for (rules.md 1.3: seat mod teams), or -1
// for a seat not at the table.
func (t *Table) TeamOf(seat int) int {
	if seat < 0 || seat >= t.cfg.Players {
		return -1
	}
	return int(seatTeam[t.cfg.Teams][seat])
}

// seatTeam[teams][seat] is seat mod teams, without a division on the hot path.
var seatTeam = func() (t [MaxTeams + 1][MaxPlayers]uint8) {
	for teams := 1; teams <= MaxTeams; teams++ {
		for seat := range t[teams] {
			t[teams][seat] = uint8(seat % teams)
		}
	}
	return t
}()

// At is what cell c holds (Empty for a cell off the board).
func (t *Table) At(c Cell) Square {
	if !c.Valid() {
		return Empty
	}
	return t.board[c]
}

// Locked reports whether c holds a chip of a completed sequence.
func (t *Table) Locked(c Cell) bool { return c.Valid() && t.locked.has(c) }

// LockedCells lists the locked cells in cell order (corners are never listed).
func (t *Table) LockedCells() []Cell { return t.locked.appendCells(nil) }

// Sequences lists a team's completed sequences in the order they were made.
func (t *Table) Sequences(team int) []Window {
	if team < 0 || team >= t.cfg.Teams {
		return nil
	}
	return append([]Window(nil), t.seqs[team][:t.seqN[team]]...)
}

// SequenceCount is the number of a team's completed sequences.
func (t *Table) SequenceCount(team int) int {
	if team < 0 || team >= t.cfg.Teams {
		return 0
	}
	return int(t.seqN[team])
}

// Discards is a seat's discard pile, bottom first (the last card is the top).
func (t *Table) Discards(seat int) []Card {
	var pile []Card
	for i := 0; i < int(t.discardN); i++ {
		if int(t.discardSeat[i]) == seat {
			pile = append(pile, t.discards[i])
		}
	}
	return pile
}

// Discard is one card on the discard piles: the seat that laid it down and
// the cell it was played on — NoCell for a dead card turned in, a penalty
// discard, or a pile set up from a Position, whose history is not known.
type Discard struct {
	Seat int
	Card Card
	Cell Cell
}

// DiscardLog is every card on the discard piles, in the order laid down
// since the last reshuffle: the public record of the recent play, which a
// bot reads to infer what the other seats hold.
func (t *Table) DiscardLog() []Discard {
	log := make([]Discard, t.discardN)
	for i := range log {
		log[i] = Discard{Seat: int(t.discardSeat[i]), Card: t.discards[i], Cell: t.discardCell[i]}
	}
	return log
}

// DeckSize is the number of cards in the draw pile.
func (t *Table) DeckSize() int { return int(t.deckN) }

// HandSize is the number of cards a seat holds.
func (t *Table) HandSize(seat int) int {
	if seat < 0 || seat >= t.cfg.Players {
		return 0
	}
	return int(t.handN[seat])
}

// Turn is the seat to move. After a winning play it stays the winner's.
func (t *Table) Turn() int { return int(t.turn) }

// Exchanged reports whether the mover has already turned in a dead card
// this turn.
func (t *Table) Exchanged() bool { return t.exchanged }

// PenaltyDue is the number of table-talk discards the mover must still make
// before anything else this turn.
func (t *Table) PenaltyDue() int { return int(t.due) }

// PenaltyOwed is the number of table-talk discards a seat will owe at the
// start of its next turn.
func (t *Table) PenaltyOwed(seat int) int {
	if seat < 0 || seat >= t.cfg.Players {
		return 0
	}
	return int(t.owed[seat])
}

// Passes is the number of consecutive passes; as many as there are seats
// draws the game.
func (t *Table) Passes() int { return int(t.passes) }

// Plays is the number of placements and removals so far, for the play cap.
func (t *Table) Plays() int { return int(t.plays) }

// Ply is the number of moves applied so far (exchanges, passes, discards and
// the referee's penalties included); a move sent for an old ply is stale.
func (t *Table) Ply() int { return int(t.ply) }

// Status is where the game stands.
func (t *Table) Status() Status { return t.status }

// Winner is the winning team (0 = a), or -1.
func (t *Table) Winner() int { return int(t.winner) }

// Outcome is Status and Winner together.
func (t *Table) Outcome() Outcome { return Outcome{Status: t.status, Winner: int(t.winner)} }

// BoardRows renders the board in the vector format: ten strings of ten
// characters, row 1 first; '.' empty, '*' corner, 'a' 'b' 'c' chips.
func (t *Table) BoardRows() []string {
	rows := make([]string, Side)
	var line [Side]byte
	for r := 0; r < Side; r++ {
		for col := 0; col < Side; col++ {
			line[col] = squareLetters[t.board[r*Side+col]]
		}
		rows[r] = string(line[:])
	}
	return rows
}

const squareLetters = ".abc*"

// Hand is a seat's hand in the order drawn (a copy).
func (s *State) Hand(seat int) []Card {
	if seat < 0 || seat >= s.cfg.Players {
		return nil
	}
	return append([]Card(nil), s.hands[seat][:s.handN[seat]]...)
}

// AppendHand appends a seat's hand, in the order drawn, to buf: Hand
// without the allocation, for searches that read hands at every leaf.
func (s *State) AppendHand(buf []Card, seat int) []Card {
	if seat < 0 || seat >= s.cfg.Players {
		return buf
	}
	return append(buf, s.hands[seat][:s.handN[seat]]...)
}

// Deck is the draw pile, top first (a copy). Nobody may see it before the
// game is archived (rules.md 1.6).
func (s *State) Deck() []Card {
	out := make([]Card, s.deckN)
	for i := range out {
		out[i] = s.deck[int(s.deckN)-1-i]
	}
	return out
}

// newTable is an empty board for a normalized configuration.
func newTable(cfg Config) Table {
	t := Table{cfg: cfg, dealSize: uint8(DealSize(cfg.Players, cfg.Teams)), winner: -1}
	for c := Cell(0); c < Cells; c++ {
		if isCorner[c] {
			t.board[c] = Corner
		} else {
			t.open.set(c)
		}
	}
	return t
}
