package postgres

import (
	"encoding/hex"
	"time"

	"github.com/seqleague/seqleague/engine/play"
	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/league"
)

type gameRow struct {
	ID                 string `gorm:"primaryKey;type:uuid;default:gen_random_uuid()"`
	Kind               string
	Variant            string
	Players            int
	Teams              int
	SequencesToWin     int
	PlayCap            int
	TurnSeconds        int
	BankSeconds        int
	IncrementSeconds   int
	BlockWindowSeconds int
	AutopilotLevel     string
	FillLevel          string
	MaxTimeouts        int
	Rated              bool
	Status             string
	CreatedBy          *string
	CreatedAt          time.Time
	ScheduledStart     *time.Time
	StartedAt          *time.Time
	FinishedAt         *time.Time
	Seed               []byte
	SeedHash           string
	Ply                int
	TurnStartedAt      *time.Time
	TurnDeadline       *time.Time
	TurnSeat           *int       // the seat whose turn it is; nil unless the game is active
	BotDueAt           *time.Time // when a bot's task for this ply is due; nil when no bot is to act
	ResumeMS           *int64     `gorm:"column:resume_ms"`
	TimedOutTurn       int
	ResultStatus       *string
	Winner             *int
	EndedBy            *string // league.EndedBy…; nil until the game has ended
	SettledAt          *time.Time
	TournamentID       *string
	MatchID            *string
	MatchGame          *int
	RematchID          *string // the game its players were offered next (Rematch)
	CreatedByName      string  `gorm:"->;-:migration"` // read through a join, by the lists of invitations
	Private            bool    // kept out of the lobby and quick matches
	// Revision counts changes to the row and its seats (see saveTurn).
	Revision int64
}

func (gameRow) TableName() string { return "games" }

// seatRow is a seat; its JSON names are the column names, for loadGame.
type seatRow struct {
	GameID         string  `gorm:"primaryKey;type:uuid" json:"-"`
	Seat           int     `gorm:"primaryKey" json:"seat"`
	UserID         *string `json:"user_id"`
	BotLevel       *string `json:"bot_level"`
	FilledByBot    bool    `json:"filled_by_bot"`
	Abandoned      bool    `json:"abandoned"`
	AbandonedWhy   *string `json:"abandoned_why"`
	TimeoutsInARow int     `gorm:"column:timeouts_in_a_row" json:"timeouts_in_a_row"`
	BankMS         int64   `gorm:"column:bank_ms" json:"bank_ms"`
	Username       string  `gorm:"->;-:migration" json:"username"` // read through a join
	// KeptFor is the person an open seat is kept for until KeptUntil (a
	// rematch's seats of the people who did not ask for it yet).
	// (nil with KeptFor: until the game starts, a seat kept for a friend).
	KeptFor     *string    `json:"kept_for"`
	KeptUntil   *time.Time `json:"kept_until"`
	KeptForName string     `gorm:"->;-:migration" json:"kept_for_name"` // read through a join
	// HereUntil is how long the person seated is here (following the
	// game's event stream, or just sat down): while the game is open, it
	// is offered to strangers only while every person at it is (00022).
	// loadGame does not read it; nothing shown of a game depends on it.
	HereUntil *time.Time `json:"-"`
	// SeenUntil is how long the person seated at an active game is seen
	// (following its event stream, Games.Seen): past it, or never set,
	// their seat is away in the game's view (awayAt).
	SeenUntil *time.Time `json:"seen_until"`
}

func (seatRow) TableName() string { return "game_seats" }

// seatKeptFor is how long a rematch keeps the other people's seats for
// them: long enough to read the result and decide, short enough that a
// player who walked away does not hold the table up for good.
const seatKeptFor = 5 * time.Minute

// hereGrace is how long a person who sits down at an open table (making
// it, joining it, or answered it by a quick match) counts as here before
// the table's event stream keeps them so: a table made through the API,
// or by a browser that has not opened its stream yet, is offered at once,
// and one whose player never follows it drops out of the lobby soon.
const hereGrace = 2 * time.Minute

// seenGrace is how long after a game starts nobody at it counts as away:
// the players' pages have not all opened its event stream yet (a table
// started by its last player's join, a tournament's round begun while its
// players were on other pages), and calling them away at once would be
// wrong about nearly everyone.
const seenGrace = 45 * time.Second

// awayAt says whether the person at seat s of the active game row is away
// at now: a person's seat (not a bot's, nor one a fill-in bot took over)
// whose stream has not marked it seen (SeenUntil) past now, once the
// game's seenGrace is over.
func awayAt(row *gameRow, s seatRow, now time.Time) bool {
	if row.Status != league.StatusActive || s.UserID == nil || s.BotLevel != nil {
		return false
	}
	if row.StartedAt == nil || now.Sub(*row.StartedAt) < seenGrace {
		return false
	}
	return s.SeenUntil == nil || !s.SeenUntil.After(now)
}

