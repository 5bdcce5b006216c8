package server

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

// The schema-driven input sweep: the OpenAPI document, not a hand-written
// list, says what each request takes, and every field of every request
// body, every path parameter and every query parameter is sent values of
// the wrong kind for its schema by a caller who may make the change. Each
// is refused with a documented 4xx problem+json naming the field, and
// nothing is written. A field added to the document later is swept
// without anyone remembering to.

// wrongValue is one value a field's schema refuses, where it stands in the
// body (keys and array indexes) and why it is wrong.
type wrongValue struct {
	at    []any // string keys and int indexes from the body's root
	value any
	why   string
}

// field is where the value stands, written as the server names fields:
// clock.turn_seconds, members[0].bot.
func (w wrongValue) field() string {
	var b strings.Builder
	for _, step := range w.at {
		switch step := step.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(step)
		case int:
			fmt.Fprintf(&b, "[%d]", step)
		}
	}
	return b.String()
}

// resolvedSchema follows $ref and merges allOf, so that a schema's type,
// bounds and properties are all in one map.
func resolvedSchema(doc map[string]any, schema any) map[string]any {
	s, _ := schema.(map[string]any)
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		return resolvedSchema(doc, doc["components"].(map[string]any)["schemas"].(map[string]any)[name])
	}
	parts := asList(s["allOf"])
	if len(parts) == 0 {
		return s
	}
	out := maps.Clone(s)
	delete(out, "allOf")
	props := map[string]any{}
	for _, part := range parts {
		for k, v := range resolvedSchema(doc, part) {
			if k != "properties" {
				out[k] = v
			}
		}
	}
	maps.Copy(props, schemaProperties(doc, s))
	out["properties"] = props
	out["type"] = "object"
	return out
}

// schemaType is a schema's JSON type, "object" for one given only
// properties.
func schemaType(s map[string]any) string {
	if typ, ok := s["type"].(string); ok {
		return typ
	}
	if _, ok := s["properties"]; ok {
		return "object"
	}
	return ""
}

// wrongKinds are a value of every JSON type but the schema's own; an
// integer's own includes whole numbers (a fraction and 1e30 are tried on
// their own).
func wrongKinds(typ string) []any {
	all := map[string]any{"string": "7", "number": 7, "boolean": true, "object": map[string]any{}, "array": []any{}}
	var out []any
	for _, kind := range []string{"string", "number", "boolean", "object", "array"} {
		if kind == typ || kind == "number" && typ == "integer" {
			continue
		}
		out = append(out, all[kind])
	}
	return out
}

// wrongValues lists the values schema s refuses at at, and those of the
// properties and items it holds, recursively.
func wrongValues(doc map[string]any, s map[string]any, at []any) []wrongValue {
	var out []wrongValue
	add := func(v any, why string) {
		out = append(out, wrongValue{at: slices.Clone(at), value: v, why: why})
	}
	typ := schemaType(s)
	if len(at) > 0 {
		for _, v := range wrongKinds(typ) {
			add(v, fmt.Sprintf("a %T for a %s", v, typ))
		}
		if s["nullable"] != true {
			add(nil, "null where not nullable")
		}
	}
	switch typ {
	case "string":
		if enum := asList(s["enum"]); len(enum) > 0 {
			add("not-one-of-the-enum", "a value not in the enum")
		}
		if max, ok := s["maxLength"].(float64); ok {
			add(strings.Repeat("x", int(max)+1), "one past maxLength")
		}
		if min, ok := s["minLength"].(float64); ok && min > 0 {
			add(strings.Repeat("x", int(min)-1), "one below minLength")
		}
		if s["format"] == "date-time" {
			add("next tuesday", "no date-time")
		}
		if s["format"] == "email" {
			add("ann at example.org", "no e-mail address")
		}
		if pattern, ok := s["pattern"].(string); ok {
			if v := unmatched(pattern); v != "" {
				add(v, "a string the pattern refuses")
			}
		}
	case "integer", "number":
		if typ == "integer" {
			add(1.5, "a fraction for an integer")
			add(1e30, "too big for an int64")
		}
		if max, ok := s["maximum"].(float64); ok {
			add(max+1, "past maximum")
			if typ == "number" {
				add(1e30, "far past maximum")
			}
		}
		if min, ok := s["minimum"].(float64); ok {
			add(min-1, "below minimum")
		}
	case "object":
		props := schemaProperties(doc, s)
		for _, name := range slices.Sorted(maps.Keys(props)) {
			out = append(out, wrongValues(doc, resolvedSchema(doc, props[name]), append(slices.Clone(at), name))...)
		}
	case "array":
		items := resolvedSchema(doc, s["items"])
		if max, ok := s["maxItems"].(float64); ok {
			if enum := asList(items["enum"]); len(enum) > 0 {
				list := make([]any, int(max)+1)
				for i := range list {
					list[i] = enum[i%len(enum)]
				}
				add(list, "one past maxItems")
			}
		}
		out = append(out, wrongValues(doc, items, append(slices.Clone(at), 0))...)
	}
	return out
}

