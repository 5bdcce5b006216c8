package postgres

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/seqleague/seqleague/engine/rng"
	"github.com/seqleague/seqleague/league"
	"github.com/seqleague/seqleague/league/competition"
)

// A tournament runs as a small state machine under its row lock: a round
// is paired once (paired_at), its games are created with it, every game's
// settlement records its result in its match, and the last match of a
// round to finish moves the tournament on: to the next round's pairing
// when it is due, or to its end. Worker restarts and duplicate tasks are
// harmless because every step checks where the tournament stands first.

// maxDrawReplays bounds the extra games an elimination match plays when
// its games are drawn; after them the better seed goes through.
const maxDrawReplays = 2

func (r *tournamentRow) elimination() bool {
	f := competition.Format(r.config().Format)
	return f == competition.FormatSingleElimination || f == competition.FormatDoubleElimination ||
		(f == competition.FormatGroupsPlayoffs && r.Bracket != nil)
}

func (r *tournamentRow) bracket() (*competition.Bracket, error) {
	if r.Bracket == nil {
		return nil, nil
	}
	var b competition.Bracket
	if err := json.Unmarshal(r.Bracket, &b); err != nil {
		return nil, err
	}
	return &b, nil
}

func (r *tournamentRow) saveBracket(tx *gorm.DB, b competition.Bracket) error {
	r.Bracket = mustJSON(b)
	return tx.Model(r).Update("bracket", r.Bracket).Error
}

// activeEntries are the entries still taking part, for the pure package.
func activeEntries(tx *gorm.DB, id string) ([]competition.Entry, error) {
	return loadCompetitionEntries(tx, id, "active")
}

// startedEntries are the entries that took part, those withdrawn since
// marked so: a round robin's schedule is drawn over all of them.
func startedEntries(tx *gorm.DB, id string) ([]competition.Entry, error) {
	return loadCompetitionEntries(tx, id, "active", "withdrawn")
}

