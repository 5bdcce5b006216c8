package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

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

// bodyReadTimeout bounds how long a request body may take to arrive.
var bodyReadTimeout = 10 * time.Second

func decodeBody(c echo.Context, v any, optional bool) error {
	req := c.Request()
	if req.ContentLength == 0 {
		if optional {
			return nil
		}
		return league.Invalid("the body is empty; send a JSON object")
	}
	mt, params, _ := mime.ParseMediaType(req.Header.Get(echo.HeaderContentType))
	if cs, ok := params["charset"]; mt != echo.MIMEApplicationJSON || ok && !strings.EqualFold(cs, "utf-8") {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType, "send the body as JSON in UTF-8 with Content-Type: application/json")
	}
	// A compressed body would otherwise be read as its compressed bytes
	// and refused as "not valid UTF-8", which is not what is wrong with it.
	for _, coding := range req.Header.Values(echo.HeaderContentEncoding) {
		for _, name := range strings.Split(coding, ",") {
			if name = strings.TrimSpace(name); name != "" && !strings.EqualFold(name, "identity") {
				c.Response().Header().Set(echo.HeaderAcceptEncoding, "identity")
				return echo.NewHTTPError(http.StatusUnsupportedMediaType, "send the body uncompressed: Content-Encoding "+name+" is not taken")
			}
		}
	}
	// The body is read whole (the body limit bounds it) so that a value the
	// decoder refuses without saying where can be looked for again, within
	// bodyReadTimeout: a client that trickles its body would otherwise hold
	// the request (and a graceful shutdown) for as long as it likes.
	rc := http.NewResponseController(c.Response())
	deadlineSet := rc.SetReadDeadline(time.Now().Add(bodyReadTimeout)) == nil
	body, err := io.ReadAll(req.Body)
	if deadlineSet && err == nil {
		// Lifted once the body is in: the connection's next read belongs
		// to the next request. After a timeout it stays, so that the
		// server gives up on the rest of the body and closes the connection.
		rc.SetReadDeadline(time.Time{})
	}
	if err != nil {
		if e := tooLarge(err); e != nil {
			return e
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return echo.NewHTTPError(http.StatusRequestTimeout, "the body took too long to arrive")
		}
		return league.Invalid("the body could not be read")
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		if optional {
			return nil
		}
		return league.Invalid("the body is empty; send a JSON object")
	}
	if !utf8.Valid(body) {
		return league.Invalid("the body is not valid UTF-8")
	}
	if string(trimmed) == "null" {
		return league.Invalid("the body must be a JSON object")
	}
	body = timeLettersUpperCased(body, reflect.TypeOf(v))
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonProblem(err, body, v)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return league.Invalid("the body must hold exactly one JSON object, with nothing after it")
	}
	// encoding/json takes the last of two equal keys and matches keys
	// regardless of case; a client's "Username" or second "name" is a
	// mistake to point out, not a value to take.
	if err := strictKeys(json.NewDecoder(bytes.NewReader(body)), reflect.TypeOf(v), nil); err != nil {
		return err
	}
	// PostgreSQL text cannot hold NUL, and no name or note needs one.
	if field := runeField(reflect.ValueOf(v), 0, ""); field != "" {
		return league.Invalid("a text field holds a NUL character",
			league.FieldError{Field: field, Message: "may not contain NUL characters"})
	}
	// Half a surrogate pair was decoded as U+FFFD and would be kept so,
	// where raw bytes that are not UTF-8 are refused above.
	if loneSurrogate(body) {
		e := league.Invalid("a string escapes half a surrogate pair (\\ud800–\\udfff without its other half), which is no character")
		if field := runeField(reflect.ValueOf(v), utf8.RuneError, ""); field != "" {
			e.Fields = []league.FieldError{{Field: field, Message: "escapes half a surrogate pair, which is no character"}}
		}
		return e
	}
	// The API's times are UTC: a time given with an offset
	// (2030-01-01T10:00:00+05:00) is the same instant, but kept as given it
	// was answered back with that offset by the create that took it.
	inUTC(reflect.ValueOf(v))
	return nil
}

