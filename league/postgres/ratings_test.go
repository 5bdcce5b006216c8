package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/rating"
)

// finishedGame stores a finished, rated, unsettled game with the given
// seats (user IDs by seat), teams, winner and abandoned seats.
func (r *gameRig) finishedGame(t *testing.T, kind string, teams int, users []string, winner int, abandoned map[int]bool) string {
	t.Helper()
	var id string
	result := "finished"
	var w any = winner
	if winner < 0 {
		result, w = "drawn", nil
	}
	err := r.db.Gorm.Raw(`INSERT INTO games (kind, variant, players, teams, rated, status, seed, seed_hash, result_status, winner, started_at, finished_at)
		VALUES (?, ?, ?, ?, true, 'finished', '\x00', '', ?, ?, now(), now()) RETURNING id`,
		kind, map[string]string{"sequence": "classic", "stacks": ""}[kind], len(users), teams, result, w).Scan(&id).Error
	if err != nil {
		t.Fatal(err)
	}
	for seat, u := range users {
		if err := r.db.Gorm.Exec(`INSERT INTO game_seats (game_id, seat, user_id, abandoned, filled_by_bot, bot_level) VALUES (?, ?, ?, ?, ?, ?)`,
			id, seat, u, abandoned[seat], abandoned[seat], map[bool]any{true: "greedy", false: nil}[abandoned[seat]]).Error; err != nil {
			t.Fatal(err)
		}
	}
	return id
}

func newRatingRig(t *testing.T) (*gameRig, *Ratings) {
	r := newGameRig(t, false)
	ratings := NewRatings(r.db)
	r.games.AddSettler(ratings)
	return r, ratings
}

