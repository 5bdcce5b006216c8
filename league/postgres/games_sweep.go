package postgres

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"gorm.io/gorm"

	"github.com/seqleague/seqleague/league"
)

// reconcileGrace is how long a game's next task may be overdue before the
// sweep schedules it again: well past a timer's normal lateness and a
// settlement's normal wait, so that the sweep only ever picks up tasks that
// were lost.
const reconcileGrace = 30 * time.Second

// reconcileBatch bounds one sweep; the next sweep takes the rest.
const reconcileBatch = 1000

// allRows is a limit of no limit (GORM's -1), for RescheduleAll.
const allRows = -1

// Rescheduled counts the tasks one sweep scheduled again.
type Rescheduled struct {
	Settlements int // game:settle of finished games never settled
	Timers      int // turn:timeout of active games whose deadline passed
	BotMoves    int // bot:move of active games whose bot never acted
	Starts      int // game:start of scheduled games still open past their start
}

// Total is the number of tasks scheduled again.
func (r Rescheduled) Total() int { return r.Settlements + r.Timers + r.BotMoves + r.Starts }

// Reconcile schedules again the tasks that a game's state says must exist
// but whose time is long past: the settlement of a finished game never
// settled, the timer of an active game whose turn deadline has passed, and
// the bot:move of an active game whose bot was due to act (bot_due_at; in
// an untimed game nothing else would ever move it on), and the game:start
// of a scheduled game still open past its start (and its fill grace, if a
// seat is open; nothing else would ever start it). It also fills in the turn_seat of games
// active since before that column (fillTurnSeats). Tasks are enqueued
// after their commit, so a Redis failure at that moment loses them; the
// task IDs make scheduling one that is still waiting a no-op, while one
// that is over (archived or completed, yet the game still waits for it)
// is replaced. A game whose task cannot be scheduled is reported, and the
// pass goes on with the others: it stopped there, and every game after it
// waited as long as that one failed.
func (g *Games) Reconcile(ctx context.Context) (Rescheduled, error) {
	return g.reconcileBefore(ctx, g.now().Add(-reconcileGrace), reconcileBatch)
}

// RescheduleAll is Reconcile for every task a game's state says must
// exist, however far ahead it is due, for a Redis known to have lost them
// all: the zero-config mode's, which lives in the process, or one that
// restarted without its data (workers.WhenRedisLost). Restarted, it left
// every game's timer and bot waiting 30–60 s for the sweep to find them
// overdue (the make run audit). Not in batches: past the first 1,000 games
// the rest waited for sweeps of 1,000 every 30 s.
func (g *Games) RescheduleAll(ctx context.Context) (Rescheduled, error) {
	return g.reconcileBefore(ctx, farFuture, allRows)
}

// farFuture is a cutoff past every task's time.
var farFuture = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// reconcileBefore schedules the tasks due before cutoff (see Reconcile),
// at most limit of each kind (allRows: every one).
func (g *Games) reconcileBefore(ctx context.Context, cutoff time.Time, limit int) (Rescheduled, error) {
	var done Rescheduled
	var failed []error
	db := g.db.WithContext(ctx)
	var unsettled []string
	if err := db.Model(&gameRow{}).
		Where("status = ? AND settled_at IS NULL AND finished_at < ?", league.StatusFinished, cutoff).
		Order("finished_at").Limit(limit).Pluck("id", &unsettled).Error; err != nil {
		failed = append(failed, err)
	}
	for _, id := range unsettled {
		if err := g.tasks.Settle(ctx, id); err != nil {
			failed = append(failed, err)
			continue
		}
		done.Settlements++
	}
	var err error
	done.Timers, err = rescheduleOverdue(db, "turn_deadline", cutoff, limit, func(o overdueGame) error {
		return g.tasks.TurnTimeout(ctx, o.ID, o.Ply, o.Due)
	})
	failed = append(failed, err)
	done.BotMoves, err = rescheduleOverdue(db, "bot_due_at", cutoff, limit, func(o overdueGame) error {
		return g.tasks.BotMove(ctx, o.ID, o.Ply, 0)
	})
	failed = append(failed, err)
	// The start is due at the scheduled time if no seat is open, else
	// FillGrace after it (see startDue); its task is named by that due
	// time, as StartScheduled and Create schedule it.
	var unstarted []struct {
		ID       string
		Due      time.Time
		OpenSeat bool
	}
	if err := db.Model(&gameRow{}).Select(`id, scheduled_start AS due, EXISTS (SELECT 1 FROM game_seats s
			WHERE s.game_id = games.id AND s.user_id IS NULL AND s.bot_level IS NULL) AS open_seat`).
		Where("status = ? AND scheduled_start < ?", league.StatusOpen, cutoff).
		Order("scheduled_start").Limit(limit).Scan(&unstarted).Error; err != nil {
		failed = append(failed, err)
	}
	for _, o := range unstarted {
		due := o.Due
		if o.OpenSeat {
			due = due.Add(g.cfg.FillGrace)
		}
		if due.After(cutoff) {
			continue // its grace runs yet
		}
		if err := g.tasks.StartGame(ctx, o.ID, due); err != nil {
			failed = append(failed, err)
			continue
		}
		done.Starts++
	}
	failed = append(failed, g.fillTurnSeats(db))
	return done, errors.Join(failed...)
}