// timeLettersUpperCased returns body with every string that stands where
// request type t has a time written with capital "T" and "Z" (see
// league.UpperCaseTimeLetters): RFC 3339 allows them in lower case, and
// encoding/json's time decoding refuses that. The letters are replaced in
// place, so every offset in the body (a syntax error's, a key's) stays
// where the client put it, and a string that is no time is left alone, to
// be refused naming its field as before.
func timeLettersUpperCased(body []byte, t reflect.Type) []byte {
	if !holdsTime(t, map[reflect.Type]bool{}) {
		return body
	}
	var out []byte
	dec := json.NewDecoder(bytes.NewReader(body))
	walkTimes(dec, t, func(s string) {
		end := int(dec.InputOffset())
		start := end - len(s) - 2
		// Only a string written without escapes is where its bytes say.
		if start < 0 || body[start] != '"' || string(body[start+1:end-1]) != s {
			return
		}
		if up := league.UpperCaseTimeLetters(s); up != s {
			if out == nil {
				out = bytes.Clone(body)
			}
			copy(out[start+1:], up)
		}
	})
	if out == nil {
		return body
	}
	return out
}

var timeType = reflect.TypeFor[time.Time]()

// holdsTime reports whether a request of type t has a time anywhere in it.
func holdsTime(t reflect.Type, seen map[reflect.Type]bool) bool {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Struct:
		if t == timeType {
			return true
		}
		for i := 0; i < t.NumField(); i++ {
			if holdsTime(t.Field(i).Type, seen) {
				return true
			}
		}
	case reflect.Slice, reflect.Array, reflect.Map:
		return holdsTime(t.Elem(), seen)
	}
	return false
}

// walkTimes reads one JSON value from dec, whose place in the request is of
// type t (nil: a place the request does not have), and calls visit, right
// after reading it, with every string that stands at a time's place. It
// reads by tokens, which have no depth limit, and stops at the first
// syntax error: the decoder names that.
func walkTimes(dec *json.Decoder, t reflect.Type, visit func(string)) bool {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := dec.Token()
	if err != nil {
		return false
	}
	switch tok := tok.(type) {
	case string:
		if t == timeType {
			visit(tok)
		}
		return true
	case json.Delim:
		if t != nil && (t == timeType || reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]())) {
			t = nil // decoded its own way, not field by field
		}
		for dec.More() {
			var inner reflect.Type
			if tok == '{' {
				k, err := dec.Token()
				if err != nil {
					return false
				}
				key, _ := k.(string)
				switch {
				case t != nil && t.Kind() == reflect.Struct:
					if f, known := jsonField(t, key); known {
						inner = f.Type
					}
				case t != nil && t.Kind() == reflect.Map:
					inner = t.Elem()
				}
			} else if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
				inner = t.Elem()
			}
			if !walkTimes(dec, inner, visit) {
				return false
			}
		}
		_, err := dec.Token() // the closing delimiter
		return err == nil
	}
	return true
}

// inUTC sets every time in v, a decoded request, to UTC.
func inUTC(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			inUTC(v.Elem())
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			if v.CanSet() {
				v.Set(reflect.ValueOf(v.Interface().(time.Time).UTC()))
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() || f.Anonymous {
				inUTC(v.Field(i)) // an embedded struct's fields are the body's too
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			inUTC(v.Index(i))
		}
	}
}

func tooLarge(err error) error {
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return he
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge, bodyTooLarge)
	}
	return nil
}

