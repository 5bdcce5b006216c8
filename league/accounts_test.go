package league

import (
	"strings"
	"testing"
)

func TestValidateNewUserNamesTheFieldsAtFault(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   NewUser
		want []string // fields at fault
	}{
		{"valid", NewUser{Username: "Ann_the-3rd", Password: "password"}, nil},
		{"valid with email", NewUser{Username: "ann", Password: "password", Email: "ann@example.org"}, nil},
		{"shortest username", NewUser{Username: "abc", Password: "password"}, nil},
		{"longest username", NewUser{Username: strings.Repeat("a", 24), Password: "password"}, nil},
		{"too short username", NewUser{Username: "ab", Password: "password"}, []string{"username"}},
		{"overlong username", NewUser{Username: strings.Repeat("a", 25), Password: "password"}, []string{"username"}},
		{"non-ASCII username", NewUser{Username: "jöhn", Password: "password"}, []string{"username"}},
		{"space in username", NewUser{Username: "ann b", Password: "password"}, []string{"username"}},
		{"SQL-looking username", NewUser{Username: "x' OR '1'='1", Password: "password"}, []string{"username"}},
		{"NUL in username", NewUser{Username: "ann\x00", Password: "password"}, []string{"username"}},
		{"bot name", NewUser{Username: "Bot-strong", Password: "password"}, []string{"username"}},
		{"bot", NewUser{Username: "BOT", Password: "password"}, []string{"username"}},
		{"bot_ name", NewUser{Username: "Bot_greedy", Password: "password"}, []string{"username"}},
		{"a name that only starts with bot", NewUser{Username: "botany", Password: "password"}, nil},
		{"a password of spaces", NewUser{Username: "ann", Password: "        "}, []string{"password"}},
		{"a password with spaces", NewUser{Username: "ann", Password: " pass word "}, nil},
		{"short password", NewUser{Username: "ann", Password: "1234567"}, []string{"password"}},
		{"longest password in runes", NewUser{Username: "ann", Password: strings.Repeat("é", 128)}, nil},
		{"overlong password", NewUser{Username: "ann", Password: strings.Repeat("a", 129)}, []string{"password"}},
		{"bad email", NewUser{Username: "ann", Password: "password", Email: "Ann <ann@example.org>"}, []string{"email"}},
		{"everything wrong", NewUser{Username: "a", Password: "p", Email: "nope"}, []string{"username", "password", "email"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateNewUser(tc.in)
			wantFieldsAtFault(t, err, tc.want)
		})
	}
}

func TestValidatePasswordChangeNamesTheFieldsAtFault(t *testing.T) {
	for _, tc := range []struct {
		name          string
		current, next string
		want          []string // fields at fault
	}{
		{"valid", "old password", "new password", nil},
		{"no current password", "", "new password", []string{"current_password"}},
		{"short new password", "old password", "1234567", []string{"new_password"}},
		{"overlong new password", "old password", strings.Repeat("a", 129), []string{"new_password"}},
		{"longest new password in runes", "old password", strings.Repeat("é", 128), nil},
		{"new password the same as the current", "same password", "same password", []string{"new_password"}},
		{"both missing", "", "", []string{"current_password", "new_password"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidatePasswordChange(tc.current, tc.next)
			wantFieldsAtFault(t, err, tc.want)
		})
	}
}

func TestValidateEmailChangeNamesTheFieldsAtFault(t *testing.T) {
	for _, tc := range []struct {
		name           string
		current, email string
		want           []string // fields at fault
	}{
		{"valid", "password", "ann@example.org", nil},
		{"removing the address", "password", "", nil},
		{"no current password", "", "ann@example.org", []string{"current_password"}},
		{"a display name with the address", "password", "Ann <ann@example.org>", []string{"email"}},
		{"space around the address", "password", " ann@example.org", []string{"email"}},
		{"no domain", "password", "ann", []string{"email"}},
		{"overlong address", "password", strings.Repeat("a", 250) + "@x.org", []string{"email"}},
		{"NUL in the address", "password", "ann\x00@example.org", []string{"email"}},
		{"both wrong", "", "nope", []string{"current_password", "email"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateEmailChange(tc.current, tc.email)
			wantFieldsAtFault(t, err, tc.want)
		})
	}
}

// wantFieldsAtFault checks that err names exactly want, in order (none: no error).
func wantFieldsAtFault(t *testing.T, err error, want []string) {
	t.Helper()
	var got []string
	if err != nil {
		for _, f := range err.(*Error).Fields {
			got = append(got, f.Field)
		}
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("fields at fault = %v, want %v (%v)", got, want, err)
	}
}
