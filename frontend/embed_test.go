package frontend

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

func TestFSHasAnIndexPage(t *testing.T) {
	b, err := fs.ReadFile(FS(), "index.html")
	if err != nil {
		t.Fatalf("index.html: %v", err)
	}
	if !strings.Contains(string(b), "<title>Seqleague") {
		t.Errorf("index.html does not look like the app's page:\n%s", b)
	}
}

func TestBuiltAppReferencesEmbeddedAssets(t *testing.T) {
	if !Built() {
		t.Skip("the web app is not built (placeholder page); make build builds it")
	}
	b, err := fs.ReadFile(FS(), "index.html")
	if err != nil {
		t.Fatal(err)
	}
	// Every /assets/ file the page loads must be embedded next to it.
	page := string(b)
	for _, part := range strings.Split(page, `"/assets/`)[1:] {
		name := "assets/" + part[:strings.IndexByte(part, '"')]
		if _, err := fs.Stat(FS(), name); err != nil {
			t.Errorf("index.html loads %s, which is not embedded: %v", name, err)
		}
	}
}

// inlineCode finds what a Content-Security-Policy without 'unsafe-inline'
// refuses in a page: a script element with a body, a style element, a
// style attribute, an event-handler attribute, a javascript: URL.
var inlineCode = regexp.MustCompile(`(?is)<script\b[^>]*>\s*[^\s<]|<style\b|\sstyle\s*=|\son[a-z]+\s*=|javascript:`)

// The server sends the app's page under a policy of script-src 'self' and
// style-src 'self' (server/headers.go): a page holding inline code would
// lose it in the browser. Both pages the binary may serve, the built app's
// and the placeholder, must carry theirs in files.
func TestPagesHoldNoInlineCode(t *testing.T) {
	placeholder, _ := fs.Sub(files, "placeholder")
	pages := map[string]fs.FS{"placeholder": placeholder}
	if Built() {
		pages["built app"] = FS()
	}
	for name, fsys := range pages {
		b, err := fs.ReadFile(fsys, "index.html")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if m := inlineCode.Find(b); m != nil {
			t.Errorf("the %s's index.html holds inline code the server's policy refuses: %q", name, m)
		}
	}
}
