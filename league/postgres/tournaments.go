package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/seqleague/seqleague/engine/play"
	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/engine/sequence"
	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/competition"
	"github.com/seqleague/seqleague/league/rating"
)

type tournamentRow struct {
	ID       string `gorm:"primaryKey;type:uuid;default:gen_random_uuid()"`
	ClubID   string
	SeasonID *string
	Name     string
	Config   []byte `gorm:"type:jsonb"`
	Status   string
	Bracket  []byte `gorm:"type:jsonb"`
	// Schedule: a round robin's or group stage's rounds as drawn at the
	// start (competition.Config.Schedule; 00033).
	Schedule     []byte `gorm:"type:jsonb"`
	CurrentRound int
	CreatedBy    *string
	CreatedAt    time.Time
	StartedAt    *time.Time
	FinishedAt   *time.Time
	CancelledAt  *time.Time
}

func (tournamentRow) TableName() string { return "tournaments" }

type entryRow struct {
	ID           string `gorm:"primaryKey;type:uuid;default:gen_random_uuid()"`
	TournamentID string
	Name         string
	CaptainID    *string
	Seed         int
	Rating       float64
	Status       string
	CreatedAt    time.Time
}

func (entryRow) TableName() string { return "entries" }

type entryMemberRow struct {
	EntryID      string `gorm:"primaryKey"`
	TournamentID string
	Position     int `gorm:"primaryKey"`
	UserID       *string
	BotLevel     *string
	Username     string `gorm:"->;-:migration"`
}

func (entryMemberRow) TableName() string { return "entry_members" }

type roundRow struct {
	TournamentID string `gorm:"primaryKey"`
	Number       int    `gorm:"primaryKey"`
	StartsAt     *time.Time
	Deadline     *time.Time
	// PlannedDeadline is the deadline before a late start moved it (see
	// keepRoundLengthLocked); NULL when it is as planned.
	PlannedDeadline *time.Time
	Status          string
	PairedAt        *time.Time
	FinishedAt      *time.Time
	// StartError is why the round's start last failed for good (NULL once
	// it is paired, or scheduled again: the scheduling writes every column).
	StartError *string
	// Revision counts an organizer's changes to the round's times since it
	// was first scheduled, the last at RevisedAt (see calendar.ics).
	Revision  int
	RevisedAt *time.Time
}

func (roundRow) TableName() string { return "rounds" }

type matchRow struct {
	TournamentID string `gorm:"primaryKey"`
	ID           string `gorm:"primaryKey"`
	Round        int
	Entries      []byte `gorm:"type:jsonb"`
	Bye          bool
	Status       string
	Winner       *string
	GameWinners  []byte `gorm:"type:jsonb"`
	Sequences    []byte `gorm:"type:jsonb"`
	Forfeited    []byte `gorm:"type:jsonb"` // entries found absent: they forfeited the rest of the series
	FinishedAt   *time.Time
}

func (matchRow) TableName() string { return "matches" }

// The accessors below decode a row's JSON columns. A row read from the
// database has been checked by its AfterFind hook, so they cannot meet a
// corrupt column: a tournament or match whose stored JSON does not decode
// fails the query that read it (a 500), rather than reading as an empty
// set-up, a fresh schedule or a series without games, which would decide
// results from nothing.
func (m matchRow) entries() []string   { var s []string; _ = decodeJSON(m.Entries, &s); return s }
func (m matchRow) winners() []string   { var s []string; _ = decodeJSON(m.GameWinners, &s); return s }
func (m matchRow) sequences() []int    { var s []int; _ = decodeJSON(m.Sequences, &s); return s }
func (m matchRow) forfeited() []string { var s []string; _ = decodeJSON(m.Forfeited, &s); return s }
func mustJSON(v any) []byte            { b, _ := json.Marshal(v); return b }
func (r *tournamentRow) config() league.TournamentConfig {
	var c league.TournamentConfig
	_ = decodeJSON(r.Config, &c)
	return c
}

// decodeJSON decodes a JSON column; an empty one (NULL, or not selected)
// leaves v as it is.
func decodeJSON(b []byte, v any) error {
	if len(b) == 0 {
		return nil
	}
	return json.Unmarshal(b, v)
}

// check decodes every JSON column of the match row.
func (m *matchRow) check() error {
	var ss []string
	var is []int
	for _, c := range []struct {
		name string
		b    []byte
		v    any
	}{{"entries", m.Entries, &ss}, {"game_winners", m.GameWinners, &ss}, {"sequences", m.Sequences, &is}, {"forfeited", m.Forfeited, &ss}} {
		if err := decodeJSON(c.b, c.v); err != nil {
			return fmt.Errorf("match %s of tournament %s: stored %s: %w", m.ID, m.TournamentID, c.name, err)
		}
	}
	return nil
}

// AfterFind refuses a match row whose stored JSON is corrupt.
func (m *matchRow) AfterFind(*gorm.DB) error { return m.check() }

// check decodes the tournament row's set-up and schedule. (Its bracket
// is decoded where it is used, by bracket(), which returns the error.)
func (r *tournamentRow) check() error {
	var c league.TournamentConfig
	if err := decodeJSON(r.Config, &c); err != nil {
		return fmt.Errorf("tournament %s: stored config: %w", r.ID, err)
	}
	var sc []competition.Round
	if err := decodeJSON(r.Schedule, &sc); err != nil {
		return fmt.Errorf("tournament %s: stored schedule: %w", r.ID, err)
	}
	return nil
}

// AfterFind refuses a tournament row whose stored JSON is corrupt.
func (r *tournamentRow) AfterFind(*gorm.DB) error { return r.check() }

// Tournaments implements league.Tournaments.
type Tournaments struct {
	db     *gorm.DB
	games  *Games
	tasks  league.CompetitionTasks
	logger *slog.Logger
	now    func() time.Time
	budget creationBudget
	// beforeDeadlineWork, set by tests only, holds a deadline's task
	// between its read of the tournament's status and its work on the
	// games, where a pause must not slip in.
	beforeDeadlineWork func()
}

var _ league.Tournaments = (*Tournaments)(nil)

// NewTournaments builds the tournament service; it creates its games
// through games, and hangs its result handling on their settlement.
func NewTournaments(db *DB, games *Games, tasks league.CompetitionTasks, logger *slog.Logger) *Tournaments {
	if logger == nil {
		logger = slog.Default()
	}
	t := &Tournaments{db: db.Gorm, games: games, tasks: tasks, logger: logger, now: storedNow,
		budget: creationBudget{table: "tournaments", what: "tournaments"}}
	games.AddSettler(t)
	return t
}

// WithDailyLimit bounds the tournaments one account (not a site admin) may
// create in any league.CreationWindow, in all clubs together; 0 is no
// bound. Call it while wiring, before serving.
func (t *Tournaments) WithDailyLimit(n int) *Tournaments {
	t.budget.limit = n
	return t
}

func noSuchTournament() error { return league.Errorf(league.ENOTFOUND, "no such tournament") }

func (t *Tournaments) transact(ctx context.Context, f func(tx *gorm.DB, fx *effects) error) error {
	return t.games.transact(ctx, f)
}

func readTournament(tx *gorm.DB, id string, lock bool) (*tournamentRow, error) {
	if !validID(id) {
		return nil, noSuchTournament()
	}
	q := tx.Where("id = ?", id)
	if lock {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var r tournamentRow
	if err := q.Take(&r).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, noSuchTournament()
		}
		return nil, err
	}
	return &r, nil
}

// competitionConfig is the pure package's set-up of the tournament,
// with the schedule drawn at its start.
func (r *tournamentRow) competitionConfig() competition.Config {
	cc := competitionConfig(r.config())
	_ = decodeJSON(r.Schedule, &cc.Schedule) // checked when the row was read
	return cc
}

// competitionConfig maps a tournament's set-up to the pure package's.
func competitionConfig(c league.TournamentConfig) competition.Config {
	cc := competition.Config{Format: competition.Format(c.Format), MatchSize: c.MatchSize, BestOf: c.BestOf,
		Double: c.Double, Rounds: c.Rounds, ThirdPlace: c.ThirdPlace, Reset: c.Reset, Groups: c.Groups, Advance: c.Advance}
	for _, tb := range c.TieBreaks {
		cc.TieBreaks = append(cc.TieBreaks, competition.TieBreak(tb))
	}
	// Stacks makes no sequences: ranked on them, every entry would be
	// level, and the standings would show a column of zeros.
	if c.Game == league.GameStacks && cc.TieBreaks == nil {
		cc.TieBreaks = slices.DeleteFunc(competition.DefaultTieBreaks(cc.Format), func(tb competition.TieBreak) bool { return tb == competition.TieSequences })
	}
	return cc
}

// matchSetup is the game a match of the given number of entries plays,
// each entry a team of TeamSize. A full match has MatchSize entries; a
// knockout match whose other slots hold byes (three-team brackets of 4 or
// 5 entries) is played by the entries it has, as a game of that many teams.
func matchSetup(c league.TournamentConfig, entries int) play.Setup {
	s := play.Setup{Game: c.Game, Variant: c.Variant, Players: c.TeamSize * entries, Teams: entries, SequencesToWin: c.SequencesToWin}
	if c.Game == league.GameStacks {
		s.Variant, s.Teams = "", s.Players
	}
	return s
}

// maxMinGames bounds the rated games an entry limit may ask for: more than
// anyone could have played.
const maxMinGames = 10000

// maxRatingLimit bounds an entry limit's min_rating and max_rating (from
// 0): ratings start at 1500 (rating.InitialRating) and move by Elo, where
// each point is the harder to win the further a player is from the field,
// so none comes near 0 or 4000 (the best chess ratings are under 2900). A
// limit outside 0–4000 admits or shuts out everyone just as one at its end
// would, so it is a slip (1e308, a sign), not a band anyone means.
const maxRatingLimit = 4000

// maxRoundGapSeconds bounds the pause before an unscheduled next round: a
// week, the longest a club leaves between two rounds of one event.
const maxRoundGapSeconds = 7 * 86400

