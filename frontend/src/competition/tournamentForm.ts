// The organizer's forms as plain data: the tournament set-up, the round
// schedule and a round's deadline, each with its validation and the exact request body it sends
// (unit-tested; the components only bind inputs to these fields).
import type { Format, NewTournament, Round, RoundDeadlineRequest, ScheduleRequest, TieBreak, Tournament } from '../api/types';
import { toClock, type ClockChoice } from '../components/form';
import { fromLocalInput, UNITS, type Unit } from './time';

export const FORMATS: { id: Format; name: string }[] = [
  { id: 'single-elimination', name: 'Single elimination' },
  { id: 'double-elimination', name: 'Double elimination' },
  { id: 'round-robin', name: 'Round robin' },
  { id: 'swiss', name: 'Swiss' },
  { id: 'groups-playoffs', name: 'Groups, then playoffs' },
];

export const FORMAT_NAMES: Record<string, string> = Object.fromEntries(FORMATS.map((f) => [f.id, f.name]));

export const TIE_BREAKS: TieBreak[] = ['buchholz', 'median-buchholz', 'sonneborn-berger', 'head-to-head', 'wins', 'sequences'];

/** DEFAULT_TIE_BREAKS are the server's when none are chosen (league/competition). */
export const DEFAULT_TIE_BREAKS: Record<string, TieBreak[]> = {
  swiss: ['buchholz', 'median-buchholz', 'sonneborn-berger', 'head-to-head', 'wins'],
  'round-robin': ['head-to-head', 'sonneborn-berger', 'wins', 'sequences'],
  'groups-playoffs': ['head-to-head', 'sonneborn-berger', 'wins', 'sequences'],
};

/** tieBreaksFor are the tie-breaks a game can rank on: Stacks makes no sequences (the server refuses them there, and leaves them out of its defaults). */
export function tieBreaksFor(game: string, all: TieBreak[] = TIE_BREAKS): TieBreak[] {
  return game === 'stacks' ? all.filter((t) => t !== 'sequences') : all;
}

export const BOT_LEVELS = ['random', 'greedy', 'strong'] as const;

/** Players at a Sequence table (rules.md 1.3): 2, 3, 4, 6, 8, 9, 10, 12. */
const SEQUENCE_PLAYERS = new Set([2, 3, 4, 6, 8, 9, 10, 12]);

export function matchSizes(game: string): number[] {
  return game === 'stacks' ? [2, 3, 4, 5, 6] : [2, 3];
}

/** teamSizes lists the team sizes that make a legal table with matchSize teams. */
export function teamSizes(game: string, matchSize: number): number[] {
  if (game === 'stacks') return [1];
  return [1, 2, 3, 4, 5, 6].filter((t) => SEQUENCE_PLAYERS.has(t * matchSize));
}

/** formatsFor: double elimination is for matches of two. */
export function formatsFor(matchSize: number): { id: Format; name: string }[] {
  return FORMATS.filter((f) => f.id !== 'double-elimination' || matchSize === 2);
}

export function isElimination(format: string): boolean {
  return format === 'single-elimination' || format === 'double-elimination';
}

export interface TournamentForm extends ClockChoice {
  name: string;
  clubId: string;
  seasonId: string;
  game: 'sequence' | 'stacks';
  variant: 'classic' | 'bordered';
  teamSize: number;
  matchSize: number;
  format: Format;
  double: boolean;
  rounds: number; // Swiss; 0 is enough to find a winner
  thirdPlace: boolean;
  reset: boolean;
  groups: number;
  advance: number;
  tieBreaks: TieBreak[]; // none: the format's defaults
  bestOf: number;
  fillLevel: (typeof BOT_LEVELS)[number];
  rated: boolean;
  opens: string; // datetime-local
  closes: string;
  minRating: string;
  maxRating: string;
  minGames: string;
  seeding: 'rating' | 'manual' | 'random';
  noShow: 'bots' | 'forfeit';
  atDeadline: 'bots' | 'adjudicate';
  roundGapSeconds: number;
}

export function defaultTournamentForm(clubId = ''): TournamentForm {
  return {
    name: '',
    clubId,
    seasonId: '',
    game: 'sequence',
    variant: 'classic',
    teamSize: 1,
    matchSize: 2,
    format: 'single-elimination',
    double: false,
    rounds: 0,
    thirdPlace: false,
    reset: false,
    groups: 2,
    advance: 2,
    tieBreaks: [],
    bestOf: 1,
    clockMode: 'turn',
    turnSeconds: 60,
    bankSeconds: 600,
    incrementSeconds: 0,
    fillLevel: 'greedy',
    rated: true,
    opens: '',
    closes: '',
    minRating: '',
    maxRating: '',
    minGames: '',
    seeding: 'rating',
    noShow: 'bots',
    atDeadline: 'bots',
    roundGapSeconds: 0,
  };
}

