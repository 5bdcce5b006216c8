package postgres

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/rating"
)

type ratingRow struct {
	UserID    string `gorm:"primaryKey;type:uuid"`
	Pool      string `gorm:"primaryKey"`
	Rating    float64
	Games     int
	Peak      float64
	UpdatedAt time.Time
}

func (ratingRow) TableName() string { return "ratings" }

type ratingChangeRow struct {
	Seq       int64 `gorm:"primaryKey;autoIncrement"`
	GameID    string
	UserID    string
	Pool      string
	Team      int
	Abandoned bool
	Winner    *int
	K         float64
	Before    float64
	After     float64
	Games     int
	CreatedAt time.Time
}

func (ratingChangeRow) TableName() string { return "rating_changes" }

func (r ratingRow) state() rating.PlayerState {
	return rating.PlayerState{Rating: r.Rating, Games: r.Games, Peak: r.Peak}
}

func toRatingState(pool string, s rating.PlayerState) league.RatingState {
	return league.RatingState{Pool: pool, Rating: s.Rating, Games: s.Games, Peak: s.Peak, Provisional: s.Provisional(), Display: rating.Display(s)}
}

// Ratings rates settled games and serves ratings and leaderboards.
type Ratings struct {
	db *gorm.DB
	// cursorKey signs leaderboard cursors (see boardCursor).
	cursorKey []byte
}

// NewRatings builds the ratings service. Its leaderboard cursors are signed
// with a key of its own, which only this process knows; instances that
// share clients must share a key (WithCursorKey).
func NewRatings(db *DB) *Ratings {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		panic(err) // crypto/rand never fails on the platforms Go supports
	}
	return &Ratings{db: db.Gorm, cursorKey: key}
}

// WithCursorKey makes the service sign leaderboard cursors with a key
// derived from secret, so that every instance given the same secret accepts
// the cursors any of them issued. Call it while wiring, before serving.
func (r *Ratings) WithCursorKey(secret []byte) *Ratings {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("seqleague leaderboard cursor"))
	r.cursorKey = mac.Sum(nil)
	return r
}

var _ league.Ratings = (*Ratings)(nil)

// ratingSeats turns a game's seats into rating seats: every seat with an
// account (bots included) once. The same account on two teams (a bot level
// playing itself) makes the game meaningless to rate: ok is false.
func ratingSeats(g league.Game) (seats []rating.GameSeat, ok bool) {
	teamOf := map[string]int{}
	for _, s := range g.Seats {
		if s.UserID == "" {
			continue
		}
		if t, seen := teamOf[s.UserID]; seen {
			if t != s.Team {
				return nil, false
			}
			continue
		}
		teamOf[s.UserID] = s.Team
		seats = append(seats, rating.GameSeat{Player: s.UserID, Team: s.Team, Abandoned: s.Abandoned})
	}
	return seats, true
}

