package server

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/seqleague/seqleague/league"
)

// GameAPI is what the game routes need: the service and its live feed.
type GameAPI interface {
	league.GameService
	league.GameFeed
}

type createGameRequest struct {
	Game               string        `json:"game"`
	Variant            string        `json:"variant"`
	Players            int           `json:"players"`
	Teams              int           `json:"teams"`
	SequencesToWin     int           `json:"sequences_to_win"`
	PlayCap            int           `json:"play_cap"`
	Seats              []seatRequest `json:"seats"`
	Clock              *clockBody    `json:"clock"`
	Rated              bool          `json:"rated"`
	BlockWindowSeconds int           `json:"block_window_seconds"`
	Autopilot          string        `json:"autopilot"`
	FillLevel          string        `json:"fill_level"`
	MaxTimeouts        int           `json:"max_timeouts"`
	ScheduledStart     *time.Time    `json:"scheduled_start"`
	Private            bool          `json:"private"`
}

type seatRequest struct {
	User string `json:"user"` // an ID, or "me"
	Bot  string `json:"bot"`
	Open bool   `json:"open"`
	For  string `json:"for"` // with open: the username of the player the seat is kept for until the start
}

type clockBody struct {
	TurnSeconds      int `json:"turn_seconds,omitempty"`
	BankSeconds      int `json:"bank_seconds,omitempty"`
	IncrementSeconds int `json:"increment_seconds,omitempty"`
}

type moveRequest struct {
	Ply    *int   `json:"ply"`
	Move   string `json:"move"`
	MoveID string `json:"move_id"`
}

type quickMatchRequest struct {
	Game    string `json:"game"`
	Variant string `json:"variant"`
	Players int    `json:"players"`
	Teams   int    `json:"teams"`
}

type joinRequest struct {
	Seat *int `json:"seat"`
}

type seatUser struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	// Rating: the person's rating in the game's pool now (the lobby only).
	Rating *seatUserRating `json:"rating,omitempty"`
}

// keptFor names the person an open seat is kept for.
type keptFor struct {
	ID       string `json:"id"`
	Username string `json:"username"`
}

type seatUserRating struct {
	Rating      float64 `json:"rating"`
	Display     string  `json:"display"`
	Games       int     `json:"games"`
	Provisional bool    `json:"provisional"`
}

type seatResponse struct {
	Seat        int       `json:"seat"`
	Team        int       `json:"team"`
	User        *seatUser `json:"user"`
	Bot         string    `json:"bot,omitempty"`
	Open        bool      `json:"open"`
	FilledByBot bool      `json:"filled_by_bot"`
	Abandoned   bool      `json:"abandoned"`
	// AbandonedWhy says why an abandoned seat was (league.Abandoned*).
	AbandonedWhy string `json:"abandoned_why,omitempty"`
	BankMS       int64  `json:"bank_ms,omitempty"`
	// Away: the person at the seat of an active game has not followed it
	// for a while (no event stream of theirs open), in a game's view only
	Away bool `json:"away,omitempty"`
	// KeptFor: an open seat kept for this person until KeptUntil (a rematch's)
	KeptFor   *keptFor   `json:"kept_for,omitempty"`
	KeptUntil *time.Time `json:"kept_until,omitempty"`
	// Rating: the seat's rating before and after, once a finished rated
	// game has been rated (GET /games/{id} and the archive).
	Rating *seatRatingResponse `json:"rating,omitempty"`
}

type seatRatingResponse struct {
	Before float64 `json:"before"`
	After  float64 `json:"after"`
}

type resultResponse struct {
	Status string `json:"status"` // finished or drawn
	Winner *int   `json:"winner"` // team (sequence) or seat (stacks)
}