/** normalize keeps dependent choices legal after a change (game → sizes → format). */
export function normalize(f: TournamentForm): TournamentForm {
  const out = { ...f };
  if (!matchSizes(out.game).includes(out.matchSize)) out.matchSize = 2;
  const sizes = teamSizes(out.game, out.matchSize);
  if (!sizes.includes(out.teamSize)) out.teamSize = sizes[0];
  if (!formatsFor(out.matchSize).some((x) => x.id === out.format)) out.format = 'single-elimination';
  if (out.matchSize !== 2) out.thirdPlace = false;
  out.tieBreaks = tieBreaksFor(out.game, out.tieBreaks);
  return out;
}

const int = (s: string) => (s.trim() === '' ? undefined : Number(s));

/**
 * RATING_LIMIT bounds min_rating and max_rating, as the server does
 * (league/postgres maxRatingLimit): a limit past it is a slip, since no
 * rating comes near it. RATING_LIMIT_NOTE is the server's own wording.
 */
export const RATING_LIMIT = 4000;
export const RATING_LIMIT_NOTE = `must be 0–${RATING_LIMIT}`;

/** validateTournament finds what the server would refuse, field by API field name. */
export function validateTournament(f: TournamentForm): Record<string, string> {
  const e: Record<string, string> = {};
  const name = f.name.trim();
  if (!name) e.name = 'Give the tournament a name.';
  else if (name.length > 100) e.name = 'At most 100 characters.';
  if (!f.clubId) e.club_id = 'Choose the club that runs it.';
  if (!teamSizes(f.game, f.matchSize).includes(f.teamSize)) e.team_size = `${f.teamSize * f.matchSize} players is not a legal table.`;
  if (f.format === 'groups-playoffs') {
    if (!(f.groups >= 1)) e.groups = 'At least one group.';
    if (!(f.advance >= 1)) e.advance = 'At least one entry advances from each group.';
  }
  const lo = int(f.minRating);
  const hi = int(f.maxRating);
  if (lo !== undefined && !isFinite(lo)) e.min_rating = 'A number, please.';
  else if (lo !== undefined && (lo < 0 || lo > RATING_LIMIT)) e.min_rating = RATING_LIMIT_NOTE;
  if (hi !== undefined && !isFinite(hi)) e.max_rating = 'A number, please.';
  else if (hi !== undefined && (hi < 0 || hi > RATING_LIMIT)) e.max_rating = RATING_LIMIT_NOTE;
  if (lo !== undefined && hi !== undefined && lo > hi && !e.min_rating && !e.max_rating) e.max_rating = 'The highest rating is below the lowest.';
  const mg = int(f.minGames);
  if (mg !== undefined && !(Number.isInteger(mg) && mg >= 0)) e.min_games = 'A whole number, 0 or more.';
  const opens = fromLocalInput(f.opens);
  const closes = fromLocalInput(f.closes);
  if (f.opens && !opens) e.registration_opens = 'Not a date and time.';
  if (f.closes && !closes) e.registration_closes = 'Not a date and time.';
  if (opens && closes && Date.parse(closes) <= Date.parse(opens)) e.registration_closes = 'Registration must close after it opens.';
  return e;
}

/** toTournamentRequest is the POST /tournaments body. */
export function toTournamentRequest(f: TournamentForm): NewTournament {
  const req: NewTournament = {
    club_id: f.clubId,
    name: f.name.trim(),
    game: f.game,
    team_size: f.game === 'stacks' ? 1 : f.teamSize,
    match_size: f.matchSize,
    format: f.format,
    fill_level: f.fillLevel,
    rated: f.rated,
    seeding: f.seeding,
    no_show: f.noShow,
    at_deadline: f.atDeadline,
  };
  if (f.seasonId) req.season_id = f.seasonId;
  if (f.game === 'sequence') req.variant = f.variant;
  if (f.bestOf > 1) req.best_of = f.bestOf;
  switch (f.format) {
    case 'round-robin':
      if (f.double) req.double = true;
      break;
    case 'swiss':
      if (f.rounds > 0) req.rounds = f.rounds;
      break;
    case 'single-elimination':
      if (f.thirdPlace && f.matchSize === 2) req.third_place = true;
      break;
    case 'double-elimination':
      if (f.reset) req.reset = true;
      break;
    case 'groups-playoffs':
      req.groups = f.groups;
      req.advance = f.advance;
      break;
  }
  if (!isElimination(f.format) && f.tieBreaks.length) req.tie_breaks = [...f.tieBreaks];
  const clock = toClock(f);
  if (clock) req.clock = clock;
  const opens = fromLocalInput(f.opens);
  const closes = fromLocalInput(f.closes);
  if (opens) req.registration_opens = opens;
  if (closes) req.registration_closes = closes;
  const lo = int(f.minRating);
  const hi = int(f.maxRating);
  if (lo !== undefined && isFinite(lo)) req.min_rating = lo;
  if (hi !== undefined && isFinite(hi)) req.max_rating = hi;
  const mg = int(f.minGames);
  if (mg !== undefined && mg > 0) req.min_games = mg;
  if (f.roundGapSeconds > 0) req.round_gap_seconds = f.roundGapSeconds;
  return req;
}

