package postgres

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/seqleague/seqleague/league"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

type clubRow struct {
	ID          string    `gorm:"column:id;primaryKey"`
	Name        string    `gorm:"column:name"`
	Description string    `gorm:"column:description"`
	CreatedBy   *string   `gorm:"column:created_by"`
	CreatedAt   time.Time `gorm:"column:created_at"`
	UpdatedAt   time.Time `gorm:"column:updated_at"`
}

func (clubRow) TableName() string { return "clubs" }

// clubView is a club row with what is derived from its members.
// (Flat, not embedding clubRow: GORM skips embedded unexported types.)
type clubView struct {
	ID          string    `gorm:"column:id"`
	Name        string    `gorm:"column:name"`
	Description string    `gorm:"column:description"`
	CreatedBy   *string   `gorm:"column:created_by"`
	CreatedAt   time.Time `gorm:"column:created_at"`
	UpdatedAt   time.Time `gorm:"column:updated_at"`
	OwnerID     *string   `gorm:"column:owner_id"`
	MemberCount int       `gorm:"column:member_count"`
}

func fromClubView(v clubView) league.Club {
	c := league.Club{ID: v.ID, Name: v.Name, Description: v.Description, MemberCount: v.MemberCount,
		CreatedAt: v.CreatedAt.UTC(), UpdatedAt: v.UpdatedAt.UTC()}
	if v.OwnerID != nil {
		c.OwnerID = *v.OwnerID
	}
	return c
}

// sortedClubView is a club listed by name, with its name lower-cased by
// PostgreSQL for the cursor: Go's lower-casing differs for some letters,
// and a cursor made by it could skip or repeat clubs.
type sortedClubView struct {
	View     clubView `gorm:"embedded"`
	SortName string   `gorm:"column:sort_name"`
}

// clubsByName pages clubs (as c) by lower-cased name: names are unique
// without regard to case, and the id only makes the order total.
var clubsByName = keyset{key: "lower(c.name)", id: "c.id"}

const clubViewColumns = `c.id, c.name, c.description, c.created_at, c.updated_at,
	(SELECT m.user_id FROM club_members m WHERE m.club_id = c.id AND m.role = 'owner') AS owner_id,
	(SELECT count(*) FROM club_members m WHERE m.club_id = c.id) AS member_count`

type memberRow struct {
	ClubID   string    `gorm:"column:club_id;primaryKey"`
	UserID   string    `gorm:"column:user_id;primaryKey"`
	Role     string    `gorm:"column:role"`
	JoinedAt time.Time `gorm:"column:joined_at"`
}

func (memberRow) TableName() string { return "club_members" }

// memberView is a membership with the member's name.
type memberView struct {
	UserID   string    `gorm:"column:user_id"`
	Username string    `gorm:"column:username"`
	Role     string    `gorm:"column:role"`
	JoinedAt time.Time `gorm:"column:joined_at"`
}

func fromMemberView(v memberView) league.Member {
	return league.Member{UserID: v.UserID, Username: v.Username, Role: league.ClubRole(v.Role), JoinedAt: v.JoinedAt.UTC()}
}

type inviteRow struct {
	ID        string    `gorm:"column:id;primaryKey"`
	ClubID    string    `gorm:"column:club_id"`
	CodeHash  []byte    `gorm:"column:code_hash"`
	CreatedBy string    `gorm:"column:created_by"`
	CreatedAt time.Time `gorm:"column:created_at"`
	ExpiresAt time.Time `gorm:"column:expires_at"`
	MaxUses   int       `gorm:"column:max_uses"`
	Uses      int       `gorm:"column:uses"`
}

func (inviteRow) TableName() string { return "club_invites" }

// inviteCodeBytes is the size of an invite code's secret (80 bits: codes
// are typed by people, expire and are rate-limited by their uses).
const inviteCodeBytes = 10

