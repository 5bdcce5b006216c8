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
	Pools      []RatingState
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
