// Package redisbus carries game events between processes over Redis
// pub/sub: the process that commits a move publishes it, and every API
// instance's SSE hub receives it, whichever instance its viewers are on.
//
// Pub/sub is fire-and-forget; nothing is lost by that because events are
// only notifications: the moves themselves are committed in PostgreSQL
// before publishing, and a viewer that misses a notification catches up from
// the stored moves on the next one (or on reconnect with Last-Event-ID, or
// when the subscription is made again after Redis was lost: see Subscribe).
package redisbus

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/seqleague/seqleague/league"
)

const channelPrefix = "seqleague:game:"

// Bus publishes and receives game events.
type Bus struct {
	rdb redis.UniversalClient
}

// New builds a bus on rdb.
func New(rdb redis.UniversalClient) *Bus { return &Bus{rdb: rdb} }

var _ league.GameEvents = (*Bus)(nil)

type wireEvent struct {
	Game   string `json:"g"`
	Ply    int    `json:"p"`
	Kind   string `json:"k"`
	Seat   int    `json:"s,omitempty"`
	Move   string `json:"m,omitempty"`
	Actor  string `json:"a,omitempty"`
	UserID string `json:"u,omitempty"`
	At     int64  `json:"t,omitempty"`
}

// Publish sends ev to every subscriber.
func (b *Bus) Publish(ctx context.Context, ev league.GameEvent) error {
	w := wireEvent{Game: ev.GameID, Ply: ev.Ply, Kind: ev.Kind}
	if ev.Move != nil {
		w.Seat, w.Move, w.Actor, w.UserID, w.At = ev.Move.Seat, ev.Move.Move, ev.Move.Actor, ev.Move.UserID, ev.Move.At.UnixMicro()
	}
	payload, _ := json.Marshal(w)
	return b.rdb.Publish(ctx, channelPrefix+ev.GameID, payload).Err()
}

// Subscribe delivers every game's events to handle until ctx ends,
// resubscribing after a lost connection. Each time the subscription is
// made (the first time, and again after Redis came back) it calls resync,
// if given: events published meanwhile (a move committed while Redis was
// down publishes nothing) were lost, and without a next event of their
// game, a viewer would never hear of them, a player staring at a board on
// which their opponent has moved, their clock running.
func (b *Bus) Subscribe(ctx context.Context, handle func(league.GameEvent), resync func()) {
	for ctx.Err() == nil {
		sub := b.rdb.PSubscribe(ctx, channelPrefix+"*")
		stop := context.AfterFunc(ctx, func() { sub.Close() })
		ch := sub.ChannelWithSubscriptions(redis.WithChannelHealthCheckInterval(10 * time.Second))
		for m := range ch {
			switch msg := m.(type) {
			case *redis.Subscription:
				if msg.Kind == "psubscribe" && resync != nil {
					resync()
				}
			case *redis.Message:
				var w wireEvent
				if err := json.Unmarshal([]byte(msg.Payload), &w); err != nil || !strings.HasPrefix(msg.Channel, channelPrefix) {
					continue
				}
				ev := league.GameEvent{GameID: w.Game, Ply: w.Ply, Kind: w.Kind}
				if w.Move != "" {
					ev.Move = &league.MoveRecord{Ply: w.Ply - 1, Seat: w.Seat, Move: w.Move, Actor: w.Actor, UserID: w.UserID, At: time.UnixMicro(w.At).UTC()}
				}
				handle(ev)
			}
		}
		stop()
		sub.Close()
		if ctx.Err() == nil {
			time.Sleep(200 * time.Millisecond)
		}
	}
}
