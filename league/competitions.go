package league

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Name limits, in characters (runes), as the API states them: a name in
// accented or non-Latin letters gets as many characters as one in ASCII.
// NameMax bounds the name of a league, a season and a tournament.
const (
	NameMax      = 100
	EntryNameMax = 60
)

// NormalizeName trims the name of a league, a season or a tournament
// (TrimName) and checks it: 1 to NameMax characters of one line of
// visible text (PlainName). The fault, if any, is the field "name"'s.
func NormalizeName(name string) (string, *FieldError) {
	name = TrimName(name)
	if name == "" || utf8.RuneCountInString(name) > NameMax || !PlainName(name) {
		return name, &FieldError{"name", fmt.Sprintf("1–%d characters of one line of visible text", NameMax)}
	}
	return name, nil
}

// EntryNameOK says whether an entry name is a plain name of at most 60
// characters.
func EntryNameOK(name string) bool {
	return utf8.RuneCountInString(name) <= EntryNameMax && PlainName(name)
}

// TrimName is a display name as it is checked and kept: without the spaces
// around it, and in Unicode's composed form (NFC), so that "Café" typed with
// an é and with an e and a combining accent are one name to the unique
// indexes (lower(name)) as they are one to the eye.
func TrimName(name string) string { return norm.NFC.String(strings.TrimSpace(name)) }

// PlainName says whether a name is one line of text as it will be shown:
// no control characters (a line break, a tab) nor line or paragraph
// separators, no bidirectional mark, embedding, override or isolate (which
// would reorder the text shown around it: a name could make a standings
// row read as another's) and nothing invisible (a zero-width space, a
// byte-order mark, a soft hyphen, a word joiner, a combining grapheme
// joiner, a Hangul filler, a Braille blank, a variation selector that
// selects nothing: two names that look alike but differ). Joiners stay:
// some scripts and emoji need them, as a subdivision flag needs its tags
// and an emoji or a keycap its variation selector.
func PlainName(name string) bool {
	if !utf8.ValidString(name) {
		return false
	}
	runes := []rune(name)
	for i, r := range runes {
		prev, next := rune(0), rune(0)
		if i > 0 {
			prev = runes[i-1]
		}
		if i+1 < len(runes) {
			next = runes[i+1]
		}
		if !plainRune(r, prev, next) {
			return false
		}
	}
	return true
}

// plainRune says whether r, between prev and next, may stand in a plain
// name.
func plainRune(r, prev, next rune) bool {
	switch {
	case unicode.IsControl(r), unicode.In(r, unicode.Zl, unicode.Zp):
		return false
	case r == '\u200c', r == '\u200d': // zero-width non-joiner and joiner
		return true
	case isTag(r): // only in an emoji tag sequence: 🏴 and its tags make a flag
		return prev == '\U0001f3f4' || isTag(prev)
	case isVariationSelector(r):
		return selectsVariant(prev, next)
	case unicode.Is(unicode.Cf, r): // format characters: marks, overrides, isolates, invisibles
		return false
	case r == '\u034f', r == '\u17b4', r == '\u17b5': // marks that show as nothing (a grapheme joiner, Khmer's inherent vowels)
		return false
	case r == '\u115f', r == '\u1160', r == '\u3164', r == '\uffa0', r == '\u2800': // Hangul fillers and the Braille blank, which show as nothing
		return false
	}
	return true
}

// isVariationSelector says whether r is a variation selector (U+FE00–FE0F,
// U+E0100–E01EF).
func isVariationSelector(r rune) bool {
	return r >= '\ufe00' && r <= '\ufe0f' || r >= '\U000e0100' && r <= '\U000e01ef'
}

// selectsVariant says whether a variation selector after base (and before
// next) can change what is shown: an emoji's picture or text form, a
// keycap, a CJK ideograph's glyph. After a letter, a mark, a space, a joiner
// or another selector it selects nothing and shows as nothing ("ann" with a
// selector looks like "ann"); an ASCII digit, # or * varies only as a keycap.
func selectsVariant(base, next rune) bool {
	switch {
	case base < 0x80:
		return (base >= '0' && base <= '9' || base == '#' || base == '*') && next == '\u20e3'
	case unicode.Is(unicode.Han, base), base == '\u2139': // ideographs; ℹ, a letter with an emoji form
		return true
	case unicode.IsLetter(base), unicode.IsMark(base), unicode.IsSpace(base),
		isVariationSelector(base), base == '\u200c', base == '\u200d':
		return false
	}
	return true
}

