package server

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	"github.com/seqleague/seqleague/league"
)

// Hub fans game events out to this instance's SSE clients. Every instance
// receives every game's events from the bus; for each event the hub reads
// the game once and builds each distinct view (one per seat, one for all
// spectators) once, however many clients watch.
type Hub struct {
	feed      league.GameFeed
	logger    *slog.Logger
	heartbeat time.Duration

	mu     sync.Mutex
	subs   map[string]map[*subscriber]struct{}
	shards []chan league.GameEvent
	done   chan struct{}
	once   sync.Once

	// streamLimit is how many streams one client may hold open on this
	// instance (0: no limit), streams how many each holds: each stream is
	// a goroutine and a connection held for as long as the client likes,
	// so one client (a script, a page reopened in a loop) could otherwise
	// open them until the process runs out of file descriptors.
	streamLimit int
	streams     map[string]int
}

// hubShards bounds the games processed in parallel; one game's events stay
// in order because a game always goes to the same shard.
const hubShards = 16

// NewHub builds a hub over feed.
func NewHub(feed league.GameFeed, logger *slog.Logger) *Hub {
	if logger == nil {
		logger = slog.Default()
	}
	h := &Hub{feed: feed, logger: logger, heartbeat: 15 * time.Second,
		subs: map[string]map[*subscriber]struct{}{}, done: make(chan struct{}), streams: map[string]int{}}
	for i := 0; i < hubShards; i++ {
		ch := make(chan league.GameEvent, 1024)
		h.shards = append(h.shards, ch)
		go h.work(ch)
	}
	return h
}

// Deliver hands the hub one event from the bus.
func (h *Hub) Deliver(ev league.GameEvent) {
	h.mu.Lock()
	watched := len(h.subs[ev.GameID]) > 0
	h.mu.Unlock()
	if !watched {
		return
	}
	f := fnv.New32a()
	f.Write([]byte(ev.GameID))
	select {
	case h.shards[f.Sum32()%hubShards] <- ev:
	case <-h.done:
	}
}

// Resync brings every stream up to date with its game as stored, as if
// an event had come: the bus calls it when its subscription is made
// again, the events published meanwhile lost. A stream behind catches up
// on the moves it missed, then gets the game's state (a start, a seat
// change or an end it missed); one up to date gets the state it has.
func (h *Hub) Resync() {
	h.mu.Lock()
	games := make([]string, 0, len(h.subs))
	for id := range h.subs {
		games = append(games, id)
	}
	h.mu.Unlock()
	for _, id := range games {
		h.Deliver(league.GameEvent{GameID: id, Ply: -1, Kind: league.EventState})
	}
}

// LimitStreams sets how many event streams one client may hold open on
// this instance at once (0: no limit): a signed-in client is its account,
// whatever its addresses, and a signed-out one its address (an IPv6 /64, as
// the login limits count it). Call it before serving.
func (h *Hub) LimitStreams(n int) { h.streamLimit = max(n, 0) }

// admit counts one more stream of client, unless it already holds the
// limit; release gives the place back.
func (h *Hub) admit(client string) (release func(), ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.streamLimit > 0 && h.streams[client] >= h.streamLimit {
		return nil, false
	}
	h.streams[client]++
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.streams[client]--; h.streams[client] <= 0 {
			delete(h.streams, client)
		}
	}, true
}

// streamClient is who a stream counts against: the account, else the
// address.
func streamClient(c echo.Context, a league.Actor) string {
	if !a.Anonymous() {
		return "user:" + a.UserID
	}
	return "ip:" + clientBucket(c)
}

// Close ends every stream (on shutdown).
func (h *Hub) Close() { h.once.Do(func() { close(h.done) }) }

// frame is one prepared event for one subscriber.
type frame struct {
	kind    string
	evPly   int // the ply the event brought the game to
	snapPly int // the ply of the snapshot the data was built from
	data    []byte
	final   bool // the game can no longer change (gameOver): the stream ends after this frame
}