// SettleGame applies a rated game's result to its players' ratings. It runs
// in the game's settle transaction, under the game's row lock; the unique
// (game, player) key on rating_changes makes a second application fail
// rather than count twice.
func (r *Ratings) SettleGame(ctx context.Context, st *Settlement) error {
	tx, g := st.Tx, st.Game
	if !g.Rated || g.ResultStatus == "" {
		return nil
	}
	pool := rating.PoolFor(g.Game, g.Teams)
	seats, ok := ratingSeats(g)
	if pool == "" || !ok || len(seats) < 2 {
		return nil
	}
	ids := make([]string, len(seats))
	for i, s := range seats {
		ids[i] = s.Player
	}
	sort.Strings(ids) // lock in one order: no deadlocks between games
	// Make sure every player has a row before locking: two games settling
	// at once for a player's first rating would otherwise both start from
	// 1500 and the second would overwrite the first.
	initial := rating.NewState()
	fresh := make([]ratingRow, len(ids))
	for i, id := range ids {
		fresh[i] = ratingRow{UserID: id, Pool: pool, Rating: initial.Rating, Games: initial.Games, Peak: initial.Peak, UpdatedAt: time.Now().UTC()}
	}
	if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&fresh).Error; err != nil {
		return err
	}
	var rows []ratingRow
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("pool = ? AND user_id IN ?", pool, ids).Order("user_id").Find(&rows).Error; err != nil {
		return err
	}
	states := map[string]rating.PlayerState{}
	for _, row := range rows {
		states[row.UserID] = row.state()
	}
	in := make([]rating.Seat, len(seats))
	for i, s := range seats {
		st, ok := states[s.Player]
		if !ok {
			st = rating.NewState()
		}
		in[i] = rating.Seat{Player: s.Player, Team: s.Team, State: st, Abandoned: s.Abandoned}
	}
	winner := -1
	if g.ResultStatus != "drawn" && g.Winner != nil {
		winner = *g.Winner
	}
	changes, err := rating.Apply(in, winner)
	if err != nil {
		return fmt.Errorf("rate game %s: %w", g.ID, err)
	}
	now := time.Now().UTC()
	var w *int
	if winner >= 0 {
		w = &winner
	}
	var out []ratingRow
	var history []ratingChangeRow
	for i, c := range changes {
		out = append(out, ratingRow{UserID: c.Player, Pool: pool, Rating: c.After.Rating, Games: c.After.Games, Peak: c.After.Peak, UpdatedAt: now})
		history = append(history, ratingChangeRow{GameID: g.ID, UserID: c.Player, Pool: pool, Team: in[i].Team, Abandoned: in[i].Abandoned,
			Winner: w, K: c.K, Before: c.Before.Rating, After: c.After.Rating, Games: c.After.Games, CreatedAt: now})
	}
	if err := tx.Create(&history).Error; err != nil {
		return err
	}
	return tx.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "user_id"}, {Name: "pool"}},
		DoUpdates: clause.AssignmentColumns([]string{"rating", "games", "peak", "updated_at"}),
	}).Create(&out).Error
}

// UserRatings returns a player's ratings in every pool and one page of
// their history, newest first (q.Pool, if set, keeps one pool's).
func (r *Ratings) UserRatings(ctx context.Context, userID string, q league.RatingHistoryQuery) (*league.UserRatings, error) {
	if !validID(userID) {
		return nil, noSuchUser()
	}
	if q.Pool != "" && !pools[q.Pool] {
		return nil, league.Invalid("no such pool", league.FieldError{Field: "pool", Message: fmt.Sprintf("must be %s, %s or %s", rating.PoolSequence2, rating.PoolSequence3, rating.PoolStacks)})
	}
	page, err := q.Page.Normalize()
	if err != nil {
		return nil, err
	}
	before, err := decodeSeqCursor(page.Cursor)
	if err != nil {
		return nil, err
	}
	db := r.db.WithContext(ctx)
	// A closed account keeps its ratings as the record of what it played,
	// so deleted_at is not a filter here (leaderboards do leave it off).
	var n int64
	if err := db.Table("users").Where("id = ?", userID).Count(&n).Error; err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, noSuchUser()
	}
	var rows []struct {
		Pool                string
		Rating, Peak        float64
		Games               int
		Wins, Losses, Draws int
		Rank                *int
	}
	// The standings go with the first page only: the record is read from
	// every rated game of the player and the rank counts the board above
	// them, and a chart that read a prolific player's history page by page
	// paid that on each of its 100 pages (45 s at 50,000 games, the scale
	// audit).
	if before == 0 {
		if err := db.Raw(poolStandingsSQL, sql.Named("provisional", rating.ProvisionalGames), sql.Named("user", userID)).Scan(&rows).Error; err != nil {
			return nil, err
		}
	}
	out := &league.UserRatings{UserID: userID, Pools: []league.PoolStanding{}, History: []league.RatingChange{}}
	for _, row := range rows {
		st := rating.PlayerState{Rating: row.Rating, Games: row.Games, Peak: row.Peak}
		p := league.PoolStanding{RatingState: toRatingState(row.Pool, st), Wins: row.Wins, Losses: row.Losses, Draws: row.Draws}
		if row.Rank != nil {
			p.Rank = *row.Rank
		}
		out.Pools = append(out.Pools, p)
	}
	hq := db.Where("user_id = ?", userID)
	if q.Pool != "" {
		hq = hq.Where("pool = ?", q.Pool)
	}
	if before > 0 {
		hq = hq.Where("seq < ?", before)
	}
	var hist []ratingChangeRow
	if err := hq.Order("seq DESC").Limit(page.Limit + 1).Find(&hist).Error; err != nil {
		return nil, err
	}
	hist, more := morePages(hist, page.Limit)
	for _, h := range hist {
		out.History = append(out.History, league.RatingChange{GameID: h.GameID, Pool: h.Pool, Before: h.Before, After: h.After, K: h.K, At: h.CreatedAt})
	}
	if more {
		out.NextCursor = encodeCursor(strconv.FormatInt(hist[len(hist)-1].Seq, 10))
	}
	return out, nil
}