func jsonProblem(err error, body []byte, v any) error {
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	var timeErr *time.ParseError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return league.Invalid("the body is not valid JSON: it ends too early")
	case errors.As(err, &syntax) && strings.HasSuffix(syntax.Error(), "exceeded max depth"):
		// Well-formed, but deeper than encoding/json reads (10,000
		// levels); no request nests more than three, so the fault lies
		// where the body's shape first leaves the request's.
		message := "the body nests deeper than 10,000 levels"
		if kerr := strictKeys(json.NewDecoder(bytes.NewReader(body)), reflect.TypeOf(v), nil); kerr != nil {
			return kerr
		}
		if field, t := misshapen(json.NewDecoder(bytes.NewReader(body)), reflect.TypeOf(v), ""); field != "" {
			must := "must be " + jsonKind(t)
			if t == reflect.TypeFor[time.Time]() {
				must = "must be a date and time in RFC 3339 form, like 2030-01-31T18:00:00Z"
			}
			return league.Invalid(message, league.FieldError{Field: field, Message: must})
		}
		return league.Invalid(message)
	case errors.As(err, &syntax):
		return league.Invalid(fmt.Sprintf("the body is not valid JSON (at byte %d)", syntax.Offset))
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return league.Invalid("the body must be a JSON object")
		}
		field, _ := badField(body, v)
		if field == "" {
			field = typeErr.Field
		}
		return league.Invalid("a field has the wrong type",
			league.FieldError{Field: field, Message: "must be " + jsonKind(typeErr.Type)})
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		// encoding/json gives the key alone; strictKeys names a key of a
		// nested object by its path (clock.minutes, seats[1].usr), with
		// the fields its own object takes.
		if kerr := strictKeys(json.NewDecoder(bytes.NewReader(body)), reflect.TypeOf(v), nil); kerr != nil {
			return kerr
		}
		name, uerr := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
		if uerr != nil {
			name = strings.TrimPrefix(err.Error(), "json: unknown field ")
		}
		return league.Invalid("the body has a field this endpoint does not take",
			league.FieldError{Field: name, Message: "is not a field of this request (accepted: " + strings.Join(jsonFields(reflect.TypeOf(v)), ", ") + ")"})
	}
	// A value's own decoder (a time, say) failed; the error does not say
	// which field it was.
	if field, t := badField(body, v); field != "" {
		message := "must be " + jsonKind(t)
		if t == reflect.TypeFor[time.Time]() || errors.As(err, &timeErr) {
			message = "must be a date and time in RFC 3339 form, like 2030-01-31T18:00:00Z"
		}
		return league.Invalid("a field has a value of the wrong form", league.FieldError{Field: field, Message: message})
	}
	return league.Invalid("the body is not valid JSON")
}

// badField finds the first field of body, in the order of its keys, whose
// value does not decode into its place in v, and names it the way clients
// write it (seats[2].user). It returns "" when every field decodes alone.
func badField(body []byte, v any) (string, reflect.Type) {
	var doc any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // a number too large for a float64 (1e400) is still found
	if dec.Decode(&doc) != nil {
		return "", nil
	}
	return findBadValue(reflect.TypeOf(v), doc, "")
}

func findBadValue(t reflect.Type, val any, path string) (string, reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if val == nil {
		return "", nil
	}
	if reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]()) {
		return decodesAs(t, val, path)
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := val.(map[string]any)
		if !ok {
			return path, t
		}
		for _, key := range sortedKeys(obj) {
			f, ok := jsonField(t, key)
			if !ok {
				continue // unknown fields are reported by name already
			}
			if field, ft := findBadValue(f.Type, obj[key], joinPath(path, key)); field != "" {
				return field, ft
			}
		}
		return "", nil
	case reflect.Slice, reflect.Array:
		list, ok := val.([]any)
		if !ok {
			return path, t
		}
		for i, item := range list {
			if field, ft := findBadValue(t.Elem(), item, fmt.Sprintf("%s[%d]", path, i)); field != "" {
				return field, ft
			}
		}
		return "", nil
	case reflect.Map:
		obj, ok := val.(map[string]any)
		if !ok {
			return path, t
		}
		for _, key := range sortedKeys(obj) {
			if field, ft := findBadValue(t.Elem(), obj[key], joinPath(path, key)); field != "" {
				return field, ft
			}
		}
		return "", nil
	}
	return decodesAs(t, val, path)
}

