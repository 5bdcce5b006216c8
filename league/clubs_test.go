package league

import (
	"strings"
	"testing"
)

func TestClubPermissionRules(t *testing.T) {
	anon := Actor{}
	user := Actor{UserID: "u"}
	admin := Actor{UserID: "a", IsAdmin: true}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"anonymous may not organize", CanOrganizeAs(anon, RoleNone), EUNAUTHORIZED},
		{"a stranger may not organize", CanOrganizeAs(user, RoleNone), EFORBIDDEN},
		{"a member may not organize", CanOrganizeAs(user, RoleMember), EFORBIDDEN},
		{"an organizer organizes", CanOrganizeAs(user, RoleOrganizer), ""},
		{"the owner organizes", CanOrganizeAs(user, RoleOwner), ""},
		{"a site admin organizes any club", CanOrganizeAs(admin, RoleNone), ""},
		{"the command line organizes", CanOrganizeAs(SystemActor, RoleNone), ""},
		{"an organizer may not manage", CanManageAs(user, RoleOrganizer), EFORBIDDEN},
		{"the owner manages", CanManageAs(user, RoleOwner), ""},
		{"a site admin manages", CanManageAs(admin, RoleNone), ""},
		{"an organizer removes a member", CanRemoveMember(user, RoleOrganizer, RoleMember), ""},
		{"an organizer may not remove an organizer", CanRemoveMember(user, RoleOrganizer, RoleOrganizer), EFORBIDDEN},
		{"an organizer may not remove the owner", CanRemoveMember(user, RoleOrganizer, RoleOwner), EFORBIDDEN},
		{"a member removes nobody", CanRemoveMember(user, RoleMember, RoleMember), EFORBIDDEN},
		{"the owner removes an organizer", CanRemoveMember(user, RoleOwner, RoleOrganizer), ""},
		{"a site admin removes an organizer", CanRemoveMember(admin, RoleNone, RoleOrganizer), ""},
		{"nobody removes the owner, not even an admin", CanRemoveMember(admin, RoleNone, RoleOwner), EPRECONDITION},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ErrorCode(tc.err); got != tc.want {
				t.Errorf("code = %q, want %q (%v)", got, tc.want, tc.err)
			}
		})
	}
}

func TestClubRolesAreOrdered(t *testing.T) {
	if !RoleOwner.AtLeast(RoleOrganizer) || !RoleOrganizer.AtLeast(RoleMember) || RoleMember.AtLeast(RoleOrganizer) || RoleNone.Valid() {
		t.Fatal("roles are not ordered none < member < organizer < owner")
	}
}

func TestNormalizeClubName(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"  Knights of Sequence ", "Knights of Sequence", true},
		{"Robert'); DROP TABLE clubs;--", "Robert'); DROP TABLE clubs;--", true},
		{"Åsa's Club", "Åsa's Club", true},
		{"A\u030asa's Club", "Åsa's Club", true}, // a combining ring is composed: one name to the unique index
		{"ab", "ab", false},
		{"tab\tinside", "tab\tinside", false},
	} {
		got, ferr := NormalizeClubName(tc.in)
		if got != tc.want || (ferr == nil) != tc.ok {
			t.Errorf("NormalizeClubName(%q) = %q, %v; want %q, ok=%v", tc.in, got, ferr, tc.want, tc.ok)
		}
	}
}

func TestPlainNamesAreOneLineOfVisibleText(t *testing.T) {
	for name, ok := range map[string]bool{
		"Spring Open":                   true,
		"Åsa & Björn":                   true,
		"שחמט Sequence":                 true, // right-to-left letters are letters
		"👩‍👩‍👧 family":                  true, // zero-width joiners build the emoji
		"Cup\nFinal":                    false,
		"Cup\r":                         false,
		"Cup\tFinal":                    false,
		"winner \u202eeulb":             false, // an override reverses what follows
		"a\u2066b\u2069":                false, // isolates
		"ann\u200b":                     false, // looks like ann
		"\ufeffann":                     false,
		string([]byte{'a', 0xff, 'b'}):  false,
		"Cup \u0085 next line (C1 NEL)": false,
		"Cup\u2028Final":                false, // a line separator breaks the line
		"Cup\u2029Final":                false, // and a paragraph separator
		"ann\u200f":                     false, // a right-to-left mark reorders what is around it
		"ann\u061c":                     false, // and the Arabic letter mark
		"a\u00adnn":                     false, // a soft hyphen: looks like ann
		"a\u2060nn":                     false, // a word joiner: looks like ann
		"ann\U000e0041":                 false, // a tag outside a flag: looks like ann
		"a\u3164nn":                     false, // a Hangul filler shows as nothing
		"ann\u2800":                     false, // and so does a Braille blank
		"a\u034fnn":                     false, // a combining grapheme joiner: looks like ann
		"ann\ufe0f":                     false, // a variation selector after a letter selects nothing
		"\ufe0fann":                     false, // nor at the start
		"Lions \ufe0e":                  false, // nor after a space
		"Caf\u00e9\ufe00":               false,
		"Team 1\ufe0f":                  false, // a digit varies only as a keycap
		"Team 1\ufe0f\u20e3":            true,  // 1️⃣
		"I \u2764\ufe0f Sequence":       true,  // ❤️: the emoji form of the heart
		"\u2764\ufe0f\ufe0f":            false, // a second selector selects nothing
		"\u2139\ufe0f desk":             true,  // ℹ️, a letter that is also an emoji
		"\u845b\U000e0100\u98fe":        true,  // an ideographic variation sequence picks a glyph of 葛
		"\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f Lions": true, // the flag of England is 🏴 and tags
		"Café":   true,
		"무지개 클럽": true,
	} {
		if got := PlainName(name); got != ok {
			t.Errorf("PlainName(%q) = %v, want %v", name, got, ok)
		}
	}
}

// A description is lines of visible text: its line breaks and tabs stay,
// and any other control character, direction override or invisible
// character is refused (only NUL was; the security audit stored the rest).
func TestDescriptionsAreLinesOfVisibleText(t *testing.T) {
	for d, ok := range map[string]bool{
		"":                                  true,
		"Fridays at eight.\nBring a board.": true,
		"Fridays at eight.\r\nBring a board.\n\n\tAll welcome 🎲": true,
		"Café ‍ عربي":             true,
		"a\x00b":                  false,
		"a\x01b":                  false,
		"a\rb":                    false,
		"ab\u202ecd":              false,
		"ab\u2066cd\u2069":        false,
		"a\u200bb":                false,
		strings.Repeat("x", 2001): false,
	} {
		if got := CheckDescription(d) == nil; got != ok {
			t.Errorf("CheckDescription(%q) accepts %v, want %v", d, got, ok)
		}
	}
}
