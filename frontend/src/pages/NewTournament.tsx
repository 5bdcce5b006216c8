// Create a tournament (club organizers): every option of POST /tournaments,
// as plain data in competition/tournamentForm.ts.
import { useState } from 'preact/hooks';
import type { Club, League, Season, Tournament, UserClub } from '../api/types';
import { TIE_BREAK_NAMES } from '../competition/Standings';
import { fetchAll } from '../competition/pager';
import {
  BOT_LEVELS,
  DEFAULT_TIE_BREAKS,
  defaultTournamentForm,
  formatsFor,
  isElimination,
  matchSizes,
  normalize,
  teamSizes,
  TIE_BREAKS,
  tieBreaksFor,
  toTournamentRequest,
  validateTournament,
  RATING_LIMIT,
  type TournamentForm,
} from '../competition/tournamentForm';
import { Check, ClockFields, Input, Select } from '../components/form';
import { ErrorBox, LoadingPage, Page, useAction, useLoad } from '../components/ui';
import { navigate, signInHref, useLocation } from '../router';
import { api, useSession } from '../session';

const GAP = [0, 30, 60, 300, 900, 3600].map((s) => [s, s === 0 ? 'none: next round at once' : s < 60 ? `${s} s` : s < 3600 ? `${s / 60} min` : '1 hour'] as const);