type gameResponse struct {
	ID                 string          `json:"id"`
	Game               string          `json:"game"`
	Variant            string          `json:"variant,omitempty"`
	Players            int             `json:"players"`
	Teams              int             `json:"teams"`
	SequencesToWin     int             `json:"sequences_to_win,omitempty"`
	Status             string          `json:"status"`
	Rated              bool            `json:"rated"`
	Clock              clockBody       `json:"clock"`
	BlockWindowSeconds int             `json:"block_window_seconds,omitempty"`
	CreatedBy          string          `json:"created_by,omitempty"`
	CreatedByName      string          `json:"created_by_name,omitempty"` // in a player's list of invitations
	CreatedAt          time.Time       `json:"created_at"`
	ScheduledStart     *time.Time      `json:"scheduled_start,omitempty"`
	StartedAt          *time.Time      `json:"started_at,omitempty"`
	FinishedAt         *time.Time      `json:"finished_at,omitempty"`
	SettledAt          *time.Time      `json:"settled_at,omitempty"`
	SeedHash           string          `json:"seed_hash"`
	Seed               string          `json:"seed,omitempty"`
	Ply                int             `json:"ply"`
	TurnDeadline       *time.Time      `json:"turn_deadline,omitempty"`
	TurnSeat           *int            `json:"turn_seat"` // null unless the game is active
	Result             *resultResponse `json:"result,omitempty"`
	EndedBy            string          `json:"ended_by,omitempty"` // play, adjudication, abort or lapse, once the game has ended
	RematchID          string          `json:"rematch_id,omitempty"`
	TournamentID       string          `json:"tournament_id,omitempty"`
	// Tournament: in lists, the tournament game's tournament and round.
	Tournament *gameTournamentResponse `json:"tournament,omitempty"`
	Private    bool                    `json:"private"`
	Seats      []seatResponse          `json:"seats"`
}

type gameTournamentResponse struct {
	Name  string `json:"name"`
	Round int    `json:"round,omitempty"`
}

type gameViewResponse struct {
	gameResponse
	YourSeat   *int            `json:"your_seat"`
	ToMove     []int           `json:"to_move"`
	State      json.RawMessage `json:"state"`
	LegalMoves []string        `json:"legal_moves,omitempty"`
	// MayResign: the caller may resign the game now (POST …/resign).
	MayResign bool `json:"may_resign,omitempty"`
}

type moveResponse struct {
	Ply    int       `json:"ply"`
	Seat   int       `json:"seat"`
	Move   string    `json:"move"`
	Actor  string    `json:"by"`
	UserID string    `json:"user_id,omitempty"`
	At     time.Time `json:"at"`
}

func toGameResponse(g league.Game) gameResponse {
	r := gameResponse{
		ID: g.ID, Game: g.Game, Variant: g.Variant, Players: g.Players, Teams: g.Teams, SequencesToWin: g.SequencesToWin,
		Status: g.Status, Rated: g.Rated, BlockWindowSeconds: g.BlockWindowSeconds, CreatedBy: g.CreatedBy, CreatedByName: g.CreatedByName,
		Clock:     clockBody{TurnSeconds: g.Clock.TurnSeconds, BankSeconds: g.Clock.BankSeconds, IncrementSeconds: g.Clock.IncrementSeconds},
		CreatedAt: g.CreatedAt, ScheduledStart: g.ScheduledStart, StartedAt: g.StartedAt, FinishedAt: g.FinishedAt, SettledAt: g.SettledAt,
		SeedHash: g.SeedHash, Seed: g.Seed, Ply: g.Ply, TurnDeadline: g.TurnDeadline, TurnSeat: g.TurnSeat, EndedBy: g.EndedBy, RematchID: g.RematchID, TournamentID: g.TournamentID, Private: g.Private, Seats: []seatResponse{},
	}
	if t := g.Tournament; t != nil {
		r.Tournament = &gameTournamentResponse{Name: t.Name, Round: t.Round}
	}
	if g.Game != league.GameStacks {
		r.BlockWindowSeconds = 0 // only Stacks has block windows
	}
	if g.ResultStatus != "" {
		r.Result = &resultResponse{Status: g.ResultStatus, Winner: g.Winner}
	}
	for _, s := range g.Seats {
		sr := seatResponse{Seat: s.Seat, Team: s.Team, Bot: s.Bot, Open: s.Open, FilledByBot: s.FilledByBot, Abandoned: s.Abandoned, AbandonedWhy: s.AbandonedWhy, BankMS: s.BankMS, Away: s.Away}
		if s.Rating != nil {
			sr.Rating = &seatRatingResponse{Before: s.Rating.Before, After: s.Rating.After}
		}
		if s.UserID != "" {
			sr.User = &seatUser{ID: s.UserID, Username: s.Username}
			if r := s.PoolRating; r != nil {
				sr.User.Rating = &seatUserRating{Rating: r.Rating, Display: r.Display, Games: r.Games, Provisional: r.Provisional}
			}
		}
		if s.KeptFor != "" {
			sr.KeptFor, sr.KeptUntil = &keptFor{ID: s.KeptFor, Username: s.KeptForName}, s.KeptUntil
		}
		r.Seats = append(r.Seats, sr)
	}
	return r
}

