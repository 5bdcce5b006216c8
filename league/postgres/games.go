package postgres

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/seqleague/seqleague/engine/play"
	"github.com/seqleague/seqleague/engine/sequence"
	"github.com/seqleague/seqleague/engine/stacks"
	"github.com/seqleague/seqleague/league"
)

// GameConfig tunes the game service.
type GameConfig struct {
	// BotDelay is how long a bot seat "thinks" before its move is played
	// (a courtesy to people watching; 0 in tests).
	BotDelay time.Duration
	// FillGrace is how long open seats may stay empty after a scheduled
	// start before bots fill them.
	FillGrace time.Duration
	// StateCacheSize bounds the replayed states kept in memory.
	StateCacheSize int
	// BotThinkLimit caps one bot decision's search (0: none, so that a
	// decision is a pure function of the position and the seed). Searches
	// take well under 100 ms at p99; the cap is for an overloaded worker.
	BotThinkLimit time.Duration
	// MaxLiveGames bounds the casual games one player may have made that
	// wait for players or are being played (0: no bound). Bot seats play
	// in the workers, so an account with no bound could keep them
	// computing (and fill the lobby).
	MaxLiveGames int
	// OpenTableLifetime is how long an open casual table waits for players
	// (0: for ever): one made longer ago, at which nobody has been since
	// (no presence mark within it), whose scheduled start, if any, is no
	// nearer, is aborted by the sweep (LapseOpenTables). A table its
	// creator walked away from would otherwise count toward their
	// MaxLiveGames until they cancelled it by hand.
	OpenTableLifetime time.Duration
}

// Settler is work hung on a game's end (ratings, standings). It runs inside
// the settle transaction, exactly once per game.
type Settler interface {
	SettleGame(ctx context.Context, s *Settlement) error
}

// Settlement is a finished game being settled.
type Settlement struct {
	Tx    *gorm.DB
	Game  league.Game
	Moves []league.MoveRecord
	// Final is the game's final state (for scores such as sequences made).
	Final play.Game
	// Link is the tournament match the game belongs to, if any.
	Link *gameLink
	fx   *effects
}

// Games implements league.GameService.
type Games struct {
	db       *gorm.DB
	events   league.GameEvents
	tasks    league.GameTasks
	cfg      GameConfig
	logger   *slog.Logger
	cache    *stateCache
	settlers []Settler
	now      func() time.Time
	// later tries again the tasks that failed to be scheduled after a
	// commit; nil (RetryFailedTasks not called): they are the sweep's.
	later *laterTries
}

var _ league.GameService = (*Games)(nil)

// NewGames builds the game service.
func NewGames(db *DB, events league.GameEvents, tasks league.GameTasks, cfg GameConfig, logger *slog.Logger) *Games {
	if cfg.StateCacheSize == 0 {
		cfg.StateCacheSize = 10000
	}
	if logger == nil {
		logger = slog.Default()
	}
	return &Games{db: db.Gorm, events: events, tasks: tasks, cfg: cfg, logger: logger,
		cache: newStateCache(cfg.StateCacheSize), now: storedNow}
}

// RetryFailedTasks has the tasks that fail to be scheduled after a commit
// (Redis hung or down for a moment) tried again in the background, within
// seconds of Redis answering again (see laterTries), rather than left to
// the sweep. Call it once, before use; stop drops what is still held and
// ends the tries, for a process that is ending.
func (g *Games) RetryFailedTasks() (stop func()) {
	g.later = newLaterTries(g.logger)
	return g.later.Stop
}

// AddSettler hangs more work on a game's end.
func (g *Games) AddSettler(s Settler) { g.settlers = append(g.settlers, s) }

// effects are what a transaction asks to happen after it commits: nothing
// is published or scheduled for a change that might still roll back.
type effects struct {
	events []league.GameEvent
	after  []func(context.Context) error
	// moves and seat changes are applied but not yet stored: saveTurn
	// writes them with the game row, in one statement.
	moves []moveRow
	seats []seatChange
}

// seatChange is an update of one seat's columns.
type seatChange struct {
	seat int
	set  map[string]any
}

// changeSeat records an update of seat's columns for saveTurn. Changes to
// one seat are merged (a later value of a column wins): saveTurn writes
// each seat's change as its own part of one statement, and PostgreSQL
// applies only one of two updates of the same row in a statement, so a
// timeout's count and the same turn's bank charge must be one update.
func (e *effects) changeSeat(seat int, set map[string]any) {
	for _, c := range e.seats {
		if c.seat == seat {
			maps.Copy(c.set, set)
			return
		}
	}
	e.seats = append(e.seats, seatChange{seat: seat, set: maps.Clone(set)})
}

func (e *effects) publish(ev league.GameEvent) { e.events = append(e.events, ev) }
func (e *effects) then(f func(context.Context) error) {
	e.after = append(e.after, f)
}

// effectsTimeout bounds the work after a commit (publishing its events,
// scheduling its tasks on Redis). A Redis that hangs rather than refuses
// would otherwise hold every move's answer for as long as the client's
// timeouts and retries take (15 s measured with the binary; a shutdown's
// grace ran out on it). Nothing is lost for good: a task not scheduled is
// tried again in the background (RetryFailedTasks), and else the sweep's
// (Reconcile), and streams catch up on events when the bus subscribes
// again (see Hub.Resync).
const effectsTimeout = 3 * time.Second

func (g *Games) run(ctx context.Context, fx *effects) {
	ctx, cancel := context.WithTimeout(ctx, effectsTimeout)
	defer cancel()
	for _, ev := range fx.events {
		if err := g.events.Publish(ctx, ev); err != nil {
			g.logger.WarnContext(ctx, "publish game event", "game", ev.GameID, "error", err)
		}
	}
	for _, f := range fx.after {
		if err := f(ctx); err != nil {
			g.logger.ErrorContext(ctx, "schedule game task", "error", err, "tried_again", g.later != nil)
			if g.later != nil {
				g.later.add(f)
			}
		}
	}
}

