package postgres

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/redisbus"
)

// lapseRig is a game service whose open tables lapse after a day, with a
// clock the test moves (at) from start, when the tables are made.
type lapseRig struct {
	*gameRig
	start time.Time
}

const testLifetime = 24 * time.Hour

func newLapseRig(t *testing.T) *lapseRig {
	r := &lapseRig{gameRig: newGameRigWith(t, GameConfig{OpenTableLifetime: testLifetime}, false), start: time.Now().UTC()}
	r.at(0)
	return r
}

func (r *lapseRig) at(d time.Duration) { r.games.now = func() time.Time { return r.start.Add(d) } }

// waiting is a table for two, its creator seated and the other seat open.
func waiting(p league.Actor) league.NewGame {
	return league.NewGame{Game: "sequence", Players: 2, Seats: []league.SeatSpec{{UserID: p.UserID}, {Open: true}}}
}

// madeAt moves a game's creation to r.start+d (a game's created_at is the
// database's time, not the service's clock).
func (r *lapseRig) madeAt(t *testing.T, gameID string, d time.Duration) {
	t.Helper()
	if err := r.db.Gorm.Exec("UPDATE games SET created_at = ? WHERE id = ?", r.start.Add(d), gameID).Error; err != nil {
		t.Fatal(err)
	}
}

func (r *lapseRig) gameRow(t *testing.T, id string) gameRow {
	t.Helper()
	var row gameRow
	if err := r.db.Gorm.Where("id = ?", id).Take(&row).Error; err != nil {
		t.Fatal(err)
	}
	return row
}

// events gathers the game events published from now on.
func (r *lapseRig) events(t *testing.T) func() []league.GameEvent {
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var got []league.GameEvent
	subscribed := make(chan struct{})
	var once sync.Once
	go redisbus.New(r.rdb).Subscribe(ctx, func(ev league.GameEvent) {
		mu.Lock()
		got = append(got, ev)
		mu.Unlock()
	}, func() { once.Do(func() { close(subscribed) }) })
	t.Cleanup(cancel)
	select {
	case <-subscribed:
	case <-time.After(5 * time.Second):
		t.Fatal("no subscription to the game events")
	}
	return func() []league.GameEvent {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(got)
	}
}