// isTag says whether r is a tag character (U+E0020–U+E007F).
func isTag(r rune) bool { return r >= '\U000e0020' && r <= '\U000e007f' }

// Tournament statuses.
const (
	TournamentRegistration = "registration"
	TournamentRunning      = "running"
	TournamentPaused       = "paused"
	TournamentFinished     = "finished"
	// TournamentCancelled is a tournament an organizer called off: its
	// games still being played were aborted, its results stand as they
	// were, and nothing more of it is played.
	TournamentCancelled = "cancelled"
)

// TournamentLive says whether a tournament of this status may still be
// played: neither over nor called off.
func TournamentLive(status string) bool {
	return status != TournamentFinished && status != TournamentCancelled
}

// TournamentConfig is a tournament's set-up.
type TournamentConfig struct {
	Game           string
	Variant        string
	SequencesToWin int
	TeamSize       int // players per entry, 1–6
	MatchSize      int // entries per match: 2 or 3 (Stacks: 2–6)
	Format         string
	BestOf         int
	Double         bool
	Rounds         int // Swiss rounds (0: enough to find a winner)
	ThirdPlace     bool
	Reset          bool
	Groups         int
	Advance        int
	TieBreaks      []string
	Clock          Clock
	FillLevel      string
	Rated          bool
	// Registration window and entry limits.
	RegistrationOpens  *time.Time
	RegistrationCloses *time.Time
	MinRating          *float64
	MaxRating          *float64
	MinGames           int
	Seeding            string // rating, manual or random
	NoShow             string // bots: no-shows are played by bots; forfeit: they lose the match
	AtDeadline         string // bots: bots finish unfinished games; adjudicate: decided on the board
	RoundGapSeconds    int    // pause before an unscheduled next round
}

// NewTournament creates a tournament in a club (and optionally a season).
type NewTournament struct {
	ClubID   string
	SeasonID string
	Name     string
	Config   TournamentConfig
}

// Tournament is a tournament's record.
type Tournament struct {
	ID           string
	ClubID       string
	SeasonID     string
	Name         string
	Status       string
	Config       TournamentConfig
	CurrentRound int
	// RoundsPlanned is, once the tournament has started (Get only), how
	// many rounds it plays: its kept schedule's or bracket's, or its Swiss
	// rounds (0 before the start, while entries come and go); once
	// finished, the rounds it played.
	RoundsPlanned int
	Entries       int
	CreatedAt     time.Time
	StartedAt     *time.Time
	FinishedAt    *time.Time
	CancelledAt   *time.Time
}

// TournamentUpdate changes a tournament; nil fields stay.
type TournamentUpdate struct {
	Name   *string
	Status *string // running (start or resume), paused or cancelled
}

// EntryMember is one player of an entry: a person or a bot.
type EntryMember struct {
	UserID   string
	Username string
	Bot      string
}

// NewEntry registers an entry: the caller alone by default, or a named team
// (captain = the caller) or bots (organizers only).
type NewEntry struct {
	Name    string
	Members []EntryMember
	Seed    int // manual seeding (organizers only)
}

// Entry is one participant of a tournament.
type Entry struct {
	ID        string
	Name      string
	CaptainID string
	Seed      int
	Rating    float64
	Status    string
	Members   []EntryMember
}

// ScheduleHorizon is how far ahead a round may be scheduled: five years
// holds any league's calendar, and an unbounded time would reach years
// that JSON and iCalendar cannot write.
const ScheduleHorizon = 5 * 365 * 24 * time.Hour

// RoundSchedule schedules one round.
type RoundSchedule struct {
	Number   int
	StartsAt time.Time
	Deadline *time.Time
}