// transact runs f in one transaction and, once it has committed, its effects.
// A run that PostgreSQL aborted is run again (inTx) with effects of its own:
// an aborted run's are dropped with it, and only the committed run's are carried out.
func (g *Games) transact(ctx context.Context, f func(tx *gorm.DB, fx *effects) error) error {
	var fx *effects
	err := inTx(ctx, g.db, func(tx *gorm.DB) error {
		fx = &effects{}
		return f(tx, fx)
	})
	if err != nil {
		return err
	}
	g.run(context.WithoutCancel(ctx), fx)
	return nil
}

func errNoGame() error { return league.Errorf(league.ENOTFOUND, "no such game") }

// lockGame reads a game row FOR UPDATE: moves, timers and bots on one game
// take turns on this lock.
func lockGame(tx *gorm.DB, id string) (*gameRow, error) {
	if !validID(id) {
		return nil, errNoGame()
	}
	var r gameRow
	err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, errNoGame()
	}
	return &r, err
}

func readGame(tx *gorm.DB, id string) (*gameRow, error) {
	if !validID(id) {
		return nil, errNoGame()
	}
	var r gameRow
	err := tx.Where("id = ?", id).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, errNoGame()
	}
	return &r, err
}

func loadSeats(tx *gorm.DB, gameID string) ([]seatRow, error) {
	seats, err := loadSeatsOf(tx, []string{gameID})
	return seats[gameID], err
}

// loadSeatsOf reads the seats of several games in one query, by game.
func loadSeatsOf(tx *gorm.DB, gameIDs []string) (map[string][]seatRow, error) {
	var seats []seatRow
	err := tx.Table("game_seats s").
		Select("s.*, COALESCE(u.username, '') AS username, COALESCE(k.username, '') AS kept_for_name").
		Joins("LEFT JOIN users u ON u.id = s.user_id").
		Joins("LEFT JOIN users k ON k.id = s.kept_for").
		Where("s.game_id IN ?", gameIDs).Order("s.game_id, s.seat").Find(&seats).Error
	if err != nil {
		return nil, err
	}
	out := make(map[string][]seatRow, len(gameIDs))
	for _, s := range seats {
		out[s.GameID] = append(out[s.GameID], s)
	}
	return out, nil
}

// loadedGame is a game row read with its seats (and, for a move carrying a
// move_id, the caller's earlier move with that id) in one round trip: a move is a
// handful of statements, and each one saved is a round trip and a parse
// less for PostgreSQL on the hottest path.
type loadedGame struct {
	Row       gameRow `gorm:"embedded"`
	SeatsJSON []byte  `gorm:"column:seats_json"`
	PriorJSON []byte  `gorm:"column:prior_json"`
}

const loadGameSQL = `SELECT g.*,
	(SELECT COALESCE(json_agg(json_build_object(
		'seat', s.seat, 'user_id', s.user_id, 'bot_level', s.bot_level, 'filled_by_bot', s.filled_by_bot,
		'abandoned', s.abandoned, 'abandoned_why', s.abandoned_why, 'timeouts_in_a_row', s.timeouts_in_a_row, 'bank_ms', s.bank_ms,
		'username', COALESCE(u.username, ''), 'kept_for', s.kept_for, 'kept_until', s.kept_until,
		'kept_for_name', COALESCE(k.username, ''), 'seen_until', s.seen_until) ORDER BY s.seat), '[]')
	 FROM game_seats s LEFT JOIN users u ON u.id = s.user_id LEFT JOIN users k ON k.id = s.kept_for
	 WHERE s.game_id = g.id) AS seats_json,
	(SELECT json_build_object('ply', m.ply, 'move', m.move)
	 FROM game_moves m WHERE m.game_id = g.id AND m.user_id = ? AND m.move_id = ?) AS prior_json
FROM games g WHERE g.id = ?`

// moveKey names a player's earlier move by its move_id: the id is the
// player's own idempotency key, so the same id from another player is
// another move (game_moves_user_move_id_key). The zero key names none.
type moveKey struct {
	UserID string
	MoveID string
}

// loadGame reads a game and its seats, locking the game row FOR UPDATE
// when lock is set. prior is the move already stored under key, if any.
func loadGame(tx *gorm.DB, id string, lock bool, key moveKey) (row *gameRow, seats []seatRow, prior *moveRow, err error) {
	if !validID(id) {
		return nil, nil, nil, errNoGame()
	}
	q := loadGameSQL
	if lock {
		q += " FOR UPDATE OF g"
	}
	var lg loadedGame
	var uid, mid *string // NULL matches no move
	if key.MoveID != "" && validID(key.UserID) {
		uid, mid = &key.UserID, &key.MoveID
	}
	res := tx.Raw(q, uid, mid, id).Scan(&lg)
	if res.Error != nil {
		return nil, nil, nil, res.Error
	}
	if res.RowsAffected == 0 {
		return nil, nil, nil, errNoGame()
	}
	if err := json.Unmarshal(lg.SeatsJSON, &seats); err != nil {
		return nil, nil, nil, fmt.Errorf("game %s seats: %w", id, err)
	}
	for i := range seats {
		seats[i].GameID = id
	}
	if lg.PriorJSON != nil {
		prior = &moveRow{}
		if err := json.Unmarshal(lg.PriorJSON, prior); err != nil {
			return nil, nil, nil, fmt.Errorf("game %s move %s: %w", id, key.MoveID, err)
		}
	}
	return &lg.Row, seats, prior, nil
}

func newSeed() ([]byte, string) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	h := sha256.Sum256(b)
	return b, hex.EncodeToString(h[:])
}

