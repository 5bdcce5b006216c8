package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/seqleague/seqleague/engine/play"
	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/rating"
	"gorm.io/gorm"
)

// buildView is the caller's view of a game: the engine's view for their
// seat (or the spectator view), and their legal moves when they may act.
// now is when the view is built: whether a seat is away (awayAt) depends
// on it, so a snapshot shared by many viewers still says so as of each
// build, not as of its read. The viewer's own seat is never away: they are
// the one asking (a view read as a player's page reopened, before their
// stream marked them seen, showed them away to themselves).
func buildView(row *gameRow, seats []seatRow, game play.Game, a league.Actor, now time.Time) *league.GameView {
	v := &league.GameView{Game: fromGameRow(row, seats)}
	own, seated := viewerSeat(seats, a)
	for i, s := range seats {
		if i < len(v.Game.Seats) && v.Game.Seats[i].Seat == s.Seat && !(seated && s.Seat == own.Seat) {
			v.Game.Seats[i].Away = awayAt(row, s, now)
		}
	}
	viewer := play.Spectator
	var mine *seatRow
	if seated {
		seat := own.Seat
		v.YourSeat = &seat
		mine = &own
		// Once a bot plays the seat, the person who held it plays no more
		// and sees the table as a spectator does: the bot's hand and its
		// draws could otherwise be passed on to a teammate still playing.
		if !own.botControlled() {
			viewer = seat
		}
	}
	if game == nil {
		return v
	}
	v.State = game.ViewJSON(viewer)
	if row.Status != league.StatusActive {
		// A game ended off the board (adjudicated, say) still has a seat
		// to move in the engine's eyes; nobody moves in it any more.
		return v
	}
	v.ToMove = game.Actors()
	if mine != nil {
		_, refused := v.Game.ResignWinner(a.UserID)
		v.MayResign = refused == nil
	}
	// From the state itself, not the row: a view rebuilt at an earlier
	// ply (a repeated move_id, an SSE client's missed frames) has the
	// row of the game as it is now.
	turn := game.Turn()
	v.Game.TurnSeat = &turn
	if mine != nil && !mine.botControlled() && contains(v.ToMove, viewer) {
		if game.InWindow() {
			for _, m := range game.LegalMoves(viewer) {
				if m == blockMove {
					v.LegalMoves = []string{blockMove}
				}
			}
		} else {
			v.LegalMoves = game.LegalMoves(viewer)
		}
	}
	return v
}

// View returns the game as the caller may see it.
func (g *Games) View(ctx context.Context, a league.Actor, gameID string) (*league.GameView, error) {
	db := g.db.WithContext(ctx)
	row, seats, _, err := loadGame(db, gameID, false, moveKey{})
	if err != nil {
		return nil, err
	}
	var game play.Game
	if row.hasBoard() {
		if game, err = g.state(db, row); err != nil {
			return nil, err
		}
	}
	v := buildView(row, seats, game, a, g.now())
	if err := attachRatings(db, row, &v.Game); err != nil {
		return nil, err
	}
	return v, nil
}

// attachRatings gives the seats of a finished game that has been rated
// their rating changes.
func attachRatings(db *gorm.DB, row *gameRow, g *league.Game) error {
	changes, err := ratingChanges(db, row)
	setRatings(g, changes)
	return err
}

// ratingChanges are the rating changes of a finished game that has been
// rated (none before, and none read).
func ratingChanges(db *gorm.DB, row *gameRow) ([]ratingChangeRow, error) {
	if row.Status != league.StatusFinished || !row.Rated || row.SettledAt == nil {
		return nil, nil
	}
	var changes []ratingChangeRow
	if err := db.Select("user_id, before, after").Where("game_id = ?", row.ID).Find(&changes).Error; err != nil {
		return nil, err
	}
	return changes, nil
}

// setRatings gives each seat its player's change.
func setRatings(g *league.Game, changes []ratingChangeRow) {
	for i, s := range g.Seats {
		for _, c := range changes {
			if s.UserID != "" && c.UserID == s.UserID {
				g.Seats[i].Rating = &league.SeatRating{Before: c.Before, After: c.After}
			}
		}
	}
}

