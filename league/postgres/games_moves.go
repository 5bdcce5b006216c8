package postgres

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/seqleague/seqleague/engine/play"
	"github.com/seqleague/seqleague/league"
)

// timerSlack is how early a timer may fire: asynq keeps schedule times in
// whole seconds.
const timerSlack = 1500 * time.Millisecond

// waitDue holds a task that came before due, as of now: more than
// timerSlack early (the worker's clock is behind the one that scheduled
// it, or the time moved later) it returns &league.NotYet{At: due}, and the
// task comes back then; less early it sleeps until due (asynq fires up to
// a second early), so the caller must hold no lock.
func waitDue(ctx context.Context, due, now time.Time) error {
	wait := due.Sub(now)
	if wait > timerSlack {
		return &league.NotYet{At: due}
	}
	if wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// maxTurnPlies bounds how many plies one bot or autopilot turn may take,
// as a guard against a bot that never ends its turn.
const maxTurnPlies = 300

// state returns the game's engine state at the row's ply, from the cache
// or by replaying the stored moves.
func (g *Games) state(tx *gorm.DB, row *gameRow) (play.Game, error) {
	if game, ok := g.cache.get(row.ID, row.Ply); ok {
		return game, nil
	}
	game, err := g.replay(tx, row, row.Ply)
	if err != nil {
		return nil, err
	}
	return game, nil
}

// replay rebuilds the state after the first plies moves.
func (g *Games) replay(tx *gorm.DB, row *gameRow, plies int) (play.Game, error) {
	var moves []moveRow
	if err := tx.Select("seat, move, ply").Where("game_id = ? AND ply < ?", row.ID, plies).Order("ply").Find(&moves).Error; err != nil {
		return nil, err
	}
	return replayMoves(row, moves)
}

// replayMoves rebuilds a game's state from moves already read, in order.
func replayMoves(row *gameRow, moves []moveRow) (play.Game, error) {
	log := make([]play.SeatMove, len(moves))
	for i, m := range moves {
		log[i] = play.SeatMove{Seat: m.Seat, Move: m.Move}
	}
	game, err := play.Replay(row.setup(), row.seed(), log)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", row.ID, err)
	}
	return game, nil
}

func seatOf(seats []seatRow, userID string) (seatRow, bool) {
	for _, s := range seats {
		if s.UserID != nil && *s.UserID == userID && userID != "" {
			return s, true
		}
	}
	return seatRow{}, false
}

func contains(seats []int, seat int) bool {
	for _, s := range seats {
		if s == seat {
			return true
		}
	}
	return false
}

// Move applies a person's move for the ply it answers.
func (g *Games) Move(ctx context.Context, a league.Actor, gameID string, req league.MoveRequest) (*league.GameView, error) {
	if a.Anonymous() {
		return nil, league.Errorf(league.EUNAUTHORIZED, "sign in to play")
	}
	var fields []league.FieldError
	switch {
	case req.Move == "":
		fields = append(fields, league.FieldError{Field: "move", Message: "a move in the engine's notation is required"})
	case len(req.Move) > 64:
		fields = append(fields, league.FieldError{Field: "move", Message: "at most 64 characters: no move in the engine's notation is longer"})
	}
	if req.Ply < 0 {
		fields = append(fields, league.FieldError{Field: "ply", Message: "must not be negative"})
	}
	if len(req.MoveID) > 64 {
		fields = append(fields, league.FieldError{Field: "move_id", Message: "at most 64 characters"})
	}
	if len(fields) > 0 {
		return nil, league.Invalid("bad move", fields...)
	}
	// Optimistically first: check the move against the game as this
	// process last stored it (no read at all) or, failing that, as read
	// without a lock, and store it with one statement that applies only if
	// the game has not changed since. If it has, or the move needs more
	// than that one statement, do it again under the game's row lock. Only
	// a read game's answer is final: a stored copy may be out of date.
	db := g.db.WithContext(ctx)
	err := errStale
	var (
		view    *league.GameView
		replyAt int
	)
	for _, stored := range []bool{true, false} {
		fx := &effects{}
		var known *knownGame
		if stored {
			row, seats, game, ok := g.cache.getStored(gameID)
			if !ok || row.Ply != req.Ply {
				continue
			}
			known = &knownGame{row: row, seats: seats, game: game}
		}
		view, replyAt, err = g.playerMove(db, fx, a, gameID, req, known, false)
		if err == nil {
			g.run(context.WithoutCancel(ctx), fx)
			break
		}
		if stored {
			// The copy may be out of date, and so may any refusal based
			// on it: check again against the game as read.
			continue
		}
		if !redoLocked(err) {
			break
		}
	}
	if redoLocked(err) {
		err = g.transact(ctx, func(tx *gorm.DB, fx *effects) error {
			view, replyAt, err = g.playerMove(tx, fx, a, gameID, req, nil, true)
			return err
		})
	}
	if err != nil {
		return nil, err
	}
	if replyAt >= 0 {
		return g.viewAt(ctx, a, gameID, replyAt)
	}
	return view, nil
}

// errStale ends an unlocked attempt at a move: the game changed after it
// was read.
var errStale = errors.New("stale read")

