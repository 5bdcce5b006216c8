package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/seqleague/seqleague/league"
)

// mountAccounts registers registration, sessions and user profiles.
func mountAccounts(api *echo.Group, d Deps) {
	h := accountHandlers{d: d}
	api.POST("/auth/register", h.register)
	api.POST("/auth/login", h.login)
	api.POST("/auth/refresh", h.refresh)
	api.POST("/auth/logout", h.logout)
	api.GET("/me", h.me, authRequired(d))
	api.DELETE("/me", h.closeOwn, authRequired(d))
	api.PATCH("/me", h.changeEmail, authRequired(d))
	api.POST("/me/password", h.changePassword, authRequired(d))
	api.GET("/users/:id", h.user, authOptional(d))
	api.DELETE("/users/:id", h.close, authRequired(d))
}

type accountHandlers struct {
	d Deps
}

type registerRequest struct {
	Username string `json:"username"`
	Password string `json:"password"`
	Email    string `json:"email"`
}

type loginRequest struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

type changePasswordRequest struct {
	CurrentPassword string `json:"current_password"`
	NewPassword     string `json:"new_password"`
}

// updateMeRequest changes the caller's account: the e-mail address, the
// one thing of it that changes (the password has its own operation), once
// the password proves the account is the caller's.
type updateMeRequest struct {
	Email           *string `json:"email"`
	CurrentPassword string  `json:"current_password"`
}

type closeMeRequest struct {
	CurrentPassword string `json:"current_password"`
}

type refreshRequest struct {
	RefreshToken string `json:"refresh_token"`
}

type userResponse struct {
	ID        string     `json:"id"`
	Username  string     `json:"username"`
	Kind      string     `json:"kind"`
	BotLevel  string     `json:"bot_level,omitempty"`
	Email     string     `json:"email,omitempty"`
	IsAdmin   bool       `json:"is_admin"`
	CreatedAt time.Time  `json:"created_at"`
	ClosedAt  *time.Time `json:"closed_at,omitempty"`
}

func toUserResponse(u league.User) userResponse {
	return userResponse{ID: u.ID, Username: u.Username, Kind: u.Kind, BotLevel: u.BotLevel, Email: u.Email,
		IsAdmin: u.IsAdmin, CreatedAt: u.CreatedAt.UTC(), ClosedAt: u.ClosedAt}
}

type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
}

// limitIP counts one attempt of action against the per-IP budget.
func (h accountHandlers) limitIP(c echo.Context, action string) error {
	if h.d.Limiter == nil {
		return nil
	}
	return h.d.Limiter.Take(c.Request().Context(), action+":ip:"+clientBucket(c), h.d.Auth.RatePerIP, h.d.Auth.RateWindow)
}

// usernameAddresses is how many addresses' worth of the per-username
// budget a username has from all addresses together.
const usernameAddresses = 10

// limitUsername counts one attempt of action against the username's two
// budgets: RatePerUsername from the client's address, which stops one
// client guessing an account's password, and usernameAddresses times that
// from all addresses together, which slows a botnet guessing it. A single
// budget for all addresses let anyone lock any account's owner out of
// signing in with ten wrong passwords a window; now a stranger locks out
// only their own address, unless they guess from many. The refund it
// returns gives the attempt back to both, for one that proved the
// password: only wrong passwords are guesses, so only they use up the
// budgets, and the owner signing in often never locks the account.
func (h accountHandlers) limitUsername(c echo.Context, action, username string) (refund func(), err error) {
	if h.d.Limiter == nil {
		return func() {}, nil
	}
	sum := sha256.Sum256([]byte(strings.ToLower(username)))
	all := action + ":user:" + hex.EncodeToString(sum[:16])
	here := all + ":from:" + clientBucket(c)
	ctx := c.Request().Context()
	if err := h.d.Limiter.Take(ctx, here, h.d.Auth.RatePerUsername, h.d.Auth.RateWindow); err != nil {
		return nil, err
	}
	if err := h.d.Limiter.Take(ctx, all, usernameAddresses*h.d.Auth.RatePerUsername, h.d.Auth.RateWindow); err != nil {
		h.d.Limiter.Refund(context.WithoutCancel(ctx), here) // refused before any guess
		return nil, err
	}
	return func() {
		h.d.Limiter.Refund(context.WithoutCancel(ctx), here)
		h.d.Limiter.Refund(context.WithoutCancel(ctx), all)
	}, nil
}

func (h accountHandlers) register(c echo.Context) error {
	if err := h.limitIP(c, "register"); err != nil {
		return err
	}
	var req registerRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if _, err := h.limitUsername(c, "register", req.Username); err != nil {
		return err
	}
	u, err := h.d.Accounts.Register(c.Request().Context(), actorOf(c), league.NewUser{Username: req.Username, Password: req.Password, Email: req.Email})
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, "/api/v1/users/"+u.ID)
	return c.JSON(http.StatusCreated, toUserResponse(u))
}

