package main

import (
	"context"
	"net"
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

// The port is taken before anything else starts, and let go when the start
// fails later: a start that failed on its database still held the port.
func TestAFailedStartLetsThePortGo(t *testing.T) {
	probe, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := probe.Addr().String()
	probe.Close()
	env := testEnv(t, "postgres://nobody@127.0.0.1:1/none?sslmode=disable&connect_timeout=1")
	env["SEQLEAGUE_ADDR"] = addr
	cfg, err := LoadConfig(envOf(env))
	if err != nil {
		t.Fatal(err)
	}
	app := &App{cfg: cfg, mode: Mode{API: true, Workers: true}, logger: newLogger(cfg, testLogWriter())}
	if err := app.Start(context.Background()); err == nil {
		app.Shutdown()
		t.Fatal("a start with no database to reach succeeded")
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("the port after the failed start: %v", err)
	}
	l.Close()
}
