package postgres

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"

	"gorm.io/gorm"

	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/competition"
)

// bracketEntry names an entry in a drawn bracket.
type bracketEntry struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Seed int    `json:"seed"`
}

type bracketSlot struct {
	Source string        `json:"source"` // seed, winner, loser, bye
	Seed   int           `json:"seed,omitempty"`
	Match  string        `json:"match,omitempty"`
	Entry  *bracketEntry `json:"entry"`
	Empty  bool          `json:"empty,omitempty"`
}

type bracketMatch struct {
	ID          string        `json:"id"`
	Section     string        `json:"section,omitempty"`
	Round       int           `json:"round"`
	Position    int           `json:"position,omitempty"`
	State       string        `json:"state"`
	Slots       []bracketSlot `json:"slots"`
	Winner      string        `json:"winner,omitempty"`
	GameWinners []string      `json:"game_winners"`
	Beaten      []string      `json:"beaten,omitempty"`
	Games       []string      `json:"games"`
	Reset       bool          `json:"reset,omitempty"`
}

type bracketRound struct {
	Section string         `json:"section,omitempty"`
	Number  int            `json:"number"`
	Name    string         `json:"name"`
	Matches []bracketMatch `json:"matches"`
}

type bracketView struct {
	Format    string         `json:"format"`
	Kind      string         `json:"kind"` // "bracket" or "rounds"
	MatchSize int            `json:"match_size"`
	Rounds    []bracketRound `json:"rounds"`
	// Playoffs is the elimination stage of groups-then-playoffs; its group
	// stage is in Rounds.
	Playoffs []bracketRound `json:"playoffs,omitempty"`
	Champion string         `json:"champion,omitempty"`
}

// Bracket is the tournament drawn for a client: elimination formats as a
// bracket (every match with its slots, where each comes from and who won),
// round-based formats as their rounds.
func (t *Tournaments) Bracket(ctx context.Context, id string) (json.RawMessage, error) {
	db := t.db.WithContext(ctx)
	r, err := readTournament(db, id, false)
	if err != nil {
		return nil, err
	}
	c := r.config()
	entries, err := loadEntries(db, id, "")
	if err != nil {
		return nil, err
	}
	byID := map[string]*bracketEntry{}
	for _, e := range entries {
		byID[e.ID] = &bracketEntry{ID: e.ID, Name: e.Name, Seed: e.Seed}
	}
	rounds, err := t.Rounds(ctx, id)
	if err != nil {
		return nil, err
	}
	games := map[string][]string{}
	// The stored bracket learns only each match's winner; the match rows
	// keep who won each game of the series, so the drawing takes them there.
	gameWinners := map[string][]string{}
	for _, rd := range rounds {
		for _, m := range rd.Matches {
			games[m.ID] = m.Games
			gameWinners[m.ID] = m.GameWinners
		}
	}
	view := bracketView{Format: c.Format, Kind: "rounds", MatchSize: c.MatchSize, Rounds: []bracketRound{}}
	f := competition.Format(c.Format)
	if f != competition.FormatSingleElimination && f != competition.FormatDoubleElimination {
		for _, rd := range rounds {
			if r.Bracket != nil && f == competition.FormatGroupsPlayoffs && !isGroupMatch(rd.Matches) {
				continue
			}
			br := bracketRound{Number: rd.Number, Name: roundName(rd.Number), Matches: []bracketMatch{}}
			for _, m := range rd.Matches {
				bm := bracketMatch{ID: m.ID, Round: m.Round, State: m.Status, Winner: m.Winner, GameWinners: m.GameWinners, Beaten: m.Beaten, Games: games[m.ID]}
				if m.Bye {
					bm.State = "bye"
				}
				for _, e := range m.Entries {
					bm.Slots = append(bm.Slots, bracketSlot{Source: "entry", Entry: byID[e]})
				}
				br.Matches = append(br.Matches, bm)
			}
			view.Rounds = append(view.Rounds, br)
		}
	}
	b, err := r.bracket()
	if err != nil {
		return nil, err
	}
	if b != nil {
		drawn := drawBracket(*b, byID, games, gameWinners, r.Status == league.TournamentCancelled)
		if f == competition.FormatGroupsPlayoffs {
			view.Playoffs = drawn
		} else {
			view.Kind, view.Rounds = "bracket", drawn
		}
		view.Champion = b.Champion()
	}
	return json.Marshal(view)
}

func isGroupMatch(ms []league.TournamentMatch) bool {
	for _, m := range ms {
		if len(m.ID) > 2 && m.ID[1] == '-' { // group matches are "A-R1-1"
			return true
		}
	}
	return len(ms) == 0
}