// TournamentMatch is one match of a round.
type TournamentMatch struct {
	ID          string
	Round       int
	Entries     []string
	Bye         bool
	Status      string
	Winner      string
	GameWinners []string
	Sequences   []int
	// Forfeited are the entries found absent under the forfeit no-show
	// policy: each lost the game it was absent from and the rest of the
	// series, which no later game of the match seats it for.
	Forfeited []string
	// Beaten, of a match of three or more finished with no winner, are the
	// entries below those level at the top by game wins: they lost it, and
	// the others drew (competition.Result.Beaten).
	Beaten []string
	Games  []string
	// StandIns are the entries of the match whose players left a seat of
	// one of its games to a fill-in bot (the seat filled by a bot and
	// abandoned: a no-show under the bots policy, or a player who left),
	// with those games and players; the result of such a game stands in
	// the tournament while the player's rating counts it as a loss.
	StandIns []StandIn
}

// StandIn is one entry of a match whose players a fill-in bot stood in for.
type StandIn struct {
	EntryID string
	// Games are the match's games (in their order) where it happened.
	Games []string
	// Players are the entry's players a bot stood in for, in the order of
	// their first such seat.
	Players []StandInPlayer
}

// StandInPlayer is a player a fill-in bot stood in for.
type StandInPlayer struct {
	UserID, Username string
}

// LateBy is how late a round scheduled at startsAt started at startedAt,
// in whole seconds (deadlines, and their tasks' IDs, count seconds): zero
// for a round started on time (within its first second, as a start task
// does) or early, or one with no schedule. A round that starts late keeps
// its planned length: its deadline moves later by this much.
func LateBy(startsAt, startedAt *time.Time) time.Duration {
	if startsAt == nil || startedAt == nil {
		return 0
	}
	return max(startedAt.Sub(*startsAt).Truncate(time.Second), 0)
}

// TournamentRound is a round with its matches.
type TournamentRound struct {
	Number   int
	StartsAt *time.Time // as scheduled
	// StartedAt is when the round was paired and its games created: its
	// start time if it was due then, later if the round before ran on, or
	// whenever an organizer started it.
	StartedAt *time.Time
	// Deadline is the round's deadline now: moved later by the lateness
	// when the round started late (see LateBy), or by an organizer.
	Deadline *time.Time
	// PlannedDeadline is the deadline as scheduled, set only while Deadline
	// is that one moved later because the round started late (nil once an
	// organizer moves it: their time is then the plan).
	PlannedDeadline *time.Time
	Status          string
	// StartError is why the round could not start when it was due, for an
	// organizer to act on ("" if it started or has not been due).
	StartError string
	// Revision counts an organizer's changes to the round's times after it
	// was scheduled (rescheduled, its deadline moved), the last at
	// RevisedAt: a calendar's SEQUENCE.
	Revision  int
	RevisedAt *time.Time
	Matches   []TournamentMatch
}

// TieBreakValue is one tie-break's value in a standings row.
type TieBreakValue struct {
	Name  string
	Value float64
}

// StandingRow is one line of a standings table.
type StandingRow struct {
	Rank    int
	EntryID string
	Name    string
	MatchRecord
	Points    float64
	TieBreaks []TieBreakValue
	// Group is the entry's group in groups then playoffs, once the groups
	// are drawn (at the start), and GroupRank its rank in that group's
	// table, which decides who reaches the playoffs; Rank stays its place
	// in the whole tournament (the playoffs first), which a season scores.
	// "" and 0 in other formats.
	Group     string
	GroupRank int
	// Qualified says, in groups then playoffs once the playoffs are drawn,
	// that the entry reached them: each group's top Advance, entries tied
	// at the cut on points and every tie-break going through by seed
	// (their shared GroupRank cannot say which did).
	Qualified bool
	// GroupStage is, with Group, the entry's record in the group stage
	// alone: the row's own MatchRecord counts the playoffs too, while
	// Points, the tie-breaks and GroupRank come from the group stage, and a
	// group's table shows its own matches beside them.
	GroupStage *MatchRecord
	// Withdrawn: the entry left after the start (round robin and Swiss);
	// it keeps its results and its place, and its opponents' tie-breaks
	// still count them.
	Withdrawn bool
}

