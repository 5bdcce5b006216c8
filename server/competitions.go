package server

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/seqleague/seqleague/league"
)

type leagueResponse struct {
	ID          string    `json:"id"`
	ClubID      string    `json:"club_id"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"created_at"`
}

type seasonResponse struct {
	ID        string     `json:"id"`
	LeagueID  string     `json:"league_id"`
	Name      string     `json:"name"`
	Status    string     `json:"status"`
	CreatedAt time.Time  `json:"created_at"`
	ClosedAt  *time.Time `json:"closed_at,omitempty"`
}

type seasonRowResponse struct {
	Rank        int     `json:"rank"`
	UserID      string  `json:"user_id"`
	Username    string  `json:"username"`
	Points      float64 `json:"points"`
	Tournaments int     `json:"tournaments"`
	Titles      int     `json:"titles"`
	MatchWins   int     `json:"match_wins"`
	Sequences   int     `json:"sequences"`
}

type nameBody struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// createSeasonRequest is a season's creation: seasons have only a name, so
// a description is refused as an unknown field rather than dropped.
type createSeasonRequest struct {
	Name string `json:"name"`
}

// updateLeagueRequest changes a league; a field left out stays.
type updateLeagueRequest struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
}

// updateSeasonRequest renames a season: seasons have only a name (their
// dates are their tournaments').
type updateSeasonRequest struct {
	Name *string `json:"name"`
}

// tournamentBody is a tournament's set-up as clients send and read it.
type tournamentBody struct {
	Game               string     `json:"game"`
	Variant            string     `json:"variant,omitempty"`
	SequencesToWin     int        `json:"sequences_to_win,omitempty"`
	TeamSize           int        `json:"team_size"`
	MatchSize          int        `json:"match_size"`
	Format             string     `json:"format"`
	BestOf             int        `json:"best_of,omitempty"`
	Double             bool       `json:"double,omitempty"`
	Rounds             int        `json:"rounds,omitempty"`
	ThirdPlace         bool       `json:"third_place,omitempty"`
	Reset              bool       `json:"reset,omitempty"`
	Groups             int        `json:"groups,omitempty"`
	Advance            int        `json:"advance,omitempty"`
	TieBreaks          []string   `json:"tie_breaks,omitempty"`
	Clock              *clockBody `json:"clock,omitempty"`
	FillLevel          string     `json:"fill_level,omitempty"`
	Rated              bool       `json:"rated"`
	RegistrationOpens  *time.Time `json:"registration_opens,omitempty"`
	RegistrationCloses *time.Time `json:"registration_closes,omitempty"`
	MinRating          *float64   `json:"min_rating,omitempty"`
	MaxRating          *float64   `json:"max_rating,omitempty"`
	MinGames           int        `json:"min_games,omitempty"`
	Seeding            string     `json:"seeding,omitempty"`
	NoShow             string     `json:"no_show,omitempty"`
	AtDeadline         string     `json:"at_deadline,omitempty"`
	RoundGapSeconds    int        `json:"round_gap_seconds,omitempty"`
}

type createTournamentRequest struct {
	ClubID   string `json:"club_id"`
	SeasonID string `json:"season_id"`
	Name     string `json:"name"`
	tournamentBody
}

type tournamentResponse struct {
	ID           string `json:"id"`
	ClubID       string `json:"club_id"`
	SeasonID     string `json:"season_id,omitempty"`
	Name         string `json:"name"`
	Status       string `json:"status"`
	CurrentRound int    `json:"current_round"`
	// RoundsPlanned: once started, the rounds the tournament plays.
	RoundsPlanned int        `json:"rounds_planned,omitempty"`
	Entries       int        `json:"entries"`
	CreatedAt     time.Time  `json:"created_at"`
	StartedAt     *time.Time `json:"started_at,omitempty"`
	FinishedAt    *time.Time `json:"finished_at,omitempty"`
	CancelledAt   *time.Time `json:"cancelled_at,omitempty"`
	tournamentBody
}

type updateTournamentRequest struct {
	Name   *string `json:"name"`
	Status *string `json:"status"`
}

type memberBody struct {
	User     string `json:"user,omitempty"`
	Username string `json:"username,omitempty"`
	Bot      string `json:"bot,omitempty"`
}

type entryRequest struct {
	Name    string               `json:"name"`
	Members []entryMemberRequest `json:"members"`
	Seed    int                  `json:"seed"`
}

// entryMemberRequest is a member as an entry names one: a user or a bot.
// The answer's member also has a username, which a request does not take:
// one that took it ignored it, and {"username":"bob"} was refused as
// naming neither user nor bot.
type entryMemberRequest struct {
	User string `json:"user,omitempty"`
	Bot  string `json:"bot,omitempty"`
}

type entryResponse struct {
	ID        string       `json:"id"`
	Name      string       `json:"name"`
	CaptainID string       `json:"captain_id,omitempty"`
	Seed      int          `json:"seed"`
	Rating    float64      `json:"rating"`
	Status    string       `json:"status"`
	Members   []memberBody `json:"members"`
}

type roundScheduleBody struct {
	Number   int        `json:"number"`
	StartsAt *time.Time `json:"starts_at"`
	Deadline *time.Time `json:"deadline,omitempty"`
}

