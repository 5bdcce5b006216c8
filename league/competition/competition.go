package competition

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Errors. Every error the package returns wraps one of them, so the
// service layer can map them to league error codes with errors.Is.
var (
	// ErrInvalid: the input breaks a rule (league.EINVALID).
	ErrInvalid = errors.New("competition: invalid")
	// ErrState: the competition is not in a state that allows the
	// request, such as reporting a match that is not ready
	// (league.EPRECONDITION).
	ErrState = errors.New("competition: not allowed now")
)

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// Reason is err's message for people: without the package's prefix
// ("competition: invalid: "), which says which sentinel it wraps.
func Reason(err error) string {
	msg := err.Error()
	for _, sentinel := range []error{ErrInvalid, ErrState} {
		if rest, ok := strings.CutPrefix(msg, sentinel.Error()+": "); ok {
			return rest
		}
	}
	return msg
}

func statef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrState, fmt.Sprintf(format, args...))
}

// Format is a competition format.
type Format string

// Formats.
const (
	FormatRoundRobin        Format = "round-robin"
	FormatSwiss             Format = "swiss"
	FormatSingleElimination Format = "single-elimination"
	FormatDoubleElimination Format = "double-elimination"
	FormatGroupsPlayoffs    Format = "groups-playoffs"
)

// Limits.
const (
	MinMatchSize = 2
	MaxMatchSize = 6 // Stacks tables seat up to six players
	MaxEntries   = 10000
	// MaxSwissRounds: twice the default for MaxEntries in matches of two
	// (14); a longer Swiss is a league, better run as a round robin.
	MaxSwissRounds = 30
	// MaxGroups and MaxAdvance bound a group stage: 64 groups of two
	// already make a 10,000-entry event impossible to follow, and more
	// than 32 of one group going through is no group stage at all.
	MaxGroups  = 64
	MaxAdvance = 32
)

// SettingError is a setting that is wrong whatever the entries. Setting
// names it as the API does (match_size, rounds, groups, advance,
// third_place, best_of, tie_breaks[i], format), so the service can point
// at it.
type SettingError struct {
	Setting string
	Message string
}

func (e SettingError) Error() string {
	return fmt.Sprintf("%v: %s: %s", ErrInvalid, e.Setting, e.Message)
}

func (e SettingError) Unwrap() error { return ErrInvalid }

// CheckSettings lists the settings that no number of entries makes valid,
// so that a competition is refused when it is set up rather than when it
// is due to start. Validate checks them too.
func (c Config) CheckSettings() []SettingError {
	var out []SettingError
	bad := func(setting, format string, args ...any) {
		out = append(out, SettingError{Setting: setting, Message: fmt.Sprintf(format, args...)})
	}
	switch c.Format {
	case FormatRoundRobin, FormatSwiss, FormatSingleElimination, FormatDoubleElimination, FormatGroupsPlayoffs:
	default:
		bad("format", "unknown format %q", c.Format)
	}
	if c.MatchSize < MinMatchSize || c.MatchSize > MaxMatchSize {
		bad("match_size", "must be %d–%d", MinMatchSize, MaxMatchSize)
	}
	if c.BestOf < 0 {
		bad("best_of", "must not be negative")
	}
	if c.Rounds < 0 || c.Rounds > MaxSwissRounds {
		bad("rounds", "must be 0 (enough to find a winner) to %d", MaxSwissRounds)
	}
	if c.Groups < 0 || c.Groups > MaxGroups {
		bad("groups", "must be 0–%d", MaxGroups)
	}
	if c.Advance < 0 || c.Advance > MaxAdvance {
		bad("advance", "must be 0–%d", MaxAdvance)
	}
	if len(c.TieBreaks) > len(TieBreaks) {
		bad("tie_breaks", "at most %d, each once", len(TieBreaks))
	} else {
		for i, tb := range c.TieBreaks {
			switch {
			case !slices.Contains(TieBreaks, tb):
				bad(fmt.Sprintf("tie_breaks[%d]", i), "unknown tie-break %q", tb)
			case slices.Contains(c.TieBreaks[:i], tb):
				bad(fmt.Sprintf("tie_breaks[%d]", i), "%s is listed twice", tb)
			}
		}
	}
	// A setting of another format is a mistake to point out: the organizer
	// meant something the format will not do.
	knockout := c.Format == FormatSingleElimination || c.Format == FormatGroupsPlayoffs
	notHere := func(setting string, given bool, formats ...Format) {
		if given && !slices.Contains(formats, c.Format) {
			bad(setting, "is not a setting of %s (only of %s)", c.Format, formatList(formats))
		}
	}
	notHere("double", c.Double, FormatRoundRobin, FormatGroupsPlayoffs)
	notHere("rounds", c.Rounds > 0, FormatSwiss)
	notHere("third_place", c.ThirdPlace, FormatSingleElimination, FormatGroupsPlayoffs)
	notHere("reset", c.Reset, FormatDoubleElimination)
	notHere("groups", c.Groups > 0, FormatGroupsPlayoffs)
	notHere("advance", c.Advance > 0, FormatGroupsPlayoffs)
	if c.ThirdPlace && c.MatchSize != 2 && knockout {
		bad("third_place", "a third-place match needs matches of two")
	}
	switch c.Format {
	case FormatDoubleElimination:
		if c.MatchSize != 2 {
			bad("match_size", "double elimination is played in matches of two")
		}
	case FormatGroupsPlayoffs:
		if c.Groups < 1 {
			bad("groups", "groups-playoffs needs 1–%d groups", MaxGroups)
		}
		if c.Advance < 1 {
			bad("advance", "groups-playoffs needs 1–%d of each group to advance", MaxAdvance)
		}
		inRange := c.Groups >= 1 && c.Groups <= MaxGroups && c.Advance >= 1 && c.Advance <= MaxAdvance
		if inRange && c.Groups*c.Advance < 2 {
			bad("advance", "only %d entries would reach the playoffs", c.Groups*c.Advance)
		}
	}
	return out
}

