// Package frontend holds the web app, a Vite + TypeScript (Preact) single
// page app whose built files are embedded in the binary.
//
// `npm run build` writes dist/ (index.html and hashed files under
// dist/assets/). dist/ itself is always present, since it holds a tracked
// .gitignore, so the package compiles in a fresh clone without Node; until
// the app is built, FS serves placeholder/index.html, a page that says how
// to build it.
package frontend

import (
	"embed"
	"io/fs"
)

//go:embed all:dist placeholder
var files embed.FS

// FS is the web app's files, rooted at the app: index.html at the top and
// the hashed assets under assets/. Dot files are never part of it.
func FS() fs.FS {
	if Built() {
		sub, _ := fs.Sub(files, "dist")
		return sub
	}
	sub, _ := fs.Sub(files, "placeholder")
	return sub
}

// Built reports whether the binary holds a built app rather than the
// placeholder page.
func Built() bool {
	_, err := fs.Stat(files, "dist/index.html")
	return err == nil
}
