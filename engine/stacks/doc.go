// Package stacks is the rules engine for Sequence Stacks, the card game
// (rules.md part 2, seed 000): pure, deterministic, standard library only.
//
// A State is a comparable value holding the whole game, hidden cards and the
// generator included. New deals it from a Config and a seed; Legal says
// whether a Move may be applied and why not; Apply applies it (a refused move
// changes nothing); LegalMoves lists every legal move into a caller's buffer
// without allocating; Outcome says whether the game is won or drawn. Seats
// see a View (ViewFor, SpectatorView), never the State; FromView rebuilds a
// State consistent with a view from sampled hidden cards, for bots that
// determinize. Position, FromPosition and ExportVector convert to and from
// the rule-vector format of vectors.md. Replay rebuilds a game from its
// set-up, seed and moves: store those, not a position, since a position does
// not carry the generator. SelfPlay plays random games.
//
// # Who acts
//
// In PhasePlay the player whose turn it is plays cards, then ends the turn
// with a discard. Completing a pile opens PhaseWindow, the block window of
// rules.md 2.3: every other seat may answer once, with BLOCK if it holds one
// or with noblock (any seat may answer noblock, so answering reveals nothing
// about who holds a BLOCK), and the server may close it. MayAct, the View's
// Window and LegalMovesFor say who may act. The window closes on the first
// BLOCK (no chip), when every other seat has answered noblock, or on the
// server's close (the chip is granted). The close is how a server ends the
// fixed-length window of rules.md 2.3 when its time runs out. Closing once
// every seat has declined lets a window with only bot opponents (who answer
// at once) end at once; with a human opponent, a server that must not end
// the window early except on a BLOCK keeps the humans' noblock answers
// until the deadline, or does not offer them and just sends close.
//
// # Notation
//
// A move's text does not name its seat: the seat is whoever submits it
// (ParseMove(seat, text); Server, -1, for the server). Cards are the codes of
// rules.md 2.1 (R1…R5 RW B1…B5 BW SKIP REVERSE STEAL_CARD BLOCK STEAL_CHIP);
// piles are numbered from 0 in table order, seats from 0.
//
//	R3>0                 play R3 from the hand on pile 0
//	R1>new  RW>new       start a new pile (a wild acts as 1)
//	^R3>1                play the top of one's own discard pile (^ on any play)
//	SKIP  REVERSE        play a special card (^SKIP from the discard pile)
//	STEAL_CARD@2:discard take the top of seat 2's discard pile
//	STEAL_CARD@2:hand    take a random card from seat 2's hand
//	STEAL_CHIP@1:red     take one of seat 1's red chips
//	/B2                  end the turn by discarding B2, then draw to five
//	/                    end the turn with an empty hand (nothing to discard)
//	BLOCK                block the completion in an open block window
//	noblock              answer the block window without blocking
//	close                the server closes the block window (time is up)
//
// Every move has exactly one text and ParseMove(m.Seat, m.String()) == m.
//
// # Rulings where rules.md is silent
//
//   - The chip for a completion is granted when the block window closes
//     without a block, not at the completion, so a BLOCK can deny even a
//     winning chip; a win from that chip ends the game at that moment. The
//     pile itself leaves the table at the completion. A window opens after
//     every completion, even when the supply has no chip of that colour
//     (whether it opens depends on nothing hidden; a block then only spends
//     the BLOCK).
//   - In vectors, the step {"no_block": true} is the window-level close of
//     vectors.md (the server's close), whoever it names; the engine's
//     per-seat answer is the runner's extension {"seat": S, "answer":
//     "no_block"}. A step that is not an answer first closes an open window,
//     and that close stands even when the step is then refused.
//   - Each other seat answers a window at most once: a seat that answered
//     noblock cannot block later in the same window. The completer cannot
//     act in its own window: its BLOCK and noblock are refused with
//     ErrNotYourTurn (it is not among the seats that answer) and its plays
//     and discards with ErrWindowOpen until the window closes (a vector step
//     by it closes the window first).
//   - The empty-hand draw of 2.2.2 holds as an invariant: whenever, in
//     PhasePlay, the player whose turn it is has an empty hand and there is
//     anything to draw, they draw (up to) five at once — after a play empties
//     the hand, at the start of a turn, and when cards reach the set-aside
//     pile while the hand is empty. While a window is open the draw waits for
//     it to close (the game may end there). "/" (end the turn without a
//     discard) is legal exactly when the hand is empty, which then means
//     nothing is left to draw.
//   - Special cards may be played from the top of one's own discard pile like
//     any other card ("each from the hand or from the top of the discard
//     pile"), except BLOCK, which is played only from the hand, only in a
//     window; a BLOCK on top of a discard pile stays there until covered.
//   - A special card must take its effect to be played: STEAL_CARD needs
//     another seat with a non-empty discard pile (discard) or hand (hand);
//     STEAL_CHIP needs another seat holding a chip of the named colour, and
//     is refused when that chip would make the thief meet the winning
//     condition. A card that cannot take effect stays in the hand (or may be
//     discarded).
//   - STEAL_CARD from the hand takes a uniformly random card, drawn with the
//     game's generator over the target's hand in kind order. Stolen cards go
//     to the thief's hand; hands have no upper limit (the end-of-turn draw
//     only fills up to five). The victim, like a blocker, draws no
//     replacement before the end of its own next turn, unless its hand is
//     empty when that turn starts.
//   - SKIP skips the seat next in turn order at the moment it is played; a
//     REVERSE later in the same turn does not move it. Skips do not stack: a
//     seat loses at most its next turn, however many SKIPs named it (a SKIP
//     on a seat already skipped changes nothing). Otherwise a player whose
//     empty hand keeps drawing back the SKIP it just set aside could skip a
//     seat forever. When the turn passes, skipped seats are passed over and
//     their skip cleared, which can come back to the player who just
//     finished (with two players SKIP means playing again). A lost turn is
//     not a finished turn for the play cap.
//   - REVERSE with two players flips the direction, which changes nothing.
//   - The two-player box is 115 cards: 120 minus the five rules.md 2.1
//     removes (1 BLOCK, 2 STEAL_CHIP, 1 STEAL_CARD, 1 SKIP). The figure 112
//     sometimes quoted is the bordered Sequence deck, not this one.
//   - The play cap counts finished turns; when the cap-th turn ends the game
//     is drawn and the turn does not pass.
//   - Completing a pile removes it from the table list; the piles after it
//     move down one index. A new pile is appended at the end.
//   - Hands are multisets, always listed in kind order (R1…R5 RW B1…B5 BW
//     SKIP REVERSE STEAL_CARD BLOCK STEAL_CHIP), so nothing leaks the order
//     cards were drawn in.
//   - The deal: the box in kind order is shuffled with rng.Shuffle over
//     rng.New(seed); the top of the draw pile is the end of that array; five
//     cards are dealt one at a time, seat 0 first. A reshuffle moves the
//     set-aside pile, oldest card first, into the empty draw pile and
//     shuffles it with the same generator, which also draws the random
//     STEAL_CARD pick; so a game replays bit for bit from set-up, seed and
//     moves.
//   - A position (vector or FromView) may hold fewer cards than the box and
//     fewer chips than 40: the rest are out of play. More copies of a card
//     than the box holds for the player count, more than 20 chips of a
//     colour between the players and the supply, malformed piles, more than
//     two piles of a colour, or a game in play where someone already meets
//     the winning condition are refused as set-up errors. If the player whose
//     turn it is has an empty hand, they draw five at once, as at the start
//     of a turn. Imported positions have no seed; the generator is seeded
//     from the caller's seed (vectors use the zero seed).
//   - A seat that runs out of time: TimeoutMove closes a window, and
//     otherwise discards the first card in kind order (or ends the turn).
package stacks
