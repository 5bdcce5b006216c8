package server

import (
	"strings"

	"github.com/labstack/echo/v4"
)

// Content-Security-Policy values. Every response gets lockedPolicy, which
// lets nothing load or run and nobody frame it: the API's JSON, problems
// and event streams, the probes and the app's files are not pages, and one
// that a browser is made to open as a page (an HTML-looking body under a
// JSON type, an SVG opened directly) stays inert. The two real pages
// replace it with their own: the web app's index.html (appPolicy) and the
// API docs page (docsPolicy).
const (
	lockedPolicy = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

	// appPolicy is what the built app needs and no more: its scripts
	// (the entry and the lazy pages, all under /assets), its stylesheets
	// and its icon come from this origin; it talks to its own API only
	// (fetch, and EventSource for a game's stream). Vite's build writes no
	// inline script or style, and Preact sets a style prop through the
	// CSSOM (element.style), which no style-src governs, so neither
	// 'unsafe-inline' nor 'unsafe-eval' is needed. default-src 'none'
	// refuses the rest: objects, frames, fonts, media, workers, manifests.
	appPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
		"base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)

// hstsValue asks browsers to reach the site over HTTPS only, for a year.
// Not includeSubDomains or preload: other hosts under the same domain are
// not this server's to commit.
const hstsValue = "max-age=31536000"

// securityHeaders sets, before anything else runs, the headers every
// response carries, errors included:
//   - a Content-Security-Policy (see lockedPolicy; pages replace it);
//   - X-Content-Type-Options: nosniff, so a body is only ever read as the
//     type it is sent with (a JSON answer holding a user's text is never
//     run as a script or shown as HTML);
//   - X-Frame-Options: DENY beside frame-ancestors 'none', for browsers
//     that know only the older header: no site may frame a page where a
//     click plays a move or closes an account;
//   - Referrer-Policy: same-origin: other sites are told nothing of the
//     page a visitor came from (a game's or a club's address);
//   - Cross-Origin-Opener-Policy: same-origin: a page this one opens, or
//     that opened it, on another site gets no handle on its window;
//   - Cross-Origin-Resource-Policy: same-origin: another site cannot pull
//     the API's answers or the app's files into its own page as an image
//     or a script (CORS requests are not affected, and the API has none);
//   - Permissions-Policy: the powerful features the app never uses are off
//     for it and anything it might embed;
//   - Strict-Transport-Security when the public address is https (https
//     says so): on http it would be ignored, and on a developer's
//     localhost it would pin every local port to HTTPS.
func securityHeaders(publicURL string) echo.MiddlewareFunc {
	hsts := strings.HasPrefix(strings.ToLower(publicURL), "https://")
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			h.Set("Content-Security-Policy", lockedPolicy)
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("X-Frame-Options", "DENY")
			h.Set("Referrer-Policy", "same-origin")
			h.Set("Cross-Origin-Opener-Policy", "same-origin")
			h.Set("Cross-Origin-Resource-Policy", "same-origin")
			h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()")
			if hsts {
				h.Set("Strict-Transport-Security", hstsValue)
			}
			return next(c)
		}
	}
}

// setPolicy replaces the response's Content-Security-Policy with a page's.
func setPolicy(c echo.Context, policy string) {
	c.Response().Header().Set("Content-Security-Policy", policy)
}