// Create validates and stores a new game; a game whose seats are all taken
// starts at once.
func (g *Games) Create(ctx context.Context, a league.Actor, req league.NewGame) (*league.Game, error) {
	if a.Anonymous() {
		return nil, league.Errorf(league.EUNAUTHORIZED, "sign in to create a game")
	}
	if err := onlySelfSeated(a, req.Seats); err != nil {
		return nil, err
	}
	// Bots have ratings too, which tournament seeding reads: a rated game
	// among bots alone would let anyone move them.
	if req.Rated && !slices.ContainsFunc(req.Seats, func(s league.SeatSpec) bool { return s.UserID != "" || s.Open }) {
		return nil, league.Invalid("the game cannot be set up",
			league.FieldError{Field: "rated", Message: "a rated game needs a person at the table: take a seat or leave one open"})
	}
	if s := req.ScheduledStart; s != nil {
		switch {
		case s.After(g.now().Add(league.ScheduleHorizon)):
			return nil, league.Invalid("the game cannot be set up",
				league.FieldError{Field: "scheduled_start", Message: "must be within five years"})
		case s.Before(g.now().Add(-scheduleSkew)):
			// A start long past would fill the open seats with bots at
			// once, before anyone could join: a client's mistake.
			return nil, league.Invalid("the game cannot be set up",
				league.FieldError{Field: "scheduled_start", Message: "is in the past; leave it out to start when the seats are full"})
		}
	}
	var out league.Game
	err := g.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		if err := holdLiveAccount(tx, a.UserID); err != nil {
			return err
		}
		// holdLiveAccount answered a creator whose account was closed since
		// the token was checked (the session is over: a 401, not a bad
		// seat), and holds the account until the commit, so the creator's
		// own seat below cannot meet a closed account.
		row, err := g.createCasualLocked(tx, fx, a.UserID, req)
		if err != nil {
			return err
		}
		seats, err := loadSeats(tx, row.ID)
		out = fromGameRow(row, seats)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// onlySelfSeated refuses a game that seats any person but its creator.
// People sit down by their own hand, creating a game or joining one of its
// open seats: otherwise anyone could start a game, rated even, in someone
// else's name, and let that seat time out, be abandoned and lose rating.
// Tournament games seat people who entered the tournament; the runner
// creates them through createLocked, not here.
func onlySelfSeated(a league.Actor, seats []league.SeatSpec) error {
	var fields []league.FieldError
	for i, s := range seats {
		if s.UserID != "" && s.UserID != a.UserID {
			fields = append(fields, league.FieldError{Field: fmt.Sprintf("seats[%d].user", i),
				Message: `you can seat only yourself ("me"); leave this seat open ({"open": true}) so that this person can join`})
		}
	}
	if len(fields) > 0 {
		return &league.Error{Code: league.EFORBIDDEN, Message: "a game can seat no person but its creator; others join its open seats", Fields: fields}
	}
	return nil
}

// createCasualLocked is createLocked for a game a player makes (a new one,
// or a rematch), within the bound on their live games (cfg.MaxLiveGames).
// One player's creations take turns on an advisory lock, so that two made
// at once cannot both take the last place.
func (g *Games) createCasualLocked(tx *gorm.DB, fx *effects, creator string, req league.NewGame) (*gameRow, error) {
	if bound := g.cfg.MaxLiveGames; bound > 0 {
		if err := tx.Exec("SELECT pg_advisory_xact_lock(hashtext(?))", "games created by "+creator).Error; err != nil {
			return nil, err
		}
		var live int64
		if err := tx.Model(&gameRow{}).Where("created_by = ? AND status IN ?", creator, []string{league.StatusOpen, league.StatusActive}).
			Count(&live).Error; err != nil {
			return nil, err
		}
		if live >= int64(bound) {
			return nil, league.Errorf(league.EPRECONDITION,
				"you have %d games waiting for players or being played, the most one may have: finish or cancel one first%s", live, g.lapseNote())
		}
	}
	return g.createLocked(tx, fx, &creator, req, nil)
}

// lapseNote tells a player at their bound on live games that the tables
// they walked away from make room by themselves (OpenTableLifetime).
func (g *Games) lapseNote() string {
	if g.cfg.OpenTableLifetime <= 0 {
		return ""
	}
	return "; an open table that nobody joins within " + spanText(g.cfg.OpenTableLifetime) + " is cancelled by itself"
}

// spanText writes a configured span as a person reads it: "24 hours",
// "90 minutes", else as Go writes it.
func spanText(d time.Duration) string {
	unit := func(n int64, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return strconv.FormatInt(n, 10) + " " + one + "s"
	}
	switch {
	case d%time.Hour == 0:
		return unit(int64(d/time.Hour), "hour")
	case d%time.Minute == 0:
		return unit(int64(d/time.Minute), "minute")
	}
	return d.String()
}

// gameLink ties a game to the tournament match it is a game of.
type gameLink struct {
	TournamentID string
	MatchID      string
	MatchGame    int
}

// createLocked stores a new game in tx; creator is nil for games the
// system creates (tournament rounds).
func (g *Games) createLocked(tx *gorm.DB, fx *effects, creator *string, req league.NewGame, link *gameLink) (*gameRow, error) {
	req, err := normalizeNewGame(req)
	if err != nil {
		return nil, err
	}
	keptFor, err := resolveKeptFor(tx, creator, req.Seats, func(i int) string { return fmt.Sprintf("seats[%d].for", i) })
	if err != nil {
		return nil, err
	}
	seed, hash := newSeed()
	row := gameRow{
		Kind: req.Game, Variant: req.Variant, Players: req.Players, Teams: req.Teams,
		SequencesToWin: req.SequencesToWin, PlayCap: req.PlayCap,
		TurnSeconds: req.Clock.TurnSeconds, BankSeconds: req.Clock.BankSeconds, IncrementSeconds: req.Clock.IncrementSeconds,
		BlockWindowSeconds: req.BlockWindowSeconds, AutopilotLevel: req.AutopilotLevel, FillLevel: req.FillLevel,
		MaxTimeouts: req.MaxTimeouts, Rated: req.Rated, Status: league.StatusOpen, CreatedBy: creator,
		ScheduledStart: req.ScheduledStart, Seed: seed, SeedHash: hash, TimedOutTurn: -1, Private: req.Private,
		// The stored time, to the microsecond, not GORM's to the
		// nanosecond: the row stays cached, and answers built from it said
		// .758027236Z where every read said .758027Z (the contract audit).
		// The wall clock, as GORM's was, not the games' clock, which tests
		// hold still (two games made at one instant list in id order).
		CreatedAt: storedNow(),
	}
	if row.ScheduledStart != nil {
		at := row.ScheduledStart.UTC().Truncate(time.Microsecond)
		row.ScheduledStart = &at
	}
	if link != nil {
		row.TournamentID, row.MatchID, row.MatchGame = &link.TournamentID, &link.MatchID, &link.MatchGame
	}
	if err := tx.Create(&row).Error; err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, spec := range req.Seats {
		s := seatRow{GameID: row.ID, Seat: i, BankMS: int64(req.Clock.BankSeconds) * 1000}
		switch {
		case spec.UserID != "":
			if seen[spec.UserID] {
				return nil, league.Invalid("a person can take only one seat", league.FieldError{Field: fmt.Sprintf("seats[%d].user", i), Message: "already seated"})
			}
			seen[spec.UserID] = true
			uid := spec.UserID
			s.UserID = &uid
			if spec.Abandoned {
				level, why := req.FillLevel, league.AbandonedAccountClosed
				s.BotLevel, s.FilledByBot, s.Abandoned, s.AbandonedWhy = &level, true, true, &why
			} else if err := requireHuman(tx, spec.UserID, fmt.Sprintf("seats[%d].user", i)); err != nil {
				return nil, err
			} else if creator != nil && spec.UserID == *creator {
				// The creator just sat down: here for the grace, then
				// while the table's event stream keeps them (Here).
				until := g.now().Add(hereGrace)
				s.HereUntil = &until
			}
		case spec.Bot != "":
			level := spec.Bot
			s.BotLevel = &level
			if uid, err := botUserID(tx, level); err == nil && uid != "" {
				s.UserID = &uid
			}
		case spec.KeptFor != "":
			who, until := spec.KeptFor, g.now().Add(seatKeptFor)
			s.KeptFor, s.KeptUntil = &who, &until
		case keptFor[i] != "":
			// Kept until the game starts (or is cancelled): no end.
			who := keptFor[i]
			s.KeptFor = &who
		}
		if err := tx.Create(&s).Error; err != nil {
			return nil, err
		}
	}
	if req.ScheduledStart != nil {
		at := *req.ScheduledStart
		fx.then(func(ctx context.Context) error { return g.tasks.StartGame(ctx, row.ID, at) })
	} else if allSeated(req.Seats) {
		if err := g.startLocked(tx, fx, &row); err != nil {
			return nil, err
		}
	}
	return &row, nil
}

// resolveKeptFor finds the accounts the seats name in "for", by index:
// a live person's account, not the creator's own (who takes a seat with
// "me"), nor one person's twice. Each refusal names its seat's field
// (field(i)).
func resolveKeptFor(tx *gorm.DB, creator *string, seats []league.SeatSpec, fieldOf func(i int) string) (map[int]string, error) {
	out := map[int]string{}
	var fields []league.FieldError
	seen := map[string]int{}
	for i, spec := range seats {
		if spec.For == "" {
			continue
		}
		field := fieldOf(i)
		var found []userRow
		if league.UsernameWellFormed(spec.For) { // else no account has it (and PostgreSQL may refuse it: NUL)
			// FOR SHARE: the account is held until the commit, so that its
			// close, which frees the seats kept for it, waits and finds
			// this one, or comes first and is seen here (holdLiveAccount).
			if err := tx.Clauses(lockingShare()).Select("id, kind, deleted_at").
				Where("lower(username) = lower(?)", spec.For).Limit(1).Find(&found).Error; err != nil {
				return nil, err
			}
		}
		switch {
		case len(found) == 0 || found[0].DeletedAt != nil:
			fields = append(fields, league.FieldError{Field: field, Message: "no player has this username"})
		case found[0].Kind != league.KindHuman:
			fields = append(fields, league.FieldError{Field: field, Message: `is a bot: seat it with {"bot": level} instead`})
		case creator != nil && found[0].ID == *creator:
			fields = append(fields, league.FieldError{Field: field, Message: `is you: take your seat with {"user": "me"}`})
		default:
			if j, twice := seen[found[0].ID]; twice {
				fields = append(fields, league.FieldError{Field: field, Message: fmt.Sprintf("already has seats[%d] kept for them: a person takes one seat", j)})
				continue
			}
			seen[found[0].ID] = i
			out[i] = found[0].ID
		}
	}
	if len(fields) > 0 {
		return nil, &league.Error{Code: league.EPRECONDITION, Message: "a seat cannot be kept for that player", Fields: fields}
	}
	return out, nil
}

func allSeated(seats []league.SeatSpec) bool {
	for _, s := range seats {
		if s.Open {
			return false
		}
	}
	return true
}

// requireHuman checks that userID is a person's live account.
func requireHuman(tx *gorm.DB, userID, field string) error {
	if !validID(userID) {
		return league.Invalid("no such user", league.FieldError{Field: field, Message: "no such user"})
	}
	var n int64
	if err := tx.Table("users").Where("id = ? AND kind = 'human' AND deleted_at IS NULL", userID).Count(&n).Error; err != nil {
		return err
	}
	if n == 0 {
		return league.Invalid("no such user", league.FieldError{Field: field, Message: "no such user"})
	}
	return nil
}

// botUserID finds the account of a bot level ("" if none exists yet), so
// that bot seats carry a user and can be rated.
func botUserID(tx *gorm.DB, level string) (string, error) {
	var ids []string
	err := tx.Table("users").Where("kind = 'bot' AND bot_level = ?", level).Limit(1).Pluck("id", &ids).Error
	if err != nil || len(ids) == 0 {
		return "", err
	}
	return ids[0], nil
}

// maxTablePlayers is the largest table of any game.
const maxTablePlayers = max(sequence.MaxPlayers, stacks.MaxPlayers)

func normalizeNewGame(req league.NewGame) (league.NewGame, error) {
	var fields []league.FieldError
	bad := func(field, msg string) { fields = append(fields, league.FieldError{Field: field, Message: msg}) }
	// The seats say how many play: asking for the number again only makes
	// a client repeat it (a 400 naming players when it did not).
	if req.Players == 0 {
		req.Players = len(req.Seats)
	}
	if req.Game == league.GameStacks {
		if req.Teams == 0 {
			req.Teams = req.Players
		}
		if req.Variant != "" {
			bad("variant", "Stacks has no variants")
		}
	} else if req.Game == league.GameSequence {
		if req.Variant == "" {
			req.Variant = "classic"
		}
		if req.Teams == 0 {
			// Teams may go unsaid where the rules leave one choice.
			switch counts := play.TeamCounts(req.Game, req.Players); len(counts) {
			case 1:
				req.Teams = counts[0]
			case 0: // the player count is refused below
			default:
				bad("teams", fmt.Sprintf("%d players play Sequence in %s teams; choose one", req.Players, orList(counts)))
			}
		}
	}
	if req.Game != league.GameSequence && req.Game != league.GameStacks {
		bad("game", "must be sequence or stacks")
	} else if _, err := play.New(play.Setup{Game: req.Game, Variant: req.Variant, Players: req.Players, Teams: req.Teams, SequencesToWin: req.SequencesToWin, PlayCap: req.PlayCap}, [32]byte{}); err != nil {
		// The engine names the field at fault; one already reported above
		// has a clearer message there.
		field := "players"
		var se *play.SetupError
		if errors.As(err, &se) {
			field = se.Field
		}
		if !hasField(fields, field) {
			bad(field, err.Error())
		}
	}
	if len(req.Seats) != req.Players {
		bad("seats", fmt.Sprintf("need one entry per player (%d), got %d", req.Players, len(req.Seats)))
	}
	// Seats past the largest table are refused by their count, not one by
	// one: thousands of {} would answer thousands of errors.
	for i, s := range req.Seats[:min(len(req.Seats), maxTablePlayers)] {
		n := 0
		if s.UserID != "" {
			n++
		}
		if s.Bot != "" {
			n++
			if !league.ValidBotLevel(s.Bot) {
				bad(fmt.Sprintf("seats[%d].bot", i), "must be random, greedy or strong")
			}
		}
		if s.Open {
			n++
		}
		if n != 1 {
			bad(fmt.Sprintf("seats[%d]", i), "must be exactly one of user, bot or open")
		} else if s.For != "" && !s.Open {
			bad(fmt.Sprintf("seats[%d].for", i), `only an open seat can be kept for someone: {"open": true, "for": "<username>"}`)
		}
	}
	// Each time out of its range is named itself (clock.increment_seconds),
	// not the clock as a whole: that names only a clock given both ways.
	c := req.Clock
	clockOK := true
	for _, t := range []struct {
		field      string
		seconds    int
		most       int
		mostSpoken string
	}{
		{"clock.turn_seconds", c.TurnSeconds, 86400, "a day"},
		{"clock.bank_seconds", c.BankSeconds, 7 * 86400, "a week"},
		{"clock.increment_seconds", c.IncrementSeconds, 3600, "an hour"},
	} {
		if t.seconds < 0 || t.seconds > t.most {
			bad(t.field, fmt.Sprintf("must be 0–%d (%s)", t.most, t.mostSpoken))
			clockOK = false
		}
	}
	switch {
	case !clockOK:
	case c.TurnSeconds > 0 && c.BankSeconds > 0:
		bad("clock", "use turn_seconds or bank_seconds, not both")
	case c.IncrementSeconds > 0 && c.BankSeconds == 0:
		bad("clock.increment_seconds", "needs bank_seconds")
	}
	switch {
	case req.Game != league.GameStacks && req.BlockWindowSeconds != 0:
		bad("block_window_seconds", "only Stacks has block windows")
	case req.BlockWindowSeconds == 0:
		req.BlockWindowSeconds = 5
	case req.BlockWindowSeconds < 1 || req.BlockWindowSeconds > 60:
		bad("block_window_seconds", "must be 1–60")
	}
	for field, level := range map[string]*string{"autopilot": &req.AutopilotLevel, "fill_level": &req.FillLevel} {
		if *level == "" {
			*level = "greedy"
		}
		if !league.ValidBotLevel(*level) {
			bad(field, "must be random, greedy or strong")
		}
	}
	if req.MaxTimeouts == 0 {
		req.MaxTimeouts = 3
	}
	if req.MaxTimeouts < 1 || req.MaxTimeouts > 100 {
		bad("max_timeouts", "must be 1–100")
	}
	if len(fields) > 0 {
		return req, league.Invalid("the game cannot be set up", fields...)
	}
	return req, nil
}

// orList writes 2, 3 as "2 or 3".
func orList(ns []int) string {
	words := make([]string, len(ns))
	for i, n := range ns {
		words[i] = strconv.Itoa(n)
	}
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// hasField reports whether fields already name field.
func hasField(fields []league.FieldError, field string) bool {
	for _, f := range fields {
		if f.Field == field {
			return true
		}
	}
	return false
}

// Join seats the caller in an open seat (the given one, or the first).
func (g *Games) Join(ctx context.Context, a league.Actor, gameID string, seat *int) (*league.Game, error) {
	if a.Anonymous() {
		return nil, league.Errorf(league.EUNAUTHORIZED, "sign in to join a game")
	}
	// A seat number that cannot exist is the request's fault whatever state
	// the game is in, so it is refused before the game is read.
	if seat != nil && *seat < 0 {
		return nil, league.Invalid("no such seat", league.FieldError{Field: "seat", Message: "must be a seat number, from 0"})
	}
	return g.changeGameAs(ctx, a.UserID, gameID, func(tx *gorm.DB, fx *effects, row *gameRow) error {
		return g.joinLocked(tx, fx, row, a, seat)
	})
}

// joinLocked seats a in an open seat of a locked game (the given one, or
// the first anyone may take, the one kept for a first), and starts the game
// once its seats are full (unless it waits for a scheduled start).
func (g *Games) joinLocked(tx *gorm.DB, fx *effects, row *gameRow, a league.Actor, seat *int) error {
	gameID := row.ID
	if row.Status != league.StatusOpen {
		return notOpen(row)
	}
	seats, err := loadSeats(tx, gameID)
	if err != nil {
		return err
	}
	target := -1
	now := g.now()
	for _, s := range seats {
		if s.UserID != nil && *s.UserID == a.UserID {
			return league.Errorf(league.ECONFLICT, "you already sit at seat %d", s.Seat)
		}
		if seat == nil && s.keptFor(now) == a.UserID && s.UserID == nil && s.BotLevel == nil {
			target = s.Seat // the seat kept for the caller comes first
		}
	}
	for _, s := range seats {
		open := s.UserID == nil && s.BotLevel == nil
		kept := s.keptFor(now)
		if seat != nil && s.Seat == *seat {
			if !open {
				e := league.Errorf(league.ECONFLICT, "seat %d is taken", s.Seat)
				e.Fields = []league.FieldError{{Field: "seat", Message: "is taken; leave it out for the first open seat"}}
				return e
			}
			if kept != "" && kept != a.UserID {
				until := "until the game starts"
				if s.KeptUntil != nil {
					until = "until " + s.KeptUntil.UTC().Format(time.RFC3339)
				}
				e := league.Errorf(league.ECONFLICT, "seat %d is kept for %s %s", s.Seat, s.KeptForName, until)
				e.Fields = []league.FieldError{{Field: "seat", Message: "is kept for " + s.KeptForName + " " + until + "; leave it out for the first open seat"}}
				return e
			}
			target = s.Seat
		}
		if seat == nil && open && (kept == "" || kept == a.UserID) && target < 0 {
			target = s.Seat
		}
	}
	if target < 0 {
		if seat != nil {
			return league.Invalid("no such seat", league.FieldError{Field: "seat", Message: "no such seat"})
		}
		if slices.ContainsFunc(seats, func(s seatRow) bool { return s.UserID == nil && s.BotLevel == nil }) {
			return league.Errorf(league.ECONFLICT, "the open seats are kept for other players")
		}
		return league.Errorf(league.ECONFLICT, "no open seat left")
	}
	if err := tx.Model(&seatRow{}).Where("game_id = ? AND seat = ?", gameID, target).
		Updates(map[string]any{"user_id": a.UserID, "kept_for": nil, "kept_until": nil, "here_until": now.Add(hereGrace)}).Error; err != nil {
		return err
	}
	fx.publish(league.GameEvent{GameID: gameID, Ply: row.Ply, Kind: league.EventSeat})
	open := 0
	for _, s := range seats {
		if s.UserID == nil && s.BotLevel == nil && s.Seat != target {
			open++
		}
	}
	if open == 0 && !row.waitsForStart(now) {
		if err := g.startLocked(tx, fx, row); err != nil {
			return err
		}
	}
	return nil
}

// changeGame runs f on a locked game in one transaction and returns the
// game as it then is.
func (g *Games) changeGame(ctx context.Context, gameID string, f func(tx *gorm.DB, fx *effects, row *gameRow) error) (*league.Game, error) {
	return g.changeGameAs(ctx, "", gameID, f)
}

// changeGameAs is changeGame for a change that seats userID somewhere
// (given): it holds their live account (holdLiveAccount) before the game's
// lock, the order in which closing the account takes the two.
func (g *Games) changeGameAs(ctx context.Context, userID, gameID string, f func(tx *gorm.DB, fx *effects, row *gameRow) error) (*league.Game, error) {
	var out league.Game
	err := g.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		if userID != "" {
			if err := holdLiveAccount(tx, userID); err != nil {
				return err
			}
		}
		row, err := lockGame(tx, gameID)
		if err != nil {
			return err
		}
		if err := f(tx, fx, row); err != nil {
			return err
		}
		seats, err := loadSeats(tx, gameID)
		out = fromGameRow(row, seats)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Leave frees the caller's seat before the start (the creator's too). A
// game it leaves with no person seated is aborted. A game being played is
// left as max_timeouts timed-out turns leave it, at once: a fill-in bot
// takes the caller's seat, which counts as abandoned (a loss if rated).
// A player who had to go could otherwise only walk away, and the table
// waited out their turn clock that many times before a bot took over.
func (g *Games) Leave(ctx context.Context, a league.Actor, gameID string) (*league.Game, error) {
	return g.leave(ctx, a, gameID, false)
}

// LeaveTable is Leave for a game that has not started: once it has, the
// caller still sits at it and the answer is a conflict naming
// only_if_open. A creator's "Cancel the game" that a last join beat to the
// row lock would otherwise hand their seat of the game just started to a
// fill-in bot, as abandoned (a loss if rated).
func (g *Games) LeaveTable(ctx context.Context, a league.Actor, gameID string) (*league.Game, error) {
	return g.leave(ctx, a, gameID, true)
}

func (g *Games) leave(ctx context.Context, a league.Actor, gameID string, onlyIfOpen bool) (*league.Game, error) {
	if a.Anonymous() {
		return nil, league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	return g.changeGame(ctx, gameID, func(tx *gorm.DB, fx *effects, row *gameRow) error {
		if row.Status == league.StatusActive && onlyIfOpen {
			return &league.Error{Code: league.ECONFLICT, Message: "the game has started: you still sit at it",
				Fields: []league.FieldError{{Field: "only_if_open", Message: "the game is no longer open: it has started"}}}
		}
		if row.Status == league.StatusActive {
			return leaveActiveGame(tx, fx, g.tasks, row, a.UserID, g.now())
		}
		if row.Status != league.StatusOpen {
			return notOpen(row)
		}
		sat, err := leaveOpenGame(tx, fx, row, a.UserID, g.now())
		if err != nil || sat {
			return err
		}
		// A creator who seated nobody, themselves included, may still call
		// the game off while no person has joined it.
		if row.CreatedBy != nil && *row.CreatedBy == a.UserID {
			seats, err := loadSeats(tx, gameID)
			if err != nil {
				return err
			}
			if !anotherPersonSits(seats, "") {
				return abortOpenGame(tx, fx, row, g.now())
			}
		}
		return league.Errorf(league.EPRECONDITION, "you do not sit at this game")
	})
}

// Resign ends a game of two sides being played at once, the caller's side
// losing, as Game.ResignWinner allows. It is a result like a win on the
// board (rated, and counted by the tournament match), not an abandonment:
// a player who sees the game lost need not play it out, nor leave a
// fill-in bot to play it out for them against an opponent kept at the
// table. The game's row is locked, so a move, a timeout or a bot's turn
// either comes first or finds the game over.
func (g *Games) Resign(ctx context.Context, a league.Actor, gameID string) (*league.Game, error) {
	if a.Anonymous() {
		return nil, league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	return g.changeGame(ctx, gameID, func(tx *gorm.DB, fx *effects, row *gameRow) error {
		seats, err := loadSeats(tx, gameID)
		if err != nil {
			return err
		}
		winner, err := fromGameRow(row, seats).ResignWinner(a.UserID)
		if err != nil {
			return err
		}
		return g.finishLocked(tx, fx, row, play.Status{Over: true, Winner: winner}, league.EndedByResign, g.now())
	})
}

// notOpen is the refusal to join or leave a game that is no longer open,
// saying what became of it.
// leaveActiveGame hands userID's seat of a game being played, whose row is
// locked, to a fill-in bot, as closing the account does.
func leaveActiveGame(tx *gorm.DB, fx *effects, tasks league.GameTasks, row *gameRow, userID string, now time.Time) error {
	seats, err := loadSeats(tx, row.ID)
	if err != nil {
		return err
	}
	sits, handedOver := false, false
	for _, s := range seats {
		if s.UserID != nil && *s.UserID == userID {
			sits = true
			handedOver = handedOver || s.botControlled()
		}
	}
	switch {
	case !sits:
		return league.Errorf(league.EPRECONDITION, "you do not sit at this game")
	case handedOver:
		return league.Errorf(league.EPRECONDITION, "a fill-in bot already plays your seat")
	}
	return handSeatsToFillIn(tx, fx, tasks, row, userID, league.AbandonedLeft, now)
}

func notOpen(row *gameRow) error {
	if row.Status == league.StatusAborted && row.EndedBy != nil && *row.EndedBy == league.EndedByLapse {
		return league.Errorf(league.EPRECONDITION, "nobody joined the table in time: it lapsed, and was cancelled")
	}
	if row.Status == league.StatusAborted {
		return league.Errorf(league.EPRECONDITION, "the game was aborted")
	}
	return league.Errorf(league.EPRECONDITION, "the game has started; seats can no longer be taken or left")
}

// leaveOpenGame frees userID's seat in an open game, whose row is locked,
// and says whether userID sat there. A game that would be left with no
// person seated (only bots and open seats) is aborted instead, with the
// seats as they were: it could otherwise be started only by its creator
// or a stranger joining, and would stay open forever.
func leaveOpenGame(tx *gorm.DB, fx *effects, row *gameRow, userID string, now time.Time) (bool, error) {
	seats, err := loadSeats(tx, row.ID)
	if err != nil {
		return false, err
	}
	sat := false
	for _, s := range seats {
		if s.UserID != nil && *s.UserID == userID && s.BotLevel == nil {
			sat = true
		}
	}
	if !sat {
		return false, nil
	}
	if !anotherPersonSits(seats, userID) {
		return true, abortOpenGame(tx, fx, row, now)
	}
	if err := tx.Model(&seatRow{}).Where("game_id = ? AND user_id = ? AND bot_level IS NULL", row.ID, userID).
		Updates(map[string]any{"user_id": nil, "here_until": nil}).Error; err != nil {
		return false, err
	}
	if row.CreatedBy != nil && *row.CreatedBy == userID {
		if err := handTableOver(tx, row, seats, userID); err != nil {
			return false, err
		}
	}
	fx.publish(league.GameEvent{GameID: row.ID, Ply: row.Ply, Kind: league.EventSeat})
	return true, nil
}

// handTableOver gives an open table whose creator just left it (userID,
// whose seat is freed; another person still sits there) to the person in
// its lowest seat still held: created_by is whose table it is, and with it
// go the seats (SetSeat), the start and the cancel. A creator who left kept
// them, and seated bots against the players still waiting, chosen by
// someone no longer at the table; nobody holding them would leave a table
// that no one can fill with a bot or start. The lowest seat is a plain
// rule everyone at the table can see (the seats record no joining times).
// A creator who sat at none of the seats (a table set up for others)
// keeps it: leaving is not theirs to do.
func handTableOver(tx *gorm.DB, row *gameRow, seats []seatRow, userID string) error {
	for _, s := range seats { // in seat order (loadSeats)
		if s.UserID == nil || *s.UserID == userID || s.BotLevel != nil {
			continue
		}
		host := *s.UserID
		if err := tx.Model(&gameRow{}).Where("id = ?", row.ID).Update("created_by", host).Error; err != nil {
			return err
		}
		row.CreatedBy = &host
		return nil
	}
	return nil
}

// abortOpenGame ends an open game, whose row is locked, before it started.
func abortOpenGame(tx *gorm.DB, fx *effects, row *gameRow, now time.Time) error {
	return endOpenGame(tx, fx, row, now, league.EndedByAbort)
}

// endOpenGame aborts an open game, whose row is locked, saying why in
// ended_by (league.EndedByAbort, or EndedByLapse for the sweep's): its
// watchers are told, nobody is here at it any more, and the game it was
// the rematch of offers it no longer.
func endOpenGame(tx *gorm.DB, fx *effects, row *gameRow, now time.Time, endedBy string) error {
	row.Status, row.FinishedAt, row.EndedBy = league.StatusAborted, &now, &endedBy
	if err := tx.Model(&gameRow{}).Where("id = ?", row.ID).
		Updates(map[string]any{"status": row.Status, "finished_at": now, "ended_by": endedBy}).Error; err != nil {
		return err
	}
	if err := forgetWaiting(tx, row.ID); err != nil {
		return err
	}
	fx.publish(league.GameEvent{GameID: row.ID, Ply: row.Ply, Kind: league.EventSeat})
	return forgetRematch(tx, fx, row.ID)
}

// forgetRematch unlinks an aborted game from the game it was the rematch
// of: that game's page said "A rematch is set up" and sent its spectators
// to the aborted table. Its viewers get a rematch event, and the next ask
// for a rematch makes a new one.
func forgetRematch(tx *gorm.DB, fx *effects, rematchID string) error {
	var of []struct {
		ID  string
		Ply int
	}
	if err := tx.Raw("UPDATE games SET rematch_id = NULL, revision = revision + 1 WHERE rematch_id = ? RETURNING id, ply", rematchID).
		Scan(&of).Error; err != nil {
		return err
	}
	for _, o := range of {
		fx.publish(league.GameEvent{GameID: o.ID, Ply: o.Ply, Kind: league.EventRematch})
	}
	return nil
}

// forgetWaiting clears who is here at a game that starts or is called off,
// and the seats kept for players there: it waits for nobody any more.
// game_seats_here_idx and game_seats_kept_for_idx, which hold only marked
// and kept seats, then stay the size of the tables waiting now rather than
// growing with every game ever played (ForgetLapsed clears the marks of
// the tables left open).
func forgetWaiting(tx *gorm.DB, gameID string) error {
	return tx.Model(&seatRow{}).
		Where("game_id = ? AND (here_until IS NOT NULL OR kept_for IS NOT NULL OR kept_until IS NOT NULL)", gameID).
		Updates(map[string]any{"here_until": nil, "kept_for": nil, "kept_until": nil}).Error
}

// Start starts an open game whose seats are all filled (creator or admin;
// a creator who left the table handed it over, see handTableOver).
func (g *Games) Start(ctx context.Context, a league.Actor, gameID string) (*league.Game, error) {
	return g.changeGame(ctx, gameID, func(tx *gorm.DB, fx *effects, row *gameRow) error {
		if a.Anonymous() {
			return league.Errorf(league.EUNAUTHORIZED, "sign in first")
		}
		if !a.IsAdmin && (row.CreatedBy == nil || *row.CreatedBy != a.UserID) {
			return league.Errorf(league.EFORBIDDEN, "only the game's creator can start it")
		}
		if row.Status != league.StatusOpen {
			return league.Errorf(league.EPRECONDITION, "the game is %s", row.Status)
		}
		seats, err := loadSeats(tx, gameID)
		if err != nil {
			return err
		}
		for _, s := range seats {
			if s.UserID == nil && s.BotLevel == nil {
				return league.Errorf(league.EPRECONDITION, "seat %d is still open", s.Seat)
			}
		}
		if err := g.startLocked(tx, fx, row); err != nil {
			return err
		}
		return nil
	})
}

// scheduleSkew is how far in the past a scheduled start may be: a client's
// clock may run behind the server's, and "now" takes a moment to arrive.
const scheduleSkew = 5 * time.Minute

// StartScheduled is the game:start task: at the scheduled time (plus the
// grace period) bots fill the seats still open, and the game starts.
func (g *Games) StartScheduled(ctx context.Context, gameID string) error {
	row, seats, _, err := loadGame(g.db.WithContext(ctx), gameID, false, moveKey{})
	if err != nil || row.Status != league.StatusOpen {
		return err // gone, or started already: the task is a duplicate
	}
	if row.ScheduledStart != nil {
		// The fill grace, or a worker whose clock is behind: the task
		// comes back when the start is due. (Enqueueing the due time
		// instead is a no-op when it is this running task's own.)
		if err := waitDue(ctx, g.startDue(row, seats), g.now()); err != nil {
			return err
		}
	}
	return g.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		row, seats, _, err := loadGame(tx, gameID, true, moveKey{})
		if err != nil {
			return err
		}
		if row.Status != league.StatusOpen {
			return nil
		}
		if row.ScheduledStart != nil {
			// A seat left since the read above: its grace runs first.
			if due := g.startDue(row, seats); due.Sub(g.now()) > timerSlack {
				return &league.NotYet{At: due}
			}
		}
		// A rated game that nobody joined would be bots against bots, and
		// would move their ratings: it is called off instead.
		if row.Rated && !anotherPersonSits(seats, "") {
			return abortOpenGame(tx, fx, row, g.now())
		}
		for _, s := range seats {
			if s.UserID == nil && s.BotLevel == nil {
				level := row.FillLevel
				upd := map[string]any{"bot_level": level, "filled_by_bot": true}
				if uid, err := botUserID(tx, level); err == nil && uid != "" {
					upd["user_id"] = uid
				}
				if err := tx.Model(&seatRow{}).Where("game_id = ? AND seat = ?", gameID, s.Seat).Updates(upd).Error; err != nil {
					return err
				}
			}
		}
		return g.startLocked(tx, fx, row)
	})
}

// startDue is when a scheduled game starts: at its scheduled time if no
// seat is open then, or once the fill grace has given the open seats'
// players their chance to come, bots filling those still open.
func (g *Games) startDue(row *gameRow, seats []seatRow) time.Time {
	for _, s := range seats {
		if s.UserID == nil && s.BotLevel == nil {
			return row.ScheduledStart.Add(g.cfg.FillGrace)
		}
	}
	return *row.ScheduledStart
}

// waitsForStart says whether an open game whose seats are all taken waits
// for its scheduled start; once that has passed (its open seats were
// filled during the fill grace), it starts as any full table does.
func (r *gameRow) waitsForStart(now time.Time) bool {
	return r.ScheduledStart != nil && r.ScheduledStart.After(now)
}

// startLocked deals and starts a locked open game.
func (g *Games) startLocked(tx *gorm.DB, fx *effects, row *gameRow) error {
	game, err := play.New(row.setup(), row.seed())
	if err != nil {
		return league.Invalid(err.Error())
	}
	now := g.now()
	row.Status = league.StatusActive
	row.StartedAt = &now
	if err := tx.Model(row).Updates(map[string]any{"status": row.Status, "started_at": now}).Error; err != nil {
		return err
	}
	if err := forgetWaiting(tx, row.ID); err != nil {
		return err
	}
	seats, err := loadSeats(tx, row.ID)
	if err != nil {
		return err
	}
	// Cached once committed (see stateCache): a transaction run again
	// after an abort, or undone by a later refusal, leaves no trace.
	fx.then(func(context.Context) error { g.cache.put(row.ID, game); return nil })
	fx.publish(league.GameEvent{GameID: row.ID, Ply: 0, Kind: league.EventStart})
	return g.finishTurnLocked(tx, fx, row, seats, nil, game)
}