// viewAt is the caller's view right after ply moves (to answer a repeated
// move_id exactly as the first time).
func (g *Games) viewAt(ctx context.Context, a league.Actor, gameID string, plies int) (*league.GameView, error) {
	db := g.db.WithContext(ctx)
	row, seats, _, err := loadGame(db, gameID, false, moveKey{})
	if err != nil {
		return nil, err
	}
	game, err := g.replay(db, row, plies)
	if err != nil {
		return nil, err
	}
	return buildView(rowAt(row, plies), seats, game, a, g.now()), nil
}

// rowAt is row as it stood after plies moves: before its last move, a game
// that has ended was still being played, and right after it not yet
// settled (a repeated move_id answered settled_at, which its first answer
// had not). Seats and clocks are as they are now: neither is kept per ply.
func rowAt(row *gameRow, plies int) *gameRow {
	at := *row
	at.Ply = plies
	at.SettledAt = nil
	if plies < row.Ply {
		at.Status, at.ResultStatus, at.Winner, at.EndedBy, at.FinishedAt = league.StatusActive, nil, nil, nil, nil
	}
	return &at
}

// Moves lists the moves after ply afterPly (all of them for -1).
func (g *Games) Moves(ctx context.Context, gameID string, afterPly int) ([]league.MoveRecord, error) {
	if !validID(gameID) {
		return nil, errNoGame()
	}
	// A ply is a PostgreSQL integer: no game has a move after 2147483647,
	// and every move is after -1, so ?after= beyond those bounds asks for
	// the same moves as at them, not for a value int4 cannot hold.
	afterPly = min(max(afterPly, -1), math.MaxInt32)
	var rows []moveRow
	if err := g.db.WithContext(ctx).Where("game_id = ? AND ply > ?", gameID, afterPly).Order("ply").Find(&rows).Error; err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		if err := parentExists(g.db.WithContext(ctx), "games", gameID, errNoGame); err != nil {
			return nil, err
		}
	}
	out := make([]league.MoveRecord, len(rows))
	for i, r := range rows {
		out[i] = fromMoveRow(r)
	}
	return out, nil
}

// Archive is the full record of a finished game (hands, deck and seed
// included); nothing before the end.
func (g *Games) Archive(ctx context.Context, gameID string) (*league.Archive, error) {
	db := g.db.WithContext(ctx)
	row, seats, _, err := loadGame(db, gameID, false, moveKey{})
	if err != nil {
		return nil, err
	}
	if row.Status == league.StatusAborted {
		return nil, league.Errorf(league.EPRECONDITION, "the game was called off before it was played out: only a finished game has an archive")
	}
	if row.Status != league.StatusFinished {
		return nil, league.Errorf(league.EPRECONDITION, "the archive opens when the game ends")
	}
	var stored []archiveRow
	if err := db.Where("game_id = ?", gameID).Limit(1).Find(&stored).Error; err != nil {
		return nil, err
	}
	if len(stored) == 1 {
		var rec archiveRecord
		if err := json.Unmarshal(stored[0].Record, &rec); err != nil {
			return nil, fmt.Errorf("archive of game %s: %w", gameID, err)
		}
		if rec.Game.EndedBy == "" && row.EndedBy != nil {
			// Archived before games said how they ended (00010).
			rec.Game.EndedBy = *row.EndedBy
		}
		out := rec.archive()
		return out, attachRatings(db, row, &out.Game)
	}
	// Not settled yet: the archive is written by the game:settle task, so
	// until it has run the same record is built from the stored moves.
	moves, final, err := g.finishedGame(db, row)
	if err != nil {
		return nil, err
	}
	rec, err := newArchiveRecord(row, seats, moves, final)
	if err != nil {
		return nil, err
	}
	return rec.archive(), nil
}

