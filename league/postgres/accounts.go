package postgres

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/seqleague/seqleague/league"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

type userRow struct {
	ID           string     `gorm:"column:id;primaryKey"`
	Username     string     `gorm:"column:username"`
	Email        *string    `gorm:"column:email"`
	PasswordHash string     `gorm:"column:password_hash"`
	Kind         string     `gorm:"column:kind"`
	BotLevel     *string    `gorm:"column:bot_level"`
	IsAdmin      bool       `gorm:"column:is_admin"`
	CreatedAt    time.Time  `gorm:"column:created_at"`
	DeletedAt    *time.Time `gorm:"column:deleted_at"`
}

func (userRow) TableName() string { return "users" }

func fromUserRow(r userRow) league.User {
	u := league.User{ID: r.ID, Username: r.Username, Kind: r.Kind, IsAdmin: r.IsAdmin, CreatedAt: r.CreatedAt.UTC()}
	if r.Email != nil {
		u.Email = *r.Email
	}
	if r.BotLevel != nil {
		u.BotLevel = *r.BotLevel
	}
	if r.DeletedAt != nil {
		closed := r.DeletedAt.UTC()
		u.ClosedAt = &closed
	}
	return u
}

type refreshTokenRow struct {
	ID        string     `gorm:"column:id;primaryKey"`
	FamilyID  string     `gorm:"column:family_id"`
	UserID    string     `gorm:"column:user_id"`
	TokenHash []byte     `gorm:"column:token_hash"`
	CreatedAt time.Time  `gorm:"column:created_at"`
	ExpiresAt time.Time  `gorm:"column:expires_at"`
	UsedAt    *time.Time `gorm:"column:used_at"`
	RevokedAt *time.Time `gorm:"column:revoked_at"`
}

func (refreshTokenRow) TableName() string { return "refresh_tokens" }

// refreshTokenBytes is the size of a refresh token's secret.
const refreshTokenBytes = 32

// Accounts implements league.Accounts.
type Accounts struct {
	db         *gorm.DB
	hasher     *league.PasswordHasher
	refreshTTL time.Duration
	actors     *actorCache
	games      *Games // optional: see HandSeatsTo
}

var _ league.Accounts = (*Accounts)(nil)

// NewAccounts returns the account service; refresh tokens live refreshTTL.
func NewAccounts(db *DB, hasher *league.PasswordHasher, refreshTTL time.Duration) *Accounts {
	return &Accounts{db: db.Gorm, hasher: hasher, refreshTTL: refreshTTL, actors: newActorCache()}
}

func badCredentials() error {
	return league.Errorf(league.EUNAUTHORIZED, "wrong username or password")
}

func badRefreshToken() error {
	return league.Errorf(league.EUNAUTHORIZED, "the refresh token is not valid; sign in again")
}

func (s *Accounts) Register(ctx context.Context, actor league.Actor, in league.NewUser) (league.User, error) {
	if in.Admin && !actor.IsAdmin {
		return league.User{}, league.Errorf(league.EFORBIDDEN, "only a site admin may create admins")
	}
	if err := league.ValidateNewUser(in); err != nil {
		return league.User{}, err
	}
	// The hash is computed before the transaction: it takes tens of
	// milliseconds and must not hold a pooled connection meanwhile.
	hash, err := s.hasher.Hash(ctx, in.Password)
	if err != nil {
		return league.User{}, err
	}
	row := userRow{ID: uuid.NewString(), Username: in.Username, PasswordHash: hash, Kind: league.KindHuman, IsAdmin: in.Admin, CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}
	if in.Email != "" {
		row.Email = &in.Email
	}
	err = inTx(ctx, s.db, func(tx *gorm.DB) error {
		return tx.Create(&row).Error
	})
	if uniqueViolation(err) != "" {
		return league.User{}, &league.Error{Code: league.ECONFLICT, Message: "that username is taken",
			Fields: []league.FieldError{{Field: "username", Message: "is taken"}}}
	}
	if err != nil {
		return league.User{}, err
	}
	return fromUserRow(row), nil
}

