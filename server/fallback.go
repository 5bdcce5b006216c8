package server

import (
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
)

// mountFallbacks decides what a request under an API prefix gets when no
// route matched its method: 405 with Allow when the path has routes for
// other methods, 404 when it has none.
//
// Echo would answer 405 by itself, but catch-alls stand in its way: a
// group with middleware (/api/v1) registers not-found routes under its
// prefix, and the router lets a not-found route win over its method check,
// so every wrong method there was a 404; elsewhere under the prefixes the
// app's GET and HEAD /* is the best match, so an unknown path there was a
// 405 naming the app's methods. So every API prefix gets not-found routes
// of its own (registered after the groups, so they replace theirs) that ask
// the router which methods the path has.
func mountFallbacks(e *echo.Echo) {
	h := apiFallback(e)
	// The prefix itself too: a not-found route on a path that has routes
	// only takes over when its method does not match, and then asks the
	// router like any other. /api/v1 is listed because its group's
	// not-found routes are the ones to replace.
	for _, p := range append([]string{"/api/v1"}, apiPrefixes...) {
		e.RouteNotFound(p, h)
		e.RouteNotFound(p+"/*", h)
	}
}

// probedMethods are the methods a path is asked about, in the order
// Echo's own Allow header lists them.
var probedMethods = []string{
	http.MethodDelete, http.MethodGet, http.MethodHead, http.MethodPatch, http.MethodPost, http.MethodPut,
}

func apiFallback(e *echo.Echo) echo.HandlerFunc {
	// Every route is registered before the first request is served, so
	// the set of real routes is read once, not on every unmatched request.
	routes := sync.OnceValue(func() map[string]bool {
		routes := map[string]bool{}
		for _, rt := range e.Routes() {
			routes[rt.Method+" "+rt.Path] = true
		}
		return routes
	})
	return func(c echo.Context) error {
		allow := allowedMethods(e, routes(), c.Request())
		if len(allow) == 0 {
			return echo.ErrNotFound
		}
		if c.Request().Method == http.MethodHead && slices.Contains(allow, http.MethodGet) {
			// HEAD is the GET without its body. The handler sees a GET;
			// net/http still drops the body, because it goes by the
			// request it read, which stays a HEAD.
			get := *c.Request()
			get.Method = http.MethodGet
			c.SetRequest(&get)
			e.Router().Find(http.MethodGet, echo.GetPath(&get), c)
			return c.Handler()(c)
		}
		// Like Echo's own answer on every other path: OPTIONS is always
		// allowed, and answers with the list.
		header := http.MethodOptions + ", " + strings.Join(allow, ", ")
		c.Response().Header().Set(echo.HeaderAllow, header)
		if c.Request().Method == http.MethodOptions {
			return c.NoContent(http.StatusNoContent)
		}
		return echo.ErrMethodNotAllowed
	}
}

// allowedMethods asks the router, method by method, which route the
// request's path would reach; a method is allowed when that is a real route
// for it: not a not-found route, and not the app's catch-all, which
// refuses every API path. HEAD is allowed wherever GET is (apiFallback
// answers it).
func allowedMethods(e *echo.Echo, routes map[string]bool, r *http.Request) []string {
	path := echo.GetPath(r)
	var allow []string
	for _, m := range probedMethods {
		c := e.NewContext(r, nil)
		e.Router().Find(m, path, c)
		real := c.Path() != appRoute && routes[m+" "+c.Path()]
		if real || m == http.MethodHead && slices.Contains(allow, http.MethodGet) {
			allow = append(allow, m)
		}
	}
	return allow
}