// Vector exports the position after ply plies (the final one by default)
// as a rule vector. A vector holds every hand and the deck, so it is only
// given once the game has ended, to anyone: while it is played nobody, not
// even a site admin (who may be playing it), sees the hidden cards.
func (g *Games) Vector(ctx context.Context, a league.Actor, gameID string, ply *int) (json.RawMessage, error) {
	db := g.db.WithContext(ctx)
	row, err := readGame(db, gameID)
	if err != nil {
		return nil, err
	}
	if row.Status == league.StatusAborted {
		return nil, league.Errorf(league.EPRECONDITION, "the game was called off before it was played out: only a finished game's positions are exported")
	}
	if row.Status != league.StatusFinished {
		return nil, league.Errorf(league.EPRECONDITION, "a position holds hidden cards; it can be exported once the game has ended")
	}
	plies := row.Ply
	if ply != nil {
		if *ply < 0 || *ply > row.Ply {
			return nil, league.Invalid("no such ply", league.FieldError{Field: "ply", Message: fmt.Sprintf("must be 0–%d", row.Ply)})
		}
		plies = *ply
	}
	game, err := g.replay(db, row, plies)
	if err != nil {
		return nil, err
	}
	return game.VectorJSON(fmt.Sprintf("game %s at ply %d", row.ID, plies))
}

// ListForUser lists the games a user sits at, newest first, with a keyset
// cursor (to anyone but the user, without the private ones not yet over);
// with q.ToMove only those being played where it is the user's
// turn at a seat they play themselves; with q.Invited instead the games
// waiting for players with an open seat kept for the user, each with its
// creator's name, for the user alone. A page is two queries whatever its
// size: the games, then all of their seats.
func (g *Games) ListForUser(ctx context.Context, userID string, q league.UserGamesQuery) ([]league.Game, string, error) {
	if !validID(userID) {
		return nil, "", noSuchUser()
	}
	var err error
	if q.Page, err = q.Page.Normalize(); err != nil {
		return nil, "", err
	}
	if q.Invited {
		switch {
		case q.ToMove:
			return nil, "", league.Invalid("bad query", league.FieldError{Field: "invited", Message: "cannot be combined with to_move"})
		case q.Viewer.Anonymous():
			return nil, "", league.Errorf(league.EUNAUTHORIZED, "sign in to see the games you are invited to")
		case q.Viewer.UserID != userID:
			return nil, "", league.Errorf(league.EFORBIDDEN, "only a player sees the games they are invited to")
		}
	}
	db := g.db.WithContext(ctx)
	// The player's games are read from their seats, newest first by the
	// game's creation time kept on each seat (00038), so that a page reads
	// its own rows whatever the history: sorted by the games' own column,
	// every game of the player's was read for each page.
	games := db.Table("games").Select("games.*").Joins("JOIN game_seats s ON s.game_id = games.id AND s.user_id = ?", userID)
	order := keyset{key: "s.game_created_at", id: "s.game_id", desc: true, byTime: true}
	if q.Invited || q.ToMove {
		order = newestFirst
	}
	if q.Invited {
		games = db.Table("games").Select("games.*, COALESCE((SELECT u.username FROM users u WHERE u.id = games.created_by), '') AS created_by_name").
			Where("status = ? AND "+seatKeptForUser, league.StatusOpen, userID, g.now())
	}
	if q.ToMove {
		games = db.Table("games").Where("status = ? AND EXISTS (SELECT 1 FROM game_seats s "+
			"WHERE s.game_id = games.id AND s.seat = games.turn_seat AND s.user_id = ? AND s.bot_level IS NULL)",
			league.StatusActive, userID)
	}
	if q.Viewer.UserID != userID {
		// A private table is found by its link alone: someone else's list
		// must not lead a stranger to its open seats or its live play.
		// Once over, it is history like any game.
		games = games.Where("NOT (games.private AND games.status IN ?)", []string{league.StatusOpen, league.StatusActive})
	}
	rows, next, err := findPage(games, order, q.Page,
		func(r *gameRow) string { return encodeTimeCursor(r.CreatedAt, r.ID) })
	if err != nil {
		return nil, "", err
	}
	if len(rows) == 0 {
		if err := parentExists(db, "users", userID, noSuchUser); err != nil {
			return nil, "", err
		}
	}
	out, err := withSeats(db, rows)
	return out, next, err
}