// gameOver says whether a game can no longer change, so that its event
// stream has nothing more to send: an aborted game (a table called off, a
// cancelled tournament's game), or a finished game no rematch can follow
// (a tournament's: nobody created it). A finished casual game's page waits
// for a rematch event (its rematch_id set, or cleared when the rematch is
// called off), so its stream goes on after the end.
func gameOver(g league.Game) bool {
	switch g.Status {
	case league.StatusAborted:
		return true
	case league.StatusFinished:
		return g.CreatedBy == "" || g.TournamentID != ""
	}
	return false
}

type subscriber struct {
	actor   league.Actor
	ch      chan frame
	lagging chan struct{} // signalled when a frame had to be dropped
}

func (h *Hub) subscribe(gameID string, s *subscriber) func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[gameID] == nil {
		h.subs[gameID] = map[*subscriber]struct{}{}
	}
	h.subs[gameID][s] = struct{}{}
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(h.subs[gameID], s)
		if len(h.subs[gameID]) == 0 {
			delete(h.subs, gameID)
		}
	}
}

func (h *Hub) work(ch chan league.GameEvent) {
	for {
		select {
		case ev := <-ch:
			h.dispatch(ev)
		case <-h.done:
			return
		}
	}
}

// eventData is the JSON of an SSE event: the move (for move events) and
// the receiver's view right after it.
type eventData struct {
	Kind string           `json:"kind"`
	Move *moveResponse    `json:"move,omitempty"`
	View gameViewResponse `json:"view"`
}

func (h *Hub) dispatch(ev league.GameEvent) {
	h.mu.Lock()
	subs := make([]*subscriber, 0, len(h.subs[ev.GameID]))
	for s := range h.subs[ev.GameID] {
		subs = append(subs, s)
	}
	h.mu.Unlock()
	if len(subs) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	snap, err := h.feed.Snapshot(ctx, ev.GameID, &ev)
	if err != nil {
		h.logger.Warn("sse: read game", "game", ev.GameID, "error", err)
		return
	}
	// A view depends only on the seat it is seen from; that seat is read
	// from this snapshot, not from when the stream opened: a spectator who
	// took a seat since sees that seat's hand, and one who left it no more.
	// Any event but a move that leaves the game unable to change (a
	// table called off says so by a seat event) is its end.
	built := map[int][]byte{}
	kind, final := ev.Kind, false
	for _, s := range subs {
		seat := snap.SeatOf(s.actor)
		data, ok := built[seat]
		if !ok {
			view := snap.ViewFor(s.actor)
			if len(built) == 0 && kind != league.EventMove && gameOver(view.Game) {
				kind, final = league.EventEnd, true
			}
			d := eventData{Kind: kind, View: toGameViewResponse(view)}
			if ev.Move != nil {
				m := toMoveResponse(*ev.Move)
				d.Move = &m
			}
			data, _ = json.Marshal(d)
			built[seat] = data
		}
		select {
		case s.ch <- frame{kind: kind, evPly: ev.Ply, snapPly: snap.Ply(), data: data, final: final}:
		default:
			select {
			case s.lagging <- struct{}{}:
			default:
			}
		}
	}
}

// tokenFromQuery lets EventSource clients, which cannot set headers, pass
// their access token as ?access_token=.
func tokenFromQuery(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		tokens := c.QueryParams()["access_token"]
		if len(tokens) > 1 {
			// As with two Authorization headers: which one was meant is
			// not ours to guess.
			return unauthorized(c, "send one access_token")
		}
		if len(tokens) == 1 && tokens[0] != "" && c.Request().Header.Get(echo.HeaderAuthorization) == "" {
			c.Request().Header.Set(echo.HeaderAuthorization, "Bearer "+tokens[0])
		}
		return next(c)
	}
}

