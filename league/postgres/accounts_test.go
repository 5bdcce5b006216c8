package postgres

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/testenv"
)

// cheapArgon2 keeps tests that create many accounts fast.
var cheapArgon2 = league.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

type authStore struct {
	db       *DB
	hasher   *league.PasswordHasher
	accounts *Accounts
	clubs    *Clubs
}

func openAuthStore(t *testing.T) *authStore {
	t.Helper()
	db, err := Open(context.Background(), testenv.Postgres(t), PoolConfig{MaxOpen: 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	h := league.NewPasswordHasher(cheapArgon2, 2)
	return &authStore{db: db, hasher: h, accounts: NewAccounts(db, h, time.Hour), clubs: NewClubs(db)}
}

func (s *authStore) register(t *testing.T, username string) league.Actor {
	t.Helper()
	u, err := s.accounts.Register(context.Background(), league.Actor{}, league.NewUser{Username: username, Password: "password-" + username})
	if err != nil {
		t.Fatalf("register %s: %v", username, err)
	}
	return league.Actor{UserID: u.ID}
}

func (s *authStore) count(t *testing.T, table string) int64 {
	t.Helper()
	var n int64
	if err := s.db.Gorm.Table(table).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := league.ErrorCode(err); got != code {
		t.Fatalf("error = %v (code %q), want code %q", err, got, code)
	}
}

func TestUsernamesAreUniqueWithoutRegardToCase(t *testing.T) {
	s := openAuthStore(t)
	s.register(t, "Ann")
	_, err := s.accounts.Register(context.Background(), league.Actor{}, league.NewUser{Username: "aNN", Password: "password"})
	wantCode(t, err, league.ECONFLICT)
	if f := err.(*league.Error).Fields; len(f) != 1 || f[0].Field != "username" {
		t.Errorf("fields = %+v, want the username named", f)
	}
}

func TestOnlyAnAdminCreatesAdmins(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	_, err := s.accounts.Register(ctx, league.Actor{}, league.NewUser{Username: "eve", Password: "password", Admin: true})
	wantCode(t, err, league.EFORBIDDEN)
	u, err := s.accounts.Register(ctx, league.SystemActor, league.NewUser{Username: "root", Password: "password", Admin: true})
	if err != nil || !u.IsAdmin {
		t.Fatalf("SystemActor creating an admin = %+v, %v", u, err)
	}
	_, err = s.accounts.SetAdmin(ctx, league.Actor{UserID: u.ID}, "root", false)
	wantCode(t, err, league.EFORBIDDEN) // an actor is an admin only if it says so
	a, err := s.accounts.Actor(ctx, u.ID, time.Now(), "")
	if err != nil || !a.IsAdmin {
		t.Fatalf("Actor(root) = %+v, %v; want an admin", a, err)
	}
}

func TestLoginAnswersTheSameForUnknownUsersAndWrongPasswordsAfterOneHash(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	s.register(t, "ann")
	for _, tc := range []struct{ name, username, password string }{
		{"unknown user", "nobody", "password"},
		{"wrong password", "ann", "wrong-password"},
		{"bot", league.BotUsername(league.BotStrong), ""},
		{"malformed username", "x' OR '1'='1", "password"},
		{"NUL in username", "ann\x00", "password"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := s.hasher.Hashes()
			_, _, err := s.accounts.Login(ctx, tc.username, tc.password)
			wantCode(t, err, league.EUNAUTHORIZED)
			if err.Error() != "unauthorized: wrong username or password" {
				t.Errorf("message = %q, want the common one", err)
			}
			if n := s.hasher.Hashes() - before; n != 1 {
				t.Errorf("spent %d hashes, want 1", n)
			}
		})
	}
	u, rt, err := s.accounts.Login(ctx, "ANN", "password-ann")
	if err != nil || u.Username != "ann" || len(rt.Token) != 43 {
		t.Fatalf("login with other case = %+v, %+v, %v", u, rt, err)
	}
}

func TestLoginRehashesAPasswordHashedWithOldParameters(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	s.register(t, "ann")
	stronger := cheapArgon2
	stronger.Time = 2
	accounts := NewAccounts(s.db, league.NewPasswordHasher(stronger, 1), time.Hour)
	if _, _, err := accounts.Login(ctx, "ann", "password-ann"); err != nil {
		t.Fatal(err)
	}
	var hash string
	s.db.Gorm.Table("users").Where("username = 'ann'").Pluck("password_hash", &hash)
	if !strings.Contains(hash, ",t=2,") {
		t.Fatalf("hash after login = %q, want it redone with t=2", hash)
	}
}

func TestRefreshRotatesAndAReusedTokenKillsTheFamily(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	s.register(t, "ann")
	_, first, err := s.accounts.Login(ctx, "ann", "password-ann")
	if err != nil {
		t.Fatal(err)
	}
	_, otherSession, _ := s.accounts.Login(ctx, "ann", "password-ann")
	_, second, err := s.accounts.Refresh(ctx, first.Token)
	if err != nil || second.Token == first.Token {
		t.Fatalf("refresh = %+v, %v; want a new token", second, err)
	}
	var stored []string
	s.db.Gorm.Raw("SELECT encode(token_hash, 'escape') FROM refresh_tokens").Scan(&stored)
	for _, h := range stored {
		if strings.Contains(h, first.Token) || strings.Contains(h, second.Token) {
			t.Fatal("a refresh token is stored in the clear")
		}
	}
	_, _, err = s.accounts.Refresh(ctx, first.Token)
	wantCode(t, err, league.EUNAUTHORIZED)
	_, _, err = s.accounts.Refresh(ctx, second.Token)
	wantCode(t, err, league.EUNAUTHORIZED)
	if _, _, err := s.accounts.Refresh(ctx, otherSession.Token); err != nil {
		t.Fatalf("another login's family died too: %v", err)
	}
}

func TestConcurrentRefreshesOfOneTokenKillTheFamily(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	s.register(t, "ann")
	_, rt, _ := s.accounts.Login(ctx, "ann", "password-ann")
	var wg sync.WaitGroup
	results := make([]league.RefreshToken, 4)
	errs := make([]error, 4)
	for i := range results {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, results[i], errs[i] = s.accounts.Refresh(ctx, rt.Token)
		}(i)
	}
	wg.Wait()
	live := 0
	for i := range results {
		if errs[i] == nil {
			if _, _, err := s.accounts.Refresh(ctx, results[i].Token); err == nil {
				live++
			}
		}
	}
	if live != 0 {
		t.Fatalf("%d tokens still work after a token was spent twice; want the family dead", live)
	}
}

