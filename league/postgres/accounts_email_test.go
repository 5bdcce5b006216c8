package postgres

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"github.com/seqleague/seqleague/league"
)

func (s *authStore) email(t *testing.T, userID string) *string {
	t.Helper()
	var email sql.NullString
	if err := s.db.Gorm.Raw("SELECT email FROM users WHERE id = ?", userID).Row().Scan(&email); err != nil {
		t.Fatal(err)
	}
	if !email.Valid {
		return nil
	}
	return &email.String
}

func TestChangingTheEmailTakesThePasswordAndKeepsTheSessions(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	ann, bob := s.register(t, "ann"), s.register(t, "bob")
	_, phone, _ := s.accounts.Login(ctx, "ann", "password-ann")
	hash := s.passwordHash(t, ann.UserID)

	u, err := s.accounts.ChangeEmail(ctx, ann, "password-ann", "ann@example.org")
	if err != nil {
		t.Fatal(err)
	}
	if u.ID != ann.UserID || u.Username != "ann" || u.Email != "ann@example.org" {
		t.Fatalf("ChangeEmail = %+v, want ann with ann@example.org", u)
	}
	if got, _ := s.accounts.User(ctx, ann, ann.UserID); got.Email != "ann@example.org" {
		t.Errorf("read back: %q", got.Email)
	}
	// Two accounts may share an address, as at registration.
	if _, err := s.accounts.ChangeEmail(ctx, bob, "password-bob", "ann@example.org"); err != nil {
		t.Errorf("bob taking ann's address: %v", err)
	}
	// "" removes the address: no address is stored, as for an account
	// registered without one.
	if u, err = s.accounts.ChangeEmail(ctx, ann, "password-ann", ""); err != nil || u.Email != "" {
		t.Fatalf("removing it = %+v, %v", u, err)
	}
	if got := s.email(t, ann.UserID); got != nil {
		t.Errorf("stored email = %q, want NULL", *got)
	}
	// The password and the sessions are not touched.
	if s.passwordHash(t, ann.UserID) != hash {
		t.Error("the password hash changed")
	}
	if _, _, err := s.accounts.Refresh(ctx, phone.Token); err != nil {
		t.Errorf("the other session after the change: %v", err)
	}
}

func TestARefusedEmailChangeNamesTheFieldAndChangesNothing(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	ann := s.register(t, "ann")
	if _, err := s.accounts.ChangeEmail(ctx, ann, "password-ann", "ann@example.org"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, current, email, field string
	}{
		{"wrong password", "password-guess", "eve@example.org", "current_password"},
		{"no password", "", "eve@example.org", "current_password"},
		{"no password, removing it", "", "", "current_password"},
		{"not an address", "password-ann", "eve", "email"},
		{"a display name", "password-ann", "Eve <eve@example.org>", "email"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.accounts.ChangeEmail(ctx, ann, tc.current, tc.email)
			var le *league.Error
			if !errors.As(err, &le) || le.Code != league.EINVALID || len(le.Fields) != 1 || le.Fields[0].Field != tc.field {
				t.Fatalf("ChangeEmail = %v, want EINVALID naming %s", err, tc.field)
			}
			if got := s.email(t, ann.UserID); got == nil || *got != "ann@example.org" {
				t.Errorf("stored email = %v after a refusal", got)
			}
		})
	}
	_, err := s.accounts.ChangeEmail(ctx, league.Actor{}, "password-ann", "eve@example.org")
	wantCode(t, err, league.EUNAUTHORIZED)
	if err := s.accounts.Delete(ctx, ann, ann.UserID); err != nil {
		t.Fatal(err)
	}
	_, err = s.accounts.ChangeEmail(ctx, ann, "password-ann", "eve@example.org")
	wantCode(t, err, league.EUNAUTHORIZED)
}