// List is the lobby, newest first: the casual games waiting for players
// with a seat anyone may take now (not one a rematch keeps for its
// player) at which every person seated is here (everyoneHere), or the
// games being played, tournament games too, to watch; never a private
// game, which only people with its link see. With q.Club, only the club's
// of those (clubGames).
func (g *Games) List(ctx context.Context, q league.GamesQuery) ([]league.Game, string, error) {
	var err error
	if q.Page, err = q.Page.Normalize(); err != nil {
		return nil, "", err
	}
	if err := checkLobbyFilters(q); err != nil {
		return nil, "", err
	}
	if q.Club != "" && !validID(q.Club) {
		return nil, "", naming("club", noSuchClub())
	}
	db := g.db.WithContext(ctx)
	now := g.now()
	var games *gorm.DB
	if q.Club != "" {
		games = clubGames(db, q.Status, now, q.Club)
	} else {
		games = lobbyGames(db, q.Status, now)
	}
	if q.Game != "" {
		games = games.Where("kind = ?", q.Game)
	}
	if q.Players != 0 {
		games = games.Where("players = ?", q.Players)
	}
	if q.Rated != nil {
		games = games.Where("rated = ?", *q.Rated)
	}
	rows, next, err := findPage(games, newestFirst, q.Page,
		func(r *gameRow) string { return encodeTimeCursor(r.CreatedAt, r.ID) })
	if err != nil {
		return nil, "", err
	}
	if len(rows) == 0 && q.Club != "" {
		if err := parentExists(db, "clubs", q.Club, noSuchClub); err != nil {
			return nil, "", naming("club", err)
		}
	}
	out, err := withSeats(db, rows)
	if err != nil {
		return nil, "", err
	}
	return out, next, withPoolRatings(db, out)
}

// lobbyGames are the lobby's games of a status (open or active) at now,
// before the filters on their set-up.
//
// The status is written into the statement, not bound: the lobby's
// index (games_lobby_setup_idx) holds the public live games only,
// which the planner can see a literal status (and NOT private) is
// among, and a parameter not.
func lobbyGames(db *gorm.DB, status string, now time.Time) *gorm.DB {
	if status == league.StatusActive {
		return db.Table("games").Where("status = 'active' AND NOT private")
	}
	return db.Table("games").Where("status = 'open' AND NOT private AND created_by IS NOT NULL AND "+
		seatAnyoneMayTake+" AND "+everyoneHere, now, now, now)
}

// clubGames are the lobby's games (lobbyGames) of a club: those made by
// its members now (a member who left takes their tables with them), and,
// to watch, those of its tournaments, which nobody made (so no game is of
// both; nor is one of them open in the lobby, which offers the tables
// people made). A private table is of neither: it is out of the lobby for
// everyone, the club's members too.
//
// The two are read as two queries appended, each a semi-join the planner
// reads either way round: a club of a few members reads its members' live
// games (games_live_by_creator), a club of thousands the games newest
// first, keeping its members'. At 11,000 games being played (1,000 of
// tournaments of 3,300), a club of 40 read 148 buffers, and one of 5,000
// members 603; asked in one query (made by a member OR of a tournament of
// the club) each side was a filter on every game being played (2,353
// buffers for the club of 40), and as one list of the club's game IDs the
// big club read all of its members' games (17,624).
func clubGames(db *gorm.DB, status string, now time.Time, clubID string) *gorm.DB {
	byMembers := lobbyGames(db, status, now).
		Where("created_by IN (SELECT m.user_id FROM club_members m WHERE m.club_id = ?)", clubID)
	if status != league.StatusActive {
		return byMembers
	}
	ofTournaments := lobbyGames(db, status, now).
		Where("created_by IS NULL AND tournament_id IN (SELECT t.id FROM tournaments t WHERE t.club_id = ?)", clubID)
	return db.Table("(? UNION ALL ?) AS games", byMembers, ofTournaments)
}