func (s *Accounts) Login(ctx context.Context, username, password string) (league.User, league.RefreshToken, error) {
	// The lookup and the password check run outside the transaction, for
	// the same reason as in Register; only issuing the token writes.
	var row userRow
	err := gorm.ErrRecordNotFound
	if league.UsernameWellFormed(username) {
		err = s.db.WithContext(ctx).
			Where("lower(username) = lower(?) AND deleted_at IS NULL AND kind = ?", username, league.KindHuman).
			Take(&row).Error
	}
	if notFound(err) {
		// Spend a hash anyway, so that timing does not tell unknown users
		// from wrong passwords.
		if err := s.hasher.Burn(ctx, password); err != nil {
			return league.User{}, league.RefreshToken{}, err
		}
		return league.User{}, league.RefreshToken{}, badCredentials()
	}
	if err != nil {
		return league.User{}, league.RefreshToken{}, err
	}
	ok, rehash, err := s.hasher.Verify(ctx, row.PasswordHash, password)
	if err != nil {
		return league.User{}, league.RefreshToken{}, err
	}
	if !ok {
		return league.User{}, league.RefreshToken{}, badCredentials()
	}
	newHash := ""
	if rehash {
		if newHash, err = s.hasher.Hash(ctx, password); err != nil {
			return league.User{}, league.RefreshToken{}, err
		}
	}
	var tok league.RefreshToken
	err = inTx(ctx, s.db, func(tx *gorm.DB) error {
		// The password was checked outside the transaction: if it changed
		// (or the account closed) meanwhile, the old password must not
		// start a session after the change revoked the others.
		if err := lockAccount(tx, row.ID, row.PasswordHash, newHash != ""); err != nil {
			return err
		}
		if newHash != "" {
			if err := tx.Model(&userRow{}).Where("id = ?", row.ID).Update("password_hash", newHash).Error; err != nil {
				return err
			}
		}
		// Old families of this user that expired are swept here, which
		// keeps the table small without a separate job.
		if err := tx.Where("user_id = ? AND expires_at < now()", row.ID).Delete(&refreshTokenRow{}).Error; err != nil {
			return err
		}
		var err error
		tok, err = s.issue(tx, row.ID, uuid.NewString())
		return err
	})
	if err != nil {
		return league.User{}, league.RefreshToken{}, err
	}
	return fromUserRow(row), tok, nil
}

// issue adds a new refresh token to a family. It also deletes the user's
// expired ones: every refresh adds a row (spent tokens are kept to catch a
// stolen copy being replayed), and once expired a row can catch nothing.
func (s *Accounts) issue(tx *gorm.DB, userID, familyID string) (league.RefreshToken, error) {
	secret, err := secretToken(refreshTokenBytes)
	if err != nil {
		return league.RefreshToken{}, err
	}
	now := time.Now().UTC()
	if err := tx.Where("user_id = ? AND expires_at < ?", userID, now).Delete(&refreshTokenRow{}).Error; err != nil {
		return league.RefreshToken{}, err
	}
	row := refreshTokenRow{ID: uuid.NewString(), FamilyID: familyID, UserID: userID, TokenHash: hashSecret(secret),
		CreatedAt: now, ExpiresAt: now.Add(s.refreshTTL)}
	if err := tx.Create(&row).Error; err != nil {
		return league.RefreshToken{}, err
	}
	return league.RefreshToken{Token: secret, ExpiresAt: row.ExpiresAt, Session: familyID}, nil
}