// redoLocked says whether an unlocked attempt is to be done again under
// the game's row lock: it was stale, or PostgreSQL killed its one
// statement in a deadlock (with a transaction holding a row the statement
// needed and waiting for the game's row), which stored nothing either.
func redoLocked(err error) bool { return errors.Is(err, errStale) || retryableAbort(err) }

// knownGame is a game as last read, or as this process last stored it.
type knownGame struct {
	row   *gameRow
	seats []seatRow
	game  play.Game
}

// playerMove checks and applies a person's move, to known if given (its
// move_id is then not looked up: one this player reused breaks the unique
// index on (game, user, move_id) and makes saveTurn answer errStale) or
// else to the game as read. locked: tx holds the game's row lock;
// otherwise tx is outside any transaction and the move is stored only by
// saveTurn's one statement, guarded by the revision of the game it was
// checked against. replyAt ≥ 0 means this player already used the
// move_id: the answer is the view right after that move. A move_id is the
// player's own: another player's move with the same id is another move.
func (g *Games) playerMove(tx *gorm.DB, fx *effects, a league.Actor, gameID string, req league.MoveRequest, known *knownGame, locked bool) (view *league.GameView, replyAt int, err error) {
	var (
		row   *gameRow
		seats []seatRow
		prior *moveRow
		game  play.Game
	)
	if known != nil {
		row, seats, game = known.row, known.seats, known.game
	} else if row, seats, prior, err = loadGame(tx, gameID, locked, moveKey{UserID: a.UserID, MoveID: req.MoveID}); err != nil {
		return nil, -1, err
	}
	if prior != nil {
		// The same move at the same ply is a retry: the first answer
		// again. Another ply, or another move, is a new move under a used
		// id (a client whose count began again after a reload, or one that
		// reuses its ids): answered as a retry, it was silently never
		// played.
		if prior.Ply != req.Ply {
			return nil, -1, &league.Error{Code: league.ECONFLICT,
				Message: fmt.Sprintf("you used move_id %q for your move at ply %d: send a new move_id with each move", req.MoveID, prior.Ply),
				Fields:  []league.FieldError{{Field: "move_id", Message: fmt.Sprintf("already used for your move at ply %d", prior.Ply)}}}
		}
		if prior.Move != req.Move {
			return nil, -1, &league.Error{Code: league.ECONFLICT,
				Message: fmt.Sprintf("you used move_id %q for another move at ply %d (%s): send a new move_id with each move", req.MoveID, prior.Ply, prior.Move),
				Fields:  []league.FieldError{{Field: "move_id", Message: fmt.Sprintf("already used for another move at ply %d (%s)", prior.Ply, prior.Move)}}}
		}
		return nil, prior.Ply + 1, nil
	}
	// Who may move at all, then whether the client's view is current (a
	// stale ply is a 409, the game finished or not), then whether the game
	// still takes moves: a spectator is told it does not play, not which
	// ply the game is at.
	seat, ok := seatOf(seats, a.UserID)
	if !ok {
		return nil, -1, league.Errorf(league.EFORBIDDEN, "you do not play at this game")
	}
	if req.Ply != row.Ply {
		// Either way the client's view is out of date: the current ply
		// tells it where to pick up.
		e := league.Errorf(league.ECONFLICT, "ply %d has already been played; the game is at ply %d", req.Ply, row.Ply)
		if req.Ply > row.Ply {
			e = league.Errorf(league.ECONFLICT, "ply %d has not been reached; the game is only at ply %d", req.Ply, row.Ply)
		}
		e.Data = map[string]any{"ply": row.Ply}
		e.Fields = []league.FieldError{{Field: "ply", Message: fmt.Sprintf("the game is at ply %d", row.Ply)}}
		return nil, -1, e
	}
	if row.Status != league.StatusActive {
		return nil, -1, league.Errorf(league.EPRECONDITION, "the game is %s", row.Status)
	}
	if seat.botControlled() {
		return nil, -1, league.Errorf(league.EFORBIDDEN, "a bot plays this seat")
	}
	if game == nil {
		if game, err = g.state(tx, row); err != nil {
			return nil, -1, err
		}
	}
	if !contains(game.Actors(), seat.Seat) {
		return nil, -1, league.Errorf(league.EPRECONDITION, "it is not your turn")
	}
	if game.InWindow() && req.Move != blockMove {
		e := league.Errorf(league.EPRECONDITION, "during a block window the only move is %s; the window closes by itself", blockMove)
		e.Fields = []league.FieldError{{Field: "move", Message: "must be " + blockMove + " during a block window"}}
		return nil, -1, e
	}
	prev := game
	game, err = g.applyLocked(fx, row, game, seat.Seat, req.Move, league.ByPlayer, a.UserID, req.MoveID)
	if err != nil {
		return nil, -1, err
	}
	if seat.TimeoutsInARow > 0 {
		fx.changeSeat(seat.Seat, map[string]any{"timeouts_in_a_row": 0})
		seats[seat.Seat].TimeoutsInARow = 0
	}
	if err := g.finishTurnLocked(tx, fx, row, seats, prev, game); err != nil {
		return nil, -1, err
	}
	return buildView(row, seats, game, a, g.now()), -1, nil // seats as updated by finishTurnLocked
}

