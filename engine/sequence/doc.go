// Package sequence is the rules engine of Sequence, the board game, in its
// classic (jacks) and bordered (W+ / W-) variants, as fixed by rules.md parts
// 1 and 3. It is pure: no I/O, clock, global randomness or logging. The only
// randomness is the game's own generator (engine/rng), seeded from the game
// seed and held inside the State, which shuffles the deal and every later
// reshuffle, so a game is a function of its set-up, seed and moves.
//
// # Using it
//
//	s, err := sequence.NewGame(sequence.Config{Players: 2, Teams: 2}, seed)
//	moves := sequence.LegalMoves(&s, buf)             // the mover's moves
//	err = sequence.Legal(&s, seat, m)                  // why not, if not
//	s, err = sequence.Apply(s, seat, m)                // a new state, or s and an error
//	err = s.Do(seat, m)                                // the same, in place
//	v := s.ViewFor(seat)                               // what seat may see (rules.md 1.6)
//	d, err := sequence.FromView(v, hands, deck, seed)  // a whole game consistent with v
//
// State is a comparable value of fixed size (about 800 bytes): copying it
// is a snapshot, == compares two games exactly, and LegalMoves with a buffer
// of capacity MaxMoves, Legal, Apply and Do do not allocate on success.
// Table is the part of a State that everyone sees; View is a Table plus the
// viewer's own hand, and never holds another hand, the draw pile or the
// generator.
//
// # Notation
//
// Cells are a1 … j10 (column a–j left to right, row 1–10 top to bottom).
// Cards are rank then suit (7H, TD, JC) or W+ / W-. A window (five cells in a
// line) is written first-last, first being the end nearest the line's start:
// a5-e5, e1-e5, b2-f6, j1-f5.
//
//	7H@e5               place a chip with a board card
//	JC@a2   W+@a2       place a chip with a two-eyed wild
//	7H@e5[a5-e5,e1-e5]  place and name the sequences it completes
//	JSxe5   W-xe5       remove a chip with a one-eyed wild ("x" takes, as in chess)
//	x7H                 turn in a dead card ("x" first: exchange)
//	d7H                 discard a card for a table-talk penalty
//	pass                pass
//	penalty-a           the referee's table-talk penalty on team a
//
// ParseMove reads exactly what Move.String writes (named windows may be given
// in any order and either end first; they are written back in canonical
// order: by direction row, column, diagonal, anti-diagonal, then from the
// line's start).
//
// # Rulings
//
// rules.md leaves these to the engine; each is tested.
//
//   - Deal. The deck is built in card order (spades A…K, hearts, diamonds,
//     clubs, then W+ and W-), every card's copies side by side, shuffled with
//     rng.Shuffle from the seed; the top of the draw pile is the last element.
//     Cards are dealt one at a time from the top, seat 0 first. A golden test
//     pins the deal.
//   - Teams. Seat i plays for team i mod T; seat 0 moves first.
//   - Window choice (1.4). Windows through the placed chip on different lines
//     share only that chip, so the most sequences is the most along each
//     line: two when the chip ends one window and starts the next in a run of
//     nine or ten (the only two windows through it that share one cell), else
//     one if any. Unnamed, each line takes the window nearest its start.
//     Named windows must be exactly a choice giving the most on every line;
//     anything else — fewer, a window that is not five of the team's cells,
//     naming windows for a play that completes none — is refused. A named
//     window that does not pass through the placed chip is a malformed move.
//     LegalMoves lists each placement once, unnamed.
//   - A new sequence must share at most one cell with each of the team's own
//     sequences; other teams' sequences do not limit it (they can share only
//     a corner). Sequences are recorded in the order made; their chips are
//     locked; corners are never locked.
//   - A win (1.5.5). When the team reaches the target the game ends at once:
//     the card played is on the discard pile, no card is drawn, the turn
//     stays with the winner's seat, and every later move (the referee's too)
//     is refused with ErrGameOver.
//   - Dead cards (1.5.1). Only a card printed on the board can be dead (never
//     a jack, W+ or W-). One exchange per turn, before the play, never while
//     a penalty discard is due. The dead card goes on the discard pile before
//     the replacement is drawn, so with an empty draw pile it is reshuffled
//     and may come straight back.
//   - Reshuffle (1.5.3). When a draw finds the draw pile empty, every discard
//     pile — the card just played or exchanged included — is gathered seat 0's
//     pile bottom to top, then seat 1's, and so on, and shuffled with the
//     game's generator. With nothing to gather, nothing is drawn.
//   - Passing (1.5.4). A pass is legal only when no placement or removal is
//     (an available exchange does not matter; exchanging first is allowed)
//     and draws no card. An empty hand has no play, so it passes. As many
//     consecutive passes as there are seats draw the game; a play resets the
//     count, exchanges and penalty discards neither count nor reset it.
//   - Play cap. Placements and removals count as plays; the play that reaches
//     the cap completes normally (draw, turn passes) and the game is drawn,
//     unless it wins.
//   - Table talk (1.7). Penalize(team) is the referee's move, from seat
//     Referee. Each seat of the team owes one discard per penalty (penalties
//     stack), due at the start of that seat's next turn; a seat whose turn
//     has already begun pays at its following one. While a discard is due
//     it is the only legal move; no card replaces it, it goes on the seat's
//     discard pile, and a hand that runs out pays no more. A timed-out choice
//     is the server's: it submits a random d… move.
//   - Ply counts every applied move, the referee's included, so a move sent
//     for an older ply is stale.
//   - Hands keep the order cards were drawn; views and vectors compare them
//     as multisets.
//
// # Positions and vectors
//
// Position is the vectors.md "position", exported by State.Position and read
// by FromPosition; ExportVector writes a whole vector. FromPosition refuses,
// with ErrSetup, any position play cannot reach: a malformed board, a chip
// of a team not in the game, a listed sequence that is not five of the
// team's cells in a line or shares more than one cell with another of its
// team's, a five-in-a-row its team could claim but did not list, a hand
// larger than the deal, a card the variant's deck lacks or more copies than
// it holds, a turn that is no seat. Cards a position leaves out are out of
// play. A team at the target makes a won game (two teams: refused). The
// discard piles' interleaving is taken to be seat 0's pile, then seat 1's.
// Engine extensions, all optional: position fields exchanged, penalty_due,
// penalties_owed, passes and plays; vector field play_cap; step kinds
// {"discard": CARD}, {"penalize": TEAM} (the referee; no seat) and
// {"move": NOTATION}. A step with no seat is made by the seat whose turn it
// is (a penalty: by the referee). A step naming an unknown card or cell
// counts as refused; one naming no action, two, or half of one (play
// without at or remove) is a broken vector, as is an expected field the
// runner does not know.
package sequence
