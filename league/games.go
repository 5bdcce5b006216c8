package league

import (
	"context"
	"encoding/json"
	"time"
)

// Game kinds and statuses.
const (
	GameSequence = "sequence"
	GameStacks   = "stacks"

	StatusOpen     = "open"     // seats still being filled
	StatusActive   = "active"   // being played
	StatusFinished = "finished" // won or drawn; archived
	StatusAborted  = "aborted"  // ended unplayed or unfinished: nobody left to play it, or its tournament was cancelled; never rated

	// Who made a move.
	ByPlayer    = "player"
	ByBot       = "bot"       // a bot seat
	ByAutopilot = "autopilot" // a bot playing one timed-out turn for a person
	ByFillIn    = "fill-in"   // a bot that took over an abandoned seat
	ByServer    = "server"    // the server closing a block window
)

// How a game ended (Game.EndedBy). The result alone does not say: an
// adjudicated game has a winner or a draw like any other, though its rule
// vector shows a game still being played.
const (
	EndedByPlay         = "play"         // the rules ended it (a win, a draw, Stacks' play cap)
	EndedByAdjudication = "adjudication" // a tournament round's deadline scored the board as it stood
	EndedByAbort        = "abort"        // aborted: before it started, or when its tournament was cancelled
	// EndedByLapse: aborted by the sweep, an open casual table that nobody
	// joined, nor was at, within the open-table lifetime.
	EndedByLapse = "lapse"
	// EndedByResign: the losing side resigned (Games.Resign), which only a
	// game of two sides allows, so the loser is the side that resigned.
	EndedByResign = "resign"
)

// ResignWinner is the side that wins if userID resigns g for their side,
// or why they may not: only in a game being played, at a seat they still
// play, of a game of two sides (at three, the others play on, which the
// engine has no rule for: leaving hands the seat to a fill-in bot
// instead), with nobody else of their side still playing (one person
// does not give up a game for a teammate who plays on), and not against a
// side every player of which left (a walk-over, rated as a win).
func (g Game) ResignWinner(userID string) (int, error) {
	if g.Status != StatusActive {
		return -1, Errorf(EPRECONDITION, "the game is not being played")
	}
	mine, sits := -1, false
	sides := map[int]bool{}
	for _, s := range g.Seats {
		sides[s.Team] = true
		if s.UserID == userID && userID != "" {
			sits = true
			if s.Bot == "" {
				mine = s.Team
			}
		}
	}
	switch {
	case !sits:
		return -1, Errorf(EPRECONDITION, "you do not sit at this game")
	case mine < 0:
		return -1, Errorf(EPRECONDITION, "a fill-in bot already plays your seat")
	case len(sides) != 2:
		return -1, Errorf(EPRECONDITION, "only a game of two sides can be resigned: here the others would play on, so leave the game instead (a fill-in bot takes your seat)")
	}
	winner, walkedOver := -1, true
	for _, s := range g.Seats {
		if s.Team == mine && s.UserID != userID && s.UserID != "" && s.Bot == "" {
			return -1, Errorf(EPRECONDITION, "%s still plays for your team: a team resigns once nobody else of it plays on, so leave the game instead (a fill-in bot takes your seat)", s.Username)
		}
		if s.Team != mine {
			winner = s.Team // the one other side
			walkedOver = walkedOver && s.Abandoned
		}
	}
	if walkedOver {
		// Rated as a walk-over whatever the result: a resignation would
		// read as a loss and rate as a win.
		return -1, Errorf(EPRECONDITION, "every player of the other side has left the game: it counts as your win whatever the board says, so there is nothing to resign")
	}
	return winner, nil
}

// Why a person's seat was abandoned to a fill-in bot (Seat.AbandonedWhy).
const (
	AbandonedLeft          = "left"           // they left the game being played
	AbandonedTimedOut      = "timed_out"      // max_timeouts of their turns timed out in a row
	AbandonedNoShow        = "no_show"        // in a tournament game, they had not moved by the round's deadline
	AbandonedAccountClosed = "account_closed" // their account was closed
)

// ValidBotLevel reports whether level names a bot.
func ValidBotLevel(level string) bool {
	for _, l := range BotLevels {
		if l == level {
			return true
		}
	}
	return false
}