// decodesAs returns path and t when val, as JSON, does not decode into a t.
func decodesAs(t reflect.Type, val any, path string) (string, reflect.Type) {
	raw, err := json.Marshal(val)
	if err == nil && json.Unmarshal(raw, reflect.New(t).Interface()) == nil {
		return "", nil
	}
	return path, t
}

// fieldPath is a place in a body (seats[2].user) as a chain of steps back
// to the top, written out only when a field there is refused.
type fieldPath struct {
	parent  *fieldPath
	key     string // an object's key, unless element
	index   int    // an array's index, if element
	element bool
}

func (p *fieldPath) String() string {
	if p == nil {
		return ""
	}
	if p.element {
		return fmt.Sprintf("%s[%d]", p.parent, p.index)
	}
	return joinPath(p.parent.String(), p.key)
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func sortedKeys(obj map[string]any) []string {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// misshapen reads one JSON value from dec, whose place in the request is
// of type t, and returns the path of the first place, in the body's order,
// where an object or array stands that the request has no room for (an
// array for a string, an object for a number), with the type of that
// place; "" when none. It reads by tokens, which have no depth limit.
func misshapen(dec *json.Decoder, t reflect.Type, path string) (string, reflect.Type) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := dec.Token()
	if err != nil {
		return "", nil
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return "", nil // a scalar: whether it fits is the decoder's to say
	}
	if t.Kind() == reflect.Interface {
		skipRest(dec)
		return "", nil
	}
	custom := reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]())
	switch {
	case delim == '{' && !custom && t.Kind() == reflect.Struct:
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return "", nil
			}
			key, _ := k.(string)
			f, known := jsonField(t, key)
			if !known {
				return "", nil // strictKeys names an unknown key
			}
			if field, ft := misshapen(dec, f.Type, joinPath(path, key)); field != "" {
				return field, ft
			}
		}
	case delim == '{' && !custom && t.Kind() == reflect.Map:
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return "", nil
			}
			key, _ := k.(string)
			if field, ft := misshapen(dec, t.Elem(), joinPath(path, key)); field != "" {
				return field, ft
			}
		}
	case delim == '[' && !custom && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
		for i := 0; dec.More(); i++ {
			if field, ft := misshapen(dec, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); field != "" {
				return field, ft
			}
		}
	default:
		return path, t
	}
	dec.Token() // the closing delimiter
	return "", nil
}

// skipRest reads the rest of an object or array whose opening token was
// read.
func skipRest(dec *json.Decoder) {
	for depth := 1; depth > 0; {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
}

// strictKeys reads one JSON value from dec, whose place in the request is
// of type t (nil: not a place the request has), and refuses an object
// that gives a key twice, a key of a struct field in another case, or a
// key of no field at all, naming it by its path; and a null anywhere in it,
// which encoding/json reads as the field left out: a PATCH's
// "description": null, meant by its client to clear the description, left
// it as it was with a 200, and "move_id": null played a move with no
// idempotency key. No field of a request is nullable. The body has already
// decoded, or failed to only on an unknown key, so the JSON is well formed.
//
// The path is written out only for the field it refuses: written at every
// level, a body nested 30,000 arrays deep (60 KB, under the body limit)
// cost 2 s of CPU to copy its ever longer paths.
func strictKeys(dec *json.Decoder, t reflect.Type, path *fieldPath) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]()) {
		t = nil // a value of its own form (a time): its keys are its own
	}
	tok, err := dec.Token()
	if err != nil {
		return nil
	}
	switch tok {
	case nil:
		if path != nil {
			return league.Invalid("a field is null", league.FieldError{Field: path.String(), Message: "may not be null; leave the field out to leave it unset"})
		}
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil
			}
			key, _ := k.(string)
			field := &fieldPath{parent: path, key: key}
			if seen[key] {
				return league.Invalid("a field is given twice", league.FieldError{Field: field.String(), Message: "is given more than once"})
			}
			seen[key] = true
			var inner reflect.Type
			switch {
			case t != nil && t.Kind() == reflect.Struct:
				f, ok := jsonField(t, key)
				if !ok || jsonName(f) != key {
					return league.Invalid("the body has a field this endpoint does not take",
						league.FieldError{Field: field.String(), Message: "is not a field of this request (accepted: " + strings.Join(jsonFields(t), ", ") + ")"})
				}
				if ok {
					inner = f.Type
				}
			case t != nil && t.Kind() == reflect.Map:
				inner = t.Elem()
			}
			if err := strictKeys(dec, inner, field); err != nil {
				return err
			}
		}
		dec.Token() // }
	case json.Delim('['):
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; dec.More(); i++ {
			if err := strictKeys(dec, elem, &fieldPath{parent: path, index: i, element: true}); err != nil {
				return err
			}
		}
		dec.Token() // ]
	}
	return nil
}