// serveEvents streams a game's events. Move events carry the ply they
// bring the game to as their ID; a client that reconnects with
// Last-Event-ID gets every move it missed, rebuilt from the stored moves.
//
// A stream lasts no longer than the access token that opened it: it is
// closed when the token expires, so a token that leaked (or one of a
// session signed out since) cannot follow a seat's hand for as long as the
// game lasts; the client reconnects with a fresh token and Last-Event-ID,
// as the web app does after any refusal. Before that, at every heartbeat
// the account is asked again (accounts, if given): a stream whose account
// was closed, whose sessions a password change ended, or whose own session
// was signed out (a logout) is closed then, at most a heartbeat later.
func (h *Hub) serveEvents(c echo.Context, accounts league.Accounts) error {
	ctx := c.Request().Context()
	gameID := c.Param("id")
	a := actorOf(c)
	claims, _ := c.Get(tokenContextKey).(*accessClaims)
	signedOut := func() bool {
		if claims == nil || accounts == nil {
			return false
		}
		_, err := claims.actor(ctx, accounts)
		return league.ErrorCode(err) == league.EUNAUTHORIZED
	}
	snap, err := h.feed.Snapshot(ctx, gameID, nil)
	if err != nil {
		return err
	}
	// The game was found, so its ID is a UUID; the bus names games by the
	// UUID's canonical (lower-case) form, and a stream subscribed under
	// the ID as the client wrote it (in capitals, say) would hear nothing.
	if id, err := uuid.Parse(gameID); err == nil {
		gameID = id.String()
	}
	// The ply to resume after, from the header or, for an EventSource that
	// cannot send one, the query; a fault is named where the client put it.
	last, field := -1, "Last-Event-ID"
	if s := c.Request().Header.Get("Last-Event-ID"); s != "" {
		last, err = strconv.Atoi(s)
	} else if s := c.QueryParam("last_event_id"); s != "" {
		last, err = strconv.Atoi(s)
		field = "last_event_id"
	}
	if err != nil || last < -1 {
		return league.Invalid("bad "+field, league.FieldError{Field: field, Message: "must be a ply number"})
	}
	if last > snap.Ply() {
		// A ply the game has not reached: resuming there would wait in
		// silence until the game caught up with the client's mistake.
		return league.Invalid("bad "+field, league.FieldError{Field: field,
			Message: fmt.Sprintf("the game has had %d moves", snap.Ply())})
	}
	// A game that can no longer change is answered at once (its end) and
	// its stream closed: it takes no stream of the client's and hears
	// nothing.
	view := snap.ViewFor(a)
	over := gameOver(view.Game)
	if !over {
		release, ok := h.admit(streamClient(c, a))
		if !ok {
			e := league.Errorf(league.ETOOMANY, "too many open event streams: at most %d at once; close one (another tab or window) first", h.streamLimit)
			e.RetryAfterSeconds = int(h.heartbeat.Seconds())
			return e
		}
		defer release()
	}
	// A person seated at an active game is seen while they follow it
	// (stream.markSeen), from here on: a request refused above writes
	// nothing. The store says whether they sit at an active game; for
	// anyone else (a spectator, an open table's player) it writes nothing.
	// (The view read before the mark does not show them away to
	// themselves: nobody's view does.)
	seen := !over && !a.Anonymous() && h.markSeen(ctx, a, gameID)
	sub := &subscriber{actor: a, ch: make(chan frame, 64), lagging: make(chan struct{}, 1)}
	if !over {
		unsubscribe := h.subscribe(gameID, sub)
		defer unsubscribe()
	}

	st := &stream{hub: h, ctx: ctx, w: c.Response(), viewer: a, gameID: gameID, sent: last, hereFor: 3 * h.heartbeat, seen: seen}
	st.open()
	ended := view.Game.Status == league.StatusFinished || view.Game.Status == league.StatusAborted
	switch {
	case last >= 0:
		if err := st.catchUp(); err != nil {
			return nil
		}
		// The live stream of a game that ended sent an `end` event; a
		// resumed one must too, or the client waits for a move that never
		// comes.
		if ended {
			data, _ := json.Marshal(eventData{Kind: league.EventEnd, View: toGameViewResponse(view)})
			if err := st.write(-1, league.EventEnd, data); err != nil {
				return nil
			}
			break
		}
		// A game can change without a move (it starts, a seat is taken or
		// filled by a bot) while the client is away, and the moves above
		// do not say so: its state as it is now, unless a move sent above
		// is newer. A client back at an open table that had started
		// meanwhile was left showing "Waiting for players" while its
		// clock ran out (the resilience audit).
		if st.sent <= snap.Ply() {
			data, _ := json.Marshal(eventData{Kind: league.EventState, View: toGameViewResponse(view)})
			if err := st.write(snap.Ply(), league.EventState, data); err != nil {
				return nil
			}
			st.sent = snap.Ply()
		}
	case over:
		// A new stream of a game that can no longer change: its end, as
		// it was (a finished casual game's gets its state, and waits for
		// a rematch).
		data, _ := json.Marshal(eventData{Kind: league.EventEnd, View: toGameViewResponse(view)})
		if err := st.write(snap.Ply(), league.EventEnd, data); err != nil {
			return nil
		}
		st.sent = snap.Ply()
	default:
		data, _ := json.Marshal(eventData{Kind: league.EventState, View: toGameViewResponse(view)})
		if err := st.write(snap.Ply(), league.EventState, data); err != nil {
			return nil
		}
		st.sent = snap.Ply()
	}
	if over {
		return nil
	}
	if !a.Anonymous() && view.Game.Status == league.StatusOpen {
		st.waiting = true
		if view.YourSeat != nil {
			st.markHere()
		}
	}

	var expired <-chan time.Time // never, for a signed-out viewer
	if claims != nil && claims.ExpiresAt != nil {
		expiry := time.NewTimer(time.Until(claims.ExpiresAt.Time))
		defer expiry.Stop()
		expired = expiry.C
	}
	st.loop(sub, expired, signedOut)
	return nil
}

