package rating

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Pools.
const (
	PoolSequence2 = "sequence-2team"
	PoolSequence3 = "sequence-3team"
	PoolStacks    = "stacks"
)

// Rating constants.
const (
	InitialRating    = 1500.0
	ProvisionalGames = 30     // games played with K = 40
	MasterRating     = 2400.0 // reaching it drops K to 10 for good

	KProvisional = 40.0
	KEstablished = 20.0
	KMaster      = 10.0
)

// ErrInvalid is wrapped by every error Apply and Replay return: the input
// breaks a rule (the game cannot be rated as given).
var ErrInvalid = errors.New("rating: invalid game")

// PoolFor is the pool a game is rated in: game is "sequence" (either deck)
// or "stacks", teams the number of teams (for Stacks, the players). It is ""
// for a game that is not rated in any pool.
func PoolFor(game string, teams int) string {
	switch game {
	case "sequence":
		switch teams {
		case 2:
			return PoolSequence2
		case 3:
			return PoolSequence3
		}
	case "stacks":
		if teams >= 2 {
			return PoolStacks
		}
	}
	return ""
}

// PlayerState is a player's standing in one pool.
type PlayerState struct {
	Rating float64
	Games  int     // rated games played in the pool
	Peak   float64 // the highest rating ever held in the pool
}

// NewState is the state of a player who has not played in the pool.
func NewState() PlayerState {
	return PlayerState{Rating: InitialRating, Peak: InitialRating}
}

// Provisional reports whether the player is still in their first
// ProvisionalGames games.
func (s PlayerState) Provisional() bool { return s.Games < ProvisionalGames }

// K is the player's K factor for their next game.
func K(s PlayerState) float64 {
	switch {
	case s.Peak >= MasterRating || s.Rating >= MasterRating:
		return KMaster
	case s.Provisional():
		return KProvisional
	default:
		return KEstablished
	}
}

// Display is the rating as shown: rounded to a whole number, with a
// question mark while provisional ("1540?").
func Display(s PlayerState) string {
	text := strconv.FormatFloat(math.Round(s.Rating), 'f', 0, 64)
	if text == "-0" {
		text = "0"
	}
	if s.Provisional() {
		return text + "?"
	}
	return text
}

// Seat is one player in a game to rate.
type Seat struct {
	Player string
	Team   int // team index, 0…; in Stacks every player has a team of their own
	State  PlayerState
	// Abandoned is set when a fill-in bot took the seat over after the
	// player left: the player is rated as losing to every other team.
	Abandoned bool
}

// Change is one player's result of Apply.
type Change struct {
	Player string
	Team   int
	K      float64
	Delta  float64
	Before PlayerState
	After  PlayerState
}

// expected is E(T, O), the score team T (rated rt) is expected to make
// against team O (rated ro).
func expected(rt, ro float64) float64 {
	return 1 / (1 + math.Pow(10, (ro-rt)/400))
}

// Apply rates one finished game. winner is the winning team's index, or -1
// for a draw. It returns one Change per seat, in the order of seats; the
// result does not depend on that order.
func Apply(seats []Seat, winner int) ([]Change, error) {
	teams, err := groupTeams(seats)
	if err != nil {
		return nil, err
	}
	if winner != -1 && !slices.ContainsFunc(teams, func(t team) bool { return t.index == winner }) {
		return nil, fmt.Errorf("%w: winner %d is not a team in the game", ErrInvalid, winner)
	}
	n := len(teams)
	// sums[i] is Σ over the other teams of (S − E) for team i, with S for
	// the team's players who played (played) and for those who abandoned
	// (abandoned).
	type sums struct{ played, abandoned float64 }
	totals := make([]sums, n)
	for i, t := range teams {
		for j, o := range teams {
			if i == j {
				continue
			}
			e := expected(t.rating, o.rating)
			s := score(t.index, o.index, winner)
			switch {
			case t.forfeited && o.forfeited:
				s = 0.5
			case t.forfeited:
				s = 0
			case o.forfeited:
				s = 1
			}
			totals[i].played += s - e
			if t.forfeited {
				totals[i].abandoned += s - e
			} else {
				totals[i].abandoned += 0 - e
			}
		}
	}
	changes := make([]Change, len(seats))
	for si, s := range seats {
		ti := slices.IndexFunc(teams, func(t team) bool { return t.index == s.Team })
		sum := totals[ti].played
		if s.Abandoned {
			sum = totals[ti].abandoned
		}
		k := K(s.State)
		delta := float64(float64(k/float64(n-1)) * sum) // conversions forbid fusing into the add below
		after := s.State
		after.Rating = s.State.Rating + delta
		after.Games++
		after.Peak = max(s.State.Peak, s.State.Rating, after.Rating)
		changes[si] = Change{Player: s.Player, Team: s.Team, K: k, Delta: delta, Before: s.State, After: after}
	}
	return changes, nil
}