// Clock is a game's time control: a fixed time per turn, or a bank per seat
// with an increment per move. Zero means untimed.
type Clock struct {
	TurnSeconds      int
	BankSeconds      int
	IncrementSeconds int
}

// Timed reports whether the game has a clock.
func (c Clock) Timed() bool { return c.TurnSeconds > 0 || c.BankSeconds > 0 }

// SeatSpec asks for one seat at creation: a person, a bot or an open seat.
type SeatSpec struct {
	UserID string // a person ("me" is resolved by the server)
	Bot    string // a bot level
	Open   bool
	// KeptFor keeps an open seat for this person for a while (Rematch).
	KeptFor string
	// For keeps an open seat for the person of this username until the
	// game starts (or is cancelled): a table made for a friend. The
	// username is what a player knows of another; the store resolves it.
	For string
	// Abandoned seats UserID, a person whose account is closed, as the
	// game's fill-in bot from the start, the person rated as having
	// abandoned: a tournament entry plays on after its player closed the
	// account. Only the tournament pairing sets it.
	Abandoned bool
}

// NewGame is a request to create a game.
type NewGame struct {
	Game               string
	Variant            string
	Players            int
	Teams              int
	SequencesToWin     int
	PlayCap            int
	Seats              []SeatSpec
	Clock              Clock
	Rated              bool
	BlockWindowSeconds int
	AutopilotLevel     string
	FillLevel          string
	MaxTimeouts        int
	ScheduledStart     *time.Time
	// Private keeps the game out of the lobby and quick matches: only
	// people with its link find it.
	Private bool
}

// Seat is one seat of a game as everyone may see it.
type Seat struct {
	Seat        int
	Team        int
	UserID      string
	Username    string
	Bot         string // level, for bot seats and seats taken over by a fill-in
	Open        bool
	FilledByBot bool
	Abandoned   bool
	// AbandonedWhy is one of the Abandoned* reasons for an abandoned seat
	// ("" for one abandoned before the reason was kept, migration 00032).
	AbandonedWhy string
	BankMS       int64
	// Away says that the person at the seat of an active game has not
	// followed it for a while (no event stream of theirs open: a page
	// closed, a connection lost), in a game's view only: their turns run
	// out and the autopilot plays them.
	Away bool
	// KeptFor is the person an open seat is kept for until KeptUntil
	// (nil: until the game starts): nobody else may take it before then
	// (a rematch's seats, or one its creator kept for a friend).
	KeptFor     string
	KeptForName string
	KeptUntil   *time.Time
	// Rating is the seat's rating change, once a finished rated game has
	// been rated (in the game's view and archive only).
	Rating *SeatRating
	// PoolRating is the seated person's rating in the game's pool now, in
	// the lobby only: a player choosing a table sees whom they would play.
	PoolRating *RatingState
}

// SeatRating is one player's rating before and after a game.
type SeatRating struct {
	Before, After float64
}

// Game is a game's public record.
type Game struct {
	ID                 string
	Game               string
	Variant            string
	Players            int
	Teams              int
	SequencesToWin     int
	PlayCap            int
	Clock              Clock
	Rated              bool
	BlockWindowSeconds int
	AutopilotLevel     string
	FillLevel          string
	MaxTimeouts        int
	Status             string
	CreatedBy          string
	CreatedByName      string // the creator's username, in a user's list of invitations
	CreatedAt          time.Time
	ScheduledStart     *time.Time
	StartedAt          *time.Time
	FinishedAt         *time.Time
	// SettledAt: when the game:settle task recorded the finished game
	// (archive, ratings, tournament result).
	SettledAt    *time.Time
	SeedHash     string
	Seed         string // hex; only once the game has ended
	Ply          int
	TurnDeadline *time.Time
	// TurnSeat is the seat whose turn it is while the game is active (in
	// a Stacks block window the completer's, whose turn goes on once the
	// window closes; the seats that may BLOCK meanwhile are a view's
	// ToMove); nil in a game that is not being played.
	TurnSeat     *int
	ResultStatus string // finished or drawn
	Winner       *int   // team (sequence) or seat (stacks)
	EndedBy      string // how the game ended (EndedBy…); empty until it has
	RematchID    string // the game its players were offered next, if one asked for a rematch
	TournamentID string // the tournament whose match the game is of; empty for a casual game
	// Tournament names it and the round of the game's match, in lists of
	// games (nil elsewhere, and for a casual game).
	Tournament *GameTournament
	Private    bool // never in the lobby nor found by a quick match; open to anyone with its link
	Seats      []Seat
}