// stream is one open event stream of a game (serveEvents): where it
// writes, whose view it sends, and how far it has got.
//
// A person waiting at an open table is here while they follow it: the
// lobby and quick matches offer the table only while everyone seated
// at it is (league.GameFeed.Here). The mark lasts hereFor (three
// heartbeats) and is renewed at each, until the store says the game is no
// longer open or the caller no longer sits there; a seat event (the caller
// joining from this page, or leaving) asks again while the game is open.
// When the stream closes nothing is written: the mark lapses by itself,
// which also covers an instance that dies or a connection dropped
// without a close, and a player with a second tab on the table is not
// made away by closing the first.
//
// Likewise a person seated at an active game is seen while they follow it
// (league.GameFeed.Seen), for hereFor, at the stream's opening (or the
// game's start) and at each heartbeat, until the store says the game is no
// longer active or the caller no longer sits there: the others' views call
// a seat whose mark ran out away.
type stream struct {
	hub    *Hub
	ctx    context.Context // the request's
	w      *echo.Response
	viewer league.Actor
	gameID string // canonical
	sent   int    // the ply the client has the game up to (-1: a new stream, before its first event)

	hereFor time.Duration
	waiting bool // the game is open, as far as this stream has heard
	here    bool // the caller is to be marked again at the next heartbeat
	seen    bool // the caller is to be marked seen again at the next heartbeat
}

// open answers 200 with the event stream's headers.
func (s *stream) open() {
	s.w.Header().Set(echo.HeaderContentType, "text/event-stream")
	s.w.Header().Set(echo.HeaderCacheControl, "no-cache")
	s.w.Header().Set("X-Accel-Buffering", "no")
	s.w.WriteHeader(http.StatusOK)
	// net/http holds the headers back until the first body write; a resume
	// with nothing to catch up on writes nothing before the first heartbeat,
	// so flush now: the client must see its 200 at once.
	s.w.Flush()
}

// write sends one event (with no ID if id is negative).
func (s *stream) write(id int, kind string, data []byte) error {
	if id >= 0 {
		if _, err := fmt.Fprintf(s.w, "id: %d\n", id); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", kind, data); err != nil {
		return err
	}
	s.w.Flush()
	return nil
}