// keptFor is the person the seat is kept for at now ("" if none). A seat
// kept with no end (KeptUntil nil) is kept until the game starts: a seat
// its creator kept for someone (league.SeatSpec.For). A rematch's seats
// are kept for seatKeptFor.
func (s seatRow) keptFor(now time.Time) string {
	if s.KeptFor == nil || s.KeptUntil != nil && !now.Before(*s.KeptUntil) {
		return ""
	}
	return *s.KeptFor
}

// botControlled reports a seat a bot plays: a bot seat or a fill-in.
func (s seatRow) botControlled() bool { return s.BotLevel != nil }

type moveRow struct {
	GameID    string `gorm:"primaryKey;type:uuid"`
	Ply       int    `gorm:"primaryKey" json:"ply"`
	Seat      int
	Move      string `json:"move"`
	MoveID    *string
	Actor     string
	UserID    *string `json:"user_id"`
	CreatedAt time.Time
}

func (moveRow) TableName() string { return "game_moves" }

type archiveRow struct {
	GameID    string `gorm:"primaryKey;type:uuid"`
	Record    []byte `gorm:"type:jsonb"`
	CreatedAt time.Time
}

func (archiveRow) TableName() string { return "game_archive" }

// hasBoard says whether the game has a position to show: it is being
// played, it ended, or it was aborted after it started (its tournament
// was cancelled). A game aborted before its start has none.
func (r *gameRow) hasBoard() bool {
	switch r.Status {
	case league.StatusActive, league.StatusFinished:
		return true
	case league.StatusAborted:
		return r.StartedAt != nil
	}
	return false
}

func (r *gameRow) setup() play.Setup {
	return play.Setup{Game: r.Kind, Variant: r.Variant, Players: r.Players, Teams: r.Teams, SequencesToWin: r.SequencesToWin, PlayCap: r.PlayCap}
}

func (r *gameRow) seed() rng.Seed {
	var s rng.Seed
	copy(s[:], r.Seed)
	return s
}

func (r *gameRow) clock() league.Clock {
	return league.Clock{TurnSeconds: r.TurnSeconds, BankSeconds: r.BankSeconds, IncrementSeconds: r.IncrementSeconds}
}

func fromGameRow(r *gameRow, seats []seatRow) league.Game {
	g := league.Game{
		ID: r.ID, Game: r.Kind, Variant: r.Variant, Players: r.Players, Teams: r.Teams,
		SequencesToWin: r.SequencesToWin, PlayCap: r.PlayCap, Clock: r.clock(), Rated: r.Rated,
		BlockWindowSeconds: r.BlockWindowSeconds, AutopilotLevel: r.AutopilotLevel, FillLevel: r.FillLevel,
		MaxTimeouts: r.MaxTimeouts, Status: r.Status, CreatedAt: r.CreatedAt, ScheduledStart: r.ScheduledStart,
		StartedAt: r.StartedAt, FinishedAt: r.FinishedAt, SettledAt: r.SettledAt, SeedHash: r.SeedHash, Ply: r.Ply,
		TurnDeadline: r.TurnDeadline, Winner: r.Winner, Private: r.Private, CreatedByName: r.CreatedByName,
	}
	if r.CreatedBy != nil {
		g.CreatedBy = *r.CreatedBy
	}
	if r.ResultStatus != nil {
		g.ResultStatus = *r.ResultStatus
	}
	if r.EndedBy != nil {
		g.EndedBy = *r.EndedBy
	}
	if r.Status == league.StatusActive && r.TurnSeat != nil {
		seat := *r.TurnSeat
		g.TurnSeat = &seat
	}
	if r.RematchID != nil {
		g.RematchID = *r.RematchID
	}
	if r.TournamentID != nil {
		g.TournamentID = *r.TournamentID
	}
	// The seed is revealed only once the game has finished, with its
	// archive. Not when it was aborted: the seed and the public moves
	// rebuild every hand and the deck, which an aborted game's archive and
	// position keep closed (a game called off in a cancelled tournament).
	if r.Status == league.StatusFinished {
		g.Seed = hex.EncodeToString(r.Seed)
	}
	for _, s := range seats {
		seat := league.Seat{Seat: s.Seat, Team: s.Seat % max(r.Teams, 1), Username: s.Username,
			FilledByBot: s.FilledByBot, Abandoned: s.Abandoned, BankMS: s.BankMS}
		if s.AbandonedWhy != nil {
			seat.AbandonedWhy = *s.AbandonedWhy
		}
		if r.Kind == league.GameStacks {
			seat.Team = s.Seat
		}
		if s.UserID != nil {
			seat.UserID = *s.UserID
		}
		if s.BotLevel != nil {
			seat.Bot = *s.BotLevel
		}
		seat.Open = s.UserID == nil && s.BotLevel == nil
		if seat.Open && s.KeptFor != nil {
			seat.KeptFor, seat.KeptForName, seat.KeptUntil = *s.KeptFor, s.KeptForName, s.KeptUntil
		}
		g.Seats = append(g.Seats, seat)
	}
	return g
}

func fromMoveRow(m moveRow) league.MoveRecord {
	r := league.MoveRecord{Ply: m.Ply, Seat: m.Seat, Move: m.Move, Actor: m.Actor, At: m.CreatedAt}
	if m.UserID != nil {
		r.UserID = *m.UserID
	}
	return r
}
