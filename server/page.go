package server

import (
	"strconv"

	"github.com/labstack/echo/v4"
	"github.com/seqleague/seqleague/league"
)

// listResponse is the shape of every paginated list.
type listResponse[T any] struct {
	Items      []T    `json:"items"`
	NextCursor string `json:"next_cursor"`
}

// pageRequest reads ?limit=&cursor=.
func pageRequest(c echo.Context) (league.PageRequest, error) {
	p := league.PageRequest{Cursor: c.QueryParam("cursor")}
	if s := c.QueryParam("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 { // an explicit 0 is out of range, not "the default"
			return p, league.Invalid("the page size is not valid", league.PageLimitError)
		}
		p.Limit = n
	}
	return p.Normalize()
}
