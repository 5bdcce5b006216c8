package server

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/seqleague/seqleague/league"
)

// mountClubs registers clubs, their members and invites.
func mountClubs(api *echo.Group, d Deps) {
	h := clubHandlers{clubs: d.Clubs}
	required, optional := authRequired(d), authOptional(d)
	api.POST("/clubs", h.create, required)
	api.GET("/clubs", h.list, optional)
	api.GET("/clubs/:id", h.get, optional)
	api.PATCH("/clubs/:id", h.update, required)
	api.GET("/clubs/:id/members", h.members, optional)
	api.POST("/clubs/:id/members", h.join, required)
	api.DELETE("/clubs/:id/members/me", h.leave, required)
	api.DELETE("/clubs/:id/members/:user_id", h.remove, required)
	api.PATCH("/clubs/:id/members/:user_id", h.setRole, required)
	api.POST("/clubs/:id/invites", h.invite, required)
	api.GET("/users/:id/clubs", h.userClubs, optional)
}

type clubHandlers struct {
	clubs league.Clubs
}

type createClubRequest struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

type updateClubRequest struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
	OwnerID     *string `json:"owner_id"`
}

type joinClubRequest struct {
	Code string `json:"code"`
}

// inviteRequest's fields are pointers so that an explicit 0 is refused
// rather than read as "the default".
type inviteRequest struct {
	ExpiresInHours *int `json:"expires_in_hours"`
	MaxUses        *int `json:"max_uses"`
}

type memberRoleRequest struct {
	Role string `json:"role"`
}

type clubResponse struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	OwnerID     string    `json:"owner_id"`
	MemberCount int       `json:"member_count"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
	// ViewerRole is the caller's role, on a single club for a signed-in
	// caller who is a member.
	ViewerRole string `json:"viewer_role,omitempty"`
}

func toClubResponse(c league.Club) clubResponse {
	return clubResponse{ID: c.ID, Name: c.Name, Description: c.Description, OwnerID: c.OwnerID,
		MemberCount: c.MemberCount, CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC()}
}

type memberResponse struct {
	UserID   string    `json:"user_id"`
	Username string    `json:"username"`
	Role     string    `json:"role"`
	JoinedAt time.Time `json:"joined_at"`
}

func toMemberResponse(m league.Member) memberResponse {
	return memberResponse{UserID: m.UserID, Username: m.Username, Role: string(m.Role), JoinedAt: m.JoinedAt.UTC()}
}

type inviteResponse struct {
	ClubID    string    `json:"club_id"`
	Code      string    `json:"code"`
	ExpiresAt time.Time `json:"expires_at"`
	MaxUses   int       `json:"max_uses"`
}

func (h clubHandlers) create(c echo.Context) error {
	var req createClubRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	club, err := h.clubs.Create(c.Request().Context(), actorOf(c), league.NewClub{Name: req.Name, Description: req.Description})
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, "/api/v1/clubs/"+club.ID)
	return c.JSON(http.StatusCreated, toClubResponse(club))
}

func (h clubHandlers) list(c echo.Context) error {
	p, err := pageRequest(c)
	if err != nil {
		return err
	}
	page, err := h.clubs.List(c.Request().Context(), actorOf(c), league.ClubFilter{Query: c.QueryParam("q"), Page: p})
	if err != nil {
		return err
	}
	out := listResponse[clubResponse]{Items: make([]clubResponse, 0, len(page.Items)), NextCursor: page.NextCursor}
	for _, club := range page.Items {
		out.Items = append(out.Items, toClubResponse(club))
	}
	return c.JSON(http.StatusOK, out)
}

func (h clubHandlers) get(c echo.Context) error {
	ctx, a := c.Request().Context(), actorOf(c)
	club, err := h.clubs.Club(ctx, a, c.Param("id"))
	if err != nil {
		return err
	}
	out := toClubResponse(club)
	if !a.Anonymous() {
		role, err := h.clubs.ClubRole(ctx, a, club.ID)
		if err != nil {
			return err
		}
		out.ViewerRole = string(role)
	}
	return c.JSON(http.StatusOK, out)
}

func (h clubHandlers) update(c echo.Context) error {
	var req updateClubRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	club, err := h.clubs.Update(c.Request().Context(), actorOf(c), c.Param("id"),
		league.ClubUpdate{Name: req.Name, Description: req.Description, OwnerID: req.OwnerID})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toClubResponse(club))
}

func (h clubHandlers) members(c echo.Context) error {
	p, err := pageRequest(c)
	if err != nil {
		return err
	}
	page, err := h.clubs.Members(c.Request().Context(), actorOf(c), c.Param("id"), p)
	if err != nil {
		return err
	}
	out := listResponse[memberResponse]{Items: make([]memberResponse, 0, len(page.Items)), NextCursor: page.NextCursor}
	for _, m := range page.Items {
		out.Items = append(out.Items, toMemberResponse(m))
	}
	return c.JSON(http.StatusOK, out)
}

func (h clubHandlers) join(c echo.Context) error {
	var req joinClubRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	m, err := h.clubs.Join(c.Request().Context(), actorOf(c), c.Param("id"), req.Code)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toMemberResponse(m))
}

func (h clubHandlers) invite(c echo.Context) error {
	var req inviteRequest
	if err := bindOptionalJSON(c, &req); err != nil {
		return err
	}
	var in league.NewInvite // zero values: the defaults
	if n := req.ExpiresInHours; n != nil {
		if *n < 1 || *n > int(league.MaxInviteTTL/time.Hour) {
			return league.Invalid("the invite is not valid", league.FieldError{Field: "expires_in_hours", Message: "must be 1 to 2160 (90 days)"})
		}
		in.ExpiresIn = time.Duration(*n) * time.Hour
	}
	if n := req.MaxUses; n != nil {
		if *n < 1 || *n > league.MaxInviteUses {
			return league.Invalid("the invite is not valid", league.FieldError{Field: "max_uses", Message: "must be 1 to 1000"})
		}
		in.MaxUses = *n
	}
	inv, err := h.clubs.CreateInvite(c.Request().Context(), actorOf(c), c.Param("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, inviteResponse{ClubID: inv.ClubID, Code: inv.Code, ExpiresAt: inv.ExpiresAt.UTC(), MaxUses: inv.MaxUses})
}

func (h clubHandlers) leave(c echo.Context) error {
	if err := h.clubs.Leave(c.Request().Context(), actorOf(c), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h clubHandlers) remove(c echo.Context) error {
	if err := h.clubs.RemoveMember(c.Request().Context(), actorOf(c), c.Param("id"), c.Param("user_id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h clubHandlers) setRole(c echo.Context) error {
	var req memberRoleRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	m, err := h.clubs.SetMemberRole(c.Request().Context(), actorOf(c), c.Param("id"), c.Param("user_id"), league.ClubRole(req.Role))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toMemberResponse(m))
}

type userClubResponse struct {
	clubResponse
	Role string `json:"role"`
}

func (h clubHandlers) userClubs(c echo.Context) error {
	p, err := pageRequest(c)
	if err != nil {
		return err
	}
	page, err := h.clubs.UserClubs(c.Request().Context(), c.Param("id"), p)
	if err != nil {
		return err
	}
	out := listResponse[userClubResponse]{Items: make([]userClubResponse, len(page.Items)), NextCursor: page.NextCursor}
	for i, uc := range page.Items {
		out.Items[i] = userClubResponse{clubResponse: toClubResponse(uc.Club), Role: string(uc.Role)}
	}
	return c.JSON(http.StatusOK, out)
}
