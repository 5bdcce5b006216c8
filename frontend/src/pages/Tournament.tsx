// A tournament: its set-up, entries, the drawn bracket or rounds, the
// standings with every tie-break, the schedule; organizers register bots,
// remove entries, schedule rounds, move the deadline of the round in play,
// start and pause. Polls every few seconds
// while something can change.
import { useEffect, useRef, useState } from 'preact/hooks';
import { usePoll } from '../components/poll';
import { ApiError } from '../api/client';
import type { BracketView, Club, Entry, League, Member, Round, ScheduleRequest, SeasonTable, Standing, Tournament as T } from '../api/types';
import { TournamentDrawing } from '../competition/BracketView';
import { StandIns } from '../competition/StandIns';
import { FinalPlaces, GroupStandings, StandingsTable, TableWrap } from '../competition/Standings';
import { fetchAll } from '../competition/pager';
import { duration, relative, toLocalInput, UNITS, type Unit } from '../competition/time';
import {
  BOT_LEVELS,
  defaultScheduleForm,
  expectedRounds,
  FORMAT_NAMES,
  isElimination,
  roundInPlay,
  startsInPast,
  toDeadlineRequest,
  toScheduleRequest,
  type ScheduleForm,
} from '../competition/tournamentForm';
import { ConfirmStep } from '../components/ConfirmStep';
import { useFocusAfter } from '../components/focus';
import { Input, Select } from '../components/form';
import { counted } from '../components/plural';
import { Crumbs, ErrorBox, LoadFailed, LoadingPage, Page, errorText, unplaced, useAction, useLoad, when } from '../components/ui';
import { signInHref } from '../router';
import { api, useSession } from '../session';
import { canOrganize, StatusTag } from './Leagues';

export const POLL_MS = 3000;
/**
 * REGISTRATION_POLL_MS: in open registration with no round due the page is read
 * less often, but read: entries come in, and "Start now" (the organizer's, in
 * another browser) starts round 1 at any moment. Unread, an organizer never saw
 * a member's new entry, nor a registered player the start and their game,
 * without a reload.
 */
export const REGISTRATION_POLL_MS = 15_000;
const enc = encodeURIComponent;

export interface TournamentData {
  t: T;
  entries: Entry[];
  rounds: Round[];
  bracket: BracketView;
  standings: Standing[];
}

export async function loadTournament(id: string): Promise<TournamentData> {
  const base = `/tournaments/${enc(id)}`;
  const [t, entries, rounds, bracket, standings] = await Promise.all([
    api.get<T>(base),
    // every entry: the page counts them and finds the viewer's and the champion's
    fetchAll<Entry>((path) => api.get(path), `${base}/entries`),
    api.get<{ rounds: Round[] }>(`${base}/rounds`).then((r) => r.rounds ?? []),
    api.get<BracketView>(`${base}/bracket`),
    api.get<{ items: Standing[] }>(`${base}/standings`).then((r) => r.items ?? []),
  ]);
  return { t, entries, rounds, bracket, standings };
}

/** isOver: a finished or cancelled tournament has nothing more to play or change. */
export function isOver(t: Pick<T, 'status'>): boolean {
  return t.status === 'finished' || t.status === 'cancelled';
}

/** isLive: polling is worth it while a round is being played or is due. */
export function isLive(d: Pick<TournamentData, 't' | 'rounds'>): boolean {
  if (d.t.status === 'running' || d.t.status === 'paused') return true;
  return d.t.status === 'registration' && d.rounds.some((r) => !!r.starts_at);
}

/** pollEvery: how often the page is read again (ms), null once nothing more can change. */
export function pollEvery(d: Pick<TournamentData, 't' | 'rounds'>): number | null {
  if (isLive(d)) return POLL_MS;
  return d.t.status === 'registration' ? REGISTRATION_POLL_MS : null;
}

/** formatText describes the format with its options. */
export function formatText(t: T): string {
  const name = FORMAT_NAMES[t.format] ?? t.format;
  const opts: string[] = [];
  if (t.format === 'round-robin' && t.double) opts.push('double');
  if (t.format === 'swiss') opts.push(t.rounds ? counted(t.rounds, 'round') : 'rounds until a winner');
  if (t.third_place) opts.push('third-place match');
  if (t.reset) opts.push('grand-final reset');
  if (t.format === 'groups-playoffs') opts.push(`${t.groups ?? '?'} groups, top ${t.advance ?? '?'} advance`);
  return opts.length ? `${name} (${opts.join(', ')})` : name;
}

function gameText(t: T): string {
  if (t.game === 'stacks') return `Sequence Stacks, ${t.match_size} players a game`;
  const teams = `${t.match_size} teams${t.team_size > 1 ? ` of ${t.team_size}` : ''}`;
  return `Sequence (${t.variant || 'classic'}), ${teams}`;
}

function clockText(t: T): string {
  const c = t.clock;
  if (!c || (!c.turn_seconds && !c.bank_seconds)) return 'untimed';
  return [
    c.turn_seconds ? `${duration(c.turn_seconds)} a turn` : '',
    c.bank_seconds ? `${duration(c.bank_seconds)} bank` : '',
    c.bank_seconds && c.increment_seconds ? `${duration(c.increment_seconds)} a move` : '',
  ]
    .filter(Boolean)
    .join(' + ');
}

/**
 * entryCount says how many entries play on: "4", or "4 active, 1
 * withdrawn" when the list also holds entries withdrawn after the start.
 */
export function entryCount(entries: Pick<Entry, 'status'>[]): string {
  const active = entries.filter((e) => e.status === 'active').length;
  const withdrawn = entries.filter((e) => e.status === 'withdrawn').length;
  return withdrawn ? `${active} active, ${withdrawn} withdrawn` : String(active);
}

/** mayWithdraw: the server lets the entry's captain, any player named in it, or an organizer take it out. */
export function mayWithdraw(e: Pick<Entry, 'captain_id' | 'members'>, userId: string | undefined, organizer: boolean): boolean {
  return organizer || (!!userId && (e.captain_id === userId || e.members.some((m) => m.user === userId)));
}

