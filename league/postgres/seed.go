package postgres

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/seqleague/seqleague/league/rating"
)

// SeedResult reports what Seed created.
type SeedResult struct {
	Players int
	Games   int
}

// Seed bulk-loads synthetic data for benchmarks: players with ratings in
// the sequence-2team pool (normally distributed around 1500, with a spread
// of game counts so some are provisional), and finished, rated, unsettled
// 1-v-1 games between random players, ready for game:settle. It uses COPY,
// so a million players take seconds, not hours.
func Seed(ctx context.Context, db *DB, players, games int, seed uint64) (SeedResult, error) {
	conn, err := db.SQL.Conn(ctx)
	if err != nil {
		return SeedResult{}, err
	}
	defer conn.Close()
	var res SeedResult
	err = conn.Raw(func(dc any) error {
		pg := dc.(*stdlib.Conn).Conn()
		rnd := rand.New(rand.NewPCG(seed, seed^0x5eed))
		prefix := fmt.Sprintf("seed%x", rnd.Uint32())
		ids := make([]string, players)
		for i := range ids {
			ids[i] = fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", rnd.Uint32(), rnd.Uint32()&0xffff, rnd.Uint32()&0xfff, rnd.Uint32()&0xfff, rnd.Uint64()&0xffffffffffff)
		}
		now := time.Now().UTC()
		n, err := pg.CopyFrom(ctx, pgx.Identifier{"users"}, []string{"id", "username", "kind", "created_at"},
			pgx.CopyFromSlice(players, func(i int) ([]any, error) {
				return []any{ids[i], fmt.Sprintf("%s-%d", prefix, i), "human", now}, nil
			}))
		if pgErr := (*pgconn.PgError)(nil); errors.As(err, &pgErr) && pgErr.Code == "23505" {
			// The same seed makes the same accounts: they are here already.
			return fmt.Errorf("the players of seed %d are in this database already; give another --seed", seed)
		}
		if err != nil {
			return fmt.Errorf("copy users: %w", err)
		}
		res.Players = int(n)
		_, err = pg.CopyFrom(ctx, pgx.Identifier{"ratings"}, []string{"user_id", "pool", "rating", "games", "peak", "updated_at"},
			pgx.CopyFromSlice(players, func(i int) ([]any, error) {
				r := 1500 + rnd.NormFloat64()*200
				return []any{ids[i], rating.PoolSequence2, r, rnd.IntN(200), max(r, 1500), now}, nil
			}))
		if err != nil {
			return fmt.Errorf("copy ratings: %w", err)
		}
		if games == 0 || players < 2 {
			_, err = pg.Exec(ctx, "ANALYZE users; ANALYZE ratings")
			return err
		}
		gameIDs := make([]string, games)
		for i := range gameIDs {
			gameIDs[i] = fmt.Sprintf("%08x-%04x-4%03x-9%03x-%012x", rnd.Uint32(), rnd.Uint32()&0xffff, rnd.Uint32()&0xfff, rnd.Uint32()&0xfff, rnd.Uint64()&0xffffffffffff)
		}
		n, err = pg.CopyFrom(ctx, pgx.Identifier{"games"},
			[]string{"id", "kind", "variant", "players", "teams", "rated", "status", "seed", "seed_hash", "result_status", "winner", "started_at", "finished_at"},
			pgx.CopyFromSlice(games, func(i int) ([]any, error) {
				return []any{gameIDs[i], "sequence", "classic", 2, 2, true, "finished", []byte{0}, "", "finished", rnd.IntN(2), now, now}, nil
			}))
		if err != nil {
			return fmt.Errorf("copy games: %w", err)
		}
		res.Games = int(n)
		first := 0 // seat 0's player of the game being written
		_, err = pg.CopyFrom(ctx, pgx.Identifier{"game_seats"}, []string{"game_id", "seat", "user_id"},
			pgx.CopyFromSlice(games*2, func(i int) ([]any, error) {
				a := rnd.IntN(players)
				if i%2 == 0 {
					first = a
				} else {
					a = (first + 1 + rnd.IntN(players-1)) % players // anyone but seat 0's player
				}
				return []any{gameIDs[i/2], i % 2, ids[a]}, nil
			}))
		if err != nil {
			return fmt.Errorf("copy seats: %w", err)
		}
		_, err = pg.Exec(ctx, "ANALYZE users; ANALYZE ratings; ANALYZE games; ANALYZE game_seats")
		return err
	})
	return res, err
}
