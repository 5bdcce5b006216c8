package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/postgres"
	"github.com/seqleague/seqleague/league/redisbus"
)

// A move committed while its instance could not reach Redis publishes
// nothing; the API's own subscription, cut by the same outage, is made
// again when Redis is back. A stream watching the game used to hear
// nothing of the move until the game's next event, which in a game
// between people is the waiting player's own move: their board still
// showed the opponent to move (measured with the binary: a move made
// while Redis was down never reached the other player's stream, 35 s
// after Redis came back). Once subscribed again, the hub brings every
// stream up to date from storage.
func TestAStreamHearsOfAMoveWhoseEventWasLostOnceRedisIsBack(t *testing.T) {
	r := newRig(t)
	opt, err := redis.ParseURL(r.redisURL)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("resync-test-%d", time.Now().UnixNano())
	opt.ClientName = name
	subscriber := redis.NewClient(opt)
	t.Cleanup(func() { subscriber.Close() })
	// The API instance: its bus on Redis, its hub fed by the subscription.
	bus := redisbus.New(r.redis())
	games := postgres.NewGames(r.db, bus, discardTasks{}, postgres.GameConfig{}, quietLogger)
	r.d.Games = games
	r.d.Hub = NewHub(games, quietLogger)
	t.Cleanup(r.d.Hub.Close)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go redisbus.New(subscriber).Subscribe(ctx, r.d.Hub.Deliver, r.d.Hub.Resync)
	r.d.Metrics = prometheus.NewRegistry() // the first server registered its metrics on the rig's
	r.e = New(r.d)
	subscribed := regexp.MustCompile(`id=(\d+) .*name=` + name + ` .*psub=1`)
	var clientID string
	for end := time.Now().Add(5 * time.Second); clientID == ""; time.Sleep(20 * time.Millisecond) {
		list, err := subscriber.ClientList(ctx).Result()
		if err != nil {
			t.Fatal(err)
		}
		if m := subscribed.FindStringSubmatch(list); m != nil {
			clientID = m[1]
		} else if time.Now().After(end) {
			t.Fatalf("the bus did not subscribe within 5 s:\n%s", list)
		}
	}

	id, alice, bob := startedGame(t, r, 0)
	srv := httptest.NewServer(r.e)
	t.Cleanup(srv.Close)
	_, body := openEvents(t, srv, id, bob, "")
	if ev := nextEvent(t, body); ev != "state" {
		t.Fatalf("first event %q, want state", ev)
	}

	// Alice moves on another instance, whose Redis is unreachable.
	unreachable := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1})
	t.Cleanup(func() { unreachable.Close() })
	other := postgres.NewGames(r.db, redisbus.New(unreachable), discardTasks{}, postgres.GameConfig{}, quietLogger)
	v := decode[gameViewResponse](t, r.call("GET", "/api/v1/games/"+id, "", alice))
	aliceID := decode[struct{ ID string }](t, r.call("GET", "/api/v1/me", "", alice)).ID
	if _, err := other.Move(ctx, league.Actor{UserID: aliceID}, id, league.MoveRequest{Ply: 0, Move: v.LegalMoves[0], MoveID: "m0"}); err != nil {
		t.Fatal(err)
	}
	// The API's subscription is cut, and made again.
	if err := subscriber.Do(ctx, "CLIENT", "KILL", "ID", clientID).Err(); err != nil {
		t.Fatal(err)
	}
	ev, data := readEvent(t, body)
	var d struct {
		Move *struct {
			Ply int `json:"ply"`
		} `json:"move"`
		View struct {
			Ply    int   `json:"ply"`
			ToMove []int `json:"to_move"`
		} `json:"view"`
	}
	if err := json.Unmarshal([]byte(data), &d); err != nil {
		t.Fatal(err)
	}
	if ev != "move" || d.Move == nil || d.Move.Ply != 0 || d.View.Ply != 1 {
		t.Fatalf("bob's stream after the subscription came back: %s %s; want alice's move at ply 0", ev, data)
	}
	if ev, data := readEvent(t, body); ev != "state" {
		t.Fatalf("then %s %s, want the game's state", ev, data)
	}
	if rec := r.call("GET", "/api/v1/games/"+id, "", bob); rec.Code != http.StatusOK {
		t.Fatal(rec.Code)
	}
}
