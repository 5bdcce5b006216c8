package server

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Echo v4's support ends on 2026-12-31: the move to v5 (or off Echo) must
// touch this package alone, so no other package of the module imports
// Echo, its JWT middleware or its middleware package, tests included.
func TestEchoStaysInsideTheServerPackage(t *testing.T) {
	root := ".."
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".git", ".data", "server":
				if path != root {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(p, "github.com/labstack/") {
				t.Errorf("%s imports %s: Echo belongs to server/ alone", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d Go files read outside server/: is the walk starting at the module's root?", checked)
	}
}