func TestSettlingRatesEachGameExactlyOnce(t *testing.T) {
	r, ratings := newRatingRig(t)
	ctx := context.Background()
	a, b, c := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cat")
	id := r.finishedGame(t, "sequence", 3, []string{a.UserID, b.UserID, c.UserID}, 1, nil)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ { // duplicate and concurrent settle tasks
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.games.Settle(ctx, id); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var n int64
	r.db.Gorm.Table("rating_changes").Where("game_id = ?", id).Count(&n)
	if n != 3 {
		t.Fatalf("%d rating changes for a 3-player game settled 8 times, want 3", n)
	}
	got, err := ratings.UserRatings(ctx, b.UserID, league.RatingHistoryQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Pools) != 1 || got.Pools[0].Pool != rating.PoolSequence3 || got.Pools[0].Games != 1 || got.Pools[0].Rating <= 1500 {
		t.Fatalf("winner's ratings = %+v; want one game in sequence-3team above 1500", got.Pools)
	}
	if got.Pools[0].Display[len(got.Pools[0].Display)-1] != '?' {
		t.Errorf("display %q of a provisional rating lacks the question mark", got.Pools[0].Display)
	}
	if err := r.db.Gorm.Exec(`DELETE FROM rating_changes WHERE game_id = ?`, id).Error; err != nil {
		t.Fatal(err)
	}
	if err := r.games.Settle(ctx, id); err != nil {
		t.Fatal(err)
	}
	r.db.Gorm.Table("rating_changes").Where("game_id = ?", id).Count(&n)
	if n != 0 {
		t.Fatal("a settled game was rated again")
	}
}

func TestUnratedGamesChangeNothingAndAbandonersLose(t *testing.T) {
	r, ratings := newRatingRig(t)
	ctx := context.Background()
	a, b := r.user(t, "ann"), r.user(t, "bob")
	unrated := r.finishedGame(t, "sequence", 2, []string{a.UserID, b.UserID}, 0, nil)
	r.db.Gorm.Exec("UPDATE games SET rated = false WHERE id = ?", unrated)
	if err := r.games.Settle(ctx, unrated); err != nil {
		t.Fatal(err)
	}
	if got, _ := ratings.UserRatings(ctx, a.UserID, league.RatingHistoryQuery{}); len(got.Pools) != 0 {
		t.Fatalf("an unrated game changed ratings: %+v", got.Pools)
	}
	// Ann's team wins, but ann abandoned: she is rated as losing.
	id := r.finishedGame(t, "sequence", 2, []string{a.UserID, b.UserID}, 0, map[int]bool{0: true})
	if err := r.games.Settle(ctx, id); err != nil {
		t.Fatal(err)
	}
	got, _ := ratings.UserRatings(ctx, a.UserID, league.RatingHistoryQuery{})
	if len(got.Pools) != 1 || got.Pools[0].Rating >= 1500 {
		t.Fatalf("abandoning winner's rating = %+v, want below 1500", got.Pools)
	}
}

func TestRecomputeReachesExactlyTheStoredRatings(t *testing.T) {
	r, ratings := newRatingRig(t)
	ctx := context.Background()
	var users []string
	for i := 0; i < 7; i++ {
		users = append(users, r.user(t, fmt.Sprintf("p%d", i)).UserID)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for g := 0; g < 60; g++ {
		perm := rnd.Perm(len(users))
		switch g % 3 {
		case 0: // 2v2 sequence
			seats := []string{users[perm[0]], users[perm[1]], users[perm[2]], users[perm[3]]}
			r.games.Settle(ctx, r.finishedGame(t, "sequence", 2, seats, rnd.IntN(3)-1, map[int]bool{rnd.IntN(8): true}))
		case 1: // 1v1v1 sequence
			seats := []string{users[perm[0]], users[perm[1]], users[perm[2]]}
			r.games.Settle(ctx, r.finishedGame(t, "sequence", 3, seats, rnd.IntN(3), nil))
		case 2: // stacks, 4 players
			seats := []string{users[perm[0]], users[perm[1]], users[perm[2]], users[perm[3]]}
			r.games.Settle(ctx, r.finishedGame(t, "stacks", 4, seats, rnd.IntN(4), nil))
		}
	}
	res, err := ratings.Recompute(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Games != 60 || res.Mismatches != 0 || res.History != 0 || res.Players != len(users) {
		t.Fatalf("recompute = %+v; want 60 games of %d players and no mismatch", res, len(users))
	}
	// A rating set by hand is the before of the player's next change: the
	// history breaks there, and --write mends it as well as the rating (it
	// mended the rating alone, and the chart went 1692 → 2300 → 1694).
	r.db.Gorm.Exec("UPDATE ratings SET rating = 2300, peak = 2450 WHERE user_id = ?", users[0])
	r.games.Settle(ctx, r.finishedGame(t, "sequence", 2, []string{users[0], users[1]}, 0, nil))
	if res, _ = ratings.Recompute(ctx, true); res.Mismatches == 0 || res.History == 0 {
		t.Fatalf("recompute --write after a tampered rating: %+v; want the rating and the history found to differ", res)
	}
	if res, _ = ratings.Recompute(ctx, false); res.Mismatches != 0 || res.History != 0 {
		t.Fatalf("after recompute --write: %+v; want nothing left to differ", res)
	}
	var chain []struct{ Before, After float64 }
	if err := r.db.Gorm.Raw("SELECT before, after FROM rating_changes WHERE user_id = ? AND pool = ? ORDER BY seq", users[0], rating.PoolSequence2).Scan(&chain).Error; err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(chain); i++ {
		if chain[i].Before != chain[i-1].After {
			t.Fatalf("users[0]'s history after recompute --write: change %d starts at %v, the one before ended at %v", i, chain[i].Before, chain[i-1].After)
		}
	}
}

// boardOf is the board Ratings.Leaderboard gives over states: highest
// rating first, then more games, then user ID descending; provisional
// players only if asked; and a rank of 1 + the players listed whose
// displayed (rounded) rating is higher, so that equal displays share it.
func boardOf(states map[string]rating.PlayerState, provisional bool) []struct {
	user string
	rank int
} {
	var ids []string
	for u, st := range states {
		if provisional || !st.Provisional() {
			ids = append(ids, u)
		}
	}
	slices.SortFunc(ids, func(a, b string) int {
		sa, sb := states[a], states[b]
		if c := cmp.Compare(sb.Rating, sa.Rating); c != 0 {
			return c
		}
		if c := cmp.Compare(sb.Games, sa.Games); c != 0 {
			return c
		}
		return strings.Compare(b, a)
	})
	out := make([]struct {
		user string
		rank int
	}, len(ids))
	for i, u := range ids {
		out[i].user, out[i].rank = u, i+1
		if i > 0 && math.Round(states[u].Rating) == math.Round(states[ids[i-1]].Rating) {
			out[i].rank = out[i-1].rank
		}
	}
	return out
}

func TestLeaderboardPagesKeepRanksRight(t *testing.T) {
	r, ratings := newRatingRig(t)
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(3, 4))
	states := map[string]rating.PlayerState{}
	clubMembers := map[string]bool{}
	club, err := NewClubs(r.db).Create(ctx, r.user(t, "owner"), league.NewClub{Name: "Chess Club"})
	if err != nil {
		t.Fatal(err)
	}
	clubID := club.ID
	for i := 0; i < 230; i++ {
		u := r.user(t, fmt.Sprintf("player%03d", i)).UserID
		// Ratings on a coarse grid so that many players tie.
		st := rating.PlayerState{Rating: 1300 + float64(rnd.IntN(40))*10 + float64(rnd.IntN(2))*0.25, Games: rnd.IntN(60), Peak: 2000}
		states[u] = st
		r.db.Gorm.Exec("INSERT INTO ratings (user_id, pool, rating, games, peak) VALUES (?, ?, ?, ?, ?)", u, rating.PoolSequence2, st.Rating, st.Games, st.Peak)
		if i%4 == 0 {
			clubMembers[u] = true
			r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')", clubID, u)
		}
	}
	page := func(q league.LeaderboardQuery) []league.LeaderboardRow {
		var all []league.LeaderboardRow
		for pages := 0; ; pages++ {
			rows, next, err := ratings.Leaderboard(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, rows...)
			if next == "" {
				return all
			}
			q.Cursor = next
			if pages > 100 {
				t.Fatal("pagination does not end")
			}
		}
	}
	for _, tc := range []struct {
		name        string
		provisional bool
		club        bool
	}{
		{"established players only by default", false, false},
		{"provisional players when asked", true, false},
		{"a club's members", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := map[string]rating.PlayerState{}
			for u, st := range states {
				if tc.club && !clubMembers[u] {
					continue
				}
				want[u] = st
			}
			wantRows := boardOf(want, tc.provisional)
			q := league.LeaderboardQuery{Pool: rating.PoolSequence2, Provisional: tc.provisional, Limit: 7}
			if tc.club {
				q.ClubID = clubID
			}
			got := page(q)
			if len(got) != len(wantRows) {
				t.Fatalf("%d rows over all pages, want %d", len(got), len(wantRows))
			}
			for i, g := range got {
				if w := wantRows[i]; g.UserID != w.user || g.Rank != w.rank {
					t.Fatalf("row %d (%s, %.2f): %s ranked %d, want %s ranked %d", i, g.Username, g.State.Rating, g.UserID, g.Rank, w.user, w.rank)
				}
				if !tc.provisional && g.State.Provisional {
					t.Fatalf("row %d is provisional", i)
				}
			}
		})
	}
	if _, _, err := ratings.Leaderboard(ctx, league.LeaderboardQuery{Pool: "chess"}); league.ErrorCode(err) != league.ENOTFOUND {
		t.Fatalf("unknown pool: %v", err)
	}
	if _, _, err := ratings.Leaderboard(ctx, league.LeaderboardQuery{Pool: rating.PoolSequence2, Cursor: "bm9wZQ"}); league.ErrorCode(err) != league.EINVALID {
		t.Fatalf("bad cursor: %v", err)
	}
}

func TestConcurrentSettlementsOfNewPlayersLoseNoUpdate(t *testing.T) {
	r, ratings := newRatingRig(t)
	ctx := context.Background()
	a, b := r.user(t, "ann"), r.user(t, "bob")
	var ids []string
	for i := 0; i < 16; i++ {
		ids = append(ids, r.finishedGame(t, "sequence", 2, []string{a.UserID, b.UserID}, i%2, nil))
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.games.Settle(ctx, id); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := ratings.UserRatings(ctx, a.UserID, league.RatingHistoryQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Pools[0].Games != 16 {
		t.Fatalf("ann has %d rated games after 16 settled at once, want 16", got.Pools[0].Games)
	}
	if res, _ := ratings.Recompute(ctx, false); res.Mismatches != 0 {
		t.Fatalf("recompute after concurrent settlements: %+v", res)
	}
}

func TestAGameOfABotAgainstItselfIsNotRated(t *testing.T) {
	r, ratings := newRatingRig(t)
	ctx := context.Background()
	a := r.user(t, "ann")
	var bot string
	r.db.Gorm.Raw("SELECT id FROM users WHERE kind = 'bot' AND bot_level = 'random'").Scan(&bot)
	id := r.finishedGame(t, "sequence", 3, []string{bot, a.UserID, bot}, 2, nil)
	if err := r.games.Settle(ctx, id); err != nil {
		t.Fatalf("settle: %v", err)
	}
	if got, _ := ratings.UserRatings(ctx, a.UserID, league.RatingHistoryQuery{}); len(got.Pools) != 0 {
		t.Fatalf("a game with the same bot on two teams was rated: %+v", got.Pools)
	}
}

func TestAClosedAccountKeepsItsRatingHistoryButLeavesTheLeaderboard(t *testing.T) {
	r, ratings := newRatingRig(t)
	ctx := context.Background()
	accounts := NewAccounts(r.db, league.NewPasswordHasher(cheapArgon2, 1), time.Hour)
	a, b := r.user(t, "ann"), r.user(t, "bob")
	id := r.finishedGame(t, "sequence", 2, []string{a.UserID, b.UserID}, 0, nil)
	if err := r.games.Settle(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := accounts.Delete(ctx, a, a.UserID); err != nil {
		t.Fatal(err)
	}
	got, err := ratings.UserRatings(ctx, a.UserID, league.RatingHistoryQuery{})
	if err != nil {
		t.Fatalf("a closed account's ratings: %v; want them kept as the record", err)
	}
	if len(got.Pools) != 1 || len(got.History) != 1 || got.History[0].GameID != id {
		t.Fatalf("a closed account's ratings = %+v; want its one game", got)
	}
	rows, _, err := ratings.Leaderboard(ctx, league.LeaderboardQuery{Pool: rating.PoolSequence2, Provisional: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		if row.UserID == a.UserID {
			t.Fatalf("a closed account is still ranked: %+v", row)
		}
	}
}

// A leaderboard cursor carries the rank and position of the row it
// continues after, which the store believes; so a cursor the client
// altered, made up, or carried to another query is refused, naming the
// cursor, instead of shifting the ranks on the page.
func TestLeaderboardRefusesCursorsItDidNotIssue(t *testing.T) {
	r, ratings := newRatingRig(t)
	ctx := context.Background()
	for i := 0; i < 9; i++ {
		u := r.user(t, fmt.Sprintf("player%d", i)).UserID
		r.db.Gorm.Exec("INSERT INTO ratings (user_id, pool, rating, games, peak) VALUES (?, ?, ?, ?, 2000)",
			u, rating.PoolSequence2, 1900-float64(i)*10, 40)
	}
	q := league.LeaderboardQuery{Pool: rating.PoolSequence2, Limit: 3}
	first, next, err := ratings.Leaderboard(ctx, q)
	if err != nil || next == "" {
		t.Fatalf("first page: %v, next %q", err, next)
	}
	q.Cursor = next
	second, _, err := ratings.Leaderboard(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := second[0].Rank, 4; got != want {
		t.Fatalf("the issued cursor: first rank on page 2 = %d, want %d", got, want)
	}

	key, err := decodeCursor(next)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(key, "|")
	withRank := func(rank string) string {
		p := append([]string(nil), parts...)
		p[3], p[4] = rank, rank // rank and position of the row before the page
		return encodeCursor(strings.Join(p, "|"))
	}
	last := first[len(first)-1]
	for _, tc := range []struct {
		name   string
		q      league.LeaderboardQuery
		cursor string
	}{
		{"an issued cursor with its rank altered", q, withRank("100")},
		{"an issued cursor with its rank made zero", q, withRank("0")},
		{"a cursor made up from a row's sort key", q, encodeCursor(fmt.Sprintf("%v|%d|%s|%d|%d", last.State.Rating, last.State.Games, last.UserID, 0, 0))},
		{"an issued cursor on another filter", league.LeaderboardQuery{Pool: rating.PoolSequence2, Limit: 3, Provisional: true}, next},
		{"an issued cursor on another pool", league.LeaderboardQuery{Pool: rating.PoolStacks, Limit: 3}, next},
		{"an issued cursor cut short", q, encodeCursor(strings.Join(parts[:5], "|"))},
		{"not a cursor at all", q, "bm9wZQ"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.q.Cursor = tc.cursor
			rows, _, err := ratings.Leaderboard(ctx, tc.q)
			var le *league.Error
			if !errors.As(err, &le) || le.Code != league.EINVALID || len(le.Fields) != 1 || le.Fields[0].Field != "cursor" {
				got := "no rows"
				if len(rows) > 0 {
					got = fmt.Sprintf("first rank %d", rows[0].Rank)
				}
				t.Fatalf("err = %v (%s), want EINVALID naming cursor", err, got)
			}
		})
	}

	// A new limit keeps the cursor good: the limit does not change ranks.
	q.Limit = 5
	rows, _, err := ratings.Leaderboard(ctx, q)
	if err != nil || len(rows) != 5 || rows[0].Rank != 4 {
		t.Fatalf("the issued cursor with another limit: %v, %d rows", err, len(rows))
	}
	// Another instance with the same secret accepts it; one without does not.
	other := NewRatings(r.db).WithCursorKey([]byte("a secret shared by the instances"))
	ratings.WithCursorKey([]byte("a secret shared by the instances"))
	q.Limit = 3
	q.Cursor = ""
	_, shared, err := ratings.Leaderboard(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	q.Cursor = shared
	if rows, _, err := other.Leaderboard(ctx, q); err != nil || rows[0].Rank != 4 {
		t.Fatalf("a cursor on another instance with the same secret: %v", err)
	}
	if _, _, err := NewRatings(r.db).Leaderboard(ctx, q); league.ErrorCode(err) != league.EINVALID {
		t.Fatalf("a cursor on an instance with another key: %v, want EINVALID", err)
	}
}

// The rating history is a list like the others: pages of ?limit=, newest
// first, continued by the cursor, with every change on exactly one page.
func TestARatingHistoryPagesNewestFirst(t *testing.T) {
	r, ratings := newRatingRig(t)
	ctx := context.Background()
	a, b, c := r.user(t, "ann"), r.user(t, "bob"), r.user(t, "cid")
	var played []string // oldest first
	for i := 0; i < 5; i++ {
		played = append(played, r.finishedGame(t, "sequence", 2, []string{a.UserID, b.UserID}, i%2, nil))
	}
	for i := 0; i < 2; i++ {
		played = append(played, r.finishedGame(t, "sequence", 3, []string{a.UserID, b.UserID, c.UserID}, i, nil))
	}
	for _, id := range played { // one at a time, so the history's order is the playing order
		if err := r.games.Settle(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > len(played) {
			t.Fatal("the history does not end")
		}
		res, err := ratings.UserRatings(ctx, a.UserID, league.RatingHistoryQuery{Page: league.PageRequest{Limit: 3, Cursor: cursor}})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{true: 2, false: 0}[cursor == ""]; len(res.Pools) != want {
			t.Fatalf("page %d has %d pools, want both of ann's on the first page and none after it", pages, len(res.Pools))
		}
		if len(res.History) > 3 || (res.NextCursor != "" && len(res.History) != 3) {
			t.Fatalf("page %d: %d changes, next %q", pages, len(res.History), res.NextCursor)
		}
		for _, h := range res.History {
			got = append(got, h.GameID)
		}
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	want := slices.Clone(played)
	slices.Reverse(want)
	if !slices.Equal(got, want) {
		t.Fatalf("history pages read %v, want every game once, newest first: %v", got, want)
	}
	three, err := ratings.UserRatings(ctx, a.UserID, league.RatingHistoryQuery{Pool: rating.PoolSequence3})
	if err != nil {
		t.Fatal(err)
	}
	if len(three.History) != 2 || three.History[0].GameID != played[6] || three.NextCursor != "" {
		t.Fatalf("the three-team pool's history = %+v, want its two games, newest first", three.History)
	}
	for _, bad := range []struct {
		q     league.RatingHistoryQuery
		field string
	}{
		{league.RatingHistoryQuery{Pool: "chess"}, "pool"},
		{league.RatingHistoryQuery{Page: league.PageRequest{Cursor: "bm9wZQ"}}, "cursor"},
		{league.RatingHistoryQuery{Page: league.PageRequest{Cursor: encodeCursor("-4")}}, "cursor"},
		{league.RatingHistoryQuery{Page: league.PageRequest{Limit: 101}}, "limit"},
	} {
		_, err := ratings.UserRatings(ctx, a.UserID, bad.q)
		var e *league.Error
		if !errors.As(err, &e) || e.Code != league.EINVALID || len(e.Fields) != 1 || e.Fields[0].Field != bad.field {
			t.Errorf("%+v: %v; want invalid %s", bad.q, err, bad.field)
		}
	}
}