// refusedSetting names the setting behind the engine's refusal (err) of a
// tournament's table: sequences_to_win when the engine names it, else the
// table's size, which is match_size in Stacks (one player an entry) and
// team_size in Sequence (whose match_size and variant are checked before).
func refusedSetting(c league.TournamentConfig, err error) string {
	if se := (*play.SetupError)(nil); errors.As(err, &se) && se.Field == "sequences_to_win" {
		return se.Field
	}
	if c.Game == league.GameStacks {
		return "match_size"
	}
	return "team_size"
}

// matchGame is the game a match asks the game layer for: the table
// matchSetup gives, seated, on the tournament's clock, rating and bots.
func matchGame(c league.TournamentConfig, su play.Setup, seats []league.SeatSpec) league.NewGame {
	return league.NewGame{Game: su.Game, Variant: su.Variant, Players: su.Players, Teams: su.Teams, SequencesToWin: su.SequencesToWin,
		Seats: seats, Clock: c.Clock, Rated: c.Rated, AutopilotLevel: c.FillLevel, FillLevel: c.FillLevel}
}

// gameRefusals are the game layer's objections to the tournament's games,
// asked at creation so that a tournament is not accepted only for its
// first round to fail to start: its own rules for the clock, and for
// Stacks the variant (given as the organizer gave it, as it would be to
// POST /games). The table itself (players, teams, sequences to win) is the
// tournament's own check, which names the tournament's setting at fault.
func gameRefusals(c league.TournamentConfig) []league.FieldError {
	su := matchSetup(c, c.MatchSize)
	// The seats are there for the game layer's count only: a table larger
	// than any game's (team_size 2147483648) is the table check's to
	// refuse, not one to allocate a seat for each of its players.
	seats := make([]league.SeatSpec, min(max(su.Players, 0), maxTablePlayers))
	for i := range seats {
		seats[i].Bot = league.BotRandom
	}
	req := matchGame(c, su, seats)
	req.Variant = c.Variant
	_, err := normalizeNewGame(req)
	var le *league.Error
	if !errors.As(err, &le) {
		return nil
	}
	var out []league.FieldError
	for _, f := range le.Fields {
		switch {
		case f.Field == "autopilot":
			f.Field = "fill_level"
		case f.Field != "variant" && f.Field != "fill_level" && f.Field != "clock" && !strings.HasPrefix(f.Field, "clock."):
			continue // the table's, or a game setting a tournament does not have
		}
		out = append(out, f)
	}
	return out
}

func validateTournamentConfig(c *league.TournamentConfig, now time.Time) error {
	var fields []league.FieldError
	bad := func(f, m string) { fields = append(fields, league.FieldError{Field: f, Message: m}) }
	named := func(f string) bool {
		return slices.ContainsFunc(fields, func(e league.FieldError) bool { return e.Field == f })
	}
	if c.TeamSize == 0 {
		c.TeamSize = 1
	}
	if c.MatchSize == 0 {
		c.MatchSize = 2
	}
	switch c.Game {
	case league.GameSequence:
		if c.Variant == "" {
			c.Variant = "classic"
		}
		if _, err := sequence.ParseVariant(c.Variant); err != nil {
			bad("variant", "must be classic or bordered")
		}
		if c.MatchSize != 2 && c.MatchSize != 3 {
			bad("match_size", "Sequence matches have 2 or 3 teams")
		}
	case league.GameStacks:
		if c.TeamSize != 1 {
			bad("team_size", "Stacks is played by individuals")
		}
	default:
		bad("game", "must be sequence or stacks")
	}
	if c.TeamSize < 1 || c.TeamSize > 6 {
		bad("team_size", "must be 1–6")
	}
	if len(fields) == 0 {
		// A knockout match that byes leave short plays a smaller table.
		smallest := c.MatchSize
		if f := competition.Format(c.Format); f == competition.FormatSingleElimination || f == competition.FormatGroupsPlayoffs {
			smallest = competition.MinMatchSize
		}
		for teams := c.MatchSize; teams >= smallest && len(fields) == 0; teams-- {
			if _, err := play.New(matchSetup(*c, teams), rng.Seed{}); err != nil {
				bad(refusedSetting(*c, err), err.Error())
			}
		}
	}
	if c.Game == league.GameSequence || c.Game == league.GameStacks {
		for _, f := range gameRefusals(*c) {
			if !named(f.Field) {
				fields = append(fields, f)
			}
		}
	}
	switch competition.Format(c.Format) {
	case competition.FormatRoundRobin, competition.FormatSwiss, competition.FormatSingleElimination, competition.FormatDoubleElimination, competition.FormatGroupsPlayoffs:
	default:
		bad("format", "must be round-robin, swiss, single-elimination, double-elimination or groups-playoffs")
	}
	if c.BestOf < 0 || c.BestOf > 9 || (c.BestOf > 0 && c.BestOf%2 == 0) {
		bad("best_of", "must be an odd number 1–9")
	}
	// The format's own rules: rounds, groups, advance, tie-breaks, and
	// which formats take matches of more than two.
	for _, e := range competitionConfig(*c).CheckSettings() {
		if !named(e.Setting) {
			bad(e.Setting, e.Message)
		}
	}
	if c.Game == league.GameStacks {
		for i, tb := range c.TieBreaks {
			if f := fmt.Sprintf("tie_breaks[%d]", i); tb == string(competition.TieSequences) && !named(f) {
				bad(f, "Stacks makes no sequences: every entry would be level on them")
			}
		}
	}
	if c.FillLevel == "" {
		c.FillLevel = league.BotGreedy
	}
	if !league.ValidBotLevel(c.FillLevel) && !named("fill_level") {
		bad("fill_level", "must be random, greedy or strong")
	}
	defaults := map[*string]string{&c.Seeding: "rating", &c.NoShow: "bots", &c.AtDeadline: "bots"}
	for p, d := range defaults {
		if *p == "" {
			*p = d
		}
	}
	if c.Seeding != "rating" && c.Seeding != "manual" && c.Seeding != "random" {
		bad("seeding", "must be rating, manual or random")
	}
	if c.NoShow != "bots" && c.NoShow != "forfeit" {
		bad("no_show", "must be bots or forfeit")
	}
	if c.AtDeadline != "bots" && c.AtDeadline != "adjudicate" {
		bad("at_deadline", "must be bots or adjudicate")
	}
	if c.RoundGapSeconds < 0 || c.RoundGapSeconds > maxRoundGapSeconds {
		bad("round_gap_seconds", fmt.Sprintf("must be 0–%d (a week)", maxRoundGapSeconds))
	}
	// The registration window lies within the horizon a round's start
	// does. An opening in the past means open already, but not one further
	// back than the horizon ahead: that is no date a club meant but a
	// client's unset time (Go's zero, 0001-01-01T00:00:00Z, or the Unix
	// epoch), which was taken and shown as "Registration from 1 Jan 1".
	horizon := now.Add(league.ScheduleHorizon)
	if opens := c.RegistrationOpens; opens != nil && (opens.After(horizon) || opens.Before(now.Add(-league.ScheduleHorizon))) {
		bad("registration_opens", "must be within five years (leave it out to open at once)")
	}
	switch closes := c.RegistrationCloses; {
	case closes == nil:
	case !closes.After(now):
		bad("registration_closes", "must be in the future")
	case closes.After(horizon):
		bad("registration_closes", "must be within five years")
	case c.RegistrationOpens != nil && !closes.After(*c.RegistrationOpens) && !named("registration_opens"):
		bad("registration_closes", "must be after registration_opens")
	}
	for _, l := range []struct {
		field string
		v     *float64
	}{{"min_rating", c.MinRating}, {"max_rating", c.MaxRating}} {
		if l.v != nil && (*l.v < 0 || *l.v > maxRatingLimit) {
			bad(l.field, fmt.Sprintf("must be 0–%d", maxRatingLimit))
		}
	}
	if c.MinRating != nil && c.MaxRating != nil && *c.MinRating > *c.MaxRating && !named("min_rating") && !named("max_rating") {
		bad("max_rating", "must not be below min_rating")
	}
	if c.MinGames < 0 || c.MinGames > maxMinGames {
		bad("min_games", fmt.Sprintf("must be 0–%d", maxMinGames))
	}
	if len(fields) > 0 {
		return league.Invalid("the tournament cannot be set up", fields...)
	}
	return nil
}

// Create stores a tournament of a club; organizers only.
func (t *Tournaments) Create(ctx context.Context, a league.Actor, req league.NewTournament) (*league.Tournament, error) {
	name, nameFault := league.NormalizeName(req.Name)
	req.Name = name
	// Everything checked before the database is refused at once: one 400
	// names every field at fault, not the first of club_id, name and the
	// settings.
	var fields []league.FieldError
	if req.ClubID == "" {
		fields = append(fields, league.FieldError{Field: "club_id", Message: "is required"})
	}
	if nameFault != nil {
		fields = append(fields, *nameFault)
	}
	if err := validateTournamentConfig(&req.Config, t.now()); err != nil {
		var le *league.Error
		if !errors.As(err, &le) || le.Code != league.EINVALID {
			return nil, err
		}
		fields = append(fields, le.Fields...)
	}
	if len(fields) > 0 {
		return nil, league.Invalid("the tournament cannot be set up", fields...)
	}
	var out *league.Tournament
	err := t.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		if err := organizerOf(tx, a, req.ClubID); err != nil {
			return badReference("club_id", err)
		}
		if err := t.budget.spend(tx, a, t.now()); err != nil {
			return err
		}
		row := tournamentRow{ClubID: req.ClubID, Name: req.Name, Config: mustJSON(req.Config),
			Status: league.TournamentRegistration, CreatedBy: &a.UserID, CreatedAt: t.now()}
		if req.SeasonID != "" {
			if err := seasonOfClub(tx, req.SeasonID, req.ClubID); err != nil {
				return err
			}
			row.SeasonID = &req.SeasonID
		}
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		out = toTournament(&row, 0)
		return nil
	})
	return out, err
}

func toTournament(r *tournamentRow, entries int) *league.Tournament {
	out := &league.Tournament{ID: r.ID, ClubID: r.ClubID, Name: r.Name, Status: r.Status, Config: r.config(),
		CurrentRound: r.CurrentRound, Entries: entries, CreatedAt: r.CreatedAt, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt,
		CancelledAt: r.CancelledAt}
	if r.SeasonID != nil {
		out.SeasonID = *r.SeasonID
	}
	return out
}

