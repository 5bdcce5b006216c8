package league

import (
	"context"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"
)

// Kinds of account.
const (
	KindHuman = "human"
	KindBot   = "bot"
)

// Bot levels: each has one bot account, so that bots sit at tables and
// hold ratings like anyone else.
const (
	BotRandom = "random"
	BotGreedy = "greedy"
	BotStrong = "strong"
)

// BotLevels lists every bot level, weakest first.
var BotLevels = []string{BotRandom, BotGreedy, BotStrong}

// BotUsername is the account name of the bot of a level.
func BotUsername(level string) string { return "bot-" + level }

// User is an account: a person or a bot.
type User struct {
	ID        string
	Username  string
	Email     string // shown only to the user and site admins
	Kind      string // KindHuman or KindBot
	BotLevel  string // for bots
	IsAdmin   bool
	CreatedAt time.Time
	// ClosedAt is set once the account is closed: its profile stays, as the
	// record its games and ratings belong to, but it signs in no more.
	ClosedAt *time.Time
}

// NewUser is a registration.
type NewUser struct {
	Username string
	Password string
	Email    string
	Admin    bool // only a site admin may create one
}

// RefreshToken is a secret handed to the client once; the store keeps only
// its hash.
type RefreshToken struct {
	Token     string
	ExpiresAt time.Time
	// Session names the token's family, the session a login started: the
	// access tokens issued with it carry it, so that ending the session
	// (a logout, a stolen copy replayed) ends them too.
	Session string
}

// Accounts is the account and session service.
type Accounts interface {
	// Register creates a human account. Creating an admin takes an admin
	// actor (SystemActor at the command line).
	Register(ctx context.Context, actor Actor, in NewUser) (User, error)
	// Login checks a password and starts a refresh-token family. Unknown
	// users, bots and wrong passwords all answer the same EUNAUTHORIZED
	// after the same work.
	Login(ctx context.Context, username, password string) (User, RefreshToken, error)
	// Refresh rotates a refresh token: the old one is spent and a new one of
	// the same family returned. A spent token presented again revokes the
	// whole family.
	Refresh(ctx context.Context, token string) (User, RefreshToken, error)
	// Logout revokes the family of token, and with it the access tokens of
	// that session (see Actor); an unknown token is not an error.
	Logout(ctx context.Context, token string) error
	// ChangePassword replaces the signed-in actor's password once current
	// proves it is theirs (EINVALID naming current_password if not). In
	// one transaction it stores the new hash, revokes every refresh token
	// of the account, so that every session signs in again, and starts a
	// new family for the caller, whose pair it returns as Login does.
	ChangePassword(ctx context.Context, actor Actor, current, next string) (User, RefreshToken, error)
	// ChangeEmail sets the signed-in actor's e-mail address ("" removes
	// it) once current proves the password is theirs (EINVALID naming
	// current_password if not), and returns the account as it then is.
	ChangeEmail(ctx context.Context, actor Actor, current, email string) (User, error)
	// Actor resolves the subject of a valid access token issued at
	// issuedAt for session (a RefreshToken's Session; "" for a token that
	// names none), refusing deleted accounts, bots, tokens issued before
	// the account's last password change and tokens of a session that
	// ended (EUNAUTHORIZED). It is one primary-key read.
	Actor(ctx context.Context, userID string, issuedAt time.Time, session string) (Actor, error)
	// User returns an account; Email is blank unless actor is that user or
	// a site admin.
	User(ctx context.Context, actor Actor, id string) (User, error)
	// SetAdmin grants or withdraws site administration (admins only).
	SetAdmin(ctx context.Context, actor Actor, username string, admin bool) (User, error)
	// ResetPassword gives an account a new password (admins only: the way
	// back in for a player who forgot theirs) and ends all its sessions.
	ResetPassword(ctx context.Context, actor Actor, username, password string) (User, error)
	// CloseOwn closes the signed-in actor's own account, as Delete does,
	// once current proves the password is theirs (EINVALID naming
	// current_password if not): a session alone (a device left signed in,
	// a stolen token) must not end an account for good.
	CloseOwn(ctx context.Context, actor Actor, current string) error
	// CloseWithPassword closes the account userID, the actor's own or, for
	// a site admin, anyone's, as Delete does, once current proves the
	// actor's own password (EINVALID naming current_password if missing or
	// not right): a session alone, a site admin's included, must not end
	// an account for good. A caller who may not close it is refused
	// (EFORBIDDEN), and an ID that names nobody (ENOTFOUND), before the
	// password is read.
	CloseWithPassword(ctx context.Context, actor Actor, current, userID string) error
	// Delete closes an account (the user or a site admin): it stops
	// resolving as an actor at once and its refresh tokens are revoked.
	Delete(ctx context.Context, actor Actor, userID string) error
	// BotUser returns the bot account of a level.
	BotUser(ctx context.Context, level string) (User, error)
	// EnsureBots creates any missing bot accounts; it is idempotent.
	EnsureBots(ctx context.Context) error
}