// poolStandingsSQL reads a player's rating in every pool with their record
// there (from rating_changes, by rating_changes_history_idx) and their rank
// on the pool's default leaderboard, in one statement.
//
// The record follows the rating (see package rating): an abandoner lost,
// whatever the board said; otherwise the player won when their team won,
// or when every other team walked away (all its players abandoned: rated
// as beaten, even if its fill-in bots won the board), drew a drawn game,
// and lost any other. Only a game the player's team did not win looks at
// the game's other rows, by the (game_id, user_id) key.
//
// The rank is the one the pool's leaderboard (Ratings.Leaderboard) shows:
// the board leaves out closed accounts and provisional players, and a
// row's rank is 1 + the players whose displayed rating (math.Round, half
// away from zero) is above its own. A displayed rating d is above the
// player's D exactly when the rating is at least D + 0.5 (more than D + 0.5
// when that is negative, where rounding goes the other way), so the count
// is a range of ratings_board_established_idx, not a scan of the pool.
var poolStandingsSQL = `
SELECT r.pool, r.rating, r.games, r.peak,
	coalesce(rec.wins, 0) AS wins, coalesce(rec.losses, 0) AS losses, coalesce(rec.draws, 0) AS draws,
	CASE WHEN r.games >= @provisional AND u.deleted_at IS NULL THEN 1 + (
		SELECT count(*) FROM ratings o
		WHERE o.pool = r.pool AND o.games >= @provisional
			AND ` + displayedAboveSQL("o", "above.t") + `
			AND ` + notClosedSQL("o") + `
	) END AS rank
FROM ratings r
JOIN users u ON u.id = r.user_id
CROSS JOIN LATERAL (
	SELECT ` + displayThresholdSQL("r.rating") + ` AS t
) above
LEFT JOIN (
	SELECT g.pool,
		count(*) FILTER (WHERE g.outcome = 'w') AS wins,
		count(*) FILTER (WHERE g.outcome = 'l') AS losses,
		count(*) FILTER (WHERE g.outcome = 'd') AS draws
	FROM (
		SELECT c.pool, CASE
			-- every team forfeited: rated as a draw (two forfeited teams score ½)
			WHEN c.abandoned AND NOT EXISTS (SELECT 1 FROM rating_changes o
				WHERE o.game_id = c.game_id AND NOT o.abandoned) THEN 'd'
			WHEN c.abandoned THEN 'l'
			WHEN c.winner = c.team THEN 'w'
			WHEN NOT EXISTS (SELECT 1 FROM rating_changes o
				WHERE o.game_id = c.game_id AND o.team <> c.team AND NOT o.abandoned) THEN 'w'
			WHEN c.winner IS NULL THEN 'd'
			ELSE 'l' END AS outcome
		FROM rating_changes c
		WHERE c.user_id = @user
		OFFSET 0 -- kept a subquery, so that each game's outcome is worked out once, not once a count
	) g
	GROUP BY g.pool
) rec ON rec.pool = r.pool
WHERE r.user_id = @user
ORDER BY r.pool`

// displayThresholdSQL is the SQL for the least rating displayed above the
// rating x's display, half of a point above it (Display rounds halves away
// from zero): displayedAboveSQL tells the ratings at or past it.
func displayThresholdSQL(x string) string {
	return "(CASE WHEN " + x + " >= 0 THEN floor(" + x + " + 0.5) ELSE ceil(" + x + " - 0.5) END + 0.5)"
}

