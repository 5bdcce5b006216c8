package server

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
	"github.com/seqleague/seqleague/league"
)

// problem is an RFC 9457 problem+json body.
type problem struct {
	Type      string         `json:"type"`
	Title     string         `json:"title"`
	Status    int            `json:"status"`
	Detail    string         `json:"detail,omitempty"`
	Errors    []fieldProblem `json:"errors,omitempty"`
	RequestID string         `json:"request_id,omitempty"`
	// Extra members some problems carry (the current ply on a stale move).
	Extra map[string]any `json:"-"`
}

// MarshalJSON writes the tagged members with the Extra ones beside them
// (an Extra member of a tagged one's name replaces it), as one object
// whose members are in the order of their names: the one definition of
// the problem body, its members named by the tags above.
func (p problem) MarshalJSON() ([]byte, error) {
	type plain problem // without this method
	b, err := json.Marshal(plain(p))
	if err != nil {
		return nil, err
	}
	body := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &body); err != nil {
		return nil, err
	}
	for k, v := range p.Extra {
		if body[k], err = json.Marshal(v); err != nil {
			return nil, err
		}
	}
	return json.Marshal(body)
}

type fieldProblem struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// statusOf is the one map from league error codes to HTTP statuses.
var statusOf = map[string]int{
	league.EINVALID:      http.StatusBadRequest,
	league.ENOTFOUND:     http.StatusNotFound,
	league.ECONFLICT:     http.StatusConflict,
	league.EUNAUTHORIZED: http.StatusUnauthorized,
	league.EFORBIDDEN:    http.StatusForbidden,
	league.EPRECONDITION: http.StatusUnprocessableEntity,
	league.ETOOMANY:      http.StatusTooManyRequests,
	league.EINTERNAL:     http.StatusInternalServerError,
}

// statusClientClosed is what the logs and metrics record for a request
// whose client hung up before the answer (nginx's 499): no server fault.
const statusClientClosed = 499

// unavailableRetry is the Retry-After of a 503 for a store's outage: a
// database restart takes about a second, a failover some more.
const unavailableRetry = 5

func errorHandler(logger *slog.Logger, unavailable func(error) bool) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		if errors.Is(err, context.Canceled) && c.Request().Context().Err() != nil {
			c.Response().WriteHeader(statusClientClosed) // nobody reads it
			return
		}
		p := toProblem(err)
		p.RequestID = c.Response().Header().Get(echo.HeaderXRequestID)
		if p.Status == http.StatusInternalServerError && unavailable != nil && unavailable(err) {
			// The request did nothing wrong and may be sent again.
			p.Status, p.Title = http.StatusServiceUnavailable, http.StatusText(http.StatusServiceUnavailable)
			p.Detail = "a database the service uses is unavailable for a moment; try again shortly"
			c.Response().Header().Set("Retry-After", strconv.Itoa(unavailableRetry))
		}
		if p.Status >= 500 {
			logger.ErrorContext(c.Request().Context(), "internal error",
				slog.String("request_id", p.RequestID), slog.String("error", err.Error()))
		}
		var le *league.Error
		if errors.As(err, &le) && le.RetryAfterSeconds > 0 {
			c.Response().Header().Set("Retry-After", strconv.Itoa(le.RetryAfterSeconds))
		}
		c.Response().Header().Set(echo.HeaderContentType, "application/problem+json")
		c.Response().WriteHeader(p.Status)
		if c.Request().Method == http.MethodHead {
			return
		}
		_ = jsonEncode(c.Response(), p)
	}
}

func toProblem(err error) problem {
	var le *league.Error
	if errors.As(err, &le) {
		status, ok := statusOf[le.Code]
		if !ok {
			status = http.StatusInternalServerError
		}
		p := problem{Type: "about:blank", Title: http.StatusText(status), Status: status, Detail: le.Message, Extra: le.Data}
		if status == http.StatusInternalServerError {
			p.Detail = "internal error"
			p.Extra = nil
		}
		for _, f := range le.Fields {
			p.Errors = append(p.Errors, fieldProblem{Field: f.Field, Message: f.Message})
		}
		return p
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		detail := http.StatusText(he.Code)
		if m, ok := he.Message.(string); ok {
			detail = m
		}
		if he == echo.ErrStatusRequestEntityTooLarge {
			detail = bodyTooLarge // the limit's own words name no limit
		}
		if he.Code >= 500 {
			detail = "internal error"
		}
		return problem{Type: "about:blank", Title: http.StatusText(he.Code), Status: he.Code, Detail: detail}
	}
	return problem{Type: "about:blank", Title: http.StatusText(http.StatusInternalServerError), Status: http.StatusInternalServerError, Detail: "internal error"}
}