// score is S(t, o) for the game's winner (-1: a draw).
func score(t, o, winner int) float64 {
	switch winner {
	case t:
		return 1
	case o:
		return 0
	}
	return 0.5
}

type team struct {
	index     int
	rating    float64 // mean of the players' ratings
	forfeited bool    // every player abandoned
}

// groupTeams checks the seats and returns the teams in index order with
// their mean ratings, summed over players in ID order.
func groupTeams(seats []Seat) ([]team, error) {
	if len(seats) < 2 {
		return nil, fmt.Errorf("%w: %d seats, want at least 2", ErrInvalid, len(seats))
	}
	sorted := slices.Clone(seats)
	slices.SortFunc(sorted, func(a, b Seat) int {
		if a.Team != b.Team {
			return a.Team - b.Team
		}
		return strings.Compare(a.Player, b.Player)
	})
	var teams []team
	for i := 0; i < len(sorted); {
		s := sorted[i]
		if s.Team < 0 {
			return nil, fmt.Errorf("%w: player %q has team %d", ErrInvalid, s.Player, s.Team)
		}
		j, sum, forfeited := i, 0.0, true
		for ; j < len(sorted) && sorted[j].Team == s.Team; j++ {
			p := sorted[j]
			forfeited = forfeited && p.Abandoned
			if p.Player == "" {
				return nil, fmt.Errorf("%w: a seat has no player", ErrInvalid)
			}
			if j > i && sorted[j-1].Player == p.Player {
				return nil, fmt.Errorf("%w: player %q is seated twice", ErrInvalid, p.Player)
			}
			if math.IsNaN(p.State.Rating) || math.IsInf(p.State.Rating, 0) || p.State.Games < 0 {
				return nil, fmt.Errorf("%w: player %q has state %+v", ErrInvalid, p.Player, p.State)
			}
			sum += p.State.Rating
		}
		teams = append(teams, team{index: s.Team, rating: sum / float64(j-i), forfeited: forfeited})
		i = j
	}
	seen := map[string]bool{}
	for _, s := range seats {
		if seen[s.Player] {
			return nil, fmt.Errorf("%w: player %q is seated twice", ErrInvalid, s.Player)
		}
		seen[s.Player] = true
	}
	if len(teams) < 2 {
		return nil, fmt.Errorf("%w: only one team", ErrInvalid)
	}
	return teams, nil
}

// GameResult is one rated game of a pool's history.
type GameResult struct {
	Seats  []GameSeat
	Winner int // team index, or -1 for a draw
}

// GameSeat is a seat of a GameResult; the state comes from the replay.
type GameSeat struct {
	Player    string
	Team      int
	Abandoned bool
}

// Replay rates games in order, starting every player from NewState, and
// returns everyone's final state. Replaying a pool's games in the order
// they finished reproduces the states Apply produced when they were played.
func Replay(games []GameResult) (map[string]PlayerState, error) {
	return ReplayEach(games, nil)
}

// ReplayEach is Replay that also hands each game's changes, in order, to
// each (if not nil): the history the replay makes, to check the stored one
// against.
func ReplayEach(games []GameResult, each func(game int, changes []Change)) (map[string]PlayerState, error) {
	states := map[string]PlayerState{}
	for gi, g := range games {
		seats := make([]Seat, len(g.Seats))
		for i, s := range g.Seats {
			st, ok := states[s.Player]
			if !ok {
				st = NewState()
			}
			seats[i] = Seat{Player: s.Player, Team: s.Team, State: st, Abandoned: s.Abandoned}
		}
		changes, err := Apply(seats, g.Winner)
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", gi, err)
		}
		for _, c := range changes {
			states[c.Player] = c.After
		}
		if each != nil {
			each(gi, changes)
		}
	}
	return states, nil
}