// An open table nobody joined within the lifetime, whose creator walked
// away long since, is cancelled by the sweep as its creator's cancel
// would: aborted (ended_by lapse, so that its page can say why), its
// watchers told, its invitation gone, and no longer counted toward the
// creator's bound on live games, whose refusal says that tables lapse.
func TestAnOpenTableNobodyJoinedLapses(t *testing.T) {
	r := newLapseRig(t)
	ctx := context.Background()
	r.games.cfg.MaxLiveGames = 2
	ann, bob, cat := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat")
	plain, err := r.games.Create(ctx, ann, waiting(ann))
	if err != nil {
		t.Fatal(err)
	}
	invite := waiting(ann)
	invite.Seats[1].For = "cat"
	kept, err := r.games.Create(ctx, ann, invite)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.games.Create(ctx, ann, waiting(ann))
	if league.ErrorCode(err) != league.EPRECONDITION || !strings.Contains(err.Error(), "nobody joins within 24 hours") {
		t.Fatalf("a third table: %v; want the bound's refusal saying that open tables lapse after 24 hours", err)
	}
	// Ann's marks of sitting down ran out, and the sweep cleared them.
	r.at(hereGrace + time.Minute)
	if _, err := r.games.ForgetLapsed(ctx); err != nil {
		t.Fatal(err)
	}
	// A lifetime after the tables were made, ann sat at them within it:
	// her marks of sitting down ran for hereGrace.
	r.at(testLifetime + time.Minute)
	if n, err := r.games.LapseOpenTables(ctx); err != nil || n != 0 {
		t.Fatalf("LapseOpenTables within the lifetime of ann's last presence = %d, %v; want none", n, err)
	}
	events := r.events(t)
	r.at(testLifetime + hereGrace + time.Minute)
	if n, err := r.games.LapseOpenTables(ctx); err != nil || n != 2 {
		t.Fatalf("LapseOpenTables = %d, %v; want ann's two tables", n, err)
	}
	for _, id := range []string{plain.ID, kept.ID} {
		row := r.gameRow(t, id)
		if row.Status != league.StatusAborted || row.EndedBy == nil || *row.EndedBy != league.EndedByLapse ||
			row.FinishedAt == nil || row.StartedAt != nil {
			t.Fatalf("a lapsed table: status %s, ended_by %v, finished %v, started %v; want aborted, lapse, finished, never started",
				row.Status, row.EndedBy, row.FinishedAt, row.StartedAt)
		}
	}
	if g, err := r.games.View(ctx, league.Actor{}, plain.ID); err != nil || g.Game.EndedBy != league.EndedByLapse {
		t.Fatalf("the lapsed table's view: %+v, %v; want ended_by lapse", g, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		told := map[string]bool{}
		for _, ev := range events() {
			told[ev.GameID] = true
		}
		if told[plain.ID] && told[kept.ID] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("events after the lapse: %+v; want one for each table's watchers", events())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if ids, _ := lobbyIDs(t, r.gameRig, league.StatusOpen, 10, ""); len(ids) != 0 {
		t.Fatalf("the lobby offers %v, want nothing", ids)
	}
	if inv, err := r.invitations(t, cat.UserID, cat); err != nil || len(inv) != 0 {
		t.Fatalf("cat's invitations after the lapse: %v, %v; want none", inv, err)
	}
	_, err = r.games.Join(ctx, bob, plain.ID, nil)
	if league.ErrorCode(err) != league.EPRECONDITION || !strings.Contains(err.Error(), "nobody joined") {
		t.Fatalf("joining a lapsed table: %v; want a refusal saying it lapsed", err)
	}
	if _, err := r.games.Create(ctx, ann, waiting(ann)); err != nil {
		t.Fatalf("a table once the two lapsed: %v", err)
	}
	if n, err := r.games.LapseOpenTables(ctx); err != nil || n != 0 {
		t.Fatalf("LapseOpenTables again = %d, %v; want none", n, err)
	}
}

// The sweep leaves alone a table made within the lifetime, one at which
// somebody was here within it (here now, or whose mark the sweep cleared
// since), one whose scheduled start is ahead, one whose start went by
// within the lifetime (the start's business), and a tournament's game.
func TestTablesThatMayStillFillDoNotLapse(t *testing.T) {
	r := newLapseRig(t)
	ctx := context.Background()
	ann, bob, cat, dan, eve := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat"), r.user(t, "dan"), r.user(t, "eve")
	fresh, err := r.games.Create(ctx, ann, waiting(ann))
	if err != nil {
		t.Fatal(err)
	}
	r.madeAt(t, fresh.ID, time.Hour)
	present, err := r.games.Create(ctx, bob, waiting(bob))
	if err != nil {
		t.Fatal(err)
	}
	leftLate, err := r.games.Create(ctx, cat, waiting(cat))
	if err != nil {
		t.Fatal(err)
	}
	ahead := waiting(dan)
	future := r.start.Add(3 * testLifetime)
	ahead.ScheduledStart = &future
	scheduled, err := r.games.Create(ctx, dan, ahead)
	if err != nil {
		t.Fatal(err)
	}
	lately := waiting(eve)
	soon := r.start.Add(testLifetime)
	lately.ScheduledStart = &soon
	startedLately, err := r.games.Create(ctx, eve, lately)
	if err != nil {
		t.Fatal(err)
	}
	match := r.openTournamentGame(t)
	// Cat was last here an hour before the sweep; the sweep of lapsed
	// marks has cleared hers since.
	r.at(testLifetime - time.Hour)
	r.here(t, cat, leftLate.ID)
	r.at(testLifetime + time.Minute)
	r.here(t, bob, present.ID)
	if n, err := r.games.ForgetLapsed(ctx); err != nil || n == 0 {
		t.Fatalf("ForgetLapsed = %d, %v; want the lapsed marks cleared", n, err)
	}
	if n, err := r.games.LapseOpenTables(ctx); err != nil || n != 0 {
		t.Fatalf("LapseOpenTables = %d, %v; want none", n, err)
	}
	for name, id := range map[string]string{"fresh": fresh.ID, "present": present.ID, "left an hour ago": leftLate.ID,
		"scheduled ahead": scheduled.ID, "start went by lately": startedLately.ID, "tournament": match} {
		if row := r.gameRow(t, id); row.Status != league.StatusOpen || row.EndedBy != nil {
			t.Errorf("the %s table: status %s, ended_by %v; want open", name, row.Status, row.EndedBy)
		}
	}
	// A lifetime on, those nobody came back to lapse, the tournament's
	// game and the one scheduled ahead still do not.
	r.at(2*testLifetime + time.Minute)
	r.here(t, bob, present.ID)
	if n, err := r.games.LapseOpenTables(ctx); err != nil || n != 3 {
		t.Fatalf("LapseOpenTables a lifetime on = %d, %v; want the fresh table, cat's and eve's", n, err)
	}
	for _, id := range []string{present.ID, scheduled.ID, match} {
		if row := r.gameRow(t, id); row.Status != league.StatusOpen {
			t.Errorf("game %s is %s a lifetime on, want open", id, row.Status)
		}
	}
}

// openTournamentGame stores an open game of a tournament's match, a bot
// and an open seat at it, as a round makes (with no creator), made long
// before the test's clock.
func (r *lapseRig) openTournamentGame(t *testing.T) string {
	t.Helper()
	var club, tournament string
	if err := r.db.Gorm.Raw("INSERT INTO clubs (name) VALUES ('lapse') RETURNING id").Scan(&club).Error; err != nil {
		t.Fatal(err)
	}
	if err := r.db.Gorm.Raw("INSERT INTO tournaments (club_id, name, config, status) VALUES (?, 'cup', '{}', 'running') RETURNING id", club).
		Scan(&tournament).Error; err != nil {
		t.Fatal(err)
	}
	var id string
	err := r.games.transact(context.Background(), func(tx *gorm.DB, fx *effects) error {
		row, err := r.games.createLocked(tx, fx, nil, league.NewGame{Game: "sequence", Players: 2,
			Seats: []league.SeatSpec{{Bot: "random"}, {Open: true}}}, &gameLink{TournamentID: tournament, MatchID: "m1", MatchGame: 1})
		if row != nil {
			id = row.ID
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	r.madeAt(t, id, -testLifetime)
	return id
}

// A player joining a lapsing table and the sweep race: either the join
// wins and the game starts, never then cancelled, or the sweep wins and
// the join is refused, the table cancelled with nobody new seated. Never
// a started game that lapsed, nor a cancelled one with its seats taken.
func TestAJoinRacingTheLapseStartsOrCancelsTheTableWhole(t *testing.T) {
	r := newLapseRig(t)
	ctx := context.Background()
	ann := r.user(t, "ann")
	outcomes := map[string]int{}
	for round := range 24 {
		bob := r.user(t, "bob"+string(rune('a'+round)))
		r.at(0)
		g, err := r.games.Create(ctx, ann, waiting(ann))
		if err != nil {
			t.Fatal(err)
		}
		r.madeAt(t, g.ID, 0)
		r.at(testLifetime + hereGrace + time.Minute) // ann's mark of sitting down ran out a lifetime ago
		var joinErr, lapseErr error
		var lapsed int
		var wg sync.WaitGroup
		ready := make(chan struct{})
		wg.Add(2)
		go func() { defer wg.Done(); <-ready; _, joinErr = r.games.Join(ctx, bob, g.ID, nil) }()
		go func() { defer wg.Done(); <-ready; lapsed, lapseErr = r.games.LapseOpenTables(ctx) }()
		close(ready)
		wg.Wait()
		if lapseErr != nil {
			t.Fatalf("round %d: the sweep: %v", round, lapseErr)
		}
		row := r.gameRow(t, g.ID)
		seated := r.seatedIn(t, g.ID)
		switch {
		case joinErr == nil && lapsed == 0 && row.Status == league.StatusActive && row.EndedBy == nil &&
			row.StartedAt != nil && row.FinishedAt == nil && seated == 2:
			outcomes["joined"]++
		case league.ErrorCode(joinErr) == league.EPRECONDITION && lapsed == 1 && row.Status == league.StatusAborted &&
			row.EndedBy != nil && *row.EndedBy == league.EndedByLapse && row.StartedAt == nil && row.Ply == 0 && seated == 1:
			outcomes["lapsed"]++
		default:
			t.Fatalf("round %d: join %v, %d lapsed; the game %s (ended_by %v, started %v, finished %v, ply %d) with %d seated",
				round, joinErr, lapsed, row.Status, row.EndedBy, row.StartedAt, row.FinishedAt, row.Ply, seated)
		}
		if n := r.rowsOf(t, "game_moves", g.ID); row.Status == league.StatusAborted && n != 0 {
			t.Fatalf("round %d: a lapsed table has %d moves", round, n)
		}
		if row.Status == league.StatusActive {
			// Ann's table is over before her next: a live game would count.
			r.drawByHand(t, g.ID)
		}
	}
	t.Logf("outcomes: %v", outcomes)
}
