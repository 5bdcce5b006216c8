package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/seqleague/seqleague/league"
)

// bindJSON reads the request body into v strictly: the body must be one
// JSON object sent as application/json, with no unknown fields and every
// field of the right type. Failures are league EINVALID errors naming the
// field where there is one (413 and 415 are HTTP errors).
//
// Requiring application/json also keeps browsers from posting here
// cross-site without a CORS preflight.
func bindJSON(c echo.Context, v any) error {
	return decodeBody(c, v, false)
}

// bindOptionalJSON is bindJSON for bodies that may be absent; v is left as
// it is when there is no body.
func bindOptionalJSON(c echo.Context, v any) error {
	return decodeBody(c, v, true)
}

func decodeBody(c echo.Context, v any, optional bool) error {
	req := c.Request()
	if req.ContentLength == 0 {
		if optional {
			return nil
		}
		return league.Invalid("the body is empty; send a JSON object")
	}
	mt, _, _ := mime.ParseMediaType(req.Header.Get(echo.HeaderContentType))
	if mt != echo.MIMEApplicationJSON {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType, "send the body as JSON with Content-Type: application/json")
	}
	dec := json.NewDecoder(req.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if errors.Is(err, io.EOF) && optional {
		return nil
	}
	if err != nil {
		return jsonProblem(err, v)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if tooLarge(err) != nil {
			return tooLarge(err)
		}
		return league.Invalid("the body must hold exactly one JSON object, with nothing after it")
	}
	return nil
}

func tooLarge(err error) error {
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return he
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "the body is too large")
	}
	return nil
}

func jsonProblem(err error, v any) error {
	if e := tooLarge(err); e != nil {
		return e
	}
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return league.Invalid("the body is empty; send a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return league.Invalid("the body is not valid JSON: it ends too early")
	case errors.As(err, &syntax):
		return league.Invalid(fmt.Sprintf("the body is not valid JSON (at byte %d)", syntax.Offset))
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return league.Invalid("the body must be a JSON object")
		}
		return league.Invalid("a field has the wrong type",
			league.FieldError{Field: typeErr.Field, Message: "must be " + jsonKind(typeErr.Type)})
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name, uerr := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
		if uerr != nil {
			name = strings.TrimPrefix(err.Error(), "json: unknown field ")
		}
		return league.Invalid("the body has a field this endpoint does not take",
			league.FieldError{Field: name, Message: "is not a field of this request (accepted: " + strings.Join(jsonFields(v), ", ") + ")"})
	}
	return league.Invalid("the body is not valid JSON")
}

// jsonKind names a Go type the way a JSON client thinks of it.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "of another type"
}

// jsonFields lists the JSON names of the fields of the struct v points to.
func jsonFields(v any) []string {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}