// unmatched is a string of a usual length that pattern does not match, or
// "" when every candidate does.
func unmatched(pattern string) string {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return ""
	}
	for _, v := range []string{"with spaces", "bang!bang", "ünïcödé", "12345678"} {
		if !re.MatchString(v) {
			return v
		}
	}
	return ""
}

// withValue is a copy of body with v at at, the objects and arrays on the
// way made where the body has none (an array of one item).
func withValue(body any, at []any, v any) any {
	if len(at) == 0 {
		return v
	}
	switch step := at[0].(type) {
	case string:
		obj, _ := body.(map[string]any)
		out := maps.Clone(obj)
		if out == nil {
			out = map[string]any{}
		}
		out[step] = withValue(out[step], at[1:], v)
		return out
	case int:
		list, _ := body.([]any)
		out := slices.Clone(list)
		for len(out) <= step {
			out = append(out, nil)
		}
		if out[step] == nil && len(at) > 1 {
			if _, isKey := at[1].(string); isKey {
				out[step] = map[string]any{}
			}
		}
		out[step] = withValue(out[step], at[1:], v)
		return out
	}
	return body
}

// namesField reports whether the problem names field, or a field inside
// it (tie_breaks[6] for tie_breaks).
func namesField(p problemBody, field string) bool {
	for _, f := range p.Errors {
		if f.Field == field || strings.HasPrefix(f.Field, field+".") || strings.HasPrefix(f.Field, field+"[") {
			return true
		}
	}
	return false
}

// refusal checks that rec is a problem+json refusal of one of statuses,
// documented for the operation, naming field; it returns what is wrong,
// or "".
func refusal(doc map[string]any, method, path string, rec *httptest.ResponseRecorder, field string, statuses ...int) string {
	if !slices.Contains(statuses, rec.Code) {
		return fmt.Sprintf("answered %d, want one of %v: %.300s", rec.Code, statuses, rec.Body)
	}
	if !documented(doc, method, path, rec.Code) {
		return fmt.Sprintf("answered %d, which the document does not list", rec.Code)
	}
	if ct := rec.Header().Get(echo.HeaderContentType); ct != "application/problem+json" {
		return fmt.Sprintf("answered %d as %q, not problem+json", rec.Code, ct)
	}
	var p problemBody
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		return fmt.Sprintf("answered a problem that is not JSON: %v", err)
	}
	if field != "" && !namesField(p, field) {
		return fmt.Sprintf("answered %d naming %+v, not %q: %s", rec.Code, p.Errors, field, p.Detail)
	}
	return ""
}

// apiOperations lists the document's /api/v1 operations, sorted so that a
// failure is found again in the same place.
func apiOperations(doc map[string]any) [][2]string {
	var ops [][2]string
	for path, methods := range doc["paths"].(map[string]any) {
		if !strings.HasPrefix(path, "/api/v1/") || path == "/api/v1/openapi.json" {
			continue
		}
		for method := range methods.(map[string]any) {
			if method != "parameters" {
				ops = append(ops, [2]string{strings.ToUpper(method), path})
			}
		}
	}
	slices.SortFunc(ops, func(a, b [2]string) int { return strings.Compare(a[1]+" "+a[0], b[1]+" "+b[0]) })
	return ops
}

