package server

import "github.com/labstack/echo/v4"

// mountAPI registers every area's routes under /api/v1. Each area lives in
// its own files and adds one line here.
func mountAPI(e *echo.Echo, api *echo.Group, d Deps) {
	api.GET("/openapi.json", openAPIDocument)
	mountGames(e, api, d)
	mountRatings(api, d)
	mountCompetitions(api, d)
	mountAccounts(api, d)
	mountClubs(api, d)
}