func (h accountHandlers) login(c echo.Context) error {
	if err := h.limitIP(c, "login"); err != nil {
		return err
	}
	var req loginRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	var fields []league.FieldError
	if req.Username == "" {
		fields = append(fields, league.FieldError{Field: "username", Message: "is required"})
	}
	if req.Password == "" {
		fields = append(fields, league.FieldError{Field: "password", Message: "is required"})
	}
	if len(fields) > 0 {
		return league.Invalid("username and password are required", fields...)
	}
	refund, err := h.limitUsername(c, "login", req.Username)
	if err != nil {
		return err
	}
	u, rt, err := h.d.Accounts.Login(c.Request().Context(), req.Username, req.Password)
	if err != nil {
		return err
	}
	refund()
	return h.issue(c, u, rt)
}

// issue answers a new token pair, with the refresh token also in an
// HttpOnly cookie for the web app (which then never holds it in script).
func (h accountHandlers) issue(c echo.Context, u league.User, rt league.RefreshToken) error {
	now := time.Now()
	access, err := h.d.Auth.signAccessToken(u.ID, rt.Session, now)
	if err != nil {
		return err
	}
	setRefreshCookie(c, rt.Token, rt.ExpiresAt)
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return c.JSON(http.StatusOK, tokenResponse{
		AccessToken:  access,
		TokenType:    "Bearer",
		ExpiresIn:    int(h.d.Auth.accessTTL().Seconds()),
		RefreshToken: rt.Token,
	})
}

// refreshTokenOf takes the refresh token from the body, else the cookie.
func refreshTokenOf(c echo.Context) (string, error) {
	var req refreshRequest
	if err := bindOptionalJSON(c, &req); err != nil {
		return "", err
	}
	if req.RefreshToken != "" {
		return req.RefreshToken, nil
	}
	if ck, err := c.Cookie(refreshCookie); err == nil {
		return ck.Value, nil
	}
	return "", nil
}

func (h accountHandlers) refresh(c echo.Context) error {
	token, err := refreshTokenOf(c)
	if err != nil {
		return err
	}
	if token == "" {
		return league.Errorf(league.EUNAUTHORIZED, "no refresh token: send it as refresh_token or in the cookie")
	}
	u, rt, err := h.d.Accounts.Refresh(c.Request().Context(), token)
	if league.ErrorCode(err) == league.EUNAUTHORIZED {
		clearRefreshCookie(c)
	}
	if err != nil {
		return err
	}
	return h.issue(c, u, rt)
}

func (h accountHandlers) logout(c echo.Context) error {
	token, err := refreshTokenOf(c)
	if err != nil {
		return err
	}
	if err := h.d.Accounts.Logout(c.Request().Context(), token); err != nil {
		return err
	}
	clearRefreshCookie(c)
	return c.NoContent(http.StatusNoContent)
}

func (h accountHandlers) me(c echo.Context) error {
	a := actorOf(c)
	u, err := h.d.Accounts.User(c.Request().Context(), a, a.UserID)
	if league.ErrorCode(err) == league.ENOTFOUND || err == nil && u.ClosedAt != nil {
		// Closed since the token was checked (another instance may reuse
		// its answer for a second): the caller's session is over, which
		// a client learns from a 401, not from a profile or "no such user".
		return unauthorized(c, "this account no longer exists")
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toUserResponse(u))
}

// changePassword replaces the caller's password. A wrong current password
// is a guess like a wrong login, so every attempt counts against the login
// budgets of the client IP and of the username. Every session of the
// account ends; the caller gets a new pair, as at login, and stays signed in.
func (h accountHandlers) changePassword(c echo.Context) error {
	var req changePasswordRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	// A refusal that needs no hash costs no attempt.
	if err := league.ValidatePasswordChange(req.CurrentPassword, req.NewPassword); err != nil {
		return err
	}
	refund, err := h.ownPasswordAttempt(c)
	if err != nil {
		return err
	}
	ctx, a := c.Request().Context(), actorOf(c)
	u, rt, err := h.d.Accounts.ChangePassword(ctx, a, req.CurrentPassword, req.NewPassword)
	refundUnlessWrong(refund, err)
	if err != nil {
		return err
	}
	return h.issue(c, u, rt)
}