func TestExpiredAndLoggedOutRefreshTokensAreRefused(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	s.register(t, "ann")
	short := NewAccounts(s.db, s.hasher, time.Millisecond)
	_, rt, _ := short.Login(ctx, "ann", "password-ann")
	time.Sleep(5 * time.Millisecond)
	_, _, err := short.Refresh(ctx, rt.Token)
	wantCode(t, err, league.EUNAUTHORIZED)

	// Expired tokens are swept when the user is next issued one.
	if n := s.count(t, "refresh_tokens"); n != 1 {
		t.Fatalf("%d refresh tokens before the next login, want the expired one", n)
	}
	_, rt, _ = s.accounts.Login(ctx, "ann", "password-ann")
	if n := s.count(t, "refresh_tokens"); n != 1 {
		t.Fatalf("%d refresh tokens after the next login, want only the new one", n)
	}
	if err := s.accounts.Logout(ctx, rt.Token); err != nil {
		t.Fatal(err)
	}
	_, _, err = s.accounts.Refresh(ctx, rt.Token)
	wantCode(t, err, league.EUNAUTHORIZED)
	if err := s.accounts.Logout(ctx, "never-issued"); err != nil {
		t.Fatalf("logout of an unknown token = %v, want nil", err)
	}
}

func TestADeletedAccountStopsResolvingAndRefreshing(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	ann := s.register(t, "ann")
	_, rt, _ := s.accounts.Login(ctx, "ann", "password-ann")
	bob := s.register(t, "bob")
	wantCode(t, s.accounts.Delete(ctx, bob, ann.UserID), league.EFORBIDDEN)
	if err := s.accounts.Delete(ctx, ann, ann.UserID); err != nil {
		t.Fatal(err)
	}
	_, err := s.accounts.Actor(ctx, ann.UserID, time.Now(), "")
	wantCode(t, err, league.EUNAUTHORIZED)
	_, _, err = s.accounts.Refresh(ctx, rt.Token)
	wantCode(t, err, league.EUNAUTHORIZED)
	_, _, err = s.accounts.Login(ctx, "ann", "password-ann")
	wantCode(t, err, league.EUNAUTHORIZED)
	// Its profile stays, as the record its games and ratings belong to.
	u, err := s.accounts.User(ctx, bob, ann.UserID)
	if err != nil || u.Username != "ann" || u.ClosedAt == nil {
		t.Fatalf("the closed account's profile = %+v, %v; want ann with ClosedAt", u, err)
	}
}

func TestAnOwnerCannotCloseTheAccountBeforeTransferring(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	ann := s.register(t, "ann")
	if _, err := s.clubs.Create(ctx, ann, league.NewClub{Name: "Ann's club"}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.accounts.Delete(ctx, ann, ann.UserID), league.EPRECONDITION)
	if _, err := s.accounts.Actor(ctx, ann.UserID, time.Now(), ""); err != nil {
		t.Fatalf("refused deletion still closed the account: %v", err)
	}
}