// withPoolRatings gives every person seated at games their rating in the
// game's pool, read in one query; someone with no rated game there stands
// at the starting rating, provisional.
func withPoolRatings(db *gorm.DB, games []league.Game) error {
	type key struct{ user, pool string }
	want := map[key]bool{}
	users, pools := map[string]bool{}, map[string]bool{}
	for _, g := range games {
		pool := rating.PoolFor(g.Game, g.Teams)
		for _, s := range g.Seats {
			if s.UserID != "" && s.Bot == "" {
				want[key{s.UserID, pool}], users[s.UserID], pools[pool] = true, true, true
			}
		}
	}
	if len(users) == 0 {
		return nil
	}
	var rows []ratingRow
	if err := db.Where("user_id IN ? AND pool IN ?", slices.Collect(maps.Keys(users)), slices.Collect(maps.Keys(pools))).Find(&rows).Error; err != nil {
		return err
	}
	states := make(map[key]rating.PlayerState, len(rows))
	for _, r := range rows {
		states[key{r.UserID, r.Pool}] = r.state()
	}
	for gi := range games {
		g := &games[gi]
		pool := rating.PoolFor(g.Game, g.Teams)
		for si := range g.Seats {
			s := &g.Seats[si]
			if !want[key{s.UserID, pool}] {
				continue
			}
			st, ok := states[key{s.UserID, pool}]
			if !ok {
				st = rating.NewState()
			}
			rs := toRatingState(pool, st)
			s.PoolRating = &rs
		}
	}
	return nil
}

// seatAnyoneMayTake holds for a game (of the table games) with an open seat
// kept for nobody now (bound: now): not a rematch's kept for its player,
// nor one its creator kept for someone.
const seatAnyoneMayTake = "EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = games.id " +
	"AND s.user_id IS NULL AND s.bot_level IS NULL AND (s.kept_for IS NULL OR s.kept_until <= ?))"

// everyoneHere holds for a game (of the table games) at which somebody
// waits and every person seated is here at now (bound twice: now):
// following the game's event stream (Here), or within hereGrace of sitting
// down. A stranger offered the table (the lobby, a quick match) plays
// people who are there: a table whose player closed the tab long since is
// not offered, though it stays open for the people with its link. Bots
// are always here; a table with no person seated (a creator may seat only
// bots and open seats) has nobody waiting at it, and is not offered.
//
// The IN is read first, through game_seats_here_idx (the seats marked,
// lapsed or not: h.here): the people marked are few however many tables
// were left open, and the games' own index would check the seats of every
// open table (at 20,000 open tables, none with anyone here, the lobby took
// 300 ms; 0.04 ms so).
const everyoneHere = "games.id IN (SELECT h.game_id FROM game_seats h WHERE h.here AND h.here_until > ? " +
	"AND h.user_id IS NOT NULL AND h.bot_level IS NULL) " +
	"AND NOT EXISTS (SELECT 1 FROM game_seats p WHERE p.game_id = games.id " +
	"AND p.user_id IS NOT NULL AND p.bot_level IS NULL AND (p.here_until IS NULL OR p.here_until <= ?))"

// seatKeptForUser holds for a game (of the table games) with an open seat
// kept for a user now (bound: the user, now): kept_until NULL keeps it
// until the game starts.
// Read through game_seats_kept_for_idx: few seats are kept at any time.
const seatKeptForUser = "id IN (SELECT s.game_id FROM game_seats s WHERE s.kept_for = ? " +
	"AND s.user_id IS NULL AND s.bot_level IS NULL AND (s.kept_until IS NULL OR s.kept_until > ?))"

// checkLobbyFilters refuses a lobby query's bad status, game or table size,
// each by its field.
func checkLobbyFilters(q league.GamesQuery) error {
	var fields []league.FieldError
	if q.Status != league.StatusOpen && q.Status != league.StatusActive {
		fields = append(fields, league.FieldError{Field: "status", Message: "must be open (games to join) or active (games to watch)"})
	}
	kinds := []string{league.GameSequence, league.GameStacks}
	if q.Game != "" {
		if !slices.Contains(kinds, q.Game) {
			fields = append(fields, league.FieldError{Field: "game", Message: "must be sequence or stacks"})
		}
		kinds = []string{q.Game}
	}
	if q.Players != 0 && !slices.ContainsFunc(kinds, func(k string) bool { return len(play.TeamCounts(k, q.Players)) > 0 }) {
		sizes := make([]string, len(kinds))
		for i, k := range kinds {
			sizes[i] = fmt.Sprintf("%s (%s)", k, orList(tableSizes(k)))
		}
		fields = append(fields, league.FieldError{Field: "players",
			Message: "must be a table size of " + strings.Join(sizes, " or ")})
	}
	if len(fields) > 0 {
		return league.Invalid("bad query", fields...)
	}
	return nil
}

