package postgres

import (
	"context"
	"time"

	"github.com/seqleague/seqleague/league"
	"gorm.io/gorm"
)

// HandSeatsTo lets Delete publish the seat changes a closed account's
// games get and schedule their fill-in bots at once. Without it the
// changes are still stored, and the sweep (Games.Reconcile) schedules the
// overdue bots within a minute.
func (s *Accounts) HandSeatsTo(g *Games) { s.games = g }

// releaseClosedAccount runs in the transaction that closes userID's account,
// so that nothing the account sits in waits for a person who is gone: its
// seats in games not yet started are freed (or the game it created is
// aborted when nobody else sits there), its seats in games being played go
// to a fill-in bot, and its entries in tournaments still taking entries are
// withdrawn. tasks, if not nil, schedules the bots after the commit.
// Each step finds only what is still to do, so running it again
// changes nothing.
func releaseClosedAccount(tx *gorm.DB, fx *effects, tasks league.GameTasks, userID string, now time.Time) error {
	if err := leaveOpenGames(tx, fx, userID, now); err != nil {
		return err
	}
	if err := abandonActiveGames(tx, fx, tasks, userID, now); err != nil {
		return err
	}
	if err := freeKeptSeats(tx, fx, userID); err != nil {
		return err
	}
	return withdrawRegistrations(tx, userID, "")
}

// freeKeptSeats opens to anyone the seats of games not yet started that
// are kept for the account (a table made for them keeps theirs until the
// start, which would otherwise wait for them for good), each game's row
// locked first, in id order, as a join locks it.
func freeKeptSeats(tx *gorm.DB, fx *effects, userID string) error {
	var ids []string
	if err := tx.Raw(`SELECT DISTINCT s.game_id FROM game_seats s JOIN games g ON g.id = s.game_id
		WHERE s.kept_for = ? AND s.user_id IS NULL AND g.status = ? ORDER BY s.game_id`, userID, league.StatusOpen).Scan(&ids).Error; err != nil {
		return err
	}
	for _, id := range ids {
		row, err := lockGame(tx, id)
		if err != nil {
			return err
		}
		if row.Status != league.StatusOpen {
			continue
		}
		if err := tx.Model(&seatRow{}).Where("game_id = ? AND kept_for = ? AND user_id IS NULL", id, userID).
			Updates(map[string]any{"kept_for": nil, "kept_until": nil}).Error; err != nil {
			return err
		}
		fx.publish(league.GameEvent{GameID: id, Ply: row.Ply, Kind: league.EventSeat})
	}
	return nil
}

// closeAgain answers the close of an account that is already closed. For a
// site admin it releases the account's games and entries once more, which
// finishes the job for accounts closed before closing released them; for
// anyone else the account does not exist.
func closeAgain(tx *gorm.DB, fx *effects, tasks league.GameTasks, actor league.Actor, userID string, now time.Time) error {
	var closed int64
	err := tx.Model(&userRow{}).Where("id = ? AND deleted_at IS NOT NULL AND kind = ?", userID, league.KindHuman).Count(&closed).Error
	if err != nil {
		return err
	}
	if closed == 0 || !actor.IsAdmin {
		var bots int64
		if err := tx.Model(&userRow{}).Where("id = ? AND kind = ?", userID, league.KindBot).Count(&bots).Error; err != nil {
			return err
		}
		if bots > 0 {
			// It exists: "no such user" sent an admin looking for a typo.
			return league.Errorf(league.EPRECONDITION, "a bot's account is the platform's, not anyone's to close")
		}
		return noSuchUser()
	}
	return releaseClosedAccount(tx, fx, tasks, userID, now)
}

// gamesSeating lists, in id order (the order their rows are locked in),
// the games with the given status where userID holds a seat in person.
func gamesSeating(tx *gorm.DB, userID, status string) ([]string, error) {
	var ids []string
	err := tx.Raw(`SELECT DISTINCT s.game_id FROM game_seats s JOIN games g ON g.id = s.game_id
		WHERE s.user_id = ? AND s.bot_level IS NULL AND g.status = ? ORDER BY s.game_id`, userID, status).Scan(&ids).Error
	return ids, err
}

// leaveOpenGames frees the account's seats in games not yet started, as
// Leave does (a game left with no person seated is aborted).
func leaveOpenGames(tx *gorm.DB, fx *effects, userID string, now time.Time) error {
	return forEachSeatingGame(tx, userID, league.StatusOpen, func(row *gameRow) error {
		_, err := leaveOpenGame(tx, fx, row, userID, now)
		return err
	})
}