// scheduleRequest schedules listed rounds, or a series of count rounds
// from first_round (1 unless given) from a first start and an interval.
type scheduleRequest struct {
	Rounds          []roundScheduleBody `json:"rounds"`
	FirstStart      *time.Time          `json:"first_start"`
	FirstRound      *int                `json:"first_round"`
	Count           int                 `json:"count"`
	IntervalSeconds int                 `json:"interval_seconds"`
	DeadlineSeconds int                 `json:"deadline_seconds"`
}

type matchResponse struct {
	ID          string   `json:"id"`
	Entries     []string `json:"entries"`
	Bye         bool     `json:"bye"`
	Status      string   `json:"status"`
	Winner      string   `json:"winner,omitempty"`
	GameWinners []string `json:"game_winners"`
	Sequences   []int    `json:"sequences"`
	Forfeited   []string `json:"forfeited"` // entries found absent: they forfeited the rest of the series
	Beaten      []string `json:"beaten,omitempty"`
	Games       []string `json:"games"`
	// StandIns: the entries whose players a fill-in bot stood in for in
	// the match's games (their seats filled by a bot and abandoned).
	StandIns []standInResponse `json:"stand_ins"`
}

type standInResponse struct {
	EntryID string          `json:"entry_id"`
	Games   []string        `json:"games"`
	Players []standInPlayer `json:"players"`
}

type standInPlayer struct {
	User     string `json:"user"`
	Username string `json:"username"`
}

type roundResponse struct {
	Number    int        `json:"number"`
	StartsAt  *time.Time `json:"starts_at,omitempty"`
	StartedAt *time.Time `json:"started_at,omitempty"`
	Deadline  *time.Time `json:"deadline,omitempty"`
	// PlannedDeadline says the deadline moved because the round started late.
	PlannedDeadline *time.Time      `json:"planned_deadline,omitempty"`
	Status          string          `json:"status"`
	StartError      string          `json:"start_error,omitempty"`
	Matches         []matchResponse `json:"matches"`
}

type standingResponse struct {
	Rank    int    `json:"rank"`
	EntryID string `json:"entry_id"`
	Name    string `json:"name"`
	matchRecordResponse
	Points    float64            `json:"points"`
	TieBreaks []tieBreakResponse `json:"tie_breaks"`
	// Groups then playoffs, once the groups are drawn: the entry's group
	// and its rank in the group's table.
	Group     string `json:"group,omitempty"`
	GroupRank int    `json:"group_rank,omitempty"`
	// Qualified: the entry reached the playoffs (once they are drawn).
	Qualified  bool                 `json:"qualified,omitempty"`
	GroupStage *matchRecordResponse `json:"group_stage,omitempty"`
	Withdrawn  bool                 `json:"withdrawn"`
}

// matchRecordResponse counts an entry's matches: a standing's (its
// members are the standing's own), or its group stage's alone.
type matchRecordResponse struct {
	Played    int `json:"played"`
	Wins      int `json:"wins"`
	Draws     int `json:"draws"`
	Losses    int `json:"losses"`
	Byes      int `json:"byes"`
	Sequences int `json:"sequences"`
}

type tieBreakResponse struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

func toTournamentBody(c league.TournamentConfig) tournamentBody {
	b := tournamentBody{Game: c.Game, Variant: c.Variant, SequencesToWin: c.SequencesToWin, TeamSize: c.TeamSize, MatchSize: c.MatchSize,
		Format: c.Format, BestOf: c.BestOf, Double: c.Double, Rounds: c.Rounds, ThirdPlace: c.ThirdPlace, Reset: c.Reset,
		Groups: c.Groups, Advance: c.Advance, TieBreaks: c.TieBreaks, FillLevel: c.FillLevel, Rated: c.Rated,
		RegistrationOpens: inUTCPtr(c.RegistrationOpens), RegistrationCloses: inUTCPtr(c.RegistrationCloses), MinRating: c.MinRating,
		MaxRating: c.MaxRating, MinGames: c.MinGames, Seeding: c.Seeding, NoShow: c.NoShow, AtDeadline: c.AtDeadline,
		RoundGapSeconds: c.RoundGapSeconds}
	if c.Clock.Timed() {
		b.Clock = &clockBody{TurnSeconds: c.Clock.TurnSeconds, BankSeconds: c.Clock.BankSeconds, IncrementSeconds: c.Clock.IncrementSeconds}
	}
	return b
}

// inUTCPtr is t in UTC. A tournament's registration window is kept in its
// stored settings (JSON) as it was given, and windows given with an offset
// before requests were bound in UTC are still stored so.
func inUTCPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func (b tournamentBody) config() league.TournamentConfig {
	c := league.TournamentConfig{Game: b.Game, Variant: b.Variant, SequencesToWin: b.SequencesToWin, TeamSize: b.TeamSize,
		MatchSize: b.MatchSize, Format: b.Format, BestOf: b.BestOf, Double: b.Double, Rounds: b.Rounds, ThirdPlace: b.ThirdPlace,
		Reset: b.Reset, Groups: b.Groups, Advance: b.Advance, TieBreaks: b.TieBreaks, FillLevel: b.FillLevel, Rated: b.Rated,
		RegistrationOpens: b.RegistrationOpens, RegistrationCloses: b.RegistrationCloses, MinRating: b.MinRating,
		MaxRating: b.MaxRating, MinGames: b.MinGames, Seeding: b.Seeding, NoShow: b.NoShow, AtDeadline: b.AtDeadline,
		RoundGapSeconds: b.RoundGapSeconds}
	if b.Clock != nil {
		c.Clock = league.Clock{TurnSeconds: b.Clock.TurnSeconds, BankSeconds: b.Clock.BankSeconds, IncrementSeconds: b.Clock.IncrementSeconds}
	}
	return c
}

