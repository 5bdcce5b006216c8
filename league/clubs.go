package league

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// ClubRole is a user's standing in a club. RoleNone is no membership.
type ClubRole string

// Club roles, from least to most.
const (
	RoleNone      ClubRole = ""
	RoleMember    ClubRole = "member"
	RoleOrganizer ClubRole = "organizer" // runs the club's leagues and tournaments, invites, removes members
	RoleOwner     ClubRole = "owner"     // all of that, plus editing the club and naming organizers
)

func (r ClubRole) rank() int {
	switch r {
	case RoleMember:
		return 1
	case RoleOrganizer:
		return 2
	case RoleOwner:
		return 3
	}
	return 0
}

// Valid reports whether r is a membership role.
func (r ClubRole) Valid() bool { return r.rank() > 0 }

// AtLeast reports whether r is min or above.
func (r ClubRole) AtLeast(min ClubRole) bool { return r.rank() >= min.rank() }

// Club is a group of players that runs leagues and tournaments.
type Club struct {
	ID          string
	Name        string
	Description string
	OwnerID     string
	MemberCount int
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// UserClub is a club one user belongs to, with the user's role in it.
type UserClub struct {
	Club Club
	Role ClubRole
}

// NewClub is a club to create; its creator becomes the owner.
type NewClub struct {
	Name        string
	Description string
}

// ClubUpdate changes a club; nil fields stay as they are. Setting OwnerID
// transfers ownership to another member, and the old owner becomes an
// organizer.
type ClubUpdate struct {
	Name        *string
	Description *string
	OwnerID     *string
}

// ClubFilter selects clubs: Query matches names containing it, without
// regard to case.
type ClubFilter struct {
	Query string
	Page  PageRequest
}

// Member is one membership.
type Member struct {
	UserID   string
	Username string
	Role     ClubRole
	JoinedAt time.Time
}

// NewInvite asks for an invite code.
type NewInvite struct {
	ExpiresIn time.Duration // 0 means DefaultInviteTTL
	MaxUses   int           // 0 means 1
}

// Invite bounds.
const (
	DefaultInviteTTL = 7 * 24 * time.Hour
	MaxInviteTTL     = 90 * 24 * time.Hour
	MaxInviteUses    = 1000
)

// Invite is a code that lets people join a club. Code is shown once; the
// store keeps its hash.
type Invite struct {
	ClubID    string
	Code      string
	ExpiresAt time.Time
	MaxUses   int
}

// Clubs is the club service. Every method checks the actor's permission.
type Clubs interface {
	// UserClubs pages through the clubs a user belongs to, with their
	// role, by club name.
	UserClubs(ctx context.Context, userID string, p PageRequest) (Page[UserClub], error)
	Create(ctx context.Context, actor Actor, in NewClub) (Club, error)
	Club(ctx context.Context, actor Actor, id string) (Club, error)
	List(ctx context.Context, actor Actor, f ClubFilter) (Page[Club], error)
	// Update edits or transfers a club (owner or site admin).
	Update(ctx context.Context, actor Actor, id string, u ClubUpdate) (Club, error)
	Members(ctx context.Context, actor Actor, clubID string, p PageRequest) (Page[Member], error)
	// Join spends one use of an invite code.
	Join(ctx context.Context, actor Actor, clubID, code string) (Member, error)
	// CreateInvite makes a code (organizers, the owner, site admins).
	CreateInvite(ctx context.Context, actor Actor, clubID string, in NewInvite) (Invite, error)
	// Leave ends the actor's membership; the owner must transfer first.
	Leave(ctx context.Context, actor Actor, clubID string) error
	// RemoveMember removes someone else (see CanRemoveMember).
	RemoveMember(ctx context.Context, actor Actor, clubID, userID string) error
	// SetMemberRole makes a member an organizer or back (owner, site admin).
	SetMemberRole(ctx context.Context, actor Actor, clubID, userID string, role ClubRole) (Member, error)
	// ClubRole is the actor's role in the club (RoleNone if none); ENOTFOUND
	// if there is no such club.
	ClubRole(ctx context.Context, actor Actor, clubID string) (ClubRole, error)
	// CanOrganize answers nil if the actor may create and run the club's
	// leagues and tournaments, else EUNAUTHORIZED, EFORBIDDEN or ENOTFOUND.
	CanOrganize(ctx context.Context, actor Actor, clubID string) error
}

// The permission rules, as pure functions of the actor and their role, so
// that every store applies the same ones. Site admins may do whatever an
// owner may, in any club (they moderate), without being members.

func needSignIn(actor Actor) error {
	if actor.Anonymous() && !actor.IsAdmin {
		return Errorf(EUNAUTHORIZED, "sign in first")
	}
	return nil
}

// CanOrganizeAs answers nil if an actor with role may organize the club.
func CanOrganizeAs(actor Actor, role ClubRole) error {
	if err := needSignIn(actor); err != nil {
		return err
	}
	if actor.IsAdmin || role.AtLeast(RoleOrganizer) {
		return nil
	}
	return Errorf(EFORBIDDEN, "only the club's owner and organizers may do this")
}

// CanManageAs answers nil if an actor with role may edit the club, transfer
// it and name organizers.
func CanManageAs(actor Actor, role ClubRole) error {
	if err := needSignIn(actor); err != nil {
		return err
	}
	if actor.IsAdmin || role == RoleOwner {
		return nil
	}
	return Errorf(EFORBIDDEN, "only the club's owner may do this")
}

// CanRemoveMember answers nil if an actor with role may remove a member
// with target's role: the owner (or a site admin) removes anyone but the
// owner, an organizer removes plain members only.
func CanRemoveMember(actor Actor, role, target ClubRole) error {
	if err := CanOrganizeAs(actor, role); err != nil {
		return err
	}
	if target == RoleOwner {
		if actor.IsAdmin {
			return Errorf(EPRECONDITION, "the owner cannot be removed; transfer the club to another member first")
		}
		return Errorf(EFORBIDDEN, "nobody may remove the club's owner")
	}
	if actor.IsAdmin || role == RoleOwner || target == RoleMember {
		return nil
	}
	return Errorf(EFORBIDDEN, "organizers may remove members but not other organizers")
}

// Club field bounds.
const (
	ClubNameMin        = 3
	ClubNameMax        = 64
	ClubDescriptionMax = 2000
	ClubQueryMax       = 64
)

// NormalizeClubName trims a club name and checks it.
func NormalizeClubName(name string) (string, *FieldError) {
	name = TrimName(name)
	if n := utf8.RuneCountInString(name); n < ClubNameMin || n > ClubNameMax {
		return name, &FieldError{"name", "must be 3 to 64 characters"}
	}
	if !PlainName(name) {
		return name, &FieldError{"name", "must be one line of visible text (no control, direction or zero-width characters)"}
	}
	return name, nil
}

// CheckDescription checks a club's or a league's description: at most
// 2000 characters of lines of visible text. Line breaks and tabs are its
// own; any other control character, and what PlainName refuses in a name
// (a bidirectional override that would reorder the text around it, a
// zero-width space), is refused, where only NUL was.
func CheckDescription(d string) *FieldError {
	if utf8.RuneCountInString(d) > ClubDescriptionMax {
		return &FieldError{"description", "must be at most 2000 characters"}
	}
	if !PlainName(strings.NewReplacer("\r\n", " ", "\n", " ", "\t", " ").Replace(d)) {
		return &FieldError{"description", "must be lines of visible text (no control, direction or zero-width characters)"}
	}
	return nil
}