// displayedAboveSQL is true of a row of ratings (alias) whose displayed
// rating is above the one whose threshold t is (see displayThresholdSQL):
// at least t, or more than t when t is not positive, where rounding goes the
// other way. Both halves bound the rating by a value that does not depend
// on the row (the second is t when t is not positive and -Infinity, no
// bound, when it is), so both are conditions of the board's index, worked
// out once per count: written as an OR, the second was a filter worked out
// on every row of the range (about a tenth of a deep rank's time in
// BenchmarkPlayerRank).
func displayedAboveSQL(alias, t string) string {
	return alias + ".rating >= " + t + " AND " + alias + ".rating > (CASE WHEN " + t + " > 0 THEN '-Infinity'::double precision ELSE " + t + " END)"
}

// notClosedSQL leaves out the rows of ratings (alias) of closed accounts, as
// the leaderboards do, as an anti-join that leaves the count index-only:
// users_closed_idx holds the few closed accounts, which the join hashes
// (without it, it read every account to find them).
func notClosedSQL(alias string) string {
	return "NOT EXISTS (SELECT 1 FROM users x WHERE x.id = " + alias + ".user_id AND x.deleted_at IS NOT NULL)"
}

// decodeSeqCursor reads a rating-history cursor: the seq of the last change
// of the page before (0 for the first page).
func decodeSeqCursor(c string) (int64, error) {
	s, err := decodeCursor(c)
	if err != nil || s == "" {
		return 0, err
	}
	seq, err := strconv.ParseInt(s, 10, 64)
	if err != nil || seq <= 0 {
		return 0, badCursor()
	}
	return seq, nil
}

// boardCursor continues a leaderboard after a row: the row's sort key and
// its rank and position, so that ranks stay right on every page without
// counting the players ahead (a count from the database costs a scan of
// every player ahead: about 100 ms halfway down a million players). The
// rank and position are believed, so the cursor is signed, together with
// the query it continues: a cursor the client altered, made up, or took to
// another pool or filter is refused rather than shifting the ranks shown.
type boardCursor struct {
	rating   float64
	games    int
	userID   string
	rank     int
	position int
}

// boardCursorMACLen is how much of the HMAC-SHA256 a cursor carries.
const boardCursorMACLen = 16

// cursorMAC signs a cursor's payload for the query it continues (the limit
// aside, which does not change ranks).
func (r *Ratings) cursorMAC(payload string, q league.LeaderboardQuery) []byte {
	mac := hmac.New(sha256.New, r.cursorKey)
	for _, part := range []string{payload, q.Pool, q.ClubID, q.LeagueID, strconv.FormatBool(q.Provisional)} {
		mac.Write([]byte(part))
		mac.Write([]byte{0})
	}
	return mac.Sum(nil)[:boardCursorMACLen]
}

func (r *Ratings) encodeBoardCursor(c boardCursor, q league.LeaderboardQuery) string {
	payload := strings.Join([]string{strconv.FormatFloat(c.rating, 'g', -1, 64), strconv.Itoa(c.games), c.userID, strconv.Itoa(c.rank), strconv.Itoa(c.position)}, "|")
	return encodeCursor(payload + "|" + base64.RawURLEncoding.EncodeToString(r.cursorMAC(payload, q)))
}

func (r *Ratings) decodeBoardCursor(s string, q league.LeaderboardQuery) (boardCursor, error) {
	key, err := decodeCursor(s)
	if err != nil {
		return boardCursor{}, err
	}
	cut := strings.LastIndexByte(key, '|')
	if cut < 0 {
		return boardCursor{}, badCursor()
	}
	payload := key[:cut]
	sum, err := base64.RawURLEncoding.DecodeString(key[cut+1:])
	if err != nil || !hmac.Equal(sum, r.cursorMAC(payload, q)) {
		return boardCursor{}, badCursor()
	}
	parts := strings.Split(payload, "|")
	if len(parts) != 5 || !validID(parts[2]) {
		return boardCursor{}, badCursor()
	}
	var c boardCursor
	var e1, e2, e3, e4 error
	c.rating, e1 = strconv.ParseFloat(parts[0], 64)
	c.games, e2 = strconv.Atoi(parts[1])
	c.userID = parts[2]
	c.rank, e3 = strconv.Atoi(parts[3])
	c.position, e4 = strconv.Atoi(parts[4])
	if e1 != nil || e2 != nil || e3 != nil || e4 != nil || math.IsNaN(c.rating) {
		return boardCursor{}, badCursor()
	}
	return c, nil
}

var pools = map[string]bool{rating.PoolSequence2: true, rating.PoolSequence3: true, rating.PoolStacks: true}