// withEntries is a tournament row as the API shows it, with its count of
// active entries.
func withEntries(tx *gorm.DB, r *tournamentRow) (*league.Tournament, error) {
	var n int64
	if err := tx.Model(&entryRow{}).Where("tournament_id = ? AND status = 'active'", r.ID).Count(&n).Error; err != nil {
		return nil, err
	}
	return toTournament(r, int(n)), nil
}

// Get returns a tournament, with the rounds it plays once it has started.
func (t *Tournaments) Get(ctx context.Context, id string) (*league.Tournament, error) {
	db := t.db.WithContext(ctx)
	r, err := readTournament(db, id, false)
	if err != nil {
		return nil, err
	}
	out, err := withEntries(db, r)
	if err != nil || r.Status == league.TournamentRegistration {
		return out, err
	}
	if r.Status == league.TournamentFinished {
		// what it played: a reset not needed, or a Swiss that withdrawals ended early, plays fewer
		out.RoundsPlanned = r.CurrentRound
		return out, nil
	}
	entries, err := startedEntries(db, r.ID)
	if err != nil {
		return nil, err
	}
	if n, err := competition.RoundsNeeded(r.competitionConfig(), entries); err == nil {
		out.RoundsPlanned = n
	}
	return out, nil
}

// List pages through a club's or a season's tournaments (both given: those
// of both), newest first (the id breaks ties of created_at).
func (t *Tournaments) List(ctx context.Context, clubID, seasonID string, p league.PageRequest) (league.Page[league.Tournament], error) {
	var page league.Page[league.Tournament]
	p, err := p.Normalize()
	if err != nil {
		return page, err
	}
	db := t.db.WithContext(ctx)
	// A club and a season together are both kept (a season of another
	// club has none of the club's tournaments), not the season alone.
	q := db.Model(&tournamentRow{}).Omit(listOmits...)
	if seasonID != "" {
		if !validID(seasonID) {
			return page, naming("season", noSuchSeason())
		}
		q = q.Where("season_id = ?", seasonID)
	}
	if clubID != "" {
		if !validID(clubID) {
			return page, naming("club", noSuchClub())
		}
		q = q.Where("club_id = ?", clubID)
	}
	rows, next, err := findPage(q, newestFirst, p, func(r *tournamentRow) string { return encodeTimeCursor(r.CreatedAt, r.ID) })
	if err != nil {
		return page, err
	}
	if len(rows) == 0 && seasonID != "" {
		if err := parentExists(db, "seasons", seasonID, noSuchSeason); err != nil {
			return page, naming("season", err)
		}
	}
	if len(rows) == 0 && clubID != "" {
		if err := parentExists(db, "clubs", clubID, noSuchClub); err != nil {
			return page, naming("club", err)
		}
	}
	return tournamentPage(db, rows, next)
}

// tournamentPage is a page of tournament rows as tournaments, with their
// entry counts (one query for the page).
func tournamentPage(db *gorm.DB, rows []tournamentRow, next string) (league.Page[league.Tournament], error) {
	ids := make([]string, len(rows))
	for i := range rows {
		ids[i] = rows[i].ID
	}
	counts, err := entryCounts(db, ids)
	if err != nil {
		return league.Page[league.Tournament]{}, err
	}
	page := league.Page[league.Tournament]{Items: make([]league.Tournament, len(rows)), NextCursor: next}
	for i := range rows {
		page.Items[i] = *toTournament(&rows[i], counts[rows[i].ID])
	}
	return page, nil
}

// entryCounts is withEntries's count of active entries for a page of
// tournaments, in one query.
func entryCounts(db *gorm.DB, ids []string) (map[string]int, error) {
	var rows []struct {
		TournamentID string
		N            int
	}
	if err := db.Model(&entryRow{}).Select("tournament_id, count(*) AS n").
		Where("tournament_id IN ? AND status = 'active'", ids).Group("tournament_id").Scan(&rows).Error; err != nil {
		return nil, err
	}
	counts := make(map[string]int, len(rows))
	for _, r := range rows {
		counts[r.TournamentID] = r.N
	}
	return counts, nil
}

// organizer checks that a may run tournament r.
func organizer(tx *gorm.DB, a league.Actor, r *tournamentRow) error {
	return organizerOf(tx, a, r.ClubID)
}

// organizerOf checks that a may run a club's competitions.
func organizerOf(tx *gorm.DB, a league.Actor, clubID string) error {
	role, err := clubRole(tx, a, clubID, false)
	if err != nil {
		return err
	}
	return league.CanOrganizeAs(a, role)
}

// Update renames, starts, pauses, resumes or cancels a tournament.
func (t *Tournaments) Update(ctx context.Context, a league.Actor, id string, u league.TournamentUpdate) (*league.Tournament, error) {
	var out *league.Tournament
	switch {
	case u.Status == nil, *u.Status == league.TournamentRunning, *u.Status == league.TournamentPaused:
	case *u.Status == league.TournamentCancelled:
		return t.cancel(ctx, a, id, u.Name)
	default:
		return nil, league.Invalid("bad status", league.FieldError{Field: "status", Message: "must be running (start or resume), paused or cancelled"})
	}
	err := t.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		r, err := readTournament(tx, id, true)
		if err != nil {
			return err
		}
		if err := organizer(tx, a, r); err != nil {
			return err
		}
		if err := renameLocked(tx, r, u.Name); err != nil {
			return err
		}
		if u.Status != nil {
			switch {
			case *u.Status == league.TournamentRunning && r.Status == league.TournamentRegistration:
				if err := t.beginLocked(tx, fx, r); err != nil {
					return atStatus(err)
				}
				if err := t.firstRoundNowLocked(tx, fx, r); err != nil {
					return err
				}
				if err := t.advanceLocked(tx, fx, r); err != nil {
					return err
				}
			case *u.Status == league.TournamentRunning && r.Status == league.TournamentPaused,
				*u.Status == league.TournamentPaused && r.Status == league.TournamentRunning:
				r.Status = *u.Status
				if err := tx.Model(r).Update("status", r.Status).Error; err != nil {
					return err
				}
				if r.Status == league.TournamentRunning {
					if err := t.resumeDeadlinesLocked(tx, fx, r); err != nil {
						return err
					}
					if err := t.advanceLocked(tx, fx, r); err != nil {
						return err
					}
				}
			case *u.Status == r.Status:
			default:
				return statusRefused(fmt.Sprintf("a %s tournament cannot become %s", r.Status, *u.Status))
			}
		}
		out, err = withEntries(tx, r)
		return err
	})
	return out, err
}

// firstRoundNowLocked brings round 1, when it was scheduled for later,
// forward to now as an organizer starts the tournament by hand: "Start
// now" starts the first games, rather than close registration and leave
// the round waiting for its time. Its deadline stays as scheduled (the
// round gets longer, the rounds after it keep their times), and the move
// counts as a revision of its calendar event. The task queued for the old
// time is deleted once this commits (one that runs all the same finds the
// round paired and does nothing).
func (t *Tournaments) firstRoundNowLocked(tx *gorm.DB, fx *effects, r *tournamentRow) error {
	var rows []roundRow
	if err := tx.Where("tournament_id = ? AND number = 1 AND paired_at IS NULL", r.ID).Find(&rows).Error; err != nil {
		return err
	}
	now := t.now()
	if len(rows) == 0 || rows[0].StartsAt == nil || !rows[0].StartsAt.After(now) {
		return nil
	}
	if err := tx.Model(&roundRow{}).Where("tournament_id = ? AND number = 1", r.ID).Updates(map[string]any{
		"starts_at": now, "start_error": nil, "revision": gorm.Expr("revision + 1"), "revised_at": now}).Error; err != nil {
		return err
	}
	id, old := r.ID, *rows[0].StartsAt
	fx.then(func(ctx context.Context) error { return t.tasks.ForgetRound(ctx, id, 1, []time.Time{old}, nil) })
	return nil
}

// renameLocked gives tournament r, whose row is locked, the name asked
// for (none: it keeps its own).
func renameLocked(tx *gorm.DB, r *tournamentRow, name *string) error {
	if name == nil {
		return nil
	}
	trimmed, ferr := league.NormalizeName(*name)
	if ferr != nil {
		return league.Invalid("bad name", *ferr)
	}
	r.Name = trimmed
	return tx.Model(r).Update("name", trimmed).Error
}

// statusRefused is a change of status that the tournament's own status
// does not allow now, named at the status asked for.
func statusRefused(message string) error {
	return &league.Error{Code: league.EPRECONDITION, Message: message,
		Fields: []league.FieldError{{Field: "status", Message: message}}}
}

// atStatus names status in a refusal to start a tournament that names no
// field (too few entries, a bracket that cannot be drawn), as a refusal
// to pause it does: the status asked for is what cannot be had now.
func atStatus(err error) error {
	var e *league.Error
	if !errors.As(err, &e) || e.Code != league.EPRECONDITION || len(e.Fields) > 0 {
		return err
	}
	return statusRefused(e.Message)
}

// resumeDeadlinesLocked applies, as a tournament resumes, the deadlines
// of its rounds in play that passed while it was paused: their tasks
// found it paused and left the games alone. Their task runs again at
// once (the one that ran is over, so the enqueuer replaces it); a
// deadline still ahead has its task waiting already.
func (t *Tournaments) resumeDeadlinesLocked(tx *gorm.DB, fx *effects, r *tournamentRow) error {
	var rows []roundRow
	if err := tx.Where("tournament_id = ? AND status = 'running' AND deadline <= ?", r.ID, t.now()).Find(&rows).Error; err != nil {
		return err
	}
	for _, rd := range rows {
		id, n, at := r.ID, rd.Number, *rd.Deadline
		fx.then(func(ctx context.Context) error { return t.tasks.RoundDeadline(ctx, id, n, at) })
	}
	return nil
}

