package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/seqleague/seqleague/league"
)

// openAPIDoc is the served document, decoded.
func openAPIDoc(t *testing.T) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(openAPIJSON, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// schemaProperties lists the properties a schema documents, through $ref
// and allOf.
func schemaProperties(doc map[string]any, schema any) map[string]any {
	s, _ := schema.(map[string]any)
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		return schemaProperties(doc, doc["components"].(map[string]any)["schemas"].(map[string]any)[name])
	}
	props := map[string]any{}
	for _, part := range asList(s["allOf"]) {
		for k, v := range schemaProperties(doc, part) {
			props[k] = v
		}
	}
	if p, ok := s["properties"].(map[string]any); ok {
		for k, v := range p {
			props[k] = v
		}
	}
	return props
}

func asList(v any) []any { l, _ := v.([]any); return l }

// Every field the API writes is in the schema the document gives for it:
// a client generated from the document never sees a field it does not
// know (games' created_at and started_at, a tournament's created_at and a
// season's were missing, and a user's clubs had no fields at all). And the
// schema requires exactly the fields the API always writes (those without
// omitempty): the document required none but the archive's and a user's
// ratings', so a generated client had to treat an answer's id, status or
// items as perhaps missing. The members' objects are held the same way,
// down to the slots of a bracket's matches, which the document gave as a
// bare object.
func TestOpenAPISchemasNameEveryFieldTheAPIWritesAndRequireThoseItAlwaysWrites(t *testing.T) {
	doc := openAPIDoc(t)
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	response := func(method, path string) any {
		op := doc["paths"].(map[string]any)[path].(map[string]any)[method].(map[string]any)
		for _, status := range []string{"200", "201"} {
			if r, ok := op["responses"].(map[string]any)[status].(map[string]any); ok {
				return r["content"].(map[string]any)["application/json"].(map[string]any)["schema"]
			}
		}
		t.Fatalf("%s %s: no 200 or 201 answer documented", method, path)
		return nil
	}
	// The answers the handlers build as maps, drawn from services that
	// answer with nothing: their members are the keys the handler writes.
	e := New(Deps{Metrics: prometheus.NewRegistry(), Logger: quietLogger, Games: emptyGames{},
		Ratings: emptyRatings{}, Leagues: emptyLeagues{}, Tournaments: emptyTournaments{}})
	answer := func(url string) goObject {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s = %d %s", url, rec.Code, rec.Body)
		}
		return answerMembers{"GET " + url, slices.Sorted(maps.Keys(decode[map[string]json.RawMessage](t, rec)))}
	}
	// league/postgres draws the bracket and hands the server its JSON, in
	// types the server cannot name: they are read from their source.
	store := parseSource(t, "../league/postgres")
	seasonRows := schemaProperties(doc, schemas["SeasonTable"])["rows"].(map[string]any)["items"]
	for _, tc := range []struct {
		name   string
		schema any
		v      any
	}{
		{"Game", schemas["Game"], gameResponse{}},
		{"GameView", schemas["GameView"], gameViewResponse{}},
		{"Seat", schemas["Seat"], seatResponse{}},
		{"Move", schemas["Move"], moveResponse{}},
		{"Archive", schemas["Archive"], archiveResponse{}},
		{"User", schemas["User"], userResponse{}},
		{"TokenPair", schemas["TokenPair"], tokenResponse{}},
		{"Club", schemas["Club"], clubResponse{}},
		{"ClubPage", schemas["ClubPage"], listResponse[clubResponse]{}},
		{"ClubMember", schemas["ClubMember"], memberResponse{}},
		{"MemberPage", schemas["MemberPage"], listResponse[memberResponse]{}},
		{"Invite", schemas["Invite"], inviteResponse{}},
		{"League", schemas["League"], leagueResponse{}},
		{"Season", schemas["Season"], seasonResponse{}},
		{"SeasonTable", schemas["SeasonTable"], answer("/api/v1/seasons/s/standings")},
		{"SeasonTable.rows[]", seasonRows, seasonRowResponse{}},
		{"Tournament", schemas["Tournament"], tournamentResponse{}},
		{"Entry", schemas["Entry"], entryResponse{}},
		{"Member", schemas["Member"], memberBody{}},
		{"Round", schemas["Round"], roundResponse{}},
		{"Standing", schemas["Standing"], standingResponse{}},
		{"Bracket", schemas["Bracket"], store.typ(t, "bracketView")},
		{"RatingState", schemas["RatingState"], ratingStateResponse{}},
		{"PoolStanding", schemas["PoolStanding"], poolStandingResponse{}},
		{"RatingChange", schemas["RatingChange"], ratingChangeResponse{}},
		{"LeaderboardRow", schemas["LeaderboardRow"], leaderboardRowResponse{}},
		{"UserRatings", schemas["UserRatings"], userRatingsResponse{}},
		// A stale move's 409 carries the ply the game is at (problem.Extra; see
		// TestAMoveForAPlyNotYetReachedSaysWhereTheGameIs).
		{"Problem", schemas["Problem"], withMembers{goType{reflect.TypeFor[problem]()}, []string{"ply"}}},
		{"GET /users/{id}/clubs", response("get", "/api/v1/users/{id}/clubs"), listResponse[userClubResponse]{}},
		{"GET /users/{id}/games", response("get", "/api/v1/users/{id}/games"), listResponse[gameResponse]{}},
		{"GET /users/{id}/tournaments", response("get", "/api/v1/users/{id}/tournaments"), listResponse[userTournamentResponse]{}},
		{"GET /clubs/{id}/leagues", response("get", "/api/v1/clubs/{id}/leagues"), listResponse[leagueResponse]{}},
		{"GET /leagues/{id}/seasons", response("get", "/api/v1/leagues/{id}/seasons"), listResponse[seasonResponse]{}},
		{"GET /tournaments", response("get", "/api/v1/tournaments"), listResponse[tournamentResponse]{}},
		{"GET /tournaments/{id}/entries", response("get", "/api/v1/tournaments/{id}/entries"), listResponse[entryResponse]{}},
		{"GET /tournaments/{id}/bracket", response("get", "/api/v1/tournaments/{id}/bracket"), store.typ(t, "bracketView")},
		{"GET /leaderboards/{pool}", response("get", "/api/v1/leaderboards/{pool}"), answer("/api/v1/leaderboards/stacks")},
		{"GET /games/{id}/moves", response("get", "/api/v1/games/{id}/moves"), answer("/api/v1/games/g/moves")},
		{"GET /tournaments/{id}/rounds", response("get", "/api/v1/tournaments/{id}/rounds"), answer("/api/v1/tournaments/t/rounds")},
		// Scheduling answers the rounds as listing them does (both write {"rounds": toRoundResponses(…)}).
		{"POST /tournaments/{id}/rounds", response("post", "/api/v1/tournaments/{id}/rounds"), answer("/api/v1/tournaments/t/rounds")},
		{"GET /tournaments/{id}/standings", response("get", "/api/v1/tournaments/{id}/standings"), answer("/api/v1/tournaments/t/standings")},
	} {
		v, ok := tc.v.(goObject)
		if !ok {
			v = goType{reflect.TypeOf(tc.v)}
		}
		checkSchema(t, doc, tc.name, tc.schema, v)
	}
	// A game not started (open, aborted) has no position to show.
	state := schemaProperties(doc, schemas["GameView"])["state"].(map[string]any)
	if state["nullable"] != true {
		t.Error("GameView.state is null before the game starts, but the schema does not say it may be")
	}
}