// Entry is one participant: an individual or a fixed team.
type Entry struct {
	ID string
	// Seed is the entry's seed, 1 the top; 0 means unseeded, ranked after
	// the seeded entries by Rating.
	Seed   int
	Rating float64
	// Withdrawn: the entry left after the start. A round robin keeps it in
	// its schedule (so a withdrawal never changes who meets whom), and its
	// remaining meetings become byes for the others.
	Withdrawn bool
}

// SeedOrder returns the entries in seeding order: seeded entries by seed,
// then the others by rating (highest first), then by ID. Every format
// treats position i of this order as seed i+1.
func SeedOrder(entries []Entry) []Entry {
	out := slices.Clone(entries)
	slices.SortStableFunc(out, compareSeed)
	return out
}

func compareSeed(a, b Entry) int {
	switch {
	case a.Seed > 0 && b.Seed > 0 && a.Seed != b.Seed:
		return cmp.Compare(a.Seed, b.Seed)
	case a.Seed > 0 && b.Seed <= 0:
		return -1
	case a.Seed <= 0 && b.Seed > 0:
		return 1
	case a.Rating != b.Rating:
		return cmp.Compare(b.Rating, a.Rating)
	}
	return strings.Compare(a.ID, b.ID)
}

// checkEntries validates entries and returns them in seed order.
func checkEntries(entries []Entry, min int) ([]Entry, error) {
	if len(entries) < min {
		return nil, invalidf("%d entries, want at least %d", len(entries), min)
	}
	if len(entries) > MaxEntries {
		return nil, invalidf("%d entries, want at most %d", len(entries), MaxEntries)
	}
	seen := make(map[string]bool, len(entries))
	for _, e := range entries {
		if e.ID == "" {
			return nil, invalidf("an entry has no ID")
		}
		if seen[e.ID] {
			return nil, invalidf("entry %q appears twice", e.ID)
		}
		seen[e.ID] = true
	}
	return SeedOrder(entries), nil
}

func checkMatchSize(size int) error {
	if size < MinMatchSize || size > MaxMatchSize {
		return invalidf("match size %d, want %d to %d", size, MinMatchSize, MaxMatchSize)
	}
	return nil
}

// Config describes a competition.
type Config struct {
	Format Format
	// MatchSize is the number of entries (teams) per match: 2 or 3 for
	// Sequence, 2 to 6 for a Stacks free-for-all.
	MatchSize int
	// BestOf is the number of games a match is played over; 0 or 1 is a
	// single game.
	BestOf int
	// Double: a round robin (or the group stage) in which every pair
	// meets twice.
	Double bool
	// Rounds: the number of Swiss rounds (0: SwissRounds).
	Rounds int
	// ThirdPlace: single elimination of two-entry matches plays a match
	// between the semi-final losers.
	ThirdPlace bool
	// Reset: double elimination plays a second grand final when the
	// losers-bracket champion wins the first.
	Reset bool
	// Groups and Advance: the number of groups and how many of each group
	// go on to the playoffs.
	Groups  int
	Advance int
	// Points and TieBreaks rank round-based standings; zero values take
	// DefaultPoints and DefaultTieBreaks.
	Points    Points
	TieBreaks []TieBreak
	// Schedule is a round robin's rounds, or a group stage's (every
	// group's round r together), as DrawSchedule drew them when the
	// competition started. Pairing and the groups' completeness read it
	// when set, so that a change to the schedule search (which draws some
	// fields otherwise from one version to the next) never reshuffles a
	// competition being played; nil: drawn again from the entries.
	Schedule []Round
}

