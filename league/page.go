package league

import "fmt"

// Page bounds.
const (
	DefaultPageLimit = 50
	MaxPageLimit     = 100
)

// PageRequest asks for one page of a list: Cursor is the NextCursor of the
// previous page ("" for the first), and is opaque to everyone but the store.
type PageRequest struct {
	Limit  int
	Cursor string
}

// Page is one page of a list; NextCursor is "" on the last page.
type Page[T any] struct {
	Items      []T
	NextCursor string
}

// PageLimitError is the field error of a page size out of range, or not a
// whole number, wherever it comes from.
var PageLimitError = FieldError{"limit", fmt.Sprintf("must be a whole number from 1 to %d", MaxPageLimit)}

// Normalize applies the default limit and checks the bounds.
func (p PageRequest) Normalize() (PageRequest, error) {
	switch {
	case p.Limit == 0:
		p.Limit = DefaultPageLimit
	case p.Limit < 0 || p.Limit > MaxPageLimit:
		return p, Invalid("the page size is not valid", PageLimitError)
	}
	if len(p.Cursor) > 512 {
		return p, Invalid("the cursor is not valid", FieldError{"cursor", "is not a cursor this server issued"})
	}
	return p, nil
}