// Register adds an entry: the caller alone, a team captained by the caller,
// or (organizers) anyone and bots. Entry limits apply to people.
func (t *Tournaments) Register(ctx context.Context, a league.Actor, id string, e league.NewEntry) (*league.Entry, error) {
	if a.Anonymous() {
		return nil, league.Errorf(league.EUNAUTHORIZED, "sign in to register")
	}
	if e.Seed < 0 || e.Seed > competition.MaxEntries {
		return nil, league.Invalid("bad seed", league.FieldError{Field: "seed", Message: fmt.Sprintf("must be 1–%d, or 0 for none", competition.MaxEntries)})
	}
	var out *league.Entry
	err := t.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		// The people entered are held before the tournament's lock, the
		// order in which closing an account takes the two: an entry of an
		// account being closed is then refused below (requireHuman) or
		// withdrawn by the close.
		if err := holdLiveAccount(tx, a.UserID); err != nil {
			return err
		}
		var people []string
		for _, m := range e.Members {
			people = append(people, m.UserID)
		}
		if err := holdAccounts(tx, people...); err != nil {
			return err
		}
		r, err := readTournament(tx, id, true)
		if err != nil {
			return err
		}
		c := r.config()
		isOrganizer := organizer(tx, a, r) == nil
		if r.Status != league.TournamentRegistration {
			return league.Errorf(league.EPRECONDITION, "registration is closed: the tournament is %s", r.Status)
		}
		now := t.now()
		if !isOrganizer && ((c.RegistrationOpens != nil && now.Before(*c.RegistrationOpens)) || (c.RegistrationCloses != nil && now.After(*c.RegistrationCloses))) {
			return league.Errorf(league.EPRECONDITION, "registration is not open now")
		}
		// Counted under the tournament's lock, so that entries made at
		// once cannot all take the last place: past the most a tournament
		// can start with, an entry was accepted and the start refused.
		var entered int64
		if err := tx.Model(&entryRow{}).Where("tournament_id = ?", id).Count(&entered).Error; err != nil {
			return err
		}
		if entered >= competition.MaxEntries {
			return league.Errorf(league.EPRECONDITION, "the tournament is full: %d entries, the most a tournament can start with", entered)
		}
		// members the caller named are fields a refusal may point at; the
		// default (the caller alone) is no field of the request
		named := len(e.Members) > 0
		if !named {
			e.Members = []league.EntryMember{{UserID: a.UserID}}
		}
		// A club's tournaments are its members': someone outside it could
		// otherwise enter, and name members into a team they never chose.
		// A site admin organizes every club's tournaments without being a
		// member (entering members and bots), but plays in none of a club
		// he has not joined: the organizer's pass is for organizing, not
		// for a seat of his own.
		callerPlays := slices.ContainsFunc(e.Members, func(m league.EntryMember) bool { return m.UserID == a.UserID })
		if !isOrganizer || callerPlays {
			if role, err := memberRole(tx, r.ClubID, a.UserID); err != nil {
				return err
			} else if role == league.RoleNone {
				return league.Errorf(league.EFORBIDDEN, "join the club to enter its tournaments")
			}
		}
		if len(e.Members) != c.TeamSize {
			players := "players"
			if c.TeamSize == 1 {
				players = "player"
			}
			return league.Invalid("wrong team size", league.FieldError{Field: "members", Message: fmt.Sprintf("an entry has %d %s, not %d", c.TeamSize, players, len(e.Members))})
		}
		if e.Seed != 0 && !isOrganizer {
			return league.Errorf(league.EFORBIDDEN, "only organizers seed entries")
		}
		if e.Seed != 0 {
			// Two entries on one seed would leave the bracket's order to
			// their ratings, which is not what the organizer asked for.
			var holders []string
			if err := tx.Model(&entryRow{}).Where("tournament_id = ? AND seed = ?", id, e.Seed).Limit(1).Pluck("name", &holders).Error; err != nil {
				return err
			}
			if len(holders) > 0 {
				return league.Invalid("seed taken", league.FieldError{Field: "seed", Message: fmt.Sprintf("%s already has seed %d", holders[0], e.Seed)})
			}
		}
		pool := entryPool(c)
		var sum float64
		selfIncluded := false
		for i, m := range e.Members {
			field := fmt.Sprintf("members[%d]", i)
			switch {
			case m.Bot != "" && m.UserID == "":
				if !isOrganizer {
					return league.Errorf(league.EFORBIDDEN, "only organizers enter bots")
				}
				if !league.ValidBotLevel(m.Bot) {
					return league.Invalid("unknown bot", league.FieldError{Field: field + ".bot", Message: "must be random, greedy or strong"})
				}
				st, err := botPoolState(tx, m.Bot, pool)
				if err != nil {
					return err
				}
				sum += st.Rating
			case m.UserID != "" && m.Bot == "":
				if err := requireHuman(tx, m.UserID, field+".user"); err != nil {
					return err
				}
				// Nobody, organizers and site admins included, enters someone
				// who has not joined the club: a stranger's name in a rated
				// tournament with a short clock would be rated as abandoning
				// games never chosen. (The caller, if not a member, was
				// refused above.)
				if err := requireClubMember(tx, r.ClubID, m.UserID, field+".user"); err != nil {
					return err
				}
				selfIncluded = selfIncluded || m.UserID == a.UserID
				st, err := poolState(tx, m.UserID, pool)
				if err != nil {
					return err
				}
				if title, why := entryLimitBars(c, st); why != "" {
					return league.Invalid(title, league.FieldError{Field: field, Message: why})
				}
				sum += st.Rating
			default:
				return league.Invalid("a member is a user or a bot", league.FieldError{Field: field, Message: "give exactly one of user or bot"})
			}
		}
		if !selfIncluded && !isOrganizer {
			return league.Errorf(league.EFORBIDDEN, "you can only register entries you play in")
		}
		// A player already entered is the conflict to report, before the
		// name: the name is the player's own when none is given, and a
		// second entry of oneself was refused as a 400 naming "name", a
		// field the client never sent.
		if err := refuseEnteredPlayers(tx, id, e.Members, named); err != nil {
			return err
		}
		name := league.TrimName(e.Name)
		if name == "" {
			if name, err = defaultEntryName(tx, id, e.Members); err != nil {
				return err
			}
		}
		if !league.EntryNameOK(name) {
			return league.Invalid("bad name", league.FieldError{Field: "name", Message: "at most 60 characters of one line of visible text"})
		}
		row := entryRow{TournamentID: id, Name: name, Seed: e.Seed, Rating: sum / float64(len(e.Members)), Status: "active", CreatedAt: now}
		if !a.Anonymous() && selfIncluded {
			row.CaptainID = &a.UserID
		}
		if err := tx.Create(&row).Error; err != nil {
			if uniqueViolation(err) != "" {
				// A 409, as every name taken is (a club's, a league's, a
				// username): the name is well formed, only not free.
				return &league.Error{Code: league.ECONFLICT, Message: "another entry of the tournament has this name",
					Fields: []league.FieldError{{Field: "name", Message: "is taken"}}}
			}
			return err
		}
		for i, m := range e.Members {
			mr := entryMemberRow{EntryID: row.ID, TournamentID: id, Position: i}
			if m.UserID != "" {
				uid := m.UserID
				mr.UserID = &uid
			} else {
				bot := m.Bot
				mr.BotLevel = &bot
			}
			if err := tx.Create(&mr).Error; err != nil {
				if uniqueViolation(err) != "" {
					return league.Errorf(league.ECONFLICT, "a player of this entry already plays in the tournament")
				}
				return err
			}
		}
		entries, err := loadEntries(tx, id, row.ID)
		if err != nil {
			return err
		}
		out = &entries[0]
		return nil
	})
	return out, err
}

// refuseEnteredPlayers refuses an entry naming a player twice (400), or a
// player who already plays in the tournament in another entry (409), naming
// each such member (members[i].user) and saying who it is and where they
// play: "a player of this entry already plays" left a captain of a team of
// four to guess which teammate. named says the members are the caller's
// own list; the default entry of the caller alone names no field.
func refuseEnteredPlayers(tx *gorm.DB, tournamentID string, members []league.EntryMember, named bool) error {
	var people []string
	var twice []league.FieldError
	for i, m := range members {
		if m.UserID == "" {
			continue
		}
		if slices.Contains(people, m.UserID) {
			twice = append(twice, league.FieldError{Field: fmt.Sprintf("members[%d].user", i), Message: "is named twice in this entry"})
		}
		people = append(people, m.UserID)
	}
	if len(twice) > 0 {
		return league.Invalid("a player named twice", twice...)
	}
	if len(people) == 0 {
		return nil
	}
	var entered []struct {
		UserID   string
		Username string
		Entry    string
	}
	if err := tx.Table("entry_members m").Select("m.user_id, COALESCE(u.username, '') AS username, e.name AS entry").
		Joins("JOIN entries e ON e.id = m.entry_id").Joins("LEFT JOIN users u ON u.id = m.user_id").
		Where("m.tournament_id = ? AND m.user_id IN ?", tournamentID, people).Scan(&entered).Error; err != nil {
		return err
	}
	if len(entered) == 0 {
		return nil
	}
	if !named {
		return league.Errorf(league.ECONFLICT, "you already play in the tournament, in %s", entered[0].Entry)
	}
	out := &league.Error{Code: league.ECONFLICT}
	for i, m := range members {
		for _, p := range entered {
			if m.UserID != "" && p.UserID == m.UserID {
				who := p.Username
				if who == "" {
					who = "this player" // an account closed since
				}
				msg := fmt.Sprintf("%s already plays in the tournament, in %s", who, p.Entry)
				out.Fields = append(out.Fields, league.FieldError{Field: fmt.Sprintf("members[%d].user", i), Message: msg})
				if out.Message == "" {
					out.Message = msg
				}
			}
		}
	}
	return out
}

// requireClubMember refuses a teammate who is not in the tournament's club:
// a captain may only name people who joined the club, so nobody is put into
// an entry by a stranger. Organizers, who run the club, may name anyone.
func requireClubMember(tx *gorm.DB, clubID, userID, field string) error {
	role, err := memberRole(tx, clubID, userID)
	if err != nil {
		return err
	}
	if role == league.RoleNone {
		return league.Invalid("not a club member", league.FieldError{Field: field, Message: "is not a member of the tournament's club"})
	}
	return nil
}

