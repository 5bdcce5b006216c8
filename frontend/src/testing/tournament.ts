// The routes of a tournament page, stubbed from a fixture of
// competition/testdata (one tournament with its entries, rounds, bracket
// and standings), for the tests that open the page.
import type se from '../competition/testdata/se.json';

export function tournamentRoutes(fx: typeof se) {
  const t = fx.tournament;
  return {
    [`GET /tournaments/${t.id}`]: () => fx.tournament,
    [`GET /tournaments/${t.id}/entries\\?limit=100`]: () => ({ items: fx.entries }),
    [`GET /tournaments/${t.id}/rounds`]: () => ({ rounds: fx.rounds }),
    [`GET /tournaments/${t.id}/bracket`]: () => fx.bracket,
    [`GET /tournaments/${t.id}/standings`]: () => ({ items: fx.standings }),
    [`GET /clubs/${t.club_id}`]: () => ({ id: t.club_id, name: 'Dev Club' }),
  };
}
