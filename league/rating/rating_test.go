package rating

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// established is a non-provisional player (K = 20) rated r.
func established(r float64) PlayerState {
	return PlayerState{Rating: r, Games: 100, Peak: max(r, InitialRating)}
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

func deltas(t *testing.T, seats []Seat, winner int) []float64 {
	t.Helper()
	changes, err := Apply(seats, winner)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	out := make([]float64, len(changes))
	for i, c := range changes {
		out[i] = round1(c.Delta)
	}
	return out
}

func TestThreeTeamsMiddleTeamWins(t *testing.T) {
	seats := []Seat{
		{Player: "a", Team: 0, State: established(1600)},
		{Player: "b", Team: 1, State: established(1500)},
		{Player: "c", Team: 2, State: established(1400)},
	}
	got := deltas(t, seats, 1)
	want := []float64{-9.0, +10.0, -1.0}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestApply(t *testing.T) {
	tests := []struct {
		name   string
		seats  []Seat
		winner int
		want   []float64
	}{
		{
			name: "equal two-team winner gains half K",
			seats: []Seat{
				{Player: "a", Team: 0, State: established(1500)},
				{Player: "b", Team: 1, State: established(1500)},
			},
			winner: 0,
			want:   []float64{10, -10},
		},
		{
			name: "favourite beating underdog gains little",
			seats: []Seat{
				{Player: "a", Team: 0, State: established(1800)},
				{Player: "b", Team: 1, State: established(1400)},
			},
			winner: 0,
			want:   []float64{1.8, -1.8},
		},
		{
			name: "underdog upset gains much",
			seats: []Seat{
				{Player: "a", Team: 0, State: established(1800)},
				{Player: "b", Team: 1, State: established(1400)},
			},
			winner: 1,
			want:   []float64{-18.2, 18.2},
		},
		{
			name: "draw between equals changes nothing",
			seats: []Seat{
				{Player: "a", Team: 0, State: established(1500)},
				{Player: "b", Team: 1, State: established(1500)},
			},
			winner: -1,
			want:   []float64{0, 0},
		},
		{
			name: "draw moves ratings toward each other",
			seats: []Seat{
				{Player: "a", Team: 0, State: established(1700)},
				{Player: "b", Team: 1, State: established(1500)},
			},
			winner: -1,
			want:   []float64{-5.2, 5.2},
		},
		{
			name: "three-team draw between equals changes nothing",
			seats: []Seat{
				{Player: "a", Team: 0, State: established(1500)},
				{Player: "b", Team: 1, State: established(1500)},
				{Player: "c", Team: 2, State: established(1500)},
			},
			winner: -1,
			want:   []float64{0, 0, 0},
		},
		{
			// team ratings 1500 (1600, 1400) and 1500 (1500, 1500): the
			// team sum is +0.5, scaled by each player's own K.
			name: "teammates with different K move by their own K",
			seats: []Seat{
				{Player: "a1", Team: 0, State: established(1600)},
				{Player: "a2", Team: 0, State: PlayerState{Rating: 1400, Games: 3, Peak: 1500}},
				{Player: "b1", Team: 1, State: established(1500)},
				{Player: "b2", Team: 1, State: PlayerState{Rating: 1500, Games: 50, Peak: 2450}},
			},
			winner: 0,
			want:   []float64{10, 20, -10, -5},
		},
		{
			name: "abandoner on the winning team is rated as a loss",
			seats: []Seat{
				{Player: "a1", Team: 0, State: established(1500)},
				{Player: "a2", Team: 0, State: established(1500), Abandoned: true},
				{Player: "b1", Team: 1, State: established(1500)},
				{Player: "b2", Team: 1, State: established(1500)},
			},
			winner: 0,
			want:   []float64{10, -10, -10, -10},
		},
		{
			// c's team forfeited: a beat it (not ½ as the board says), b won.
			name: "abandoner in a three-team game loses to both other teams, which beat it",
			seats: []Seat{
				{Player: "a", Team: 0, State: established(1600)},
				{Player: "b", Team: 1, State: established(1500)},
				{Player: "c", Team: 2, State: established(1400), Abandoned: true},
			},
			winner: 1,
			want:   []float64{-4.0, 10.0, -6.0},
		},
		{
			name: "the opponent of a player who abandoned wins, even if the fill-in bot won the board",
			seats: []Seat{
				{Player: "a", Team: 0, State: established(1500), Abandoned: true},
				{Player: "b", Team: 1, State: established(1500)},
			},
			winner: 0,
			want:   []float64{-10, 10},
		},
		{
			// K/(N−1) = 10: a and c forfeited and draw with each other;
			// b beat both.
			name: "two teams that both abandoned draw with each other and lose to the rest",
			seats: []Seat{
				{Player: "a", Team: 0, State: established(1500), Abandoned: true},
				{Player: "b", Team: 1, State: established(1500)},
				{Player: "c", Team: 2, State: established(1500), Abandoned: true},
			},
			winner: 0,
			want:   []float64{-5, 10, -5},
		},
		{
			// six equal players, each a team of one, K/(N−1) = 4: the
			// winner gets 4 × 5 × ½ = 10; each other player loses ½ to the
			// winner and breaks even with the rest, 4 × −½ = −2.
			name: "stacks free-for-all of six equal players",
			seats: []Seat{
				{Player: "p1", Team: 0, State: established(1500)},
				{Player: "p2", Team: 1, State: established(1500)},
				{Player: "p3", Team: 2, State: established(1500)},
				{Player: "p4", Team: 3, State: established(1500)},
				{Player: "p5", Team: 4, State: established(1500)},
				{Player: "p6", Team: 5, State: established(1500)},
			},
			winner: 3,
			want:   []float64{-2, -2, -2, 10, -2, -2},
		},
		{
			name: "stacks free-for-all of six rated players",
			seats: []Seat{
				{Player: "p1", Team: 0, State: established(1900)},
				{Player: "p2", Team: 1, State: established(1700)},
				{Player: "p3", Team: 2, State: established(1600)},
				{Player: "p4", Team: 3, State: established(1500)},
				{Player: "p5", Team: 4, State: established(1400)},
				{Player: "p6", Team: 5, State: established(1300)},
			},
			winner: 5,
			want:   []float64{-9.7, -5.6, -3.0, -0.4, 2.2, 16.5},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := deltas(t, tt.seats, tt.winner)
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestZeroSumWhenAllKEqual(t *testing.T) {
	ratings := []float64{1320, 1488.5, 1502, 1650, 1777, 2010}
	for teams := 2; teams <= 6; teams++ {
		for winner := -1; winner < teams; winner++ {
			var seats []Seat
			for i := 0; i < teams*2; i++ {
				r := ratings[i%len(ratings)] + float64(i)
				seats = append(seats, Seat{Player: fmt.Sprint("p", i), Team: i % teams, State: established(r)})
			}
			changes, err := Apply(seats, winner)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0.0
			for _, c := range changes {
				sum += c.Delta
			}
			if math.Abs(sum) > 1e-9 {
				t.Errorf("%d teams, winner %d: sum of changes got %g, want 0", teams, winner, sum)
			}
		}
	}
}

func TestKFactor(t *testing.T) {
	tests := []struct {
		name  string
		state PlayerState
		want  float64
	}{
		{"new player is provisional at 40", NewState(), 40},
		{"29 games is still provisional", PlayerState{Rating: 1600, Games: 29, Peak: 1600}, 40},
		{"30 games is established at 20", PlayerState{Rating: 1600, Games: 30, Peak: 1600}, 20},
		{"reaching 2400 drops to 10", PlayerState{Rating: 2400, Games: 80, Peak: 2400}, 10},
		{"having reached 2400 keeps 10 after a fall", PlayerState{Rating: 2250, Games: 90, Peak: 2401}, 10},
		{"just under 2400 is 20", PlayerState{Rating: 2399.9, Games: 90, Peak: 2399.9}, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := K(tt.state); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestProvisionalBecomesTwentyAfterThirtyGames(t *testing.T) {
	a, b := NewState(), NewState()
	for g := 0; g < 31; g++ {
		wantK := 40.0
		if g >= 30 {
			wantK = 20
		}
		changes, err := Apply([]Seat{{Player: "a", Team: 0, State: a}, {Player: "b", Team: 1, State: b}}, g%2)
		if err != nil {
			t.Fatal(err)
		}
		if changes[0].K != wantK {
			t.Fatalf("game %d: K got %v, want %v", g+1, changes[0].K, wantK)
		}
		a, b = changes[0].After, changes[1].After
	}
	if a.Games != 31 || a.Provisional() {
		t.Errorf("after 31 games got %+v, want 31 games and not provisional", a)
	}
}

func TestReachingMasterDropsKToTen(t *testing.T) {
	p := PlayerState{Rating: 2395, Games: 200, Peak: 2395}
	opp := established(2395)
	changes, err := Apply([]Seat{{Player: "p", Team: 0, State: p}, {Player: "o", Team: 1, State: opp}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	p = changes[0].After
	if p.Rating < MasterRating || p.Peak != p.Rating {
		t.Fatalf("after the win got %+v, want rating and peak ≥ 2400", p)
	}
	// Lose twice: the rating falls below 2400 but K stays 10.
	for i := 0; i < 2; i++ {
		changes, err = Apply([]Seat{{Player: "p", Team: 0, State: p}, {Player: "o", Team: 1, State: opp}}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if changes[0].K != KMaster {
			t.Errorf("loss %d: K got %v, want %v", i+1, changes[0].K, KMaster)
		}
		p = changes[0].After
	}
	if p.Rating >= MasterRating || p.Peak < MasterRating {
		t.Errorf("after the losses got %+v, want rating below and peak at or above 2400", p)
	}
}

func TestDisplay(t *testing.T) {
	tests := []struct {
		name  string
		state PlayerState
		want  string
	}{
		{"provisional shows a question mark", PlayerState{Rating: 1540.4, Games: 3}, "1540?"},
		{"established rounds half up", PlayerState{Rating: 1612.5, Games: 30}, "1613"},
		{"new player", NewState(), "1500?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Display(tt.state); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPoolFor(t *testing.T) {
	tests := []struct {
		game  string
		teams int
		want  string
	}{
		{"sequence", 2, PoolSequence2},
		{"sequence", 3, PoolSequence3},
		{"stacks", 4, PoolStacks},
		{"stacks", 2, PoolStacks},
		{"sequence", 4, ""},
		{"chess", 2, ""},
	}
	for _, tt := range tests {
		if got := PoolFor(tt.game, tt.teams); got != tt.want {
			t.Errorf("PoolFor(%q, %d): got %q, want %q", tt.game, tt.teams, got, tt.want)
		}
	}
}

func TestApplyRejectsBadGames(t *testing.T) {
	ok := established(1500)
	tests := []struct {
		name   string
		seats  []Seat
		winner int
	}{
		{"one seat", []Seat{{Player: "a", State: ok}}, 0},
		{"one team", []Seat{{Player: "a", State: ok}, {Player: "b", State: ok}}, 0},
		{"winner not in game", []Seat{{Player: "a", State: ok}, {Player: "b", Team: 1, State: ok}}, 2},
		{"player seated twice", []Seat{{Player: "a", State: ok}, {Player: "a", Team: 1, State: ok}}, 0},
		{"negative team", []Seat{{Player: "a", Team: -1, State: ok}, {Player: "b", Team: 1, State: ok}}, 1},
		{"NaN rating", []Seat{{Player: "a", State: PlayerState{Rating: math.NaN()}}, {Player: "b", Team: 1, State: ok}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Apply(tt.seats, tt.winner); !errors.Is(err, ErrInvalid) {
				t.Errorf("got %v, want ErrInvalid", err)
			}
		})
	}
}

func TestApplyDoesNotDependOnSeatOrder(t *testing.T) {
	seats := []Seat{
		{Player: "d", Team: 1, State: established(1433.3)},
		{Player: "a", Team: 0, State: established(1612.7)},
		{Player: "c", Team: 2, State: PlayerState{Rating: 1501.1, Games: 4, Peak: 1510}},
		{Player: "b", Team: 0, State: established(1399.9)},
		{Player: "e", Team: 2, State: established(1777.7)},
		{Player: "f", Team: 1, State: established(1555.5), Abandoned: true},
	}
	first, err := Apply(seats, 2)
	if err != nil {
		t.Fatal(err)
	}
	byPlayer := map[string]Change{}
	for _, c := range first {
		byPlayer[c.Player] = c
	}
	reversed := slices.Clone(seats)
	slices.Reverse(reversed)
	second, err := Apply(reversed, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range second {
		if diff := cmp.Diff(byPlayer[c.Player], c); diff != "" {
			t.Errorf("player %s (-first +reversed):\n%s", c.Player, diff)
		}
	}
}

func TestReplayReproducesApply(t *testing.T) {
	players := []string{"ann", "bob", "cat", "dan", "eve", "fay"}
	var history []GameResult
	live := map[string]PlayerState{}
	state := func(p string) PlayerState {
		if s, ok := live[p]; ok {
			return s
		}
		return NewState()
	}
	for g := 0; g < 200; g++ {
		var seats []Seat
		var rec GameResult
		teams := 2 + g%2
		for i := 0; i < teams*2; i++ {
			p := players[(g*7+i*5)%len(players)]
			if slices.ContainsFunc(seats, func(s Seat) bool { return s.Player == p }) {
				continue
			}
			team := i % teams
			seats = append(seats, Seat{Player: p, Team: team, State: state(p), Abandoned: g%17 == 0 && i == 0})
			rec.Seats = append(rec.Seats, GameSeat{Player: p, Team: team, Abandoned: g%17 == 0 && i == 0})
		}
		rec.Winner = g%(teams+1) - 1
		changes, err := Apply(seats, rec.Winner)
		if err != nil {
			t.Fatalf("game %d: %v", g, err)
		}
		for _, c := range changes {
			live[c.Player] = c.After
		}
		// the history records seats in a different order than played
		slices.Reverse(rec.Seats)
		history = append(history, rec)
	}
	replayed, err := Replay(history)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(live, replayed); diff != "" {
		t.Errorf("replay differs (-live +replayed):\n%s", diff)
	}
}