function Facts({ t, entries }: { t: T; entries: string }) {
  const rows: [string, string][] = [
    ['Game', gameText(t)],
    ['Format', formatText(t)],
    ['Matches', t.best_of && t.best_of > 1 ? `best of ${t.best_of}` : 'one game'],
    ['Clock', clockText(t)],
    ['Rated', t.rated ? 'yes' : 'no'],
    ['Seeding', t.seeding ?? 'rating'],
    ['Entries', entries],
    ['No-shows', t.no_show === 'forfeit' ? (t.format === 'swiss' ? 'forfeit and leave' : 'forfeit') : 'bots play for them'],
    ['At the deadline', t.at_deadline === 'adjudicate' ? 'adjudicated on the board' : 'bots finish the games'],
    ['Fill-in bots', t.fill_level ?? 'greedy'],
  ];
  if (t.registration_opens || t.registration_closes)
    rows.push(['Registration', `${t.registration_opens ? 'from ' + when(t.registration_opens) : ''} ${t.registration_closes ? 'until ' + when(t.registration_closes) : ''}`.trim()]);
  const limits = [
    t.min_rating != null ? `rating ≥ ${t.min_rating}` : '',
    t.max_rating != null ? `rating ≤ ${t.max_rating}` : '',
    t.min_games ? `${t.min_games}+ rated games` : '',
  ].filter(Boolean);
  if (limits.length) rows.push(['Entry limits', limits.join(', ')]);
  if (t.round_gap_seconds) rows.push(['Between rounds', duration(t.round_gap_seconds)]);
  return (
    <dl class="facts">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function StatusControls({ t, onChange }: { t: T; onChange: (t: T) => void }) {
  const { busy, error, run, clear } = useAction();
  // A refusal answers the tournament as it was: once the page, reading it
  // again, shows another status or entry count, "cannot start with 1 entry"
  // no longer says how it is.
  useEffect(clear, [t.status, t.entries]);
  // Start now, Pause and Resume each give way to the next (Pause, Resume,
  // Pause): the focus goes to it rather than falling to the page. Refused,
  // the button pressed stays, but it was disabled while the request ran,
  // which took the focus from it: the focus goes back to it once enabled
  // ("Cancel the tournament", never disabled, keeps it).
  const { root, focusNext } = useFocusAfter<HTMLDivElement>();
  // says whether the change was made (a refusal is shown below)
  const set = async (status: 'running' | 'paused' | 'cancelled') => {
    let done = false;
    await run(async () => {
      let changed: T;
      try {
        changed = await api.patch<T>(`/tournaments/${enc(t.id)}`, { status });
      } catch (err) {
        if (status !== 'cancelled') focusNext('[data-action=start]', '[data-action=pause]', '[data-action=resume]');
        throw err;
      }
      if (status !== 'cancelled') focusNext(status === 'running' ? '[data-action=pause]' : '[data-action=resume]');
      onChange(changed);
      done = true;
    });
    return done;
  };
  return (
    <div ref={root}>
      <p class="actions-row">
        {t.status === 'registration' && (
          <button type="button" class="primary" data-action="start" disabled={busy} onClick={() => set('running')}>
            Start now
          </button>
        )}
        {t.status === 'running' && (
          <button type="button" data-action="pause" disabled={busy} onClick={() => set('paused')}>
            Pause
          </button>
        )}
        {t.status === 'paused' && (
          <button type="button" class="primary" data-action="resume" disabled={busy} onClick={() => set('running')}>
            Resume
          </button>
        )}
      </p>
      {t.status === 'registration' && <p class="hint">Starting closes registration, draws the bracket (or pairs round 1) and starts the first games now, even when round 1 is scheduled for later; scheduled rounds the entries will not need are dropped.</p>}
      {t.status === 'running' && <p class="hint">Pausing lets the games in play finish; no new round starts until you resume.</p>}
      <p class="actions-row">
        <ConfirmStep
          class="cancel-tournament"
          action="cancel-tournament"
          ask="Cancel tournament…"
          question={`Cancel ${t.name}? It cannot be undone`}
          note={<span class="muted small">{cancelNote(t)} It cannot be undone.</span>}
          confirm="Cancel the tournament"
          dismiss="Keep it"
          onConfirm={() => set('cancelled')}
          small={false}
        />
      </p>
      {/* the server's refusal ("the tournament cannot start with 0 entries: …") as a sentence */}
      {!!error && (
        <div class="error" role="alert">
          {errorText(error)}
        </div>
      )}
    </div>
  );
}

const UNIT_OPTIONS = (Object.keys(UNITS) as Unit[]).map((u) => [u, u] as const);

function ScheduleRounds({ d, onDone }: { d: TournamentData; onDone: () => void }) {
  const next = Math.max(d.t.current_round + 1, 1);
  const [f, setF] = useState<ScheduleForm>(() => {
    const start = toLocalInput(new Date(Math.ceil((Date.now() + 10 * 60_000) / 60_000) * 60_000));
    const total = d.t.rounds_planned || expectedRounds(d.t, d.entries.filter((e) => e.status === 'active').length);
    return { ...defaultScheduleForm(next, total ? total - next + 1 : 1), firstStart: start, startsAt: start };
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');
  // a start in the past is asked about before it is sent: it starts the round (and the tournament) at once
  const [confirmPast, setConfirmPast] = useState(false);
  // one request at a time: a second submit (a double click) before the answer scheduled the rounds twice
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const set = (p: Partial<ScheduleForm>) => {
    setConfirmPast(false);
    setF((old) => ({ ...old, ...p }));
  };
  // The focus goes to the first field at fault, as the other forms' does;
  // and since the question about a start in the past takes the place of
  // Schedule, to its Cancel (the safe answer, as ConfirmStep's), and from
  // there, or once scheduled, back to Schedule, rather than to the page.
  const { root, focusNext } = useFocusAfter<HTMLFormElement>();
  const submit = async (e: Event) => {
    e.preventDefault();
    if (sending.current) return;
    setDone('');
    setError(null);
    const { body, errors } = toScheduleRequest(f);
    setErrors(errors);
    if (!body) {
      focusNext('[aria-invalid=true]');
      return;
    }
    if (!confirmPast && startsInPast(f, Date.now())) {
      setConfirmPast(true);
      focusNext('[data-action=keep-schedule]');
      return;
    }
    if (confirmPast) focusNext('[data-action=schedule]');
    setConfirmPast(false);
    sending.current = true;
    setBusy(true);
    try {
      const r = await api.post<{ rounds: Round[] }>(`/tournaments/${enc(d.t.id)}/rounds`, body as ScheduleRequest);
      const n = body.rounds ? 1 : body.count ?? 0;
      setDone(`Scheduled ${counted(n, 'round')}; ${r.rounds.length} in the calendar.`);
      onDone();
    } catch (err) {
      setError(err);
      // rounds[0].number → number (one round); first_round → first_start, the rest of a series as they are
      if (err instanceof ApiError) setErrors(Object.fromEntries(err.fields.map((x) => [scheduleField(x.field, f.mode), x.message])));
      focusNext('[aria-invalid=true]', '[data-action=schedule]');
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };
  const shown = f.mode === 'one' ? ['number', 'starts_at', 'deadline'] : ['first_start', 'count', 'interval_seconds', 'deadline_seconds'];
  return (
    <form class="form schedule-form" onSubmit={submit} aria-labelledby="schedule-title" noValidate ref={root}>
      <h3 id="schedule-title">Schedule rounds</h3>
      <fieldset>
        <legend>What to schedule</legend>
        <div class="radios">
          <label>
            <input type="radio" name="sched-mode" checked={f.mode === 'series'} onChange={() => set({ mode: 'series' })} /> Several rounds at a fixed interval
          </label>
          <label>
            <input type="radio" name="sched-mode" checked={f.mode === 'one'} onChange={() => set({ mode: 'one' })} /> One round
          </label>
        </div>
      </fieldset>
      {f.mode === 'series' ? (
        <div class="row">
          <Input id="sc-first" label={f.firstRound > 1 ? `Round ${f.firstRound} starts` : 'First round starts'} type="datetime-local" step={1} value={f.firstStart} onInput={(v) => set({ firstStart: v })} error={errors.first_start} required />
          <Input id="sc-count" label="Rounds" type="number" min={1} max={200} value={f.count} onInput={(v) => set({ count: Number(v) })} error={errors.count} />
          <div class="field-pair">
            <Input id="sc-interval" label="Every" type="number" min={1} value={f.interval} onInput={(v) => set({ interval: Number(v) })} error={errors.interval_seconds} />
            <Select id="sc-interval-unit" label="Interval unit" value={f.intervalUnit} options={UNIT_OPTIONS} onChange={(v) => set({ intervalUnit: v })} />
          </div>
          <div class="field-pair">
            <Input
              id="sc-deadline-after"
              label="Deadline after the start"
              type="number"
              min={0}
              value={f.deadlineAfter}
              onInput={(v) => set({ deadlineAfter: Number(v) })}
              hint="0: no deadline"
              error={errors.deadline_seconds}
            />
            <Select id="sc-deadline-unit" label="Deadline unit" value={f.deadlineUnit} options={UNIT_OPTIONS} onChange={(v) => set({ deadlineUnit: v })} />
          </div>
        </div>
      ) : (
        <div class="row">
          <Input id="sc-number" label="Round" type="number" min={1} max={200} value={f.number} onInput={(v) => set({ number: Number(v) })} error={errors.number} />
          <Input id="sc-starts" label="Starts" type="datetime-local" step={1} value={f.startsAt} onInput={(v) => set({ startsAt: v })} error={errors.starts_at} required />
          <Input id="sc-deadline" label="Deadline (optional)" type="datetime-local" step={1} value={f.deadline} onInput={(v) => set({ deadline: v })} error={errors.deadline} />
        </div>
      )}
      <p class="hint">Times are your local time. A round that is not scheduled starts when the one before it ends (after the pause between rounds).</p>
      <ErrorBox error={unplaced(error, (x) => shown.includes(scheduleField(x, f.mode)))} />
      {confirmPast ? (
        <div class="confirm-past" role="alert">
          <p>
            {f.mode === 'one' ? `Round ${f.number}` : 'The first round'} would start in the past: scheduled now, it starts at once
            {d.t.status === 'registration' ? ', and so does the tournament (registration closes)' : ''}. Schedule it anyway?
          </p>
          <button type="submit" class="danger">
            Schedule anyway
          </button>{' '}
          <button
            type="button"
            data-action="keep-schedule"
            onClick={() => {
              setConfirmPast(false);
              focusNext('[data-action=schedule]');
            }}
          >
            Cancel
          </button>
        </div>
      ) : (
        <button type="submit" class="primary" data-action="schedule" aria-disabled={busy ? 'true' : undefined}>
          {busy ? 'Scheduling…' : 'Schedule'}
        </button>
      )}{' '}
      {done && (
        <span role="status" class="ok">
          {done}
        </span>
      )}
    </form>
  );
}

/**
 * MoveDeadline moves the deadline of the round being played, later or
 * earlier (not into the past); at the new time the games still being
 * played are finished by the tournament's policy.
 */
function MoveDeadline({ t, round, onDone }: { t: T; round: Round; onDone: () => void }) {
  const [value, setValue] = useState(() => (round.deadline ? toLocalInput(new Date(round.deadline)) : ''));
  const [invalid, setInvalid] = useState<string>();
  const [done, setDone] = useState('');
  const { busy, error, fieldErrors: fe, run, clear } = useAction();
  // The button is disabled while the request runs, and a browser drops the
  // focus of a disabled button: the focus goes back to it once enabled, or
  // to the deadline when it is at fault.
  const { root, focusNext } = useFocusAfter<HTMLFormElement>();
  const submit = (e: Event) => {
    e.preventDefault();
    setDone('');
    clear();
    const { body, error } = toDeadlineRequest(value, Date.now());
    setInvalid(error);
    if (!body) {
      focusNext('#dl-deadline');
      return;
    }
    return run(async () => {
      try {
        const r = await api.patch<Round>(`/tournaments/${enc(t.id)}/rounds/${round.number}`, body);
        setDone(`Round ${r.number}'s deadline is now ${when(r.deadline)}.`);
        onDone();
      } finally {
        focusNext('[aria-invalid=true]', 'button[type=submit]');
      }
    });
  };
  const policy = t.at_deadline === 'adjudicate' ? 'are adjudicated on the board' : 'are finished by bots';
  return (
    <form class="form inline deadline-form" onSubmit={submit} aria-labelledby="deadline-title" noValidate ref={root}>
      <h3 id="deadline-title" class="full">
        Deadline of round {round.number}
      </h3>
      <Input
        id="dl-deadline"
        label="Deadline"
        type="datetime-local"
        step={1}
        value={value}
        onInput={(v) => {
          setValue(v);
          setInvalid(undefined);
        }}
        hint={`Your local time. At the deadline, games still being played ${policy}.`}
        error={invalid ?? fe?.fieldError('deadline')}
        required
      />
      <button type="submit" class="primary" disabled={busy}>
        Move deadline
      </button>
      {done && (
        <span role="status" class="ok">
          {done}
        </span>
      )}
      <ErrorBox error={unplaced(error, (f) => f === 'deadline')} />
    </form>
  );
}

/** startedOffSchedule: the round started more than a minute from its schedule (late, early, or with none). */
export function startedOffSchedule(r: Pick<Round, 'starts_at' | 'started_at'>): boolean {
  if (!r.started_at) return false;
  return !r.starts_at || Math.abs(Date.parse(r.started_at) - Date.parse(r.starts_at)) > 60_000;
}

/**
 * startedNote says how a round that started off its schedule came to start:
 * a first round without a date was started by an organizer's "Start now";
 * a later one without a date started when the round before it ended (it is
 * listed "when round N ends" until then), which no organizer did by hand.
 */
export function startedNote(r: Pick<Round, 'number' | 'starts_at'>): string {
  if (r.starts_at) return `started; scheduled for ${when(r.starts_at)}`;
  return r.number > 1 ? `started after round ${r.number - 1}` : 'started by hand';
}

/**
 * deadlineNote says why a round's deadline is not the one scheduled: the
 * round started late, and keeps its planned length (the server moved the
 * deadline later by the lateness and gives the schedule's as planned_deadline).
 */
export function deadlineNote(planned: string): string {
  return `moved: started late; planned ${when(planned)}`;
}

/**
 * scheduleField is the schedule form's field a server field error names
 * (rounds[0].starts_at → starts_at). A series has no field for its first
 * round's number: a refused first_round ("the series is rounds 3–3, and a
 * round's number must be 1–2") is said at its start, whose label names the
 * round, where it was shown only as "Bad round.".
 */
function scheduleField(field: string, mode: ScheduleForm['mode']): string {
  if (mode === 'series' && field === 'first_round') return 'first_start';
  return field.replace(/^rounds\[\d+\]\./, '');
}

/** memberChoice values: "bot:random" or "user:<id>". */
export function toMembers(choices: string[]): { user?: string; bot?: string }[] {
  return choices.map((c) => (c.startsWith('bot:') ? { bot: c.slice(4) } : { user: c.slice(5) }));
}

/** enteredPlayers: the users who play in an entry of the tournament already. */
export function enteredPlayers(entries: Pick<Entry, 'members'>[]): Set<string> {
  return new Set(entries.flatMap((e) => e.members.flatMap((m) => (m.user ? [m.user] : []))));
}

/**
 * ENTERED_NOTE says why a club member is missing from a list of players: a
 * player plays in one entry, and the server refuses a second (409 naming
 * the member).
 */
export const ENTERED_NOTE = 'Players already entered in this tournament are not listed.';

/**
 * choosable: the club members a player field offers, leaving out those
 * already entered (entered) and those chosen in the entry's other fields
 * (taken), whom the server would refuse.
 */
export function choosable(clubMembers: Member[], entered: Set<string>, taken: string[] = []): Member[] {
  return clubMembers.filter((m) => !entered.has(m.user_id) && !taken.includes(m.user_id));
}

function AddEntry({ t, clubMembers, entered, onDone }: { t: T; clubMembers: Member[]; entered: Set<string>; onDone: () => void }) {
  const size = t.team_size || 1;
  const [chosen, setChoices] = useState<string[]>(() => Array(size).fill('bot:random'));
  // a player entered since they were chosen (this form's last entry) is no longer offered
  const choices = chosen.map((c) => (c.startsWith('user:') && entered.has(c.slice(5)) ? 'bot:random' : c));
  const [name, setName] = useState('');
  const [seed, setSeed] = useState('');
  const { busy, error, fieldErrors: fe, run } = useAction();
  // the submit button is disabled while its request runs, which takes the
  // focus from it: it goes back to the button once the entry is added, or
  // to the first field at fault when it is refused
  const { root, focusNext } = useFocusAfter<HTMLFormElement>();
  const options = (i: number) => [
    ...BOT_LEVELS.map((b) => [`bot:${b}`, `Bot: ${b}`] as const),
    ...choosable(
      clubMembers,
      entered,
      choices.flatMap((c, j) => (j !== i && c.startsWith('user:') ? [c.slice(5)] : [])),
    ).map((m) => [`user:${m.user_id}`, m.username] as const),
  ];
  const leftOut = clubMembers.some((m) => entered.has(m.user_id));
  const submit = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      const body: { name?: string; members: { user?: string; bot?: string }[]; seed?: number } = { members: toMembers(choices) };
      if (name.trim()) body.name = name.trim();
      if (seed.trim()) body.seed = Number(seed);
      try {
        await api.post<Entry>(`/tournaments/${enc(t.id)}/entries`, body);
      } catch (err) {
        focusNext('[aria-invalid=true]', 'button[type=submit]');
        throw err;
      }
      setName('');
      focusNext('button[type=submit]');
      onDone();
    });
  };
  return (
    <form class="form inline add-entry" ref={root} onSubmit={submit} aria-labelledby="add-entry-title">
      <h3 id="add-entry-title" class="full">
        Add an entry
      </h3>
      {choices.map((c, i) => (
        <Select
          key={i}
          id={`ae-member-${i}`}
          label={size > 1 ? `Player ${i + 1}` : 'Player'}
          value={c}
          options={options(i)}
          hint={leftOut && i === 0 ? ENTERED_NOTE : undefined}
          onChange={(v) => setChoices(choices.map((x, j) => (j === i ? v : x)))}
          error={fe?.fieldError(`members[${i}]`) ?? fe?.fieldError(`members[${i}].bot`) ?? fe?.fieldError(`members[${i}].user`)}
        />
      ))}
      <Input id="ae-name" label="Entry name (optional)" value={name} onInput={setName} maxLength={60} error={fe?.fieldError('name')} />
      {t.seeding === 'manual' && <Input id="ae-seed" label="Seed" type="number" min={1} value={seed} onInput={setSeed} error={fe?.fieldError('seed')} />}
      <button type="submit" class="primary" disabled={busy}>
        Add entry
      </button>
      {/* a message shown at its field is not repeated here */}
      <ErrorBox error={unplaced(error, (f) => f === 'name' || (f === 'seed' && t.seeding === 'manual') || /^members\[\d+\](\.(bot|user))?$/.test(f))} />
    </form>
  );
}

function RegisterMe({ t, clubMembers, entered, onDone }: { t: T; clubMembers: Member[]; entered: Set<string>; onDone: () => void }) {
  const { user } = useSession();
  const size = t.team_size || 1;
  const [chosen, setMates] = useState<string[]>(() => Array(size - 1).fill(''));
  // a teammate who entered elsewhere since they were chosen is no longer offered
  const mates = chosen.map((m) => (entered.has(m) ? '' : m));
  const [name, setName] = useState('');
  const [missing, setMissing] = useState<number[]>([]);
  const { busy, error, fieldErrors: fe, run } = useAction();
  // a refusal goes to the first field at fault (or back to the button,
  // which was disabled while the request ran and so lost the focus)
  const { root, focusNext } = useFocusAfter<HTMLFormElement>();
  const submit = (e: Event) => {
    e.preventDefault();
    // a teammate left on "Choose" would be refused as "a member is a user or a bot"
    const unchosen = mates.flatMap((m, i) => (m ? [] : [i]));
    setMissing(unchosen);
    if (unchosen.length) {
      (document.getElementById(`rm-mate-${unchosen[0]}`) as HTMLElement | null)?.focus();
      return;
    }
    return run(async () => {
      try {
        if (size === 1) await api.post(`/tournaments/${enc(t.id)}/entries`, {});
        else await api.post(`/tournaments/${enc(t.id)}/entries`, { name: name.trim(), members: [{ user: 'me' }, ...mates.map((m) => ({ user: m }))] });
      } catch (err) {
        focusNext('[aria-invalid=true]', 'button[type=submit]');
        throw err;
      }
      onDone();
    });
  };
  // members[0] is me; members[k] is teammate k-1
  const mateError = (i: number) =>
    missing.includes(i) ? 'Choose your teammate' : (fe?.fieldError(`members[${i + 1}].user`) ?? fe?.fieldError(`members[${i + 1}]`));
  const others = clubMembers.filter((m) => m.user_id !== user?.id);
  const leftOut = others.some((m) => entered.has(m.user_id));
  return (
    <form class="form inline" ref={root} onSubmit={submit} aria-label="Register" noValidate>
      {size > 1 && (
        <>
          <Input id="rm-name" label="Team name" value={name} onInput={setName} maxLength={60} error={fe?.fieldError('name')} />
          {mates.map((m, i) => (
            <Select
              key={i}
              id={`rm-mate-${i}`}
              label={`Teammate ${i + 1}`}
              value={m}
              options={[
                ['', 'Choose'],
                ...choosable(
                  others,
                  entered,
                  mates.filter((_, j) => j !== i),
                ).map((o) => [o.user_id, o.username] as const),
              ]}
              hint={leftOut && i === 0 ? ENTERED_NOTE : undefined}
              onChange={(v) => {
                setMates(mates.map((x, j) => (j === i ? v : x)));
                if (v) setMissing(missing.filter((j) => j !== i));
              }}
              error={mateError(i)}
            />
          ))}
        </>
      )}
      <button type="submit" class="primary" disabled={busy}>
        {size > 1 ? 'Register our team' : 'Register me'}
      </button>
      <ErrorBox error={unplaced(error, (f) => size > 1 && (f === 'name' || /^members\[[1-9]\d*\](\.user)?$/.test(f)))} />
    </form>
  );
}

/**
 * removalFinal: taking an entry out cannot be undone by registering again
 * once the tournament has started (its games are forfeited, it is out for
 * good) or once registration has closed (a player may no longer enter).
 */
export function removalFinal(t: Pick<T, 'status' | 'registration_closes'>, now = Date.now()): boolean {
  return t.status !== 'registration' || (!!t.registration_closes && Date.parse(t.registration_closes) <= now);
}

/**
 * RemoveEntry: "Remove" during open registration takes the entry out at
 * once (one registers again); a removal that is final ("Withdraw…" after
 * the start) asks once more, the focus going to Cancel and back.
 */
function RemoveEntry({ t, e, onRemove, own = false }: { t: T; e: Entry; onRemove: (e: Entry) => Promise<boolean>; own?: boolean }) {
  const verb = t.status === 'registration' ? 'Remove' : 'Withdraw';
  // once under way, an organizer may reinstate a withdrawn entry
  const undo = t.status === 'registration' ? 'It cannot be undone' : 'Only an organizer can reinstate it';
  // the viewer's own, on the line that says they are entered: "Remove my entry"
  const what = own ? 'my entry' : e.name;
  if (!removalFinal(t)) {
    return (
      <button type="button" class="small" data-action={own ? 'remove-mine' : undefined} onClick={() => onRemove(e)} aria-label={own ? undefined : `${verb} ${what}`}>
        {own ? `${verb} ${what}` : verb}
      </button>
    );
  }
  return (
    <ConfirmStep
      class="remove-entry"
      action={own ? 'remove-mine' : 'remove-entry'}
      ask={own ? `${verb} ${what}…` : `${verb}…`}
      askLabel={own ? undefined : `${verb} ${what}…`}
      question={`${verb} ${what}? ${undo}`}
      note={<span class="muted small">{undo}.</span>}
      confirm={`${verb} for good`}
      // the name begins with the words shown, which is what a speech user says to press it
      confirmLabel={`${verb} for good: ${what}`}
      onConfirm={() => onRemove(e)}
    />
  );
}

function Entries({ d, organizer, member, clubMembers, reload }: { d: TournamentData; organizer: boolean; member?: boolean; clubMembers: Member[]; reload: () => void }) {
  const { user } = useSession();
  const [error, setError] = useState<unknown>(null);
  const { t, entries } = d;
  const mine = user && entries.find((e) => e.members.some((m) => m.user === user.id));
  const inAnEntry = enteredPlayers(entries);
  // "Register me" goes once one is entered: the focus goes to the line that says so
  const entered = useRef<HTMLSpanElement>(null);
  const justEntered = useRef(false);
  useEffect(() => {
    if (justEntered.current && mine && entered.current) {
      justEntered.current = false;
      entered.current.focus();
    }
  });
  // a removed (or withdrawn) entry's button goes: the focus goes to the list's heading
  const heading = useRef<HTMLHeadingElement>(null);
  const gone = useRef<string | null>(null);
  useEffect(() => {
    if (gone.current && !entries.some((e) => e.id === gone.current && e.status === 'active')) {
      gone.current = null;
      heading.current?.focus();
    }
  });
  const remove = async (e: Entry) => {
    setError(null);
    try {
      await api.del(`/tournaments/${enc(t.id)}/entries?entry=${enc(e.id)}`);
      gone.current = e.id;
      reload();
      return true;
    } catch (err) {
      setError(err);
      return false;
    }
  };
  const reinstate = async (e: Entry) => {
    setError(null);
    try {
      await api.post(`/tournaments/${enc(t.id)}/entries/${enc(e.id)}/reinstate`, {});
      reload();
      heading.current?.focus();
    } catch (err) {
      setError(err);
    }
  };
  // an entry withdrawn from a round robin or Swiss under way (only those have any)
  const canReinstate = (e: Entry) => e.status === 'withdrawn' && organizer && (t.status === 'running' || t.status === 'paused');
  const seeded = entries.some((e) => e.seed > 0);
  const canRemove = (e: Entry) =>
    e.status === 'active' && !isOver(t) && mayWithdraw(e, user?.id, organizer) && (t.status === 'registration' || t.format === 'round-robin' || t.format === 'swiss');
  return (
    <section class="card-box" aria-labelledby="entries-title">
      <h2 id="entries-title" tabIndex={-1} ref={heading}>
        Entries <span class="muted small">({entryCount(entries)})</span>
      </h2>
      {entries.length === 0 ? (
        <p class="muted">No entries yet.</p>
      ) : (
        <TableWrap label="Entries">
          <table class="data entries stack">
            <thead>
              <tr>
                {seeded && (
                  <th scope="col" class="num">
                    Seed
                  </th>
                )}
                <th scope="col">Entry</th>
                <th scope="col">Players</th>
                {/* the seeding rating, read again at the start and kept: the leaderboard's moves on */}
                <th scope="col" class="num">
                  {t.status === 'registration' ? 'Rating' : 'Rating at start'}
                </th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} data-entry={e.id} data-status={e.status} class={[mine?.id === e.id ? 'mine' : '', e.status === 'withdrawn' ? 'withdrawn muted' : ''].filter(Boolean).join(' ') || undefined}>
                  {seeded && (
                    <td class="num" data-label="Seed">
                      {e.seed || '—'}
                    </td>
                  )}
                  <th scope="row" class="line first">
                    {e.name}
                    {e.status === 'withdrawn' && <span class="sr-only"> (withdrawn)</span>}
                  </th>
                  <td data-label={e.members.length > 1 ? 'Players' : 'Player'}>
                    {e.members.map((m, i) => (
                      <span key={i}>
                        {i > 0 && ', '}
                        {m.user ? <a href={`/users/${m.user}`}>{m.username || 'player'}</a> : <span>bot-{m.bot}</span>}
                      </span>
                    ))}
                  </td>
                  <td class="num" data-label={t.status === 'registration' ? 'Rating' : 'Rating at start'}>
                    {Math.round(e.rating)}
                  </td>
                  <td data-label="Status">{e.status === 'withdrawn' ? <span class="tag status-withdrawn">withdrawn</span> : e.status}</td>
                  <td>
                    {canRemove(e) && <RemoveEntry t={t} e={e} onRemove={remove} />}
                    {canReinstate(e) && (
                      <button type="button" class="small" onClick={() => reinstate(e)} aria-label={`Reinstate ${e.name}`}>
                        Reinstate
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      <ErrorBox error={error} />
      {t.status === 'registration' && user && !mine && member === true && <RegisterMe
          t={t}
          clubMembers={clubMembers}
          entered={inAnEntry}
          onDone={() => {
            justEntered.current = true;
            reload();
          }}
        />}
      {t.status === 'registration' && user && !mine && member === false && (
        <p class="members-only">
          Only members of the club enter its tournaments: <a href={`/clubs/${t.club_id}`}>see the club</a>.
        </p>
      )}
      {/* One's own removal is offered here too: the table's last column, where it is also, was scrolled out of
          sight at a 390 px phone (the button 377-455 px across, the table's region ending at 365). */}
      {t.status === 'registration' && mine && (
        <p class="entered-line">
          <span class="muted" id="entered" tabIndex={-1} ref={entered}>
            You are entered as {mine.name}.
          </span>
          {canRemove(mine) && (
            <>
              {' '}
              <RemoveEntry t={t} e={mine} onRemove={remove} own />
            </>
          )}
        </p>
      )}
      {/* under way, a round robin's or a Swiss's entry may still withdraw: the same line, once it may */}
      {t.status !== 'registration' && mine && canRemove(mine) && (
        <p class="entered-line">
          <span class="muted">You play as {mine.name}.</span> <RemoveEntry t={t} e={mine} onRemove={remove} own />
        </p>
      )}
      {t.status === 'registration' && !user && (
        <p>
          <a href={signInHref()}>Sign in</a> to register.
        </p>
      )}
      {t.status === 'registration' && organizer && <AddEntry t={t} clubMembers={clubMembers} entered={inAnEntry} onDone={reload} />}
    </section>
  );
}

/**
 * roundWait says why a scheduled round whose start has passed has not
 * started ("waits for round 2 to finish", "waits for the tournament to
 * resume"), where "8 s ago" read as stuck; null while its start is ahead,
 * or when it has none of these reasons (its start error says why).
 */
export function roundWait(t: Pick<T, 'status' | 'current_round'>, rounds: Pick<Round, 'number' | 'status'>[], r: Pick<Round, 'number' | 'status' | 'starts_at' | 'start_error'>, now = Date.now()): string | null {
  if (r.status !== 'scheduled' || !r.starts_at || Date.parse(r.starts_at) > now || r.start_error) return null;
  if (t.status === 'paused') return 'waits for the tournament to resume';
  if (t.status !== 'running') return null;
  const before = rounds.find((x) => x.number === r.number - 1);
  if (before ? before.status !== 'finished' : t.current_round > 0 && t.current_round < r.number) return `waits for round ${before ? before.number : t.current_round} to finish`;
  return null;
}

/** roundStatus: a cancelled tournament's rounds not played out read "cancelled". */
export function roundStatus(t: Pick<T, 'status'>, r: Pick<Round, 'status'>): string {
  return t.status === 'cancelled' && r.status !== 'finished' ? 'cancelled' : r.status;
}

/** cancelNote says what cancelling does now. */
export function cancelNote(t: Pick<T, 'status'>): string {
  return t.status === 'registration'
    ? 'No round will start, and nobody can enter any more.'
    : 'Games still being played end now, aborted and unrated; finished games keep their results, and no further round starts.';
}

function Schedule({ t, rounds }: { t: T; rounds: Round[] }) {
  return (
    <section class="card-box" aria-labelledby="rounds-title">
      <h2 id="rounds-title">Schedule</h2>
      {rounds.length === 0 ? (
        <p class="muted">No rounds scheduled yet.</p>
      ) : (
        <TableWrap label="Schedule">
          <table class="data schedule stack">
            <thead>
              <tr>
                <th scope="col" class="num">
                  Round
                </th>
                <th scope="col">Starts</th>
                <th scope="col">Deadline</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">
                  Matches
                </th>
              </tr>
            </thead>
            <tbody>
              {rounds.map((r) => (
                <tr key={r.number} data-round={r.number} data-status={roundStatus(t, r)}>
                  <th scope="row" class="num first" data-label="Round">
                    {r.number}
                  </th>
                  <td class="line" data-label="Starts">
                    {startedOffSchedule(r) ? (
                      <>
                        {when(r.started_at!)}{' '}
                        <span class="muted small">({startedNote(r)})</span>
                      </>
                    ) : r.starts_at ? (
                      <>
                        {when(r.starts_at)} {r.status === 'scheduled' && <span class="muted small">({roundWait(t, rounds, r) ?? relative(r.starts_at)})</span>}
                      </>
                    ) : (
                      <span class="muted">{r.number === 1 ? 'at the start' : `when round ${r.number - 1} ends`}</span>
                    )}
                  </td>
                  <td class="line" data-label="Deadline">
                    {r.deadline ? when(r.deadline) : '—'}
                    {r.deadline && r.planned_deadline && (
                      <>
                        {' '}
                        <span class="muted small">({deadlineNote(r.planned_deadline)})</span>
                      </>
                    )}
                  </td>
                  <td class="first">
                    <span class={`tag status-${roundStatus(t, r)}`}>{roundStatus(t, r)}</span>
                    {r.start_error && (
                      <div class="error small" role="note">
                        Could not start: {r.start_error}
                      </div>
                    )}
                  </td>
                  <td class="num first" data-label="Matches">
                    {(r.matches ?? []).filter((m) => !m.bye).length}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      <p>
        <a href={`/api/v1/tournaments/${t.id}/calendar.ics`} download>
          Add the rounds to a calendar (.ics)
        </a>
      </p>
    </section>
  );
}

/** useAnnounce says status changes, the round and the champion to screen readers. */
function useAnnounce(d: TournamentData | undefined): string {
  const [msg, setMsg] = useState('');
  const prev = useRef<{ status: string; round: number; champion?: string } | null>(null);
  useEffect(() => {
    if (!d) return;
    const now = { status: d.t.status, round: d.t.current_round, champion: d.bracket.champion };
    const p = prev.current;
    prev.current = now;
    if (!p) return;
    if (now.champion && now.champion !== p.champion) {
      const name = d.entries.find((e) => e.id === now.champion)?.name ?? 'decided';
      setMsg(`The tournament is over. Champion: ${name}.`);
    } else if (now.status !== p.status) setMsg(`The tournament is ${now.status}.`);
    else if (now.round !== p.round) setMsg(`Round ${now.round} has started.`);
  }, [d]);
  return msg;
}

export default function TournamentPage({ id }: { id: string }) {
  const { user } = useSession();
  const data = useLoad(() => loadTournament(id), [id, user?.id]);
  const d = data.data;
  const club = useLoad(async () => (d ? api.get<Club>(`/clubs/${enc(d.t.club_id)}`) : null), [d?.t.club_id, user?.id]);
  // the breadcrumb's season and league (the API serves a season with its table)
  const season = useLoad(
    async () => (d?.t.season_id ? (await api.get<SeasonTable>(`/seasons/${enc(d.t.season_id)}/standings`)).season : null),
    [d?.t.season_id],
  );
  const league = useLoad(async () => (season.data ? api.get<League>(`/leagues/${enc(season.data.league_id)}`) : null), [season.data?.league_id]);
  const organizer = canOrganize(club.data?.viewer_role, user);
  const members = useLoad(
    async () => (d && user && d.t.status === 'registration' ? await fetchAll<Member>((path) => api.get(path), `/clubs/${enc(d.t.club_id)}/members`) : []),
    [d?.t.club_id, d?.t.status, user?.id],
  );
  const announcement = useAnnounce(d);
  // Cancelling takes the organizer tools away with the button pressed: the
  // focus goes to the note that says the tournament was cancelled.
  const cancelledNote = useRef<HTMLParagraphElement>(null);
  const justCancelled = useRef(false);
  useEffect(() => {
    if (justCancelled.current && cancelledNote.current) {
      justCancelled.current = false;
      cancelledNote.current.focus();
    }
  });
  // Only the club's members enter its tournaments (the server answers others 403);
  // undefined until the club is known.
  const member: boolean | undefined = !user
    ? undefined
    : club.data?.viewer_role || members.data?.some((m) => m.user_id === user.id)
      ? true
      : club.data // the club names the viewer's role in it, if any
        ? false
        : undefined;

  const live = !!d && isLive(d);
  const every = d ? pollEvery(d) : null;
  const reload = data.reload;
  usePoll(reload, every ?? POLL_MS, every != null);

  if (data.error && !d) return <LoadFailed error={data.error} title="Tournament" missing="No such tournament" wayOn={{ href: '/', text: 'Back home' }} />;
  if (!d) return <LoadingPage title="Tournament" />;
  const { t } = d;
  const myEntry = user ? d.entries.find((e) => e.members.some((m) => m.user === user.id))?.id : undefined;
  const activeEntries = d.entries.filter((e) => e.status === 'active').length;
  // the server's count once started (a three-team round robin, groups then playoffs, double elimination), else the page's estimate
  const total = t.rounds_planned || expectedRounds(t, activeEntries);
  const inPlay = roundInPlay(d.rounds);
  const playing = d.rounds.find((r) => r.number === inPlay);
  return (
    <Page title={t.name} wide>
      <Crumbs
        items={[
          { href: `/clubs/${t.club_id}`, text: club.data?.name ?? 'Club' },
          league.data && { href: `/leagues/${league.data.id}`, text: league.data.name },
          !!t.season_id && !!(season.data || season.error) && { href: `/seasons/${t.season_id}`, text: season.data?.name ?? 'Season' },
        ]}
      />
      <div class="tournament-head" data-status={t.status} data-round={t.current_round}>
        <h1>{t.name}</h1>
        <StatusTag status={t.status} />
        {t.current_round > 0 && (
          <span class="round-now">
            Round {t.current_round}
            {total && !isOver(t) ? ` of ${total}` : ''}
          </span>
        )}
        {/* "live" beside "running" alone: a paused tournament (polled while its games finish) reads "paused", nothing else */}
        {live && t.status === 'running' && (
          <span class="conn up" title={`Refreshed every ${POLL_MS / 1000} s`}>
            live
          </span>
        )}
      </div>
      <p class="sr-only" aria-live="polite">
        {announcement}
      </p>
      <Facts t={t} entries={entryCount(d.entries)} />
      <ErrorBox error={data.error} />

      {t.status === 'cancelled' && (
        <p class="card-box cancelled-note" role="note" tabIndex={-1} ref={cancelledNote}>
          This tournament was cancelled{t.cancelled_at ? <> on <time dateTime={t.cancelled_at}>{when(t.cancelled_at)}</time></> : null}.
          {t.started_at ? ' Games still being played then were aborted, unrated; the results of games already over stand.' : ' It never started.'}
        </p>
      )}

      {organizer && !isOver(t) && (
        <section class="card-box organizer" aria-labelledby="org-title">
          <h2 id="org-title">Organizer tools</h2>
          <StatusControls
            t={t}
            onChange={(changed) => {
              // shown at once, so that the button that follows is there to take the focus
              justCancelled.current = changed.status === 'cancelled';
              data.setData((now) => now && { ...now, t: changed });
              reload();
            }}
          />
          {playing && <MoveDeadline key={playing.number} t={t} round={playing} onDone={reload} />}
          {t.rounds_planned && t.current_round >= t.rounds_planned ? (
            // the form would offer the round after the last, which the server refuses
            <p class="muted">Every round has started: none is left to schedule.</p>
          ) : (
            // drawn afresh when a round starts: it numbers its rounds from the next one to be paired
            <ScheduleRounds key={t.current_round} d={d} onDone={reload} />
          )}
        </section>
      )}

      {t.status === 'registration' && <Entries d={d} organizer={organizer} member={member} clubMembers={members.data ?? []} reload={reload} />}

      <section class="card-box" aria-labelledby="drawing-title">
        <h2 id="drawing-title">{t.format === 'groups-playoffs' ? 'Groups and playoffs' : d.bracket.kind === 'bracket' || isElimination(t.format) ? 'Bracket' : 'Rounds'}</h2>
        <TournamentDrawing view={d.bracket} schedule={d.rounds} mine={myEntry} entryGroups={new Map(d.standings.flatMap((r) => (r.group ? [[r.entry_id, r.group] as const] : [])))} />
        <StandIns t={t} rounds={d.rounds} entries={d.entries} />
      </section>

      <section class="card-box" aria-labelledby="standings-title">
        <h2 id="standings-title">Standings</h2>
        {t.status === 'registration' ? (
          // every entry shared rank 1, in seed order, which read as a ranking
          <p class="muted">The standings begin with round 1.</p>
        ) : isElimination(t.format) && t.status === 'cancelled' ? (
          // the API ranks every entry of a cancelled knockout 1: a table read "Place 1" for the losers too
          <p class="muted">The knockout was cancelled before it ended: its places were never decided.</p>
        ) : isElimination(t.format) && !isOver(t) ? (
          <p class="muted">A knockout's places are known when it ends; until then the bracket shows who is still in.</p>
        ) : t.format === 'groups-playoffs' && d.standings.some((r) => r.group) ? (
          <>
            {t.status === 'finished' && <FinalPlaces rows={d.standings} highlight={myEntry} />}
            <GroupStandings rows={d.standings} highlight={myEntry} game={t.game} />
          </>
        ) : (
          <StandingsTable
            rows={d.standings}
            elimination={isElimination(t.format)}
            highlight={myEntry}
            game={t.game}
          />
        )}
        <p>
          <a href={`/api/v1/tournaments/${t.id}/standings.csv`} download>
            Download the standings (CSV)
          </a>
        </p>
      </section>

      <Schedule t={t} rounds={d.rounds} />
      {t.status !== 'registration' && <Entries d={d} organizer={organizer} clubMembers={[]} reload={reload} />}
    </Page>
  );
}