// changeEmail sets or removes the caller's e-mail address. It takes the
// password, as a password change does: a session alone (a device left
// signed in, a stolen token) must not be enough to point the account's
// address elsewhere. A wrong password is a guess like a wrong login, so
// every attempt counts against the login budgets.
func (h accountHandlers) changeEmail(c echo.Context) error {
	var req updateMeRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Email == nil {
		var fields []league.FieldError
		if req.CurrentPassword == "" {
			fields = append(fields, league.FieldError{Field: "current_password", Message: "is required"})
		}
		fields = append(fields, league.FieldError{Field: "email", Message: `is required: the address to keep, or "" to remove it`})
		return league.Invalid("nothing to change", fields...)
	}
	// A refusal that needs no hash costs no attempt.
	if err := league.ValidateEmailChange(req.CurrentPassword, *req.Email); err != nil {
		return err
	}
	refund, err := h.ownPasswordAttempt(c)
	if err != nil {
		return err
	}
	ctx, a := c.Request().Context(), actorOf(c)
	u, err := h.d.Accounts.ChangeEmail(ctx, a, req.CurrentPassword, *req.Email)
	refundUnlessWrong(refund, err)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toUserResponse(u))
}

// ownPasswordAttempt counts a request that checks the caller's own
// password against the login budgets, the client IP's and then the
// username's: a wrong password is a guess like a wrong login (the
// refund gives the username's attempt back once the password proved
// right). An account closed (or gone) since the token was issued is a 401.
func (h accountHandlers) ownPasswordAttempt(c echo.Context) (refund func(), err error) {
	if err := h.limitIP(c, "login"); err != nil {
		return nil, err
	}
	a := actorOf(c)
	u, err := h.d.Accounts.User(c.Request().Context(), a, a.UserID)
	if league.ErrorCode(err) == league.ENOTFOUND || err == nil && u.ClosedAt != nil {
		return nil, unauthorized(c, "this account no longer exists")
	}
	if err != nil {
		return nil, err
	}
	return h.limitUsername(c, "login", u.Username)
}

// refundUnlessWrong gives back the username's attempt at a request that
// checked the caller's own password, unless err says the password was
// wrong (a 400 naming current_password) or the check did not finish (an
// error of the server's own): a refusal after the password proved right,
// such as closing an account that still owns a club, is no guess, and
// ten of them locked the owner out of signing in.
func refundUnlessWrong(refund func(), err error) {
	var le *league.Error
	if err != nil && (!errors.As(err, &le) || slices.ContainsFunc(le.Fields, func(f league.FieldError) bool { return f.Field == "current_password" })) {
		return
	}
	refund()
}

// closeOwn closes the caller's account: its tokens stop working and its
// refresh tokens are revoked; its games, ratings and results stay, under
// its name, as the record of what was played. It takes the password, as an
// e-mail change does: a session alone (a device left signed in, a stolen
// token) must not end an account for good. A wrong password is a guess
// like a wrong login, so every attempt counts against the login budgets.
func (h accountHandlers) closeOwn(c echo.Context) error {
	var req closeMeRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	return h.closeOwnWith(c, req)
}

func (h accountHandlers) closeOwnWith(c echo.Context, req closeMeRequest) error {
	// A refusal that needs no hash costs no attempt.
	if req.CurrentPassword == "" {
		return league.Invalid("closing the account takes its password",
			league.FieldError{Field: "current_password", Message: "is required"})
	}
	refund, err := h.ownPasswordAttempt(c)
	if err != nil {
		return err
	}
	ctx, a := c.Request().Context(), actorOf(c)
	err = h.d.Accounts.CloseOwn(ctx, a, req.CurrentPassword)
	refundUnlessWrong(refund, err)
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// close closes an account: the caller's own, which takes its password as
// DELETE /me does, or, for a site admin, another's, which takes the
// admin's own password (both routes took the session alone, so a stolen
// token, an admin's included, could end accounts for good through them).
// The admin's password is a guess like a wrong login, counted against the
// admin's login budgets; a refusal that needs no hash (not an admin, no
// such ID, no password) costs no attempt.
func (h accountHandlers) close(c echo.Context) error {
	var req closeMeRequest
	if err := bindOptionalJSON(c, &req); err != nil {
		return err
	}
	a := actorOf(c)
	if c.Param("id") == a.UserID {
		return h.closeOwnWith(c, req)
	}
	refund := func() {}
	if a.IsAdmin && req.CurrentPassword != "" {
		var err error
		if refund, err = h.ownPasswordAttempt(c); err != nil {
			return err
		}
	}
	err := h.d.Accounts.CloseWithPassword(c.Request().Context(), a, req.CurrentPassword, c.Param("id"))
	refundUnlessWrong(refund, err)
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h accountHandlers) user(c echo.Context) error {
	u, err := h.d.Accounts.User(c.Request().Context(), actorOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toUserResponse(u))
}
