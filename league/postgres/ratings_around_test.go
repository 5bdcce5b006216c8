package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/uuid"
	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/rating"
)

// The page around a player is a window of the board paged from the top:
// the same rows with the same ranks (ties shared, across the window's first
// row too), starting up to limit/2 rows above the player, and its
// next_cursor continues exactly as the board's own pages do, for every
// player of a board with ties, provisional and closed players, under each
// filter. A player the board leaves out is a not-found naming around.
func TestTheLeaderboardAroundAPlayerIsTheBoardPagedFromTheTop(t *testing.T) {
	r, ratings := newRatingRig(t)
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(7, 8))
	var clubID string
	if err := r.db.Gorm.Raw("INSERT INTO clubs (name) VALUES ('around') RETURNING id").Scan(&clubID).Error; err != nil {
		t.Fatal(err)
	}
	// A league whose one season's tournament a third of them entered (and
	// another league with no tournament at all).
	var leagueID, emptyLeagueID, seasonID, tournamentID string
	for _, q := range []struct {
		dest *string
		sql  string
		arg  *string
	}{
		{&leagueID, "INSERT INTO leagues (club_id, name) VALUES (?, 'league') RETURNING id", &clubID},
		{&emptyLeagueID, "INSERT INTO leagues (club_id, name) VALUES (?, 'empty') RETURNING id", &clubID},
		{&seasonID, "INSERT INTO seasons (league_id, name) VALUES (?, '2031') RETURNING id", &leagueID},
		{&tournamentID, "INSERT INTO tournaments (club_id, season_id, name, config) SELECT l.club_id, s.id, 'cup', '{}' FROM seasons s JOIN leagues l ON l.id = s.league_id WHERE s.id = ? RETURNING id", &seasonID},
	} {
		if err := r.db.Gorm.Raw(q.sql, *q.arg).Scan(q.dest).Error; err != nil {
			t.Fatal(err)
		}
	}
	edges := []float64{1500.5, 1500.5, 1500.4999999, 1499.5, 2400.5, 2400.5}
	var users []string
	provisional, closed, member, inLeague := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i := 0; i < 70; i++ {
		u := r.user(t, fmt.Sprintf("around%03d", i)).UserID
		users = append(users, u)
		value := 1450 + float64(rnd.IntN(8))*5 + float64(rnd.IntN(3))*0.5
		if i < len(edges) {
			value = edges[i]
		}
		games := 30 + rnd.IntN(3) // equal ratings and games: the user ID decides
		if i%6 == 2 {
			games = rnd.IntN(30)
			provisional[u] = true
		}
		if err := r.db.Gorm.Exec("INSERT INTO ratings (user_id, pool, rating, games, peak) VALUES (?, ?, ?, ?, ?)", u, rating.PoolStacks, value, games, value).Error; err != nil {
			t.Fatal(err)
		}
		if i%9 == 4 || i == 4 { // i == 4: a closed account at the top
			closed[u] = true
			if err := r.db.Gorm.Exec("UPDATE users SET deleted_at = now() WHERE id = ?", u).Error; err != nil {
				t.Fatal(err)
			}
		}
		if i%3 == 0 {
			inLeague[u] = true
			var entryID string
			if err := r.db.Gorm.Raw("INSERT INTO entries (tournament_id, name) VALUES (?, ?) RETURNING id", tournamentID, u).Scan(&entryID).Error; err != nil {
				t.Fatal(err)
			}
			if err := r.db.Gorm.Exec("INSERT INTO entry_members (entry_id, tournament_id, position, user_id) VALUES (?, ?, 0, ?)", entryID, tournamentID, u).Error; err != nil {
				t.Fatal(err)
			}
		}
		if i%2 == 0 {
			member[u] = true
			if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')", clubID, u).Error; err != nil {
				t.Fatal(err)
			}
		}
	}
	type row struct {
		User string
		Rank int
	}
	// all pages q from its start, following next_cursor.
	all := func(q league.LeaderboardQuery) (first []row, rest []row) {
		t.Helper()
		for page := 0; ; page++ {
			rows, next, err := ratings.Leaderboard(ctx, q)
			if err != nil {
				t.Fatalf("%+v: %v", q, err)
			}
			for _, x := range rows {
				if page == 0 {
					first = append(first, row{x.UserID, x.Rank})
				} else {
					rest = append(rest, row{x.UserID, x.Rank})
				}
			}
			if next == "" {
				return first, rest
			}
			q.Around, q.Cursor = "", next
		}
	}
	checked, ties := 0, 0
	for _, f := range []struct {
		name   string
		q      league.LeaderboardQuery
		onFunc func(u string) bool
	}{
		{"default", league.LeaderboardQuery{}, func(u string) bool { return !provisional[u] && !closed[u] }},
		{"provisional", league.LeaderboardQuery{Provisional: true}, func(u string) bool { return !closed[u] }},
		{"club", league.LeaderboardQuery{ClubID: clubID}, func(u string) bool { return member[u] && !provisional[u] && !closed[u] }},
		{"league", league.LeaderboardQuery{LeagueID: leagueID}, func(u string) bool { return inLeague[u] && !provisional[u] && !closed[u] }},
		{"empty league", league.LeaderboardQuery{LeagueID: emptyLeagueID}, func(string) bool { return false }},
	} {
		for _, limit := range []int{1, 2, 7} {
			q := f.q
			q.Pool, q.Limit = rating.PoolStacks, limit
			// The board paged from the top, with ranks.
			first, rest := all(q)
			board := append(first, rest...)
			at := map[string]int{}
			for i, x := range board {
				at[x.User] = i
				if i > 0 && board[i-1].Rank == x.Rank {
					ties++
				}
			}
			for i, u := range users {
				aq := q
				aq.Around = u
				if !f.onFunc(u) {
					_, _, err := ratings.Leaderboard(ctx, aq)
					if league.ErrorCode(err) != league.ENOTFOUND || !namesField(err, "around") {
						t.Errorf("%s, around%03d (provisional %v, closed %v, member %v): %v, want not found naming around", f.name, i, provisional[u], closed[u], member[u], err)
					}
					continue
				}
				pos, ok := at[u]
				if !ok {
					t.Fatalf("%s: around%03d is not on the board", f.name, i)
				}
				start := max(pos-limit/2, 0)
				page, after := all(aq)
				want := board[start:]
				got := append(page, after...)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s, limit %d, around%03d (#%d at %d): the page and after\n%v\nwant the board's from %d\n%v", f.name, limit, i, board[pos].Rank, pos, got, start, want)
				}
				if len(page) != min(limit, len(board)-start) {
					t.Errorf("%s, limit %d, around%03d: %d rows, want %d", f.name, limit, i, len(page), min(limit, len(board)-start))
				}
				checked++
			}
		}
	}
	if checked < 150 || ties < 20 {
		t.Fatalf("%d players' pages checked, %d ties: the test proves little", checked, ties)
	}

	// Refusals: an unknown or malformed ID, and around with a cursor.
	for _, id := range []string{uuid.NewString(), "not-a-uuid"} {
		_, _, err := ratings.Leaderboard(ctx, league.LeaderboardQuery{Pool: rating.PoolStacks, Around: id})
		if league.ErrorCode(err) != league.ENOTFOUND || !namesField(err, "around") {
			t.Errorf("around %q: %v, want not found naming around", id, err)
		}
	}
	_, next, err := ratings.Leaderboard(ctx, league.LeaderboardQuery{Pool: rating.PoolStacks, Limit: 3})
	if err != nil || next == "" {
		t.Fatal(next, err)
	}
	_, _, err = ratings.Leaderboard(ctx, league.LeaderboardQuery{Pool: rating.PoolStacks, Limit: 3, Cursor: next, Around: users[10]})
	if league.ErrorCode(err) != league.EINVALID || !namesField(err, "around") {
		t.Errorf("around with a cursor: %v, want invalid naming around", err)
	}
}

func namesField(err error, field string) bool {
	le, ok := err.(*league.Error)
	return ok && len(le.Fields) == 1 && le.Fields[0].Field == field
}
