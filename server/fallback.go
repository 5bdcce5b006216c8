package server

import (
	"maps"
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
	// the table of real routes is read once, not on every unmatched request.
	routes := sync.OnceValue(func() routeTable { return newRouteTable(e) })
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

// preferConcreteRoutes sends a request the router gave to a route with a
// parameter, where a route without one at that place has the path, to the
// fallback: the path is that route's, and the request's method is not
// one of its (GET /games/quick is a 405 naming POST, not a 404 "no such
// game" from GET /games/{id} with id "quick"). OpenAPI matches a path the
// same way: a concrete path before a templated one. Echo's router goes
// back to the parameter when the concrete route lacks the method.
func preferConcreteRoutes(e *echo.Echo) echo.MiddlewareFunc {
	routes := sync.OnceValue(func() routeTable { return newRouteTable(e) })
	fallback := apiFallback(e)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if concrete := routes().shadowing(c.Path(), echo.GetPath(c.Request())); concrete != "" {
				c.SetPath(concrete) // for the metrics: the route the path is
				return fallback(c)
			}
			return next(c)
		}
	}
}

// routeTable is the app's real routes (not the not-found routes, nor the
// app's catch-all): which method and path pattern pairs exist, and for
// each pattern with a parameter, the patterns that have a fixed segment
// where it has the parameter and otherwise match the same paths
// (/games/quick for /games/:id).
type routeTable struct {
	routes      map[string]bool
	refinements map[string][][]string
}

func newRouteTable(e *echo.Echo) routeTable {
	t := routeTable{routes: map[string]bool{}, refinements: map[string][][]string{}}
	paths := map[string]bool{}
	for _, rt := range e.Routes() {
		t.routes[rt.Method+" "+rt.Path] = true
		if rt.Path != appRoute && slices.Contains(probedMethods, rt.Method) {
			paths[rt.Path] = true
		}
	}
	// In order, so that a path two refinements match always names the
	// same one.
	sorted := slices.Sorted(maps.Keys(paths))
	for _, general := range sorted {
		if !strings.Contains(general, ":") {
			continue
		}
		g := strings.Split(general, "/")
		for _, concrete := range sorted {
			if c := strings.Split(concrete, "/"); refines(c, g) {
				t.refinements[general] = append(t.refinements[general], c)
			}
		}
	}
	return t
}

// refines says whether pattern c matches only paths pattern g matches and
// is more concrete: segment by segment the same, or fixed in c where g has
// a parameter, at least once.
func refines(c, g []string) bool {
	if len(c) != len(g) {
		return false
	}
	fixed := false
	for i := range c {
		cp, gp := strings.HasPrefix(c[i], ":"), strings.HasPrefix(g[i], ":")
		switch {
		case cp && gp:
		case gp && !strings.Contains(c[i], "*"):
			fixed = true
		case c[i] != g[i]:
			return false
		}
	}
	return fixed
}

// shadowing names the more concrete pattern that path matches in place of
// pattern, or "" when there is none.
func (t routeTable) shadowing(pattern, path string) string {
	refinements := t.refinements[pattern]
	if len(refinements) == 0 {
		return ""
	}
	segs := strings.Split(path, "/")
	for _, c := range refinements {
		if len(c) != len(segs) {
			continue
		}
		match := true
		for i := range c {
			if !strings.HasPrefix(c[i], ":") && c[i] != segs[i] {
				match = false
				break
			}
		}
		if match {
			return strings.Join(c, "/")
		}
	}
	return ""
}

// allowedMethods asks the router, method by method, which route the
// request's path would reach; a method is allowed when that is a real route
// for it: not a not-found route, not the app's catch-all, which refuses
// every API path, and not a route with a parameter where a more concrete
// route has the path (preferConcreteRoutes). HEAD is allowed wherever GET
// is (apiFallback answers it).
func allowedMethods(e *echo.Echo, routes routeTable, r *http.Request) []string {
	path := echo.GetPath(r)
	var allow []string
	for _, m := range probedMethods {
		c := e.NewContext(r, nil)
		e.Router().Find(m, path, c)
		real := c.Path() != appRoute && routes.routes[m+" "+c.Path()] && routes.shadowing(c.Path(), path) == ""
		if real || m == http.MethodHead && slices.Contains(allow, http.MethodGet) {
			allow = append(allow, m)
		}
	}
	return allow
}
