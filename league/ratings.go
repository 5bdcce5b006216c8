package league

import (
	"context"
	"time"
)

// RatingState is a player's standing in one pool.
type RatingState struct {
	Pool        string
	Rating      float64
	Games       int
	Peak        float64
	Provisional bool
	Display     string // "1540?" while provisional
}

// PoolStanding is how a player stands in one pool: the rating, the record
// of their rated games there and their place on the pool's default
// leaderboard.
type PoolStanding struct {
	RatingState
	// Wins, Losses and Draws count the rated games (Games in all): a game is
	// won when the player's team won and they did not abandon it, drawn when
	// nobody won and they did not abandon it, and lost otherwise (an
	// abandoner is rated as losing, whatever the board said).
	Wins, Losses, Draws int
	// Rank is the place the pool's default leaderboard (no filters,
	// provisional players hidden) shows the player at, equal displayed
	// ratings sharing one; 0 when the player is not on it (provisional, or
	// the account closed).
	Rank int
}

// RatingChange is one game's effect on one player.
type RatingChange struct {
	GameID string
	Pool   string
	Before float64
	After  float64
	K      float64
	At     time.Time
}

// UserRatings is a player's ratings in every pool with one page of their
// history.
type UserRatings struct {
	UserID     string
	Pools      []PoolStanding
	History    []RatingChange // newest first
	NextCursor string         // continues History; "" on its last page
}

// RatingHistoryQuery selects one page of a player's rating history,
// newest first, in one pool or ("") in all of them.
type RatingHistoryQuery struct {
	Pool string
	Page PageRequest
}

// LeaderboardQuery selects one page of a leaderboard.
type LeaderboardQuery struct {
	Pool        string
	ClubID      string // only this club's members
	LeagueID    string // only players who took part in this league
	Provisional bool   // include provisional players
	Limit       int
	Cursor      string
	// Around, a user ID, asks for the page that shows that player's row
	// with up to Limit/2 rows above it (fewer near the top); with Cursor it
	// is refused. A player the board leaves out is ENOTFOUND naming around.
	Around string
}

// LeaderboardRow is one ranked player.
type LeaderboardRow struct {
	Rank     int // players with equal displayed ratings share a rank
	UserID   string
	Username string
	Kind     string
	State    RatingState
}

// Ratings reads ratings and leaderboards.
type Ratings interface {
	UserRatings(ctx context.Context, userID string, q RatingHistoryQuery) (*UserRatings, error)
	Leaderboard(ctx context.Context, q LeaderboardQuery) ([]LeaderboardRow, string, error)
}