func toTournamentResponse(t *league.Tournament) tournamentResponse {
	return tournamentResponse{ID: t.ID, ClubID: t.ClubID, SeasonID: t.SeasonID, Name: t.Name, Status: t.Status, CurrentRound: t.CurrentRound,
		RoundsPlanned: t.RoundsPlanned, Entries: t.Entries, CreatedAt: t.CreatedAt, StartedAt: t.StartedAt, FinishedAt: t.FinishedAt, CancelledAt: t.CancelledAt,
		tournamentBody: toTournamentBody(t.Config)}
}

func toEntryResponse(e league.Entry) entryResponse {
	r := entryResponse{ID: e.ID, Name: e.Name, CaptainID: e.CaptainID, Seed: e.Seed, Rating: e.Rating, Status: e.Status, Members: []memberBody{}}
	for _, m := range e.Members {
		r.Members = append(r.Members, memberBody{User: m.UserID, Username: m.Username, Bot: m.Bot})
	}
	return r
}

func toRoundResponses(rounds []league.TournamentRound) []roundResponse {
	out := make([]roundResponse, 0, len(rounds))
	for _, r := range rounds {
		rr := roundResponse{Number: r.Number, StartsAt: r.StartsAt, StartedAt: r.StartedAt, Deadline: r.Deadline,
			PlannedDeadline: r.PlannedDeadline, Status: r.Status, StartError: r.StartError, Matches: []matchResponse{}}
		for _, m := range r.Matches {
			mr := matchResponse{ID: m.ID, Entries: m.Entries, Bye: m.Bye, Status: m.Status, Winner: m.Winner,
				GameWinners: m.GameWinners, Sequences: m.Sequences, Forfeited: m.Forfeited, Beaten: m.Beaten, Games: m.Games}
			if mr.Forfeited == nil {
				mr.Forfeited = []string{}
			}
			mr.StandIns = []standInResponse{}
			for _, si := range m.StandIns {
				sr := standInResponse{EntryID: si.EntryID, Games: si.Games, Players: []standInPlayer{}}
				for _, p := range si.Players {
					sr.Players = append(sr.Players, standInPlayer{User: p.UserID, Username: p.Username})
				}
				mr.StandIns = append(mr.StandIns, sr)
			}
			if mr.GameWinners == nil {
				mr.GameWinners = []string{}
			}
			if mr.Sequences == nil {
				mr.Sequences = []int{}
			}
			if mr.Games == nil {
				mr.Games = []string{}
			}
			rr.Matches = append(rr.Matches, mr)
		}
		out = append(out, rr)
	}
	return out
}

func mountCompetitions(api *echo.Group, d Deps) {
	h := competitionHandlers{leagues: d.Leagues, tournaments: d.Tournaments, publicURL: d.Auth.Issuer}
	required, optional := authRequired(d), authOptional(d)
	api.POST("/clubs/:id/leagues", h.createLeague, required)
	api.GET("/clubs/:id/leagues", h.leaguesOfClub, optional)
	api.GET("/leagues/:id", h.league, optional)
	api.PATCH("/leagues/:id", h.updateLeague, required)
	api.POST("/leagues/:id/seasons", h.createSeason, required)
	api.GET("/leagues/:id/seasons", h.seasons, optional)
	api.PATCH("/seasons/:id", h.updateSeason, required)
	api.GET("/seasons/:id/standings", h.seasonStandings, optional)
	api.POST("/seasons/:id/close", h.closeSeason, required)

	api.POST("/tournaments", h.createTournament, required)
	api.GET("/tournaments", h.listTournaments, optional)
	api.GET("/tournaments/:id", h.tournament, optional)
	api.PATCH("/tournaments/:id", h.updateTournament, required)
	api.POST("/tournaments/:id/entries", h.register, required)
	api.GET("/tournaments/:id/entries", h.entries, optional)
	api.DELETE("/tournaments/:id/entries", h.withdraw, required)
	api.POST("/tournaments/:id/entries/:entry/reinstate", h.reinstate, required)
	api.POST("/tournaments/:id/rounds", h.schedule, required)
	api.GET("/tournaments/:id/rounds", h.rounds, optional)
	api.PATCH("/tournaments/:id/rounds/:number", h.moveDeadline, required)
	api.GET("/tournaments/:id/bracket", h.bracket, optional)
	api.GET("/tournaments/:id/standings", h.standings, optional)
	api.GET("/tournaments/:id/standings.csv", h.standingsCSV, optional)
	api.GET("/tournaments/:id/calendar.ics", h.calendar, optional)
	api.GET("/users/:id/tournaments", h.userTournaments, optional)
	api.GET("/users/:id/open-tournaments", h.openTournaments, optional)
}

type competitionHandlers struct {
	leagues     league.Leagues
	tournaments league.Tournaments
	publicURL   string
}

