package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/redisbus"
)

// seenRig is a game service with a clock the test moves (at) from start,
// when its games start, and the game events published since it was made.
type seenRig struct {
	*lapseRig
	events func() []league.GameEvent
}

func newSeenRig(t *testing.T) *seenRig {
	r := newLapseRig(t)
	return &seenRig{lapseRig: r, events: r.events(t)}
}

// seatEvents waits for a marker published after whatever the test did
// (the bus keeps one subscriber's messages in order), then counts the seat
// events of game before it: no waiting for a time that might be too short.
func (r *seenRig) seatEvents(t *testing.T, game string) int {
	t.Helper()
	marker := league.GameEvent{GameID: game, Ply: -7, Kind: "marker"}
	if err := redisbus.New(r.rdb).Publish(context.Background(), marker); err != nil {
		t.Fatal(err)
	}
	for {
		n, done := 0, false
		for _, ev := range r.events() {
			switch {
			case ev.GameID == game && ev.Kind == "marker":
				done = true
			case ev.GameID == game && ev.Kind == league.EventSeat && !done:
				n++
			}
		}
		if done {
			// the next count starts after this marker
			r.events = afterMarker(r.events)
			return n
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// afterMarker is events less those up to and including the first marker.
func afterMarker(events func() []league.GameEvent) func() []league.GameEvent {
	skip := len(events())
	for i, ev := range events() {
		if ev.Kind == "marker" {
			skip = i + 1
			break
		}
	}
	return func() []league.GameEvent { return events()[skip:] }
}

// away is which seats game's view, as who sees it, calls away.
func (r *seenRig) away(t *testing.T, who league.Actor, game string) map[int]bool {
	t.Helper()
	v, err := r.games.View(context.Background(), who, game)
	if err != nil {
		t.Fatal(err)
	}
	away := map[int]bool{}
	for _, s := range v.Game.Seats {
		if s.Away {
			away[s.Seat] = true
		}
	}
	return away
}

func (r *seenRig) seen(t *testing.T, who league.Actor, game string) bool {
	t.Helper()
	ok, err := r.games.Seen(context.Background(), who, game, 3*heartbeat)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func (r *seenRig) seenUntil(t *testing.T, game string, seat int) *time.Time {
	t.Helper()
	var row struct{ SeenUntil *time.Time }
	if err := r.db.Gorm.Raw("SELECT seen_until FROM game_seats WHERE game_id = ? AND seat = ?", game, seat).Scan(&row).Error; err != nil {
		t.Fatal(err)
	}
	return row.SeenUntil
}

// A person's stream marks their seat of an active game seen for three
// heartbeats, and renews it only once less than half is left; a spectator,
// or the player of a table not started yet, is not marked.
func TestAStreamMarksItsSeatSeen(t *testing.T) {
	r := newSeenRig(t)
	ann, bob, cat := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat")
	open, err := r.games.Create(context.Background(), ann, waiting(ann))
	if err != nil {
		t.Fatal(err)
	}
	if r.seen(t, ann, open.ID) {
		t.Fatal("ann seen at an open table; want not (here_until is its presence)")
	}
	g := r.headToHead(t, ann, bob)
	if !r.seen(t, ann, g.ID) {
		t.Fatal("ann not seated at her game")
	}
	if r.seen(t, cat, g.ID) {
		t.Fatal("cat, a spectator, seen; want not")
	}
	if got := r.seenUntil(t, g.ID, 0); got == nil || !got.Equal(r.start.Add(3*heartbeat).Truncate(time.Microsecond)) {
		t.Fatalf("ann's mark runs to %v; want three heartbeats from now", got)
	}
	r.at(heartbeat) // two heartbeats to run: left alone
	r.seen(t, ann, g.ID)
	if got := r.seenUntil(t, g.ID, 0); !got.Equal(r.start.Add(3 * heartbeat).Truncate(time.Microsecond)) {
		t.Fatalf("a heartbeat later the mark runs to %v; want it left alone", got.Sub(r.start))
	}
	r.at(2 * heartbeat) // one to run: written
	r.seen(t, ann, g.ID)
	if got := r.seenUntil(t, g.ID, 0); !got.Equal(r.start.Add(5 * heartbeat).Truncate(time.Microsecond)) {
		t.Fatalf("two heartbeats later the mark runs to %v; want five heartbeats from the start", got.Sub(r.start))
	}
	if got := r.seenUntil(t, g.ID, 1); got != nil {
		t.Fatalf("bob, who opened no stream, is marked until %v", got)
	}
}

// Nobody is away in the first seconds of a game, when nobody has had the
// time to open its page; once they are over, a person who never opened
// it is, and the sweep tells the game's viewers once.
func TestASeatNeverFollowedIsAwayAfterTheGrace(t *testing.T) {
	r := newSeenRig(t)
	ann, bob := r.user(t, "ann"), r.user(t, "bob")
	g := r.headToHead(t, ann, bob)
	r.seatEvents(t, g.ID) // those of the seating
	r.seen(t, ann, g.ID)
	r.at(seenGrace - time.Second)
	if away := r.away(t, ann, g.ID); len(away) > 0 {
		t.Fatalf("within the grace, seats %v away; want none", away)
	}
	if n, err := r.games.TellAway(context.Background()); err != nil || n != 0 {
		t.Fatalf("a sweep within the grace told %d games (%v); want none", n, err)
	}
	r.seen(t, ann, g.ID) // ann's stream beats on
	r.at(seenGrace)
	if away := r.away(t, ann, g.ID); !away[1] || away[0] {
		t.Fatalf("after the grace, seats %v away; want bob's (1) alone", away)
	}
	if n, err := r.games.TellAway(context.Background()); err != nil || n != 1 {
		t.Fatalf("the sweep told %d games (%v); want 1", n, err)
	}
	if n, err := r.games.TellAway(context.Background()); err != nil || n != 0 {
		t.Fatalf("the next sweep told %d games (%v); want none: bob was told of", n, err)
	}
	if n := r.seatEvents(t, g.ID); n != 1 {
		t.Fatalf("%d seat events; want 1", n)
	}
}

// A player whose stream stopped (the page closed) is away once their
// mark runs out: the sweep tells the game's viewers once, and the view
// says so. Their stream back marks them again and tells the viewers, and
// the view says so too; the next lapse is told again. The away mark shows
// nobody anything of a hand.
func TestALapseAndAReturnAreToldOnce(t *testing.T) {
	r := newSeenRig(t)
	ctx := context.Background()
	ann, bob, cat := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat")
	g := r.headToHead(t, ann, bob)
	r.seatEvents(t, g.ID) // those of the seating
	r.seen(t, ann, g.ID)
	r.seen(t, bob, g.ID)
	if n := r.seatEvents(t, g.ID); n != 0 {
		t.Fatalf("%d seat events for streams opened at the start; want none: nobody was away", n)
	}
	// Ann's stream beats on; bob's page closed at the start.
	for beat := time.Duration(1); beat <= 4; beat++ {
		r.at(beat * heartbeat)
		r.seen(t, ann, g.ID)
	}
	if away := r.away(t, ann, g.ID); !away[1] || away[0] {
		t.Fatalf("bob's mark ran out: seats %v away; want bob's (1) alone", away)
	}
	if n, err := r.games.TellAway(ctx); err != nil || n != 1 {
		t.Fatalf("the sweep told %d games (%v); want 1", n, err)
	}
	if n, err := r.games.TellAway(ctx); err != nil || n != 0 {
		t.Fatalf("the next sweep told %d games (%v); want none", n, err)
	}
	if n := r.seatEvents(t, g.ID); n != 1 {
		t.Fatalf("%d seat events for bob's lapse; want 1", n)
	}
	// Hidden information is as it was: ann sees her own hand, cat (a
	// spectator) none.
	for who, want := range map[league.Actor]bool{ann: true, cat: false} {
		v, err := r.games.View(ctx, who, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		var state struct{ Hand []json.RawMessage }
		if err := json.Unmarshal(v.State, &state); err != nil {
			t.Fatal(err)
		}
		if (len(state.Hand) > 0) != want {
			t.Fatalf("%s's view has a hand of %d cards; want one: %v", who.UserID, len(state.Hand), want)
		}
	}

	// Bob's page is back.
	if !r.seen(t, bob, g.ID) {
		t.Fatal("bob not seated")
	}
	if away := r.away(t, ann, g.ID); len(away) > 0 {
		t.Fatalf("bob back: seats %v away; want none", away)
	}
	r.seen(t, bob, g.ID) // a second tab: nothing more to tell
	if n := r.seatEvents(t, g.ID); n != 1 {
		t.Fatalf("%d seat events for bob's return; want 1", n)
	}
	// and gone again: told again
	r.at(8 * heartbeat)
	r.seen(t, ann, g.ID)
	if n, err := r.games.TellAway(ctx); err != nil || n != 1 {
		t.Fatalf("bob's second lapse: the sweep told %d games (%v); want 1", n, err)
	}
}

// A bot's seat, and a person's that a fill-in bot took over, are never
// away: nobody follows a bot's game for it.
func TestBotsAreNeverAway(t *testing.T) {
	r := newSeenRig(t)
	ctx := context.Background()
	ann, bob, cat := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat")
	vsBot, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 2,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Bot: "random"}}})
	if err != nil {
		t.Fatal(err)
	}
	threeWay, err := r.games.Create(ctx, ann, league.NewGame{Game: "sequence", Players: 3,
		Seats: []league.SeatSpec{{UserID: ann.UserID}, {Open: true}, {Open: true}}})
	if err != nil {
		t.Fatal(err)
	}
	for seat, p := range map[int]league.Actor{1: bob, 2: cat} {
		if _, err := r.games.Join(ctx, p, threeWay.ID, &seat); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.games.Leave(ctx, bob, threeWay.ID); err != nil {
		t.Fatal(err) // a fill-in bot takes bob's seat
	}
	r.at(seenGrace + 4*heartbeat)
	r.seen(t, ann, vsBot.ID)
	r.seen(t, ann, threeWay.ID)
	r.seen(t, cat, threeWay.ID)
	if r.seen(t, bob, threeWay.ID) {
		t.Fatal("bob, whose seat a fill-in bot plays, marked seen")
	}
	for _, g := range []string{vsBot.ID, threeWay.ID} {
		if away := r.away(t, ann, g); len(away) > 0 {
			t.Fatalf("game %s: seats %v away; want none", g, away)
		}
	}
	if n, err := r.games.TellAway(ctx); err != nil || n != 0 {
		t.Fatalf("the sweep told %d games (%v); want none", n, err)
	}
}

// A heartbeat of a player at an active game rewrites no index, as at an
// open table (TestAHeartbeatIsAHotUpdate): seen_until and away_told are
// in none (00036), so most writes are HOT updates.
func TestASeenHeartbeatIsAHotUpdate(t *testing.T) {
	r := newSeenRig(t)
	var players []presence
	for i := range 10 {
		ann, bob := r.user(t, fmt.Sprintf("ann%d", i)), r.user(t, fmt.Sprintf("bob%d", i))
		g := r.headToHead(t, ann, bob)
		players = append(players, presence{ann, g.ID}, presence{bob, g.ID})
	}
	updated, hot := r.seatUpdates(t)
	for beat := range 30 {
		r.at(time.Duration(beat) * heartbeat)
		for _, p := range players {
			if !r.seen(t, p.who, p.game) {
				t.Fatalf("%s not seated at %s", p.who.UserID, p.game)
			}
		}
	}
	updatedAfter, hotAfter := r.seatUpdates(t)
	writes, hotWrites := updatedAfter-updated, hotAfter-hot
	if writes < int64(len(players)) || hotWrites*2 < writes {
		t.Fatalf("30 heartbeats of %d players: %d rows updated, %d of them HOT; want most HOT", len(players), writes, hotWrites)
	}
}