// newInviteCode is a fresh invite code: 16 characters of base32 (A–Z and
// 2–7), which people read out and type without the - and _ of base64 (a
// code could begin with "-") or its letters that uppercasing folded
// together. Codes made before were base64 uppercased; Join takes both.
func newInviteCode() (string, error) {
	b := make([]byte, inviteCodeBytes)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base32.StdEncoding.EncodeToString(b), nil
}

// Clubs implements league.Clubs.
type Clubs struct {
	db     *gorm.DB
	budget creationBudget
}

var _ league.Clubs = (*Clubs)(nil)

// NewClubs returns the club service.
func NewClubs(db *DB) *Clubs {
	return &Clubs{db: db.Gorm, budget: creationBudget{table: "clubs", what: "clubs"}}
}

// WithDailyLimit bounds the clubs one account (not a site admin) may
// create in any league.CreationWindow; 0 is no bound. Call it while
// wiring, before serving.
func (s *Clubs) WithDailyLimit(n int) *Clubs {
	s.budget.limit = n
	return s
}

func noSuchClub() error { return league.Errorf(league.ENOTFOUND, "no such club") }

// clubRole reads actor's role in a club inside tx (ENOTFOUND if there is no
// such club). With lock it also locks the club row, which serializes every
// change to the club's memberships. Other services of this package call it
// to check permissions inside their own transactions.
func clubRole(tx *gorm.DB, actor league.Actor, clubID string, lock bool) (league.ClubRole, error) {
	if !validID(clubID) {
		return league.RoleNone, noSuchClub()
	}
	q := tx.Model(&clubRow{}).Where("id = ?", clubID)
	if lock {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var found []string
	if err := q.Pluck("id", &found).Error; err != nil {
		return league.RoleNone, err
	}
	if len(found) == 0 {
		return league.RoleNone, noSuchClub()
	}
	return memberRole(tx, clubID, actor.UserID)
}

// memberRole is userID's role in a club, RoleNone if not a member.
func memberRole(tx *gorm.DB, clubID, userID string) (league.ClubRole, error) {
	if !validID(userID) {
		return league.RoleNone, nil
	}
	var roles []string
	err := tx.Model(&memberRow{}).Where("club_id = ? AND user_id = ?", clubID, userID).Pluck("role", &roles).Error
	if err != nil || len(roles) == 0 {
		return league.RoleNone, err
	}
	return league.ClubRole(roles[0]), nil
}

func (s *Clubs) ClubRole(ctx context.Context, actor league.Actor, clubID string) (league.ClubRole, error) {
	return clubRole(s.db.WithContext(ctx), actor, clubID, false)
}

func (s *Clubs) CanOrganize(ctx context.Context, actor league.Actor, clubID string) error {
	if actor.Anonymous() && !actor.IsAdmin {
		return league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	role, err := s.ClubRole(ctx, actor, clubID)
	if err != nil {
		return err
	}
	return league.CanOrganizeAs(actor, role)
}

func (s *Clubs) loadClub(tx *gorm.DB, id string) (league.Club, error) {
	if !validID(id) {
		return league.Club{}, noSuchClub()
	}
	var v clubView
	err := tx.Table("clubs AS c").Select(clubViewColumns).Where("c.id = ?", id).Take(&v).Error
	if notFound(err) {
		return league.Club{}, noSuchClub()
	}
	if err != nil {
		return league.Club{}, err
	}
	return fromClubView(v), nil
}

func nameTaken() error {
	return &league.Error{Code: league.ECONFLICT, Message: "a club of that name exists",
		Fields: []league.FieldError{{Field: "name", Message: "is taken"}}}
}

func (s *Clubs) Create(ctx context.Context, actor league.Actor, in league.NewClub) (league.Club, error) {
	if actor.Anonymous() {
		return league.Club{}, league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	name, ferr := league.NormalizeClubName(in.Name)
	var fields []league.FieldError
	if ferr != nil {
		fields = append(fields, *ferr)
	}
	if ferr := league.CheckDescription(in.Description); ferr != nil {
		fields = append(fields, *ferr)
	}
	if len(fields) > 0 {
		return league.Club{}, league.Invalid("the club is not valid", fields...)
	}
	var club league.Club
	err := inTx(ctx, s.db, func(tx *gorm.DB) error {
		// A club made by an account as it closes would have an owner
		// nobody can reach: the close counts the clubs it owns first.
		if err := holdLiveAccount(tx, actor.UserID); err != nil {
			return err
		}
		now := time.Now().UTC()
		if err := s.budget.spend(tx, actor, now); err != nil {
			return err
		}
		row := clubRow{ID: uuid.NewString(), Name: name, Description: in.Description, CreatedAt: now, UpdatedAt: now}
		if actor.UserID != "" {
			row.CreatedBy = &actor.UserID
		}
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		if err := tx.Create(&memberRow{ClubID: row.ID, UserID: actor.UserID, Role: string(league.RoleOwner), JoinedAt: now}).Error; err != nil {
			return err
		}
		var err error
		club, err = s.loadClub(tx, row.ID)
		return err
	})
	if uniqueViolation(err) != "" {
		return league.Club{}, nameTaken()
	}
	return club, err
}

func (s *Clubs) Club(ctx context.Context, actor league.Actor, id string) (league.Club, error) {
	return s.loadClub(s.db.WithContext(ctx), id)
}

func (s *Clubs) List(ctx context.Context, actor league.Actor, f league.ClubFilter) (league.Page[league.Club], error) {
	var page league.Page[league.Club]
	p, err := f.Page.Normalize()
	if err != nil {
		return page, err
	}
	if len([]rune(f.Query)) > league.ClubQueryMax {
		return page, league.Invalid("the search is not valid", league.FieldError{Field: "q", Message: "must be at most 64 characters"})
	}
	if strings.ContainsRune(f.Query, 0) {
		return page, league.Invalid("the search is not valid", league.FieldError{Field: "q", Message: "may not contain NUL characters"})
	}
	q := s.db.WithContext(ctx).Table("clubs AS c").Select(clubViewColumns + ", lower(c.name) AS sort_name")
	if f.Query != "" {
		q = q.Where(`c.name ILIKE ?`, likeContains(f.Query))
	}
	rows, next, err := scanPage(q, clubsByName, p, func(r *sortedClubView) string { return encodeKeyCursor(r.SortName, r.View.ID) })
	if err != nil {
		return page, err
	}
	page.NextCursor = next
	page.Items = make([]league.Club, 0, len(rows))
	for _, r := range rows {
		page.Items = append(page.Items, fromClubView(r.View))
	}
	return page, nil
}

func (s *Clubs) Update(ctx context.Context, actor league.Actor, id string, u league.ClubUpdate) (league.Club, error) {
	if actor.Anonymous() && !actor.IsAdmin {
		return league.Club{}, league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	var club league.Club
	err := inTx(ctx, s.db, func(tx *gorm.DB) error {
		role, err := clubRole(tx, actor, id, true)
		if err != nil {
			return err
		}
		if err := league.CanManageAs(actor, role); err != nil {
			return err
		}
		changes := map[string]any{}
		var fields []league.FieldError
		if u.Name != nil {
			name, ferr := league.NormalizeClubName(*u.Name)
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
		newOwner := league.RoleNone
		if u.OwnerID != nil {
			// The new owner's account is held until the commit: closing it
			// meanwhile would count the clubs it owns before the hand-over
			// and then delete its memberships, leaving the club no owner.
			// A closed account is no member.
			live, err := holdIfLive(tx, *u.OwnerID)
			if err != nil {
				return err
			}
			if live {
				if newOwner, err = memberRole(tx, id, *u.OwnerID); err != nil {
					return err
				}
			}
			if newOwner == league.RoleNone {
				fields = append(fields, league.FieldError{Field: "owner_id", Message: "must be a member of the club"})
			}
		}
		if len(fields) > 0 {
			return league.Invalid("the change is not valid", fields...)
		}
		if u.OwnerID != nil && newOwner != league.RoleOwner {
			// The old owner steps down first: the one-owner index would
			// refuse two at once.
			if err := tx.Model(&memberRow{}).Where("club_id = ? AND role = ?", id, string(league.RoleOwner)).
				Update("role", string(league.RoleOrganizer)).Error; err != nil {
				return err
			}
			if err := tx.Model(&memberRow{}).Where("club_id = ? AND user_id = ?", id, *u.OwnerID).
				Update("role", string(league.RoleOwner)).Error; err != nil {
				return err
			}
		}
		changes["updated_at"] = time.Now().UTC()
		if err := tx.Model(&clubRow{}).Where("id = ?", id).Updates(changes).Error; err != nil {
			return err
		}
		club, err = s.loadClub(tx, id)
		return err
	})
	if uniqueViolation(err) != "" {
		return league.Club{}, nameTaken()
	}
	return club, err
}

func (s *Clubs) Members(ctx context.Context, actor league.Actor, clubID string, p league.PageRequest) (league.Page[league.Member], error) {
	var page league.Page[league.Member]
	p, err := p.Normalize()
	if err != nil {
		return page, err
	}
	after, err := decodeCursor(p.Cursor)
	if err != nil {
		return page, err
	}
	err = inTx(ctx, s.db, func(tx *gorm.DB) error {
		page.NextCursor = ""
		if _, err := clubRole(tx, actor, clubID, false); err != nil {
			return err
		}
		q := tx.Table("club_members AS m").Select("m.user_id, m.role, m.joined_at, u.username").
			Joins("JOIN users u ON u.id = m.user_id").Where("m.club_id = ?", clubID)
		if p.Cursor != "" {
			q = q.Where("lower(u.username) > ?", after)
		}
		var rows []memberView
		if err := q.Order("lower(u.username)").Limit(p.Limit + 1).Find(&rows).Error; err != nil {
			return err
		}
		if len(rows) > p.Limit {
			rows = rows[:p.Limit]
			page.NextCursor = encodeCursor(strings.ToLower(rows[len(rows)-1].Username))
		}
		page.Items = make([]league.Member, 0, len(rows))
		for _, r := range rows {
			page.Items = append(page.Items, fromMemberView(r))
		}
		return nil
	}, readOnly)
	return page, err
}

func (s *Clubs) member(tx *gorm.DB, clubID, userID string) (league.Member, error) {
	var v memberView
	err := tx.Table("club_members AS m").Select("m.user_id, m.role, m.joined_at, u.username").
		Joins("JOIN users u ON u.id = m.user_id").Where("m.club_id = ? AND m.user_id = ?", clubID, userID).Take(&v).Error
	if notFound(err) {
		return league.Member{}, league.Errorf(league.ENOTFOUND, "no such member")
	}
	return fromMemberView(v), err
}

// normalizeInviteCode makes codes forgiving of case and surrounding space,
// as people type them.
func normalizeInviteCode(code string) string { return strings.ToUpper(strings.TrimSpace(code)) }

func (s *Clubs) Join(ctx context.Context, actor league.Actor, clubID, code string) (league.Member, error) {
	if actor.Anonymous() {
		return league.Member{}, league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	badCode := func(msg string) error {
		return league.Invalid("the invite code cannot be used", league.FieldError{Field: "code", Message: msg})
	}
	code = normalizeInviteCode(code)
	if code == "" {
		return league.Member{}, badCode("is required")
	}
	var m league.Member
	err := inTx(ctx, s.db, func(tx *gorm.DB) error {
		if err := holdLiveAccount(tx, actor.UserID); err != nil {
			return err
		}
		role, err := clubRole(tx, actor, clubID, true)
		if err != nil {
			return err
		}
		if role != league.RoleNone {
			return league.Errorf(league.ECONFLICT, "you are already a member of this club")
		}
		var inv inviteRow
		err = tx.Clauses(clause.Locking{Strength: "UPDATE"}).
			Where("club_id = ? AND code_hash = ?", clubID, hashSecret(code)).Take(&inv).Error
		if notFound(err) {
			return badCode("is not an invite code of this club")
		}
		if err != nil {
			return err
		}
		now := time.Now().UTC()
		if !now.Before(inv.ExpiresAt) {
			return badCode("has expired")
		}
		if inv.Uses >= inv.MaxUses {
			return badCode("has been used up")
		}
		if err := tx.Model(&inv).Update("uses", gorm.Expr("uses + 1")).Error; err != nil {
			return err
		}
		if err := tx.Create(&memberRow{ClubID: clubID, UserID: actor.UserID, Role: string(league.RoleMember), JoinedAt: now}).Error; err != nil {
			return err
		}
		m, err = s.member(tx, clubID, actor.UserID)
		return err
	})
	if uniqueViolation(err) != "" {
		return league.Member{}, league.Errorf(league.ECONFLICT, "you are already a member of this club")
	}
	return m, err
}

func (s *Clubs) CreateInvite(ctx context.Context, actor league.Actor, clubID string, in league.NewInvite) (league.Invite, error) {
	if actor.Anonymous() {
		// An invite names its creator, so even a site admin acting from
		// the command line cannot make one.
		return league.Invite{}, league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	if in.ExpiresIn == 0 {
		in.ExpiresIn = league.DefaultInviteTTL
	}
	if in.MaxUses == 0 {
		in.MaxUses = 1
	}
	var inv league.Invite
	err := inTx(ctx, s.db, func(tx *gorm.DB) error {
		role, err := clubRole(tx, actor, clubID, false)
		if err != nil {
			return err
		}
		if err := league.CanOrganizeAs(actor, role); err != nil {
			return err
		}
		var fields []league.FieldError
		if in.ExpiresIn < time.Hour || in.ExpiresIn > league.MaxInviteTTL {
			fields = append(fields, league.FieldError{Field: "expires_in_hours", Message: "must be 1 to 2160 (90 days)"})
		}
		if in.MaxUses < 1 || in.MaxUses > league.MaxInviteUses {
			fields = append(fields, league.FieldError{Field: "max_uses", Message: "must be 1 to 1000"})
		}
		if len(fields) > 0 {
			return league.Invalid("the invite is not valid", fields...)
		}
		code, err := newInviteCode()
		if err != nil {
			return err
		}
		now := time.Now().UTC()
		row := inviteRow{ID: uuid.NewString(), ClubID: clubID, CodeHash: hashSecret(code), CreatedBy: actor.UserID,
			CreatedAt: now, ExpiresAt: now.Add(in.ExpiresIn), MaxUses: in.MaxUses}
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		inv = league.Invite{ClubID: clubID, Code: code, ExpiresAt: row.ExpiresAt, MaxUses: row.MaxUses}
		return nil
	})
	return inv, err
}

func (s *Clubs) Leave(ctx context.Context, actor league.Actor, clubID string) error {
	if actor.Anonymous() {
		return league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	return inTx(ctx, s.db, func(tx *gorm.DB) error {
		role, err := clubRole(tx, actor, clubID, true)
		if err != nil {
			return err
		}
		switch role {
		case league.RoleNone:
			return league.Errorf(league.ENOTFOUND, "you are not a member of this club")
		case league.RoleOwner:
			return league.Errorf(league.EPRECONDITION, "the owner cannot leave the club; transfer it to another member first (PATCH the club with owner_id)")
		}
		return dropMember(tx, clubID, actor.UserID)
	})
}

// dropMember takes userID out of the club, and out of its tournaments
// still taking entries: only members enter a club's tournaments, and an
// entry kept would have had someone from outside the club play in it
// (its games, and the season's table). Entries of tournaments under way
// play on; an organizer withdraws them if they must go. The account row
// is locked first, as closing an account does: a registration naming
// userID holds it shared until it commits, so it either comes first and
// its entry is found here, or waits and finds userID no longer a member.
func dropMember(tx *gorm.DB, clubID, userID string) error {
	if err := tx.Exec("SELECT 1 FROM users WHERE id = ? FOR NO KEY UPDATE", userID).Error; err != nil {
		return err
	}
	if err := tx.Where("club_id = ? AND user_id = ?", clubID, userID).Delete(&memberRow{}).Error; err != nil {
		return err
	}
	return withdrawRegistrations(tx, userID, clubID)
}

func (s *Clubs) RemoveMember(ctx context.Context, actor league.Actor, clubID, userID string) error {
	if actor.Anonymous() && !actor.IsAdmin {
		return league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	if userID == actor.UserID {
		return s.Leave(ctx, actor, clubID)
	}
	return inTx(ctx, s.db, func(tx *gorm.DB) error {
		role, err := clubRole(tx, actor, clubID, true)
		if err != nil {
			return err
		}
		if err := league.CanOrganizeAs(actor, role); err != nil {
			return err
		}
		target, err := memberRole(tx, clubID, userID)
		if err != nil {
			return err
		}
		if target == league.RoleNone {
			return league.Errorf(league.ENOTFOUND, "no such member")
		}
		if err := league.CanRemoveMember(actor, role, target); err != nil {
			return err
		}
		return dropMember(tx, clubID, userID)
	})
}

func (s *Clubs) SetMemberRole(ctx context.Context, actor league.Actor, clubID, userID string, newRole league.ClubRole) (league.Member, error) {
	if actor.Anonymous() && !actor.IsAdmin {
		return league.Member{}, league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	var m league.Member
	err := inTx(ctx, s.db, func(tx *gorm.DB) error {
		role, err := clubRole(tx, actor, clubID, true)
		if err != nil {
			return err
		}
		if err := league.CanManageAs(actor, role); err != nil {
			return err
		}
		if newRole != league.RoleOrganizer && newRole != league.RoleMember {
			return league.Invalid("the role is not valid", league.FieldError{Field: "role", Message: `must be "organizer" or "member" (ownership moves by editing the club's owner_id)`})
		}
		target, err := memberRole(tx, clubID, userID)
		if err != nil {
			return err
		}
		switch target {
		case league.RoleNone:
			return league.Errorf(league.ENOTFOUND, "no such member")
		case league.RoleOwner:
			return league.Errorf(league.EPRECONDITION, "the owner's role changes only by transferring the club (PATCH the club with owner_id)")
		}
		if err := tx.Model(&memberRow{}).Where("club_id = ? AND user_id = ?", clubID, userID).Update("role", string(newRole)).Error; err != nil {
			return err
		}
		m, err = s.member(tx, clubID, userID)
		return err
	})
	return m, err
}

// UserClubs pages through the clubs a user belongs to, with the user's
// role, by club name (lower(name), as GET /clubs; the id breaks ties).
func (c *Clubs) UserClubs(ctx context.Context, userID string, p league.PageRequest) (league.Page[league.UserClub], error) {
	var page league.Page[league.UserClub]
	p, err := p.Normalize()
	if err != nil {
		return page, err
	}
	if !validID(userID) {
		return page, noSuchUser()
	}
	type memberClubView struct {
		View     clubView `gorm:"embedded"`
		Role     string   `gorm:"column:role"`
		SortName string   `gorm:"column:sort_name"`
	}
	q := c.db.WithContext(ctx).Table("clubs c").
		Select(clubViewColumns+", cm.role AS role, lower(c.name) AS sort_name").
		Joins("JOIN club_members cm ON cm.club_id = c.id AND cm.user_id = ?", userID)
	rows, next, err := scanPage(q, clubsByName, p, func(r *memberClubView) string { return encodeKeyCursor(r.SortName, r.View.ID) })
	if err != nil {
		return page, err
	}
	if len(rows) == 0 {
		if err := parentExists(c.db.WithContext(ctx), "users", userID, noSuchUser); err != nil {
			return page, err
		}
	}
	page.NextCursor = next
	page.Items = make([]league.UserClub, len(rows))
	for i, r := range rows {
		page.Items[i] = league.UserClub{Club: fromClubView(r.View), Role: league.ClubRole(r.Role)}
	}
	return page, nil
}