func (h competitionHandlers) createLeague(c echo.Context) error {
	var req nameBody
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	l, err := h.leagues.CreateLeague(c.Request().Context(), actorOf(c), c.Param("id"), req.Name, req.Description)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, leagueResponse{ID: l.ID, ClubID: l.ClubID, Name: l.Name, Description: l.Description, CreatedAt: l.CreatedAt})
}

func (h competitionHandlers) leaguesOfClub(c echo.Context) error {
	p, err := pageRequest(c)
	if err != nil {
		return err
	}
	page, err := h.leagues.Leagues(c.Request().Context(), c.Param("id"), p)
	if err != nil {
		return err
	}
	out := listResponse[leagueResponse]{Items: make([]leagueResponse, len(page.Items)), NextCursor: page.NextCursor}
	for i, l := range page.Items {
		out.Items[i] = leagueResponse{ID: l.ID, ClubID: l.ClubID, Name: l.Name, Description: l.Description, CreatedAt: l.CreatedAt}
	}
	return c.JSON(http.StatusOK, out)
}

func (h competitionHandlers) league(c echo.Context) error {
	l, err := h.leagues.League(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, leagueResponse{ID: l.ID, ClubID: l.ClubID, Name: l.Name, Description: l.Description, CreatedAt: l.CreatedAt})
}

func (h competitionHandlers) updateLeague(c echo.Context) error {
	var req updateLeagueRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	l, err := h.leagues.UpdateLeague(c.Request().Context(), actorOf(c), c.Param("id"),
		league.LeagueUpdate{Name: req.Name, Description: req.Description})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, leagueResponse{ID: l.ID, ClubID: l.ClubID, Name: l.Name, Description: l.Description, CreatedAt: l.CreatedAt})
}

func toSeasonResponse(s league.Season) seasonResponse {
	return seasonResponse{ID: s.ID, LeagueID: s.LeagueID, Name: s.Name, Status: s.Status, CreatedAt: s.CreatedAt, ClosedAt: s.ClosedAt}
}

func (h competitionHandlers) createSeason(c echo.Context) error {
	var req createSeasonRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	s, err := h.leagues.CreateSeason(c.Request().Context(), actorOf(c), c.Param("id"), req.Name)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toSeasonResponse(*s))
}

func (h competitionHandlers) updateSeason(c echo.Context) error {
	var req updateSeasonRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	s, err := h.leagues.UpdateSeason(c.Request().Context(), actorOf(c), c.Param("id"), league.SeasonUpdate{Name: req.Name})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toSeasonResponse(*s))
}

func (h competitionHandlers) seasons(c echo.Context) error {
	p, err := pageRequest(c)
	if err != nil {
		return err
	}
	page, err := h.leagues.Seasons(c.Request().Context(), c.Param("id"), p)
	if err != nil {
		return err
	}
	out := listResponse[seasonResponse]{Items: make([]seasonResponse, len(page.Items)), NextCursor: page.NextCursor}
	for i, s := range page.Items {
		out.Items[i] = toSeasonResponse(s)
	}
	return c.JSON(http.StatusOK, out)
}

func seasonTableResponse(t *league.SeasonTable) map[string]any {
	rows := make([]seasonRowResponse, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = seasonRowResponse{Rank: r.Rank, UserID: r.UserID, Username: r.Username, Points: r.Points, Tournaments: r.Tournaments,
			Titles: r.Titles, MatchWins: r.MatchWins, Sequences: r.Sequences}
	}
	return map[string]any{"season": toSeasonResponse(t.Season), "frozen": t.Frozen, "rows": rows,
		"tie_breaks": league.SeasonTieBreakNames()}
}

func (h competitionHandlers) seasonStandings(c echo.Context) error {
	t, err := h.leagues.SeasonStandings(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, seasonTableResponse(t))
}

func (h competitionHandlers) closeSeason(c echo.Context) error {
	t, err := h.leagues.CloseSeason(c.Request().Context(), actorOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, seasonTableResponse(t))
}

func (h competitionHandlers) createTournament(c echo.Context) error {
	var req createTournamentRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	t, err := h.tournaments.Create(c.Request().Context(), actorOf(c), league.NewTournament{ClubID: req.ClubID, SeasonID: req.SeasonID, Name: req.Name, Config: req.config()})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toTournamentResponse(t))
}

func (h competitionHandlers) listTournaments(c echo.Context) error {
	club, season := c.QueryParam("club"), c.QueryParam("season")
	if club == "" && season == "" {
		return league.Invalid("name a club or a season", league.FieldError{Field: "club", Message: "?club= or ?season= is required"})
	}
	p, err := pageRequest(c)
	if err != nil {
		return err
	}
	page, err := h.tournaments.List(c.Request().Context(), club, season, p)
	if err != nil {
		return err
	}
	out := listResponse[tournamentResponse]{Items: make([]tournamentResponse, len(page.Items)), NextCursor: page.NextCursor}
	for i := range page.Items {
		out.Items[i] = toTournamentResponse(&page.Items[i])
	}
	return c.JSON(http.StatusOK, out)
}

func (h competitionHandlers) tournament(c echo.Context) error {
	t, err := h.tournaments.Get(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toTournamentResponse(t))
}