// checkSchema holds schema to the JSON object v encodes to: every member
// is documented and every property written, the members always written
// (no omitempty) are exactly the required ones, a pointer always written
// may be null, and a member holding an object (or an array of them) is
// held to its schema in turn.
func checkSchema(t *testing.T, doc map[string]any, where string, schema any, v goObject) {
	t.Helper()
	props := schemaProperties(doc, schema)
	required := schemaRequired(doc, schema)
	written := map[string]bool{}
	for _, m := range v.members() {
		written[m.name] = true
		p, ok := props[m.name].(map[string]any)
		if !ok {
			t.Errorf("%s: the API writes %q, which the schema does not document", where, m.name)
			continue
		}
		switch {
		case m.always && !required[m.name]:
			t.Errorf("%s: the API always writes %q (%s), which the schema does not require", where, m.name, v)
		case !m.always && required[m.name]:
			t.Errorf("%s: the schema requires %q, which the API leaves out when empty (%s, omitempty)", where, m.name, v)
		}
		if m.always && m.nullable && resolveSchema(doc, p)["nullable"] != true {
			t.Errorf("%s: the API writes %q as null when it has none (%s), which the schema does not allow", where, m.name, v)
		}
		if m.object == nil {
			continue
		}
		inner, path := resolveSchema(doc, p), where+"."+m.name
		if inner["type"] == "array" {
			inner, path = resolveSchema(doc, inner["items"]), path+"[]"
		}
		if len(schemaProperties(doc, inner)) == 0 {
			t.Errorf("%s: the API writes an object of %s, which the schema gives no members", path, m.object)
			continue
		}
		checkSchema(t, doc, path, inner, m.object)
	}
	for name := range props {
		if !written[name] {
			t.Errorf("%s: the schema documents %q, which the API never writes (%s)", where, name, v)
		}
	}
	for name := range required {
		if _, ok := props[name]; !ok {
			t.Errorf("%s: the schema requires %q, which it does not document", where, name)
		}
	}
	if r, ok := resolveSchema(doc, schema)["required"]; ok && len(asList(r)) == 0 {
		t.Errorf("%s: an empty required list, which OpenAPI 3.0 does not allow", where)
	}
}

// resolveSchema follows a $ref.
func resolveSchema(doc map[string]any, schema any) map[string]any {
	s, _ := schema.(map[string]any)
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		return resolveSchema(doc, doc["components"].(map[string]any)["schemas"].(map[string]any)[name])
	}
	return s
}

// schemaRequired lists the properties a schema requires, through $ref and
// allOf: an allOf's parts together require the union of their lists.
func schemaRequired(doc map[string]any, schema any) map[string]bool {
	s := resolveSchema(doc, schema)
	required := map[string]bool{}
	for _, part := range asList(s["allOf"]) {
		for name := range schemaRequired(doc, part) {
			required[name] = true
		}
	}
	for _, n := range asList(s["required"]) {
		required[n.(string)] = true
	}
	return required
}

// jsonMember is a member of the JSON object a Go response type encodes to.
type jsonMember struct {
	name     string
	always   bool     // written without omitempty (or omitzero): every answer has it
	nullable bool     // a pointer written without omitempty: null when it is nil
	object   goObject // the object it holds (itself, through a pointer or as an array's items), or nil
	depth    int      // how deeply embedded its field is: encoding/json writes the shallowest of a name
}