func operation(doc map[string]any, method, path string) map[string]any {
	return doc["paths"].(map[string]any)[path].(map[string]any)[strings.ToLower(method)].(map[string]any)
}

// authBodies are valid bodies for the operations that take no access
// token, which the scene's table (of changes a token makes) leaves out.
func authBodies(t *testing.T, r *rig) map[string]string {
	t.Helper()
	_, refresh, err := r.accounts.Login(context.Background(), "ann", "password-ann")
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"POST /api/v1/auth/login":    `{"username":"ann","password":"password-ann"}`,
		"POST /api/v1/auth/register": `{"username":"newbie","password":"password-newbie","email":"newbie@example.org"}`,
		"POST /api/v1/auth/refresh":  fmt.Sprintf(`{"refresh_token":%q}`, refresh.Token),
		"POST /api/v1/auth/logout":   fmt.Sprintf(`{"refresh_token":%q}`, refresh.Token),
	}
}

// otherForms are valid bodies of another form for operations that take
// fields of one form or another, never both: a tournament's schedule is
// its rounds, or a whole event from first_start. A wrong value of a field
// is sent in the form that has the field, so that what refuses it is the
// value and not the mix of forms.
var otherForms = map[string][]string{
	"POST /api/v1/tournaments/{id}/rounds": {
		`{"first_start":"` + time.Now().UTC().AddDate(1, 0, 0).Format(time.RFC3339) + `","count":2,"interval_seconds":86400,"deadline_seconds":3600}`,
	},
}

// validBodies decodes an operation's valid bodies; "" is an empty object.
func validBodies(t *testing.T, op string, texts []string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, text := range texts {
		body := map[string]any{}
		if text != "" {
			if err := json.Unmarshal([]byte(text), &body); err != nil {
				t.Fatalf("%s: a valid body is not a JSON object: %v", op, err)
			}
		}
		out = append(out, body)
	}
	return out
}

// requestSchema is the schema of an operation's JSON body, resolved; nil
// when it takes none.
func requestSchema(doc map[string]any, method, path string) map[string]any {
	requestBody, _ := operation(doc, method, path)["requestBody"].(map[string]any)
	content, _ := requestBody["content"].(map[string]any)
	media, _ := content["application/json"].(map[string]any)
	if media == nil {
		return nil
	}
	return resolvedSchema(doc, media["schema"])
}

// bodyFor is the first of the valid bodies that has the top-level field w
// is a wrong value of, or the first when none has it.
func bodyFor(valid []map[string]any, w wrongValue) map[string]any {
	for _, body := range valid {
		if _, ok := body[w.at[0].(string)]; ok {
			return body
		}
	}
	return valid[0]
}

// TestEveryFieldOfEveryRequestRefusesAValueOfTheWrongKindByName: each
// property of each request body the document gives a schema, nested
// objects and array items included, is sent, in an otherwise valid body
// by a caller who may make the change, a value of every other JSON type,
// null, a value outside its enum, a string one past its maxLength, short
// of its minLength or refused by its pattern or format, a number past its
// bounds, a fraction for an integer and 1e30 for an int64. Each is a
// documented 400, 409 or 422 problem+json naming the property, and no
// table changes.
func TestEveryFieldOfEveryRequestRefusesAValueOfTheWrongKindByName(t *testing.T) {
	start := time.Now()
	r, _ := newAuthzRig(t)
	s := newAPIScene(t, r)
	bodies := maps.Clone(s.bodies)
	maps.Copy(bodies, authBodies(t, r))
	doc := openAPIDoc(t)
	operations, probed := 0, 0
	for _, mp := range apiOperations(doc) {
		method, path := mp[0], mp[1]
		op := method + " " + path
		schema := requestSchema(doc, method, path)
		if schema == nil {
			continue
		}
		if _, ok := bodies[op]; !ok {
			t.Errorf("%s takes a body and the scene has none for it; add one", op)
			continue
		}
		valid := validBodies(t, op, append([]string{bodies[op]}, otherForms[op]...))
		token := s.ann
		if strings.HasPrefix(path, "/api/v1/auth/") {
			token = ""
		}
		url := s.url(t, method, path)
		operations++
		before := r.fingerprint()
		for _, w := range wrongValues(doc, schema, nil) {
			body, err := json.Marshal(withValue(bodyFor(valid, w), w.at, w.value))
			if err != nil {
				t.Fatal(err)
			}
			probed++
			rec := r.call(method, url, string(body), token)
			if bad := refusal(doc, method, path, rec, w.field(), http.StatusBadRequest, http.StatusConflict, http.StatusUnprocessableEntity); bad != "" {
				t.Errorf("%s with %s %s (%s): %s", op, w.field(), body, w.why, bad)
			}
		}
		if changed := changedTables(before, r.fingerprint()); len(changed) > 0 {
			t.Errorf("%s: values of the wrong kind changed %v", op, changed)
		}
	}
	t.Logf("%d operations, %d wrong values, %v", operations, probed, time.Since(start).Round(time.Millisecond))
	if operations < 20 || probed < 550 {
		t.Fatalf("probed %d values in %d operations; the document has far more", probed, operations)
	}
}