// blockMove is the Stacks BLOCK in notation: the only move a person makes
// in a block window (the window closes by itself when its time runs out,
// so its length never depends on who holds a BLOCK).
const blockMove = "BLOCK"

// applyLocked applies one move to a game and records it in fx, for
// saveTurn to store.
func (g *Games) applyLocked(fx *effects, row *gameRow, game play.Game, seat int, move, actor, userID, moveID string) (play.Game, error) {
	next, err := game.Apply(seat, move)
	if err != nil {
		// The engine's reason without its package's prefix ("sequence: ",
		// "stacks: ") or a second "illegal move: ".
		reason := err.Error()
		for _, prefix := range []string{"sequence: ", "stacks: ", "illegal move: "} {
			reason = strings.TrimPrefix(reason, prefix)
		}
		e := league.Errorf(league.EPRECONDITION, "illegal move %q: %s", move, reason)
		e.Fields = []league.FieldError{{Field: "move", Message: reason}}
		return nil, e
	}
	m := moveRow{GameID: row.ID, Ply: row.Ply, Seat: seat, Move: move, Actor: actor, CreatedAt: g.now()}
	if userID != "" {
		m.UserID = &userID
	}
	if moveID != "" {
		m.MoveID = &moveID
	}
	fx.moves = append(fx.moves, m)
	row.Ply++
	rec := fromMoveRow(m)
	fx.publish(league.GameEvent{GameID: row.ID, Ply: row.Ply, Kind: league.EventMove, Move: &rec})
	return next, nil
}

// finishTurnLocked runs after the moves of one request: it ends the game or
// sets the next deadline, charges clocks, stores the row and schedules what
// must happen next.
func (g *Games) finishTurnLocked(tx *gorm.DB, fx *effects, row *gameRow, seats []seatRow, prev, game play.Game) error {
	now := g.now()
	fx.then(func(context.Context) error { g.cache.putStored(row, seats, game); return nil })
	if st := game.Status(); st.Over {
		return g.finishLocked(tx, fx, row, st, league.EndedByPlay, now)
	}
	ply := row.Ply
	turn := game.Turn()
	row.TurnSeat = &turn
	upd := map[string]any{"ply": ply, "timed_out_turn": row.TimedOutTurn, "turn_seat": turn}
	timed := row.clock().Timed()
	switch {
	case game.InWindow():
		if prev == nil || !prev.InWindow() {
			// The turn owner's clock pauses while the window is open.
			if row.TurnDeadline != nil {
				// Kept in the row as well as stored: the row is cached
				// with the turn, and a BLOCK, a person's move, is played
				// on the cached row (a stale resume_ms there gave the
				// turn another window's time, or none at all).
				left := max(row.TurnDeadline.Sub(now).Milliseconds(), 0)
				upd["resume_ms"], row.ResumeMS = left, &left
			}
		}
		humanOpponent := false
		for _, s := range game.Actors() {
			if !seats[s].botControlled() {
				humanOpponent = true
			}
		}
		fx.then(func(ctx context.Context) error { return g.tasks.BotMove(ctx, row.ID, ply, 0) })
		if humanOpponent {
			deadline := now.Add(time.Duration(row.BlockWindowSeconds) * time.Second)
			upd["turn_deadline"] = deadline
			row.TurnDeadline = &deadline
			upd["bot_due_at"], row.BotDueAt = nil, nil // the timer closes the window even if the bots' task is lost
			fx.then(func(ctx context.Context) error { return g.tasks.TurnTimeout(ctx, row.ID, ply, deadline) })
		} else {
			upd["turn_deadline"] = nil
			row.TurnDeadline = nil
			upd["bot_due_at"], row.BotDueAt = now, &now // only the bots' task closes the window
		}
	default:
		newTurn := prev == nil || prev.TurnCount() != game.TurnCount()
		var deadline *time.Time
		switch {
		case newTurn:
			if prev != nil && row.BankSeconds > 0 && row.TurnStartedAt != nil {
				// Charge the previous turn to its seat's bank, then add the increment.
				mover := prev.Turn()
				used := now.Sub(*row.TurnStartedAt).Milliseconds()
				bank := max(seats[mover].BankMS-used, 0) + int64(row.IncrementSeconds)*1000
				seats[mover].BankMS = bank
				fx.changeSeat(mover, map[string]any{"bank_ms": bank})
			}
			upd["turn_started_at"] = now
			row.TurnStartedAt = &now
			if timed {
				d := now.Add(time.Duration(row.TurnSeconds) * time.Second)
				if row.BankSeconds > 0 {
					d = now.Add(time.Duration(seats[game.Turn()].BankMS) * time.Millisecond)
				}
				deadline = &d
			}
			upd["resume_ms"], row.ResumeMS = nil, nil
		case prev.InWindow():
			// The deadline the window ran on was the window's own, never
			// the turn's: the turn gets back what its clock had left, and
			// an untimed turn gets no deadline at all.
			if row.ResumeMS != nil {
				d := now.Add(time.Duration(*row.ResumeMS) * time.Millisecond)
				deadline = &d
				if row.BankSeconds > 0 && row.TurnStartedAt != nil {
					// Nor is the window's time the turn's for its bank: the
					// turn restarts as far back as it had run when the window
					// opened (its bank less what was left), so that its charge
					// is the time its deadline gave it, not that and the
					// window's, which ran the bank out of a player who moved
					// within the time shown.
					ran := time.Duration(seats[game.Turn()].BankMS-*row.ResumeMS) * time.Millisecond
					started := now.Add(-ran)
					upd["turn_started_at"], row.TurnStartedAt = started, &started
				}
			}
			upd["resume_ms"], row.ResumeMS = nil, nil
		default:
			deadline = row.TurnDeadline
		}
		upd["turn_deadline"] = deadline
		row.TurnDeadline = deadline
		seat := seats[game.Turn()]
		upd["bot_due_at"], row.BotDueAt = nil, nil
		if seat.botControlled() {
			delay := time.Duration(0)
			if newTurn {
				delay = g.cfg.BotDelay
			}
			due := now.Add(delay)
			upd["bot_due_at"], row.BotDueAt = due, &due
			fx.then(func(ctx context.Context) error { return g.tasks.BotMove(ctx, row.ID, ply, delay) })
		} else if deadline != nil {
			at := *deadline
			fx.then(func(ctx context.Context) error { return g.tasks.TurnTimeout(ctx, row.ID, ply, at) })
		}
	}
	return saveTurn(tx, fx, row, upd)
}