// goObject is a Go type that encodes to a JSON object.
type goObject interface {
	String() string
	members() []jsonMember
}

// shallowest keeps, of the members of one name, the least embedded one,
// as encoding/json does.
func shallowest(ms []jsonMember) []jsonMember {
	depth := map[string]int{}
	for _, m := range ms {
		if d, ok := depth[m.name]; !ok || m.depth < d {
			depth[m.name] = m.depth
		}
	}
	var out []jsonMember
	for _, m := range ms {
		if depth[m.name] == m.depth {
			out = append(out, m)
			depth[m.name] = -1
		}
	}
	return out
}

func omits(tag string) bool {
	_, opts, _ := strings.Cut(tag, ",")
	for _, o := range strings.Split(opts, ",") {
		if o == "omitempty" || o == "omitzero" {
			return true
		}
	}
	return false
}

// goType is a response type of this package.
type goType struct{ reflect.Type }

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

func (g goType) members() []jsonMember {
	var out []jsonMember
	var walk func(t reflect.Type, depth int, viaPointer bool)
	walk = func(t reflect.Type, depth int, viaPointer bool) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			ft := f.Type
			if f.Anonymous && !strings.HasPrefix(tag, "-") && (tag == "" || tag[0] == ',') {
				inner, ptr := ft, ft.Kind() == reflect.Pointer
				if ptr {
					inner = ft.Elem()
				}
				if inner.Kind() == reflect.Struct {
					walk(inner, depth+1, viaPointer || ptr) // a nil embedded pointer writes none of its fields
					continue
				}
			}
			name := jsonName(f)
			if name == "" {
				continue
			}
			out = append(out, jsonMember{name: name, always: !omits(tag) && !viaPointer,
				nullable: ft.Kind() == reflect.Pointer && !omits(tag), object: reflectObject(ft), depth: depth})
		}
	}
	walk(g.Type, 0, false)
	return shallowest(out)
}

// reflectObject is the object type t holds, itself, through a pointer or as
// an array's items; nil for a type that is no object or writes itself
// (time.Time).
func reflectObject(t reflect.Type) goObject {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	p := reflect.PointerTo(t)
	if t.Kind() != reflect.Struct || p.Implements(jsonMarshaler) || p.Implements(textMarshaler) {
		return nil
	}
	return goType{t}
}

// sourcePackage holds the struct types a package's Go files declare, for
// response types the server cannot name.
type sourcePackage struct {
	name    string
	structs map[string]*ast.StructType
}

func parseSource(t *testing.T, dir string) *sourcePackage {
	t.Helper()
	p := &sourcePackage{name: filepath.Base(dir), structs: map[string]*ast.StructType{}}
	_, files := parseGoFiles(t, dir)
	for _, f := range files {
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.TYPE {
				continue
			}
			for _, spec := range gen.Specs {
				if ts := spec.(*ast.TypeSpec); ts.TypeParams == nil {
					if st, ok := ts.Type.(*ast.StructType); ok {
						p.structs[ts.Name.Name] = st
					}
				}
			}
		}
	}
	return p
}

// parseGoFiles parses the Go files of dir, tests left out.
func parseGoFiles(t *testing.T, dir string) (*token.FileSet, []*ast.File) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return fset, files
}

// typ is the package's struct type name.
func (p *sourcePackage) typ(t *testing.T, name string) sourceType {
	t.Helper()
	if p.structs[name] == nil {
		t.Fatalf("%s declares no struct type %s", p.name, name)
	}
	return sourceType{p, name}
}

// sourceType is a struct type read from source.
type sourceType struct {
	pkg  *sourcePackage
	name string
}

func (s sourceType) String() string { return s.pkg.name + "." + s.name }

func (s sourceType) members() []jsonMember {
	var out []jsonMember
	var walk func(st *ast.StructType, depth int, viaPointer bool)
	walk = func(st *ast.StructType, depth int, viaPointer bool) {
		for _, f := range st.Fields.List {
			tag := ""
			if f.Tag != nil {
				raw, _ := strconv.Unquote(f.Tag.Value)
				tag = reflect.StructTag(raw).Get("json")
			}
			if tag == "-" {
				continue
			}
			typ, ptr := f.Type, false
			if star, ok := typ.(*ast.StarExpr); ok {
				typ, ptr = star.X, true
			}
			names := f.Names
			if len(names) == 0 { // embedded
				id, _ := typ.(*ast.Ident)
				if sel, ok := typ.(*ast.SelectorExpr); ok {
					id = sel.Sel
				}
				if id == nil {
					continue
				}
				if inner := s.pkg.structs[id.Name]; inner != nil && (tag == "" || tag[0] == ',') {
					walk(inner, depth+1, viaPointer || ptr)
					continue
				}
				names = []*ast.Ident{id}
			}
			for _, n := range names {
				name, _, _ := strings.Cut(tag, ",")
				if !n.IsExported() {
					continue
				}
				if name == "" {
					name = n.Name
				}
				out = append(out, jsonMember{name: name, always: !omits(tag) && !viaPointer,
					nullable: ptr && !omits(tag), object: s.object(f.Type), depth: depth})
			}
		}
	}
	walk(s.pkg.structs[s.name], 0, false)
	return shallowest(out)
}