// GameTournament is the tournament a listed game is of, and its round.
type GameTournament struct {
	Name  string
	Round int
}

// Result is the game's result, empty while it is being played.
type Result struct {
	Status string // finished or drawn
	Winner *int
}

// Result returns the game's result.
func (g Game) Result() Result { return Result{Status: g.ResultStatus, Winner: g.Winner} }

// Archive is the full record of a finished game: the game (its set-up is
// the game's own), the revealed seed, every move with its time and who made
// it, and the final position as a rule vector.
type Archive struct {
	Game       Game
	Seed       string // hex
	SeedHash   string
	Moves      []MoveRecord
	FinalState json.RawMessage
}

// GameView is a game as one caller sees it.
type GameView struct {
	Game       Game
	YourSeat   *int
	ToMove     []int           // seats that may act now
	State      json.RawMessage // the engine's view for the caller's seat (or the spectator view)
	LegalMoves []string        // when the caller may act
	MayResign  bool            // the caller may resign the game now (Game.ResignWinner)
}

// UserGamesQuery asks for a page of the games a user sits at, newest
// first. ToMove keeps those being played where it is the user's turn at a
// seat they play themselves (not one a bot took over).
type UserGamesQuery struct {
	Page   PageRequest
	ToMove bool
	// Invited keeps instead the games waiting for players with an open
	// seat kept for the user (a table made for them, a rematch): only the
	// user may ask for them (Viewer), since who is invited where is theirs.
	Invited bool
	Viewer  Actor
}

// GamesQuery asks for a page of everyone's games of one status: open (the
// casual games with a seat anyone may take, to join) or active (being
// played, to watch).
type GamesQuery struct {
	Status string
	// Game and Players keep the games of that kind and table size (zero:
	// any).
	Game    string
	Players int
	// Rated, when set, keeps the rated games (true) or the casual ones.
	Rated *bool
	// Club, when set, keeps the tables made by the club's members and the
	// games of its tournaments.
	Club string
	Page PageRequest
}

// QuickMatchRequest asks to play the set-up now: a seat in the oldest game
// waiting for players of that set-up, or else a new one.
type QuickMatchRequest struct {
	Game    string
	Variant string // Sequence's; classic when empty
	Players int
	Teams   int // may be left out where the rules leave one choice
}

// QuickMatchClock is the clock of the games a quick match makes and joins:
// the web app's new-game form's default, so that a player who walks away
// is played for by the autopilot, then replaced by a bot, and the others
// are never left waiting at an untimed table.
var QuickMatchClock = Clock{TurnSeconds: 60}

// MoveRequest submits a move for the ply it answers.
type MoveRequest struct {
	Ply    int
	Move   string
	MoveID string
}

// MoveRecord is one stored move.
type MoveRecord struct {
	Ply    int
	Seat   int
	Move   string
	Actor  string
	UserID string
	At     time.Time
}

// GameEvent is what the service publishes after a commit: enough for any API
// instance to bring its cached state forward and tell its viewers.
type GameEvent struct {
	GameID string
	Ply    int    // the ply after the event
	Kind   string // one of the Event kinds below
	Move   *MoveRecord
}

// The kinds of GameEvent. The service publishes the first five; an API
// instance delivers EventState to its own streams when it may have missed
// events (its subscription was lost), and a stream sends it, as the other
// kinds, under the same name.
const (
	EventMove    = "move"    // a move was played (Move says which)
	EventStart   = "start"   // the game started
	EventSeat    = "seat"    // a seat changed hands, or the table was called off
	EventEnd     = "end"     // the game ended
	EventRematch = "rematch" // the game's rematch was made, or is gone
	EventState   = "state"   // resync: the game's state as it now is
)

// GameEvents publishes game events to every API instance.
type GameEvents interface {
	Publish(ctx context.Context, ev GameEvent) error
}

