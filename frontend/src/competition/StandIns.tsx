// The results of a tournament's matches that a stand-in bot played for a
// player who did not play (a no-show under "bots play for them", or one who
// left the game): the bracket, the round tables and the standings give the
// board's result to the entry, as the tournament keeps it, while the
// player's profile lists the game as abandoned and their rating counts it
// as a loss (README, "Ratings"). Said beside the bracket, so that a win
// does not read as a game the player played.
import type { Entry, Round, Tournament } from '../api/types';
import { andList } from '../components/plural';

/** A match's result for one entry whose players' seats a fill-in bot played after they did not play. */
export interface StandIn {
  round: number;
  match: string;
  entry: string;
  entryName: string;
  /** the players of the entry a fill-in bot stood in for (abandoned seats) */
  players: string[];
  result: 'won' | 'lost' | 'drew';
  /** the games of the match a bot played for them */
  games: string[];
}

/**
 * standIns lists, of the finished matches, the entries the server marks as
 * played by a fill-in bot for their players (each match's stand_ins: seats
 * filled by a bot and abandoned) and whose result stands (not forfeited
 * under the forfeit policy, which the round tables already say).
 */
export function standIns(rounds: Round[], entries: Entry[]): StandIn[] {
  const out: StandIn[] = [];
  for (const r of rounds) {
    for (const m of r.matches ?? []) {
      if (m.bye || m.status !== 'finished') continue;
      for (const si of m.stand_ins ?? []) {
        const id = si.entry_id;
        if (m.forfeited?.includes(id) || !si.games.length) continue;
        const players = [...new Set(si.players.map((p) => p.username || p.user))];
        if (!players.length) continue;
        const entry = entries.find((e) => e.id === id);
        const result = m.winner ? (m.winner === id ? 'won' : 'lost') : m.beaten?.includes(id) ? 'lost' : 'drew';
        out.push({ round: r.number, match: m.id, entry: id, entryName: entry?.name ?? id, players, result, games: si.games });
      }
    }
  }
  return out;
}

/**
 * standInText says one such result: "Round 2: bob won with a stand-in bot.
 * A fill-in bot played bob's seat (bob did not play it out); the result
 * stands in the tournament, and bob's rating counts the game as a loss."
 */
export function standInText(s: StandIn, rated: boolean): string {
  const names = andList(s.players);
  const one = s.players.length === 1;
  const seats = one ? `${names}'s seat` : `the seats of ${names}`;
  const games = s.games.length === 1 ? 'the game' : 'those games';
  const rating = rated ? `, and ${one ? `${names}'s rating counts` : 'their ratings count'} ${games} as ${s.games.length === 1 ? 'a loss' : 'losses'}` : '';
  return `Round ${s.round}: ${s.entryName} ${s.result} with a stand-in bot. A fill-in bot played ${seats} (${names} did not play it out); the result stands in the tournament${rating}.`;
}

/** StandIns lists a tournament's results that a stand-in bot played, as its rounds mark them. */
export function StandIns({ t, rounds, entries }: { t: Pick<Tournament, 'rated'>; rounds: Round[]; entries: Entry[] }) {
  const list = standIns(rounds, entries);
  if (!list.length) return null;
  return (
    <div class="stand-ins">
      <h3>Results with a stand-in bot</h3>
      <ul>
        {list.map((s) => (
          <li key={`${s.match}:${s.entry}`} data-entry={s.entry} data-result={s.result}>
            {standInText(s, t.rated)}{' '}
            {s.games.map((g, i) => (
              <span key={g}>
                {i > 0 && ', '}
                <a href={`/games/${g}/replay`}>{s.games.length === 1 ? 'the game' : `game ${i + 1}`}</a>
              </span>
            ))}
          </li>
        ))}
      </ul>
    </div>
  );
}
