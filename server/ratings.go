package server

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/seqleague/seqleague/league"
)

type ratingStateResponse struct {
	Pool        string  `json:"pool"`
	Rating      float64 `json:"rating"`
	Display     string  `json:"display"`
	Games       int     `json:"games"`
	Peak        float64 `json:"peak"`
	Provisional bool    `json:"provisional"`
}

type ratingChangeResponse struct {
	GameID string    `json:"game_id"`
	Pool   string    `json:"pool"`
	Before float64   `json:"before"`
	After  float64   `json:"after"`
	K      float64   `json:"k"`
	At     time.Time `json:"at"`
}

// poolStandingResponse is a player's rating in one pool with their record
// there and their rank on the pool's default leaderboard (null when they are
// not on it: provisional, or the account closed).
type poolStandingResponse struct {
	ratingStateResponse
	Wins   int  `json:"wins"`
	Losses int  `json:"losses"`
	Draws  int  `json:"draws"`
	Rank   *int `json:"rank"`
}

// userRatingsResponse is a player's ratings in every pool and one page of
// their history, newest first; next_cursor continues the history.
type userRatingsResponse struct {
	UserID     string                 `json:"user_id"`
	Pools      []poolStandingResponse `json:"pools"`
	History    []ratingChangeResponse `json:"history"`
	NextCursor string                 `json:"next_cursor"`
}

type leaderboardRowResponse struct {
	Rank     int    `json:"rank"`
	UserID   string `json:"user_id"`
	Username string `json:"username"`
	Kind     string `json:"kind"`
	ratingStateResponse
}

func toRatingStateResponse(s league.RatingState) ratingStateResponse {
	return ratingStateResponse{Pool: s.Pool, Rating: s.Rating, Display: s.Display, Games: s.Games, Peak: s.Peak, Provisional: s.Provisional}
}

func mountRatings(api *echo.Group, d Deps) {
	h := ratingHandlers{ratings: d.Ratings}
	optional := authOptional(d)
	api.GET("/users/:id/ratings", h.userRatings, optional)
	api.GET("/leaderboards/:pool", h.leaderboard, optional)
}

type ratingHandlers struct {
	ratings league.Ratings
}

func (h ratingHandlers) userRatings(c echo.Context) error {
	page, err := pageRequest(c)
	if err != nil {
		return err
	}
	r, err := h.ratings.UserRatings(c.Request().Context(), c.Param("id"), league.RatingHistoryQuery{Pool: c.QueryParam("pool"), Page: page})
	if err != nil {
		return err
	}
	out := userRatingsResponse{UserID: r.UserID, Pools: []poolStandingResponse{}, History: []ratingChangeResponse{}, NextCursor: r.NextCursor}
	for _, p := range r.Pools {
		ps := poolStandingResponse{ratingStateResponse: toRatingStateResponse(p.RatingState), Wins: p.Wins, Losses: p.Losses, Draws: p.Draws}
		if p.Rank > 0 {
			ps.Rank = &p.Rank
		}
		out.Pools = append(out.Pools, ps)
	}
	for _, ch := range r.History {
		out.History = append(out.History, ratingChangeResponse{GameID: ch.GameID, Pool: ch.Pool, Before: ch.Before, After: ch.After, K: ch.K, At: ch.At})
	}
	return c.JSON(http.StatusOK, out)
}

func (h ratingHandlers) leaderboard(c echo.Context) error {
	q := league.LeaderboardQuery{Pool: c.Param("pool"), ClubID: c.QueryParam("club"), LeagueID: c.QueryParam("league"), Cursor: c.QueryParam("cursor"), Around: c.QueryParam("around")}
	if q.Around == "me" {
		q.Around = actorOf(c).UserID
		if q.Around == "" {
			return &league.Error{Code: league.EUNAUTHORIZED, Message: "sign in to find your place on the leaderboard",
				Fields: []league.FieldError{{Field: "around", Message: "\"me\" needs a signed-in user; give a user ID instead"}}}
		}
	}
	if s := c.QueryParam("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 200 {
			return league.Invalid("the page size is not valid", league.FieldError{Field: "limit", Message: "must be a whole number from 1 to 200"})
		}
		q.Limit = n
	}
	if s := c.QueryParam("provisional"); s != "" {
		b, err := strconv.ParseBool(s)
		if err != nil {
			return league.Invalid("bad query", league.FieldError{Field: "provisional", Message: "must be true or false"})
		}
		q.Provisional = b
	}
	rows, next, err := h.ratings.Leaderboard(c.Request().Context(), q)
	if err != nil {
		return err
	}
	out := make([]leaderboardRowResponse, len(rows))
	for i, r := range rows {
		out[i] = leaderboardRowResponse{Rank: r.Rank, UserID: r.UserID, Username: r.Username, Kind: r.Kind, ratingStateResponse: toRatingStateResponse(r.State)}
	}
	return c.JSON(http.StatusOK, map[string]any{"pool": q.Pool, "items": out, "next_cursor": next})
}
