package postgres

import (
	"context"
	"fmt"
	"testing"

	"github.com/seqleague/seqleague/league"
)

// Signing out while the same session's refresh is on its way (the web
// app's timer firing as the player clicks "Sign out", or a thief's copy
// refreshing) ends the session all the same: the refresh either comes
// first and its new token is revoked with the family, or finds the token
// revoked. Before, the sign-out's revocation did not see the token the
// refresh was issuing, and the session lived on.
func TestASignOutRacingARefreshOfTheSessionEndsIt(t *testing.T) {
	s := openAuthStore(t)
	ctx := context.Background()
	for round := range 40 {
		name := fmt.Sprintf("ann%d", round)
		ann := s.register(t, name)
		_, rt, err := s.accounts.Login(ctx, name, "password-"+name)
		if err != nil {
			t.Fatal(err)
		}
		got := race(map[string]func() error{
			"refresh":  func() error { _, _, err := s.accounts.Refresh(ctx, rt.Token); return err },
			"sign out": func() error { return s.accounts.Logout(ctx, rt.Token) },
		})
		wantRefusals(t, round, got, league.EUNAUTHORIZED)
		if got["sign out"] != nil {
			t.Fatalf("round %d: sign out: %v", round, got["sign out"])
		}
		if n := s.liveTokens(t, ann.UserID); n != 0 {
			t.Fatalf("round %d: %d live refresh tokens after signing out (refresh: %v)", round, n, got["refresh"])
		}
	}
}