// MatchRecord counts an entry's matches: a standings row's, or its group
// stage's alone.
type MatchRecord struct {
	Played, Wins, Draws, Losses, Byes, Sequences int
}

// UserTournament is a tournament one user plays in, with their entry and
// the next round's start.
type UserTournament struct {
	Tournament Tournament
	EntryID    string
	EntryName  string
	// Withdrawn: the entry left the tournament after its start; it has no
	// next round.
	Withdrawn bool
	// NextRound and NextStart are the tournament's next round (its first
	// not yet paired), whoever plays in it.
	NextRound int
	NextStart *time.Time
	// The entry's own next step, for a tournament being played and an
	// entry still in it (see EntryMatch, EntryNextRound): its match being
	// played now or of the round in play; its next round, once it is the
	// entry's; in a knockout, whether its next match waits for an
	// opponent, or whether it is knocked out.
	EntryMatch     *EntryMatch
	EntryNextRound *EntryNextRound
	EntryWaiting   bool
	KnockedOut     bool
}

// EntryMatch is an entry's match being played, or else its match of the
// round in play (over, or a bye).
type EntryMatch struct {
	Round   int
	MatchID string
	Status  string // playing, finished
	Bye     bool
	// GameID is the match's latest game: the one to play or watch while
	// the match is being played.
	GameID string
}

// EntryNextRound is the round an entry plays next, with its start if
// scheduled. In a knockout it is given only once the bracket seats the
// entry in a match of it, or, with IfThrough, while the entry's match is
// being played and only its winner goes on.
type EntryNextRound struct {
	Number    int
	StartsAt  *time.Time
	IfThrough bool
}

// OpenTournament is a tournament taking entries in one of a user's clubs,
// with the club's name (a member of many clubs has no list of them all to
// name it from).
type OpenTournament struct {
	Tournament
	ClubName string
	// Barred says why the tournament's entry limits (its rating band or
	// least number of rated games) refuse the user today; "" when they do
	// not.
	Barred string
}

// Tournaments runs tournaments.
type Tournaments interface {
	// ForUser lists the tournaments a user has an entry in, newest first.
	ForUser(ctx context.Context, userID string, p PageRequest) (Page[UserTournament], error)
	// OpenFor lists the tournaments of a user's clubs that take entries
	// (now or later) and that the user has not entered, newest first.
	OpenFor(ctx context.Context, userID string, p PageRequest) (Page[OpenTournament], error)
	Create(ctx context.Context, a Actor, req NewTournament) (*Tournament, error)
	Get(ctx context.Context, id string) (*Tournament, error)
	// List pages through a club's (or a season's) tournaments, newest first.
	List(ctx context.Context, clubID, seasonID string, p PageRequest) (Page[Tournament], error)
	Update(ctx context.Context, a Actor, id string, u TournamentUpdate) (*Tournament, error)
	Register(ctx context.Context, a Actor, id string, e NewEntry) (*Entry, error)
	// Entries pages through a tournament's entries in registration order.
	Entries(ctx context.Context, id string, p PageRequest) (Page[Entry], error)
	Withdraw(ctx context.Context, a Actor, id, entryID string) error
	// Reinstate puts a withdrawn entry of a round robin or Swiss under way
	// back in, from the next pairing on (organizers only).
	Reinstate(ctx context.Context, a Actor, id, entryID string) (*Entry, error)
	Schedule(ctx context.Context, a Actor, id string, rounds []RoundSchedule) ([]TournamentRound, error)
	// MoveDeadline sets the deadline of a round not yet over, the round in
	// play too: later, or earlier but not into the past.
	MoveDeadline(ctx context.Context, a Actor, id string, round int, deadline time.Time) (*TournamentRound, error)
	Rounds(ctx context.Context, id string) ([]TournamentRound, error)
	Bracket(ctx context.Context, id string) (json.RawMessage, error)
	Standings(ctx context.Context, id string) ([]StandingRow, error)

	// Worker entry points.
	StartRound(ctx context.Context, id string, round int) error
	// RoundDeadline acts on the deadline due, the one its task was
	// scheduled for; a deadline moved since leaves it nothing to do (the
	// zero due: whatever deadline is stored).
	RoundDeadline(ctx context.Context, id string, round int, due time.Time) error
}