// Leaderboard returns one page of a pool's leaderboard, keyset-paginated in
// rating order (rating, games, user ID, all descending); with q.Around, the
// page that shows that player (see aroundCursor).
func (r *Ratings) Leaderboard(ctx context.Context, q league.LeaderboardQuery) ([]league.LeaderboardRow, string, error) {
	if !pools[q.Pool] {
		return nil, "", league.Errorf(league.ENOTFOUND, "no pool %q (pools: %s, %s, %s)", q.Pool, rating.PoolSequence2, rating.PoolSequence3, rating.PoolStacks)
	}
	if q.Limit <= 0 {
		q.Limit = 50
	}
	if q.Limit > 200 {
		return nil, "", league.Invalid("the page size is not valid", league.FieldError{Field: "limit", Message: "must be a whole number from 1 to 200"})
	}
	if q.Around != "" && q.Cursor != "" {
		return nil, "", league.Invalid("around and cursor cannot be asked together", league.FieldError{Field: "around", Message: "must not be given with cursor: next_cursor already continues the page around a player"})
	}
	db := r.db.WithContext(ctx)
	var filters []sqlFilter
	if !q.Provisional {
		filters = append(filters, sqlFilter{sql: "r.games >= ?", args: []any{rating.ProvisionalGames}})
	}
	if q.ClubID != "" {
		if !validID(q.ClubID) {
			return nil, "", naming("club", noSuchClub())
		}
		filters = append(filters, sqlFilter{sql: "EXISTS (SELECT 1 FROM club_members cm WHERE cm.club_id = ? AND cm.user_id = r.user_id)", args: []any{q.ClubID}})
	}
	if q.LeagueID != "" {
		f, err := leagueMembersFilter(db, q.LeagueID)
		if err != nil {
			return nil, "", naming("league", err)
		}
		filters = append(filters, f)
	}
	// board is a fresh read of the board's rows (ratings r), each time.
	// A closed account no longer competes, so it is not ranked (its
	// history stays readable through UserRatings): rows are read joined to
	// their open accounts (users u), a key lookup each, and counts leave
	// closed accounts out as poolStandingsSQL does.
	board := func(count bool) *gorm.DB {
		query := db.Table("ratings r")
		if count {
			query = query.Where(notClosedSQL("r"))
		} else {
			query = query.Joins("JOIN users u ON u.id = r.user_id AND u.deleted_at IS NULL")
		}
		query = query.Where("r.pool = ?", q.Pool)
		for _, f := range filters {
			query = query.Where(f.sql, f.args...)
		}
		return query
	}
	var cur *boardCursor
	switch {
	case q.Around != "":
		c, err := r.aroundCursor(board, q)
		if err != nil {
			return nil, "", err
		}
		cur = c
	case q.Cursor != "":
		c, err := r.decodeBoardCursor(q.Cursor, q)
		if err != nil {
			return nil, "", err
		}
		cur = &c
	}
	query := board(false).
		Select("r.user_id, r.pool, r.rating, r.games, r.peak, u.username, u.kind")
	if cur != nil {
		query = query.Where("(r.rating, r.games, r.user_id) < (?, ?, ?)", cur.rating, cur.games, cur.userID)
	}
	var rows []struct {
		UserID   string
		Pool     string
		Rating   float64
		Games    int
		Peak     float64
		Username string
		Kind     string
	}
	if err := query.Order("r.rating DESC, r.games DESC, r.user_id DESC").Limit(q.Limit + 1).Scan(&rows).Error; err != nil {
		return nil, "", err
	}
	if len(rows) == 0 && q.ClubID != "" {
		// Asked only of an empty page, which is all a club that does not
		// exist could give; a page with members proves the club.
		var clubs int64
		if err := db.Table("clubs").Where("id = ?", q.ClubID).Count(&clubs).Error; err != nil {
			return nil, "", err
		}
		if clubs == 0 {
			return nil, "", naming("club", noSuchClub())
		}
	}
	more := len(rows) > q.Limit
	if more {
		rows = rows[:q.Limit]
	}
	out := make([]league.LeaderboardRow, len(rows))
	rank, position, lastDisplay := 0, 0, math.NaN()
	if cur != nil {
		rank, position, lastDisplay = cur.rank, cur.position, math.Round(cur.rating)
	}
	for i, row := range rows {
		position++
		if d := math.Round(row.Rating); d != lastDisplay {
			rank, lastDisplay = position, d
		}
		st := rating.PlayerState{Rating: row.Rating, Games: row.Games, Peak: row.Peak}
		out[i] = league.LeaderboardRow{Rank: rank, UserID: row.UserID, Username: row.Username, Kind: row.Kind, State: toRatingState(row.Pool, st)}
	}
	next := ""
	if more && len(rows) > 0 {
		last := rows[len(rows)-1]
		next = r.encodeBoardCursor(boardCursor{rating: last.Rating, games: last.Games, userID: last.UserID, rank: rank, position: position}, q)
	}
	return out, next, nil
}