var pathParameter = regexp.MustCompile(`\{[a-z_]+\}`)

// parameterSchema is the schema of an operation's parameter in the given
// place, nil when it has none.
func parameterSchema(doc map[string]any, method, path, in, name string) map[string]any {
	for _, p := range asList(operation(doc, method, path)["parameters"]) {
		if param, _ := p.(map[string]any); param["in"] == in && param["name"] == name {
			return resolvedSchema(doc, param["schema"])
		}
	}
	return nil
}

// badParameterValues are values a parameter of schema s refuses, as they
// stand in a URL (escaped).
func badParameterValues(s map[string]any) []string {
	out := []string{"a%00b", "a%FFb"}
	switch schemaType(s) {
	case "integer":
		out = append(out, "ten", "1.5", "1e3", "99999999999999999999")
		if min, ok := s["minimum"].(float64); ok {
			out = append(out, strconv.Itoa(int(min)-1))
		}
		if max, ok := s["maximum"].(float64); ok {
			out = append(out, strconv.Itoa(int(max)+1))
		}
	case "boolean":
		out = append(out, "maybe", "2")
	case "string":
		if len(asList(s["enum"])) > 0 {
			out = append(out, "not-one-of-the-enum")
		}
		if max, ok := s["maxLength"].(float64); ok {
			out = append(out, strings.Repeat("x", int(max)+1))
		}
	}
	return out
}

// boundedCall is r.call bounded by a few seconds: a stream that a bad parameter
// failed to stop would otherwise hold the test until its timeout.
func boundedCall(r *rig, method, url, body, token string, opt func(*http.Request)) *httptest.ResponseRecorder {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return r.call(method, url, body, token, func(req *http.Request) {
		*req = *req.WithContext(ctx)
		if opt != nil {
			opt(req)
		}
	})
}

// TestEveryParameterRefusesAValueOfTheWrongKind: each path parameter of
// each operation, sent something that is no ID (or no number), an unknown
// ID, and bytes that are a NUL or not UTF-8, is a 404 or 400 problem+json;
// each query parameter and request header with a schema, sent a value of
// the wrong kind or (a query parameter) given twice, is a 400 (or, for one
// naming a thing, a 404) naming it. None is a 5xx and nothing is written.
func TestEveryParameterRefusesAValueOfTheWrongKind(t *testing.T) {
	start := time.Now()
	r, _ := newAuthzRig(t)
	_, admin := r.user("root", true)
	sweep := &parameterSweep{t: t, r: r, s: newAPIScene(t, r), doc: openAPIDoc(t)}
	before := r.fingerprint()
	for _, mp := range apiOperations(sweep.doc) {
		method, path := mp[0], mp[1]
		if strings.HasPrefix(path, "/api/v1/auth/") {
			continue // no parameters; the body sweep covers them
		}
		token := sweep.s.ann
		if method+" "+path == "DELETE /api/v1/users/{id}" {
			token = admin // who may close another's account, and finds none
		}
		sweep.pathParameters(method, path, token)
		sweep.otherParameters(method, path, token)
	}
	if changed := changedTables(before, r.fingerprint()); len(changed) > 0 {
		t.Errorf("parameters of the wrong kind changed %v", changed)
	}
	t.Logf("%d bad parameters, %v", sweep.probed, time.Since(start).Round(time.Millisecond))
	if sweep.probed < 400 {
		t.Fatalf("probed %d parameter values; the document has far more", sweep.probed)
	}
}

