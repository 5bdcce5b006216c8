// Package competition is the pure logic of Seqleague's competitions:
// formats, pairings, brackets, standings and tie-breaks. It does no I/O,
// reads no clock and uses no global random source; every function is
// deterministic in its arguments (the searches below draw from the
// engine's own generator with seeds fixed by the input), so the service
// layer can recompute a round or a bracket from stored rows at any time.
// Errors wrap ErrInvalid (bad input: league.EINVALID) or ErrState (not
// allowed now: league.EPRECONDITION). Config.CheckSettings names the
// settings no number of entries can make valid (Swiss rounds at most
// MaxSwissRounds, at most MaxGroups groups advancing at most MaxAdvance
// each, each tie-break once, double elimination and third-place matches
// in matches of two), so that a competition is refused when it is set up
// rather than when it is due to start.
//
// # Entries, seeds and matches
//
// An entry is an individual or a fixed team, identified by a string ID,
// with an optional seed (1 is the top) and a rating. SeedOrder ranks them:
// seeded entries by seed, then unseeded ones by rating, highest first, then
// by ID; position i of that order is seed i+1 everywhere below.
//
// A match is played between MatchSize entries: 2 or 3 teams in Sequence,
// 2 to 6 players in a Stacks free-for-all. It is one game or a best-of-N
// series. SeriesWinner decides a series: an entry has won once its game
// wins exceed every other entry's wins plus the games still to play of N;
// a drawn game counts for nobody. (Best of three between two: first to two
// wins.) A series level after its N games is settled by the service
// (league/postgres), not here: a round robin or Swiss match ends drawn; an
// elimination match plays at most two more games, the first to leave one
// entry leading alone taking it, and if it is still level after them the
// better seed (SeedOrder) of the entries level at the top goes through. A
// series still open at its round's deadline goes to the entry leading it
// alone, if any, else as above (drawn, or the better seed in a knockout).
// A drawn match of three or more is drawn only by the entries level at the
// top: those with fewer game wins lose it (Result.Beaten).
//
// Within a match the order of Pairing.Entries is the seating: the first
// seat starts. Every pairing function balances seats: the entry that has
// sat least often in the first seat takes it, then the second, and so on.
//
// # Round robin
//
// RoundRobin (and NextRound) returns the whole schedule; the round robin
// is single (every pair meets once) or double (twice).
//
//   - Matches of two: the circle method. With an odd number of entries a
//     phantom joins and its opponent has the bye, so every entry sits out
//     exactly once. n−1 rounds (n with a bye). Double: the same rounds
//     again with the seats swapped, so each pair meets once in each order.
//   - Matches of three, n ≡ 3 (mod 6): a Kirkman triple system, in which
//     every pair meets exactly once in (n−1)/2 rounds (9 entries: 4 rounds).
//     The package builds one for every such n up to 63 and most beyond
//     (3; 2q+1 and 3q for prime powers q ≡ 1 mod 6; products; 2·4^s+1).
//     Double: the same rounds twice.
//   - Matches of size k a prime power (3, 4, 5) and n = k^s: the lines of
//     the affine space AG(s, k), grouped by direction: every pair meets
//     exactly once in (n−1)/(k−1) rounds.
//   - Otherwise n mod size entries sit out each round, rotating through
//     the seed order so bye counts differ by at most one, and a simulated
//     annealing search (fixed seed) arranges the matches: first so that
//     every pair meets (twice when double), then so that the numbers of
//     meetings are as even as possible (it minimises Σ c² over pairs, c a
//     pair's meetings, which is least exactly when all counts are within
//     one). It starts from the fewest rounds in which every entry can meet
//     everyone; with matches of three it takes up to three more rounds when
//     those give counts within one (6 entries cannot do better than 1 to 3
//     meetings in 5 rounds; a field of up to 12 entries whose search ends
//     unbalanced searches again from three more seeds, one search being
//     easily trapped with few matches a round), with larger tables it adds rounds only until
//     every pair meets (a covering-design problem: counts may then differ by
//     more than one). A double round robin of this kind is the single one
//     followed by the same rounds relabelled so that extra byes and extra
//     meetings fall on different entries (or, for up to 24 entries, a
//     direct search when that is more even).
//
// Round-robin byes score Points.Bye (by default the average result, so a
// rotating extra bye neither helps nor hurts). Round robins take at most
// MaxRoundRobinEntries entries; schedules are cached once computed.
//
// # Swiss
//
// SwissRound pairs the next round from the results so far. Entries are
// ranked by points, then seed; a score group is the entries on equal
// points. The default number of rounds (SwissRounds) is ⌈log₂ n⌉ for
// matches of two, ⌈log_size n⌉ otherwise.
//
// Matches of two are a maximum-weight perfect matching (Edmonds' blossom
// algorithm) on the entries plus, for an odd field, a bye vertex, with
// weights that order the candidates lexicographically:
//
//  1. no rematch and no second bye (a win by forfeit counting as a bye,
//     below): such pairs are not candidates at all; only when no perfect
//     matching avoids them are they admitted, at a penalty that makes
//     their number the least possible;
//  2. the bye to the lowest-ranked entry that has not had one and whose
//     absence leaves a legal pairing of the rest;
//  3. the least Σ d² over pairs, d the distance between the two entries'
//     score groups (capped at 16): pair within score groups, float as few
//     entries as possible and as short a way as possible;
//  4. the pairing closest to the Dutch system's: within a score group the
//     top half meets the bottom half in order (1 v 5, 2 v 6 … in a group of
//     eight), an odd entry out floating to the next group; the distance is
//     Σ over pairs {i, j} of |j − ideal(i)| + |i − ideal(j)| in ranks.
//
// Up to 300 entries every pair is a candidate and the result is exact.
// Above that the candidates are each entry's nearest ranks and the ranks
// around its Dutch partner (widened once when that is not enough); if the
// window has no legal perfect matching, an augmenting-path search over all
// legal pairs either finds one, whose pairs then join the candidates (so an
// avoidable rematch is still never made), or proves rematches unavoidable,
// and then a maximum legal matching completed among the leftover entries
// bounds the search for the fewest.
//
// A match an entry forfeited (Result.Forfeited: absent, it never played
// it) was not played, and the pairing counts only games played, as FIDE's
// Swiss rules do (C.04.1: two players shall not *play* each other twice;
// its Dutch rules long said outright that a pairing not actually played
// "is not considered to be illegal in future rounds", and FIDE counts an
// unplayed game for no colour): the absent entry's meetings there are no
// meetings, so it may be paired with the same opponents again (once
// reinstated: the service withdraws it), nor a seat sat. The entries
// present, if two or more, played each other: their meetings and seats
// count; one present alone played nobody. A win
// with every other entry absent is points without a game, and bars the
// bye as a bye does (C.04.1 d, art. 4 from July 2025); so in matches of
// three or more it counts among the entry's byes.
//
// Matches of three or more: n mod size entries sit out, the lowest-ranked
// among those with the fewest byes; the rest are grouped twice — Dutch
// style (score groups top-down, the remainder of a group floating down,
// match i of a group of k matches taking the group's i-th, (i+k)-th,
// (i+2k)-th … entries) and greedily (the best-ranked entry left with the
// next best-ranked entries none of the match has met) — each improved by
// swapping entries between matches to minimise repeated pairs, then Σ d²
// over pairs; the grouping with fewer repeats wins. Grouping without
// repeats is NP-hard in general, so this minimum is heuristic.
//
// A Swiss bye scores Points.Bye, a win by default.
//
// # Single elimination
//
// SingleElimination builds a knockout in matches of size entries. The first
// round has size^k slots, the fewest that hold every entry, filled in the
// standard seed order (seedSlots: 1 v 16, 8 v 9, 4 v 13, 5 v 12, 2 v 15 …
// for sixteen; the top size seeds in different parts of the bracket) with
// byes where the seeds run out, so the byes fall to the top seeds, and seeds
// 1 and 2 can meet only in the final. The winner of each match advances.
// A first-round match whose byes leave it two or more entries is played by
// those entries alone, as a game of that many teams (matches of three with
// 4 entries: seeds 1 and 2 advance, 3 plays 4 in a two-team game, and the
// final is of three), and a match left with one entry is a walkover: that
// entry advances unplayed (10 entries: 27 slots, seeds 1–8 advance, 9 plays
// 10, then 3 matches of three and a final). With ThirdPlace (matches of
// two) the semi-final losers play for third.
//
// # Double elimination
//
// DoubleElimination (matches of two) has a winners bracket as above; a
// losers bracket whose odd rounds pair its survivors and whose even rounds
// bring in the losers of the next winners round — in reverse order the
// first time, halves swapped the next, alternating, so that rematches come
// late; a grand final between the two brackets' champions; and with Reset
// a second grand final, played only when the losers-bracket champion wins
// the first. An entry is out after its second loss. Byes carry through:
// the "loser" of a bye is nobody, a match with one entry is a walkover and
// one with none is void.
//
// # Groups then playoffs
//
// Groups deals the entries into Config.Groups groups by snake seeding
// (seeds 1…G to groups A…, the next G back from the last group to A, and
// so on). Each group plays a round robin (NextRound returns every group's
// round r together, pairing IDs prefixed by the group). GroupStandings
// ranks each group; once all are complete, Playoffs seeds the top
// Config.Advance of every group into a single-elimination bracket: group
// winners first (group A first), then runners-up and so on; two entries of
// the same group meeting in the first round are parted by swapping one with
// another entry of the same place where that helps.
//
// # Brackets
//
// A Bracket lists its rounds (for drawing: section, number, name, match
// IDs) and its matches. Every match has slots; a slot holds a seed, the
// winner or loser of an earlier match, or a bye, and shows its entry once
// known. A match is pending (waiting for an earlier one), ready, done,
// walkover, void or skipped. Report(match, winner) returns a new bracket
// with every slot and state recomputed; a result can be corrected until a
// match it feeds has been played. A bracket knows only a match's winner:
// the games of a series are the service's to keep.
// Placements ranks the entries knocked out: the champion 1, the runner-up
// 2, then later exits ahead of earlier ones, entries out at the same stage
// sharing a place (with a third-place match, its winner 3 and loser 4).
// The types are plain exported structs with string enums and no maps, so
// they marshal to JSON as they are.
//
// # Standings and tie-breaks
//
// Standings ranks entries of round-based formats by points, then by each
// configured tie-break in order; each row shows every tie-break's value.
// Entries equal on points and every tie-break share a rank and are listed
// in seed order.
//
// Points (configurable): a match won scores Win, drawn Draw, lost Loss,
// and a bye Bye. DefaultPoints: win 2, draw 1, loss 0. In a match of three
// or more only first place scores: first 2, every other place 0, and a
// drawn match gives every entry 1. A Swiss bye is worth a win; a round-robin
// or group bye is worth 2/size (1 in matches of two).
//
// Tie-breaks. "Opponents" of an entry are, for every match it played,
// every other entry of that match (an entry met in two matches counts
// twice); S(e, o) is e's result against o in a match: 1 if e won, 0 if o
// won, ½ otherwise (a draw, or two non-winners of a three-team match).
//
//   - buchholz: the sum of the final points of the entry's opponents,
//     each counted as scored, its forfeit wins and byes included, as
//     FIDE's Tie-Break Regulations (C.07; art. 16.3 in the current
//     numbering) have counted them since their 2023 revision. (The rule
//     before, from 2009 until then, counted every unplayed round of an
//     opponent as a draw; an organizer who remembers it will find a
//     forfeit winner counted at its full score here, as FIDE now counts
//     it: it was there to play.) Two kinds of an opponent's rounds count
//     a draw instead. In a Swiss, a withdrawn opponent counts a draw for
//     every round it missed after leaving, as FIDE does (16.3.2);
//     otherwise meeting an entry early, before it left, cost Buchholz
//     that meeting it late did not. And a match an opponent forfeited
//     (Result.Forfeited: absent, it never played it) counts a draw
//     whatever it scored there, in every format: that one is ours, the
//     2009 rule kept, where FIDE now counts a forfeit loss as the loss it
//     was (16.2.4) and, in a round robin, any forfeit as a game (15.2).
//     Counted as a loss, it cost those who met the absent entry over the
//     board for a game it never played; and in a Swiss, where an entry
//     found absent is withdrawn at once (league/postgres), the forfeit is
//     in effect the first of the rounds it missed after leaving. The
//     entry's own points stay as scored, in every table.
//     The entry's own unplayed rounds, each bye and each meeting one side
//     forfeited, count a stand-in opponent ("dummy") with the entry's own
//     final points, as art. 16.4 counts them, at most Draw points a round
//     (the rounds being the most any entry has played or sat out).
//     Uncapped, the stand-in of a bye to an entry that then won everything
//     was as strong as the leader, and put that entry above one level on
//     points that had beaten real opponents
//     (TestStandingsByeCountsAtMostADrawARoundInBuchholz); capped, it is
//     worth at most an average opponent. FIDE's current text caps a bye's
//     dummy likewise, over all the tournament's rounds (16.4.2), and a
//     forfeit's at the scheduled opponent's adjusted score (16.4.1); ours
//     counts the rounds so far, so a table in the middle of an event caps
//     at the same share. So the forfeit win neither counts the absent entry
//     as an opponent met nor adds to Sonneborn-Berger. In a match of three
//     that one entry forfeited, the two present played each other: only
//     their meetings with the absent one are unplayed. Sonneborn-Berger
//     gives a dummy nothing, where FIDE counts it there too. Head-to-head
//     and wins count a forfeit as the result it was.
//   - median-buchholz: Buchholz without its highest and its lowest term
//     (when there are at least three terms).
//   - sonneborn-berger: the sum over opponents of S(e, o) × o's final
//     points (a withdrawn Swiss opponent's, and one that forfeited a match,
//     counted as in Buchholz); byes and unplayed meetings add nothing.
//     Where every match seats every entry (three entries in matches of
//     three: a Stacks table of three) it cannot part entries level on
//     points, by arithmetic, not by fault: with no drawn match each
//     entry's value is Win × Σ over pairs of W_a·W_b (W the match wins),
//     the same for all; with draws, entries level on points have as many
//     wins and mirror each other's records, and so do their values, as
//     their head-to-head and wins do. Such entries share a rank
//     (TestSonnebornBergerIsEvenWhenEveryMatchSeatsEveryEntry).
//   - head-to-head: among the entries still tied when it is applied, the
//     sum of S(e, o) over the entry's matches against the others of that
//     tie (shown as 0 for an entry no longer tied).
//   - wins: matches won (byes not counted).
//   - sequences: the sum of the per-match sequence counts the caller
//     supplied (Result.Sequences).
//
// DefaultTieBreaks: Swiss — Buchholz, median Buchholz, Sonneborn-Berger,
// head-to-head, wins; round robin and groups — head-to-head,
// Sonneborn-Berger, wins, sequences.
package competition