// object is the package's struct type expr holds, itself, through a
// pointer or as an array's items, or nil.
func (s sourceType) object(expr ast.Expr) goObject {
	for {
		switch e := expr.(type) {
		case *ast.StarExpr:
			expr = e.X
		case *ast.ArrayType:
			expr = e.Elt
		case *ast.Ident:
			if s.pkg.structs[e.Name] != nil {
				return sourceType{s.pkg, e.Name}
			}
			return nil
		default:
			return nil
		}
	}
}

// withMembers adds members a type writes besides its fields, when it has
// them: a problem's extra members.
type withMembers struct {
	goObject
	extra []string
}

func (w withMembers) members() []jsonMember {
	out := w.goObject.members()
	for _, name := range w.extra {
		out = append(out, jsonMember{name: name})
	}
	return out
}

// answerMembers are the members of an answer a handler builds as a map:
// the keys it writes, every time.
type answerMembers struct {
	what string
	keys []string
}

func (a answerMembers) String() string { return a.what }

func (a answerMembers) members() []jsonMember {
	out := make([]jsonMember, len(a.keys))
	for i, k := range a.keys {
		out[i] = jsonMember{name: k, always: true}
	}
	return out
}

// Services with nothing to show, for the handlers that build their answer
// as a map: the answer's members are the point, not its contents.
type (
	emptyGames       struct{ GameAPI }
	emptyRatings     struct{ league.Ratings }
	emptyLeagues     struct{ leagueService } // league.Leagues has a method Leagues, which the field would hide
	emptyTournaments struct{ league.Tournaments }
	leagueService    = league.Leagues
)

func (emptyGames) Moves(context.Context, string, int) ([]league.MoveRecord, error) { return nil, nil }
func (emptyRatings) Leaderboard(context.Context, league.LeaderboardQuery) ([]league.LeaderboardRow, string, error) {
	return nil, "", nil
}
func (emptyLeagues) SeasonStandings(context.Context, string) (*league.SeasonTable, error) {
	return &league.SeasonTable{}, nil
}
func (emptyTournaments) Rounds(context.Context, string) ([]league.TournamentRound, error) {
	return nil, nil
}
func (emptyTournaments) Standings(context.Context, string) ([]league.StandingRow, error) {
	return nil, nil
}

// documented reports whether the document lists status for the operation.
func documented(doc map[string]any, method, path string, status int) bool {
	ops, _ := doc["paths"].(map[string]any)[path].(map[string]any)
	op, _ := ops[strings.ToLower(method)].(map[string]any)
	responses, _ := op["responses"].(map[string]any)
	_, ok := responses[strconv.Itoa(status)]
	return ok
}

// Every operation that refuses a bad access token (the required ones, and
// the public ones that still check a token they are given) lists the 401.
func TestOpenAPIListsTheRefusalOfABadToken(t *testing.T) {
	e := New(Deps{Metrics: prometheus.NewRegistry(), Logger: quietLogger,
		Auth: AuthConfig{Secret: []byte(testSecret), Issuer: testIssuer, AccessTokenTTL: time.Minute}})
	e.Logger.SetOutput(io.Discard) // handlers without their services panic; only the 401s matter here
	doc := openAPIDoc(t)
	for path, ops := range doc["paths"].(map[string]any) {
		for method := range ops.(map[string]any) {
			if method == "parameters" {
				continue
			}
			url := strings.NewReplacer("{id}", "00000000-0000-0000-0000-000000000001", "{user_id}", "00000000-0000-0000-0000-000000000002",
				"{pool}", "stacks").Replace(path)
			req := httptest.NewRequest(strings.ToUpper(method), url, strings.NewReader("{}"))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer not-a-token")
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			if rec.Code == http.StatusUnauthorized && !documented(doc, method, path, http.StatusUnauthorized) {
				t.Errorf("%s %s answers a bad token 401, which the document does not list", strings.ToUpper(method), path)
			}
			// An operation that reads the token declares the bearer scheme,
			// as optional ({} among its requirements) where it also answers
			// without one: a client generated from the document sends a
			// token only where one is declared, and the public operations
			// (GET /games/{id}, the caller's view) declared none, so such a
			// client saw every game as a spectator.
			anon := httptest.NewRequest(strings.ToUpper(method), url, strings.NewReader("{}"))
			anon.Header.Set("Content-Type", "application/json")
			anonRec := httptest.NewRecorder()
			e.ServeHTTP(anonRec, anon)
			readsToken := rec.Code == http.StatusUnauthorized && anonRec.Code != http.StatusUnauthorized
			if readsToken && !declaresBearer(ops.(map[string]any)[method]) {
				t.Errorf("%s %s reads a bearer token when it is given but its security does not name the bearer scheme", strings.ToUpper(method), path)
			}
		}
	}
}