// defaultEntryName names an entry registered without a name: its members'
// names ("ada & bo", "Bot greedy"), numbered when another entry of the
// tournament has that name already ("Bot greedy 2", "Bot greedy 3"), so
// that two bots of a level, or a player entering under a name someone else
// chose, are told apart without a 409 about a name the client never sent.
// Register calls it under the tournament's row lock, which every entry's
// creation takes, so two registrations at once cannot pick the same number.
func defaultEntryName(tx *gorm.DB, tournamentID string, members []league.EntryMember) (string, error) {
	var names []string
	for _, m := range members {
		if m.Bot != "" {
			names = append(names, "Bot "+m.Bot)
			continue
		}
		var u []string
		if err := tx.Table("users").Where("id = ?", m.UserID).Pluck("username", &u).Error; err != nil {
			return "", err
		}
		if len(u) > 0 {
			names = append(names, u[0])
		}
	}
	return freeEntryName(tx, tournamentID, strings.Join(names, " & "))
}

// freeEntryName is base if no entry of the tournament has it (the unique
// index compares lower(name)), else the first of "base 2", "base 3" … that
// is free, base shortened as need be to keep it within league.EntryNameMax.
func freeEntryName(tx *gorm.DB, tournamentID, base string) (string, error) {
	// The names that could be in the way: those starting as base does (as
	// far as a base shortened for a long number keeps of it).
	prefix := []rune(strings.ToLower(base))
	prefix = prefix[:min(len(prefix), league.EntryNameMax-12)]
	var taken []string
	if err := tx.Model(&entryRow{}).Where("tournament_id = ? AND lower(name) LIKE ? || '%'", tournamentID,
		likeEscaped(string(prefix))).Pluck("name", &taken).Error; err != nil {
		return "", err
	}
	for i := range taken {
		taken[i] = strings.ToLower(taken[i])
	}
	if !slices.Contains(taken, strings.ToLower(base)) {
		return base, nil
	}
	for n := 2; ; n++ {
		suffix := fmt.Sprintf(" %d", n)
		head := []rune(base)
		if keep := league.EntryNameMax - len(suffix); len(head) > keep {
			head = []rune(strings.TrimSpace(string(head[:max(keep, 0)])))
		}
		if name := string(head) + suffix; !slices.Contains(taken, strings.ToLower(name)) {
			return name, nil
		}
	}
}

// poolState is a player's rating state in a pool (1500 with no games).
// entryPool is the rating pool a tournament's games are rated in, whose
// ratings seed its entries.
func entryPool(c league.TournamentConfig) string {
	if c.Game == league.GameStacks {
		return rating.PoolStacks
	}
	return rating.PoolFor(c.Game, c.MatchSize)
}

// botPoolState is the pool state of the account that plays (and is rated
// for) bot level; a level whose account does not exist yet starts afresh.
func botPoolState(tx *gorm.DB, level, pool string) (rating.PlayerState, error) {
	id, err := botUserID(tx, level)
	if err != nil || id == "" {
		return rating.NewState(), err
	}
	return poolState(tx, id, pool)
}

// refreshEntryRatings sets every active entry's rating to its members'
// mean rating in pool now, bots by their level's account, so that seeding
// at the start reads today's ratings rather than those of registration day.
func refreshEntryRatings(tx *gorm.DB, tournamentID, pool string) error {
	return tx.Exec(`UPDATE entries e SET rating = m.rating FROM (
		SELECT em.entry_id, AVG(COALESCE(r.rating, ?)) AS rating
		FROM entry_members em
		LEFT JOIN ratings r ON r.pool = ? AND r.user_id = COALESCE(em.user_id,
			(SELECT b.id FROM users b WHERE b.kind = 'bot' AND b.bot_level = em.bot_level LIMIT 1))
		WHERE em.tournament_id = ?
		GROUP BY em.entry_id) m
		WHERE e.id = m.entry_id AND e.tournament_id = ? AND e.status = 'active'`,
		rating.InitialRating, pool, tournamentID, tournamentID).Error
}

// entryLimitBars says why the tournament's entry limits bar a player in the
// given rating state (a problem's title and its detail), or "" when they do
// not.
func entryLimitBars(c league.TournamentConfig, st rating.PlayerState) (title, why string) {
	if c.MinRating != nil && st.Rating < *c.MinRating || c.MaxRating != nil && st.Rating > *c.MaxRating {
		return "outside the rating band", fmt.Sprintf("rating %.0f is outside the tournament's band", st.Rating)
	}
	if st.Games < c.MinGames {
		return "too few rated games", fmt.Sprintf("%d rated games, the tournament asks for %d", st.Games, c.MinGames)
	}
	return "", ""
}

func poolState(tx *gorm.DB, userID, pool string) (rating.PlayerState, error) {
	var rows []ratingRow
	if err := tx.Where("user_id = ? AND pool = ?", userID, pool).Limit(1).Find(&rows).Error; err != nil {
		return rating.PlayerState{}, err
	}
	if len(rows) == 0 {
		return rating.NewState(), nil
	}
	return rows[0].state(), nil
}

// loadEntries reads a tournament's entries (one entry if only is set), in
// registration order.
func loadEntries(tx *gorm.DB, tournamentID, only string) ([]league.Entry, error) {
	q := tx.Where("tournament_id = ?", tournamentID)
	if only != "" {
		q = q.Where("id = ?", only)
	}
	var rows []entryRow
	if err := q.Order("created_at, id").Find(&rows).Error; err != nil {
		return nil, err
	}
	return withMembers(tx, tournamentID, rows, only == "")
}

// withMembers makes entries of rows of one tournament, with their members.
// allOfTournament says rows are every entry, so the members are read by
// tournament rather than by entry id.
func withMembers(tx *gorm.DB, tournamentID string, rows []entryRow, allOfTournament bool) ([]league.Entry, error) {
	q := tx.Table("entry_members m").Select("m.*, COALESCE(u.username, '') AS username").
		Joins("LEFT JOIN users u ON u.id = m.user_id").Where("m.tournament_id = ?", tournamentID)
	if !allOfTournament {
		ids := make([]string, len(rows))
		for i, r := range rows {
			ids[i] = r.ID
		}
		q = q.Where("m.entry_id IN ?", ids)
	}
	var members []entryMemberRow
	if len(rows) > 0 {
		if err := q.Order("m.entry_id, m.position").Find(&members).Error; err != nil {
			return nil, err
		}
	}
	byEntry := map[string][]league.EntryMember{}
	for _, m := range members {
		em := league.EntryMember{Username: m.Username}
		if m.UserID != nil {
			em.UserID = *m.UserID
		}
		if m.BotLevel != nil {
			em.Bot = *m.BotLevel
		}
		byEntry[m.EntryID] = append(byEntry[m.EntryID], em)
	}
	out := make([]league.Entry, len(rows))
	for i, r := range rows {
		out[i] = league.Entry{ID: r.ID, Name: r.Name, Seed: r.Seed, Rating: r.Rating, Status: r.Status, Members: byEntry[r.ID]}
		if r.CaptainID != nil {
			out[i].CaptainID = *r.CaptainID
		}
	}
	return out, nil
}

// Entries pages through a tournament's entries in registration order
// (created_at, then id).
func (t *Tournaments) Entries(ctx context.Context, id string, p league.PageRequest) (league.Page[league.Entry], error) {
	var page league.Page[league.Entry]
	p, err := p.Normalize()
	if err != nil {
		return page, err
	}
	db := t.db.WithContext(ctx)
	// Whether it exists, not the row: a round robin's row holds its whole
	// schedule (650 KB stored at 128 entries), which reading and decoding
	// took 23 ms of each page of entries (the performance audit).
	if !validID(id) {
		return page, noSuchTournament()
	}
	if err := parentExists(db, "tournaments", id, noSuchTournament); err != nil {
		return page, err
	}
	q := db.Where("tournament_id = ?", id)
	rows, next, err := findPage(q, oldestFirst, p, func(r *entryRow) string { return encodeTimeCursor(r.CreatedAt, r.ID) })
	if err != nil {
		return page, err
	}
	page.NextCursor = next
	page.Items, err = withMembers(db, id, rows, false)
	return page, err
}

// Withdraw removes an entry before the start (its captain, any of its
// players, or an organizer); once the tournament runs, a withdrawn entry is left out of
// later pairings of round-based formats.
func (t *Tournaments) Withdraw(ctx context.Context, a league.Actor, id, entryID string) error {
	if a.Anonymous() {
		return league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	return t.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		r, e, err := lockTournamentEntry(tx, id, entryID)
		if err != nil {
			return err
		}
		mayWithdraw, err := playsInEntry(tx, e, a.UserID)
		if err != nil {
			return err
		}
		if !mayWithdraw && organizer(tx, a, r) != nil {
			return league.Errorf(league.EFORBIDDEN, "only a player of the entry or an organizer can withdraw it")
		}
		switch r.Status {
		case league.TournamentRegistration:
			return tx.Delete(&e).Error
		case league.TournamentFinished:
			return league.Errorf(league.EPRECONDITION, "the tournament is over")
		case league.TournamentCancelled:
			return league.Errorf(league.EPRECONDITION, "the tournament was cancelled")
		}
		switch competition.Format(r.config().Format) {
		case competition.FormatRoundRobin, competition.FormatSwiss:
		case competition.FormatGroupsPlayoffs:
			// the groups are drawn at the start, and each one's table decides its qualifiers
			return league.Errorf(league.EPRECONDITION, "entries of groups then playoffs play their group out and leave the playoffs by losing; withdrawing after the start is for round robin and Swiss")
		default:
			return league.Errorf(league.EPRECONDITION, "entries leave an elimination bracket by losing; withdrawing after the start is for round robin and Swiss")
		}
		return tx.Model(&e).Update("status", "withdrawn").Error
	})
}

// lockTournamentEntry reads a tournament, locking its row, and one of its
// entries (a 404 naming entry for none).
func lockTournamentEntry(tx *gorm.DB, id, entryID string) (*tournamentRow, entryRow, error) {
	var e entryRow
	r, err := readTournament(tx, id, true)
	if err != nil {
		return nil, e, err
	}
	if !validID(entryID) {
		return nil, e, naming("entry", noSuchEntry())
	}
	if err := tx.Where("id = ? AND tournament_id = ?", entryID, id).Take(&e).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, e, naming("entry", noSuchEntry())
		}
		return nil, e, err
	}
	return r, e, nil
}