// saveTurn stores the moves and seat changes in fx and the game row's
// changes upd in one statement, which applies only if the game's revision
// is still the one in row (under the row lock it always is) and then
// counts a new revision. Otherwise nothing is stored and it answers
// errStale.
func saveTurn(tx *gorm.DB, fx *effects, row *gameRow, upd map[string]any) error {
	var (
		q    strings.Builder
		args []any
	)
	setColumns := func(set map[string]any) {
		for i, col := range slices.Sorted(maps.Keys(set)) { // one statement text per column set
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString(col + " = ?")
			args = append(args, set[col])
		}
	}
	q.WriteString("WITH g AS (UPDATE games SET ")
	setColumns(upd)
	if len(upd) > 0 {
		q.WriteString(", ")
	}
	q.WriteString("revision = revision + 1 WHERE id = ? AND revision = ? RETURNING id)")
	args = append(args, row.ID, row.Revision)
	// The seats and moves change only if the game's update found its row.
	for i, c := range fx.seats {
		fmt.Fprintf(&q, ", s%d AS (UPDATE game_seats SET ", i)
		setColumns(c.set)
		q.WriteString(" WHERE game_id IN (SELECT id FROM g) AND seat = ?)")
		args = append(args, c.seat)
	}
	if len(fx.moves) == 0 {
		q.WriteString(" SELECT id FROM g")
	} else {
		q.WriteString(" INSERT INTO game_moves (game_id, ply, seat, move, move_id, actor, user_id, created_at) SELECT v.* FROM g, (VALUES ")
		for i, m := range fx.moves {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?::uuid, ?::int, ?::int, ?::text, ?::text, ?::text, ?::uuid, ?::timestamptz)")
			args = append(args, m.GameID, m.Ply, m.Seat, m.Move, m.MoveID, m.Actor, m.UserID, m.CreatedAt)
		}
		q.WriteString(") AS v")
	}
	res := tx.Exec(q.String(), args...)
	if errors.Is(res.Error, gorm.ErrDuplicatedKey) {
		// With the revision checked, only a move_id its player reused can
		// collide, and only for a move checked without reading the game
		// (so without looking the id up): read it, with the id.
		return errStale
	}
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errStale
	}
	fx.moves, fx.seats = nil, nil
	row.Revision++
	return nil
}

// finishLocked ends a game with result st and schedules its settlement;
// endedBy (league.EndedBy…) says what ended it, since the result does not.
// It is stored by saveTurn's one statement like any other turn, so a move
// that ends the game needs no row lock; the archive is written by Settle.
func (g *Games) finishLocked(tx *gorm.DB, fx *effects, row *gameRow, st play.Status, endedBy string, now time.Time) error {
	result := league.StatusFinished
	var winner *int
	if st.Drawn {
		result = "drawn"
	} else {
		w := st.Winner
		winner = &w
	}
	row.Status, row.ResultStatus, row.Winner, row.FinishedAt, row.EndedBy = league.StatusFinished, &result, winner, &now, &endedBy
	row.TurnSeat = nil
	err := saveTurn(tx, fx, row, map[string]any{
		"status": league.StatusFinished, "result_status": result, "winner": winner, "finished_at": now,
		"ended_by": endedBy, "ply": row.Ply, "turn_deadline": nil, "resume_ms": nil, "turn_seat": nil,
	})
	if err != nil {
		return err
	}
	fx.publish(league.GameEvent{GameID: row.ID, Ply: row.Ply, Kind: league.EventEnd})
	fx.then(func(ctx context.Context) error { return g.tasks.Settle(ctx, row.ID) })
	return nil
}