func (s *Accounts) Refresh(ctx context.Context, token string) (league.User, league.RefreshToken, error) {
	if token == "" || len(token) > 128 {
		return league.User{}, league.RefreshToken{}, badRefreshToken()
	}
	var (
		user   userRow
		next   league.RefreshToken
		reused bool
	)
	err := inTx(ctx, s.db, func(tx *gorm.DB) error {
		reused = false
		// The account is locked (shared) before the token: ChangePassword
		// and Delete lock the account, then revoke its tokens, so a
		// refresh either finishes first (and its new token is revoked
		// with the rest) or waits and finds its token revoked. The same
		// order in both keeps them from deadlocking.
		var owner struct{ UserID string }
		res := tx.Model(&refreshTokenRow{}).Select("user_id").Where("token_hash = ?", hashSecret(token)).Limit(1).Scan(&owner)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return badRefreshToken()
		}
		err := tx.Clauses(clause.Locking{Strength: "SHARE"}).Where("id = ?", owner.UserID).Take(&user).Error
		if notFound(err) {
			return badRefreshToken()
		}
		if err != nil {
			return err
		}
		var rt refreshTokenRow
		err = tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("token_hash = ?", hashSecret(token)).Take(&rt).Error
		if notFound(err) {
			return badRefreshToken()
		}
		if err != nil {
			return err
		}
		if rt.RevokedAt != nil {
			return badRefreshToken()
		}
		now := time.Now().UTC()
		if rt.UsedAt != nil {
			// A spent token came back: it was stolen, or the client that
			// spent it was. Nobody can tell which copy is the thief's, so
			// the whole family dies and the user signs in again.
			reused = true
			return tx.Model(&refreshTokenRow{}).Where("family_id = ? AND revoked_at IS NULL", rt.FamilyID).
				Update("revoked_at", now).Error
		}
		if !now.Before(rt.ExpiresAt) {
			return badRefreshToken()
		}
		if user.DeletedAt != nil || user.Kind != league.KindHuman {
			return badRefreshToken()
		}
		if err := tx.Model(&rt).Update("used_at", now).Error; err != nil {
			return err
		}
		next, err = s.issue(tx, rt.UserID, rt.FamilyID)
		return err
	})
	if err == nil && reused {
		// The family's access tokens (the thief's too) end with it.
		s.actors.forget(user.ID)
		err = badRefreshToken()
	}
	if err != nil {
		return league.User{}, league.RefreshToken{}, err
	}
	return fromUserRow(user), next, nil
}

func (s *Accounts) Logout(ctx context.Context, token string) error {
	if token == "" || len(token) > 128 {
		return nil
	}
	var rt refreshTokenRow
	err := inTx(ctx, s.db, func(tx *gorm.DB) error {
		// FOR UPDATE, as Refresh locks the token it spends: a refresh of
		// this token under way commits first, and the revocation below
		// (a statement begun after it) sees the token it issued. Read
		// without the lock, that token was not among those revoked, and
		// the session outlived its sign-out.
		err := tx.Clauses(lockingUpdate()).Select("family_id, user_id").
			Where("token_hash = ?", hashSecret(token)).Take(&rt).Error
		if notFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		return tx.Model(&refreshTokenRow{}).Where("family_id = ? AND revoked_at IS NULL", rt.FamilyID).
			Update("revoked_at", time.Now().UTC()).Error
	})
	if rt.UserID != "" {
		// The session's access tokens end here at once; elsewhere within
		// actorTTL.
		s.actors.forget(rt.UserID)
	}
	return err
}

// lockAccount locks a live account's row in a transaction and checks that
// its password hash is still the one verified before the transaction
// began. forUpdate takes the lock that changing the row needs; otherwise a
// shared one, which still waits for a password change or a close.
func lockAccount(tx *gorm.DB, userID, verifiedHash string, forUpdate bool) error {
	strength := "SHARE"
	if forUpdate {
		strength = "NO KEY UPDATE"
	}
	var cur userRow
	err := tx.Clauses(clause.Locking{Strength: strength}).Select("password_hash").
		Where("id = ? AND deleted_at IS NULL AND kind = ?", userID, league.KindHuman).Take(&cur).Error
	if notFound(err) {
		return badCredentials()
	}
	if err != nil {
		return err
	}
	if cur.PasswordHash != verifiedHash {
		return badCredentials()
	}
	return nil
}

func wrongCurrentPassword() error {
	return league.Invalid("the current password is not right",
		league.FieldError{Field: "current_password", Message: "is not right"})
}

