package postgres

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"github.com/seqleague/seqleague/league"
)

// SetSeat changes one seat of an open casual game that no person holds
// (its creator, or an admin): open to anyone ({Open}), kept for a player
// until the start ({Open, For}), or a bot ({Bot}). A creator whose friend
// does not come may keep the seat for another, offer it to anyone, or play
// a bot there; a seat kept for someone is theirs alone until changed. A
// change that fills the table starts the game, as a join would (unless it
// waits for a scheduled start). A person's seat is theirs to leave.
//
// Seat control is the table's (created_by): a creator who leaves the table
// before the start hands it to the person in its lowest seat still held
// (handTableOver), so that nobody seats bots against players at a table
// they are no longer at; a creator who never sat at it keeps it.
func (g *Games) SetSeat(ctx context.Context, a league.Actor, gameID string, seat int, spec league.SeatSpec) (*league.Game, error) {
	if a.Anonymous() {
		return nil, league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	if err := checkSeatChange(spec); err != nil {
		return nil, err
	}
	return g.changeGame(ctx, gameID, func(tx *gorm.DB, fx *effects, row *gameRow) error {
		switch {
		case row.TournamentID != nil:
			return league.Errorf(league.EPRECONDITION, "a tournament game's seats are its pairing's")
		case !a.IsAdmin && (row.CreatedBy == nil || *row.CreatedBy != a.UserID):
			return league.Errorf(league.EFORBIDDEN, "this table is not yours: only its creator, or whom they handed it to on leaving, changes its seats")
		case row.Status != league.StatusOpen:
			return notOpen(row)
		}
		seats, err := loadSeats(tx, gameID)
		if err != nil {
			return err
		}
		if seat < 0 || seat >= len(seats) {
			e := league.Errorf(league.ENOTFOUND, "no such seat")
			e.Fields = []league.FieldError{{Field: "seat", Message: fmt.Sprintf("must be 0 to %d", len(seats)-1)}}
			return e
		}
		if s := seats[seat]; s.UserID != nil && s.BotLevel == nil {
			e := league.Errorf(league.ECONFLICT, "seat %d is taken by %s", seat, s.Username)
			e.Fields = []league.FieldError{{Field: "seat", Message: "is taken by " + s.Username + "; only they can leave it"}}
			return e
		}
		upd := map[string]any{"user_id": nil, "bot_level": nil, "kept_for": nil, "kept_until": nil}
		switch {
		case spec.Bot != "":
			if row.Rated && !anotherPersonSits(seats, "") && !openBesides(seats, seat) {
				return league.Invalid("the seat cannot be changed",
					league.FieldError{Field: "bot", Message: "a rated game needs a person at the table: leave a seat open for one"})
			}
			upd["bot_level"] = spec.Bot
			if uid, err := botUserID(tx, spec.Bot); err != nil {
				return err
			} else if uid != "" {
				upd["user_id"] = uid
			}
		case spec.For != "":
			keptFor, err := resolveKeptFor(tx, row.CreatedBy, []league.SeatSpec{spec}, func(int) string { return "for" })
			if err != nil {
				return err
			}
			who := keptFor[0]
			for _, s := range seats {
				switch {
				case s.UserID != nil && *s.UserID == who && s.BotLevel == nil:
					return keepRefused(fmt.Sprintf("already sits at this table (seat %d)", s.Seat))
				case s.Seat != seat && s.keptFor(g.now()) == who && s.UserID == nil:
					return keepRefused(fmt.Sprintf("already has seat %d kept for them: a person takes one seat", s.Seat))
				}
			}
			upd["kept_for"] = who
		}
		if err := tx.Model(&seatRow{}).Where("game_id = ? AND seat = ?", gameID, seat).Updates(upd).Error; err != nil {
			return err
		}
		fx.publish(league.GameEvent{GameID: gameID, Ply: row.Ply, Kind: league.EventSeat})
		if spec.Bot != "" && !openBesides(seats, seat) && !row.waitsForStart(g.now()) {
			return g.startLocked(tx, fx, row)
		}
		return nil
	})
}

// checkSeatChange refuses a seat change that is not exactly one of open
// (with or without for) or bot, each fault by its field.
func checkSeatChange(spec league.SeatSpec) error {
	var fields []league.FieldError
	switch {
	case spec.UserID != "":
		fields = append(fields, league.FieldError{Field: "user", Message: "a person takes a seat by joining the game; a seat can be kept for them with {\"open\": true, \"for\": \"<username>\"}"})
	case spec.Bot != "" && spec.Open:
		fields = append(fields, league.FieldError{Field: "open", Message: "must be left out with bot: a seat is open or a bot's"})
	case spec.Bot != "" && !league.ValidBotLevel(spec.Bot):
		fields = append(fields, league.FieldError{Field: "bot", Message: "must be random, greedy or strong"})
	case spec.Bot == "" && !spec.Open:
		fields = append(fields, league.FieldError{Field: "open", Message: `say {"open": true} (with "for" to keep it for someone) or {"bot": level}`})
	}
	if spec.For != "" && !spec.Open && len(fields) == 0 {
		fields = append(fields, league.FieldError{Field: "for", Message: `only an open seat can be kept for someone: {"open": true, "for": "<username>"}`})
	}
	if len(fields) > 0 {
		return league.Invalid("bad seat", fields...)
	}
	return nil
}

// keepRefused refuses to keep a seat for a player, as resolveKeptFor does.
func keepRefused(msg string) error {
	return &league.Error{Code: league.EPRECONDITION, Message: "a seat cannot be kept for that player",
		Fields: []league.FieldError{{Field: "for", Message: msg}}}
}

// openBesides reports whether a seat other than seat is open.
func openBesides(seats []seatRow, seat int) bool {
	for _, s := range seats {
		if s.Seat != seat && s.UserID == nil && s.BotLevel == nil {
			return true
		}
	}
	return false
}

// Decline gives up the seat kept for the caller at an open game (a friend's
// table, or a rematch): it is open to anyone from then on, and the table no
// longer waits for them, nor lists among their invitations.
func (g *Games) Decline(ctx context.Context, a league.Actor, gameID string) (*league.Game, error) {
	if a.Anonymous() {
		return nil, league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	return g.changeGame(ctx, gameID, func(tx *gorm.DB, fx *effects, row *gameRow) error {
		if row.Status != league.StatusOpen {
			return notOpen(row)
		}
		seats, err := loadSeats(tx, gameID)
		if err != nil {
			return err
		}
		now := g.now()
		for _, s := range seats {
			if s.UserID == nil && s.BotLevel == nil && s.keptFor(now) == a.UserID {
				if err := tx.Model(&seatRow{}).Where("game_id = ? AND seat = ?", gameID, s.Seat).
					Updates(map[string]any{"kept_for": nil, "kept_until": nil}).Error; err != nil {
					return err
				}
				fx.publish(league.GameEvent{GameID: gameID, Ply: row.Ply, Kind: league.EventSeat})
				return nil
			}
		}
		return league.Errorf(league.EPRECONDITION, "no seat is kept for you at this game")
	})
}