// aroundCursor finds where the page around q.Around starts: up to
// q.Limit/2 rows above the player, read backward from the player's row by
// the board's index, and returns the cursor of the row just above that
// (nil when the page starts at the top), as paging from the top would have
// made it. Its rank and position are counted as poolStandingsSQL counts a
// rank, by ranges of the board's index: the players displayed above it,
// and the players ahead of it in the board's order.
func (r *Ratings) aroundCursor(board func(count bool) *gorm.DB, q league.LeaderboardQuery) (*boardCursor, error) {
	notOnBoard := &league.Error{Code: league.ENOTFOUND, Message: "that player is not on this leaderboard",
		Fields: []league.FieldError{{Field: "around", Message: "must be a player on this leaderboard (not provisional unless provisional=true, not closed, within the club or league asked for)"}}}
	if !validID(q.Around) {
		return nil, notOnBoard
	}
	type key struct {
		Rating float64
		Games  int
		UserID string
	}
	var player []key
	if err := board(false).Select("r.rating, r.games, r.user_id").Where("r.user_id = ?", q.Around).Scan(&player).Error; err != nil {
		return nil, err
	}
	if len(player) == 0 {
		return nil, notOnBoard
	}
	p := player[0]
	above := q.Limit / 2
	var before []key
	if err := board(false).Select("r.rating, r.games, r.user_id").
		Where("(r.rating, r.games, r.user_id) > (?, ?, ?)", p.Rating, p.Games, p.UserID).
		Order("r.rating, r.games, r.user_id").Limit(above + 1).Scan(&before).Error; err != nil {
		return nil, err
	}
	if len(before) <= above {
		return nil, nil // the page starts at the top
	}
	a := before[above]
	var counts struct{ Above, Ahead int }
	if err := board(true).
		Select("count(*) FILTER (WHERE "+displayedAboveSQL("r", "above.t")+") AS above, count(*) AS ahead").
		Joins("CROSS JOIN (SELECT "+displayThresholdSQL("v.x")+" AS t FROM (SELECT CAST(? AS double precision) AS x) v) above", a.Rating).
		Where("(r.rating, r.games, r.user_id) > (?, ?, ?)", a.Rating, a.Games, a.UserID).
		Scan(&counts).Error; err != nil {
		return nil, err
	}
	return &boardCursor{rating: a.Rating, games: a.Games, userID: a.UserID, rank: 1 + counts.Above, position: 1 + counts.Ahead}, nil
}

// sqlFilter is a WHERE fragment with its arguments.
type sqlFilter struct {
	sql  string
	args []any
}

// RecomputeResult reports a recompute.
type RecomputeResult struct {
	Games   int
	Players int // distinct players
	Ratings int // ratings replayed: one per player and pool they played in
	// Mismatches are the stored ratings that differ from the replay;
	// History the rating_changes rows (a game's change for one player)
	// whose K, before, after or games differ from it.
	Mismatches int
	History    int
}