// fillTurnSeats gives the games that were active before games had a
// turn_seat (00014) theirs, which only the engine can tell: every turn
// saved since writes it. Once they are done it is one query through the
// status index that finds nothing. The write leaves the revision alone
// (nothing a move checks changes) and applies only if the game is still
// the one replayed: a move stored meanwhile has written its own.
func (g *Games) fillTurnSeats(db *gorm.DB) error {
	var rows []gameRow
	if err := db.Where("status = ? AND turn_seat IS NULL", league.StatusActive).
		Limit(reconcileBatch).Find(&rows).Error; err != nil {
		return err
	}
	for i := range rows {
		game, err := g.state(db, &rows[i])
		if err != nil {
			return err
		}
		if err := db.Exec("UPDATE games SET turn_seat = ? WHERE id = ? AND revision = ? AND turn_seat IS NULL",
			game.Turn(), rows[i].ID, rows[i].Revision).Error; err != nil {
			return err
		}
	}
	return nil
}

// overdueGame is an active game whose task for its ply was due at Due.
type overdueGame struct {
	ID  string
	Ply int
	Due time.Time
}

// rescheduleOverdue calls enqueue for each active game whose due-time
// column (turn_deadline or bot_due_at) is before cutoff, the longest
// overdue first, at most limit of them, and returns how many it enqueued,
// and the failures.
func rescheduleOverdue(db *gorm.DB, column string, cutoff time.Time, limit int, enqueue func(overdueGame) error) (int, error) {
	var overdue []overdueGame
	if err := db.Model(&gameRow{}).Select("id, ply, "+column+" AS due").
		Where("status = ? AND "+column+" < ?", league.StatusActive, cutoff).
		Order(column).Limit(limit).Scan(&overdue).Error; err != nil {
		return 0, err
	}
	n := 0
	var failed []error
	for _, o := range overdue {
		if err := enqueue(o); err != nil {
			failed = append(failed, err)
			continue
		}
		n++
	}
	return n, errors.Join(failed...)
}

// ForgetLapsed clears presence marks whose time has passed, at most
// reconcileBatch a call, and says how many. A lapsed mark already counts as
// not here, but it stays in game_seats_here_idx: the seats of every open
// table its players walked away from, and a mark a heartbeat renewed just
// as its table started (after the start's forgetWaiting), so the index would
// grow with every table ever left. The mark is read again as it is
// cleared, so one renewed meanwhile stays.
//
// The time the mark ran to is kept in was_here_until: a table somebody was
// at within the open-table lifetime does not lapse (LapseOpenTables).
func (g *Games) ForgetLapsed(ctx context.Context) (int, error) {
	now := g.now()
	res := g.db.WithContext(ctx).Exec(`UPDATE game_seats SET here_until = NULL, was_here_until = here_until
		WHERE (game_id, seat) IN (SELECT game_id, seat FROM game_seats WHERE here AND here_until < ? LIMIT ?) AND here_until < ?`,
		now, reconcileBatch, now)
	return int(res.RowsAffected), res.Error
}