// DrawSchedule draws the fixed rounds of a round robin, or of the group
// stage of groups then playoffs, from the entries that start (nil for
// formats paired as they go), to be kept as Config.Schedule.
func DrawSchedule(c Config, entries []Entry) ([]Round, error) {
	switch c.Format {
	case FormatRoundRobin:
		return RoundRobin(entries, c.MatchSize, c.Double)
	case FormatGroupsPlayoffs:
		var out []Round
		for n := 1; ; n++ {
			r, err := groupRound(c, stillPlaying(entries), n)
			if errors.Is(err, ErrState) {
				return out, nil
			}
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return nil, nil
}

// Validate checks the configuration for a competition of n entries.
func (c Config) Validate(n int) error {
	if errs := c.CheckSettings(); len(errs) > 0 {
		return errs[0]
	}
	if n > MaxEntries {
		return invalidf("%d entries, want at most %d", n, MaxEntries)
	}
	switch c.Format {
	case FormatRoundRobin:
		if n < c.MatchSize {
			return invalidf("matches of %d teams need at least %d entries", c.MatchSize, c.MatchSize)
		}
		if n > MaxRoundRobinEntries {
			return invalidf("%d entries, want at most %d for a round robin", n, MaxRoundRobinEntries)
		}
	case FormatSwiss:
		if n < c.MatchSize {
			return invalidf("matches of %d teams need at least %d entries", c.MatchSize, c.MatchSize)
		}
	case FormatSingleElimination, FormatDoubleElimination:
		if n < 2 {
			return invalidf("a knockout needs at least 2 entries")
		}
	case FormatGroupsPlayoffs:
		if n < c.Groups*c.MatchSize {
			return invalidf("%d groups of %d-team matches need at least %d entries", c.Groups, c.MatchSize, c.Groups*c.MatchSize)
		}
		if (n+c.Groups-1)/c.Groups > MaxRoundRobinEntries {
			return invalidf("groups of %d, want at most %d", (n+c.Groups-1)/c.Groups, MaxRoundRobinEntries)
		}
		if c.Advance > n/c.Groups {
			return invalidf("%d advance from groups of %d", c.Advance, n/c.Groups)
		}
	}
	return nil
}

// Pairing is one match of a round-based format (round robin, Swiss or a
// group stage).
type Pairing struct {
	ID      string   // unique in the competition: "R3-2", or "B-R3-2" in group B
	Group   string   // the group's name in a group stage, else ""
	Entries []string // entry IDs in seat order: the first seat starts
}

// Round is one round of a round-based format.
type Round struct {
	Number  int
	Matches []Pairing
	Byes    []string // entries that sit the round out, scored as Points.Bye
}

// Result is the outcome of one match (or bye) of a round-based format.
type Result struct {
	Round   int
	Match   string   // the Pairing ID, optional
	Entries []string // as paired; the one entry for a bye
	Bye     bool
	// Winner is the winning entry; "" is a draw, shared by every entry but
	// those Beaten.
	Winner string
	// Beaten, in a match of three or more entries with no winner, are the
	// entries that finished below those level at the top (fewer game wins
	// in a series): they lose it, and the others share the draw.
	Beaten []string
	// Sequences, when given, holds each entry's sequences scored in the
	// match (summed over its games), in the order of Entries.
	Sequences []int
	// Forfeited are the entries that never played the match, absent: it
	// counts as scored in the standings, but its meetings with them as
	// unplayed in the tie-breaks (see opponentScores).
	Forfeited []string
}

// Outcome is how a match ended for one of its entries.
type Outcome int

const (
	Lost Outcome = iota
	Drew
	Won
)

// Outcome is how the match ended for entry id.
func (r Result) Outcome(id string) Outcome {
	switch {
	case r.Winner == id:
		return Won
	case r.Winner == "" && !slices.Contains(r.Beaten, id):
		return Drew
	}
	return Lost
}

// checkOutcome says what is wrong with a match result's winner and beaten
// entries, if anything: the n-th result.
func (r Result) checkOutcome(n int) error {
	if r.Winner != "" && !slices.Contains(r.Entries, r.Winner) {
		return invalidf("result %d: winner %q did not play", n, r.Winner)
	}
	for _, id := range r.Beaten {
		if r.Winner != "" || !slices.Contains(r.Entries, id) {
			return invalidf("result %d: %q beaten in a match it did not draw", n, id)
		}
	}
	return nil
}

// NextRound pairs round number round (1-based) of a round-based format:
// the round robin (its fixed schedule), Swiss (from the results so far) or
// the group stage of groups-then-playoffs (every group's round). history
// holds the results of the earlier rounds, byes included; entries are every
// entry that started, those withdrawn since marked so.
func NextRound(c Config, entries []Entry, history []Result, round int) (Round, error) {
	if round < 1 {
		return Round{}, invalidf("round %d", round)
	}
	playing := stillPlaying(entries)
	switch c.Format {
	case FormatRoundRobin:
		// The schedule is drawn over every entry that started: drawn over
		// the entries left, one withdrawal would reshuffle the circle and
		// bring rematches while other pairs never met.
		if err := c.Validate(len(entries)); err != nil {
			return Round{}, err
		}
		rounds := c.Schedule
		if rounds == nil {
			var err error
			if rounds, err = RoundRobin(entries, c.MatchSize, c.Double); err != nil {
				return Round{}, err
			}
		}
		if round > len(rounds) {
			return Round{}, statef("the round robin has %d rounds", len(rounds))
		}
		return withoutWithdrawn(rounds[round-1], entries), nil
	case FormatSwiss:
		if round > 1 && len(playing) < c.MatchSize {
			// Withdrawals (or no-shows withdrawn) left too few to pair: the
			// Swiss is over, its standings final, rather than stuck.
			return Round{}, statef("the Swiss is over: %d entries are left to pair", len(playing))
		}
		if err := c.Validate(len(playing)); err != nil {
			return Round{}, err
		}
		rounds := c.Rounds
		if rounds == 0 {
			rounds = SwissRounds(len(playing), c.MatchSize)
		}
		if round > rounds {
			return Round{}, statef("the Swiss has %d rounds", rounds)
		}
		return SwissRound(playing, history, round, c.MatchSize, c.points())
	case FormatGroupsPlayoffs:
		if err := c.Validate(len(playing)); err != nil {
			return Round{}, err
		}
		if c.Schedule != nil {
			if round > len(c.Schedule) {
				return Round{}, statef("the group stage has %d rounds", len(c.Schedule))
			}
			return c.Schedule[round-1], nil
		}
		return groupRound(c, playing, round)
	}
	return Round{}, invalidf("%s is not played in rounds", c.Format)
}

func stillPlaying(entries []Entry) []Entry {
	return slices.DeleteFunc(slices.Clone(entries), func(e Entry) bool { return e.Withdrawn })
}

// withoutWithdrawn takes the withdrawn entries out of a round: a match
// left with one entry is a bye for it, one left with two or more is played
// by them (a three-team match as a two-team one).
func withoutWithdrawn(r Round, entries []Entry) Round {
	gone := map[string]bool{}
	for _, e := range entries {
		if e.Withdrawn {
			gone[e.ID] = true
		}
	}
	if len(gone) == 0 {
		return r
	}
	out := Round{Number: r.Number}
	for _, m := range r.Matches {
		left := slices.DeleteFunc(slices.Clone(m.Entries), func(id string) bool { return gone[id] })
		switch {
		case len(left) >= 2:
			m.Entries = left
			out.Matches = append(out.Matches, m)
		case len(left) == 1:
			out.Byes = append(out.Byes, left[0])
		}
	}
	for _, id := range r.Byes {
		if !gone[id] {
			out.Byes = append(out.Byes, id)
		}
	}
	return out
}

func formatList(fs []Format) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = string(f)
	}
	return strings.Join(names, " and ")
}

func (c Config) points() Points {
	if c.Points == (Points{}) {
		return DefaultPoints(c.Format, c.MatchSize)
	}
	return c.Points
}

func (c Config) tieBreaks() []TieBreak {
	if c.TieBreaks == nil {
		return DefaultTieBreaks(c.Format)
	}
	return c.TieBreaks
}

func pairingID(group string, round, index int) string {
	if group == "" {
		return fmt.Sprintf("R%d-%d", round, index)
	}
	return fmt.Sprintf("%s-R%d-%d", group, round, index)
}