// The docs page tells a required token from an optional one: the public
// reads that declare the bearer scheme as optional were otherwise shown as
// needing one.
func TestTheDocsPageSaysWhereATokenIsOptional(t *testing.T) {
	body := get(newTestServer(t, nil), "/api/docs").Body.String()
	for _, want := range []string{
		`<code>/api/v1/me</code> <span class="auth">(bearer token)</span>`,
		`<code>/api/v1/games/{id}</code> <span class="auth">(bearer token optional)</span>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the docs page does not hold %s", want)
		}
	}
}

// declaresBearer reports whether an operation's security names the bearer
// scheme among its requirements.
func declaresBearer(op any) bool {
	o, _ := op.(map[string]any)
	for _, req := range asList(o["security"]) {
		if r, _ := req.(map[string]any); r != nil {
			if _, ok := r["bearer"]; ok {
				return true
			}
		}
	}
	return false
}

// Every operation that takes a body lists the refusals of a body it
// cannot read: one over the 64 KiB limit (413, which only registration
// listed: a client sending an oversized club description or move met an
// answer its document did not have) and one that takes longer than
// bodyReadTimeout to arrive (408, which none listed). The 413 is asked of
// the server itself; the 408 needs a slow connection (see bind_test.go).
func TestOpenAPIListsTheRefusalsOfABodyTooLargeOrTooSlow(t *testing.T) {
	e := New(Deps{Metrics: prometheus.NewRegistry(), Logger: quietLogger,
		Auth: AuthConfig{Secret: []byte(testSecret), Issuer: testIssuer, AccessTokenTTL: time.Minute}})
	e.Logger.SetOutput(io.Discard)
	doc := openAPIDoc(t)
	oversized := `{"name":"` + strings.Repeat("x", 70<<10) + `"}`
	for path, ops := range doc["paths"].(map[string]any) {
		for method, op := range ops.(map[string]any) {
			if _, takesBody := op.(map[string]any)["requestBody"]; !takesBody {
				continue
			}
			url := strings.NewReplacer("{id}", "00000000-0000-0000-0000-000000000001", "{user_id}", "00000000-0000-0000-0000-000000000002",
				"{seat}", "1", "{number}", "1").Replace(path)
			req := httptest.NewRequest(strings.ToUpper(method), url, strings.NewReader(oversized))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			if rec.Code != http.StatusRequestEntityTooLarge {
				t.Errorf("%s %s answers a 70 KiB body %d, want 413", strings.ToUpper(method), path, rec.Code)
			}
			for _, status := range []int{http.StatusRequestTimeout, http.StatusRequestEntityTooLarge} {
				if !documented(doc, method, path, status) {
					t.Errorf("%s %s takes a body but does not list %d", strings.ToUpper(method), path, status)
				}
			}
		}
	}
}

// wantDocumented fails unless the document lists the answer rec gave.
func wantDocumented(t *testing.T, rec *httptest.ResponseRecorder, method, path string, status int) {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("%s %s = %d, want %d: %s", method, path, rec.Code, status, rec.Body)
	}
	if !documented(openAPIDoc(t), method, path, status) {
		t.Errorf("%s %s answers %d, which the document does not list", method, path, status)
	}
}

// Answers found by probing the API that its document did not list.
func TestOpenAPIListsTheAnswersOfCompetitionRefusals(t *testing.T) {
	r := newCompetitionRig(t)
	leagues := "/api/v1/clubs/" + r.clubID + "/leagues"
	rec := r.call("POST", leagues, `{"name":"Sunday League"}`, r.organizer)
	if rec.Code != 201 {
		t.Fatalf("create league: %d %s", rec.Code, rec.Body)
	}
	leagueID := decode[struct{ ID string }](t, rec).ID
	wantDocumented(t, r.call("POST", leagues, `{"name":"Sunday League"}`, r.organizer), "POST", "/api/v1/clubs/{id}/leagues", 409)
	seasons := "/api/v1/leagues/" + leagueID + "/seasons"
	if rec := r.call("POST", seasons, `{"name":"2030"}`, r.organizer); rec.Code != 201 {
		t.Fatalf("create season: %d %s", rec.Code, rec.Body)
	}
	wantDocumented(t, r.call("POST", seasons, `{"name":"2030"}`, r.organizer), "POST", "/api/v1/leagues/{id}/seasons", 409)
}

func TestOpenAPIListsTheAnswersOfGameRefusals(t *testing.T) {
	r := newGamesRig(t)
	_, alice := r.user("alice", false)
	_, bob := r.user("bob", false)
	rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`, alice)
	if rec.Code != 201 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	id := decode[struct{ ID string }](t, rec).ID
	wantDocumented(t, r.call("POST", "/api/v1/games/"+id+"/join", `{"seat":7}`, bob), "POST", "/api/v1/games/{id}/join", 400)
	wantDocumented(t, r.call("GET", "/api/v1/games/"+id+"/events", "", "", withHeader("Last-Event-ID", "5")),
		"GET", "/api/v1/games/{id}/events", 400)
	wantDocumented(t, r.call("GET", fmt.Sprintf("/api/v1/games/%s/events?access_token=%s", id, "not-a-token"), "", ""),
		"GET", "/api/v1/games/{id}/events", 401)
	wantDocumented(t, r.call("GET", "/api/v1/games/"+id+"/events?access_token=a&access_token=b", "", ""),
		"GET", "/api/v1/games/{id}/events", 401)
	// A fault in a resume is named where the client put it (86cf173): in
	// the header or the query, each a parameter the document lists.
	doc := openAPIDoc(t)
	for _, tc := range []struct {
		in, name string
		opt      func(*http.Request)
	}{
		{"header", "Last-Event-ID", withHeader("Last-Event-ID", "5")},
		{"header", "Last-Event-ID", withHeader("Last-Event-ID", "x")},
		{"query", "last_event_id", func(req *http.Request) { req.URL.RawQuery = "last_event_id=5" }},
		{"query", "last_event_id", func(req *http.Request) { req.URL.RawQuery = "last_event_id=-2" }},
	} {
		rec := r.call("GET", "/api/v1/games/"+id+"/events", "", "", tc.opt)
		wantDocumented(t, rec, "GET", "/api/v1/games/{id}/events", 400)
		wantProblem(t, rec, 400, tc.name)
		if !documentedParameter(doc, "GET", "/api/v1/games/{id}/events", tc.in, tc.name) {
			t.Errorf("GET /api/v1/games/{id}/events answers 400 naming %s, a %s parameter the document does not list", tc.name, tc.in)
		}
	}
}

