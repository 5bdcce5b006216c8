package main

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// The zero-config mode's Redis lives in its process, so a second process
// on the same data directory is refused, naming the first; it joined the
// first one's database with a Redis of its own, splitting the games' moves
// and events between the two (the make run audit). Once the first lets go
// the directory is free again.
func TestASecondZeroConfigProcessOnTheSameDataIsRefused(t *testing.T) {
	dir := t.TempDir()
	first, err := lockDataDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockDataDir(dir); err == nil || !strings.Contains(err.Error(), "pid "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("a second lock of the data directory: %v; want a refusal naming the holder's pid", err)
	}
	first.Close()
	again, err := lockDataDir(dir)
	if err != nil {
		t.Fatalf("the data directory once the first let go: %v", err)
	}
	again.Close()
}