export default function NewTournament() {
  const { user } = useSession();
  const { query } = useLocation();
  const [f, setF] = useState<TournamentForm>(() => ({ ...defaultTournamentForm(query.get('club') ?? ''), seasonId: query.get('season') ?? '' }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { busy, error, fieldErrors, run } = useAction();
  const set = (patch: Partial<TournamentForm>) => setF((old) => normalize({ ...old, ...patch }));

  // The clubs I organize; and the club named in the URL, which a site
  // admin may organize without being a member.
  const wanted = query.get('club') ?? '';
  const clubs = useLoad(async () => {
    if (!user) return [];
    const all = await fetchAll<UserClub>((path) => api.get(path), `/users/${user.id}/clubs`);
    const mine: { id: string; name: string }[] = all.filter((c) => c.id && (user.is_admin || c.role === 'owner' || c.role === 'organizer'));
    if (wanted && !mine.some((c) => c.id === wanted)) {
      const c = await api.get<Club>(`/clubs/${encodeURIComponent(wanted)}`).catch(() => null);
      if (c && (user.is_admin || c.viewer_role === 'owner' || c.viewer_role === 'organizer')) mine.push(c);
    }
    return mine;
  }, [user?.id, wanted]);
  // The club's open seasons, for "part of a season".
  const seasons = useLoad(async () => {
    if (!f.clubId) return [];
    const leagues = await fetchAll<League>((path) => api.get(path), `/clubs/${encodeURIComponent(f.clubId)}/leagues`);
    const per = await Promise.all(
      leagues.map(async (l) => (await fetchAll<Season>((path) => api.get(path), `/leagues/${l.id}/seasons`)).filter((s) => s.status === 'open').map((s) => ({ s, l }))),
    );
    return per.flat();
  }, [f.clubId]);

  if (!user) {
    return (
      <Page title="New tournament">
        <h1>New tournament</h1>
        <p>
          <a href={signInHref()}>Sign in</a> to run a tournament.
        </p>
      </Page>
    );
  }
  if (clubs.loading && !clubs.data) return <LoadingPage title="New tournament" />;
  // the clubs could not be read: say so, not "you organize none"
  if (!clubs.data && clubs.error) {
    return (
      <Page title="New tournament">
        <h1>New tournament</h1>
        <ErrorBox error={clubs.error} />
      </Page>
    );
  }
  const myClubs = clubs.data ?? [];

  // The form's own check runs inside the action too, so that every submit
  // clears the server's objections to the one before.
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const found = validateTournament(f);
      setErrors(found);
      if (Object.keys(found).length) {
        // Focus the first field with a problem.
        const first = document.querySelector<HTMLElement>('[aria-invalid=true]');
        setTimeout(() => (document.querySelector<HTMLElement>('[aria-invalid=true]') ?? first)?.focus(), 0);
        return;
      }
      const t = await api.post<Tournament>('/tournaments', toTournamentRequest(f));
      navigate(`/tournaments/${t.id}`);
    });
  };

  // A field's problem: the form's own check first, else the server's.
  const err = (k: string) => errors[k] ?? fieldErrors?.fieldError(k);
  const defaults = tieBreaksFor(f.game, DEFAULT_TIE_BREAKS[f.format] ?? []);
  return (
    <Page title="New tournament" wide>
      <h1>New tournament</h1>
      {myClubs.length === 0 ? (
        <p>
          Tournaments belong to a club, and you organize none. <a href="/clubs">Create a club</a> (you become its owner), or ask a club's owner to make you an
          organizer.
        </p>
      ) : (
        <form class="form tournament-form" onSubmit={submit} noValidate aria-labelledby="nt-title">
          <h2 id="nt-title" class="sr-only">
            The tournament's set-up
          </h2>
          <fieldset>
            <legend>Basics</legend>
            <div class="row">
              <Input id="nt-name" label="Name" value={f.name} onInput={(v) => set({ name: v })} required maxLength={100} error={err('name')} />
              <Select
                id="nt-club"
                label="Club"
                value={f.clubId}
                options={[['', 'Choose a club'], ...myClubs.map((c) => [c.id, c.name] as const)]}
                onChange={(v) => set({ clubId: v, seasonId: '' })}
                error={err('club_id')}
              />
              <Select
                id="nt-season"
                label="Season (optional)"
                value={f.seasonId}
                options={[['', 'None'], ...(seasons.data ?? []).map(({ s, l }) => [s.id, `${l.name}: ${s.name}`] as const)]}
                onChange={(v) => set({ seasonId: v })}
                hint="Its results count in the season's table."
                error={err('season_id')}
              />
            </div>
          </fieldset>

          <fieldset>
            <legend>Game</legend>
            <div class="row">
              <Select
                id="nt-game"
                label="Game"
                value={f.game}
                options={[
                  ['sequence', 'Sequence (board)'],
                  ['stacks', 'Sequence Stacks (cards)'],
                ]}
                onChange={(v) => set({ game: v })}
                error={err('game')}
              />
              {f.game === 'sequence' && (
                <Select
                  id="nt-variant"
                  label="Variant"
                  value={f.variant}
                  options={[
                    ['classic', 'Classic (jacks)'],
                    ['bordered', 'Bordered (W+ / W−)'],
                  ]}
                  onChange={(v) => set({ variant: v })}
                  error={err('variant')}
                />
              )}
              <Select
                id="nt-match-size"
                label={f.game === 'stacks' ? 'Players per match' : 'Teams per match'}
                value={f.matchSize}
                options={matchSizes(f.game).map((n) => [n, String(n)] as const)}
                onChange={(v) => set({ matchSize: v })}
                error={err('match_size')}
              />
              <Select
                id="nt-team-size"
                label="Players per team"
                value={f.teamSize}
                options={teamSizes(f.game, f.matchSize).map((n) => [n, n === 1 ? '1 (individuals)' : String(n)] as const)}
                onChange={(v) => set({ teamSize: v })}
                disabled={f.game === 'stacks'}
                hint={f.game === 'sequence' ? `${f.teamSize * f.matchSize} players at each table` : 'Stacks is played by individuals'}
                error={err('team_size')}
              />
              <Select
                id="nt-best-of"
                label="Match length"
                value={f.bestOf}
                options={[1, 3, 5, 7, 9].map((n) => [n, n === 1 ? 'one game' : `best of ${n}`] as const)}
                onChange={(v) => set({ bestOf: v })}
                error={err('best_of')}
              />
            </div>
            <div class="row">
              <ClockFields idPrefix="nt" value={f} onChange={set} fieldError={err} />
            </div>
            <div class="row">
              <Select
                id="nt-fill"
                label="Fill-in bot level"
                value={f.fillLevel}
                options={BOT_LEVELS.map((b) => [b, b] as const)}
                onChange={(v) => set({ fillLevel: v })}
                hint="Plays for absent or disconnected players."
                error={err('fill_level')}
              />
              <Check id="nt-rated" label="Rated games" checked={f.rated} onChange={(v) => set({ rated: v })} />
            </div>
          </fieldset>

          <fieldset>
            <legend>Format</legend>
            <div class="row">
              <Select
                id="nt-format"
                label="Format"
                value={f.format}
                options={formatsFor(f.matchSize).map((x) => [x.id, x.name] as const)}
                onChange={(v) => set({ format: v })}
                error={err('format')}
              />
              {f.format === 'round-robin' && <Check id="nt-double" label="Double round robin (everyone meets twice)" checked={f.double} onChange={(v) => set({ double: v })} />}
              {f.format === 'swiss' && (
                <Input
                  id="nt-rounds"
                  label="Rounds"
                  type="number"
                  min={0}
                  max={30}
                  value={f.rounds}
                  onInput={(v) => set({ rounds: Math.max(0, Number(v) || 0) })}
                  hint="0: enough rounds to find a winner"
                  error={err('rounds')}
                />
              )}
              {f.format === 'single-elimination' && f.matchSize === 2 && (
                <Check id="nt-third" label="Third-place match" checked={f.thirdPlace} onChange={(v) => set({ thirdPlace: v })} />
              )}
              {f.format === 'double-elimination' && (
                <Check
                  id="nt-reset"
                  label="Grand-final reset"
                  checked={f.reset}
                  onChange={(v) => set({ reset: v })}
                  hint="A second final when the losers-bracket champion wins the first."
                />
              )}
              {f.format === 'groups-playoffs' && (
                <>
                  <Input id="nt-groups" label="Groups" type="number" min={1} max={16} value={f.groups} onInput={(v) => set({ groups: Number(v) || 0 })} error={err('groups')} />
                  <Input
                    id="nt-advance"
                    label="Advance from each group"
                    type="number"
                    min={1}
                    max={8}
                    value={f.advance}
                    onInput={(v) => set({ advance: Number(v) || 0 })}
                    error={err('advance')}
                  />
                </>
              )}
            </div>
            {!isElimination(f.format) && (
              <fieldset class="inner">
                <legend>Tie-breaks, in this order</legend>
                <p class="hint" id="nt-tb-hint">
                  None ticked: the format's own ({defaults.map((t) => TIE_BREAK_NAMES[t]).join(', ')}).
                </p>
                <div class="checks">
                  {tieBreaksFor(f.game).map((t) => (
                    <Check
                      key={t}
                      id={`nt-tb-${t}`}
                      label={TIE_BREAK_NAMES[t]}
                      checked={f.tieBreaks.includes(t)}
                      onChange={(on) => set({ tieBreaks: on ? TIE_BREAKS.filter((x) => x === t || f.tieBreaks.includes(x)) : f.tieBreaks.filter((x) => x !== t) })}
                    />
                  ))}
                </div>
              </fieldset>
            )}
          </fieldset>

          <fieldset>
            <legend>Registration and entry</legend>
            <div class="row">
              <Input
                id="nt-opens"
                label="Registration opens"
                type="datetime-local"
                value={f.opens}
                onInput={(v) => set({ opens: v })}
                hint="Empty: open now"
                error={err('registration_opens')}
              />
              <Input
                id="nt-closes"
                label="Registration closes"
                type="datetime-local"
                value={f.closes}
                onInput={(v) => set({ closes: v })}
                hint="Empty: until the tournament starts"
                error={err('registration_closes')}
              />
              <Select
                id="nt-seeding"
                label="Seeding"
                value={f.seeding}
                options={[
                  ['rating', 'by rating'],
                  ['manual', 'manual (organizers seed entries)'],
                  ['random', 'random draw'],
                ]}
                onChange={(v) => set({ seeding: v })}
                error={err('seeding')}
              />
            </div>
            <div class="row">
              <Input id="nt-min-rating" label="Lowest rating" type="number" step={1} min={0} max={RATING_LIMIT} value={f.minRating} onInput={(v) => set({ minRating: v })} hint={`0–${RATING_LIMIT}; empty: no limit`} error={err('min_rating')} />
              <Input id="nt-max-rating" label="Highest rating" type="number" step={1} min={0} max={RATING_LIMIT} value={f.maxRating} onInput={(v) => set({ maxRating: v })} hint={`0–${RATING_LIMIT}; empty: no limit`} error={err('max_rating')} />
              <Input id="nt-min-games" label="Rated games at least" type="number" min={0} max={10000} step={1} value={f.minGames} onInput={(v) => set({ minGames: v })} error={err('min_games')} />
            </div>
          </fieldset>

          <fieldset>
            <legend>When players are missing or late</legend>
            <div class="row">
              <Select
                id="nt-no-show"
                label="No-shows"
                value={f.noShow}
                options={[
                  ['bots', 'bots play for them'],
                  ['forfeit', f.format === 'swiss' ? 'they forfeit the game and leave' : 'they forfeit the game'],
                ]}
                onChange={(v) => set({ noShow: v })}
                error={err('no_show')}
              />
              <Select
                id="nt-deadline"
                label="At a round's deadline"
                value={f.atDeadline}
                options={[
                  ['bots', 'bots finish the games'],
                  ['adjudicate', 'adjudicate on the board'],
                ]}
                onChange={(v) => set({ atDeadline: v })}
                error={err('at_deadline')}
              />
              <Select
                id="nt-gap"
                label="Pause between rounds"
                value={f.roundGapSeconds}
                options={GAP}
                onChange={(v) => set({ roundGapSeconds: v })}
                hint="For rounds you do not schedule."
                error={err('round_gap_seconds')}
              />
            </div>
          </fieldset>
          <ErrorBox error={error} />
          <button type="submit" class="primary big" disabled={busy}>
            {busy ? 'Creating…' : 'Create the tournament'}
          </button>
        </form>
      )}
    </Page>
  );
}