// tableSizes lists the player counts a game is played by.
func tableSizes(game string) []int {
	var out []int
	for n := 1; n <= maxTablePlayers; n++ {
		if len(play.TeamCounts(game, n)) > 0 {
			out = append(out, n)
		}
	}
	return out
}

// withSeats reads the seats of a page of games in one query.
func withSeats(db *gorm.DB, rows []gameRow) ([]league.Game, error) {
	out := make([]league.Game, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]string, len(rows))
	for i := range rows {
		ids[i] = rows[i].ID
	}
	seats, err := loadSeatsOf(db, ids)
	if err != nil {
		return nil, err
	}
	tournaments, err := tournamentsOf(db, rows)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		out[i] = fromGameRow(&rows[i], seats[rows[i].ID])
		out[i].Tournament = tournaments[rows[i].ID]
	}
	return out, nil
}

// tournamentsOf names the tournament and round of each tournament game of
// rows, in one query (none for a page of casual games): a list said of a
// tournament game only "Sequence · 2 players vs bot-random".
func tournamentsOf(db *gorm.DB, rows []gameRow) (map[string]*league.GameTournament, error) {
	var ids []string
	for i := range rows {
		if rows[i].TournamentID != nil {
			ids = append(ids, rows[i].ID)
		}
	}
	out := map[string]*league.GameTournament{}
	if len(ids) == 0 {
		return out, nil
	}
	var found []struct {
		ID, Name string
		Round    int
	}
	if err := db.Raw(`SELECT g.id, t.name, COALESCE(m.round, 0) AS round FROM games g
		JOIN tournaments t ON t.id = g.tournament_id
		LEFT JOIN matches m ON m.tournament_id = g.tournament_id AND m.id = g.match_id
		WHERE g.id IN ?`, ids).Scan(&found).Error; err != nil {
		return nil, err
	}
	for _, f := range found {
		out[f.ID] = &league.GameTournament{Name: f.Name, Round: f.Round}
	}
	return out, nil
}

// decodeTimeCursor reads a (created_at, id) keyset cursor.
func decodeTimeCursor(c string) (time.Time, string, error) {
	key, err := decodeCursor(c)
	if err != nil {
		return time.Time{}, "", err
	}
	at, id, ok := strings.Cut(key, "|")
	t, terr := league.ParseTime(at)
	if !ok || !validID(id) || terr != nil {
		return time.Time{}, "", badCursor()
	}
	return t, id, nil
}

// Snapshot is a game read once and shared by every viewer it is shown to.
type Snapshot struct {
	row   *gameRow
	seats []seatRow
	game  play.Game
	// the rating changes of a rated game once settled, which GET
	// /games/{id} shows too: without them a stream's view of a settled game
	// (the one it opens with, say) replaced the page's, which then read
	// that the game changed no rating
	ratings []ratingChangeRow
	// now is the service's clock, read at each view built (buildView)
	now func() time.Time
}

// Ply is the number of moves the snapshot includes.
func (s *Snapshot) Ply() int { return s.row.Ply }

// SeatOf is the seat a caller views the game from (play.Spectator if none).
// The event hub asks it for every stream at every event, so it reads the
// seats alone.
func (s *Snapshot) SeatOf(a league.Actor) int {
	if seat, ok := viewerSeat(s.seats, a); ok {
		return seat.Seat
	}
	return play.Spectator
}

// viewerSeat is the seat a caller views the game from: theirs still, or one
// a fill-in bot took over (abandoned, or finished for at a round's
// deadline), whose hand they still see though they are offered no move.
func viewerSeat(seats []seatRow, a league.Actor) (seatRow, bool) {
	s, ok := seatOf(seats, a.UserID)
	return s, ok && (s.BotLevel == nil || s.FilledByBot)
}

// ViewFor is the caller's view of the snapshot.
func (s *Snapshot) ViewFor(a league.Actor) *league.GameView {
	v := buildView(s.row, s.seats, s.game, a, s.now())
	setRatings(&v.Game, s.ratings)
	return v
}

