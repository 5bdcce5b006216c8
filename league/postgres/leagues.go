package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"time"

	"gorm.io/gorm"

	"github.com/seqleague/seqleague/league"
)

type leagueRow struct {
	ID          string `gorm:"primaryKey;type:uuid;default:gen_random_uuid()"`
	ClubID      string
	Name        string
	Description string
	CreatedBy   *string
	CreatedAt   time.Time
}

func (leagueRow) TableName() string { return "leagues" }

type seasonRow struct {
	ID        string `gorm:"primaryKey;type:uuid;default:gen_random_uuid()"`
	LeagueID  string
	Name      string
	Status    string
	Standings []byte `gorm:"type:jsonb"`
	CreatedAt time.Time
	ClosedAt  *time.Time
}

func (seasonRow) TableName() string { return "seasons" }

func toLeague(r leagueRow) league.LeagueInfo {
	return league.LeagueInfo{ID: r.ID, ClubID: r.ClubID, Name: r.Name, Description: r.Description, CreatedAt: r.CreatedAt}
}

func toSeason(r seasonRow) league.Season {
	return league.Season{ID: r.ID, LeagueID: r.LeagueID, Name: r.Name, Status: r.Status, CreatedAt: r.CreatedAt, ClosedAt: r.ClosedAt}
}

// Leagues implements league.Leagues.
type Leagues struct {
	db *gorm.DB
}

var _ league.Leagues = (*Leagues)(nil)

// NewLeagues builds the league service.
func NewLeagues(db *DB) *Leagues { return &Leagues{db: db.Gorm} }

func noSuchLeague() error { return league.Errorf(league.ENOTFOUND, "no such league") }
func noSuchSeason() error { return league.Errorf(league.ENOTFOUND, "no such season") }

func readLeague(tx *gorm.DB, id string) (*leagueRow, error) {
	if !validID(id) {
		return nil, noSuchLeague()
	}
	var r leagueRow
	if err := tx.Where("id = ?", id).Take(&r).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, noSuchLeague()
		}
		return nil, err
	}
	return &r, nil
}

func readSeason(tx *gorm.DB, id string) (*seasonRow, error) {
	if !validID(id) {
		return nil, noSuchSeason()
	}
	var r seasonRow
	if err := tx.Where("id = ?", id).Take(&r).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, noSuchSeason()
		}
		return nil, err
	}
	return &r, nil
}

// seasonOfClub checks that a season is open and belongs to a league of the
// club. The season's row is share-locked until tx ends, so that a close
// (which locks it FOR UPDATE, then counts the season's tournaments not yet
// over) waits for the tournament being created and refuses, or comes first
// and is seen here: read without the lock, the season was open, and the
// tournament was stored just after the close had frozen the season's table.
func seasonOfClub(tx *gorm.DB, seasonID, clubID string) error {
	s, err := readSeason(tx.Clauses(lockingShare()), seasonID)
	if err != nil {
		return league.Invalid("no such season", league.FieldError{Field: "season_id", Message: "no such season"})
	}
	l, err := readLeague(tx, s.LeagueID)
	if err != nil {
		return err
	}
	if l.ClubID != clubID {
		return league.Invalid("the season is another club's", league.FieldError{Field: "season_id", Message: "belongs to another club"})
	}
	if s.Status != "open" {
		return &league.Error{Code: league.EPRECONDITION, Message: "the season is closed",
			Fields: []league.FieldError{{Field: "season_id", Message: "is closed: a closed season takes no new tournaments"}}}
	}
	return nil
}

// checkName is league.NormalizeName's answer as an error, for a league's or
// a season's name.
func checkName(name string) (string, error) {
	name, ferr := league.NormalizeName(name)
	if ferr != nil {
		return "", league.Invalid("bad name", *ferr)
	}
	return name, nil
}

func leagueNameTaken() error {
	return &league.Error{Code: league.ECONFLICT, Message: "the club has a league of this name",
		Fields: []league.FieldError{{Field: "name", Message: "is taken"}}}
}

func seasonNameTaken() error {
	return &league.Error{Code: league.ECONFLICT, Message: "the league has a season of this name",
		Fields: []league.FieldError{{Field: "name", Message: "is taken"}}}
}

