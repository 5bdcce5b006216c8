import { describe, expect, it } from 'vitest';
import {
  defaultScheduleForm,
  defaultTournamentForm,
  expectedRounds,
  formatsFor,
  normalize,
  tieBreaksFor,
  roundInPlay,
  teamSizes,
  startsInPast,
  toDeadlineRequest,
  toScheduleRequest,
  toTournamentRequest,
  validateTournament,
  type TournamentForm,
} from './tournamentForm';

const form = (p: Partial<TournamentForm>): TournamentForm => normalize({ ...defaultTournamentForm('club-1'), name: 'Spring Cup', ...p });

describe('the tournament form', () => {
  it('asks for a rated single-elimination Sequence knockout by default', () => {
    expect(toTournamentRequest(form({}))).toEqual({
      club_id: 'club-1',
      name: 'Spring Cup',
      game: 'sequence',
      variant: 'classic',
      team_size: 1,
      match_size: 2,
      format: 'single-elimination',
      fill_level: 'greedy',
      rated: true,
      seeding: 'rating',
      no_show: 'bots',
      at_deadline: 'bots',
      clock: { turn_seconds: 60 },
    });
  });

  it('offers Stacks no tie-break on sequences, and drops one ticked before the game became Stacks', () => {
    expect(tieBreaksFor('stacks')).toEqual(['buchholz', 'median-buchholz', 'sonneborn-berger', 'head-to-head', 'wins']);
    expect(tieBreaksFor('sequence')).toContain('sequences');
    const ticked = form({ format: 'round-robin', tieBreaks: ['wins', 'sequences'] });
    expect(toTournamentRequest(ticked).tie_breaks).toEqual(['wins', 'sequences']);
    expect(toTournamentRequest(normalize({ ...ticked, game: 'stacks' })).tie_breaks).toEqual(['wins']);
  });

  it('sends every option the organizer set', () => {
    const req = toTournamentRequest(
      form({
        name: '  Club Swiss  ',
        seasonId: 'season-9',
        variant: 'bordered',
        teamSize: 2,
        format: 'swiss',
        rounds: 5,
        tieBreaks: ['sonneborn-berger', 'buchholz'],
        bestOf: 3,
        clockMode: 'bank',
        turnSeconds: 30,
        bankSeconds: 300,
        incrementSeconds: 5,
        fillLevel: 'strong',
        rated: false,
        opens: '2026-05-01T18:00',
        closes: '2026-05-03T18:00',
        minRating: '1400',
        maxRating: '1800',
        minGames: '10',
        seeding: 'manual',
        noShow: 'forfeit',
        atDeadline: 'adjudicate',
        roundGapSeconds: 300,
      }),
    );
    expect(req).toEqual({
      club_id: 'club-1',
      season_id: 'season-9',
      name: 'Club Swiss',
      game: 'sequence',
      variant: 'bordered',
      team_size: 2,
      match_size: 2,
      format: 'swiss',
      rounds: 5,
      tie_breaks: ['sonneborn-berger', 'buchholz'],
      best_of: 3,
      clock: { bank_seconds: 300, increment_seconds: 5 },
      fill_level: 'strong',
      rated: false,
      registration_opens: new Date(2026, 4, 1, 18, 0).toISOString(),
      registration_closes: new Date(2026, 4, 3, 18, 0).toISOString(),
      min_rating: 1400,
      max_rating: 1800,
      min_games: 10,
      seeding: 'manual',
      no_show: 'forfeit',
      at_deadline: 'adjudicate',
      round_gap_seconds: 300,
    });
  });

  it('sends only the options of the chosen format', () => {
    expect(toTournamentRequest(form({ format: 'round-robin', double: true, thirdPlace: true, reset: true })).double).toBe(true);
    const rr = toTournamentRequest(form({ format: 'round-robin', double: false, rounds: 4 }));
    expect(rr.double).toBeUndefined();
    expect(rr.rounds).toBeUndefined();
    const se = toTournamentRequest(form({ format: 'single-elimination', thirdPlace: true, tieBreaks: ['wins'] }));
    expect(se.third_place).toBe(true);
    expect(se.tie_breaks).toBeUndefined(); // knockouts have no tie-breaks
    expect(toTournamentRequest(form({ format: 'double-elimination', reset: true })).reset).toBe(true);
    const gp = toTournamentRequest(form({ format: 'groups-playoffs', groups: 4, advance: 2 }));
    expect([gp.groups, gp.advance]).toEqual([4, 2]);
  });

  it('sends one clock, as the API accepts it: untimed, a time per turn, or a bank with its increment', () => {
    // every setting kept from an earlier choice, so only the mode decides
    const all = { turnSeconds: 30, bankSeconds: 600, incrementSeconds: 5 };
    expect(toTournamentRequest(form({ ...all, clockMode: 'untimed' })).clock).toBeUndefined();
    expect(toTournamentRequest(form({ ...all, clockMode: 'turn' })).clock).toEqual({ turn_seconds: 30 });
    expect(toTournamentRequest(form({ ...all, clockMode: 'bank' })).clock).toEqual({ bank_seconds: 600, increment_seconds: 5 });
    expect(toTournamentRequest(form({ ...all, clockMode: 'bank', incrementSeconds: 0 })).clock).toEqual({ bank_seconds: 600 });
  });

  it('keeps the table legal: Stacks is individual, Sequence teams fill 2–12 seats', () => {
    const stacks = form({ game: 'stacks', matchSize: 4, teamSize: 3 });
    expect(stacks.teamSize).toBe(1);
    const req = toTournamentRequest(stacks);
    expect([req.game, req.variant, req.team_size, req.match_size]).toEqual(['stacks', undefined, 1, 4]);
    expect(teamSizes('sequence', 2)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(teamSizes('sequence', 3)).toEqual([1, 2, 3, 4]);
    expect(form({ matchSize: 3, teamSize: 6 }).teamSize).toBe(1);
    // double elimination and third place need matches of two
    expect(formatsFor(3).map((f) => f.id)).not.toContain('double-elimination');
    const three = form({ format: 'double-elimination', matchSize: 3, thirdPlace: true });
    expect(three.format).toBe('single-elimination');
    expect(three.thirdPlace).toBe(false);
  });

  it('finds what the server would refuse before sending', () => {
    expect(validateTournament(form({}))).toEqual({});
    const e = validateTournament(form({ name: ' ', clubId: '', minRating: '1800', maxRating: '1400', minGames: '-1', opens: '2026-05-03T18:00', closes: '2026-05-01T18:00' }));
    expect(Object.keys(e).sort()).toEqual(['club_id', 'max_rating', 'min_games', 'name', 'registration_closes']);
  });

  it('refuses a rating limit outside 0–4000 at its field, in the server\'s words', () => {
    // the server refused these with a 400 the form never warned of
    for (const [lo, hi] of [['-1', '1800'], ['1400', '4001'], ['5000', '']] as const) {
      const e = validateTournament(form({ minRating: lo, maxRating: hi }));
      const bad = Number(lo) < 0 || Number(lo) > 4000 ? 'min_rating' : 'max_rating';
      expect(e).toEqual({ [bad]: 'must be 0–4000' });
    }
    expect(validateTournament(form({ minRating: '0', maxRating: '4000' }))).toEqual({});
  });
});

describe('the schedule form', () => {
  it('schedules one round with its deadline', () => {
    const f = { ...defaultScheduleForm(2, 3), mode: 'one' as const, startsAt: '2026-06-01T19:00:00', deadline: '2026-06-01T21:00:00' };
    expect(toScheduleRequest(f)).toEqual({
      body: { rounds: [{ number: 2, starts_at: new Date(2026, 5, 1, 19).toISOString(), deadline: new Date(2026, 5, 1, 21).toISOString() }] },
      errors: {},
    });
  });

  it('schedules a whole event from a first start, a count and an interval', () => {
    const f = { ...defaultScheduleForm(1, 4), firstStart: '2026-06-01T19:00:05', interval: 10, intervalUnit: 'seconds' as const, deadlineAfter: 2, deadlineUnit: 'minutes' as const };
    expect(toScheduleRequest(f).body).toEqual({ first_start: new Date(2026, 5, 1, 19, 0, 5).toISOString(), count: 4, interval_seconds: 10, deadline_seconds: 120 });
    const weekly = { ...f, interval: 1, intervalUnit: 'days' as const, deadlineAfter: 0 };
    expect(toScheduleRequest(weekly).body).toEqual({ first_start: new Date(2026, 5, 1, 19, 0, 5).toISOString(), count: 4, interval_seconds: 86400 });
    // round 1 paired already: the series goes on from round 2 (numbered from 1, it was refused with a 409)
    expect(toScheduleRequest({ ...defaultScheduleForm(2, 2), firstStart: '2026-06-01T19:00:05' }).body).toEqual({
      first_start: new Date(2026, 5, 1, 19, 0, 5).toISOString(), first_round: 2, count: 2, interval_seconds: 86400,
    });
  });

  it('refuses a missing start, a deadline before the start and an empty interval', () => {
    expect(Object.keys(toScheduleRequest({ ...defaultScheduleForm(1, 1), mode: 'one' }).errors)).toEqual(['starts_at']);
    const bad = { ...defaultScheduleForm(1, 1), mode: 'one' as const, startsAt: '2026-06-01T19:00', deadline: '2026-06-01T18:00' };
    expect(toScheduleRequest(bad).errors.deadline).toBeTruthy();
    expect(toScheduleRequest({ ...defaultScheduleForm(1, 0), firstStart: '2026-06-01T19:00', interval: 0 }).errors.interval_seconds).toBeTruthy();
  });

  it('tells a start in the past, of a series or of one round', () => {
    const now = new Date(2026, 5, 1, 19).getTime();
    const f = { ...defaultScheduleForm(1, 3), firstStart: '2026-06-01T18:59', startsAt: '2026-06-01T19:01' };
    expect(startsInPast(f, now)).toBe(true);
    expect(startsInPast({ ...f, firstStart: '2026-06-01T19:01' }, now)).toBe(false);
    expect(startsInPast({ ...f, mode: 'one' }, now)).toBe(false);
    expect(startsInPast({ ...f, mode: 'one', startsAt: '2026-06-01T18:00' }, now)).toBe(true);
    expect(startsInPast({ ...f, firstStart: '' }, now)).toBe(false);
  });

  it('suggests as many rounds as the format will play', () => {
    const t = (format: string, extra = {}) => ({ format: format as never, match_size: 2, ...extra });
    expect(expectedRounds(t('single-elimination'), 4)).toBe(2);
    expect(expectedRounds(t('single-elimination'), 5)).toBe(3);
    expect(expectedRounds({ ...t('single-elimination'), match_size: 3 }, 9)).toBe(2);
    expect(expectedRounds(t('round-robin'), 6)).toBe(5);
    expect(expectedRounds(t('round-robin', { double: true }), 5)).toBe(10);
    expect(expectedRounds(t('swiss'), 6)).toBe(3);
    expect(expectedRounds(t('swiss', { rounds: 7 }), 6)).toBe(7);
    expect(expectedRounds(t('double-elimination'), 8)).toBeUndefined();
  });
});

describe("a round's deadline", () => {
  const now = new Date(2030, 0, 31, 18, 0, 0).getTime();

  it('sends a deadline to come as an instant', () => {
    expect(toDeadlineRequest('2030-01-31T19:30:00', now)).toEqual({ body: { deadline: new Date(2030, 0, 31, 19, 30, 0).toISOString() } });
  });

  it('asks again for a deadline missing, malformed, now or past, which would end the games at once', () => {
    expect(toDeadlineRequest('', now)).toEqual({ error: 'When is the new deadline?' });
    expect(toDeadlineRequest('31/01/2030 19:30', now)).toEqual({ error: 'Not a date and time.' });
    expect(toDeadlineRequest('2030-01-31T18:00:00', now)).toEqual({ error: 'The deadline must be in the future.' });
    expect(toDeadlineRequest('2030-01-31T17:59:59', now)).toEqual({ error: 'The deadline must be in the future.' });
  });

  it('is the running round\'s to move, and none when no round is being played', () => {
    expect(roundInPlay([{ number: 1, status: 'finished' }, { number: 2, status: 'running' }, { number: 3, status: 'scheduled' }])).toBe(2);
    expect(roundInPlay([{ number: 1, status: 'finished' }, { number: 2, status: 'scheduled' }])).toBeUndefined();
  });
});