// documentedParameter reports whether the document lists the parameter for
// the operation.
func documentedParameter(doc map[string]any, method, path, in, name string) bool {
	ops, _ := doc["paths"].(map[string]any)[path].(map[string]any)
	op, _ := ops[strings.ToLower(method)].(map[string]any)
	for _, p := range asList(op["parameters"]) {
		if param, _ := p.(map[string]any); param["in"] == in && param["name"] == name {
			return true
		}
	}
	return false
}

// Every query parameter a handler of the package reads (c.QueryParam("x"),
// c.QueryParams()["x"]), and every request header it reads by a name of its
// own (req.Header.Get("X"); the standard ones go by echo's constants), is
// a parameter the document lists, by name: the stream's access_token,
// last_event_id and Last-Event-ID were read and not listed.
func TestOpenAPIListsEveryQueryParameterAndHeaderTheHandlersRead(t *testing.T) {
	doc := openAPIDoc(t)
	listed := map[string]bool{}
	for _, o := range docOperations(doc) {
		for _, p := range asList(o.op["parameters"]) {
			param := p.(map[string]any)
			listed[param["in"].(string)+" "+param["name"].(string)] = true
		}
	}
	fset, files := parseGoFiles(t, ".")
	read := map[string]string{} // "in name" → where it is read
	for _, f := range files {
		literal := func(e ast.Expr) (string, bool) {
			lit, ok := e.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return "", false
			}
			s, err := strconv.Unquote(lit.Value)
			return s, err == nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr: // c.QueryParam("x"), req.Header.Get("X")
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || len(n.Args) != 1 {
					break
				}
				arg, ok := literal(n.Args[0])
				if !ok {
					break
				}
				if sel.Sel.Name == "QueryParam" {
					read["query "+arg] = fset.Position(n.Pos()).String()
				}
				if header, ok := sel.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Get" && header.Sel.Name == "Header" {
					read["header "+arg] = fset.Position(n.Pos()).String()
				}
			case *ast.IndexExpr: // c.QueryParams()["x"]
				call, ok := n.X.(*ast.CallExpr)
				if !ok {
					break
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "QueryParams" {
					if arg, ok := literal(n.Index); ok {
						read["query "+arg] = fset.Position(n.Pos()).String()
					}
				}
			}
			return true
		})
	}
	if len(read) < 5 {
		t.Fatalf("found %d parameters read, want every one: %v", len(read), read)
	}
	for _, p := range slices.Sorted(maps.Keys(read)) {
		if !listed[p] {
			in, name, _ := strings.Cut(p, " ")
			t.Errorf("%s reads the %s parameter %s, which no operation of the document lists", read[p], in, name)
		}
	}
}

// Every list's limit parameter states the page sizes the API takes: the
// clubs, a club's members and a user's games said only "integer", and a
// client that asked for 500 got a 400.
func TestOpenAPIStatesTheBoundsOfEveryPageSize(t *testing.T) {
	e := New(Deps{Metrics: prometheus.NewRegistry(), Logger: quietLogger})
	e.Logger.SetOutput(io.Discard) // handlers without their services panic past the page size; only the 400s matter here
	doc := openAPIDoc(t)
	lists := 0
	for path, ops := range doc["paths"].(map[string]any) {
		get, _ := ops.(map[string]any)["get"].(map[string]any)
		for _, p := range asList(get["parameters"]) {
			param := p.(map[string]any)
			if param["name"] != "limit" {
				continue
			}
			lists++
			schema := param["schema"].(map[string]any)
			lo, okLo := schema["minimum"].(float64)
			hi, okHi := schema["maximum"].(float64)
			if !okLo || !okHi || lo != 1 || schema["default"] == nil {
				t.Errorf("GET %s: limit %v, want a minimum of 1, a maximum and a default", path, schema)
				continue
			}
			url := strings.NewReplacer("{id}", "00000000-0000-0000-0000-000000000001", "{pool}", "stacks").Replace(path) + "?"
			if path == "/api/v1/tournaments" {
				url += "club=00000000-0000-0000-0000-000000000001&" // it lists one club's or season's
			}
			for _, n := range []int{int(hi), int(hi) + 1} {
				rec := httptest.NewRecorder()
				e.ServeHTTP(rec, httptest.NewRequest("GET", fmt.Sprintf("%slimit=%d", url, n), nil))
				refused := rec.Code == http.StatusBadRequest && strings.Contains(rec.Body.String(), `"field":"limit"`)
				if refused != (n > int(hi)) {
					t.Errorf("GET %s?limit=%d = %d %s; the document's maximum is %v", path, n, rec.Code, rec.Body, hi)
				}
			}
		}
	}
	if lists < 10 {
		t.Errorf("%d lists take a limit, want every list", lists)
	}
}