// CreateLeague adds a league to a club (organizers).
func (l *Leagues) CreateLeague(ctx context.Context, a league.Actor, clubID, name, description string) (*league.LeagueInfo, error) {
	name, err := checkName(name)
	if err != nil {
		return nil, err
	}
	if ferr := league.CheckDescription(description); ferr != nil {
		return nil, league.Invalid("bad description", *ferr)
	}
	var out league.LeagueInfo
	err = inTx(ctx, l.db, func(tx *gorm.DB) error {
		if err := organizerOf(tx, a, clubID); err != nil {
			return err
		}
		row := leagueRow{ClubID: clubID, Name: name, Description: description, CreatedBy: &a.UserID, CreatedAt: storedNow()}
		if err := tx.Create(&row).Error; err != nil {
			if uniqueViolation(err) != "" {
				return leagueNameTaken()
			}
			return err
		}
		out = toLeague(row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Leagues pages through a club's leagues by name (the id breaks ties).
func (l *Leagues) Leagues(ctx context.Context, clubID string, p league.PageRequest) (league.Page[league.LeagueInfo], error) {
	var page league.Page[league.LeagueInfo]
	p, err := p.Normalize()
	if err != nil {
		return page, err
	}
	if !validID(clubID) {
		return page, noSuchClub()
	}
	q := l.db.WithContext(ctx).Where("club_id = ?", clubID)
	rows, next, err := findPage(q, byName, p, func(r *leagueRow) string { return encodeKeyCursor(r.Name, r.ID) })
	if err != nil {
		return page, err
	}
	if len(rows) == 0 {
		if err := parentExists(l.db.WithContext(ctx), "clubs", clubID, noSuchClub); err != nil {
			return page, err
		}
	}
	page.NextCursor = next
	page.Items = make([]league.LeagueInfo, len(rows))
	for i, r := range rows {
		page.Items[i] = toLeague(r)
	}
	return page, nil
}

// League returns a league.
func (l *Leagues) League(ctx context.Context, id string) (*league.LeagueInfo, error) {
	r, err := readLeague(l.db.WithContext(ctx), id)
	if err != nil {
		return nil, err
	}
	out := toLeague(*r)
	return &out, nil
}

// UpdateLeague renames a league or changes its description (organizers of
// its club), each by the rule of CreateLeague. The league's row is locked,
// so that two changes at once apply one after the other.
func (l *Leagues) UpdateLeague(ctx context.Context, a league.Actor, id string, u league.LeagueUpdate) (*league.LeagueInfo, error) {
	changes := map[string]any{}
	var fields []league.FieldError
	if u.Name != nil {
		name, ferr := league.NormalizeName(*u.Name)
		if ferr != nil {
			fields = append(fields, *ferr)
		}
		changes["name"] = name
	}
	if u.Description != nil {
		if ferr := league.CheckDescription(*u.Description); ferr != nil {
			fields = append(fields, *ferr)
		}
		changes["description"] = *u.Description
	}
	if len(fields) > 0 {
		return nil, league.Invalid("the change is not valid", fields...)
	}
	var out league.LeagueInfo
	err := inTx(ctx, l.db, func(tx *gorm.DB) error {
		r, err := readLeague(tx.Clauses(lockingUpdate()), id)
		if err != nil {
			return err
		}
		if err := organizerOf(tx, a, r.ClubID); err != nil {
			return err
		}
		if len(changes) > 0 {
			if err := writeNamed(tx, &leagueRow{}, id, changes, leagueNameTaken); err != nil {
				return err
			}
			if r, err = readLeague(tx, id); err != nil {
				return err
			}
		}
		out = toLeague(*r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// CreateSeason opens a season of a league (organizers of its club).
func (l *Leagues) CreateSeason(ctx context.Context, a league.Actor, leagueID, name string) (*league.Season, error) {
	name, err := checkName(name)
	if err != nil {
		return nil, err
	}
	var out league.Season
	err = inTx(ctx, l.db, func(tx *gorm.DB) error {
		lg, err := readLeague(tx, leagueID)
		if err != nil {
			return err
		}
		if err := organizerOf(tx, a, lg.ClubID); err != nil {
			return err
		}
		row := seasonRow{LeagueID: leagueID, Name: name, Status: "open", CreatedAt: storedNow()}
		if err := tx.Create(&row).Error; err != nil {
			if uniqueViolation(err) != "" {
				return seasonNameTaken()
			}
			return err
		}
		out = toSeason(row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Seasons pages through a league's seasons, newest first (the id breaks
// ties of created_at).
func (l *Leagues) Seasons(ctx context.Context, leagueID string, p league.PageRequest) (league.Page[league.Season], error) {
	var page league.Page[league.Season]
	p, err := p.Normalize()
	if err != nil {
		return page, err
	}
	db := l.db.WithContext(ctx)
	if _, err := readLeague(db, leagueID); err != nil {
		return page, err
	}
	q := db.Where("league_id = ?", leagueID)
	rows, next, err := findPage(q, newestFirst, p, func(r *seasonRow) string { return encodeTimeCursor(r.CreatedAt, r.ID) })
	if err != nil {
		return page, err
	}
	page.NextCursor = next
	page.Items = make([]league.Season, len(rows))
	for i, r := range rows {
		page.Items[i] = toSeason(r)
	}
	return page, nil
}

// UpdateSeason renames an open season (organizers of its league's club),
// by the rule of CreateSeason. A closed season is kept as it was closed:
// its name stands in the frozen table's record. The row is locked as
// CloseSeason locks it, so a rename and a close apply one after the other.
func (l *Leagues) UpdateSeason(ctx context.Context, a league.Actor, id string, u league.SeasonUpdate) (*league.Season, error) {
	changes := map[string]any{}
	if u.Name != nil {
		name, err := checkName(*u.Name)
		if err != nil {
			return nil, err
		}
		changes["name"] = name
	}
	var out league.Season
	err := inTx(ctx, l.db, func(tx *gorm.DB) error {
		s, err := readSeason(tx.Clauses(lockingUpdate()), id)
		if err != nil {
			return err
		}
		lg, err := readLeague(tx, s.LeagueID)
		if err != nil {
			return err
		}
		if err := organizerOf(tx, a, lg.ClubID); err != nil {
			return err
		}
		if s.Status == "closed" {
			return league.Errorf(league.EPRECONDITION, "the season is closed; a closed season stays as it was closed")
		}
		if len(changes) > 0 {
			if err := writeNamed(tx, &seasonRow{}, id, changes, seasonNameTaken); err != nil {
				return err
			}
			if s, err = readSeason(tx, id); err != nil {
				return err
			}
		}
		out = toSeason(*s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// writeNamed writes changes to the row of model with id (a league's, a
// season's), a name another row of its parent holds refused as taken().
func writeNamed(tx *gorm.DB, model any, id string, changes map[string]any, taken func() error) error {
	err := tx.Model(model).Where("id = ?", id).Updates(changes).Error
	if uniqueViolation(err) != "" {
		return taken()
	}
	return err
}

// placementPoints is what a tournament place is worth in a season table:
// 10, 7, 5, 4 for the first four, 2 for places 5–8 and 1 for taking part.
func placementPoints(place int) float64 {
	switch {
	case place == 1:
		return 10
	case place == 2:
		return 7
	case place == 3:
		return 5
	case place == 4:
		return 4
	case place <= 8:
		return 2
	}
	return 1
}

// seasonTable computes a season's table from its tournaments: every member
// of an entry gets the entry's placement points (finished tournaments
// only), and ties on points are broken by league.SeasonTieBreaks.
func seasonTable(tx *gorm.DB, seasonID string) ([]league.SeasonRow, error) {
	var ts []tournamentRow
	if err := tx.Where("season_id = ? AND status = 'finished'", seasonID).Find(&ts).Error; err != nil {
		return nil, err
	}
	rows := map[string]*league.SeasonRow{}
	for i := range ts {
		standings, err := standingsOf(tx, &ts[i])
		if err != nil {
			return nil, err
		}
		entries, err := loadEntries(tx, ts[i].ID, "")
		if err != nil {
			return nil, err
		}
		members := map[string][]league.EntryMember{}
		for _, e := range entries {
			members[e.ID] = e.Members
		}
		for _, s := range standings {
			for _, m := range members[s.EntryID] {
				if m.UserID == "" {
					continue
				}
				row := rows[m.UserID]
				if row == nil {
					row = &league.SeasonRow{UserID: m.UserID, Username: m.Username}
					rows[m.UserID] = row
				}
				row.Tournaments++
				row.Points += placementPoints(s.Rank)
				if s.Rank == 1 {
					row.Titles++
				}
				row.MatchWins += s.Wins
				row.Sequences += s.Sequences
			}
		}
	}
	out := make([]league.SeasonRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	// Points first, then league.SeasonTieBreaks in their order.
	key := func(r league.SeasonRow) []float64 {
		k := []float64{r.Points}
		for _, tb := range league.SeasonTieBreaks {
			k = append(k, tb.Value(r))
		}
		return k
	}
	sort.Slice(out, func(i, j int) bool {
		if c := slices.Compare(key(out[i]), key(out[j])); c != 0 {
			return c > 0
		}
		return out[i].Username < out[j].Username
	})
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && slices.Equal(key(out[i]), key(out[i-1])) {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out, nil
}

// SeasonStandings is a season's table: live while open, frozen once
// closed.
func (l *Leagues) SeasonStandings(ctx context.Context, seasonID string) (*league.SeasonTable, error) {
	db := l.db.WithContext(ctx)
	s, err := readSeason(db, seasonID)
	if err != nil {
		return nil, err
	}
	out := &league.SeasonTable{Season: toSeason(*s), Frozen: s.Status == "closed"}
	if out.Frozen {
		if err := json.Unmarshal(s.Standings, &out.Rows); err != nil {
			return nil, err
		}
		return out, nil
	}
	out.Rows, err = seasonTable(db, seasonID)
	return out, err
}

// CloseSeason freezes a season's table; nothing changes it afterwards.
func (l *Leagues) CloseSeason(ctx context.Context, a league.Actor, seasonID string) (*league.SeasonTable, error) {
	var out *league.SeasonTable
	err := inTx(ctx, l.db, func(tx *gorm.DB) error {
		s, err := readSeason(tx.Clauses(lockingUpdate()), seasonID)
		if err != nil {
			return err
		}
		lg, err := readLeague(tx, s.LeagueID)
		if err != nil {
			return err
		}
		if err := organizerOf(tx, a, lg.ClubID); err != nil {
			return err
		}
		if s.Status == "closed" {
			return league.Errorf(league.EPRECONDITION, "the season is already closed")
		}
		// A cancelled tournament is over too: it adds nothing to the table.
		var running int64
		if err := tx.Model(&tournamentRow{}).Where("season_id = ? AND status IN ?", seasonID,
			[]string{league.TournamentRegistration, league.TournamentRunning, league.TournamentPaused}).Count(&running).Error; err != nil {
			return err
		}
		if running > 0 {
			return league.Errorf(league.EPRECONDITION, "tournaments of the season not yet over (finished or cancelled): %d", running)
		}
		rows, err := seasonTable(tx, seasonID)
		if err != nil {
			return err
		}
		now := time.Now().UTC()
		if err := tx.Model(s).Updates(map[string]any{"status": "closed", "standings": mustJSON(rows), "closed_at": now}).Error; err != nil {
			return err
		}
		s.Status, s.ClosedAt = "closed", &now
		out = &league.SeasonTable{Season: toSeason(*s), Frozen: true, Rows: rows}
		return nil
	})
	return out, err
}

// leagueMembersFilter keeps a leaderboard to the people who played for an
// entry of a tournament of one of the league's seasons. The league's
// tournaments are read first and named in the filter: joined inside it, the
// planner could not tell how few they are, and walked the board probing
// each player's entries (600-790 ms at 500,000 members and 20,000 rated
// players, 72-89 ms before migration 00037's index; 5.4 ms with the
// tournaments named, EXPLAIN ANALYZE).
func leagueMembersFilter(db *gorm.DB, leagueID string) (sqlFilter, error) {
	if _, err := readLeague(db, leagueID); err != nil {
		return sqlFilter{}, err
	}
	var ids []string
	if err := db.Raw(`SELECT t.id FROM tournaments t JOIN seasons s ON s.id = t.season_id WHERE s.league_id = ?`, leagueID).
		Scan(&ids).Error; err != nil {
		return sqlFilter{}, err
	}
	if len(ids) == 0 {
		return sqlFilter{sql: "false"}, nil
	}
	return sqlFilter{sql: `r.user_id IN (SELECT em.user_id FROM entry_members em WHERE em.tournament_id IN ? AND em.user_id IS NOT NULL)`,
		args: []any{ids}}, nil
}

// storedNow is the time as PostgreSQL keeps it, to the microsecond, so
// that a creation answers the time every later read gives back (and the
// games' and tournaments' clock: a move's answer made from the clock said
// a time to the nanosecond that a repeat of it, read back, did not).
func storedNow() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }
