package league

// Actor is who is asking: every service method that checks permissions
// takes one, so the checks live in the domain and not only in handlers.
// The zero Actor is an anonymous caller.
type Actor struct {
	UserID  string
	IsAdmin bool // site administrator
}

// Anonymous reports whether nobody is signed in.
func (a Actor) Anonymous() bool { return a.UserID == "" }