// archiveRecord is the stored archive document of a finished game. How
// the game ended is Game.EndedBy: FinalState is the engine's position, and
// the engine knows nothing of adjudication (an adjudicated game's vector
// shows it still being played).
type archiveRecord struct {
	Game       league.Game         `json:"game"`
	Setup      play.Setup          `json:"setup"`
	Seed       string              `json:"seed"`
	SeedHash   string              `json:"seed_hash"`
	Moves      []league.MoveRecord `json:"moves"`
	FinalState json.RawMessage     `json:"final_state"`
}

// newArchiveRecord builds the archive of a finished game from its stored
// moves and final state.
func newArchiveRecord(row *gameRow, seats []seatRow, moves []league.MoveRecord, final play.Game) (archiveRecord, error) {
	vector, err := final.VectorJSON(fmt.Sprintf("game %s final position", row.ID))
	if err != nil {
		return archiveRecord{}, err
	}
	return archiveRecord{Game: fromGameRow(row, seats), Setup: row.setup(), Seed: hex.EncodeToString(row.Seed),
		SeedHash: row.SeedHash, Moves: moves, FinalState: vector}, nil
}

func (r archiveRecord) archive() *league.Archive {
	return &league.Archive{Game: r.Game, Seed: r.Seed, SeedHash: r.SeedHash, Moves: r.Moves, FinalState: r.FinalState}
}

// finishedGame reads what a finished game's archive and settlement are made
// of: every move in order and the final state (replayed from those moves
// unless this process has it cached).
func (g *Games) finishedGame(tx *gorm.DB, row *gameRow) ([]league.MoveRecord, play.Game, error) {
	var moves []moveRow
	if err := tx.Where("game_id = ?", row.ID).Order("ply").Find(&moves).Error; err != nil {
		return nil, nil, err
	}
	log := make([]league.MoveRecord, len(moves))
	for i, m := range moves {
		log[i] = fromMoveRow(m)
	}
	if final, ok := g.cache.get(row.ID, row.Ply); ok {
		return log, final, nil
	}
	final, err := replayMoves(row, moves)
	return log, final, err
}

// botSeed gives a bot its own random stream for one decision, derived from
// the game seed without revealing anything about it.
func botSeed(row *gameRow, ply, seat int) uint64 {
	h := sha256.New()
	h.Write(row.Seed)
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(ply))
	binary.LittleEndian.PutUint64(b[8:], uint64(seat))
	h.Write([]byte("bot"))
	h.Write(b[:])
	return binary.LittleEndian.Uint64(h.Sum(nil))
}

// thinkingTime is the stop of one bot decision that may take at most limit
// of wall-clock time (nil, no limit, for 0). Within it a decision depends
// only on the position and the seed; past it, on how busy the machine is,
// which is better than a table waiting on an overloaded worker.
func thinkingTime(limit time.Duration) func() bool {
	if limit <= 0 {
		return nil
	}
	deadline := time.Now().Add(limit)
	return func() bool { return time.Now().After(deadline) }
}

// plannedMove is a bot's decision, made before the row lock is taken so
// that thinking never holds a lock or a connection.
type plannedMove struct {
	seat  int
	move  string
	actor string
	user  string
}

// planTurn lets a bot choose seat's moves until its turn ends, a block
// window opens or the game ends, on a local copy of the state; each
// decision may take at most limit (0: no limit).
func planTurn(row *gameRow, game play.Game, seat int, level, actor string, userID *string, limit time.Duration) ([]plannedMove, error) {
	turn, ply := game.TurnCount(), row.Ply
	uid := ""
	if userID != nil && actor != league.ByBot {
		uid = *userID
	}
	var plan []plannedMove
	for len(plan) < maxTurnPlies {
		if game.Status().Over || game.InWindow() || game.TurnCount() != turn || game.Turn() != seat {
			break
		}
		move, err := game.BotMove(level, seat, botSeed(row, ply, seat), thinkingTime(limit))
		if err != nil {
			return nil, fmt.Errorf("bot %s at seat %d: %w", level, seat, err)
		}
		if game, err = game.Apply(seat, move); err != nil {
			return nil, fmt.Errorf("bot %s at seat %d chose %q: %w", level, seat, move, err)
		}
		plan = append(plan, plannedMove{seat: seat, move: move, actor: actor, user: uid})
		ply++
	}
	return plan, nil
}

// snapshot reads a game without locking it, for planning.
func (g *Games) snapshot(ctx context.Context, gameID string) (*gameRow, []seatRow, play.Game, error) {
	db := g.db.WithContext(ctx)
	row, seats, _, err := loadGame(db, gameID, false, moveKey{})
	if err != nil {
		return nil, nil, nil, err
	}
	if row.Status != league.StatusActive {
		return row, nil, nil, nil
	}
	game, err := g.state(db, row)
	return row, seats, game, err
}