// parameterSweep sends the scene's operations with one parameter at a
// time given a bad value, counting what it sends.
type parameterSweep struct {
	t      *testing.T
	r      *rig
	s      *apiScene
	doc    map[string]any
	probed int
}

// pathParameters sends each path parameter of the operation bad values,
// the others staying the scene's.
func (w *parameterSweep) pathParameters(method, path, token string) {
	for _, param := range pathParameter.FindAllString(path, -1) {
		name := strings.Trim(param, "{}")
		schema := parameterSchema(w.doc, method, path, "path", name)
		values := badParameterValues(schema)
		if schemaType(schema) == "string" && len(asList(schema["enum"])) == 0 {
			values = append(values, "not-an-id", "00000000-0000-4000-8000-000000000000", "1%20OR%201=1")
		}
		for _, v := range values {
			w.probed++
			url := strings.Replace(w.s.url(w.t, method, strings.Replace(path, param, "\x00", 1)), "\x00", v, 1)
			rec := boundedCall(w.r, method, url, w.s.bodies[method+" "+path], token, nil)
			if bad := refusal(w.doc, method, path, rec, "", http.StatusBadRequest, http.StatusNotFound); bad != "" {
				w.t.Errorf("%s %s with %s = %s: %s", method, path, name, v, bad)
			}
		}
	}
}

// otherParameters sends each query parameter and request header with a
// schema bad values, and each query parameter twice; the stream's
// access_token is the token sweep's.
func (w *parameterSweep) otherParameters(method, path, token string) {
	for _, p := range asList(operation(w.doc, method, path)["parameters"]) {
		param, _ := p.(map[string]any)
		name, _ := param["name"].(string)
		schema := resolvedSchema(w.doc, param["schema"])
		var values []string
		var with func(v string) (string, func(*http.Request))
		switch {
		case param["in"] == "query" && name != "access_token":
			values = append(badParameterValues(schema), twice(schema)+"&"+name+"="+twice(schema))
			with = func(v string) (string, func(*http.Request)) { return w.withQuery(method, path, name, v), nil }
		case param["in"] == "header":
			for _, v := range badParameterValues(schema) {
				if unescaped, err := neturl.QueryUnescape(v); err == nil {
					values = append(values, unescaped)
				}
			}
			with = func(v string) (string, func(*http.Request)) {
				return w.s.url(w.t, method, path), withHeader(name, v)
			}
		default:
			continue
		}
		for _, v := range values {
			w.probed++
			url, opt := with(v)
			rec := boundedCall(w.r, method, url, w.s.bodies[method+" "+path], token, opt)
			if bad := refusal(w.doc, method, path, rec, name, http.StatusBadRequest, http.StatusNotFound); bad != "" {
				w.t.Errorf("%s %s with %s %s = %q: %s", method, path, param["in"], name, v, bad)
			}
		}
	}
}

// withQuery is the operation's URL for the scene with ?name=v in place of
// any value the scene gives it.
func (w *parameterSweep) withQuery(method, path, name, v string) string {
	base, query, _ := strings.Cut(w.s.url(w.t, method, path), "?")
	var kept []string
	for _, kv := range strings.Split(query, "&") {
		if kv != "" && !strings.HasPrefix(kv, name+"=") {
			kept = append(kept, kv)
		}
	}
	return base + "?" + strings.Join(append(kept, name+"="+v), "&")
}

// twice is a value of a parameter's own kind, to give it twice with.
func twice(schema map[string]any) string {
	if enum := asList(schema["enum"]); len(enum) > 0 {
		return fmt.Sprint(enum[0])
	}
	switch schemaType(schema) {
	case "integer":
		return "1"
	case "boolean":
		return "true"
	}
	return "a"
}