// docOp is one operation of the document.
type docOp struct {
	method, path string
	op           map[string]any
}

// docOperations lists the document's operations in the order of their
// paths and methods.
func docOperations(doc map[string]any) []docOp {
	var out []docOp
	for path, ops := range doc["paths"].(map[string]any) {
		for method, op := range ops.(map[string]any) {
			if o, ok := op.(map[string]any); ok && method != "parameters" {
				out = append(out, docOp{method, path, o})
			}
		}
	}
	slices.SortFunc(out, func(a, b docOp) int {
		return strings.Compare(a.path+" "+a.method, b.path+" "+b.method)
	})
	return out
}

// exampleURL is path with its parameters filled in.
func exampleURL(path string) string {
	return strings.NewReplacer("{id}", "00000000-0000-0000-0000-000000000001", "{user_id}", "00000000-0000-0000-0000-000000000002",
		"{pool}", "stacks").Replace(path)
}

// Every operation that reads a body answers 415 to one not sent as JSON
// in UTF-8 or sent compressed (decodeBody), and the document listed it
// for POST /auth/register alone: it now lists it, as problem+json with
// the Accept-Encoding a compressed body is answered with, for every
// operation with a requestBody, and for no other.
func TestOpenAPIListsThe415OfEveryRequestBody(t *testing.T) {
	doc := openAPIDoc(t)
	bodies := 0
	for _, o := range docOperations(doc) {
		name := strings.ToUpper(o.method) + " " + o.path
		_, body := o.op["requestBody"]
		answer, listed := o.op["responses"].(map[string]any)["415"].(map[string]any)
		switch {
		case body && !listed:
			t.Errorf("%s takes a body, and answers 415 to one in a form it does not take, which the document does not list", name)
		case !body && listed:
			t.Errorf("%s lists a 415, but takes no body", name)
		case listed:
			content, _ := answer["content"].(map[string]any)
			if _, ok := content["application/problem+json"]; !ok {
				t.Errorf("%s: the 415 is not said to be application/problem+json: %v", name, answer)
			}
			headers, _ := answer["headers"].(map[string]any)
			if _, ok := headers["Accept-Encoding"]; !ok {
				t.Errorf("%s: the 415 does not list the Accept-Encoding a compressed body is answered with", name)
			}
		}
		if body {
			bodies++
		}
	}
	if bodies < 10 {
		t.Errorf("%d operations take a body, want every one that does", bodies)
	}
}

// Each operation with a requestBody, asked through the router with a body
// in plain text, in JSON said to be Latin-1 and in gzipped JSON, answers
// the 415 its document lists, as problem+json (and to the gzipped one,
// Accept-Encoding: identity); asked with no body, it answers the 400 of
// an empty body exactly when its document says the body is required
// (POST /games/{id}/join and POST /tournaments/{id}/entries take none,
// and said they required one).
func TestOpenAPIListsTheAnswersToABodyInAFormTheAPIDoesNotTake(t *testing.T) {
	r := newRig(t)
	r.e.Logger.SetOutput(io.Discard) // the rig has no game or competition services: their handlers panic past the body, which is all that matters here
	_, token := r.user("alice", false)
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(`{}`))
	w.Close()
	for _, o := range docOperations(openAPIDoc(t)) {
		requestBody, ok := o.op["requestBody"].(map[string]any)
		if !ok {
			continue
		}
		method, url := strings.ToUpper(o.method), exampleURL(o.path)
		t.Run(method+" "+o.path, func(t *testing.T) {
			for _, tc := range []struct{ contentType, contentEncoding, body string }{
				{"text/plain", "", `{}`},
				{"application/json; charset=iso-8859-1", "", `{}`},
				{"application/json", "gzip", gz.String()},
			} {
				rec := r.call(method, url, tc.body, token, withHeader(echo.HeaderContentType, tc.contentType),
					withHeader(echo.HeaderContentEncoding, tc.contentEncoding))
				wantDocumented(t, rec, method, o.path, http.StatusUnsupportedMediaType)
				wantProblem(t, rec, http.StatusUnsupportedMediaType, "")
				if got := rec.Header().Get(echo.HeaderAcceptEncoding); tc.contentEncoding != "" && got != "identity" {
					t.Errorf("a body in %s: Accept-Encoding = %q, want identity", tc.contentEncoding, got)
				}
			}
			rec := r.call(method, url, "", token)
			refused := rec.Code == http.StatusBadRequest && strings.Contains(rec.Body.String(), "the body is empty")
			if required := requestBody["required"] == true; refused != required {
				t.Errorf("with no body: %d %s; the document says a body is required: %v", rec.Code, strings.TrimSpace(rec.Body.String()), required)
			}
		})
	}
}