// Reinstate puts a withdrawn entry of a running round robin or Swiss back
// in: an organizer's undoing of a withdrawal made by mistake, or of the
// withdrawal of an entry absent from a game (withdrawAbsent) whose people
// were there after all. It is paired again from the next pairing on; the
// rounds it missed stay missed.
func (t *Tournaments) Reinstate(ctx context.Context, a league.Actor, id, entryID string) (*league.Entry, error) {
	if a.Anonymous() {
		return nil, league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	var out *league.Entry
	err := t.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		r, e, err := lockTournamentEntry(tx, id, entryID)
		if err != nil {
			return err
		}
		if err := organizer(tx, a, r); err != nil {
			return err
		}
		if r.Status != league.TournamentRunning && r.Status != league.TournamentPaused {
			return league.Errorf(league.EPRECONDITION, "only an entry of a tournament under way can be reinstated (it is %s)", r.Status)
		}
		if e.Status != "withdrawn" {
			msg := e.Name + " has not withdrawn"
			return &league.Error{Code: league.ECONFLICT, Message: msg, Fields: []league.FieldError{{Field: "entry", Message: msg}}}
		}
		var playable int64
		if err := tx.Model(&entryMemberRow{}).
			Where("entry_id = ? AND (bot_level IS NOT NULL OR user_id IN (?))", e.ID,
				tx.Table("users").Select("id").Where("deleted_at IS NULL")).
			Count(&playable).Error; err != nil {
			return err
		}
		if playable == 0 {
			msg := "every player of " + e.Name + " has closed their account"
			return &league.Error{Code: league.EPRECONDITION, Message: msg, Fields: []league.FieldError{{Field: "entry", Message: msg}}}
		}
		if err := tx.Model(&e).Update("status", "active").Error; err != nil {
			return err
		}
		entries, err := loadEntries(tx, id, e.ID)
		if err != nil {
			return err
		}
		if len(entries) == 1 {
			out = &entries[0]
		}
		return nil
	})
	return out, err
}

// noSuchEntry refuses an entry that is not one of the tournament's.
func noSuchEntry() error { return league.Errorf(league.ENOTFOUND, "no such entry") }

// playsInEntry says whether userID is the entry's captain or one of its
// players: anyone named in an entry may take it out, so nobody is held in an
// entry they did not ask for.
func playsInEntry(tx *gorm.DB, e entryRow, userID string) (bool, error) {
	if e.CaptainID != nil && *e.CaptainID == userID {
		return true, nil
	}
	if !validID(userID) {
		return false, nil
	}
	var n int64
	err := tx.Model(&entryMemberRow{}).Where("entry_id = ? AND user_id = ?", e.ID, userID).Count(&n).Error
	return n > 0, err
}

// Schedule sets the start (and deadline) of rounds not yet paired; at each
// start time a task pairs the round and creates its games.
func (t *Tournaments) Schedule(ctx context.Context, a league.Actor, id string, rounds []league.RoundSchedule) ([]league.TournamentRound, error) {
	if len(rounds) == 0 || len(rounds) > 200 {
		return nil, league.Invalid("nothing to schedule", league.FieldError{Field: "rounds", Message: "give 1–200 rounds"})
	}
	err := t.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		r, err := readTournament(tx, id, true)
		if err != nil {
			return err
		}
		if err := organizer(tx, a, r); err != nil {
			return err
		}
		if err := stillLive(r); err != nil {
			return err
		}
		last, err := lastScheduledRound(tx, r)
		if err != nil {
			return err
		}
		if err := checkRoundSchedules(rounds, last, t.now()); err != nil {
			return err
		}
		for i, s := range rounds {
			var existing []roundRow
			if err := tx.Where("tournament_id = ? AND number = ?", id, s.Number).Find(&existing).Error; err != nil {
				return err
			}
			if len(existing) == 1 && existing[0].PairedAt != nil {
				return &league.Error{Code: league.ECONFLICT, Message: fmt.Sprintf("round %d has already been paired", s.Number),
					Fields: []league.FieldError{{Field: fmt.Sprintf("rounds[%d].number", i), Message: "already paired: its times can no longer change"}}}
			}
			start := s.StartsAt.UTC()
			row := roundRow{TournamentID: id, Number: s.Number, StartsAt: &start, Deadline: s.Deadline, Status: "scheduled"}
			if len(existing) == 1 {
				// the upsert writes every column: carry the revisions over,
				// and count this one if it moves the round's times
				row.Revision, row.RevisedAt = existing[0].Revision, existing[0].RevisedAt
				if !sameTime(existing[0].StartsAt, row.StartsAt) || !sameTime(existing[0].Deadline, row.Deadline) {
					now := t.now()
					row.Revision, row.RevisedAt = row.Revision+1, &now
				}
			}
			if err := tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(&row).Error; err != nil {
				return err
			}
			n, deadline := s.Number, s.Deadline
			fx.then(func(ctx context.Context) error { return t.tasks.RoundStart(ctx, id, n, start) })
			if deadline != nil {
				d := *deadline
				fx.then(func(ctx context.Context) error { return t.tasks.RoundDeadline(ctx, id, n, d) })
			}
		}
		return roundsInOrder(tx, id, rounds)
	})
	if err != nil {
		return nil, err
	}
	return t.Rounds(ctx, id)
}

// MoveDeadline sets the deadline of a round not yet over. The new time
// gets a task of its own; the task of the old one finds the stored
// deadline changed and does nothing.
func (t *Tournaments) MoveDeadline(ctx context.Context, a league.Actor, id string, n int, deadline time.Time) (*league.TournamentRound, error) {
	deadline = deadline.UTC()
	if err := checkDeadline(deadline, t.now()); err != nil {
		return nil, err
	}
	err := t.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		r, err := readTournament(tx, id, true)
		if err != nil {
			return err
		}
		if err := organizer(tx, a, r); err != nil {
			return err
		}
		if err := stillLive(r); err != nil {
			return err
		}
		var rows []roundRow
		if err := tx.Where("tournament_id = ? AND number = ?", id, n).Find(&rows).Error; err != nil {
			return err
		}
		switch {
		case len(rows) == 0:
			return league.Errorf(league.ENOTFOUND, "no round %d is scheduled", n)
		case rows[0].Status == "finished":
			return league.Errorf(league.EPRECONDITION, "round %d is over", n)
		case rows[0].PairedAt == nil && rows[0].StartsAt != nil && !deadline.After(*rows[0].StartsAt):
			return deadlineRefused(fmt.Sprintf("must be after the round's start (%s)", rows[0].StartsAt.UTC().Format(time.RFC3339)))
		}
		upd := map[string]any{"deadline": deadline, "planned_deadline": nil}
		if !sameTime(rows[0].Deadline, &deadline) {
			upd["revision"], upd["revised_at"] = gorm.Expr("revision + 1"), t.now()
		}
		if err := tx.Model(&roundRow{}).Where("tournament_id = ? AND number = ?", id, n).
			Updates(upd).Error; err != nil {
			return err
		}
		fx.then(func(ctx context.Context) error { return t.tasks.RoundDeadline(ctx, id, n, deadline) })
		return nil
	})
	if err != nil {
		return nil, err
	}
	rounds, err := t.Rounds(ctx, id)
	if err != nil {
		return nil, err
	}
	for i := range rounds {
		if rounds[i].Number == n {
			return &rounds[i], nil
		}
	}
	return nil, league.Errorf(league.ENOTFOUND, "no round %d is scheduled", n)
}

// stillLive refuses a change of schedule to a tournament over or called off.
func stillLive(r *tournamentRow) error {
	switch r.Status {
	case league.TournamentFinished:
		return league.Errorf(league.EPRECONDITION, "the tournament is over")
	case league.TournamentCancelled:
		return league.Errorf(league.EPRECONDITION, "the tournament was cancelled")
	}
	return nil
}

// checkDeadline checks a round's new deadline against the clock. One in
// the past would end the round's games at once, which is no move of its
// time but an order to end them: a time that was fine a moment ago, so
// refused as a precondition (422), not as malformed (400).
func checkDeadline(deadline, now time.Time) error {
	switch {
	case deadline.IsZero():
		return league.Invalid("bad deadline", league.FieldError{Field: "deadline", Message: "required"})
	case deadline.After(now.Add(league.ScheduleHorizon)):
		return league.Invalid("bad deadline", league.FieldError{Field: "deadline", Message: "must be within five years"})
	case !deadline.After(now):
		return deadlineRefused(fmt.Sprintf("must be in the future (it is %s now)", now.Format(time.RFC3339)))
	}
	return nil
}

// deadlineRefused is a deadline that the round's state does not allow now.
func deadlineRefused(message string) error {
	return &league.Error{Code: league.EPRECONDITION, Message: "the deadline cannot be moved there",
		Fields: []league.FieldError{{Field: "deadline", Message: message}}}
}

// maxScheduledRound bounds the round numbers of a schedule whose format
// does not fix its rounds yet.
const maxScheduledRound = 200

// lastScheduledRound is the highest round number a schedule may name now:
// a Swiss's rounds when they are set, and once the tournament has started
// the most rounds its entries can play (competition.RoundsNeeded: a round
// robin's schedule, a bracket's waves), which the start kept the schedule
// to; otherwise maxScheduledRound.
func lastScheduledRound(tx *gorm.DB, r *tournamentRow) (int, error) {
	c := r.config()
	switch {
	case c.Format == string(competition.FormatSwiss) && c.Rounds > 0:
		return c.Rounds, nil
	case r.Status != league.TournamentRegistration:
		entries, err := startedEntries(tx, r.ID)
		if err != nil {
			return 0, err
		}
		if last, err := competition.RoundsNeeded(r.competitionConfig(), entries); err == nil {
			return min(last, maxScheduledRound), nil
		}
	}
	return maxScheduledRound, nil
}

