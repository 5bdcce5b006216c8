package postgres

import (
	"context"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/seqleague/seqleague/league"
)

// QuickMatch seats the caller at the oldest casual game of the set-up that
// waits for players with a seat anyone may take (Join's first open seat),
// at which every person seated is here (everyoneHere: nobody is seated
// across from a player who walked away), or, if there is none, makes one
// (Create's, within the caller's bound on live games) with the caller in
// the first seat and the others open. The games it joins are those it
// would make: the rules' defaults, unrated, league.QuickMatchClock,
// starting as soon as the seats are full. A caller already waiting at such
// a game is answered that game, here or not, and is here again for the
// grace (they just asked).
//
// One set-up's quick matches take turns on an advisory lock, held until
// the transaction commits: without it, two strangers asking at the same
// moment would each find no table and make one apiece, and wait at two.
// The game found is locked FOR UPDATE as Join locks it, skipping one that
// a move or a join holds (the next oldest, or a new game, serves instead
// of a wait).
func (g *Games) QuickMatch(ctx context.Context, a league.Actor, q league.QuickMatchRequest) (*league.Game, bool, error) {
	if a.Anonymous() {
		return nil, false, league.Errorf(league.EUNAUTHORIZED, "sign in to play")
	}
	req := league.NewGame{Game: q.Game, Variant: q.Variant, Players: q.Players, Teams: q.Teams, Clock: league.QuickMatchClock}
	if q.Players >= 1 && q.Players <= maxTablePlayers {
		req.Seats = make([]league.SeatSpec, q.Players)
		req.Seats[0].UserID = a.UserID
		for i := 1; i < q.Players; i++ {
			req.Seats[i].Open = true
		}
	}
	set, err := normalizeNewGame(req)
	if err != nil {
		return nil, false, withoutSeatFields(err)
	}
	var out league.Game
	created := false
	err = g.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		created = false // a run PostgreSQL aborted may have set it: see inTx
		if err := holdLiveAccount(tx, a.UserID); err != nil {
			return err
		}
		key := fmt.Sprintf("quick match %s/%s/%d/%d", set.Game, set.Variant, set.Players, set.Teams)
		if err := tx.Exec("SELECT pg_advisory_xact_lock(hashtext(?))", key).Error; err != nil {
			return err
		}
		var rows []gameRow
		err := quickTables(tx, set).
			Where("EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = games.id AND s.user_id = ? AND s.bot_level IS NULL)", a.UserID).
			Order("created_at, id").Limit(1).Find(&rows).Error
		if err != nil {
			return err
		}
		if len(rows) == 1 {
			// Asking again is being here, whatever the stream says: while
			// the table is open, which the key-share lock orders with its
			// start, as Here does (a table started since is answered as it
			// is now, and keeps no mark).
			res := tx.Model(&seatRow{}).Where("game_id = ? AND user_id = ? AND bot_level IS NULL", rows[0].ID, a.UserID).
				Where("game_id IN (SELECT id FROM games WHERE id = ? AND status = 'open' FOR KEY SHARE)", rows[0].ID).
				Update("here_until", g.now().Add(hereGrace))
			if err = res.Error; err == nil && res.RowsAffected == 0 {
				var current *gameRow
				if current, err = readGame(tx, rows[0].ID); err == nil {
					rows[0] = *current
				}
			}
		} else {
			now := g.now()
			err = quickTables(tx, set).Where(seatAnyoneMayTake+" AND "+everyoneHere, now, now, now).
				Order("created_at, id").Limit(1).
				Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"}).Find(&rows).Error
			if err != nil {
				return err
			}
			if len(rows) == 1 {
				err = g.joinLocked(tx, fx, &rows[0], a, nil)
			}
		}
		var row *gameRow
		if len(rows) == 1 {
			row = &rows[0]
		} else {
			row, err = g.createCasualLocked(tx, fx, a.UserID, req)
			created = true
		}
		if err != nil {
			return err
		}
		seats, err := loadSeats(tx, row.ID)
		out = fromGameRow(row, seats)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	return &out, created, nil
}

// quickTables are the casual games waiting for players that a quick match
// for the normalized set-up would make, private ones never (their seats
// are for the people their creator sent the link to). The status and
// NOT private are literals for the partial index games_lobby_setup_idx
// (see List).
func quickTables(tx *gorm.DB, set league.NewGame) *gorm.DB {
	c := league.QuickMatchClock
	return tx.Model(&gameRow{}).Where("status = 'open' AND kind = ? AND players = ? AND variant = ? AND teams = ? "+
		"AND sequences_to_win = 0 AND play_cap = 0 AND turn_seconds = ? AND bank_seconds = ? AND increment_seconds = ? "+
		"AND NOT rated AND NOT private AND scheduled_start IS NULL AND created_by IS NOT NULL AND tournament_id IS NULL",
		set.Game, set.Players, set.Variant, set.Teams, c.TurnSeconds, c.BankSeconds, c.IncrementSeconds)
}

// withoutSeatFields drops the objections to the seats from a set-up's
// refusal: a quick match's seats are the server's, made from players, and
// a bad count is already named there.
func withoutSeatFields(err error) error {
	e, ok := err.(*league.Error)
	if !ok {
		return err
	}
	out := *e
	out.Fields = nil
	for _, f := range e.Fields {
		if f.Field != "seats" {
			out.Fields = append(out.Fields, f)
		}
	}
	if len(out.Fields) == 0 {
		out.Fields = []league.FieldError{{Field: "players", Message: "must be a table size of the game"}}
	}
	return &out
}
