package postgres

import (
	"context"

	"gorm.io/gorm"

	"github.com/seqleague/seqleague/league"
)

// Rematch answers a player's "play again" after a finished casual game: the
// game's rematch, made the first time one of its players asks, with the
// same set-up and everyone one seat further on, so that the seat that moved
// last now moves first and teammates stay together (seat i belongs to team
// i mod T). Bots keep their seats; the asker takes theirs; the other
// people's seats are open, kept for them for seatKeptFor (nobody is sat
// down in a timed game without their own say, and nobody else may take
// their place meanwhile; a closed account's seat is open to anyone), and
// the finished game's viewers are told.
// A player who asks after a rematch exists is seated in it, in their seat
// if it is still open; a rematch whose seats are all taken starts at once,
// and one everybody left (aborted) is made anew at the next ask.
func (g *Games) Rematch(ctx context.Context, a league.Actor, gameID string) (*league.Game, error) {
	if a.Anonymous() {
		return nil, league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	var rematchID string
	var seat int
	_, err := g.changeGameAs(ctx, a.UserID, gameID, func(tx *gorm.DB, fx *effects, row *gameRow) error {
		if row.CreatedBy == nil || row.TournamentID != nil {
			return league.Errorf(league.EPRECONDITION, "a tournament game's next game is the tournament's to make")
		}
		if row.Status != league.StatusFinished {
			return league.Errorf(league.EPRECONDITION, "a rematch follows a finished game; this one is %s", row.Status)
		}
		seats, err := loadSeats(tx, gameID)
		if err != nil {
			return err
		}
		mine := -1
		for _, s := range seats {
			if s.UserID != nil && *s.UserID == a.UserID && (s.BotLevel == nil || s.FilledByBot) {
				mine = s.Seat
			}
		}
		if mine < 0 {
			return league.Errorf(league.EFORBIDDEN, "only the game's players can ask for a rematch")
		}
		seat = (mine + 1) % row.Players
		if row.RematchID != nil {
			// A rematch everyone left before it started was aborted: the
			// next ask makes a new one rather than sending them there.
			var status []string
			if err := tx.Model(&gameRow{}).Where("id = ?", *row.RematchID).Pluck("status", &status).Error; err != nil {
				return err
			}
			if len(status) == 1 && status[0] != league.StatusAborted {
				rematchID = *row.RematchID
				return nil
			}
		}
		req := league.NewGame{
			Game: row.Kind, Variant: row.Variant, Players: row.Players, Teams: row.Teams,
			SequencesToWin: row.SequencesToWin, PlayCap: row.PlayCap, Clock: row.clock(), Rated: row.Rated,
			AutopilotLevel: row.AutopilotLevel, FillLevel: row.FillLevel,
			MaxTimeouts: row.MaxTimeouts, Seats: make([]league.SeatSpec, row.Players), Private: row.Private,
		}
		if row.Kind == league.GameStacks {
			req.BlockWindowSeconds = row.BlockWindowSeconds
		}
		for _, s := range seats {
			next := &req.Seats[(s.Seat+1)%row.Players]
			switch {
			case s.Seat == mine:
				next.UserID = a.UserID
			case s.BotLevel != nil && !s.FilledByBot:
				next.Bot = *s.BotLevel
			default:
				next.Open = true
				if s.UserID == nil {
					break
				}
				// A closed account is kept no seat: nobody would come to
				// it, and the table would wait out seatKeptFor for them.
				// Held until the commit, so that a close in flight waits
				// and then frees the seat (freeKeptSeats), or comes first
				// and is seen here (holdLiveAccount).
				live, err := holdIfLive(tx, *s.UserID)
				if err != nil {
					return err
				}
				if live {
					next.KeptFor = *s.UserID
				}
			}
		}
		rematch, err := g.createCasualLocked(tx, fx, a.UserID, req)
		if err != nil {
			return err
		}
		rematchID = rematch.ID
		if err := tx.Model(row).Updates(map[string]any{"rematch_id": rematchID, "revision": gorm.Expr("revision + 1")}).Error; err != nil {
			return err
		}
		row.RematchID = &rematchID
		fx.publish(league.GameEvent{GameID: gameID, Ply: row.Ply, Kind: league.EventRematch})
		return nil
	})
	if err != nil {
		return nil, err
	}
	out, err := g.Join(ctx, a, rematchID, &seat)
	if code := league.ErrorCode(err); code == league.ECONFLICT || code == league.EPRECONDITION {
		// Seated already (the asker who made it), or the seat or the game
		// has gone on without them: the rematch as it is.
		return g.readPublic(ctx, rematchID)
	}
	return out, err
}

// readPublic is a game as everyone may see it.
func (g *Games) readPublic(ctx context.Context, gameID string) (*league.Game, error) {
	db := g.db.WithContext(ctx)
	row, err := readGame(db, gameID)
	if err != nil {
		return nil, err
	}
	games, err := withSeats(db, []gameRow{*row})
	if err != nil {
		return nil, err
	}
	return &games[0], nil
}
