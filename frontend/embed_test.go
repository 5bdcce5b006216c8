package frontend

import (
	"io/fs"
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