// checkRoundSchedules checks a schedule request on its own: numbers from 1
// to last, each listed once, starts within the horizon and deadlines after
// their starts.
func checkRoundSchedules(rounds []league.RoundSchedule, last int, now time.Time) error {
	var fields []league.FieldError
	bad := func(i int, field, msg string) {
		fields = append(fields, league.FieldError{Field: fmt.Sprintf("rounds[%d].%s", i, field), Message: msg})
	}
	horizon := now.Add(league.ScheduleHorizon)
	listed := map[int]int{}
	for i, s := range rounds {
		switch j, twice := listed[s.Number]; {
		case s.Number < 1 || s.Number > last:
			bad(i, "number", fmt.Sprintf("must be 1–%d", last))
		case twice:
			bad(i, "number", fmt.Sprintf("round %d is listed twice (rounds[%d])", s.Number, j))
		default:
			listed[s.Number] = i
		}
		switch {
		case s.StartsAt.IsZero():
			bad(i, "starts_at", "required")
		case s.StartsAt.After(horizon):
			bad(i, "starts_at", "must be within five years")
		case s.StartsAt.Before(now.Add(-scheduleSkew)):
			// A mistyped year (2016 for 2026) started the tournament
			// at once, closing its registration for good.
			bad(i, "starts_at", "is in the past: give now, or a time to come, for a round to start")
		case s.Deadline != nil && !s.Deadline.After(s.StartsAt):
			bad(i, "deadline", "must be after starts_at")
		case s.Deadline != nil && s.Deadline.After(horizon):
			bad(i, "deadline", "must be within five years")
		}
	}
	if len(fields) > 0 {
		return league.Invalid("bad round", fields...)
	}
	return nil
}

// roundsInOrder checks, once a schedule is written, that the rounds still
// to be paired start in the order of their numbers: a later round cannot
// start before an earlier one is over, so a schedule that says otherwise
// would show players times that cannot hold. The fault is named in the
// request, at a round it listed.
func roundsInOrder(tx *gorm.DB, id string, rounds []league.RoundSchedule) error {
	var rows []roundRow
	if err := tx.Where("tournament_id = ? AND paired_at IS NULL", id).Order("number").Find(&rows).Error; err != nil {
		return err
	}
	index := map[int]int{}
	for i, s := range rounds {
		index[s.Number] = i
	}
	for k := 1; k < len(rows); k++ {
		prev, next := rows[k-1], rows[k]
		if prev.StartsAt == nil || next.StartsAt == nil || next.StartsAt.After(*prev.StartsAt) {
			continue
		}
		if i, ok := index[next.Number]; ok {
			return league.Invalid("rounds out of order", league.FieldError{Field: fmt.Sprintf("rounds[%d].starts_at", i),
				Message: fmt.Sprintf("must be after round %d's start (%s)", prev.Number, prev.StartsAt.UTC().Format(time.RFC3339))})
		}
		return league.Invalid("rounds out of order", league.FieldError{Field: fmt.Sprintf("rounds[%d].starts_at", index[prev.Number]),
			Message: fmt.Sprintf("must be before round %d's start (%s)", next.Number, next.StartsAt.UTC().Format(time.RFC3339))})
	}
	return nil
}

// Rounds lists the rounds with their matches and games. A cancelled
// tournament's rounds not played out, and its matches not decided, say
// "cancelled" (see calledOff): no game of them is being played, nor will be.
func (t *Tournaments) Rounds(ctx context.Context, id string) ([]league.TournamentRound, error) {
	db := t.db.WithContext(ctx)
	tr, err := readTournament(db, id, false)
	if err != nil {
		return nil, err
	}
	cancelled := tr.Status == league.TournamentCancelled
	var rounds []roundRow
	if err := db.Where("tournament_id = ?", id).Order("number").Find(&rounds).Error; err != nil {
		return nil, err
	}
	var matches []matchRow
	if err := db.Where("tournament_id = ?", id).Order("round, id").Find(&matches).Error; err != nil {
		return nil, err
	}
	var games []struct {
		ID        string
		MatchID   string
		MatchGame int
	}
	if err := db.Table("games").Select("id, match_id, match_game").Where("tournament_id = ?", id).Order("match_game").Scan(&games).Error; err != nil {
		return nil, err
	}
	gamesOf := map[string][]string{}
	for _, g := range games {
		gamesOf[g.MatchID] = append(gamesOf[g.MatchID], g.ID)
	}
	standIns, err := tournamentStandIns(db, id)
	if err != nil {
		return nil, err
	}
	byRound := map[int][]league.TournamentMatch{}
	for _, m := range matches {
		tm := league.TournamentMatch{ID: m.ID, Round: m.Round, Entries: m.entries(), Bye: m.Bye, Status: calledOff(cancelled, m.Status),
			GameWinners: m.winners(), Sequences: m.sequences(), Forfeited: m.forfeited(), Beaten: m.beaten(), Games: gamesOf[m.ID], StandIns: standIns[m.ID]}
		if m.Winner != nil {
			tm.Winner = *m.Winner
		}
		byRound[m.Round] = append(byRound[m.Round], tm)
	}
	out := make([]league.TournamentRound, 0, len(rounds))
	for _, r := range rounds {
		tr := league.TournamentRound{Number: r.Number, StartsAt: r.StartsAt, StartedAt: r.PairedAt, Deadline: r.Deadline,
			PlannedDeadline: r.PlannedDeadline, Status: calledOff(cancelled, r.Status), Revision: r.Revision, RevisedAt: r.RevisedAt, Matches: byRound[r.Number]}
		if r.StartError != nil {
			tr.StartError = *r.StartError
		}
		out = append(out, tr)
	}
	return out, nil
}

// calledOff is the status of a round or match (status, as stored) of a
// tournament, cancelled or not: in a cancelled one, whatever was not
// finished was called off. The rows keep what they were (a game that
// ended before the cancel and was settled after it still finishes its
// match); the cancel aborted their games, so "running" or "playing" would
// show a round or match as being played that never will be.
func calledOff(cancelled bool, status string) string {
	if cancelled && status != "finished" {
		return league.TournamentCancelled
	}
	return status
}

// tournamentStandIns finds, in one query, the seats of a tournament's
// games that a fill-in bot played for a player who left them (filled by a
// bot and abandoned), by match: each entry of the match whose member sat
// there, with the games (in their order) and the players.
func tournamentStandIns(db *gorm.DB, tournamentID string) (map[string][]league.StandIn, error) {
	var seats []struct {
		MatchID  string
		GameID   string
		EntryID  string
		UserID   string
		Username string
	}
	if err := db.Raw(`SELECT g.match_id, g.id AS game_id, em.entry_id, s.user_id, COALESCE(u.username, '') AS username
		FROM games g
		JOIN game_seats s ON s.game_id = g.id AND s.filled_by_bot AND s.abandoned AND s.user_id IS NOT NULL
		JOIN entry_members em ON em.tournament_id = g.tournament_id AND em.user_id = s.user_id
		JOIN entries e ON e.id = em.entry_id
		LEFT JOIN users u ON u.id = s.user_id
		WHERE g.tournament_id = ? AND g.match_id IS NOT NULL
		ORDER BY g.match_game, s.seat`, tournamentID).Scan(&seats).Error; err != nil {
		return nil, err
	}
	out := map[string][]league.StandIn{}
	for _, s := range seats {
		list := out[s.MatchID]
		i := slices.IndexFunc(list, func(x league.StandIn) bool { return x.EntryID == s.EntryID })
		if i < 0 {
			list = append(list, league.StandIn{EntryID: s.EntryID})
			i = len(list) - 1
		}
		si := &list[i]
		if !slices.Contains(si.Games, s.GameID) {
			si.Games = append(si.Games, s.GameID)
		}
		if !slices.ContainsFunc(si.Players, func(p league.StandInPlayer) bool { return p.UserID == s.UserID }) {
			si.Players = append(si.Players, league.StandInPlayer{UserID: s.UserID, Username: s.Username})
		}
		out[s.MatchID] = list
	}
	return out, nil
}

// ForUser lists the tournaments a person has an entry in, newest first,
// with the next round still to start.
// A person has at most one entry per tournament, so (created_at, id) of
// the tournament is a keyset.
func (t *Tournaments) ForUser(ctx context.Context, userID string, p league.PageRequest) (league.Page[league.UserTournament], error) {
	var page league.Page[league.UserTournament]
	p, err := p.Normalize()
	if err != nil {
		return page, err
	}
	if !validID(userID) {
		return page, noSuchUser()
	}
	db := t.db.WithContext(ctx)
	type entered struct {
		Row         tournamentRow `gorm:"embedded"`
		EntryID     string
		EntryName   string
		EntryStatus string
	}
	q := db.Table("tournaments t").Select(tournamentColumnsButSchedule+", e.id AS entry_id, e.name AS entry_name, e.status AS entry_status").
		Joins("JOIN entries e ON e.tournament_id = t.id").
		Joins("JOIN entry_members m ON m.entry_id = e.id AND m.user_id = ?", userID)
	rows, next, err := scanPage(q, keyset{key: "t.created_at", id: "t.id", desc: true, byTime: true}, p,
		func(r *entered) string { return encodeTimeCursor(r.Row.CreatedAt, r.Row.ID) })
	if err != nil {
		return page, err
	}
	if len(rows) == 0 {
		if err := parentExists(db, "users", userID, noSuchUser); err != nil {
			return page, err
		}
	}
	page.NextCursor = next
	ids := make([]string, len(rows))
	for i := range rows {
		if err := rows[i].Row.check(); err != nil { // read by Scan: no AfterFind
			return page, err
		}
		ids[i] = rows[i].Row.ID
	}
	counts, err := entryCounts(db, ids)
	if err != nil {
		return page, err
	}
	// Each tournament's next round: the first not yet paired.
	var rounds []roundRow
	if err := db.Raw(`SELECT DISTINCT ON (tournament_id) * FROM rounds
		WHERE tournament_id IN ? AND paired_at IS NULL ORDER BY tournament_id, number`, ids).Scan(&rounds).Error; err != nil {
		return page, err
	}
	nextRound := make(map[string]roundRow, len(rounds))
	for _, r := range rounds {
		nextRound[r.TournamentID] = r
	}
	// The user's entry's matches in the tournaments being played, each with
	// its latest game: one query for the page.
	var live []string
	for i := range rows {
		if rows[i].Row.Status == league.TournamentRunning || rows[i].Row.Status == league.TournamentPaused {
			live = append(live, rows[i].Row.ID)
		}
	}
	matchesOf := map[string][]entryMatchRow{}
	if len(live) > 0 {
		var ms []entryMatchRow
		if err := db.Raw(`SELECT m.tournament_id, m.id, m.round, m.status, m.bye,
			COALESCE((SELECT g.id::text FROM games g WHERE g.tournament_id = m.tournament_id AND g.match_id = m.id
				ORDER BY g.match_game DESC LIMIT 1), '') AS game_id
			FROM matches m
			JOIN entries e ON e.tournament_id = m.tournament_id
			JOIN entry_members em ON em.entry_id = e.id AND em.user_id = ?
			WHERE m.tournament_id IN ? AND m.entries @> jsonb_build_array(e.id::text)
			ORDER BY m.tournament_id, m.round, m.id`, userID, live).Scan(&ms).Error; err != nil {
			return page, err
		}
		for _, m := range ms {
			matchesOf[m.TournamentID] = append(matchesOf[m.TournamentID], m)
		}
	}
	page.Items = make([]league.UserTournament, len(rows))
	for i := range rows {
		r := &rows[i]
		ut := league.UserTournament{Tournament: *toTournament(&r.Row, counts[r.Row.ID]), EntryID: r.EntryID, EntryName: r.EntryName,
			Withdrawn: r.EntryStatus == "withdrawn"}
		nr, hasNext := nextRound[r.Row.ID]
		if hasNext && league.TournamentLive(r.Row.Status) && !ut.Withdrawn {
			ut.NextRound, ut.NextStart = nr.Number, nr.StartsAt
		}
		if slices.Contains(live, r.Row.ID) && !ut.Withdrawn {
			var next *roundRow
			if hasNext {
				next = &nr
			}
			if err := entryNextStep(&ut, &r.Row, matchesOf[r.Row.ID], next); err != nil {
				return page, err
			}
		}
		page.Items[i] = ut
	}
	return page, nil
}

