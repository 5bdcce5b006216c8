// Package bot plays Sequence and Sequence Stacks at three levels, seeing
// only a seat's view: it is fair by construction, because a bot is a
// function of the view, a random source and a budget, and nothing else.
//
//	b, err := bot.ForSequence(bot.Strong)        // or bot.ForStacks
//	m, err := b.Choose(&view, &r, bot.Budget{})  // a legal move of view's seat
//
// Hidden cards are handled by sampling them: the cards the view leaves
// unseen (View.Unseen: the box less the seat's own hand and every pile it
// can see) are shuffled and dealt to the other hands and the draw pile in
// the sizes the view shows, and FromView rebuilds a whole game from them (a
// determinization). The same view, the same random source and the same
// iteration budget always give the same move; two games that differ only
// in cards the seat cannot see give it the same move too (fair_test.go).
//
// # Levels
//
// random: a uniformly random legal move. In Sequence a dead card is turned
// in first whenever one is held.
//
// greedy: one-ply heuristics, no search.
//   - Sequence. Every legal move is scored on the 192 windows (five cells in
//     a line) through its cell. A window is live for a team while no other
//     team's chip is in it and it could still be claimed. A placement earns
//     for each of the team's live windows it extends (more the fuller the
//     window: 1, 3, 10, 30 for a window holding 0–3), for each opponent's
//     live window it kills (0.5, 2.5, 9, 400 for one holding 1–4; a four
//     that would win the game 20,000), 1,000 for a sequence and 100,000 for
//     the winning one. A two-eyed jack costs 150 and a one-eyed jack 90, so
//     two-eyed jacks are kept for completing a sequence or stopping a four,
//     and one-eyed jacks are spent on the chip whose removal breaks the
//     most dangerous windows. Dead cards are always turned in first.
//   - Stacks. In a block window it blocks every chip that would bring the
//     completer nearer a win (the winning chip above all), and lets through
//     a chip the completer does not need. On its turn it plays STEAL_CHIP
//     when the chip helps it or hurts the victim, SKIP (never on a seat
//     already skipped), STEAL_CARD (the victim's discard top when it wants
//     that card, else a random card from the hand of the player nearest a
//     win) and REVERSE when that makes the most dangerous rival wait. Then
//     it searches its own pile plays this turn (the cards in hand and on its
//     discard pile, up to eight plays, pile by pile) for the plan with the
//     most value: chips that bring it nearer a win, cards played (each one
//     is a card drawn at the end of the turn; emptying the hand draws five
//     at once), less the wilds spent and the danger of the piles it leaves
//     (a pile left at height h is completed by the next player with
//     probability 0.02, 0.06, 0.18, 0.5 for h = 1…4, times what that chip
//     is worth to the rival it helps most). It plays the plan's first card,
//     or with no plan worth playing discards its least useful card. It never
//     plays a card that would only come straight back (a lone SKIP or
//     REVERSE with nothing left to draw), which would spin a turn forever.
//
// strong: a search, anytime within its budget. It is a determinized Monte
// Carlo tree search whose tree is one level deep (search.go): the greedy
// order supplies the candidates (its six best moves); each iteration deals
// one determinization and plays every remaining candidate from it with
// the same roll-out randomness (common random numbers, so that the luck of
// the deal cancels out of the comparison); sequential halving drops the
// weaker half of the candidates in rounds; and the greedy's own choice is
// kept unless another candidate beats it, deal by deal, by more than one
// standard error. Roll-outs are greedy. In Sequence every seat plays the
// greedy scores (two-eyed jacks weighed only on the gaps of live fours,
// one-eyed jacks only on chips of live threes and fours, with a little
// noise that is a function of the deal and the move, so that the
// candidates' roll-outs stay alike) for twelve plies, and the position is
// then scored. At tables of two and of four players a learned value scores
// it (seqvalue.go): a logistic model over sixteen features of each team's
// board and hands (sequences, live windows, the gaps of fours and whether
// the team holds their cards, jacks, whose move it is), fitted to the
// positions of 12,000 roll-out-policy games at that table; the leaf is a
// determinized state, so it may read every hand. At other tables, where
// no fit has been measured, a logistic
// of the teams' live windows and sequences scores it. In
// Stacks every seat plays the greedy policy for six turns, block windows
// included, and the position is scored by a logistic of each seat's need
// of chips. Each side's reward goes to its team, so teammates pull
// together. A move that wins on the spot is played without a search.
//
// In Sequence the strong level also reads the other seats' hands from
// their play (seqread.go). The discard log (Table.DiscardLog) says which
// card each seat played where, so the board each play was made on can be
// rebuilt by taking later plays back one by one. A card a seat holds now
// was in its hand at its last few decisions; if the card's best move would
// have outscored, by the greedy scores, the move the seat made, the seat
// probably does not hold it. For each seat and each k, every card kind gets
// the odds of the seat's play if it held the card through its last k
// decisions, under a soft greedy model (a move d points below the best is
// chosen with odds e^-d). A deal walks back through each seat's draws,
// youngest first: the last is still held; each earlier one is still held
// with the prior odds that it survived the plays since, times how many
// cards the odds at its age leave plausible, and is then dealt by those
// odds. A card the seat played that would already have been its better
// play one decision earlier was drawn in between, so that draw counts as
// played since, not still held. So a hand's old cards must pass all their
// decisions together. It looks back at most 40 decisions per seat, and
// only as far as the log goes: a reshuffle starts it again.
//
// # Budgets
//
// Budget.Iterations counts roll-outs (one candidate played out from one
// deal); 0 means DefaultSequenceIterations (at every table size) or
// DefaultStacksIterations, chosen so that the strong level decides within
// 200 ms at the 99th percentile on one core. Budget.Stop may end a search
// early (a time budget; the engine reads no clock itself), at the cost of
// determinism: arenas and tests use iteration budgets only.
//
// # Arena
//
// ArenaSequence and ArenaStacks play one game of a run between two levels;
// `seqleague arena` runs them in parallel and reports A's wins with a
// Wilson interval and the implied Elo difference. Game i is dealt from
// deal i/k (k sides) and A plays side i mod k, so every deal is played with
// A on each side once. In Sequence each team is one level (A one team, B
// the others); in Stacks A plays one seat and B every other seat.
package bot