func roundName(n int) string { return "Round " + strconv.Itoa(n) }

// drawBracket draws a stored bracket; in a cancelled tournament (cancelled)
// the matches it left to play (ready, or pending on one of those) are
// "cancelled": none will be played.
func drawBracket(b competition.Bracket, byID map[string]*bracketEntry, games, gameWinners map[string][]string, cancelled bool) []bracketRound {
	out := make([]bracketRound, 0, len(b.Rounds))
	for _, br := range b.Rounds {
		round := bracketRound{Section: string(br.Section), Number: br.Number, Name: br.Name, Matches: []bracketMatch{}}
		for _, id := range br.Matches {
			m, ok := b.Match(id)
			if !ok {
				continue
			}
			bm := bracketMatch{ID: m.ID, Section: string(m.Section), Round: m.Round, Position: m.Position, State: string(m.State),
				Winner: m.Winner, GameWinners: gameWinners[m.ID], Games: games[m.ID], Reset: m.Reset}
			if cancelled && (m.State == competition.StateReady || m.State == competition.StatePending) {
				bm.State = league.TournamentCancelled
			}
			if bm.GameWinners == nil {
				bm.GameWinners = []string{}
			}
			for _, s := range m.Slots {
				bm.Slots = append(bm.Slots, bracketSlot{Source: string(s.Source), Seed: s.Seed, Match: s.Match, Entry: byID[s.Entry], Empty: s.Empty})
			}
			round.Matches = append(round.Matches, bm)
		}
		out = append(out, round)
	}
	return out
}

// Standings ranks the entries: round-based formats by points and the
// tie-breaks (each shown with its value), elimination formats by how far
// each entry went; groups-then-playoffs puts the playoff places first and
// ranks the rest by the group stage, and says of every row its group and
// its rank in the group. Every row counts all the entry's
// matches, bracket matches included (see knockoutRecords); a row of groups
// then playoffs also gives its group stage's alone (GroupStage).
func (t *Tournaments) Standings(ctx context.Context, id string) ([]league.StandingRow, error) {
	db := t.db.WithContext(ctx)
	r, err := readTournament(db, id, false)
	if err != nil {
		return nil, err
	}
	return standingsOf(db, r)
}

func standingsOf(db *gorm.DB, r *tournamentRow) ([]league.StandingRow, error) {
	c := r.config()
	cc := r.competitionConfig()
	all, err := loadEntries(db, r.ID, "")
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	withdrawn := map[string]bool{}
	var entries []competition.Entry
	for _, e := range all {
		names[e.ID] = e.Name
		withdrawn[e.ID] = e.Status == "withdrawn"
		entries = append(entries, competition.Entry{ID: e.ID, Seed: e.Seed, Rating: e.Rating, Withdrawn: withdrawn[e.ID]})
	}
	past, err := history(db, r.ID)
	if err != nil {
		return nil, err
	}
	b, err := r.bracket()
	if err != nil {
		return nil, err
	}
	f := competition.Format(c.Format)
	var rows []league.StandingRow
	if f != competition.FormatSingleElimination && f != competition.FormatDoubleElimination && len(entries) > 0 {
		var groupResults []competition.Result
		for _, res := range past {
			if b == nil || !inBracket(b, res.Match) {
				groupResults = append(groupResults, res)
			}
		}
		table, err := competition.StandingsFor(cc, entries, groupResults)
		if err != nil {
			return nil, err
		}
		for _, row := range table {
			sr := league.StandingRow{Rank: row.Rank, EntryID: row.Entry, Name: names[row.Entry], MatchRecord: league.MatchRecord{Played: row.Played, Wins: row.Wins,
				Draws: row.Draws, Losses: row.Losses, Byes: row.Byes, Sequences: row.Sequences}, Points: row.Points, Withdrawn: withdrawn[row.Entry]}
			for _, v := range row.Values {
				sr.TieBreaks = append(sr.TieBreaks, league.TieBreakValue{Name: string(v.TieBreak), Value: v.Value})
			}
			rows = append(rows, sr)
		}
		if f == competition.FormatGroupsPlayoffs && r.StartedAt != nil {
			if err := placeInGroups(cc, entries, groupResults, rows); err != nil {
				return nil, err
			}
			for i, row := range rows { // before the playoffs are added to the row's counts below
				if row.Group != "" {
					rows[i].GroupStage = &row.MatchRecord
				}
			}
		}
	}
	if b == nil {
		return rows, nil
	}
	// Entries still in the bracket lead (sharing rank 1 until it is
	// decided), then the entries knocked out, by the place they reached;
	// in groups-then-playoffs the entries that did not reach the playoffs
	// follow by their place in their group, then in the order of the group
	// stage (placeAfter).
	placed := map[string]int{}
	for _, p := range b.Placements() {
		placed[p.Entry] = p.Place
	}
	knockout, err := knockoutRecords(b, entries, past)
	if err != nil {
		return nil, err
	}
	inBracketEntries := map[string]bool{}
	for _, e := range b.Entries {
		inBracketEntries[e.ID] = true
	}
	base := rows
	if base == nil {
		for _, e := range competition.SeedOrder(entries) {
			base = append(base, league.StandingRow{EntryID: e.ID, Name: names[e.ID], Withdrawn: withdrawn[e.ID]})
		}
	}
	var stillIn, out, rest []league.StandingRow
	for _, row := range base {
		row.Qualified = row.Group != "" && inBracketEntries[row.EntryID]
		if k, ok := knockout[row.EntryID]; ok {
			row.Played += k.Played
			row.Wins += k.Wins
			row.Draws += k.Draws
			row.Losses += k.Losses
			row.Byes += k.Byes
			row.Sequences += k.Sequences
		}
		switch {
		case !inBracketEntries[row.EntryID]:
			rest = append(rest, row)
		case placed[row.EntryID] == 0:
			row.Rank = 1
			stillIn = append(stillIn, row)
		default:
			row.Rank = placed[row.EntryID]
			out = append(out, row)
		}
	}
	slices.SortStableFunc(out, func(a, b league.StandingRow) int { return a.Rank - b.Rank })
	out = append(stillIn, out...)
	return placeAfter(out, rest), nil
}