func toGameViewResponse(v *league.GameView) gameViewResponse {
	r := gameViewResponse{gameResponse: toGameResponse(v.Game), YourSeat: v.YourSeat, ToMove: v.ToMove, State: v.State, LegalMoves: v.LegalMoves, MayResign: v.MayResign}
	if r.ToMove == nil {
		r.ToMove = []int{}
	}
	if r.State == nil {
		r.State = json.RawMessage("null")
	}
	return r
}

func toMoveResponse(m league.MoveRecord) moveResponse {
	return moveResponse{Ply: m.Ply, Seat: m.Seat, Move: m.Move, Actor: m.Actor, UserID: m.UserID, At: m.At}
}

func mountGames(e *echo.Echo, api *echo.Group, d Deps) {
	h := gameHandlers{games: d.Games}
	required, optional := authRequired(d), authOptional(d)
	api.POST("/games", h.create, required)
	api.POST("/games/quick", h.quickMatch, required)
	api.GET("/games/:id", h.view, optional)
	api.POST("/games/:id/join", h.join, required)
	api.POST("/games/:id/leave", h.leave, required)
	api.POST("/games/:id/resign", h.resign, required)
	api.POST("/games/:id/start", h.start, required)
	api.PUT("/games/:id/seats/:seat", h.setSeat, required)
	api.POST("/games/:id/decline", h.decline, required)
	api.POST("/games/:id/rematch", h.rematch, required)
	api.POST("/games/:id/moves", h.move, required)
	api.GET("/games/:id/moves", h.moves, optional)
	api.GET("/games/:id/archive", h.archive, optional)
	api.GET("/games/:id/vector", h.vector, optional)
	api.GET("/users/:id/games", h.userGames, optional)
	api.GET("/games", h.list, optional)
	// The event stream lives outside the API group: it must not be cut by
	// the request timeout.
	e.GET("/api/v1/games/:id/events", func(c echo.Context) error { return d.Hub.serveEvents(c, d.Accounts) }, tokenFromQuery, singleQueryValues, optional)
}

type gameHandlers struct {
	games GameAPI
}

func (h gameHandlers) create(c echo.Context) error {
	var req createGameRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	a := actorOf(c)
	ng := league.NewGame{
		Game: req.Game, Variant: req.Variant, Players: req.Players, Teams: req.Teams, SequencesToWin: req.SequencesToWin,
		PlayCap: req.PlayCap, Rated: req.Rated, BlockWindowSeconds: req.BlockWindowSeconds, AutopilotLevel: req.Autopilot,
		FillLevel: req.FillLevel, MaxTimeouts: req.MaxTimeouts, ScheduledStart: req.ScheduledStart, Private: req.Private,
	}
	if req.Clock != nil {
		ng.Clock = league.Clock{TurnSeconds: req.Clock.TurnSeconds, BankSeconds: req.Clock.BankSeconds, IncrementSeconds: req.Clock.IncrementSeconds}
	}
	for _, s := range req.Seats {
		spec := league.SeatSpec{UserID: s.User, Bot: s.Bot, Open: s.Open, For: s.For}
		if s.User == "me" {
			spec.UserID = a.UserID
		}
		ng.Seats = append(ng.Seats, spec)
	}
	g, err := h.games.Create(c.Request().Context(), a, ng)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toGameResponse(*g))
}

