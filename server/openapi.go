package server

import (
	_ "embed"
	"encoding/json"
	"html/template"
	"net/http"
	"sort"
	"strings"

	"github.com/labstack/echo/v4"
)

// openapi.json is the API's contract, written by hand next to the handlers
// and checked against the router by a test, so it cannot silently drift.
//
//go:embed openapi.json
var openAPIJSON []byte

func openAPIDocument(c echo.Context) error {
	return c.Blob(http.StatusOK, "application/json", openAPIJSON)
}

type docOperation struct {
	Method, Path, Summary, Description string
	Auth                               bool
}

var docsTemplate = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{.Title}} — API</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
code{background:#f2f2f2;padding:0 .25rem;border-radius:3px}.op{border-top:1px solid #ddd;padding:.5rem 0}
.m{display:inline-block;min-width:4.5rem;font-weight:700}.auth{color:#8a4b00;font-size:.9em}</style></head>
<body><h1>{{.Title}} API {{.Version}}</h1><p>{{.Description}}</p>
<p>Machine-readable document: <a href="/api/v1/openapi.json"><code>/api/v1/openapi.json</code></a> (OpenAPI 3).</p>
{{range .Ops}}<div class="op"><span class="m">{{.Method}}</span> <code>{{.Path}}</code>{{if .Auth}} <span class="auth">(bearer token)</span>{{end}}
<div>{{.Summary}}</div>{{if .Description}}<div>{{.Description}}</div>{{end}}</div>{{end}}
</body></html>`))

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
			ops = append(ops, docOperation{Method: strings.ToUpper(method), Path: path, Summary: op.Summary, Description: op.Description, Auth: len(op.Security) > 0})
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
	return c.HTML(http.StatusOK, b.String())
}