// SystemActor is the operator at the command line: a site admin who is no
// account.
var SystemActor = Actor{IsAdmin: true}

// Username and password bounds.
const (
	UsernameMin = 3
	UsernameMax = 24
	PasswordMin = 8
	PasswordMax = 128
	EmailMax    = 254
)

// ValidateNewUser checks a registration and names every field at fault.
func ValidateNewUser(in NewUser) error {
	var fields []FieldError
	if msg := usernameProblem(in.Username); msg != "" {
		fields = append(fields, FieldError{"username", msg})
	}
	if msg := passwordProblem(in.Password); msg != "" {
		fields = append(fields, FieldError{"password", msg})
	}
	if msg := emailProblem(in.Email); msg != "" {
		fields = append(fields, FieldError{"email", msg})
	}
	if len(fields) > 0 {
		return Invalid("the registration is not valid", fields...)
	}
	return nil
}

// ValidatePasswordChange checks a password change before any hashing: the
// current password is given, and the new one meets the registration rules
// and is not the current one.
func ValidatePasswordChange(current, next string) error {
	var fields []FieldError
	if current == "" {
		fields = append(fields, FieldError{"current_password", "is required"})
	}
	if msg := passwordProblem(next); msg != "" {
		fields = append(fields, FieldError{"new_password", msg})
	} else if next == current {
		fields = append(fields, FieldError{"new_password", "must differ from the current password"})
	}
	if len(fields) > 0 {
		return Invalid("the password change is not valid", fields...)
	}
	return nil
}

// ValidatePasswordReset checks a new password given by a site admin
// against the registration rules.
func ValidatePasswordReset(password string) error {
	if msg := passwordProblem(password); msg != "" {
		return Invalid("the password is not valid", FieldError{"password", msg})
	}
	return nil
}

// ValidateEmailChange checks an e-mail change before any hashing: the
// current password is given, and the address follows the registration
// rule ("" removes it).
func ValidateEmailChange(current, email string) error {
	var fields []FieldError
	if current == "" {
		fields = append(fields, FieldError{"current_password", "is required"})
	}
	if msg := emailProblem(email); msg != "" {
		fields = append(fields, FieldError{"email", msg})
	}
	if len(fields) > 0 {
		return Invalid("the e-mail change is not valid", fields...)
	}
	return nil
}

// emailProblem says what is wrong with an e-mail address, "" if nothing:
// an account may have none, else one plain address.
func emailProblem(e string) string {
	if e == "" {
		return ""
	}
	// net/mail takes a right-to-left override or a zero-width space in
	// the domain ("ann@example.com" + U+202E), which no mail host has and
	// which reorders the address as shown: an address is plain text too.
	a, err := mail.ParseAddress(e)
	if err != nil || a.Address != e || len(e) > EmailMax || !PlainName(e) {
		return "must be a plain e-mail address such as ann@example.org"
	}
	return ""
}

func passwordProblem(p string) string {
	if n := utf8.RuneCountInString(p); n < PasswordMin || n > PasswordMax {
		return "must be 8 to 128 characters"
	}
	if strings.TrimSpace(p) == "" {
		return "must not be only spaces"
	}
	return ""
}

// UsernameWellFormed reports whether u has the length and characters of a
// username (without the rule reserving bot names), so that a lookup can
// skip strings no account can have.
func UsernameWellFormed(u string) bool { return usernameShape(u) == "" }

func usernameProblem(u string) string {
	if msg := usernameShape(u); msg != "" {
		return msg
	}
	if botLike(u) {
		return "bot, and names starting with bot- or bot_, are kept for bots"
	}
	return ""
}

// botLike says whether u reads as a bot's name: a bot is shown as bot-level,
// and "Bot_greedy" at a table beside "bot-greedy" would pass for one.
func botLike(u string) bool {
	l := strings.ToLower(u)
	return l == "bot" || strings.HasPrefix(l, "bot-") || strings.HasPrefix(l, "bot_")
}

// usernameShape keeps usernames to ASCII letters, digits, _ and -. That is
// also what keeps look-alike names out: over ASCII, Unicode's compatibility
// normalization with case folding (NFKC_Casefold, which makes "ａlice",
// "ﬁona" and "ⅰvy" into "alice", "fiona" and "ivy") is lower(), so the
// unique index on lower(username) already allows one account per folded
// name. Widening the set of characters needs a canonical column first.
func usernameShape(u string) string {
	if n := utf8.RuneCountInString(u); n < UsernameMin || n > UsernameMax {
		return "must be 3 to 24 characters"
	}
	for _, r := range u {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return "may contain only the letters A to Z, digits, _ and -"
		}
	}
	return ""
}