// GameTasks schedules the background work a game needs. Every task is
// keyed by its business key, so scheduling twice does nothing.
type GameTasks interface {
	TurnTimeout(ctx context.Context, gameID string, ply int, at time.Time) error
	BotMove(ctx context.Context, gameID string, ply int, delay time.Duration) error
	StartGame(ctx context.Context, gameID string, at time.Time) error
	Settle(ctx context.Context, gameID string) error
}

// GameService runs games.
type GameService interface {
	Create(ctx context.Context, a Actor, req NewGame) (*Game, error)
	Join(ctx context.Context, a Actor, gameID string, seat *int) (*Game, error)
	Leave(ctx context.Context, a Actor, gameID string) (*Game, error)
	// Resign ends a game of two sides being played at once, the caller's
	// side losing (Game.ResignWinner says when it may).
	Resign(ctx context.Context, a Actor, gameID string) (*Game, error)
	// LeaveTable is Leave for a game not yet started: once it has, a
	// conflict naming only_if_open, and the caller still sits at it.
	LeaveTable(ctx context.Context, a Actor, gameID string) (*Game, error)
	Start(ctx context.Context, a Actor, gameID string) (*Game, error)
	// SetSeat opens, keeps for a player, or gives a bot one seat of an
	// open casual game that no person holds (its creator or an admin).
	SetSeat(ctx context.Context, a Actor, gameID string, seat int, spec SeatSpec) (*Game, error)
	// Decline gives up the seat kept for the caller at an open game.
	Decline(ctx context.Context, a Actor, gameID string) (*Game, error)
	// Rematch makes or joins the rematch of a finished casual game.
	Rematch(ctx context.Context, a Actor, gameID string) (*Game, error)
	// QuickMatch seats the caller at the oldest game waiting for players
	// of the set-up, or makes one (created says which).
	QuickMatch(ctx context.Context, a Actor, req QuickMatchRequest) (g *Game, created bool, err error)
	View(ctx context.Context, a Actor, gameID string) (*GameView, error)
	Move(ctx context.Context, a Actor, gameID string, req MoveRequest) (*GameView, error)
	Moves(ctx context.Context, gameID string, afterPly int) ([]MoveRecord, error)
	Archive(ctx context.Context, gameID string) (*Archive, error)
	Vector(ctx context.Context, a Actor, gameID string, ply *int) (json.RawMessage, error)
	ListForUser(ctx context.Context, userID string, q UserGamesQuery) ([]Game, string, error)
	// List is the lobby: games to join or to watch, newest first.
	List(ctx context.Context, q GamesQuery) ([]Game, string, error)

	// Worker entry points.
	TimeOut(ctx context.Context, gameID string, ply int) error
	PlayBot(ctx context.Context, gameID string, ply int) error
	StartScheduled(ctx context.Context, gameID string) error
	Settle(ctx context.Context, gameID string) error
}

// GameSnapshot is a game read once, shown to many viewers.
type GameSnapshot interface {
	Ply() int
	// SeatOf is the seat a caller views the game from (-1 for none).
	SeatOf(a Actor) int
	ViewFor(a Actor) *GameView
}

// GameFrame is one move and a viewer's view right after it.
type GameFrame struct {
	Move MoveRecord
	View *GameView
}

// GameFeed is what live viewers (SSE) read.
type GameFeed interface {
	// Snapshot reads the game now; ev is the event that prompted it, if any.
	Snapshot(ctx context.Context, gameID string, ev *GameEvent) (GameSnapshot, error)
	// Frames rebuilds every move from ply fromPly on, with a's view after each.
	Frames(ctx context.Context, a Actor, gameID string, fromPly int) ([]GameFrame, error)
	// Here marks a here at the open game they sit at (a person's seat) for
	// ttl, and reports whether it did: false once the game is no longer
	// open or a no longer sits there. The lobby and quick matches offer
	// only tables at which every person seated is here.
	Here(ctx context.Context, a Actor, gameID string, ttl time.Duration) (bool, error)
	// Seen marks a seen at the active game they sit at (a person's seat)
	// for ttl, and reports whether a sits there: false once the game is no
	// longer active or a no longer sits there. A seat whose mark ran out
	// is away in the game's view; a mark written over one that had is the
	// player back, and the game's viewers are told (a seat event).
	Seen(ctx context.Context, a Actor, gameID string, ttl time.Duration) (bool, error)
}