// placeInGroups gives every row of groups then playoffs its group and its
// rank there, from the group stage's results: the groups are drawn at the
// start from the entries' seed order, which is what Groups deals from.
func placeInGroups(cc competition.Config, entries []competition.Entry, results []competition.Result, rows []league.StandingRow) error {
	tables, err := competition.GroupStandings(cc, entries, results)
	if err != nil {
		return err
	}
	type place struct {
		group string
		rank  int
	}
	places := map[string]place{}
	for _, g := range tables {
		for _, row := range g.Rows {
			places[row.Entry] = place{g.Group, row.Rank}
		}
	}
	for i := range rows {
		p := places[rows[i].EntryID]
		rows[i].Group, rows[i].GroupRank = p.group, p.rank
	}
	return nil
}

// placeAfter ranks rest, by their place in their group first (every
// group's runners-up before any third: across groups a head-to-head says
// nothing, and it put a group's third above two runners-up), then in the
// order and by the ranks of the group stage, after the ranked rows of out:
// entries of one group place the group stage could not tell apart (equal
// on points and every tie-break) share a place here too.
func placeAfter(out, rest []league.StandingRow) []league.StandingRow {
	slices.SortStableFunc(rest, func(a, b league.StandingRow) int { return a.GroupRank - b.GroupRank })
	for i, row := range rest {
		if i > 0 && row.Rank != 0 && row.Rank == rest[i-1].Rank && row.GroupRank == rest[i-1].GroupRank {
			row.Rank = out[len(out)-1].Rank
		} else {
			row.Rank = len(out) + 1
		}
		out = append(out, row)
	}
	return out
}

// knockoutRecords counts every entry's bracket matches: played, won, lost
// and the sequences scored in them, from the stored results; and as byes,
// the walkovers it advanced through unplayed. The counts add to the
// group-stage counts in groups-then-playoffs, so the table (and a season's
// match wins and sequences) covers every match of the tournament; points
// stay those of the group stage, the bracket being ranked by places.
func knockoutRecords(b *competition.Bracket, entries []competition.Entry, past []competition.Result) (map[string]competition.Row, error) {
	var results []competition.Result
	for _, res := range past {
		if inBracket(b, res.Match) {
			results = append(results, res)
		}
	}
	out := map[string]competition.Row{}
	if len(entries) == 0 {
		return out, nil
	}
	rows, err := competition.Standings(entries, results, competition.Points{}, nil)
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		out[row.Entry] = row
	}
	for _, m := range b.Matches {
		if m.State == competition.StateWalkover {
			row := out[m.Winner]
			row.Byes++
			out[m.Winner] = row
		}
	}
	return out, nil
}

func inBracket(b *competition.Bracket, matchID string) bool {
	_, ok := b.Match(matchID)
	return ok && matchID != ""
}
