package postgres

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/seqleague/seqleague/league"
)

// cancel calls a tournament off (organizers only), from registration,
// running or paused, in one transaction: its games not yet over are
// aborted (unrated, and counted in no match: no settlement runs for
// them), and it becomes cancelled. Its rounds, matches, bracket and the
// results of its finished games stay as they were. The tasks still queued
// of its rounds not finished are deleted once it has committed
// (forgetRoundTasks); one that runs all the same (running then, or for a
// time moved since) finds it cancelled under its row lock and does
// nothing; a game's settlement that comes after starts no game (see
// SettleGame).
func (t *Tournaments) cancel(ctx context.Context, a league.Actor, id string, name *string) (*league.Tournament, error) {
	var out *league.Tournament
	err := t.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		// Asked first without a lock: a refusal waits for nobody.
		r, err := readTournament(tx, id, false)
		if err != nil {
			return err
		}
		if err := organizer(tx, a, r); err != nil {
			return err
		}
		if err := cancellable(r); err != nil {
			return err
		}
		// The games, then the tournament: the order a round's deadline,
		// a game's settlement and an account's closing take them in, so
		// none of them waits for this while this waits for it.
		if _, err := lockLiveGames(tx, id); err != nil {
			return err
		}
		if r, err = readTournament(tx, id, true); err != nil {
			return err
		}
		if err := cancellable(r); err != nil {
			return err
		}
		if err := renameLocked(tx, r, name); err != nil {
			return err
		}
		// Asked again under the tournament's lock: a game made meanwhile
		// (a round paired, a series' next game) was made under it too,
		// and whoever made it has committed.
		ids, err := lockLiveGames(tx, id)
		if err != nil {
			return err
		}
		now := t.now()
		for _, gid := range ids {
			if err := t.games.abortIn(tx, fx, gid, now); err != nil {
				return err
			}
		}
		r.Status, r.CancelledAt = league.TournamentCancelled, &now
		if err := tx.Model(r).Updates(map[string]any{"status": r.Status, "cancelled_at": now}).Error; err != nil {
			return err
		}
		if err := t.forgetRoundTasks(tx, fx, id); err != nil {
			return err
		}
		out, err = withEntries(tx, r)
		return err
	})
	return out, err
}

// cancellable refuses to cancel a tournament that is over or was
// cancelled already.
func cancellable(r *tournamentRow) error {
	switch r.Status {
	case league.TournamentFinished:
		return statusRefused("the tournament is over: a finished tournament cannot be cancelled")
	case league.TournamentCancelled:
		return statusRefused("the tournament was cancelled already")
	}
	return nil
}

// lockLiveGames locks, in id order, a tournament's games not yet over.
func lockLiveGames(tx *gorm.DB, tournamentID string) ([]string, error) {
	var ids []string
	err := tx.Raw(`SELECT id FROM games WHERE tournament_id = ? AND status IN ? ORDER BY id FOR UPDATE`,
		tournamentID, []string{league.StatusOpen, league.StatusActive}).Scan(&ids).Error
	return ids, err
}

// forgetRoundTasks has the queued tasks of the tournament's rounds not
// finished deleted after the commit: each round's start and deadline as
// they stand, and the deadline a late start moved (planned_deadline).
// Tasks of times an organizer moved since keep their place: their IDs are
// not stored, and they do nothing, as before.
func (t *Tournaments) forgetRoundTasks(tx *gorm.DB, fx *effects, id string) error {
	var rounds []roundRow
	if err := tx.Where("tournament_id = ? AND status <> 'finished'", id).Order("number").Find(&rounds).Error; err != nil {
		return err
	}
	t.forgetTasksOf(fx, id, rounds)
	return nil
}

// forgetTasksOf has the queued tasks of rounds of a tournament deleted
// after the commit: each round's start and deadline as the rows say, and
// the deadline a late start moved (planned_deadline).
func (t *Tournaments) forgetTasksOf(fx *effects, id string, rounds []roundRow) {
	for _, rd := range rounds {
		var starts, deadlines []time.Time
		if rd.StartsAt != nil {
			starts = append(starts, *rd.StartsAt)
		}
		for _, d := range []*time.Time{rd.Deadline, rd.PlannedDeadline} {
			if d != nil {
				deadlines = append(deadlines, *d)
			}
		}
		if len(starts)+len(deadlines) == 0 {
			continue
		}
		n := rd.Number
		fx.then(func(ctx context.Context) error { return t.tasks.ForgetRound(ctx, id, n, starts, deadlines) })
	}
}