func (h competitionHandlers) updateTournament(c echo.Context) error {
	var req updateTournamentRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	t, err := h.tournaments.Update(c.Request().Context(), actorOf(c), c.Param("id"), league.TournamentUpdate{Name: req.Name, Status: req.Status})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toTournamentResponse(t))
}

func (h competitionHandlers) register(c echo.Context) error {
	var req entryRequest
	if err := bindOptionalJSON(c, &req); err != nil {
		return err
	}
	e := league.NewEntry{Name: req.Name, Seed: req.Seed}
	for _, m := range req.Members {
		member := league.EntryMember{UserID: m.User, Bot: m.Bot}
		if m.User == "me" {
			member.UserID = actorOf(c).UserID
		}
		e.Members = append(e.Members, member)
	}
	entry, err := h.tournaments.Register(c.Request().Context(), actorOf(c), c.Param("id"), e)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toEntryResponse(*entry))
}

func (h competitionHandlers) entries(c echo.Context) error {
	p, err := pageRequest(c)
	if err != nil {
		return err
	}
	page, err := h.tournaments.Entries(c.Request().Context(), c.Param("id"), p)
	if err != nil {
		return err
	}
	out := listResponse[entryResponse]{Items: make([]entryResponse, len(page.Items)), NextCursor: page.NextCursor}
	for i, e := range page.Items {
		out.Items[i] = toEntryResponse(e)
	}
	return c.JSON(http.StatusOK, out)
}

func (h competitionHandlers) withdraw(c echo.Context) error {
	entry := c.QueryParam("entry")
	if entry == "" {
		return league.Invalid("name the entry", league.FieldError{Field: "entry", Message: "?entry=ID is required"})
	}
	if err := h.tournaments.Withdraw(c.Request().Context(), actorOf(c), c.Param("id"), entry); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// reinstate puts a withdrawn entry back in (organizers).
func (h competitionHandlers) reinstate(c echo.Context) error {
	e, err := h.tournaments.Reinstate(c.Request().Context(), actorOf(c), c.Param("id"), c.Param("entry"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toEntryResponse(*e))
}

// Bounds of a schedule given as a first start, a count and an interval. A
// month between rounds is a monthly league night; anything longer is no
// series of rounds, and unbounded seconds overflow the time arithmetic
// (10^15 s put round 2 in 2093). A round's deadline gets the same month.
const (
	maxScheduledRounds = 200
	maxRoundInterval   = 31 * 86400
)

// seriesFields names the fields of a schedule given as a series in an
// error about the rounds it stands for: a round's number comes from count
// (the first's from first_round, when given), its start from first_start
// and interval_seconds, its deadline from deadline_seconds. A round's
// number refused is said of the series' rounds, first to first+count−1:
// "must be 1–3" alone, of count, read as a bound on count.
func seriesFields(err error, req scheduleRequest) error {
	var e *league.Error
	if !errors.As(err, &e) || len(e.Fields) == 0 {
		return err
	}
	out := *e
	out.Fields = nil
	seen := map[string]bool{}
	for _, f := range e.Fields {
		name := "first_start" // round 1's start, or the series' order
		msg := f.Message
		if strings.HasSuffix(f.Field, ".number") && strings.HasPrefix(f.Message, "must be") {
			first := 1
			if req.FirstRound != nil {
				first = *req.FirstRound
			}
			msg = fmt.Sprintf("the series is rounds %d–%d, and a round's number %s", first, first+req.Count-1, f.Message)
		}
		switch {
		case f.Field == "rounds[0].number" && req.FirstRound != nil:
			name = "first_round"
		case strings.HasSuffix(f.Field, ".number"):
			name = "count"
		case strings.HasSuffix(f.Field, ".deadline"):
			name = "deadline_seconds"
		case strings.HasSuffix(f.Field, ".starts_at") && !strings.HasPrefix(f.Field, "rounds[0]."):
			name = "count" // a later round runs past the horizon
		}
		if !seen[name] {
			seen[name] = true
			out.Fields = append(out.Fields, league.FieldError{Field: name, Message: msg})
		}
	}
	return &out
}

func checkScheduleSpan(req scheduleRequest) error {
	var fields []league.FieldError
	if req.Count < 1 || req.Count > maxScheduledRounds {
		fields = append(fields, league.FieldError{Field: "count", Message: fmt.Sprintf("must be 1–%d rounds", maxScheduledRounds)})
	}
	// one round needs no interval
	if req.IntervalSeconds < 1 && req.Count > 1 || req.IntervalSeconds < 0 || req.IntervalSeconds > maxRoundInterval {
		fields = append(fields, league.FieldError{Field: "interval_seconds", Message: fmt.Sprintf("must be 1–%d (31 days)", maxRoundInterval)})
	}
	if req.DeadlineSeconds < 0 || req.DeadlineSeconds > maxRoundInterval {
		fields = append(fields, league.FieldError{Field: "deadline_seconds", Message: fmt.Sprintf("must be 0 (none) to %d (31 days)", maxRoundInterval)})
	}
	if len(fields) > 0 {
		return league.Invalid("the schedule cannot be set up", fields...)
	}
	return nil
}

func (h competitionHandlers) schedule(c echo.Context) error {
	var req scheduleRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	// Either form alone: rounds and a whole event together were run as one
	// list, whose faults named rounds[i] past the end of the client's.
	if f := req.FirstRound; f != nil && (*f < 1 || *f > maxScheduledRounds) {
		return league.Invalid("the schedule cannot be set up", league.FieldError{Field: "first_round", Message: fmt.Sprintf("must be 1–%d (1 if left out)", maxScheduledRounds)})
	}
	if len(req.Rounds) > 0 && (req.FirstStart != nil || req.FirstRound != nil || req.Count != 0 || req.IntervalSeconds != 0 || req.DeadlineSeconds != 0) {
		return league.Invalid("the schedule cannot be set up", league.FieldError{Field: "rounds",
			Message: "give rounds, or a series (first_start, first_round, count, interval_seconds, deadline_seconds), not both"})
	}
	var rounds []league.RoundSchedule
	for i, r := range req.Rounds {
		if r.StartsAt == nil {
			return league.Invalid("a round needs a start", league.FieldError{Field: fmt.Sprintf("rounds[%d].starts_at", i), Message: "required"})
		}
		rounds = append(rounds, league.RoundSchedule{Number: r.Number, StartsAt: *r.StartsAt, Deadline: r.Deadline})
	}
	if req.FirstStart == nil && (req.FirstRound != nil || req.Count != 0 || req.IntervalSeconds != 0 || req.DeadlineSeconds != 0) {
		return league.Invalid("the schedule cannot be set up", league.FieldError{Field: "first_start", Message: "required with count and interval_seconds"})
	}
	if req.FirstStart != nil {
		if err := checkScheduleSpan(req); err != nil {
			return err
		}
		first := 1
		if req.FirstRound != nil {
			first = *req.FirstRound
		}
		for i := 0; i < req.Count; i++ {
			start := req.FirstStart.Add(time.Duration(i*req.IntervalSeconds) * time.Second)
			rs := league.RoundSchedule{Number: first + i, StartsAt: start}
			if req.DeadlineSeconds > 0 {
				d := start.Add(time.Duration(req.DeadlineSeconds) * time.Second)
				rs.Deadline = &d
			}
			rounds = append(rounds, rs)
		}
	}
	out, err := h.tournaments.Schedule(c.Request().Context(), actorOf(c), c.Param("id"), rounds)
	if err != nil {
		if req.FirstStart != nil && len(req.Rounds) == 0 {
			return seriesFields(err, req)
		}
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"rounds": toRoundResponses(out)})
}

// deadlineRequest moves a round's deadline.
type deadlineRequest struct {
	Deadline *time.Time `json:"deadline"`
}

func (h competitionHandlers) moveDeadline(c echo.Context) error {
	var req deadlineRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	// 32 bits, as the column is: a larger number is no round either (it
	// reached PostgreSQL and failed there, a 500).
	n, err := strconv.ParseInt(c.Param("number"), 10, 32)
	if err != nil || n < 1 {
		return league.Errorf(league.ENOTFOUND, "no round %q: rounds are numbered from 1", c.Param("number"))
	}
	if req.Deadline == nil {
		return league.Invalid("a round needs a deadline", league.FieldError{Field: "deadline", Message: "required"})
	}
	rd, err := h.tournaments.MoveDeadline(c.Request().Context(), actorOf(c), c.Param("id"), int(n), *req.Deadline)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toRoundResponses([]league.TournamentRound{*rd})[0])
}