// jsonField is the field of struct t that the JSON key names, looking into
// embedded structs as encoding/json does (and, like it, matching the key's
// case loosely).
func jsonField(t reflect.Type, key string) (reflect.StructField, bool) {
	var loose reflect.StructField
	found := false
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("json") == "" {
			if inner, ok := jsonField(f.Type, key); ok {
				return inner, true
			}
			continue
		}
		name := jsonName(f)
		if name == key {
			return f, true
		}
		if !found && name != "" && strings.EqualFold(name, key) {
			loose, found = f, true
		}
	}
	return loose, found
}

// jsonName is the JSON name of an exported field, or "" for one JSON skips.
func jsonName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	switch name {
	case "-":
		return ""
	case "":
		return f.Name
	}
	return name
}

// runeField names the first string in v, a decoded request, that holds
// the rune r, or returns "".
func runeField(v reflect.Value, r rune, path string) string {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return ""
		}
		return runeField(v.Elem(), r, path)
	case reflect.String:
		if strings.ContainsRune(v.String(), r) {
			return path
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				if field := runeField(v.Field(i), r, path); field != "" {
					return field
				}
				continue
			}
			if name := jsonName(f); name != "" {
				if field := runeField(v.Field(i), r, joinPath(path, name)); field != "" {
					return field
				}
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if field := runeField(v.Index(i), r, fmt.Sprintf("%s[%d]", path, i)); field != "" {
				return field
			}
		}
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		for _, k := range keys {
			if strings.ContainsRune(fmt.Sprint(k), r) {
				return path
			}
			if field := runeField(v.MapIndex(k), r, joinPath(path, fmt.Sprint(k))); field != "" {
				return field
			}
		}
	}
	return ""
}

// loneSurrogate reports whether a JSON text escapes half of a UTF-16
// surrogate pair on its own (\ud800 with no low half after it): valid
// JSON, but no character, which encoding/json silently turns into U+FFFD.
// Backslashes stand only in strings, and an escaped backslash is skipped
// whole, so a scan of the escapes needs no JSON parse.
func loneSurrogate(body []byte) bool {
	hex4 := func(i int) (rune, bool) {
		if i+6 > len(body) || body[i] != '\\' || body[i+1] != 'u' {
			return 0, false
		}
		n, err := strconv.ParseUint(string(body[i+2:i+6]), 16, 16)
		return rune(n), err == nil
	}
	for i := 0; i < len(body); i++ {
		if body[i] != '\\' {
			continue
		}
		r, ok := hex4(i)
		switch {
		case !ok:
			i++ // another escape, such as \\: its second byte is no escape's start
		case r >= 0xdc00 && r <= 0xdfff:
			return true // a low half with no high half before it
		case r >= 0xd800 && r <= 0xdbff:
			if low, ok := hex4(i + 6); !ok || low < 0xdc00 || low > 0xdfff {
				return true
			}
			i += 11
		default:
			i += 5
		}
	}
	return false
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

// jsonFields lists the JSON names of the fields of struct type t (or a
// pointer to one), those of embedded structs included.
func jsonFields(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("json") == "" {
			names = append(names, jsonFields(f.Type)...)
			continue
		}
		if name := jsonName(f); name != "" {
			names = append(names, name)
		}
	}
	return names
}