// The clock's times state the ranges the API takes (dd819f3: 0–86400,
// 0–604800 and 0–3600 seconds), which the document gave as bare integers.
// The ranges are numbers in league/postgres's validation that no constant
// names, so each is asked through the router, as a game's clock and as a
// tournament's, at the document's bounds and one past each: the bounds
// are taken and the numbers past them refused naming the time.
func TestOpenAPIStatesTheBoundsOfEveryClockTime(t *testing.T) {
	doc := openAPIDoc(t)
	clock := schemaProperties(doc, doc["components"].(map[string]any)["schemas"].(map[string]any)["Clock"])
	if len(clock) < 3 {
		t.Fatalf("the Clock schema has %d times, want turn_seconds, bank_seconds and increment_seconds", len(clock))
	}
	// A clock is a time per turn or a bank, and an increment needs a bank.
	clockWith := func(name string, n int) string {
		if name == "increment_seconds" {
			return fmt.Sprintf(`{"bank_seconds":60,"increment_seconds":%d}`, n)
		}
		return fmt.Sprintf(`{%q:%d}`, name, n)
	}
	check := func(t *testing.T, create func(clock string) *httptest.ResponseRecorder) {
		for _, name := range slices.Sorted(maps.Keys(clock)) {
			schema := clock[name].(map[string]any)
			lo, okLo := schema["minimum"].(float64)
			hi, okHi := schema["maximum"].(float64)
			if !okLo || !okHi {
				t.Errorf("Clock.%s: %v, want a minimum and a maximum", name, schema)
				continue
			}
			for _, n := range []int{int(lo) - 1, int(lo), int(hi), int(hi) + 1} {
				rec := create(clockWith(name, n))
				refused := rec.Code == http.StatusBadRequest && strings.Contains(rec.Body.String(), `"field":"clock.`+name+`"`)
				if inRange := n >= int(lo) && n <= int(hi); inRange && rec.Code != http.StatusCreated || !inRange && !refused {
					t.Errorf("clock.%s %d = %d %s; the document's range is %v–%v", name, n, rec.Code, strings.TrimSpace(rec.Body.String()), lo, hi)
				}
			}
		}
	}
	t.Run("POST /api/v1/games", func(t *testing.T) {
		r := newGamesRig(t)
		_, alice := r.user("alice", false)
		check(t, func(clock string) *httptest.ResponseRecorder {
			return r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}],"clock":`+clock+`}`, alice)
		})
	})
	t.Run("POST /api/v1/tournaments", func(t *testing.T) {
		r := newCompetitionRig(t)
		check(t, func(clock string) *httptest.ResponseRecorder {
			return r.call("POST", "/api/v1/tournaments", r.tournamentBody(`"clock":`+clock), r.organizer)
		})
	})
}

// A refusal of one field's value names the field in errors, beside the
// 400s of validation, and the document says which field each names: the
// move's 422 (9cfbc2b) and the join's 409 (4c41009) said only
// "problem+json", and a name taken said nothing of errors.
func TestOpenAPISaysWhichFieldARefusalNames(t *testing.T) {
	r := newGamesRig(t)
	id, alice, _ := startedGame(t, r, 0)
	carolID, carol := r.user("carol", false)
	rec := r.call("POST", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"open":true}]}`, alice)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	open := decode[struct{ ID string }](t, rec).ID
	if rec := r.call("POST", "/api/v1/clubs", `{"name":"Sunday Club"}`, alice); rec.Code != http.StatusCreated {
		t.Fatalf("create club: %d %s", rec.Code, rec.Body)
	}
	doc := openAPIDoc(t)
	for _, tc := range []struct {
		method, path, url, body, token string
		status                         int
		field                          string
	}{
		{"POST", "/api/v1/games/{id}/moves", "/api/v1/games/" + id + "/moves", `{"ply":0,"move":"7H@z99"}`, alice, http.StatusUnprocessableEntity, "move"},
		{"POST", "/api/v1/games/{id}/join", "/api/v1/games/" + open + "/join", `{"seat":0}`, carol, http.StatusConflict, "seat"},
		{"POST", "/api/v1/games/{id}/join", "/api/v1/games/" + open + "/join", `{"seat":5}`, carol, http.StatusBadRequest, "seat"},
		{"POST", "/api/v1/games", "/api/v1/games", `{"game":"sequence","players":2,"seats":[{"user":"me"},{"user":"` + carolID + `"}]}`, alice, http.StatusForbidden, "seats[1].user"},
		{"POST", "/api/v1/auth/register", "/api/v1/auth/register", `{"username":"Alice","password":"password-2"}`, "", http.StatusConflict, "username"},
		{"POST", "/api/v1/clubs", "/api/v1/clubs", `{"name":"sunday club"}`, carol, http.StatusConflict, "name"},
	} {
		rec := r.call(tc.method, tc.url, tc.body, tc.token)
		wantDocumented(t, rec, tc.method, tc.path, tc.status)
		wantProblem(t, rec, tc.status, tc.field)
		op := doc["paths"].(map[string]any)[tc.path].(map[string]any)[strings.ToLower(tc.method)].(map[string]any)
		description, _ := op["responses"].(map[string]any)[strconv.Itoa(tc.status)].(map[string]any)["description"].(string)
		if field := regexp.MustCompile(`\[\d+\]`).ReplaceAllString(tc.field, "[i]"); !strings.Contains(description, "naming "+field) {
			t.Errorf("%s %s answers %d naming %s, which its description (%q) does not say", tc.method, tc.path, tc.status, field, description)
		}
	}
	fieldErrors := schemaProperties(doc, doc["components"].(map[string]any)["schemas"].(map[string]any)["Problem"])["errors"].(map[string]any)
	if description, _ := fieldErrors["description"].(string); !strings.Contains(description, "409") || !strings.Contains(description, "422") {
		t.Errorf("Problem.errors is said to be %q, which names no refusal but validation", description)
	}
}