// Recompute replays every settled rated result, pool by pool in the order it
// was settled, from the rating history, and compares the outcome with the
// stored ratings and the stored history of changes; with write, it stores
// the replayed ratings and history.
//
// It may run while the server settles games: the history and the stored
// ratings are read as of one moment, so that a settlement committed
// between the two reads is not taken for a mismatch. A report reads one
// snapshot (REPEATABLE READ) and holds settlements up not at all; a write
// first locks the ratings table against them (EXCLUSIVE: reads go on),
// waiting for those under way, so that none commits under the replay and
// has its players' ratings written over with the replay that lacks it.
func (r *Ratings) Recompute(ctx context.Context, write bool) (RecomputeResult, error) {
	var res RecomputeResult
	opts := []*sql.TxOptions{{Isolation: sql.LevelRepeatableRead, ReadOnly: true}}
	if write {
		opts = nil
	}
	err := inTx(ctx, r.db, func(tx *gorm.DB) error {
		res = RecomputeResult{} // counted afresh on each run: see inTx
		if write {
			if err := tx.Exec("LOCK TABLE ratings IN EXCLUSIVE MODE").Error; err != nil {
				return err
			}
		}
		var hist []ratingChangeRow
		if err := tx.Order("seq").Find(&hist).Error; err != nil {
			return err
		}
		byPool := map[string][]rating.GameResult{}
		index := map[string]int{}                       // game ID → position in its pool's list
		rows := map[string]map[int][]*ratingChangeRow{} // pool → position → the game's rows
		for hi := range hist {
			h := &hist[hi]
			key := h.Pool + "/" + h.GameID
			i, ok := index[key]
			if !ok {
				winner := -1
				if h.Winner != nil {
					winner = *h.Winner
				}
				byPool[h.Pool] = append(byPool[h.Pool], rating.GameResult{Winner: winner})
				i = len(byPool[h.Pool]) - 1
				index[key] = i
				res.Games++
			}
			g := &byPool[h.Pool][i]
			g.Seats = append(g.Seats, rating.GameSeat{Player: h.UserID, Team: h.Team, Abandoned: h.Abandoned})
			if rows[h.Pool] == nil {
				rows[h.Pool] = map[int][]*ratingChangeRow{}
			}
			rows[h.Pool][i] = append(rows[h.Pool][i], h)
		}
		var stored []ratingRow
		if err := tx.Find(&stored).Error; err != nil {
			return err
		}
		have := map[string]ratingRow{}
		for _, s := range stored {
			have[s.Pool+"/"+s.UserID] = s
		}
		replayed := map[string]bool{}
		players := map[string]bool{}
		for pool, games := range byPool {
			// The history is checked too: a stored rating found wrong (set
			// by hand, say) was every later change's before, so fixing the
			// rating alone left the history, and with it the rating chart
			// and each game's seats, breaking where it was wrong.
			var stale []*ratingChangeRow
			states, err := rating.ReplayEach(games, func(gi int, changes []rating.Change) {
				for _, h := range rows[pool][gi] {
					for _, c := range changes {
						if c.Player == h.UserID && (h.K != c.K || h.Before != c.Before.Rating || h.After != c.After.Rating || h.Games != c.After.Games) {
							h.K, h.Before, h.After, h.Games = c.K, c.Before.Rating, c.After.Rating, c.After.Games
							stale = append(stale, h)
						}
					}
				}
			})
			if err != nil {
				return fmt.Errorf("pool %s: %w", pool, err)
			}
			res.History += len(stale)
			if write {
				for _, h := range stale {
					if err := tx.Model(&ratingChangeRow{}).Where("seq = ?", h.Seq).
						Updates(map[string]any{"k": h.K, "before": h.Before, "after": h.After, "games": h.Games}).Error; err != nil {
						return err
					}
				}
			}
			for player, st := range states {
				res.Ratings++
				players[player] = true
				replayed[pool+"/"+player] = true
				s, ok := have[pool+"/"+player]
				if !ok || s.Rating != st.Rating || s.Games != st.Games || s.Peak != st.Peak {
					res.Mismatches++
					if write {
						row := ratingRow{UserID: player, Pool: pool, Rating: st.Rating, Games: st.Games, Peak: st.Peak, UpdatedAt: time.Now().UTC()}
						if err := tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(&row).Error; err != nil {
							return err
						}
					}
				}
			}
		}
		res.Players = len(players)
		// A stored rating no result stands behind is a mismatch too.
		for key, s := range have {
			if replayed[key] {
				continue
			}
			res.Mismatches++
			if write {
				if err := tx.Where("user_id = ? AND pool = ?", s.UserID, s.Pool).Delete(&ratingRow{}).Error; err != nil {
					return err
				}
			}
		}
		return nil
	}, opts...)
	return res, err
}