// applyPlan applies planned moves if the game is still at ply: if anything
// moved meanwhile, the plan is stale and dropped (a newer task will come).
// It is first tried as one statement on read, the game the plan was made
// from (see saveTurn), then under the game's row lock.
func (g *Games) applyPlan(ctx context.Context, read *knownGame, ply int, plan []plannedMove, before planHook) error {
	fx := &effects{}
	err := g.applyPlanTo(g.db.WithContext(ctx), fx, read, plan, before)
	if err == nil {
		g.run(context.WithoutCancel(ctx), fx)
	}
	if !redoLocked(err) {
		return err
	}
	return g.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		row, seats, _, err := loadGame(tx, read.row.ID, true, moveKey{})
		if err != nil {
			return err
		}
		if row.Status != league.StatusActive || row.Ply != ply {
			return nil
		}
		game, err := g.state(tx, row)
		if err != nil {
			return err
		}
		return g.applyPlanTo(tx, fx, &knownGame{row: row, seats: seats, game: game}, plan, before)
	})
}

// planHook changes a game before a plan's moves are applied to it.
type planHook func(fx *effects, row *gameRow, seats []seatRow, game play.Game)

// applyPlanTo applies plan to at, a game as read, and stores it (in tx,
// which may hold the game's row lock).
func (g *Games) applyPlanTo(tx *gorm.DB, fx *effects, at *knownGame, plan []plannedMove, before planHook) error {
	row, seats, game := at.row, at.seats, at.game
	if before != nil {
		before(fx, row, seats, game)
	}
	prev := game
	for _, m := range plan {
		var err error
		if game, err = g.applyLocked(fx, row, game, m.seat, m.move, m.actor, m.user, ""); err != nil {
			return err
		}
	}
	return g.finishTurnLocked(tx, fx, row, seats, prev, game)
}

// TimeOut is the turn:timeout task. A timer for a ply that has moved on
// does nothing. A block window closes; a person's turn is played by the
// autopilot, and after too many timeouts in a row a fill-in bot takes the
// seat for good.
func (g *Games) TimeOut(ctx context.Context, gameID string, ply int) error {
	row, seats, game, err := g.snapshot(ctx, gameID)
	if err != nil || game == nil || row.Ply != ply {
		return err
	}
	if row.TurnDeadline == nil {
		return nil // nothing is timed now (an untimed turn): the timer is stale
	}
	// asynq schedules to the whole second, so a timer may fire up to a
	// second early: wait out the rest here, holding no lock. A timer much
	// earlier than that (this worker's clock is behind the one that moved
	// it, or the deadline moved later) comes back at the deadline: its ID
	// is the ply's, so it is the only one. No need to read the game again
	// after the wait: if it changes meanwhile, applyPlan's revision check
	// sees it.
	if err := waitDue(ctx, *row.TurnDeadline, g.now()); err != nil {
		return err
	}
	read := &knownGame{row: row, seats: seats, game: game}
	if game.InWindow() {
		return g.applyPlan(ctx, read, ply, []plannedMove{{seat: -1, move: game.ServerMove(), actor: league.ByServer}}, nil)
	}
	seat := seats[game.Turn()]
	if seat.botControlled() {
		return g.tasks.BotMove(ctx, gameID, ply, 0) // make sure the bot's task exists
	}
	countsAsTimeout := row.TimedOutTurn != game.TurnCount()
	abandons := countsAsTimeout && seat.TimeoutsInARow+1 >= row.MaxTimeouts
	actor, level := league.ByAutopilot, row.AutopilotLevel
	if abandons {
		actor, level = league.ByFillIn, row.FillLevel
	}
	plan, err := planTurn(row, game, seat.Seat, level, actor, seat.UserID, g.cfg.BotThinkLimit)
	if err != nil {
		return err
	}
	turn := game.TurnCount()
	return g.applyPlan(ctx, read, ply, plan, func(fx *effects, row *gameRow, seats []seatRow, _ play.Game) {
		if !countsAsTimeout {
			return
		}
		upd := map[string]any{"timeouts_in_a_row": seats[seat.Seat].TimeoutsInARow + 1}
		// The seats are cached with the turn (finishTurnLocked): a count
		// left at its old value there let the player's next move of their
		// own see no timeout to reset, and the next timeout counted on
		// from the stored one, as if the move between had not been made.
		seats[seat.Seat].TimeoutsInARow++
		if abandons {
			why := league.AbandonedTimedOut
			upd["bot_level"], upd["filled_by_bot"], upd["abandoned"], upd["abandoned_why"] = level, true, true, why
			seats[seat.Seat].BotLevel = &level
			seats[seat.Seat].FilledByBot, seats[seat.Seat].Abandoned, seats[seat.Seat].AbandonedWhy = true, true, &why
			fx.publish(league.GameEvent{GameID: gameID, Ply: row.Ply, Kind: league.EventSeat})
		}
		fx.changeSeat(seat.Seat, upd)
		row.TimedOutTurn = turn // stored with the rest of the row by finishTurnLocked
	})
}