// Snapshot reads the game's current row and state. ev, the event that
// prompted the read, lets a process that did not make the move bring its
// cached state forward by applying it instead of replaying the game.
func (g *Games) Snapshot(ctx context.Context, gameID string, ev *league.GameEvent) (league.GameSnapshot, error) {
	db := g.db.WithContext(ctx)
	row, seats, _, err := loadGame(db, gameID, false, moveKey{})
	if err != nil {
		return nil, err
	}
	s := &Snapshot{row: row, seats: seats, now: g.now}
	if s.ratings, err = ratingChanges(db, row); err != nil {
		return nil, err
	}
	if !row.hasBoard() {
		return s, nil
	}
	if game, ok := g.cache.get(row.ID, row.Ply); ok {
		s.game = game
		return s, nil
	}
	if ev != nil && ev.Move != nil && ev.Ply == row.Ply {
		if prev, ok := g.cache.get(row.ID, row.Ply-1); ok {
			if game, err := prev.Apply(ev.Move.Seat, ev.Move.Move); err == nil {
				g.cache.put(row.ID, game)
				s.game = game
				return s, nil
			}
		}
	}
	if s.game, err = g.replay(db, row, row.Ply); err != nil {
		return nil, err
	}
	g.cache.put(row.ID, s.game)
	return s, nil
}

// Here marks the caller here at the open game they sit at (a person's
// seat, not a bot's) for ttl from now, and reports whether the caller
// sits there: false once the game is no longer open or the caller no
// longer sits there (the event stream that keeps them here then stops
// asking). A mark with more than half of ttl to run is left as it is: the
// stream asks every third of ttl, so the mark is written at every other
// heartbeat and never has less than a heartbeat to run when one comes,
// and a second tab on the table, or a seat event just after a heartbeat,
// writes nothing. One statement, whose UPDATE matches nothing but an open
// game's person seat whose mark is due.
//
// A mark that is due is written only under a key-share lock of the game's
// row, taken where the game is still open, so that it is ordered with the
// start (or abort) of the game, which locks the row for update and then
// clears the marks (forgetWaiting): a heartbeat that comes first is cleared
// by it, and one that waited for it finds the game no longer open and
// writes nothing. Without it a heartbeat read the game open from before
// the start and wrote its mark after the start had cleared the seat's, and
// the started game kept a mark until the sweep (ForgetLapsed) cleared it.
func (g *Games) Here(ctx context.Context, a league.Actor, gameID string, ttl time.Duration) (bool, error) {
	if a.Anonymous() || !validID(gameID) {
		return false, nil
	}
	now := g.now()
	var seated int64
	err := g.db.WithContext(ctx).Raw(`WITH seat AS (SELECT s.seat, s.here_until FROM game_seats s JOIN games ON games.id = s.game_id
			WHERE s.game_id = @game AND s.user_id = @user AND s.bot_level IS NULL AND games.status = 'open'),
		still_open AS (SELECT games.id FROM games JOIN seat ON seat.here_until IS NULL OR seat.here_until <= @fresh
			WHERE games.id = @game AND games.status = 'open' FOR KEY SHARE OF games),
		renewed AS (UPDATE game_seats s SET here_until = @until FROM seat, still_open
			WHERE s.game_id = still_open.id AND s.seat = seat.seat AND s.user_id = @user AND s.bot_level IS NULL
			AND (s.here_until IS NULL OR s.here_until <= @fresh) RETURNING 1)
		SELECT count(*) FROM seat`,
		sql.Named("game", gameID), sql.Named("user", a.UserID),
		sql.Named("until", now.Add(ttl)), sql.Named("fresh", now.Add(ttl/2))).Scan(&seated).Error
	return seated > 0, err
}