// TellAway finds the people seated at active games who are away (awayAt:
// their event stream's mark ran out, or was never set once the game's
// seenGrace is over) and whom the game's viewers have not been told of,
// marks them told (away_told), and publishes one seat event per game, so
// that the others' pages show them away now and not at the next move.
// At most reconcileBatch seats a call, the rest the next sweep's; it says
// how many games were told.
//
// Each seat is read again as it is marked: a mark the player's stream
// wrote meanwhile keeps it untold (and that stream told of the return, if
// any, Seen). A mark written after is the player back: it clears
// away_told, so the next lapse is told again.
func (g *Games) TellAway(ctx context.Context) (int, error) {
	now := g.now()
	var told []struct {
		GameID string
		Ply    int
	}
	err := g.db.WithContext(ctx).Raw(`WITH due AS (SELECT s.game_id, s.seat FROM games JOIN game_seats s ON s.game_id = games.id
			WHERE games.status = 'active' AND games.started_at <= @graceOver
			AND s.user_id IS NOT NULL AND s.bot_level IS NULL AND NOT s.away_told
			AND (s.seen_until IS NULL OR s.seen_until <= @now) LIMIT @batch),
		told AS (UPDATE game_seats s SET away_told = true FROM due
			WHERE s.game_id = due.game_id AND s.seat = due.seat AND s.user_id IS NOT NULL AND s.bot_level IS NULL
			AND NOT s.away_told AND (s.seen_until IS NULL OR s.seen_until <= @now) RETURNING s.game_id)
		SELECT games.id::text AS game_id, games.ply FROM games WHERE games.id IN (SELECT game_id FROM told)`,
		sql.Named("now", now), sql.Named("graceOver", now.Add(-seenGrace)), sql.Named("batch", reconcileBatch)).
		Scan(&told).Error
	if err != nil {
		return 0, err
	}
	fx := &effects{}
	for _, t := range told {
		fx.publish(league.GameEvent{GameID: t.GameID, Ply: t.Ply, Kind: league.EventSeat})
	}
	g.run(ctx, fx)
	return len(told), nil
}

// lapsedTable holds for an open casual table (of the table games) made
// before @cutoff, whose scheduled start, if any, went by before it too,
// and at which nobody has been since: no seat marked here (here_until,
// which runs a little past the last heartbeat or sitting down), nor
// cleared of a mark that ran out since (was_here_until). Bots' and open
// seats are never marked. A tournament's game (tournament_id, or
// match_id once its tournament is gone) waits for its round, not for
// players, and is never one.
const lapsedTable = `games.status = 'open' AND games.tournament_id IS NULL AND games.match_id IS NULL
	AND games.created_at < @cutoff AND (games.scheduled_start IS NULL OR games.scheduled_start < @cutoff)
	AND NOT EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = games.id
		AND (s.here_until >= @cutoff OR s.was_here_until >= @cutoff))`

// LapseOpenTables aborts the open casual tables that nobody joined, nor
// was at, within cfg.OpenTableLifetime (lapsedTable), as their creator's
// cancel would (endOpenGame; ended_by lapse says why), the oldest first
// and at most reconcileBatch a call, and says how many. A player who made
// tables and walked away would otherwise have them count toward their
// bound on live games for ever, and the invitations they hold listed.
//
// Each table is read again under its lock: a join, a heartbeat or a start
// that took the lock first keeps it open, and one that comes after finds
// it aborted. A scheduled table's game:start task, if still queued, finds
// it no longer open and does nothing; an unscheduled table has no task.
func (g *Games) LapseOpenTables(ctx context.Context) (int, error) {
	if g.cfg.OpenTableLifetime <= 0 {
		return 0, nil
	}
	now := g.now()
	cutoff := now.Add(-g.cfg.OpenTableLifetime)
	var ids []string
	if err := g.db.WithContext(ctx).Model(&gameRow{}).Where(lapsedTable, map[string]any{"cutoff": cutoff}).
		Order("created_at").Limit(reconcileBatch).Pluck("id", &ids).Error; err != nil {
		return 0, err
	}
	lapsed := 0
	for _, id := range ids {
		var done bool
		err := g.transact(ctx, func(tx *gorm.DB, fx *effects) error {
			done = false
			row, err := lockGame(tx, id)
			if err != nil {
				return err
			}
			var still int64
			if err := tx.Model(&gameRow{}).Where("games.id = @id AND "+lapsedTable, map[string]any{"id": id, "cutoff": cutoff}).
				Count(&still).Error; err != nil || still == 0 {
				return err
			}
			done = true
			return endOpenGame(tx, fx, row, now, league.EndedByLapse)
		})
		if league.ErrorCode(err) == league.ENOTFOUND {
			continue // deleted meanwhile
		}
		if err != nil {
			return lapsed, err
		}
		if done {
			lapsed++
		}
	}
	return lapsed, nil
}
