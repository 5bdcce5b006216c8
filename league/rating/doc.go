// Package rating is Seqleague's team Elo: pure functions that turn one
// finished rated game into rating changes, and a leaderboard order. It does
// no I/O and reads no clock; the caller loads the players' pool states,
// calls Apply, and stores the returned states in the same transaction as the
// game result. Replaying every rated game of a pool in finishing order with
// Replay reproduces the stored ratings bit for bit.
//
// # Pools
//
// A player has one independent rating in each pool and starts at 1500
// (InitialRating) in each:
//
//   - sequence-2team: Sequence games between two teams (classic or bordered
//     deck; the variant does not split the pool);
//   - sequence-3team: Sequence games between three teams;
//   - stacks: Sequence Stacks, every player for themselves.
//
// PoolFor maps a game and its team count to its pool.
//
// # One game
//
// Let N be the number of teams in the game (in Stacks every player is a team
// of one, so N is the number of players). A team's rating R is the mean of
// its players' ratings before the game. For every ordered pair of teams
// (T, O) the score S(T, O) is
//
//   - 1 if T won the game, 0 if O won it,
//   - ½ if neither won (the two teams that did not win a three-team game
//     draw with each other), and
//   - ½ for every pair in a drawn game;
//
// and the expected score is E(T, O) = 1 / (1 + 10^((R_O − R_T) / 400)).
// Every player P of team T changes by
//
//	Δ(P) = K(P) / (N − 1) × Σ over the other teams O of (S(T, O) − E(T, O))
//
// where K(P) is P's own K factor, so teammates with different K move by
// different amounts. Dividing by N − 1 keeps a three-team game worth about
// as much as a two-team game. When all players share one K and all teams the
// same size, the changes of a game sum to zero.
//
// A player whose seat was taken over by a fill-in bot after abandoning the
// game is rated as having lost to every other team: S(P, O) = 0 for every
// other team O, whatever the result, even if their team won. The expected
// scores are still those of the player's team, and the teammates are rated
// from the real result. A team all of whose players abandoned has forfeited
// the game, and the other teams are rated as having beaten it, S(O, T) = 1
// (and two forfeited teams draw, ½), whatever the bots made of the board:
// a player whose opponent walked away must not lose rating to the bot that
// finished for them, and the game's changes still sum to zero. An abandoner
// whose teammates played on loses alone: the other teams are rated from the
// real result, so that game's changes sum to less than zero.
//
// # K factor
//
// K is 40 for a player's first 30 rated games in the pool (the rating is
// provisional and shown with a question mark, "1540?"), then 20. Once a
// player has ever reached 2400 in the pool (Peak ≥ 2400) K is 10 for good,
// even if the rating later falls, and even during the provisional games.
//
// # Determinism
//
// Stored ratings are float64 values never rounded; only Display rounds. So
// that recomputing from history reproduces them exactly, Apply sums in a
// fixed order that does not depend on the order of the seats (teams by
// index, players by ID), and every product is rounded explicitly before it
// is added so that no platform may fuse it into a multiply-add.
package rating