// Seen marks the caller seen at the active game they sit at (a person's
// seat, not a bot's, nor one a fill-in bot took over) for ttl from now, and
// reports whether the caller sits there: false once the game is no longer
// active or the caller no longer sits there (the event stream that marks
// them then stops asking). As with Here, a mark with more than half of ttl
// to run is left as it is: a heartbeat writes every other time, and a
// second tab writes nothing. Neither column written is indexed, so the
// write is a HOT update (00036).
//
// A mark written over one the game's views would have called away (never
// set once seenGrace is over, or run out: awayAt) is the player back: the
// game's viewers are told by a seat event, so that their pages drop the
// away mark now rather than at the next move. Its away_told is cleared, so
// that the sweep (TellAway) tells of the next lapse. Two tabs opening at
// once write the mark once (the second UPDATE finds it fresh on the row
// the first wrote), so only one of them tells.
//
// Unlike Here, nothing locks the game: a mark is read only while the game
// is active, and a mark left on a game that ended meanwhile is read by
// nothing.
func (g *Games) Seen(ctx context.Context, a league.Actor, gameID string, ttl time.Duration) (bool, error) {
	if a.Anonymous() || !validID(gameID) {
		return false, nil
	}
	now := g.now()
	var res struct {
		Seated int64
		Back   *string // the game's ID (canonical), when the player is back
		Ply    int
	}
	err := g.db.WithContext(ctx).Raw(`WITH seat AS (SELECT s.game_id, s.seat, s.seen_until AS was, games.started_at, games.ply
			FROM game_seats s JOIN games ON games.id = s.game_id
			WHERE s.game_id = @game AND s.user_id = @user AND s.bot_level IS NULL AND games.status = 'active'),
		marked AS (UPDATE game_seats s SET seen_until = @until, away_told = false FROM seat
			WHERE s.game_id = seat.game_id AND s.seat = seat.seat AND s.user_id = @user AND s.bot_level IS NULL
			AND (s.seen_until IS NULL OR s.seen_until <= @fresh)
			RETURNING seat.game_id, seat.ply, (seat.was IS NULL AND seat.started_at <= @graceOver) OR seat.was <= @now AS back)
		SELECT (SELECT count(*) FROM seat) AS seated, (SELECT game_id::text FROM marked WHERE back LIMIT 1) AS back,
			(SELECT ply FROM marked LIMIT 1) AS ply`,
		sql.Named("game", gameID), sql.Named("user", a.UserID), sql.Named("now", now),
		sql.Named("until", now.Add(ttl)), sql.Named("fresh", now.Add(ttl/2)),
		sql.Named("graceOver", now.Add(-seenGrace))).Scan(&res).Error
	if err != nil {
		return false, err
	}
	if res.Back != nil {
		// after the statement (its own transaction) has committed; not
		// ended with the request: the stream may close as soon as it opened
		g.run(context.WithoutCancel(ctx), &effects{events: []league.GameEvent{{GameID: *res.Back, Ply: res.Ply, Kind: league.EventSeat}}})
	}
	return res.Seated > 0, nil
}

// Frames rebuilds, from the stored moves, every move from ply fromPly on
// with the caller's view after each: what an SSE client missed.
func (g *Games) Frames(ctx context.Context, a league.Actor, gameID string, fromPly int) ([]league.GameFrame, error) {
	db := g.db.WithContext(ctx)
	row, seats, _, err := loadGame(db, gameID, false, moveKey{})
	if err != nil {
		return nil, err
	}
	if !row.hasBoard() || fromPly >= row.Ply {
		return nil, nil
	}
	var moves []moveRow
	if err := db.Where("game_id = ? AND ply < ?", gameID, row.Ply).Order("ply").Find(&moves).Error; err != nil {
		return nil, err
	}
	game, err := play.New(row.setup(), row.seed())
	if err != nil {
		return nil, err
	}
	var frames []league.GameFrame
	now := g.now()
	for _, m := range moves {
		if game, err = game.Apply(m.Seat, m.Move); err != nil {
			return nil, fmt.Errorf("game %s ply %d: %w", gameID, m.Ply, err)
		}
		if m.Ply < fromPly {
			continue
		}
		frames = append(frames, league.GameFrame{Move: fromMoveRow(m), View: buildView(rowAt(row, m.Ply+1), seats, game, a, now)})
	}
	// the last frame is the game as it is now: rated, once settled
	if n := len(frames); n > 0 && frames[n-1].Move.Ply+1 == row.Ply {
		changes, err := ratingChanges(db, row)
		if err != nil {
			return nil, err
		}
		setRatings(&frames[n-1].View.Game, changes)
	}
	return frames, nil
}
