package postgres

import (
	"context"
	"time"

	"github.com/seqleague/seqleague/league"
)

// reconcileGrace is how long a game's next task may be overdue before the
// sweep schedules it again: well past a timer's normal lateness and a
// settlement's normal wait, so that the sweep only ever picks up tasks that
// were lost.
const reconcileGrace = 30 * time.Second

// reconcileBatch bounds one sweep; the next sweep takes the rest.
const reconcileBatch = 1000

// Reconcile schedules again the tasks that a game's state says must exist
// but whose time is long past: the settlement of a finished game never
// settled, and the timer of an active game whose turn deadline has passed.
// Tasks are enqueued after their commit, so a Redis failure at that moment
// loses them; the task IDs make scheduling one that does exist a no-op. It
// returns how many of each it scheduled.
func (g *Games) Reconcile(ctx context.Context) (settles, timers int, err error) {
	db := g.db.WithContext(ctx)
	cutoff := g.now().Add(-reconcileGrace)
	var unsettled []string
	if err := db.Model(&gameRow{}).
		Where("status = ? AND settled_at IS NULL AND finished_at < ?", league.StatusFinished, cutoff).
		Order("finished_at").Limit(reconcileBatch).Pluck("id", &unsettled).Error; err != nil {
		return 0, 0, err
	}
	for _, id := range unsettled {
		if err := g.tasks.Settle(ctx, id); err != nil {
			return settles, timers, err
		}
		settles++
	}
	var overdue []struct {
		ID           string
		Ply          int
		TurnDeadline time.Time
	}
	if err := db.Model(&gameRow{}).Select("id, ply, turn_deadline").
		Where("status = ? AND turn_deadline < ?", league.StatusActive, cutoff).
		Order("turn_deadline").Limit(reconcileBatch).Scan(&overdue).Error; err != nil {
		return settles, timers, err
	}
	for _, o := range overdue {
		if err := g.tasks.TurnTimeout(ctx, o.ID, o.Ply, o.TurnDeadline); err != nil {
			return settles, timers, err
		}
		timers++
	}
	return settles, timers, nil
}