func (h competitionHandlers) rounds(c echo.Context) error {
	rs, err := h.tournaments.Rounds(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"rounds": toRoundResponses(rs)})
}

func (h competitionHandlers) bracket(c echo.Context) error {
	b, err := h.tournaments.Bracket(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, b)
}

func toMatchRecordResponse(m league.MatchRecord) matchRecordResponse {
	return matchRecordResponse{Played: m.Played, Wins: m.Wins, Draws: m.Draws, Losses: m.Losses, Byes: m.Byes, Sequences: m.Sequences}
}

func toStandingResponses(rows []league.StandingRow) []standingResponse {
	out := make([]standingResponse, len(rows))
	for i, r := range rows {
		out[i] = standingResponse{Rank: r.Rank, EntryID: r.EntryID, Name: r.Name, matchRecordResponse: toMatchRecordResponse(r.MatchRecord),
			Points: r.Points, TieBreaks: []tieBreakResponse{}, Group: r.Group, GroupRank: r.GroupRank, Qualified: r.Qualified, Withdrawn: r.Withdrawn}
		if g := r.GroupStage; g != nil {
			rec := toMatchRecordResponse(*g)
			out[i].GroupStage = &rec
		}
		for _, tb := range r.TieBreaks {
			out[i].TieBreaks = append(out[i].TieBreaks, tieBreakResponse{Name: tb.Name, Value: tb.Value})
		}
	}
	return out
}

func (h competitionHandlers) standings(c echo.Context) error {
	rows, err := h.tournaments.Standings(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"items": toStandingResponses(rows)})
}

