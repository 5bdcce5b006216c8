package postgres

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/seqleague/seqleague/league"
)

func (s *authStore) passwordHash(t *testing.T, userID string) string {
	t.Helper()
	var hash string
	if err := s.db.Gorm.Table("users").Where("id = ?", userID).Pluck("password_hash", &hash).Error; err != nil {
		t.Fatal(err)
	}
	return hash
}

// liveTokens counts the account's refresh tokens neither spent nor revoked.
func (s *authStore) liveTokens(t *testing.T, userID string) int64 {
	t.Helper()
	var n int64
	err := s.db.Gorm.Table("refresh_tokens").Where("user_id = ? AND used_at IS NULL AND revoked_at IS NULL", userID).Count(&n).Error
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestChangingThePasswordEndsEverySessionAndStartsOneForTheCaller(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	ann := s.register(t, "ann")
	bob := s.register(t, "bob")
	_, phone, _ := s.accounts.Login(ctx, "ann", "password-ann")
	_, laptop, _ := s.accounts.Login(ctx, "ann", "password-ann")
	_, laptop, err := s.accounts.Refresh(ctx, laptop.Token)
	if err != nil {
		t.Fatal(err)
	}
	_, bobs, _ := s.accounts.Login(ctx, "bob", "password-bob")
	before := s.passwordHash(t, ann.UserID)

	u, fresh, err := s.accounts.ChangePassword(ctx, ann, "password-ann", "a much better one")
	if err != nil {
		t.Fatal(err)
	}
	if u.ID != ann.UserID || u.Username != "ann" || fresh.Token == "" {
		t.Fatalf("ChangePassword = %+v, %+v; want ann and a new refresh token", u, fresh)
	}
	if got := s.passwordHash(t, ann.UserID); got == before || !strings.HasPrefix(got, "$argon2id$") {
		t.Errorf("stored hash = %q, want a new argon2id hash", got)
	}
	for name, tok := range map[string]string{"phone": phone.Token, "laptop": laptop.Token} {
		if _, _, err := s.accounts.Refresh(ctx, tok); league.ErrorCode(err) != league.EUNAUTHORIZED {
			t.Errorf("refresh of the %s's token after the change = %v, want EUNAUTHORIZED", name, err)
		}
	}
	if _, _, err := s.accounts.Refresh(ctx, fresh.Token); err != nil {
		t.Errorf("refresh of the caller's new token = %v, want it to work", err)
	}
	if _, _, err := s.accounts.Refresh(ctx, bobs.Token); err != nil {
		t.Errorf("another account's session ended too: %v", err)
	}
	_, _, err = s.accounts.Login(ctx, "ann", "password-ann")
	wantCode(t, err, league.EUNAUTHORIZED)
	if _, _, err := s.accounts.Login(ctx, "ann", "a much better one"); err != nil {
		t.Errorf("login with the new password = %v", err)
	}
	if s.passwordHash(t, bob.UserID) == "" {
		t.Error("bob's password hash is gone")
	}
}

func TestARefusedPasswordChangeWritesNothing(t *testing.T) {
	for _, tc := range []struct {
		name          string
		anonymous     bool
		current, next string
		code, field   string
		hashes        uint64 // argon2id computations spent
	}{
		{name: "wrong current password", current: "password-guess", next: "a much better one",
			code: league.EINVALID, field: "current_password", hashes: 1},
		{name: "no current password", current: "", next: "a much better one",
			code: league.EINVALID, field: "current_password"},
		{name: "short new password", current: "password-ann", next: "short",
			code: league.EINVALID, field: "new_password"},
		{name: "overlong new password", current: "password-ann", next: strings.Repeat("x", 129),
			code: league.EINVALID, field: "new_password"},
		{name: "new password the same as the current", current: "password-ann", next: "password-ann",
			code: league.EINVALID, field: "new_password"},
		{name: "anonymous caller", anonymous: true, current: "password-ann", next: "a much better one",
			code: league.EUNAUTHORIZED},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openAuthStore(t)
			ctx := context.Background()
			ann := s.register(t, "ann")
			_, session, _ := s.accounts.Login(ctx, "ann", "password-ann")
			hash, tokens, hashes := s.passwordHash(t, ann.UserID), s.count(t, "refresh_tokens"), s.hasher.Hashes()
			actor := ann
			if tc.anonymous {
				actor = league.Actor{}
			}

			_, _, err := s.accounts.ChangePassword(ctx, actor, tc.current, tc.next)
			wantCode(t, err, tc.code)
			if tc.field != "" {
				if f := err.(*league.Error).Fields; len(f) != 1 || f[0].Field != tc.field {
					t.Errorf("fields = %+v, want %s named", f, tc.field)
				}
			}
			if got := s.hasher.Hashes() - hashes; got != tc.hashes {
				t.Errorf("hashes spent = %d, want %d", got, tc.hashes)
			}
			if s.passwordHash(t, ann.UserID) != hash {
				t.Error("the password hash changed")
			}
			if got := s.count(t, "refresh_tokens"); got != tokens {
				t.Errorf("refresh tokens = %d, want %d", got, tokens)
			}
			if _, _, err := s.accounts.Refresh(ctx, session.Token); err != nil {
				t.Errorf("the existing session ended: %v", err)
			}
			if _, _, err := s.accounts.Login(ctx, "ann", "password-ann"); err != nil {
				t.Errorf("login with the old password = %v", err)
			}
		})
	}
}

func TestAClosedAccountCannotChangeItsPassword(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	ann := s.register(t, "ann")
	if err := s.accounts.Delete(ctx, ann, ann.UserID); err != nil {
		t.Fatal(err)
	}
	_, _, err := s.accounts.ChangePassword(ctx, ann, "password-ann", "a much better one")
	wantCode(t, err, league.EUNAUTHORIZED)
}

// A refresh, or a login with the old password, racing the change either
// finishes first (and its token is revoked with the rest) or finds the
// change made: afterwards the caller's new token is the only live one.
func TestSessionsStartedDuringAPasswordChangeDoNotOutliveIt(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	for i := 0; i < 12; i++ {
		name := fmt.Sprintf("racer%d", i)
		actor := s.register(t, name)
		_, a, _ := s.accounts.Login(ctx, name, "password-"+name)
		_, b, _ := s.accounts.Login(ctx, name, "password-"+name)
		var wg sync.WaitGroup
		var changeErr error
		wg.Add(4)
		go func() { defer wg.Done(); _, _, _ = s.accounts.Refresh(ctx, a.Token) }()
		go func() { defer wg.Done(); _, _, _ = s.accounts.Refresh(ctx, b.Token) }()
		go func() { defer wg.Done(); _, _, _ = s.accounts.Login(ctx, name, "password-"+name) }()
		go func() {
			defer wg.Done()
			_, _, changeErr = s.accounts.ChangePassword(ctx, actor, "password-"+name, "a much better one")
		}()
		wg.Wait()
		if changeErr != nil {
			t.Fatalf("%s: ChangePassword = %v", name, changeErr)
		}
		if n := s.liveTokens(t, actor.UserID); n != 1 {
			t.Fatalf("%s: %d live refresh tokens after the change, want only the caller's new one", name, n)
		}
	}
}
