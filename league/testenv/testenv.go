package testenv

import (
	"fmt"
	"os"
	"testing"
)

// TB is the part of testing.TB the harness needs.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
	Cleanup(func())
}

// InCI reports whether the tests run in CI, where missing servers fail.
func InCI() bool { return os.Getenv("CI") == "true" }

func unavailable(t TB, what string, err error) {
	t.Helper()
	if InCI() {
		t.Fatalf("testenv: %s is required in CI: %v", what, err)
	}
	fmt.Fprintf(os.Stderr, "\n*** SKIPPING: %s is not available: %v ***\n\n", what, err)
	t.Skipf("%s not available: %v", what, err)
}

// Main runs the package's tests and then stops any throwaway servers.
func Main(m *testing.M) {
	code := m.Run()
	stopPostgres()
	stopRedis()
	os.Exit(code)
}