// catchUp sends every move from ply sent on, rebuilt from storage. A
// failure to read them ends the stream like a failed write, but unlike a
// client gone it is the server's fault, so it is logged (unless the
// request ended meanwhile): the client only sees its stream close.
func (s *stream) catchUp() error {
	frames, err := s.hub.feed.Frames(s.ctx, s.viewer, s.gameID, max(s.sent, 0))
	if err != nil {
		if s.ctx.Err() == nil {
			s.hub.logger.ErrorContext(s.ctx, "sse: catch up", "game", s.gameID,
				"request_id", s.w.Header().Get(echo.HeaderXRequestID), "error", err)
		}
		return err
	}
	for _, f := range frames {
		if f.Move.Ply+1 <= s.sent {
			continue
		}
		m := toMoveResponse(f.Move)
		data, _ := json.Marshal(eventData{Kind: league.EventMove, Move: &m, View: toGameViewResponse(f.View)})
		if err := s.write(f.Move.Ply+1, league.EventMove, data); err != nil {
			return err
		}
		s.sent = f.Move.Ply + 1
	}
	return nil
}

// markHere marks the caller here at the open table for hereFor.
func (s *stream) markHere() {
	s.here = true
	ok, err := s.hub.feed.Here(s.ctx, s.viewer, s.gameID, s.hereFor)
	if err != nil {
		if s.ctx.Err() == nil {
			s.hub.logger.Warn("sse: mark here", "game", s.gameID, "error", err)
		}
		return // asked again at the next heartbeat
	}
	s.here = ok
}

// markSeen marks a seen at the active game gameID for three heartbeats,
// and says whether a sits there (whether to mark them again). A failure is
// logged and counts as seated: the next heartbeat asks again.
func (h *Hub) markSeen(ctx context.Context, a league.Actor, gameID string) bool {
	ok, err := h.feed.Seen(ctx, a, gameID, 3*h.heartbeat)
	if err != nil {
		if ctx.Err() == nil {
			h.logger.Warn("sse: mark seen", "game", gameID, "error", err)
		}
		return true
	}
	return ok
}

// loop sends sub's events and the heartbeats until the request ends, the
// hub closes, the token expires, the account is signed out (signedOut, at
// each heartbeat), the game can no longer change or a write fails.
func (s *stream) loop(sub *subscriber, expired <-chan time.Time, signedOut func() bool) {
	beat := time.NewTicker(s.hub.heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-s.hub.done:
			return
		case <-expired:
			return
		case <-beat.C:
			if signedOut() {
				return
			}
			if _, err := fmt.Fprint(s.w, ": heartbeat\n\n"); err != nil {
				return
			}
			s.w.Flush()
			if s.here {
				s.markHere()
			}
			if s.seen {
				s.seen = s.hub.markSeen(s.ctx, s.viewer, s.gameID)
			}
		case <-sub.lagging:
			if err := s.catchUp(); err != nil {
				return
			}
		case f := <-sub.ch:
			var err error
			switch {
			case f.kind != league.EventMove:
				// Seat changes, the start and the end: the state as it now is.
				switch {
				case f.kind == league.EventStart:
					// the table this stream waited at is a game now: its
					// player is seen at it from the start
					s.waiting, s.here = false, false
					s.seen = !s.viewer.Anonymous() && s.hub.markSeen(s.ctx, s.viewer, s.gameID)
				case f.kind == league.EventEnd:
					s.waiting, s.here, s.seen = false, false, false
				case f.kind == league.EventSeat && s.waiting:
					s.markHere()
				}
				if f.snapPly > s.sent {
					err = s.catchUp()
				}
				if err == nil {
					err = s.write(-1, f.kind, f.data)
				}
				if err == nil && f.final {
					return // the game can no longer change: nothing more will come
				}
			case f.evPly <= s.sent:
				// already sent (during catch-up)
			case f.evPly == s.sent+1 && f.snapPly == f.evPly:
				err = s.write(f.evPly, league.EventMove, f.data)
				s.sent = f.evPly
			default:
				err = s.catchUp() // a gap: rebuild what was missed
			}
			if err != nil {
				return
			}
		}
	}
}