// standingsCSV exports the standings with one column per tie-break
// (tie_break_<name>).
func (h competitionHandlers) standingsCSV(c echo.Context) error {
	ctx := c.Request().Context()
	t, err := h.tournaments.Get(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	rows, err := h.tournaments.Standings(ctx, t.ID)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	header := []string{"rank", "entry", "played", "wins", "draws", "losses", "byes", "points", "sequences", "withdrawn"}
	// groups then playoffs, once the groups are drawn: each row's group and
	// its rank there, as the JSON rows say
	grouped := len(rows) > 0 && rows[0].Group != ""
	if grouped {
		header = append(header, "group", "group_rank", "qualified")
	}
	if len(rows) > 0 {
		// Tie-breaks reuse the names of the record's columns (wins,
		// sequences), so their columns are prefixed to keep every header
		// distinct for spreadsheets and CSV readers keyed by name.
		for _, tb := range rows[0].TieBreaks {
			header = append(header, "tie_break_"+tb.Name)
		}
	}
	w.Write(header)
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	for _, r := range rows {
		rec := []string{strconv.Itoa(r.Rank), csvSafe(r.Name), strconv.Itoa(r.Played), strconv.Itoa(r.Wins), strconv.Itoa(r.Draws),
			strconv.Itoa(r.Losses), strconv.Itoa(r.Byes), num(r.Points), strconv.Itoa(r.Sequences), strconv.FormatBool(r.Withdrawn)}
		if grouped {
			rec = append(rec, r.Group, strconv.Itoa(r.GroupRank), strconv.FormatBool(r.Qualified))
		}
		for _, tb := range r.TieBreaks {
			rec = append(rec, num(tb.Value))
		}
		w.Write(rec)
	}
	w.Flush()
	c.Response().Header().Set(echo.HeaderContentDisposition, attachmentOf(t.Name, "standings.csv"))
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
}

// attachmentOf is the Content-Disposition of one of a tournament's files:
// the file named after the tournament ("Friday Cup" → friday-cup-standings.csv).
// Every tournament's file was standings.csv (or calendar.ics), so an
// organizer's second download saved as "standings (1).csv", which said
// nothing of whose standings it held. A name of ASCII letters and digits
// goes in filename; another ("Coupe d'été" → coupe-d-été-standings.csv) in
// filename*, in UTF-8, which all of today's browsers read, filename
// keeping the bare file for any other.
func attachmentOf(tournament, file string) string {
	stem := fileStem(tournament)
	if stem == "" {
		return `attachment; filename="` + file + `"`
	}
	for _, r := range stem {
		if r >= utf8.RuneSelf {
			return `attachment; filename="` + file + `"; filename*=UTF-8''` + url.PathEscape(stem+"-"+file)
		}
	}
	return `attachment; filename="` + stem + "-" + file + `"`
}

// fileStem is a name in lower case with every run of other characters
// than letters and digits made one hyphen, at most 60 characters long.
func fileStem(name string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(name) {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			gap = b.Len() > 0
			continue
		}
		if gap {
			b.WriteByte('-')
			gap = false
		}
		b.WriteRune(r)
	}
	stem := []rune(b.String())
	if len(stem) > 60 {
		stem = stem[:60]
	}
	return strings.TrimRight(string(stem), "-")
}

// csvSafe keeps a spreadsheet from reading a name as a formula: a leading
// apostrophe makes it text, and spreadsheets show the cell without it. A
// name that starts with an apostrophe gets one too, or "'=1" would show
// as "=1", the same as the escaped name "=1".
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r'", rune(s[0])) {
		return "'" + s
	}
	return s
}