// CompetitionTasks schedules tournament rounds.
type CompetitionTasks interface {
	RoundStart(ctx context.Context, tournamentID string, round int, at time.Time) error
	RoundDeadline(ctx context.Context, tournamentID string, round int, at time.Time) error
	// ForgetRound drops the tasks still queued of a round of a tournament
	// called off, of a round dropped at the start (one its entries never
	// play), or of a start moved to now by "Start now": its start at each
	// of starts and its deadline at each of deadlines (a task already
	// running, or gone, is left: it finds nothing to do).
	ForgetRound(ctx context.Context, tournamentID string, round int, starts, deadlines []time.Time) error
}

// LeagueInfo is a league of a club.
type LeagueInfo struct {
	ID          string
	ClubID      string
	Name        string
	Description string
	CreatedAt   time.Time
}

// LeagueUpdate changes a league; nil fields stay as they are.
type LeagueUpdate struct {
	Name        *string
	Description *string
}

// SeasonUpdate changes an open season; nil fields stay as they are.
type SeasonUpdate struct {
	Name *string
}

// Season is a league's season.
type Season struct {
	ID        string
	LeagueID  string
	Name      string
	Status    string // open or closed
	CreatedAt time.Time
	ClosedAt  *time.Time
}

// SeasonRow is one player's line of a season table.
type SeasonRow struct {
	Rank        int
	UserID      string
	Username    string
	Points      float64 // placement points summed over the season's tournaments
	Tournaments int
	Titles      int // tournaments won
	MatchWins   int
	Sequences   int
}

// SeasonTieBreak is one tie-break of a season's table: its name, as the
// API lists it, and its value in a row (the greater ranks first).
type SeasonTieBreak struct {
	Name  string
	Value func(SeasonRow) float64
}

// SeasonTieBreaks break ties on points in a season's table, in this order:
// titles, match wins, sequences scored. Members still level share a rank.
var SeasonTieBreaks = []SeasonTieBreak{
	{"titles", func(r SeasonRow) float64 { return float64(r.Titles) }},
	{"match_wins", func(r SeasonRow) float64 { return float64(r.MatchWins) }},
	{"sequences", func(r SeasonRow) float64 { return float64(r.Sequences) }},
}

// SeasonTieBreakNames are the names of SeasonTieBreaks, in order.
func SeasonTieBreakNames() []string {
	names := make([]string, len(SeasonTieBreaks))
	for i, tb := range SeasonTieBreaks {
		names[i] = tb.Name
	}
	return names
}

// SeasonTable is a season's standings; frozen once the season is closed.
type SeasonTable struct {
	Season Season
	Frozen bool
	Rows   []SeasonRow
}

// Leagues runs leagues and seasons.
type Leagues interface {
	CreateLeague(ctx context.Context, a Actor, clubID, name, description string) (*LeagueInfo, error)
	// Leagues pages through a club's leagues by name.
	Leagues(ctx context.Context, clubID string, p PageRequest) (Page[LeagueInfo], error)
	League(ctx context.Context, id string) (*LeagueInfo, error)
	// UpdateLeague renames a league or changes its description (organizers
	// of its club), by the rules of CreateLeague.
	UpdateLeague(ctx context.Context, a Actor, id string, u LeagueUpdate) (*LeagueInfo, error)
	CreateSeason(ctx context.Context, a Actor, leagueID, name string) (*Season, error)
	// UpdateSeason renames a season while it is open (organizers of its
	// league's club); a closed season is EPRECONDITION.
	UpdateSeason(ctx context.Context, a Actor, id string, u SeasonUpdate) (*Season, error)
	// Seasons pages through a league's seasons, newest first.
	Seasons(ctx context.Context, leagueID string, p PageRequest) (Page[Season], error)
	SeasonStandings(ctx context.Context, seasonID string) (*SeasonTable, error)
	CloseSeason(ctx context.Context, a Actor, seasonID string) (*SeasonTable, error)
}
