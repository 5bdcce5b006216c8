package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/seqleague/seqleague/league"
)

// RescheduledRounds counts the round tasks one sweep scheduled again.
type RescheduledRounds struct {
	Starts    int // round:start of rounds due long ago and never paired
	Deadlines int // round:deadline of rounds whose deadline passed with games still in play
}

// Total is the number of tasks scheduled again.
func (r RescheduledRounds) Total() int { return r.Starts + r.Deadlines }

// overdueRound is a round whose task was due at Due.
type overdueRound struct {
	TournamentID string
	Number       int
	Due          time.Time
}

// Reconcile schedules again the round tasks that a tournament's state says
// must exist but whose time is long past (see Games.Reconcile: tasks are
// enqueued after their commit, so a Redis failure at that moment loses
// them). A round is started again if it is the next round of a running
// tournament (or the first of one still in registration), its start passed
// more than the grace ago, the round before it is over, and it was never
// paired nor refused for good (start_error: an organizer acts on those). A
// round's deadline is applied again if it passed more than the grace ago
// and the round still has a game in play that the deadline would end or
// hand to bots, unless the tournament is paused (its resume applies the
// deadline). Both tasks do nothing when they find nothing to do, so the
// sweep is safe to run in several processes at once. A round whose task
// cannot be scheduled is reported, and the pass goes on with the others.
func (t *Tournaments) Reconcile(ctx context.Context) (RescheduledRounds, error) {
	return t.reconcileBefore(ctx, t.now().Add(-reconcileGrace))
}

// RescheduleAll is Reconcile for every round task, however far ahead it
// is due, for a Redis known to have lost them all (Games.RescheduleAll).
func (t *Tournaments) RescheduleAll(ctx context.Context) (RescheduledRounds, error) {
	return t.reconcileBefore(ctx, farFuture)
}

// reconcileBefore schedules the round tasks due before cutoff (see
// Reconcile).
func (t *Tournaments) reconcileBefore(ctx context.Context, cutoff time.Time) (RescheduledRounds, error) {
	var done RescheduledRounds
	var failed []error
	db := t.db.WithContext(ctx)
	var starts []overdueRound
	if err := db.Raw(`SELECT r.tournament_id, r.number, r.starts_at AS due
		FROM rounds r JOIN tournaments t ON t.id = r.tournament_id
		WHERE r.paired_at IS NULL AND r.start_error IS NULL AND r.starts_at < ?
		  AND ((t.status = ? AND r.number = 1)
		    OR (t.status = ? AND r.number = t.current_round + 1
		        AND (t.current_round = 0 OR EXISTS (SELECT 1 FROM rounds c
		             WHERE c.tournament_id = t.id AND c.number = t.current_round AND c.status = 'finished'))))
		ORDER BY r.starts_at LIMIT ?`,
		cutoff, league.TournamentRegistration, league.TournamentRunning, reconcileBatch).Scan(&starts).Error; err != nil {
		failed = append(failed, err)
	}
	for _, o := range starts {
		if err := t.tasks.RoundStart(ctx, o.TournamentID, o.Number, o.Due); err != nil {
			failed = append(failed, err)
			continue
		}
		done.Starts++
	}
	// A game still has a person's seat (bots) or is in play at all
	// (adjudicate) after the deadline: the deadline's task never ran.
	var deadlines []struct {
		TournamentID string
		Number       int
		Due          time.Time
		Config       []byte
		Human        bool
	}
	if err := db.Raw(`SELECT r.tournament_id, r.number, r.deadline AS due, t.config,
			bool_or(s.bot_level IS NULL AND s.user_id IS NOT NULL) AS human
		FROM rounds r JOIN tournaments t ON t.id = r.tournament_id
		JOIN matches m ON m.tournament_id = r.tournament_id AND m.round = r.number
		JOIN games g ON g.tournament_id = m.tournament_id AND g.match_id = m.id AND g.status = ?
		JOIN game_seats s ON s.game_id = g.id
		WHERE r.deadline < ? AND r.status = 'running' AND t.status = ?
		GROUP BY r.tournament_id, r.number, r.deadline, t.config
		ORDER BY r.deadline LIMIT ?`,
		league.StatusActive, cutoff, league.TournamentRunning, reconcileBatch).Scan(&deadlines).Error; err != nil {
		failed = append(failed, err)
	}
	for _, o := range deadlines {
		r := tournamentRow{ID: o.TournamentID, Config: o.Config}
		if err := r.check(); err != nil {
			failed = append(failed, err)
			continue
		}
		if !o.Human && r.config().AtDeadline != "adjudicate" {
			continue // handed to bots already: they are finishing it
		}
		if err := t.tasks.RoundDeadline(ctx, o.TournamentID, o.Number, o.Due); err != nil {
			failed = append(failed, err)
			continue
		}
		done.Deadlines++
	}
	return done, errors.Join(failed...)
}