// forEachSeatingGame calls fn with each game of the status where userID
// holds a seat in person, its row locked (in id order); a game whose status
// changed before the lock was taken is passed over (for open games: it
// started meanwhile, and abandonActiveGames takes it).
func forEachSeatingGame(tx *gorm.DB, userID, status string, fn func(*gameRow) error) error {
	ids, err := gamesSeating(tx, userID, status)
	if err != nil {
		return err
	}
	for _, id := range ids {
		row, err := lockGame(tx, id)
		if err != nil {
			return err
		}
		if row.Status != status {
			continue
		}
		if err := fn(row); err != nil {
			return err
		}
	}
	return nil
}

func anotherPersonSits(seats []seatRow, userID string) bool {
	for _, s := range seats {
		if s.UserID != nil && *s.UserID != userID && s.BotLevel == nil {
			return true
		}
	}
	return false
}

// abandonActiveGames does for each game being played what TimeOut does
// after max_timeouts: a fill-in bot takes the account's seat and the
// account is recorded as having abandoned (rated as a loss). If the bot
// has to act now, bot_due_at is set, so that the sweep schedules it even
// if the task enqueued after the commit is lost (or never enqueued).
func abandonActiveGames(tx *gorm.DB, fx *effects, tasks league.GameTasks, userID string, now time.Time) error {
	return forEachSeatingGame(tx, userID, league.StatusActive, func(row *gameRow) error {
		return handSeatsToFillIn(tx, fx, tasks, row, userID, league.AbandonedAccountClosed, now)
	})
}

// handSeatsToFillIn gives userID's seats of a game being played, whose row
// is locked, to its fill-in bot, abandoned for the reason why (one of
// league's Abandoned* reasons).
func handSeatsToFillIn(tx *gorm.DB, fx *effects, tasks league.GameTasks, row *gameRow, userID, why string, now time.Time) error {
	seats, err := loadSeats(tx, row.ID)
	if err != nil {
		return err
	}
	level := row.FillLevel
	for i, s := range seats {
		if s.UserID != nil && *s.UserID == userID && s.BotLevel == nil {
			fx.changeSeat(s.Seat, map[string]any{"bot_level": level, "filled_by_bot": true, "abandoned": true, "abandoned_why": why})
			seats[i].BotLevel, seats[i].FilledByBot, seats[i].Abandoned, seats[i].AbandonedWhy = &level, true, true, &why
		}
	}
	var moves []moveRow
	if err := tx.Select("seat, move, ply").Where("game_id = ? AND ply < ?", row.ID, row.Ply).Order("ply").Find(&moves).Error; err != nil {
		return err
	}
	game, err := replayMoves(row, moves)
	if err != nil {
		return err
	}
	upd := map[string]any{}
	if botMustActNow(game.InWindow(), game.Actors(), game.Turn(), seats) {
		upd["bot_due_at"], row.BotDueAt = now, &now
	}
	// saveTurn counts up the revision, so a move read before this change
	// (by a player, a timer or another instance's copy) is not stored after it.
	if err := saveTurn(tx, fx, row, upd); err != nil {
		return err
	}
	ply := row.Ply
	fx.publish(league.GameEvent{GameID: row.ID, Ply: ply, Kind: league.EventSeat})
	if _, due := upd["bot_due_at"]; due && tasks != nil {
		gameID := row.ID
		fx.then(func(ctx context.Context) error { return tasks.BotMove(ctx, gameID, ply, 0) })
	}
	return nil
}

// botMustActNow says whether the game now waits for a bot: it is a bot's
// turn, or a block window is open with no person left to answer it (with
// one, the window's timer closes it as usual).
func botMustActNow(inWindow bool, actors []int, turn int, seats []seatRow) bool {
	if !inWindow {
		return seats[turn].botControlled()
	}
	for _, s := range actors {
		if !seats[s].botControlled() {
			return false
		}
	}
	return true
}

// withdrawRegistrations takes out every entry the account plays in of
// tournaments still taking entries (of clubID's only, unless it is ""),
// as Withdraw does before the start (the entry goes; anyone named in an
// entry may take it out). Entries of running tournaments are left.
func withdrawRegistrations(tx *gorm.DB, userID, clubID string) error {
	var entries []entryRow
	err := tx.Raw(`SELECT e.* FROM entries e JOIN tournaments t ON t.id = e.tournament_id
		WHERE t.status = ? AND (? = '' OR t.club_id::text = ?)
		AND (e.captain_id = ? OR EXISTS (SELECT 1 FROM entry_members m WHERE m.entry_id = e.id AND m.user_id = ?))
		ORDER BY e.tournament_id, e.id`, league.TournamentRegistration, clubID, clubID, userID, userID).Scan(&entries).Error
	if err != nil {
		return err
	}
	for _, e := range entries {
		// The tournament's lock orders this with its start, as in Withdraw.
		r, err := readTournament(tx, e.TournamentID, true)
		if err != nil {
			return err
		}
		if r.Status != league.TournamentRegistration {
			continue
		}
		if err := tx.Delete(&e).Error; err != nil {
			return err
		}
	}
	return nil
}