func TestBotsExistOncePerLevelAndCannotSignIn(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		if err := s.accounts.EnsureBots(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.count(t, "users"); n != int64(len(league.BotLevels)) {
		t.Fatalf("users after EnsureBots twice = %d, want %d bots", n, len(league.BotLevels))
	}
	for _, level := range league.BotLevels {
		u, err := s.accounts.BotUser(ctx, level)
		if err != nil || u.Kind != league.KindBot || u.BotLevel != level || u.Username != league.BotUsername(level) {
			t.Errorf("BotUser(%s) = %+v, %v", level, u, err)
		}
		_, err = s.accounts.Actor(ctx, u.ID, time.Now(), "")
		wantCode(t, err, league.EUNAUTHORIZED)
	}
	_, err := s.accounts.BotUser(ctx, "godlike")
	wantCode(t, err, league.ENOTFOUND)
}

func TestEmailIsShownOnlyToItsOwnerAndAdmins(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	u, err := s.accounts.Register(ctx, league.Actor{}, league.NewUser{Username: "ann", Password: "password", Email: "ann@example.org"})
	if err != nil {
		t.Fatal(err)
	}
	bob := s.register(t, "bob")
	for _, tc := range []struct {
		name  string
		actor league.Actor
		want  string
	}{
		{"herself", league.Actor{UserID: u.ID}, "ann@example.org"},
		{"an admin", league.Actor{UserID: bob.UserID, IsAdmin: true}, "ann@example.org"},
		{"someone else", bob, ""},
		{"anonymous", league.Actor{}, ""},
	} {
		got, err := s.accounts.User(ctx, tc.actor, u.ID)
		if err != nil || got.Email != tc.want {
			t.Errorf("%s sees email %q (%v), want %q", tc.name, got.Email, err, tc.want)
		}
	}
	_, err = s.accounts.User(ctx, bob, "not-a-uuid")
	wantCode(t, err, league.ENOTFOUND)
}

// Account checks are reused for actorTTL: a change made through the same
// service applies at once, one made by another process within actorTTL.
func TestAccountChecksAreReusedOnlyBriefly(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	ann, bob := s.register(t, "ann"), s.register(t, "bob")
	root := league.Actor{IsAdmin: true}
	if a, err := s.accounts.Actor(ctx, ann.UserID, time.Now(), ""); err != nil || a.IsAdmin {
		t.Fatalf("Actor(ann) = %+v, %v", a, err)
	}
	if _, err := s.accounts.SetAdmin(ctx, root, "ann", true); err != nil {
		t.Fatal(err)
	}
	if a, _ := s.accounts.Actor(ctx, ann.UserID, time.Now(), ""); !a.IsAdmin {
		t.Fatal("a promotion through this service was not seen at once")
	}
	// Another process (an API instance, the admin command) demotes ann.
	elsewhere := NewAccounts(s.db, s.hasher, time.Hour)
	if _, err := elsewhere.SetAdmin(ctx, root, "ann", false); err != nil {
		t.Fatal(err)
	}
	changed := time.Now()
	for {
		a, err := s.accounts.Actor(ctx, ann.UserID, time.Now(), "")
		if err != nil {
			t.Fatal(err)
		}
		if !a.IsAdmin {
			break
		}
		if time.Since(changed) > actorTTL+500*time.Millisecond {
			t.Fatalf("a demotion elsewhere still unseen after %v", time.Since(changed))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := s.accounts.Actor(ctx, bob.UserID, time.Now(), ""); err != nil {
		t.Fatal(err)
	}
	if err := s.accounts.Delete(ctx, bob, bob.UserID); err != nil {
		t.Fatal(err)
	}
	_, err := s.accounts.Actor(ctx, bob.UserID, time.Now(), "")
	wantCode(t, err, league.EUNAUTHORIZED)
}

// A session signed out on one instance is refused there at once and on
// every other instance (another Accounts over the same database) once its
// reused answer runs out, within actorTTL; the account's other sessions
// and tokens naming no session stay signed in everywhere.
func TestASignedOutSessionIsRefusedOnEveryInstanceWithinActorTTL(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	ann := s.register(t, "ann")
	other := NewAccounts(s.db, s.hasher, time.Hour)
	_, laptop, _ := s.accounts.Login(ctx, "ann", "password-ann")
	_, phone, _ := s.accounts.Login(ctx, "ann", "password-ann")
	issued := time.Now()
	for _, instance := range []*Accounts{s.accounts, other} {
		if _, err := instance.Actor(ctx, ann.UserID, issued, laptop.Session); err != nil {
			t.Fatalf("before signing out: %v", err)
		}
	}
	if err := s.accounts.Logout(ctx, laptop.Token); err != nil {
		t.Fatal(err)
	}
	_, err := s.accounts.Actor(ctx, ann.UserID, issued, laptop.Session)
	wantCode(t, err, league.EUNAUTHORIZED)
	time.Sleep(actorTTL)
	_, err = other.Actor(ctx, ann.UserID, issued, laptop.Session)
	wantCode(t, err, league.EUNAUTHORIZED)
	for _, instance := range []*Accounts{s.accounts, other} {
		for _, session := range []string{phone.Session, ""} {
			if _, err := instance.Actor(ctx, ann.UserID, issued, session); err != nil {
				t.Errorf("session %q after the laptop signed out: %v", session, err)
			}
		}
	}
	// A session that is no family ID is no session of ours: refused, not a
	// database error.
	_, err = s.accounts.Actor(ctx, ann.UserID, issued, "not-a-uuid")
	wantCode(t, err, league.EUNAUTHORIZED)
}