// calendar exports the round schedule as iCalendar.
func (h competitionHandlers) calendar(c echo.Context) error {
	ctx := c.Request().Context()
	t, err := h.tournaments.Get(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	rounds, err := h.tournaments.Rounds(ctx, t.ID)
	if err != nil {
		return err
	}
	var b strings.Builder
	line := func(s string) { b.WriteString(foldICal(s)); b.WriteString("\r\n") }
	stamp := func(at time.Time) string { return at.UTC().Format("20060102T150405Z") }
	line("BEGIN:VCALENDAR")
	line("VERSION:2.0")
	line("PRODID:-//Seqleague//Tournaments//EN")
	line("CALSCALE:GREGORIAN")
	line("X-WR-CALNAME:" + escapeICal(t.Name))
	cancelled := t.Status == league.TournamentCancelled && t.CancelledAt != nil
	for _, r := range rounds {
		// A round that has started is in the calendar when it started (a
		// round scheduled in the past starts at once, one started by hand
		// may have had no schedule at all).
		start := r.StartedAt
		if start == nil {
			start = r.StartsAt
		}
		if start == nil {
			continue
		}
		end := start.Add(time.Hour)
		if r.Deadline != nil && r.Deadline.After(*start) {
			end = *r.Deadline
		}
		line("BEGIN:VEVENT")
		line(fmt.Sprintf("UID:%s-round-%d@seqleague", t.ID, r.Number))
		// Each change to a round's event after it was published counts one
		// revision (SEQUENCE), stamped (DTSTAMP) with the latest, so that
		// subscribed calendars take it over the copy they hold. A round that started
		// late is one: its start and (it keeps its planned length) its
		// deadline moved later. A cancelled tournament's rounds not played
		// out stay in the calendar marked cancelled, not dropped: a
		// subscribed calendar shows a dropped event as simply gone, a
		// cancelled one as called off; that is one more.
		// An organizer's changes to its times (rescheduled, its deadline
		// moved) count one each.
		revision, revised := r.Revision, t.CreatedAt
		later := func(at time.Time) {
			if at.After(revised) {
				revised = at
			}
		}
		if r.RevisedAt != nil {
			later(*r.RevisedAt)
		}
		if league.LateBy(r.StartsAt, r.StartedAt) > 0 {
			revision++
			later(*r.StartedAt)
		}
		off := cancelled && r.Status != "finished"
		if off {
			revision++
			later(*t.CancelledAt)
		}
		line("DTSTAMP:" + stamp(revised))
		if revision > 0 {
			line(fmt.Sprintf("SEQUENCE:%d", revision))
		}
		if off {
			line("STATUS:CANCELLED")
		}
		line("DTSTART:" + stamp(*start))
		line("DTEND:" + stamp(end))
		summary := fmt.Sprintf("%s: round %d", t.Name, r.Number)
		if off {
			summary += " (cancelled)"
		}
		line(escapeICalSummary(summary))
		line("URL:" + h.publicURL + "/tournaments/" + t.ID)
		line("END:VEVENT")
	}
	line("END:VCALENDAR")
	c.Response().Header().Set(echo.HeaderContentDisposition, attachmentOf(t.Name, "calendar.ics"))
	return c.Blob(http.StatusOK, "text/calendar; charset=utf-8", []byte(b.String()))
}

func escapeICal(s string) string {
	return strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\n", `\n`, "\r", "").Replace(s)
}

func escapeICalSummary(s string) string { return "SUMMARY:" + escapeICal(s) }

// foldICal folds lines longer than 75 octets, as RFC 5545 (3.1) asks. The
// space that opens a continuation line counts in its 75: a continuation
// of 75 octets of text is a line of 76.
func foldICal(s string) string {
	if len(s) <= 75 {
		return s
	}
	var b strings.Builder
	for room := 75; len(s) > room; room = 74 {
		cut := room
		for cut > 0 && (s[cut]&0xC0) == 0x80 { // do not split a UTF-8 sequence
			cut--
		}
		b.WriteString(s[:cut])
		b.WriteString("\r\n ")
		s = s[cut:]
	}
	b.WriteString(s)
	return b.String()
}

type userTournamentResponse struct {
	tournamentResponse
	EntryID   string     `json:"entry_id"`
	EntryName string     `json:"entry_name"`
	Withdrawn bool       `json:"withdrawn,omitempty"`
	NextRound int        `json:"next_round,omitempty"`
	NextStart *time.Time `json:"next_start,omitempty"`
	// The entry's own next step (see league.UserTournament).
	EntryMatch     *entryMatchResponse     `json:"entry_match,omitempty"`
	EntryNextRound *entryNextRoundResponse `json:"entry_next_round,omitempty"`
	EntryWaiting   bool                    `json:"entry_waiting,omitempty"`
	KnockedOut     bool                    `json:"knocked_out,omitempty"`
}

type entryMatchResponse struct {
	Round   int    `json:"round"`
	MatchID string `json:"match_id"`
	Status  string `json:"status"`
	Bye     bool   `json:"bye"`
	GameID  string `json:"game_id,omitempty"`
}

type entryNextRoundResponse struct {
	Number    int        `json:"number"`
	StartsAt  *time.Time `json:"starts_at,omitempty"`
	IfThrough bool       `json:"if_through"`
}

func (h competitionHandlers) openTournaments(c echo.Context) error {
	p, err := pageRequest(c)
	if err != nil {
		return err
	}
	page, err := h.tournaments.OpenFor(c.Request().Context(), c.Param("id"), p)
	if err != nil {
		return err
	}
	out := listResponse[openTournamentResponse]{Items: make([]openTournamentResponse, len(page.Items)), NextCursor: page.NextCursor}
	for i := range page.Items {
		out.Items[i] = openTournamentResponse{tournamentResponse: toTournamentResponse(&page.Items[i].Tournament), ClubName: page.Items[i].ClubName, Barred: page.Items[i].Barred}
	}
	return c.JSON(http.StatusOK, out)
}

type openTournamentResponse struct {
	tournamentResponse
	ClubName string `json:"club_name"`
	Barred   string `json:"barred,omitempty"`
}

func (h competitionHandlers) userTournaments(c echo.Context) error {
	p, err := pageRequest(c)
	if err != nil {
		return err
	}
	page, err := h.tournaments.ForUser(c.Request().Context(), c.Param("id"), p)
	if err != nil {
		return err
	}
	out := listResponse[userTournamentResponse]{Items: make([]userTournamentResponse, len(page.Items)), NextCursor: page.NextCursor}
	for i, ut := range page.Items {
		out.Items[i] = userTournamentResponse{tournamentResponse: toTournamentResponse(&ut.Tournament), EntryID: ut.EntryID,
			EntryName: ut.EntryName, Withdrawn: ut.Withdrawn, NextRound: ut.NextRound, NextStart: ut.NextStart,
			EntryWaiting: ut.EntryWaiting, KnockedOut: ut.KnockedOut}
		if m := ut.EntryMatch; m != nil {
			out.Items[i].EntryMatch = &entryMatchResponse{Round: m.Round, MatchID: m.MatchID, Status: m.Status, Bye: m.Bye, GameID: m.GameID}
		}
		if n := ut.EntryNextRound; n != nil {
			out.Items[i].EntryNextRound = &entryNextRoundResponse{Number: n.Number, StartsAt: n.StartsAt, IfThrough: n.IfThrough}
		}
	}
	return c.JSON(http.StatusOK, out)
}