func (s *Accounts) ChangePassword(ctx context.Context, actor league.Actor, current, next string) (league.User, league.RefreshToken, error) {
	if actor.Anonymous() {
		return league.User{}, league.RefreshToken{}, league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	if err := league.ValidatePasswordChange(current, next); err != nil {
		return league.User{}, league.RefreshToken{}, err
	}
	row, err := s.proveOwner(ctx, actor, current)
	if err != nil {
		return league.User{}, league.RefreshToken{}, err
	}
	hash, err := s.hasher.Hash(ctx, next)
	if err != nil {
		return league.User{}, league.RefreshToken{}, err
	}
	var tok league.RefreshToken
	err = s.whilePasswordHolds(ctx, row, func(tx *gorm.DB) error {
		if err := setPassword(tx, row.ID, hash); err != nil {
			return err
		}
		var err error
		tok, err = s.issue(tx, row.ID, uuid.NewString())
		return err
	})
	if err != nil {
		return league.User{}, league.RefreshToken{}, err
	}
	s.actors.forget(row.ID)
	return fromUserRow(row), tok, nil
}

// setPassword stores an account's new password hash and ends every
// session it had: whoever knew the old password (or held a session) must
// not keep a way in.
func setPassword(tx *gorm.DB, userID, hash string) error {
	now := time.Now().UTC()
	// Access tokens carry their issue time to the millisecond: a new one
	// issued right after must not count as before.
	since := now.Truncate(time.Millisecond)
	if err := tx.Model(&userRow{}).Where("id = ?", userID).
		Updates(map[string]any{"password_hash": hash, "sessions_since": since}).Error; err != nil {
		return err
	}
	return tx.Model(&refreshTokenRow{}).Where("user_id = ? AND revoked_at IS NULL", userID).Update("revoked_at", now).Error
}

// proveOwner reads the actor's account and checks that current is its
// password. As in Login the hash is checked outside any transaction (it is
// slow); the change then runs in whilePasswordHolds.
func (s *Accounts) proveOwner(ctx context.Context, actor league.Actor, current string) (userRow, error) {
	gone := league.Errorf(league.EUNAUTHORIZED, "this account no longer exists")
	if !validID(actor.UserID) {
		return userRow{}, gone
	}
	var row userRow
	err := s.db.WithContext(ctx).Where("id = ? AND deleted_at IS NULL AND kind = ?", actor.UserID, league.KindHuman).Take(&row).Error
	if notFound(err) {
		return userRow{}, gone
	}
	if err != nil {
		return userRow{}, err
	}
	ok, _, err := s.hasher.Verify(ctx, row.PasswordHash, current)
	if err != nil {
		return userRow{}, err
	}
	if !ok {
		return userRow{}, wrongCurrentPassword()
	}
	return row, nil
}

// whilePasswordHolds runs change in a transaction that holds the account
// proveOwner read, once nothing closed it or changed its password since.
func (s *Accounts) whilePasswordHolds(ctx context.Context, row userRow, change func(tx *gorm.DB) error) error {
	return inTx(ctx, s.db, func(tx *gorm.DB) error {
		if err := lockAccount(tx, row.ID, row.PasswordHash, true); err != nil {
			if league.ErrorCode(err) == league.EUNAUTHORIZED {
				// Closed, or the password changed since it was checked.
				return league.Errorf(league.ECONFLICT, "the account changed meanwhile; try again")
			}
			return err
		}
		return change(tx)
	})
}

// ChangeEmail sets the actor's e-mail address once the password proves the
// account is theirs: whoever holds a session (a borrowed device, a stolen
// token) must not point the account's address elsewhere.
func (s *Accounts) ChangeEmail(ctx context.Context, actor league.Actor, current, email string) (league.User, error) {
	if actor.Anonymous() {
		return league.User{}, league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	if err := league.ValidateEmailChange(current, email); err != nil {
		return league.User{}, err
	}
	row, err := s.proveOwner(ctx, actor, current)
	if err != nil {
		return league.User{}, err
	}
	var stored *string
	if email != "" {
		stored = &email
	}
	err = s.whilePasswordHolds(ctx, row, func(tx *gorm.DB) error {
		return tx.Model(&userRow{}).Where("id = ?", row.ID).Update("email", stored).Error
	})
	if err != nil {
		return league.User{}, err
	}
	row.Email = stored
	return fromUserRow(row), nil
}

// CloseOwn closes the actor's account once the password proves it is
// theirs. The password is checked outside the transaction, as a login's
// is; a password changed between the check and the close changes nothing
// that matters, since the close ends every session either way.
func (s *Accounts) CloseOwn(ctx context.Context, actor league.Actor, current string) error {
	return s.CloseWithPassword(ctx, actor, current, actor.UserID)
}

// CloseWithPassword closes an account, the actor's own or (a site admin)
// another's, once the actor's own password is given and right: a leaked
// admin token alone could otherwise close every account for good. The
// refusals that need no hash come first.
func (s *Accounts) CloseWithPassword(ctx context.Context, actor league.Actor, current, userID string) error {
	if actor.Anonymous() {
		return league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	own := actor.UserID == userID
	if !own && !actor.IsAdmin {
		return league.Errorf(league.EFORBIDDEN, "you may close only your own account")
	}
	if !validID(userID) {
		return noSuchUser()
	}
	if current == "" {
		msg := "closing the account takes its password"
		if !own {
			msg = "closing another's account takes your own password"
		}
		return league.Invalid(msg, league.FieldError{Field: "current_password", Message: "is required"})
	}
	if _, err := s.proveOwner(ctx, actor, current); err != nil {
		return err
	}
	return s.Delete(ctx, actor, userID)
}

func (s *Accounts) Actor(ctx context.Context, userID string, issuedAt time.Time, session string) (league.Actor, error) {
	gone := league.Errorf(league.EUNAUTHORIZED, "this account no longer exists")
	if !validID(userID) {
		return league.Actor{}, gone
	}
	signedOut := league.Errorf(league.EUNAUTHORIZED, "this session was signed out; sign in again")
	if session != "" && !validID(session) {
		return league.Actor{}, signedOut
	}
	now := time.Now()
	a, ok := s.actors.get(userID, session, now)
	if !ok {
		var err error
		if a, err = s.readActor(ctx, userID, session); err != nil {
			return league.Actor{}, err
		}
		s.actors.put(a, session, now)
	}
	if a.sessionsSince != nil && issuedAt.Before(*a.sessionsSince) {
		return league.Actor{}, league.Errorf(league.EUNAUTHORIZED, "the password was changed; sign in again")
	}
	if a.sessionEnded {
		return league.Actor{}, signedOut
	}
	return a.actor, nil
}

// readActor reads a live account and, in the same statement, whether the
// session was ended: a revoked refresh family (a logout, a spent token
// replayed, a password change, a close). A family's rows outlive its
// access tokens (kept until the refresh token expires, which is after
// the last access token it gave), so a revoked one is still found.
func (s *Accounts) readActor(ctx context.Context, userID, session string) (actorAnswer, error) {
	var family *string
	if session != "" {
		family = &session
	}
	var row struct {
		IsAdmin       bool
		SessionsSince *time.Time
		SessionEnded  bool
	}
	res := s.db.WithContext(ctx).Model(&userRow{}).
		Select(`is_admin, sessions_since, EXISTS (SELECT 1 FROM refresh_tokens
			WHERE family_id = ? AND user_id = users.id AND revoked_at IS NOT NULL) AS session_ended`, family).
		Where("id = ? AND deleted_at IS NULL AND kind = ?", userID, league.KindHuman).Limit(1).Scan(&row)
	if res.Error != nil {
		return actorAnswer{}, res.Error
	}
	if res.RowsAffected == 0 {
		return actorAnswer{}, league.Errorf(league.EUNAUTHORIZED, "this account no longer exists")
	}
	return actorAnswer{actor: league.Actor{UserID: userID, IsAdmin: row.IsAdmin},
		sessionsSince: row.SessionsSince, sessionEnded: row.SessionEnded}, nil
}

func (s *Accounts) User(ctx context.Context, actor league.Actor, id string) (league.User, error) {
	missing := noSuchUser()
	if !validID(id) {
		return league.User{}, missing
	}
	// A closed account is still found (with ClosedAt): its games and
	// ratings stay readable under its name, and their links lead here.
	var row userRow
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&row).Error
	if notFound(err) {
		return league.User{}, missing
	}
	if err != nil {
		return league.User{}, err
	}
	u := fromUserRow(row)
	if actor.UserID != id && !actor.IsAdmin {
		u.Email = ""
	}
	return u, nil
}

func (s *Accounts) SetAdmin(ctx context.Context, actor league.Actor, username string, admin bool) (league.User, error) {
	if !actor.IsAdmin {
		return league.User{}, league.Errorf(league.EFORBIDDEN, "only a site admin may do this")
	}
	var row userRow
	err := inTx(ctx, s.db, func(tx *gorm.DB) error {
		err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).
			Where("lower(username) = lower(?) AND deleted_at IS NULL AND kind = ?", username, league.KindHuman).Take(&row).Error
		if notFound(err) {
			return league.Errorf(league.ENOTFOUND, "no user %q", username)
		}
		if err != nil {
			return err
		}
		row.IsAdmin = admin
		return tx.Model(&row).Update("is_admin", admin).Error
	})
	s.actors.forget(row.ID)
	if err != nil {
		return league.User{}, err
	}
	return fromUserRow(row), nil
}

func (s *Accounts) ResetPassword(ctx context.Context, actor league.Actor, username, password string) (league.User, error) {
	if !actor.IsAdmin {
		return league.User{}, league.Errorf(league.EFORBIDDEN, "only a site admin may do this")
	}
	if err := league.ValidatePasswordReset(password); err != nil {
		return league.User{}, err
	}
	hash, err := s.hasher.Hash(ctx, password)
	if err != nil {
		return league.User{}, err
	}
	var row userRow
	err = inTx(ctx, s.db, func(tx *gorm.DB) error {
		err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).
			Where("lower(username) = lower(?) AND deleted_at IS NULL AND kind = ?", username, league.KindHuman).Take(&row).Error
		if notFound(err) {
			return league.Errorf(league.ENOTFOUND, "no user %q", username)
		}
		if err != nil {
			return err
		}
		return setPassword(tx, row.ID, hash)
	})
	s.actors.forget(row.ID)
	if err != nil {
		return league.User{}, err
	}
	return fromUserRow(row), nil
}