// tournamentColumnsButSchedule is every column of a tournament's row but
// the schedule, which a round robin's row holds whole (650 KB stored at
// 128 entries) and a user's list of tournaments does not read: Home read
// and decoded it for each tournament listed (8 -> 28 ms for a player in
// two round robins, the performance audit). The bracket stays: it says
// where a knockout's entry stands (entryNextStep).
const tournamentColumnsButSchedule = `t.id, t.club_id, t.season_id, t.name, t.config, t.status, t.bracket,
	t.current_round, t.created_by, t.created_at, t.started_at, t.finished_at, t.cancelled_at`

// listOmits are the columns a list of tournaments leaves unread: a
// tournament's line needs neither its bracket nor its schedule, which for a
// large round robin runs to megabytes, each decoded when read (AfterFind).
var listOmits = []string{"bracket", "schedule"}

// OpenFor lists the tournaments of a person's clubs that take entries and
// that the person has not entered, newest first: those whose registration
// is open now, and those whose window opens later (it names the date), not
// those whose window has closed. Those whose rating band or least number
// of rated games bar the person are listed too, saying why (Barred): the
// person may yet play into the band, and a list that filtered them would
// hide a club's tournament without a word.
func (t *Tournaments) OpenFor(ctx context.Context, userID string, p league.PageRequest) (league.Page[league.OpenTournament], error) {
	var page league.Page[league.OpenTournament]
	p, err := p.Normalize()
	if err != nil {
		return page, err
	}
	if !validID(userID) {
		return page, noSuchUser()
	}
	db := t.db.WithContext(ctx)
	// The window's close is read from the stored config (a JSON time, or
	// null for none), so that a page holds as many rows as it asks for.
	q := db.Model(&tournamentRow{}).Omit(listOmits...).
		Where("status = ?", league.TournamentRegistration).
		Where("club_id IN (SELECT club_id FROM club_members WHERE user_id = ?)", userID).
		Where("NOT EXISTS (SELECT 1 FROM entry_members m WHERE m.tournament_id = tournaments.id AND m.user_id = ?)", userID).
		Where(`(config->>'RegistrationCloses') IS NULL OR (config->>'RegistrationCloses')::timestamptz >= ?`, t.now())
	rows, next, err := findPage(q, newestFirst, p, func(r *tournamentRow) string { return encodeTimeCursor(r.CreatedAt, r.ID) })
	if err != nil {
		return page, err
	}
	if len(rows) == 0 {
		if err := parentExists(db, "users", userID, noSuchUser); err != nil {
			return page, err
		}
	}
	tours, err := tournamentPage(db, rows, next)
	if err != nil {
		return page, err
	}
	var clubs []clubRow
	if err := db.Select("id", "name").Where("id IN ?", clubIDs(rows)).Find(&clubs).Error; err != nil {
		return page, err
	}
	names := make(map[string]string, len(clubs))
	for _, c := range clubs {
		names[c.ID] = c.Name
	}
	page.NextCursor = tours.NextCursor
	page.Items = make([]league.OpenTournament, len(tours.Items))
	// The person's rating in each pool, read once for the page (a person
	// is rated in a few pools at most); a pool with none starts afresh.
	var rated []ratingRow
	if err := db.Where("user_id = ?", userID).Find(&rated).Error; err != nil {
		return page, err
	}
	states := make(map[string]rating.PlayerState, len(rated))
	for _, r := range rated {
		states[r.Pool] = r.state()
	}
	for i, tour := range tours.Items {
		st, ok := states[entryPool(tour.Config)]
		if !ok {
			st = rating.NewState()
		}
		_, barred := entryLimitBars(tour.Config, st)
		page.Items[i] = league.OpenTournament{Tournament: tour, ClubName: names[tour.ClubID], Barred: barred}
	}
	return page, nil
}

// clubIDs are the clubs of a page of tournaments, each once.
func clubIDs(rows []tournamentRow) []string {
	var ids []string
	for _, r := range rows {
		if !slices.Contains(ids, r.ClubID) {
			ids = append(ids, r.ClubID)
		}
	}
	return ids
}

// entryMatchRow is a match of one user's entry, with its latest game.
type entryMatchRow struct {
	TournamentID string
	ID           string
	Round        int
	Status       string
	Bye          bool
	GameID       string
}

// entryNextStep sets the entry's own next step in a tournament being
// played, from its matches (by round) and the tournament's first round not
// yet paired (nil: none is scheduled): its match being played (the latest)
// or else its match of the round in play; in a knockout, whose bracket
// says where the entry stands, the next round once the bracket seats the
// entry in a match of it (IfThrough while its match being played decides
// whether it goes on), EntryWaiting while its next match waits for an
// opponent from a match not yet played, KnockedOut when no match left
// holds it or may; in other formats the tournament's next round, which
// every entry still in it plays.
func entryNextStep(ut *league.UserTournament, r *tournamentRow, mine []entryMatchRow, next *roundRow) error {
	started := map[string]entryMatchRow{}
	for _, m := range mine {
		started[m.ID] = m
		if m.Status == "playing" && !m.Bye && (ut.EntryMatch == nil || ut.EntryMatch.Status != "playing" || m.Round >= ut.EntryMatch.Round) {
			ut.EntryMatch = &league.EntryMatch{Round: m.Round, MatchID: m.ID, Status: m.Status, GameID: m.GameID}
		}
	}
	if ut.EntryMatch == nil {
		for _, m := range mine {
			if m.Round == r.CurrentRound {
				ut.EntryMatch = &league.EntryMatch{Round: m.Round, MatchID: m.ID, Status: m.Status, Bye: m.Bye}
			}
		}
	}
	// the round the next pairing makes: the first not yet paired, or the
	// one after the round in play when none is scheduled
	number, starts := r.CurrentRound+1, (*time.Time)(nil)
	if next != nil && next.Number > r.CurrentRound {
		number, starts = next.Number, next.StartsAt
	}
	if !r.elimination() {
		if ut.NextRound > 0 {
			ut.EntryNextRound = &league.EntryNextRound{Number: ut.NextRound, StartsAt: ut.NextStart}
		}
		return nil
	}
	b, err := r.bracket()
	if err != nil || b == nil {
		return err
	}
	undecided := func(m competition.Match) bool {
		return m.State == competition.StatePending || m.State == competition.StateReady
	}
	for _, m := range b.Matches {
		for _, s := range m.Slots {
			if undecided(m) && s.Source == competition.FromSeed && s.Entry == "" && !s.Empty {
				return nil // its places are not drawn yet: the bracket cannot tell
			}
		}
	}
	var seated, waiting, playing bool
	var feeding []string // the entry's matches being played
	for _, m := range b.Matches {
		if !undecided(m) || !slices.Contains(m.Entries(), ut.EntryID) {
			continue
		}
		switch sm, ok := started[m.ID]; {
		case ok && sm.Status == "playing":
			playing = true
			feeding = append(feeding, m.ID)
		case ok:
			// paired and over, the bracket not yet told: nothing to say
		case m.State == competition.StateReady:
			seated = true
		default:
			waiting = true
		}
	}
	// a later match waiting for the winner or the loser of the entry's match being played
	var winnerGoesOn, loserGoesOn bool
	for _, m := range b.Matches {
		if !undecided(m) {
			continue
		}
		for _, s := range m.Slots {
			if s.Entry == "" && !s.Empty && slices.Contains(feeding, s.Match) {
				winnerGoesOn = winnerGoesOn || s.Source == competition.FromWinner
				loserGoesOn = loserGoesOn || s.Source == competition.FromLoser
			}
		}
	}
	switch {
	case seated:
		ut.EntryNextRound = &league.EntryNextRound{Number: number, StartsAt: starts}
	case playing && loserGoesOn:
		ut.EntryNextRound = &league.EntryNextRound{Number: number, StartsAt: starts}
	case playing && winnerGoesOn:
		ut.EntryNextRound = &league.EntryNextRound{Number: number, StartsAt: starts, IfThrough: true}
	case waiting:
		ut.EntryWaiting = true
	case !playing:
		ut.KnockedOut = true
	}
	return nil
}

// sameTime says whether two optional times are both unset or the same instant.
func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}