func loadCompetitionEntries(tx *gorm.DB, id string, statuses ...string) ([]competition.Entry, error) {
	var rows []entryRow
	if err := tx.Where("tournament_id = ? AND status IN ?", id, statuses).Order("created_at, id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]competition.Entry, len(rows))
	for i, r := range rows {
		out[i] = competition.Entry{ID: r.ID, Seed: r.Seed, Rating: r.Rating, Withdrawn: r.Status == "withdrawn"}
	}
	return out, nil
}

// history is every finished match as a result, byes included.
func history(tx *gorm.DB, id string) ([]competition.Result, error) {
	var rows []matchRow
	if err := tx.Where("tournament_id = ? AND status = 'finished'", id).Order("round, id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]competition.Result, len(rows))
	for i, m := range rows {
		res := competition.Result{Round: m.Round, Match: m.ID, Entries: m.entries(), Bye: m.Bye}
		if m.Winner != nil && !m.Bye {
			res.Winner = *m.Winner
		}
		res.Beaten = m.beaten()
		if seqs := m.sequences(); len(seqs) == len(res.Entries) && !m.Bye {
			res.Sequences = seqs
		}
		if !m.Bye {
			res.Forfeited = m.forfeited()
		}
		if m.Bye {
			res.Match = ""
		}
		out[i] = res
	}
	return out, nil
}

// beginLocked closes registration: seeds the entries and, for elimination
// formats, draws the bracket.
func (t *Tournaments) beginLocked(tx *gorm.DB, fx *effects, r *tournamentRow) error {
	c := r.config()
	if err := refreshEntryRatings(tx, r.ID, entryPool(c)); err != nil {
		return err
	}
	entries, err := activeEntries(tx, r.ID)
	if err != nil {
		return err
	}
	cc := competitionConfig(c)
	if err := cc.Validate(len(entries)); err != nil {
		n := fmt.Sprintf("%d entries", len(entries))
		if len(entries) == 1 {
			n = "1 entry"
		}
		return league.Errorf(league.EPRECONDITION, "the tournament cannot start with %s: %s", n, competition.Reason(err))
	}
	if c.Seeding == "random" {
		var b [8]byte
		rand.Read(b[:])
		r := rng.NewUint64(binary.LittleEndian.Uint64(b[:]))
		rng.Shuffle(&r, entries)
		for i := range entries {
			entries[i].Seed = i + 1
			if err := tx.Model(&entryRow{}).Where("id = ?", entries[i].ID).Update("seed", i+1).Error; err != nil {
				return err
			}
		}
	}
	// A round robin's (or group stage's) rounds are drawn now and kept:
	// drawn again for each round, a change to the search would reshuffle
	// the tournament being played.
	schedule, err := competition.DrawSchedule(cc, entries)
	if err != nil {
		return league.Errorf(league.EPRECONDITION, "cannot draw the schedule: %s", competition.Reason(err))
	}
	if schedule != nil {
		cc.Schedule, r.Schedule = schedule, mustJSON(schedule)
		if err := tx.Model(r).Update("schedule", r.Schedule).Error; err != nil {
			return err
		}
	}
	// Rounds scheduled while the number of entries was open, past the
	// rounds those entries can play (a bracket of two plays one), would be
	// shown, and kept in the calendar, as coming until the end.
	// Their queued tasks go with them once this commits.
	if last, err := competition.RoundsNeeded(cc, entries); err == nil {
		var unneeded []roundRow
		if err := tx.Clauses(clause.Returning{}).Where("tournament_id = ? AND number > ? AND paired_at IS NULL", r.ID, last).
			Delete(&unneeded).Error; err != nil {
			return err
		}
		t.forgetTasksOf(fx, r.ID, unneeded)
	}
	if f := competition.Format(c.Format); f == competition.FormatSingleElimination || f == competition.FormatDoubleElimination {
		b, err := competition.NewBracket(cc, entries)
		if err != nil {
			return league.Errorf(league.EPRECONDITION, "cannot draw the bracket: %s", competition.Reason(err))
		}
		if err := r.saveBracket(tx, b); err != nil {
			return err
		}
	}
	now := t.now()
	r.Status, r.StartedAt = league.TournamentRunning, &now
	return tx.Model(r).Updates(map[string]any{"status": r.Status, "started_at": now}).Error
}

// advanceLocked moves a running tournament on as far as it can now.
func (t *Tournaments) advanceLocked(tx *gorm.DB, fx *effects, r *tournamentRow) error {
	for guard := 0; guard < 1000; guard++ {
		if r.Status != league.TournamentRunning {
			return nil
		}
		if r.CurrentRound > 0 {
			var cur roundRow
			if err := tx.Where("tournament_id = ? AND number = ?", r.ID, r.CurrentRound).Take(&cur).Error; err != nil {
				return err
			}
			if cur.Status != "finished" {
				return nil // its games are still being played
			}
		}
		next := r.CurrentRound + 1
		var rows []roundRow
		if err := tx.Where("tournament_id = ? AND number = ?", r.ID, next).Find(&rows).Error; err != nil {
			return err
		}
		now := t.now()
		if len(rows) == 0 {
			row := roundRow{TournamentID: r.ID, Number: next, Status: "scheduled"}
			if gap := time.Duration(r.config().RoundGapSeconds) * time.Second; gap > 0 && next > 1 {
				at := now.Add(gap)
				row.StartsAt = &at
				fx.then(func(ctx context.Context) error { return t.tasks.RoundStart(ctx, r.ID, next, at) })
			}
			if err := tx.Create(&row).Error; err != nil {
				return err
			}
			rows = []roundRow{row}
		}
		if s := rows[0].StartsAt; s != nil && s.After(now) {
			at := *s
			fx.then(func(ctx context.Context) error { return t.tasks.RoundStart(ctx, r.ID, next, at) })
			return nil // not due yet: its task will start it
		}
		playable, over, err := t.pairRoundLocked(tx, fx, r, next)
		if err != nil {
			return err
		}
		if over {
			return t.finishTournamentLocked(tx, r)
		}
		if playable {
			return nil
		}
		// A round of byes and walkovers only: it is over as soon as paired.
		if err := tx.Model(&roundRow{}).Where("tournament_id = ? AND number = ?", r.ID, next).
			Updates(map[string]any{"status": "finished", "finished_at": now}).Error; err != nil {
			return err
		}
	}
	return errors.New("tournament does not advance")
}

func (t *Tournaments) finishTournamentLocked(tx *gorm.DB, r *tournamentRow) error {
	now := t.now()
	r.Status, r.FinishedAt = league.TournamentFinished, &now
	// A round row created ahead for a round that will never be played goes.
	if err := tx.Where("tournament_id = ? AND paired_at IS NULL", r.ID).Delete(&roundRow{}).Error; err != nil {
		return err
	}
	return tx.Model(r).Updates(map[string]any{"status": r.Status, "finished_at": now}).Error
}

type pairing struct {
	id      string
	entries []string
}

// pairRoundLocked pairs round n and creates its games. It reports whether
// the round has a match to play, and whether the tournament is over
// instead (no round n exists).
func (t *Tournaments) pairRoundLocked(tx *gorm.DB, fx *effects, r *tournamentRow, n int) (playable, over bool, err error) {
	c := r.config()
	cc := r.competitionConfig()
	entries, err := activeEntries(tx, r.ID)
	if err != nil {
		return false, false, err
	}
	var pairings []pairing
	var byes []string
	roundBased := func() (bool, error) {
		past, err := history(tx, r.ID)
		if err != nil {
			return false, err
		}
		started, err := startedEntries(tx, r.ID)
		if err != nil {
			return false, err
		}
		round, err := competition.NextRound(cc, started, past, n)
		if errors.Is(err, competition.ErrState) {
			return false, nil
		}
		if err != nil {
			return false, league.Errorf(league.EPRECONDITION, "cannot pair round %d: %v", n, err)
		}
		for _, m := range round.Matches {
			pairings = append(pairings, pairing{id: m.ID, entries: m.Entries})
		}
		byes = round.Byes
		return true, nil
	}
	switch f := competition.Format(c.Format); {
	case f == competition.FormatRoundRobin || f == competition.FormatSwiss:
		ok, err := roundBased()
		if err != nil || !ok {
			return false, err == nil, err
		}
	case f == competition.FormatGroupsPlayoffs && r.Bracket == nil:
		ok, err := roundBased()
		if err != nil {
			return false, false, err
		}
		if !ok {
			past, err := history(tx, r.ID)
			if err != nil {
				return false, false, err
			}
			b, err := competition.Playoffs(cc, entries, past)
			if err != nil {
				return false, false, league.Errorf(league.EPRECONDITION, "cannot draw the playoffs: %v", err)
			}
			if err := r.saveBracket(tx, b); err != nil {
				return false, false, err
			}
			return t.pairRoundLocked(tx, fx, r, n)
		}
	default:
		b, err := r.bracket()
		if err != nil || b == nil {
			return false, false, fmt.Errorf("tournament %s has no bracket: %v", r.ID, err)
		}
		if b.Done() {
			return false, true, nil
		}
		var started []string
		if err := tx.Model(&matchRow{}).Where("tournament_id = ?", r.ID).Pluck("id", &started).Error; err != nil {
			return false, false, err
		}
		for _, m := range b.Ready() {
			if !slices.Contains(started, m.ID) {
				pairings = append(pairings, pairing{id: m.ID, entries: m.Entries()})
			}
		}
		if len(pairings) == 0 {
			return false, false, fmt.Errorf("tournament %s: bracket not done but nothing to play", r.ID)
		}
	}
	now := t.now()
	upd := map[string]any{"status": "running", "paired_at": now, "start_error": nil}
	if err := t.keepRoundLengthLocked(tx, fx, r.ID, n, now, upd); err != nil {
		return false, false, err
	}
	if err := tx.Model(&roundRow{}).Where("tournament_id = ? AND number = ?", r.ID, n).Updates(upd).Error; err != nil {
		return false, false, err
	}
	r.CurrentRound = n
	if err := tx.Model(r).Update("current_round", n).Error; err != nil {
		return false, false, err
	}
	for _, e := range byes {
		w := e
		m := matchRow{TournamentID: r.ID, ID: fmt.Sprintf("R%d-bye-%s", n, e[:8]), Round: n, Entries: mustJSON([]string{e}), Bye: true,
			Status: "finished", Winner: &w, GameWinners: mustJSON([]string{}), Sequences: mustJSON([]int{}), Forfeited: mustJSON([]string{}), FinishedAt: &now}
		if err := tx.Create(&m).Error; err != nil {
			return false, false, err
		}
	}
	for _, p := range pairings {
		m := matchRow{TournamentID: r.ID, ID: p.id, Round: n, Entries: mustJSON(p.entries), Status: "playing",
			GameWinners: mustJSON([]string{}), Sequences: mustJSON(make([]int, len(p.entries))), Forfeited: mustJSON([]string{})}
		if err := tx.Create(&m).Error; err != nil {
			return false, false, err
		}
		if err := t.createMatchGameLocked(tx, fx, r, p.id, p.entries, 1); err != nil {
			return false, false, err
		}
	}
	return len(pairings) > 0, false, nil
}

// keepRoundLengthLocked adds to upd, the pairing's update of round n, the
// deadline moved later by the round's lateness (league.LateBy), so that a
// round paired after its scheduled start (the round before ran on, the
// windows overlap, the workers were down) keeps its planned length instead
// of handing its players' seats to bots moments after they sit down. It is
// written with the pairing, and the new time gets its task after the
// commit; the old time's task, when it comes, finds the deadline moved
// (it names a different second) and does nothing.
func (t *Tournaments) keepRoundLengthLocked(tx *gorm.DB, fx *effects, id string, n int, now time.Time, upd map[string]any) error {
	var rd roundRow
	if err := tx.Where("tournament_id = ? AND number = ?", id, n).Take(&rd).Error; err != nil {
		return err
	}
	late := league.LateBy(rd.StartsAt, &now)
	if rd.Deadline == nil || late == 0 {
		return nil
	}
	deadline := rd.Deadline.Add(late)
	upd["deadline"], upd["planned_deadline"] = deadline, *rd.Deadline
	fx.then(func(ctx context.Context) error { return t.tasks.RoundDeadline(ctx, id, n, deadline) })
	return nil
}

// rotate gives game g of a series (1-based) its seating: the entries
// take turns at starting.
func rotate(entries []string, g int) []string {
	k := (g - 1) % len(entries)
	return append(slices.Clone(entries[k:]), entries[:k]...)
}

// createMatchGameLocked creates and starts game g of a match among entries,
// those of the match still playing its series (see stillPlaying). Entry j
// of the game's order is team j of T = len(entries) teams (fewer than
// MatchSize when byes filled the match's other slots, or an entry forfeited
// the rest of the series); its players sit at seats j,
// j+T, j+2T, … so that teammates alternate around the table.
func (t *Tournaments) createMatchGameLocked(tx *gorm.DB, fx *effects, r *tournamentRow, matchID string, entries []string, g int) error {
	c := r.config()
	order := rotate(entries, g)
	var members []entryMemberRow
	if err := tx.Where("entry_id IN ?", order).Order("position").Find(&members).Error; err != nil {
		return err
	}
	// A player who closed the account after the start is not asked to
	// play: the entry plays on, that seat by a fill-in bot.
	var closed []string
	if err := tx.Table("users").Where("id IN (?) AND deleted_at IS NOT NULL",
		tx.Model(&entryMemberRow{}).Select("user_id").Where("entry_id IN ? AND user_id IS NOT NULL", order)).Pluck("id", &closed).Error; err != nil {
		return err
	}
	su := matchSetup(c, len(order))
	seats := make([]league.SeatSpec, su.Players)
	for j, e := range order {
		pos := 0
		for _, m := range members {
			if m.EntryID != e {
				continue
			}
			seat := j + pos*len(order)
			if seat >= len(seats) {
				return fmt.Errorf("entry %s has more players than the team size", e)
			}
			if m.UserID != nil {
				seats[seat] = league.SeatSpec{UserID: *m.UserID, Abandoned: slices.Contains(closed, *m.UserID)}
			} else {
				seats[seat] = league.SeatSpec{Bot: *m.BotLevel}
			}
			pos++
		}
	}
	_, err := t.games.createLocked(tx, fx, nil, matchGame(c, su, seats), &gameLink{TournamentID: r.ID, MatchID: matchID, MatchGame: g})
	return err
}

// SettleGame records a finished tournament game in its match; a decided
// match advances the bracket, and the last match of a round moves the
// tournament on.
func (t *Tournaments) SettleGame(ctx context.Context, st *Settlement) error {
	if st.Link == nil {
		return nil
	}
	tx := st.Tx
	r, err := readTournament(tx, st.Link.TournamentID, true)
	if err != nil {
		return err
	}
	var m matchRow
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("tournament_id = ? AND id = ?", r.ID, st.Link.MatchID).Take(&m).Error; err != nil {
		return err
	}
	if m.Status == "finished" || len(m.winners()) >= st.Link.MatchGame {
		return nil // already counted
	}
	c := r.config()
	entries := m.entries()
	forfeited := m.forfeited()
	// The game was created among the entries still playing the series
	// then: nobody has been found absent since but in this very game.
	order := rotate(stillPlaying(entries, forfeited), st.Link.MatchGame)
	winner := ""
	if st.Game.ResultStatus != "drawn" && st.Game.Winner != nil && *st.Game.Winner < len(order) {
		winner = order[*st.Game.Winner]
	}
	// A side that resigned was there to resign, and gave the game to the
	// other: no absence, whoever the autopilot played for (a resigner found
	// absent lost the best-of-3 series, or was withdrawn from the Swiss,
	// and one whose opponent never moved won the match they resigned).
	if c.NoShow == "forfeit" && st.Game.EndedBy != league.EndedByResign {
		var absent []string
		winner, absent = forfeitResult(st, order, winner)
		if err := withdrawAbsent(tx, r, absent); err != nil {
			return err
		}
		for _, e := range absent {
			if !slices.Contains(forfeited, e) {
				forfeited = append(forfeited, e)
			}
		}
	}
	playing := stillPlaying(entries, forfeited)
	seqs := m.sequences()
	if len(seqs) != len(entries) {
		seqs = make([]int, len(entries))
	}
	if c.Game == league.GameSequence && st.Final != nil {
		scores := st.Final.Scores()
		for j, e := range order {
			if j < len(scores) {
				seqs[slices.Index(entries, e)] += scores[j]
			}
		}
	}
	winners := append(m.winners(), winner)
	w, decided := competition.SeriesWinner(c.BestOf, entries, winners)
	if !decided && len(playing) == 1 {
		// Everyone else forfeited the rest of the series: the one entry
		// left takes the match now, rather than sit through the no-show
		// wait of every game left to find the others absent again.
		w, decided = playing[0], true
	}
	elimination := r.elimination()
	if !decided {
		limit := max(c.BestOf, 1)
		if elimination {
			limit += maxDrawReplays
		}
		var rd roundRow
		if err := tx.Where("tournament_id = ? AND number = ?", r.ID, m.Round).Take(&rd).Error; err != nil {
			return err
		}
		pastDeadline := rd.Deadline != nil && !t.now().Before(*rd.Deadline)
		if pastDeadline || len(playing) == 0 {
			// No game starts after the round's deadline, nor for a match
			// whose entries were all found absent: the series stands as it
			// is, its leader (if any) taking it.
			w = ""
			if leaders := seriesLeaders(entries, winners); len(leaders) == 1 {
				w = leaders[0]
			}
			limit = 0
		}
		cancelled := r.Status == league.TournamentCancelled
		if len(winners) < limit || cancelled {
			m.GameWinners, m.Sequences, m.Forfeited = mustJSON(winners), mustJSON(seqs), mustJSON(forfeited)
			if err := tx.Model(&m).Updates(map[string]any{"game_winners": m.GameWinners, "sequences": m.Sequences, "forfeited": m.Forfeited}).Error; err != nil {
				return err
			}
			if cancelled {
				// A game that ended before the cancel, settled after it:
				// its result is kept, but no game of the series follows,
				// and the match stands undecided, as the cancel left it.
				return nil
			}
			return t.createMatchGameLocked(tx, st.fx, r, m.ID, playing, len(winners)+1)
		}
		if elimination && w == "" {
			var err error
			if w, err = betterSeed(tx, r.ID, entries, winners); err != nil {
				return err
			}
		}
	}
	now := t.now()
	upd := map[string]any{"game_winners": mustJSON(winners), "sequences": mustJSON(seqs), "forfeited": mustJSON(forfeited),
		"status": "finished", "finished_at": now, "winner": nil}
	if w != "" {
		upd["winner"] = w
	}
	if err := tx.Model(&m).Updates(upd).Error; err != nil {
		return err
	}
	if elimination {
		b, err := r.bracket()
		if err != nil {
			return err
		}
		nb, err := b.Report(m.ID, w)
		if err != nil {
			return fmt.Errorf("report match %s: %w", m.ID, err)
		}
		if err := r.saveBracket(tx, nb); err != nil {
			return err
		}
	}
	var open int64
	if err := tx.Model(&matchRow{}).Where("tournament_id = ? AND round = ? AND status <> 'finished'", r.ID, m.Round).Count(&open).Error; err != nil {
		return err
	}
	if open > 0 {
		return nil
	}
	if err := tx.Model(&roundRow{}).Where("tournament_id = ? AND number = ?", r.ID, m.Round).
		Updates(map[string]any{"status": "finished", "finished_at": now}).Error; err != nil {
		return err
	}
	return t.advanceLocked(tx, st.fx, r)
}

// forfeitResult applies the forfeit policy: an entry whose people never
// moved (a fill-in bot took every one of their seats) loses the game. It
// returns the game's winner and the entries absent: those of them whose
// people had a turn, played for them by the autopilot or a fill-in bot,
// not one whose turn never came because the game ended first (adjudicated
// at a deadline).
func forfeitResult(st *Settlement, order []string, winner string) (string, []string) {
	moved, hadTurn := map[int]bool{}, map[int]bool{}
	for _, m := range st.Moves {
		hadTurn[m.Seat] = true
		if m.Actor == league.ByPlayer {
			moved[m.Seat] = true
		}
	}
	teams := len(order)
	present := make([]bool, teams)
	people := make([]bool, teams)
	called := make([]bool, teams) // a person of the team had a turn
	for _, s := range st.Game.Seats {
		team := s.Seat % teams
		if s.Bot == "" || s.Abandoned {
			people[team] = true
			present[team] = present[team] || moved[s.Seat]
			called[team] = called[team] || hadTurn[s.Seat]
		}
	}
	var shown, absent []string
	for j, e := range order {
		if !people[j] || present[j] {
			shown = append(shown, e)
		} else if called[j] {
			absent = append(absent, e)
		}
	}
	switch {
	case len(shown) == len(order) || len(shown) == 0:
		return winner, absent // nobody or everybody forfeited: the board decides
	case len(shown) == 1:
		return shown[0], absent
	case slices.Contains(shown, winner):
		return winner, absent
	}
	return "", absent // the winner forfeited: the others share a draw
}

// withdrawAbsent withdraws a Swiss's entries absent from a game, from the
// next pairing on, as FIDE's Swiss rules treat a player absent without
// notice: paired on, an entry that is not there hands a win to whoever
// meets it, and its opponents' tie-breaks differ by when they met it. A
// round robin keeps them: its schedule is fixed, and a withdrawn entry's
// later meetings would become byes, worth less to its later opponents
// than the forfeit wins its earlier ones had. The entry's people may
// still enter other tournaments; this one's standings mark it withdrawn.
func withdrawAbsent(tx *gorm.DB, r *tournamentRow, absent []string) error {
	if len(absent) == 0 || competition.Format(r.config().Format) != competition.FormatSwiss {
		return nil
	}
	return tx.Model(&entryRow{}).Where("tournament_id = ? AND id IN ? AND status = ?", r.ID, absent, "active").
		Update("status", "withdrawn").Error
}

// stillPlaying are the entries of a match that have not forfeited the rest
// of its series, in the match's order. Under the forfeit policy an entry
// found absent from a game is out of the series: the games left are
// played by the others (in a match of three, the two present play on as a
// two-team game; the absent one, having lost the games it missed, can
// only finish behind the winner, as every non-winner of a match of three
// does), and with one entry left the match is decided for it. A Swiss
// entry reinstated by an organizer after being found absent keeps the
// forfeit of the match it missed: only later rounds' matches seat it.
func stillPlaying(entries, forfeited []string) []string {
	var out []string
	for _, e := range entries {
		if !slices.Contains(forfeited, e) {
			out = append(out, e)
		}
	}
	return out
}

// seriesLeaders are the entries of a series with the most game wins, in
// entry order: every entry while none has won a game.
func seriesLeaders(entries, winners []string) []string {
	wins := map[string]int{}
	for _, w := range winners {
		if w != "" {
			wins[w]++
		}
	}
	best := 0
	for _, e := range entries {
		best = max(best, wins[e])
	}
	var out []string
	for _, e := range entries {
		if wins[e] == best {
			out = append(out, e)
		}
	}
	return out
}

// seriesTrailing are the entries of a series that finished below those
// level at the top, by game wins: in a match of three drawn between two
// that won a game each, the one that won none (it loses the match).
func seriesTrailing(entries, winners []string) []string {
	leaders := seriesLeaders(entries, winners)
	var out []string
	for _, e := range entries {
		if !slices.Contains(leaders, e) {
			out = append(out, e)
		}
	}
	return out
}

// beaten are the entries of a finished match with no winner that finished
// below those level at the top (competition.Result.Beaten).
func (m matchRow) beaten() []string {
	if m.Winner != nil || m.Bye || m.Status != "finished" {
		return nil
	}
	return seriesTrailing(m.entries(), m.winners())
}

// betterSeed is the entry that goes through an elimination match still
// drawn after its replays (or at its deadline), given its games' winners:
// the better seed of the entries level at the top. In a match of three,
// one that won no game does not go through on its seed past two that won
// one each. A failure to read the entries fails the settlement (it is
// retried), rather than handing the match to whoever sat first.
func betterSeed(tx *gorm.DB, id string, entries, winners []string) (string, error) {
	entries = seriesLeaders(entries, winners)
	all, err := activeEntries(tx, id)
	if err != nil {
		return "", err
	}
	for _, e := range competition.SeedOrder(all) {
		if slices.Contains(entries, e.ID) {
			return e.ID, nil
		}
	}
	return entries[0], nil
}

// StartRound is the round:start task: the round is paired and its games
// created if it is due and the previous round is over; otherwise nothing
// happens (the last game of the previous round starts it).
func (t *Tournaments) StartRound(ctx context.Context, id string, n int) error {
	var rows []roundRow
	if err := t.db.WithContext(ctx).Where("tournament_id = ? AND number = ?", id, n).Find(&rows).Error; err != nil {
		return err
	}
	if len(rows) == 1 && rows[0].StartsAt != nil {
		// asynq fires up to a second early: start on the second. A task
		// earlier than that comes back at the round's time (checked under
		// the lock).
		if wait := rows[0].StartsAt.Sub(t.now()); wait > 0 && wait <= timerSlack {
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	err := t.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		r, err := readTournament(tx, id, true)
		if err != nil {
			return err
		}
		if !league.TournamentLive(r.Status) {
			return nil // over, or called off: no round of it starts
		}
		// Checked again under the tournament's lock, which Schedule takes.
		// A round not due yet (moved later, or this worker's clock is
		// behind the one that moved the task) starts at its time: the
		// task comes back then, as it may be the round's only one.
		var due []roundRow
		if err := tx.Where("tournament_id = ? AND number = ?", id, n).Find(&due).Error; err != nil {
			return err
		}
		if len(due) == 1 && due[0].StartsAt != nil && due[0].StartsAt.Sub(t.now()) > timerSlack {
			return &league.NotYet{At: *due[0].StartsAt}
		}
		if r.Status == league.TournamentRegistration && n == 1 {
			if err := t.beginLocked(tx, fx, r); err != nil {
				return err
			}
		}
		if r.Status != league.TournamentRunning || n != r.CurrentRound+1 {
			return nil
		}
		return t.advanceLocked(tx, fx, r)
	})
	if code := league.ErrorCode(err); code == league.EINVALID || code == league.EPRECONDITION {
		// The set-up or the entries do not allow the round (too few
		// entries, or a game the game layer refuses): no retry can help,
		// so the task ends here, loudly, with what an organizer needs to
		// act on. The round stays scheduled; nothing of it was kept.
		t.logger.Error("tournament round cannot start; it stays scheduled until an organizer starts it by hand or schedules it again",
			"tournament", id, "round", n, "error", err)
		reason := err.Error()
		if e := (*league.Error)(nil); errors.As(err, &e) {
			reason = e.Message
			for _, f := range e.Fields {
				reason += fmt.Sprintf("; %s: %s", f.Field, f.Message)
			}
		}
		if err := t.db.WithContext(ctx).Model(&roundRow{}).Where("tournament_id = ? AND number = ? AND paired_at IS NULL", id, n).
			Update("start_error", reason).Error; err != nil {
			return err // the organizer must see it: retry
		}
		return nil
	}
	return err
}

// RoundDeadline is the round:deadline task: games of the round still being
// played are finished by the tournament's policy. A paused tournament's
// games are left alone: the organizer is sorting something out, and the
// resume applies a deadline that passed meanwhile (see Update); a
// cancelled one's were aborted. The task of a deadline since moved does
// nothing: the move scheduled the new time's task.
func (t *Tournaments) RoundDeadline(ctx context.Context, id string, n int, due time.Time) error {
	db := t.db.WithContext(ctx)
	var rows []roundRow
	if err := db.Where("tournament_id = ? AND number = ?", id, n).Find(&rows).Error; err != nil {
		return err
	}
	if len(rows) != 1 || rows[0].Deadline == nil {
		return nil // the deadline was taken away
	}
	deadline := *rows[0].Deadline
	if !due.IsZero() && !sameSecond(deadline, due) {
		return nil
	}
	// A task well before the deadline (this worker's clock is behind the
	// one that scheduled it, or the task, enqueued before tasks said their
	// deadline, is of one moved later) may be the deadline's only task
	// (the same deadline enqueued again now would be this running task's
	// ID, a no-op), so it comes back at the deadline.
	if err := waitDue(ctx, deadline, t.now()); err != nil {
		return err
	}
	return t.transact(ctx, func(tx *gorm.DB, fx *effects) error {
		// The games first, then the tournament: the order in which a
		// game's settlement and an account's closing take them.
		var ids []string
		if err := tx.Raw(`SELECT g.id FROM games g JOIN matches m ON m.tournament_id = g.tournament_id AND m.id = g.match_id
			WHERE g.tournament_id = ? AND m.round = ? AND g.status = ? ORDER BY g.id FOR UPDATE OF g`,
			id, n, league.StatusActive).Scan(&ids).Error; err != nil {
			return err
		}
		// The pause takes this lock too, so it commits wholly before the
		// status is read here (and the games are left alone) or waits
		// until they are finished.
		r, err := readTournament(tx, id, true)
		if err != nil {
			return err
		}
		// A move of the deadline takes the same lock: one made since the
		// read above has scheduled its own task.
		var current []roundRow
		if err := tx.Where("tournament_id = ? AND number = ?", id, n).Find(&current).Error; err != nil {
			return err
		}
		if len(current) != 1 || current[0].Deadline == nil || !sameSecond(*current[0].Deadline, deadline) {
			return nil
		}
		if t.beforeDeadlineWork != nil {
			t.beforeDeadlineWork()
		}
		if r.Status != league.TournamentRunning {
			// Paused: the resume applies it. Cancelled: its games were
			// aborted, and the cancel took this lock to do it.
			return nil
		}
		finish := t.games.handToBotsIn
		if c := r.config(); c.AtDeadline == "adjudicate" {
			finish = t.games.adjudicateIn
			if c.NoShow == "forfeit" {
				finish = t.games.adjudicateNoShowsIn
			}
		}
		for _, gid := range ids {
			if err := finish(tx, fx, gid); err != nil {
				return err
			}
		}
		return nil
	})
}

// sameSecond compares deadlines as a deadline task's ID names them, to the
// second: a deadline moved within its second keeps its task.
func sameSecond(a, b time.Time) bool { return a.Unix() == b.Unix() }