// quickMatch seats the caller at the oldest game of the set-up waiting for
// players (200) or makes one (201).
func (h gameHandlers) quickMatch(c echo.Context) error {
	var req quickMatchRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	g, created, err := h.games.QuickMatch(c.Request().Context(), actorOf(c),
		league.QuickMatchRequest{Game: req.Game, Variant: req.Variant, Players: req.Players, Teams: req.Teams})
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return c.JSON(status, toGameResponse(*g))
}

func (h gameHandlers) view(c echo.Context) error {
	v, err := h.games.View(c.Request().Context(), actorOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toGameViewResponse(v))
}

func (h gameHandlers) join(c echo.Context) error {
	var req joinRequest
	if err := bindOptionalJSON(c, &req); err != nil {
		return err
	}
	g, err := h.games.Join(c.Request().Context(), actorOf(c), c.Param("id"), req.Seat)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toGameResponse(*g))
}

// leaveRequest is the optional body of POST /games/{id}/leave.
type leaveRequest struct {
	// OnlyIfOpen leaves only a game that has not started (see LeaveTable).
	OnlyIfOpen bool `json:"only_if_open"`
}

func (h gameHandlers) leave(c echo.Context) error {
	var req leaveRequest
	if err := bindOptionalJSON(c, &req); err != nil {
		return err
	}
	leave := h.games.Leave
	if req.OnlyIfOpen {
		leave = h.games.LeaveTable
	}
	g, err := leave(c.Request().Context(), actorOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toGameResponse(*g))
}

// resign ends a game of two sides at once, the caller's side losing.
func (h gameHandlers) resign(c echo.Context) error {
	g, err := h.games.Resign(c.Request().Context(), actorOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toGameResponse(*g))
}

// setSeat changes a seat of an open game as its creator: the body is a
// seat as POST /games takes one, but for "user" (a person joins).
func (h gameHandlers) setSeat(c echo.Context) error {
	var req seatRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Param("seat"))
	if err != nil || n < 0 {
		e := league.Errorf(league.ENOTFOUND, "no seat %q: seats are numbered from 0", c.Param("seat"))
		e.Fields = []league.FieldError{{Field: "seat", Message: "must be a seat number, from 0"}}
		return e
	}
	spec := league.SeatSpec{UserID: req.User, Bot: req.Bot, Open: req.Open, For: req.For}
	g, err := h.games.SetSeat(c.Request().Context(), actorOf(c), c.Param("id"), n, spec)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toGameResponse(*g))
}

func (h gameHandlers) decline(c echo.Context) error {
	g, err := h.games.Decline(c.Request().Context(), actorOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toGameResponse(*g))
}

func (h gameHandlers) start(c echo.Context) error {
	g, err := h.games.Start(c.Request().Context(), actorOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toGameResponse(*g))
}

func (h gameHandlers) rematch(c echo.Context) error {
	g, err := h.games.Rematch(c.Request().Context(), actorOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toGameResponse(*g))
}

func (h gameHandlers) move(c echo.Context) error {
	var req moveRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Ply == nil {
		return league.Invalid("the move must name the ply it answers", league.FieldError{Field: "ply", Message: "required"})
	}
	v, err := h.games.Move(c.Request().Context(), actorOf(c), c.Param("id"), league.MoveRequest{Ply: *req.Ply, Move: req.Move, MoveID: req.MoveID})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toGameViewResponse(v))
}

func (h gameHandlers) moves(c echo.Context) error {
	after := -1
	if s := c.QueryParam("after"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return league.Invalid("bad query", league.FieldError{Field: "after", Message: "must be an integer"})
		}
		after = n
	}
	moves, err := h.games.Moves(c.Request().Context(), c.Param("id"), after)
	if err != nil {
		return err
	}
	out := make([]moveResponse, len(moves))
	for i, m := range moves {
		out[i] = toMoveResponse(m)
	}
	return c.JSON(http.StatusOK, map[string]any{"moves": out})
}