/**
 * expectedRounds estimates the rounds a tournament will have with n
 * entries (a default for the schedule form); undefined when it depends on
 * results (double elimination).
 */
export function expectedRounds(t: Pick<Tournament, 'format' | 'match_size' | 'double' | 'rounds' | 'groups'>, n: number): number | undefined {
  const size = Math.max(2, t.match_size || 2);
  if (n < 2) return undefined;
  const logRounds = (k: number) => {
    let r = 0;
    for (let p = 1; p < k; p *= size) r++;
    return r;
  };
  switch (t.format) {
    case 'single-elimination':
      return logRounds(n);
    case 'swiss':
      return t.rounds && t.rounds > 0 ? t.rounds : logRounds(n);
    case 'round-robin':
      if (size === 2) return (n % 2 === 0 ? n - 1 : n) * (t.double ? 2 : 1);
      return undefined;
  }
  return undefined;
}

export interface ScheduleForm {
  mode: 'one' | 'series';
  number: number;
  startsAt: string; // datetime-local
  deadline: string; // datetime-local, optional
  firstStart: string;
  /** a series' first round: the tournament's next round to be paired */
  firstRound: number;
  count: number;
  interval: number;
  intervalUnit: Unit;
  deadlineAfter: number; // 0: none
  deadlineUnit: Unit;
}

export function defaultScheduleForm(nextRound: number, count: number): ScheduleForm {
  return {
    mode: 'series',
    number: Math.max(1, nextRound),
    startsAt: '',
    deadline: '',
    firstStart: '',
    firstRound: Math.max(1, nextRound),
    count: Math.max(1, count),
    interval: 1,
    intervalUnit: 'days',
    deadlineAfter: 0,
    deadlineUnit: 'hours',
  };
}

/**
 * startsInPast says whether the schedule's (first) round starts before now:
 * scheduled, that round starts at once, and with it a tournament still
 * taking entries, so the form asks first.
 */
export function startsInPast(f: ScheduleForm, now: number): boolean {
  const start = fromLocalInput(f.mode === 'one' ? f.startsAt : f.firstStart);
  return !!start && Date.parse(start) < now;
}

/** toScheduleRequest is the POST /tournaments/{id}/rounds body, or the first problem. */
export function toScheduleRequest(f: ScheduleForm): { body?: ScheduleRequest; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  if (f.mode === 'one') {
    const starts = fromLocalInput(f.startsAt);
    const deadline = fromLocalInput(f.deadline);
    if (!(Number.isInteger(f.number) && f.number >= 1 && f.number <= 200)) errors.number = 'A round from 1 to 200.';
    if (!starts) errors.starts_at = 'When does the round start?';
    if (f.deadline && !deadline) errors.deadline = 'Not a date and time.';
    if (starts && deadline && Date.parse(deadline) <= Date.parse(starts)) errors.deadline = 'The deadline must come after the start.';
    if (Object.keys(errors).length) return { errors };
    const round: { number: number; starts_at: string; deadline?: string } = { number: f.number, starts_at: starts! };
    if (deadline) round.deadline = deadline;
    return { body: { rounds: [round] }, errors };
  }
  const first = fromLocalInput(f.firstStart);
  if (!first) errors.first_start = 'When does the first round start?';
  if (!(Number.isInteger(f.count) && f.count >= 1 && f.count <= 200)) errors.count = 'From 1 to 200 rounds.';
  const interval = Math.round(f.interval * UNITS[f.intervalUnit]);
  if (!(interval >= 1)) errors.interval_seconds = 'The rounds need some time between them.';
  const deadline = Math.round((f.deadlineAfter || 0) * UNITS[f.deadlineUnit]);
  if (deadline < 0) errors.deadline_seconds = 'Not negative.';
  if (Object.keys(errors).length) return { errors };
  const body: ScheduleRequest = { first_start: first, count: f.count, interval_seconds: interval };
  // once round 1 is paired, a series numbered from 1 was refused (409): it goes on from the next round
  if (f.firstRound > 1) body.first_round = f.firstRound;
  if (deadline > 0) body.deadline_seconds = deadline;
  return { body, errors };
}

/** roundInPlay is the round being played, whose deadline an organizer may move. */
export function roundInPlay(rounds: Pick<Round, 'number' | 'status'>[]): number | undefined {
  return rounds.find((r) => r.status === 'running')?.number;
}

/**
 * toDeadlineRequest is the PATCH /tournaments/{id}/rounds/{n} body for a
 * datetime-local value, or what is wrong with it: a deadline now or past
 * would end the round's games at once, which the server refuses too.
 */
export function toDeadlineRequest(value: string, now: number): { body?: RoundDeadlineRequest; error?: string } {
  if (!value) return { error: 'When is the new deadline?' };
  const deadline = fromLocalInput(value);
  if (!deadline) return { error: 'Not a date and time.' };
  if (Date.parse(deadline) <= now) return { error: 'The deadline must be in the future.' };
  return { body: { deadline } };
}
