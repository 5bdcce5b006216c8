package postgres

import (
	"math"
	"time"

	"github.com/seqleague/seqleague/league"
	"gorm.io/gorm"
)

// creationBudget bounds how many rows of one kind (clubs, tournaments) an
// account may create in any league.CreationWindow; 0 is no bound. The
// creations themselves are the count, read in the creating transaction:
// only what was created counts (a refused attempt spends nothing), every
// instance counts the same rows, and no outage of another store lets a
// flood through.
type creationBudget struct {
	table string // the table whose created_by and created_at count
	what  string // the rows, as the refusal names them
	limit int
}

// spend refuses (ETOOMANY, with when the next may be created) a creation
// by creator past the budget; site admins are not counted. One account's
// creations of a kind take turns on an advisory lock, so that two made at
// once cannot both take the last place.
func (b creationBudget) spend(tx *gorm.DB, a league.Actor, now time.Time) error {
	if b.limit <= 0 || a.IsAdmin {
		return nil
	}
	if err := tx.Exec("SELECT pg_advisory_xact_lock(hashtext(?))", b.table+" created by "+a.UserID).Error; err != nil {
		return err
	}
	// The limit-th newest creation of the window: while there is one, the
	// budget is spent, and a place frees when it leaves the window.
	var at []time.Time
	err := tx.Table(b.table).Where("created_by = ? AND created_at > ?", a.UserID, now.Add(-league.CreationWindow)).
		Order("created_at DESC").Offset(b.limit-1).Limit(1).Pluck("created_at", &at).Error
	if err != nil || len(at) == 0 {
		return err
	}
	// now was read before the lock: a creation that took it first may be
	// stamped after now, and its place frees at most a window from now
	// (the wait read 86401 s, past the day, when two raced).
	wait := min(at[0].Add(league.CreationWindow).Sub(now), league.CreationWindow)
	e := league.Errorf(league.ETOOMANY, "you have created %d %s in the last 24 hours, the most one account may; the next in %s",
		b.limit, b.what, wait.Round(time.Minute))
	e.RetryAfterSeconds = max(1, int(math.Ceil(wait.Seconds())))
	return e
}