// archiveResponse is a finished game's full record, in the API's own
// shapes: the game as GET /games/{id} gives it, its set-up as
// `seqleague engine` takes it, the moves as GET /games/{id}/moves gives them.
type archiveResponse struct {
	Game       gameResponse    `json:"game"`
	Setup      setupResponse   `json:"setup"`
	Seed       string          `json:"seed"`
	SeedHash   string          `json:"seed_hash"`
	Moves      []moveResponse  `json:"moves"`
	FinalState json.RawMessage `json:"final_state"`
}

type setupResponse struct {
	Game           string `json:"game"`
	Variant        string `json:"variant,omitempty"`
	Players        int    `json:"players"`
	Teams          int    `json:"teams"`
	SequencesToWin int    `json:"sequences_to_win,omitempty"`
	PlayCap        int    `json:"play_cap,omitempty"`
}

func (h gameHandlers) archive(c echo.Context) error {
	a, err := h.games.Archive(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	g := a.Game
	r := archiveResponse{
		Game:  toGameResponse(g),
		Setup: setupResponse{Game: g.Game, Variant: g.Variant, Players: g.Players, Teams: g.Teams, SequencesToWin: g.SequencesToWin, PlayCap: g.PlayCap},
		Seed:  a.Seed, SeedHash: a.SeedHash, Moves: make([]moveResponse, len(a.Moves)), FinalState: a.FinalState,
	}
	for i, m := range a.Moves {
		r.Moves[i] = toMoveResponse(m)
	}
	return c.JSON(http.StatusOK, r)
}

func (h gameHandlers) vector(c echo.Context) error {
	var ply *int
	if s := c.QueryParam("ply"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return league.Invalid("bad query", league.FieldError{Field: "ply", Message: "must be an integer"})
		}
		ply = &n
	}
	doc, err := h.games.Vector(c.Request().Context(), actorOf(c), c.Param("id"), ply)
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, doc)
}

// list is the lobby: ?status=open (games to join, the default) or active
// (games to watch), of one game (?game=), table size (?players=),
// rated or casual games only (?rated=) or one club's (?club=) if asked.
func (h gameHandlers) list(c echo.Context) error {
	p, err := pageRequest(c)
	if err != nil {
		return err
	}
	q := league.GamesQuery{Status: c.QueryParam("status"), Game: c.QueryParam("game"), Club: c.QueryParam("club"), Page: p}
	if q.Status == "" {
		q.Status = league.StatusOpen
	}
	if s := c.QueryParam("players"); s != "" {
		// 0 and below are refused as no table's size, not taken for "any"
		if q.Players, err = strconv.Atoi(s); err != nil || q.Players == 0 {
			return league.Invalid("bad query", league.FieldError{Field: "players", Message: "must be a table size (an integer, 2 to 12)"})
		}
	}
	if s := c.QueryParam("rated"); s != "" {
		rated, err := strconv.ParseBool(s)
		if err != nil {
			return league.Invalid("bad query", league.FieldError{Field: "rated", Message: "must be true or false"})
		}
		q.Rated = &rated
	}
	games, next, err := h.games.List(c.Request().Context(), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, gameList(games, next))
}

// gameList is a page of games as the API writes it.
func gameList(games []league.Game, next string) listResponse[gameResponse] {
	out := listResponse[gameResponse]{Items: make([]gameResponse, len(games)), NextCursor: next}
	for i, g := range games {
		out.Items[i] = toGameResponse(g)
	}
	return out
}

func (h gameHandlers) userGames(c echo.Context) error {
	p, err := pageRequest(c)
	if err != nil {
		return err
	}
	q := league.UserGamesQuery{Page: p, Viewer: actorOf(c)}
	if s := c.QueryParam("to_move"); s != "" {
		if q.ToMove, err = strconv.ParseBool(s); err != nil {
			return league.Invalid("bad query", league.FieldError{Field: "to_move", Message: "must be true or false"})
		}
	}
	if s := c.QueryParam("invited"); s != "" {
		if q.Invited, err = strconv.ParseBool(s); err != nil {
			return league.Invalid("bad query", league.FieldError{Field: "invited", Message: "must be true or false"})
		}
	}
	games, next, err := h.games.ListForUser(c.Request().Context(), c.Param("id"), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, gameList(games, next))
}
