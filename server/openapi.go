package server

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"sort"
	"strings"

	"github.com/labstack/echo/v4"
)

// The API's contract is written by hand, one fragment per area in
// openapi/*.json (so areas can be edited independently), merged at start-up
// and checked against the router by a test so that it cannot drift.
//
//go:embed openapi/*.json
var openAPIFragments embed.FS

var openAPIJSON = mustMergeOpenAPI()

// mustMergeOpenAPI merges the fragments in file-name order: "paths" and
// "components.schemas" are unions; other top-level members come from the
// first fragment that has them. A schema or an operation defined in two
// fragments panics: one would silently document the other's endpoint.
func mustMergeOpenAPI() []byte {
	names, err := fs.Glob(openAPIFragments, "openapi/*.json")
	if err != nil {
		panic(err)
	}
	sort.Strings(names)
	doc := map[string]any{}
	paths := map[string]any{}
	schemas := map[string]any{}
	for _, n := range names {
		b, _ := openAPIFragments.ReadFile(n)
		var frag map[string]any
		if err := json.Unmarshal(b, &frag); err != nil {
			panic(fmt.Sprintf("%s: %v", n, err))
		}
		for k, v := range frag {
			switch k {
			case "paths":
				for p, ops := range v.(map[string]any) {
					if existing, ok := paths[p].(map[string]any); ok {
						for m, op := range ops.(map[string]any) {
							if _, dup := existing[m]; dup {
								panic(fmt.Sprintf("%s: %s %s is documented twice", n, m, p))
							}
							existing[m] = op
						}
						continue
					}
					paths[p] = ops
				}
			case "components":
				comp := v.(map[string]any)
				if s, ok := comp["schemas"].(map[string]any); ok {
					for name, schema := range s {
						if _, dup := schemas[name]; dup {
							panic(fmt.Sprintf("%s: schema %s is defined in two fragments", n, name))
						}
						schemas[name] = schema
					}
				}
				if _, ok := doc["components"]; !ok {
					doc["components"] = comp
				}
			default:
				if _, ok := doc[k]; !ok {
					doc[k] = v
				}
			}
		}
	}
	doc["paths"] = paths
	comp, _ := doc["components"].(map[string]any)
	if comp == nil {
		comp = map[string]any{}
	}
	comp["schemas"] = schemas
	doc["components"] = comp
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic(err)
	}
	return out
}

func openAPIDocument(c echo.Context) error {
	return c.Blob(http.StatusOK, "application/json", openAPIJSON)
}

type docOperation struct {
	Method, Path, Summary, Description string
	Auth                               string // "" (none), "bearer token" or "bearer token optional"
}

// authNote says what an operation's security asks: a bearer token, one
// that is optional (an empty requirement among them: the public reads that
// answer the caller's own view when given a token), or nothing.
func authNote(security []map[string][]string) string {
	if len(security) == 0 {
		return ""
	}
	for _, req := range security {
		if len(req) == 0 {
			return "bearer token optional"
		}
	}
	return "bearer token"
}

// docsCSS is the docs page's one inline style sheet; docsPolicy allows it
// by its hash and nothing else inline, so the page needs no second request
// and no 'unsafe-inline'.
const docsCSS = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
code{background:#f2f2f2;padding:0 .25rem;border-radius:3px}.op{border-top:1px solid #ddd;padding:.5rem 0}
.m{display:inline-block;min-width:4.5rem;font-weight:700}.auth{color:#8a4b00;font-size:.9em}`

var docsTemplate = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{.Title}} — API</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>` + docsCSS + `</style></head>
<body><h1>{{.Title}} API {{.Version}}</h1><p>{{.Description}}</p>
<p>Machine-readable document: <a href="/api/v1/openapi.json"><code>/api/v1/openapi.json</code></a> (OpenAPI 3).</p>
{{range .Ops}}<div class="op"><span class="m">{{.Method}}</span> <code>{{.Path}}</code>{{if .Auth}} <span class="auth">({{.Auth}})</span>{{end}}
<div>{{.Summary}}</div>{{if .Description}}<div>{{.Description}}</div>{{end}}</div>{{end}}
</body></html>`))

// docsPolicy is the docs page's Content-Security-Policy: its style sheet
// (by hash) and the app's icon, no script at all.
var docsPolicy = func() string {
	sum := sha256.Sum256([]byte(docsCSS))
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; img-src 'self'; " +
		"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}()

// apiDocsPage renders the OpenAPI document as a readable page, with no
// scripts or third-party assets, so it works offline.
func apiDocsPage(c echo.Context) error {
	var doc struct {
		Info struct {
			Title, Version, Description string
		}
		Paths map[string]map[string]struct {
			Summary     string
			Description string
			Security    []map[string][]string
		}
	}
	if err := json.Unmarshal(openAPIJSON, &doc); err != nil {
		return err
	}
	var ops []docOperation
	for path, methods := range doc.Paths {
		for method, op := range methods {
			ops = append(ops, docOperation{Method: strings.ToUpper(method), Path: path, Summary: op.Summary, Description: op.Description, Auth: authNote(op.Security)})
		}
	}
	sort.Slice(ops, func(i, j int) bool {
		if ops[i].Path != ops[j].Path {
			return ops[i].Path < ops[j].Path
		}
		return ops[i].Method < ops[j].Method
	})
	var b strings.Builder
	err := docsTemplate.Execute(&b, map[string]any{"Title": doc.Info.Title, "Version": doc.Info.Version, "Description": doc.Info.Description, "Ops": ops})
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-cache")
	setPolicy(c, docsPolicy)
	return c.HTML(http.StatusOK, b.String())
}