func (s *Accounts) Delete(ctx context.Context, actor league.Actor, userID string) error {
	if actor.Anonymous() && !actor.IsAdmin {
		return league.Errorf(league.EUNAUTHORIZED, "sign in first")
	}
	if actor.UserID != userID && !actor.IsAdmin {
		return league.Errorf(league.EFORBIDDEN, "you may close only your own account")
	}
	if !validID(userID) {
		return noSuchUser()
	}
	defer s.actors.forget(userID)
	var fx *effects
	var tasks league.GameTasks
	if s.games != nil {
		tasks = s.games.tasks
	}
	err := inTx(ctx, s.db, func(tx *gorm.DB) error {
		fx = &effects{} // afresh on each run: see inTx
		now := time.Now().UTC()
		res := tx.Model(&userRow{}).Where("id = ? AND deleted_at IS NULL AND kind = ?", userID, league.KindHuman).Update("deleted_at", now)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return closeAgain(tx, fx, tasks, actor, userID, now)
		}
		var owned int64
		if err := tx.Model(&memberRow{}).Where("user_id = ? AND role = ?", userID, string(league.RoleOwner)).Count(&owned).Error; err != nil {
			return err
		}
		if owned > 0 {
			return league.Errorf(league.EPRECONDITION, "the account owns clubs; transfer them to other members first")
		}
		if err := tx.Where("user_id = ?", userID).Delete(&memberRow{}).Error; err != nil {
			return err
		}
		if err := releaseClosedAccount(tx, fx, tasks, userID, now); err != nil {
			return err
		}
		return tx.Model(&refreshTokenRow{}).Where("user_id = ? AND revoked_at IS NULL", userID).Update("revoked_at", now).Error
	})
	if err == nil && s.games != nil {
		s.games.run(context.WithoutCancel(ctx), fx)
	}
	return err
}

func (s *Accounts) BotUser(ctx context.Context, level string) (league.User, error) {
	var row userRow
	err := s.db.WithContext(ctx).Where("kind = ? AND bot_level = ? AND deleted_at IS NULL", league.KindBot, level).Take(&row).Error
	if notFound(err) {
		return league.User{}, league.Errorf(league.ENOTFOUND, "no bot of level %q", level)
	}
	if err != nil {
		return league.User{}, err
	}
	return fromUserRow(row), nil
}

func (s *Accounts) EnsureBots(ctx context.Context) error {
	return inTx(ctx, s.db, func(tx *gorm.DB) error {
		for _, level := range league.BotLevels {
			// Conflicts (on the username or on the one-bot-per-level
			// index) mean the bot is there already.
			err := tx.Exec(`INSERT INTO users (id, username, kind, bot_level) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
				uuid.NewString(), league.BotUsername(level), league.KindBot, level).Error
			if err != nil {
				return err
			}
		}
		return nil
	})
}