// PlayBot is the bot:move task: bot seats play their turn, and in a block
// window bots decide whether to block. A task for a ply that has moved on
// does nothing.
func (g *Games) PlayBot(ctx context.Context, gameID string, ply int) error {
	row, seats, game, err := g.snapshot(ctx, gameID)
	if err != nil || game == nil || row.Ply != ply {
		return err
	}
	// asynq schedules to the whole second, so the task may come up to a
	// second before the bot is due (BotDelay after the move before it):
	// wait out the rest, holding no lock, so the bot never answers sooner
	// than people were promised. No need to read the game again: if it
	// changes meanwhile, applyPlan's revision check sees it.
	if row.BotDueAt != nil {
		if early := row.BotDueAt.Sub(g.now()); early > 0 {
			select {
			case <-time.After(min(early, timerSlack)):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	read := &knownGame{row: row, seats: seats, game: game}
	if game.InWindow() {
		humanOpponent := false
		for _, s := range game.Actors() {
			if !seats[s].botControlled() {
				humanOpponent = true
				continue
			}
			move, err := game.BotMove(*seats[s].BotLevel, s, botSeed(row, ply, s), thinkingTime(g.cfg.BotThinkLimit))
			if err != nil {
				return err
			}
			if move == blockMove {
				return g.applyPlan(ctx, read, ply, []plannedMove{{seat: s, move: move, actor: botActor(seats[s])}}, nil)
			}
		}
		if humanOpponent {
			return nil // the window runs its full time
		}
		return g.applyPlan(ctx, read, ply, []plannedMove{{seat: -1, move: game.ServerMove(), actor: league.ByServer}}, nil)
	}
	seat := seats[game.Turn()]
	if !seat.botControlled() {
		return nil
	}
	plan, err := planTurn(row, game, seat.Seat, *seat.BotLevel, botActor(seat), seat.UserID, g.cfg.BotThinkLimit)
	if err != nil || len(plan) == 0 {
		return err
	}
	return g.applyPlan(ctx, read, ply, plan, nil)
}

func botActor(s seatRow) string {
	if s.FilledByBot && s.Abandoned {
		return league.ByFillIn
	}
	return league.ByBot
}

// Settle is the game:settle task: it writes the archive and runs the
// settlers (ratings, standings) exactly once per game, under the game's
// row lock.
func (g *Games) Settle(ctx context.Context, gameID string) error {
	return g.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		row, seats, _, err := loadGame(tx, gameID, true, moveKey{})
		if err != nil {
			return err
		}
		if row.Status != league.StatusFinished || row.SettledAt != nil {
			return nil
		}
		log, final, err := g.finishedGame(tx, row)
		if err != nil {
			return err
		}
		rec, err := newArchiveRecord(row, seats, log, final)
		if err != nil {
			return err
		}
		doc, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		if err := tx.Create(&archiveRow{GameID: row.ID, Record: doc, CreatedAt: g.now()}).Error; err != nil {
			return err
		}
		st := &Settlement{Tx: tx, Game: fromGameRow(row, seats), Moves: log, Final: final, fx: fx}
		if row.TournamentID != nil && row.MatchID != nil && row.MatchGame != nil {
			st.Link = &gameLink{TournamentID: *row.TournamentID, MatchID: *row.MatchID, MatchGame: *row.MatchGame}
		}
		for _, s := range g.settlers {
			if err := s.SettleGame(ctx, st); err != nil {
				return err
			}
		}
		return tx.Model(&gameRow{}).Where("id = ?", gameID).Update("settled_at", g.now()).Error
	})
}

// Adjudicate ends an unfinished game on the board, as a tournament's
// deadline policy may ask: the team with the highest score (sequences, or
// chips in Stacks) alone wins; equal leaders draw. It does so in a
// transaction of its own; the service itself adjudicates only within a
// round deadline's transaction (Tournaments.RoundDeadline calls
// adjudicateIn), and this wrapper is what the tests, here and in server,
// call.
func (g *Games) Adjudicate(ctx context.Context, gameID string) error {
	return g.transact(ctx, func(tx *gorm.DB, fx *effects) error { return g.adjudicateIn(tx, fx, gameID) })
}

// adjudicateIn is Adjudicate within the caller's transaction.
func (g *Games) adjudicateIn(tx *gorm.DB, fx *effects, gameID string) error {
	row, err := lockGame(tx, gameID)
	if err != nil || row.Status != league.StatusActive {
		return err
	}
	game, err := g.state(tx, row)
	if err != nil {
		return err
	}
	st := play.Status{Over: true, Drawn: true, Winner: -1}
	best, count := -1, 0
	for team, score := range game.Scores() {
		switch {
		case score > best:
			best, count, st.Winner = score, 1, team
		case score == best:
			count++
		}
	}
	if count == 1 {
		st.Drawn = false
	} else {
		st.Winner = -1
	}
	return g.finishLocked(tx, fx, row, st, league.EndedByAdjudication, g.now())
}

// noShowSeats are the seats of a game being played that had a turn, one
// the autopilot or a bot played, or one of waiting (the seats to move now,
// where those count), and never made a move of their own: a seat whose
// turn never came is no no-show.
func noShowSeats(tx *gorm.DB, gameID string, waiting []int) (map[int]bool, error) {
	var turns []struct {
		Seat  int
		Moved bool // a move of the person's own
	}
	if err := tx.Raw(`SELECT seat, bool_or(actor = ?) AS moved FROM game_moves WHERE game_id = ? AND seat >= 0 GROUP BY seat`,
		league.ByPlayer, gameID).Scan(&turns).Error; err != nil {
		return nil, err
	}
	noShows := map[int]bool{}
	for _, t := range turns {
		noShows[t.Seat] = !t.Moved
	}
	for _, s := range waiting {
		if _, seen := noShows[s]; !seen {
			noShows[s] = true
		}
	}
	return noShows, nil
}

// adjudicateNoShowsIn is adjudicateIn for a tournament whose no-shows
// forfeit: the people whose turns were played for them and who never
// moved are first recorded as having abandoned their seats (no_show), so
// that ratings count their team's loss as any abandonment's whatever the
// board says, as the match does (forfeitResult). They were rated on the
// adjudicated board: a no-show drawn 0–0 gained rating from the player who
// came. A turn still waiting at the deadline makes no no-show here, as in
// forfeitResult: a round shorter than a turn's clock faults nobody.
func (g *Games) adjudicateNoShowsIn(tx *gorm.DB, fx *effects, gameID string) error {
	row, err := lockGame(tx, gameID)
	if err != nil || row.Status != league.StatusActive {
		return err
	}
	noShows, err := noShowSeats(tx, gameID, nil)
	if err != nil {
		return err
	}
	why := league.AbandonedNoShow
	for seat, absent := range noShows {
		if !absent {
			continue
		}
		if err := tx.Model(&seatRow{}).Where("game_id = ? AND seat = ? AND bot_level IS NULL", gameID, seat).
			Updates(map[string]any{"abandoned": true, "abandoned_why": why}).Error; err != nil {
			return err
		}
	}
	return g.adjudicateIn(tx, fx, gameID)
}

// abortIn ends a game before the rules do, within the caller's
// transaction (a tournament called off): nobody wins, and no settlement
// runs, so nothing is rated and no match counts it. An open game is
// aborted as a game everyone left is. A game being played is stored as a
// turn is, by saveTurn, so that a move, a timer or a bot's turn checked
// against the game before this is not stored after it; its players'
// streams get its end.
func (g *Games) abortIn(tx *gorm.DB, fx *effects, gameID string, now time.Time) error {
	row, err := lockGame(tx, gameID)
	if err != nil {
		return err
	}
	switch row.Status {
	case league.StatusOpen:
		return abortOpenGame(tx, fx, row, now)
	case league.StatusActive:
	default:
		return nil // over already: its result stands
	}
	endedBy := league.EndedByAbort
	row.Status, row.FinishedAt, row.EndedBy = league.StatusAborted, &now, &endedBy
	row.TurnSeat, row.TurnDeadline, row.BotDueAt, row.ResumeMS = nil, nil, nil, nil
	if err := saveTurn(tx, fx, row, map[string]any{
		"status": league.StatusAborted, "finished_at": now, "ended_by": endedBy,
		"turn_deadline": nil, "resume_ms": nil, "turn_seat": nil, "bot_due_at": nil,
	}); err != nil {
		return err
	}
	fx.publish(league.GameEvent{GameID: row.ID, Ply: row.Ply, Kind: league.EventEnd})
	return nil
}

// HandToBots lets bots of the game's fill-in level finish a game quickly
// (a tournament deadline): every seat a person holds is handed to a bot.
// A person who has moved in the game is not marked as having abandoned: the
// bot finishes for them. A person who had a turn (one the autopilot played,
// or the one waiting now) and never made a move of their own (a no-show)
// is, as after max_timeouts: the bot's play is not theirs to be rated on.
// A person whose turn never came is not a no-show. It does so in a
// transaction of its own; the service itself hands games to bots only
// within a round deadline's transaction (Tournaments.RoundDeadline calls
// handToBotsIn), and this wrapper is what the tests call.
func (g *Games) HandToBots(ctx context.Context, gameID string) error {
	return g.transact(ctx, func(tx *gorm.DB, fx *effects) error { return g.handToBotsIn(tx, fx, gameID) })
}

// handToBotsIn is HandToBots within the caller's transaction.
func (g *Games) handToBotsIn(tx *gorm.DB, fx *effects, gameID string) error {
	row, err := lockGame(tx, gameID)
	if err != nil || row.Status != league.StatusActive {
		return err
	}
	game, err := g.state(tx, row)
	if err != nil {
		return err
	}
	noShows, err := noShowSeats(tx, gameID, game.Actors())
	if err != nil {
		return err
	}
	seats, err := loadSeats(tx, gameID)
	if err != nil {
		return err
	}
	for _, s := range seats {
		if s.BotLevel != nil {
			continue
		}
		noShow := noShows[s.Seat]
		var why *string
		if noShow {
			why = new(league.AbandonedNoShow)
		}
		if err := tx.Model(&seatRow{}).Where("game_id = ? AND seat = ?", gameID, s.Seat).
			Updates(map[string]any{"bot_level": row.FillLevel, "filled_by_bot": true, "abandoned": noShow, "abandoned_why": why}).Error; err != nil {
			return err
		}
	}
	// A move read before this change must not be stored after it.
	now := g.now()
	row.BotDueAt = &now
	if err := saveTurn(tx, fx, row, map[string]any{"bot_due_at": now}); err != nil {
		return err
	}
	ply := row.Ply
	fx.publish(league.GameEvent{GameID: gameID, Ply: ply, Kind: league.EventSeat})
	fx.then(func(ctx context.Context) error { return g.tasks.BotMove(ctx, gameID, ply, 0) })
	return nil
}
