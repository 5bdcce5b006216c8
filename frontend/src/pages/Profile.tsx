import { useState } from 'preact/hooks';
import { useFocusAfter } from '../components/focus';
import type { Game, User, UserClub } from '../api/types';
import { fetchAll } from '../competition/pager';
import { GameList } from '../components/GameList';
import { ShowMore, usePagedList } from '../components/list';
import { ErrorBox, Field, LoadFailed, Loading, LoadingPage, Page, useAction, useLoad, when } from '../components/ui';
import { RatingCharts } from '../competition/RatingChart';
import { navigate } from '../router';
import { api, changeEmail, changePassword, closeAccount, useSession } from '../session';

export default function Profile({ id }: { id: string }) {
  const { user: me } = useSession();
  const user = useLoad(() => api.get<User>(`/users/${encodeURIComponent(id)}`), [id, me?.id]);
  const games = usePagedList<Game>(`/users/${encodeURIComponent(id)}/games`, [id, me?.id]);
  if (user.error) return <LoadFailed error={user.error} title="Player" missing="No such player" wayOn={{ href: '/leaderboards', text: 'Find players on the leaderboards' }} />;
  if (!user.data) return <LoadingPage title="Player" />;
  const u = user.data;
  return (
    <Page title={u.username} wide>
      <h1>
        {u.username} {u.kind === 'bot' && <span class="tag">bot · {u.bot_level}</span>} {u.is_admin && <span class="tag">admin</span>}
      </h1>
      <p class="muted">
        Member since {when(u.created_at)}
        {u.closed_at && <> · account closed {when(u.closed_at)}; its games and ratings stay as they were played</>}
      </p>
      <section class="card-box" aria-labelledby="ratings-title" id="ratings" data-slot="rating-chart">
        <h2 id="ratings-title">Ratings</h2>
        <RatingCharts userId={u.id} />
        <p class="small">
          <a href="/leaderboards">Leaderboards</a>
        </p>
      </section>
      <section class="card-box" aria-labelledby="games-title">
        <h2 id="games-title">Games</h2>
        <ErrorBox error={games.error} />
        {games.data ? <GameList games={games.data} me={u.id} self={me?.id === u.id} empty="No games yet." /> : !games.error && <Loading />}
        <ShowMore list={games} label="Older games" />
      </section>
      {me?.id === u.id && (
        <>
          <ChangeEmail username={u.username} email={u.email ?? ''} onSaved={(nu) => user.setData({ ...u, ...nu })} />
          <ChangePassword username={u.username} />
          <CloseAccount userId={u.id} username={u.username} />
        </>
      )}
    </Page>
  );
}

/**
 * useProvedForm runs a form about one's own account that the password
 * proves (ChangePassword, ChangeEmail). An edit drops the server's last
 * objection (stale once the fields change) and calls onEdit; a submit
 * calls onSubmit, then send. The submit button is disabled while the
 * request runs, and a browser drops the focus of a disabled button: the
 * focus goes on to done (the word that it worked), or back to the field
 * the server objects to (else the button, once enabled again). onField
 * says whether the objection is shown at a field of fields.
 */
function useProvedForm(o: { fields: string[]; done: string; send: () => Promise<void>; onSubmit: () => void; onEdit?: () => void }) {
  const { busy, error, fieldErrors: fe, run, clear } = useAction();
  const { root, focusNext } = useFocusAfter<HTMLElement>();
  const onField = !!fe && o.fields.some((f) => fe.fieldError(f));
  const edit = (set: (v: string) => void) => (v: string) => {
    set(v);
    o.onEdit?.();
    if (error) clear();
  };
  const submit = (e: Event) => {
    e.preventDefault();
    o.onSubmit();
    return run(async () => {
      try {
        await o.send();
      } catch (err) {
        focusNext('[aria-invalid=true]', 'button[type=submit]');
        throw err;
      }
      focusNext(o.done);
    });
  };
  return { busy, error, fe, onField, edit, submit, root };
}

/**
 * ChangePassword changes one's own password. The server signs every other
 * device out; this tab carries on with the new tokens it answers.
 */
export function ChangePassword({ username }: { username: string }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [changed, setChanged] = useState(false);
  const { busy, error, fe, onField, edit, submit, root } = useProvedForm({
    fields: ['current_password', 'new_password'],
    done: '#password-changed',
    onSubmit: () => setChanged(false),
    send: async () => {
      await changePassword(current, next);
      setCurrent('');
      setNext('');
      setChanged(true);
    },
  });
  return (
    <section class="card-box" aria-labelledby="password-title" ref={root}>
      <h2 id="password-title">Change password</h2>
      <form onSubmit={submit} class="form narrow" aria-label="Change password">
        {/* For password managers: whose password this is. */}
        <input type="text" name="username" autocomplete="username" value={username} readOnly hidden />
        <Field
          label="Current password"
          name="current_password"
          type="password"
          value={current}
          onInput={edit(setCurrent)}
          required
          autocomplete="current-password"
          error={fe?.fieldError('current_password')}
        />
        <Field
          label="New password"
          name="new_password"
          type="password"
          value={next}
          onInput={edit(setNext)}
          required
          minLength={8}
          maxLength={128}
          autocomplete="new-password"
          hint="8 to 128 characters, not the current one"
          error={fe?.fieldError('new_password')}
        />
        {!onField && <ErrorBox error={error} />}
        {changed && (
          <p class="ok" role="status" id="password-changed" tabIndex={-1}>
            Password changed. Every other device and browser is signed out; this one stays signed in.
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Changing…' : 'Change password'}
        </button>
      </form>
    </section>
  );
}

/**
 * ChangeEmail sets or removes one's own e-mail address. The server asks for
 * the password, as for a password change: a session alone (a device left
 * signed in) must not send the account's mail elsewhere.
 */
export function ChangeEmail({ username, email, onSaved }: { username: string; email: string; onSaved?: (u: User) => void }) {
  const [address, setAddress] = useState(email);
  const [current, setCurrent] = useState('');
  const [saved, setSaved] = useState<'saved' | 'removed' | null>(null);
  const { busy, error, fe, onField, edit, submit, root } = useProvedForm({
    fields: ['current_password', 'email'],
    done: '#email-changed',
    onSubmit: () => setSaved(null),
    onEdit: () => setSaved(null),
    send: async () => {
      const u = await changeEmail(current, address.trim());
      setCurrent('');
      setAddress(u.email ?? '');
      setSaved(u.email ? 'saved' : 'removed');
      onSaved?.(u);
    },
  });
  return (
    <section class="card-box" aria-labelledby="email-title" ref={root}>
      <h2 id="email-title">E-mail address</h2>
      <form onSubmit={submit} class="form narrow" aria-label="Change e-mail address">
        <input type="text" name="username" autocomplete="username" value={username} readOnly hidden />
        <Field
          label="E-mail address"
          name="email"
          type="email"
          value={address}
          onInput={edit(setAddress)}
          autocomplete="email"
          maxLength={254}
          hint="Only you and site admins see it. Leave it empty to remove it."
          error={fe?.fieldError('email')}
        />
        <Field
          label="Your password"
          name="email-current-password"
          type="password"
          value={current}
          onInput={edit(setCurrent)}
          required
          autocomplete="current-password"
          error={fe?.fieldError('current_password')}
        />
        {!onField && <ErrorBox error={error} />}
        {saved && (
          <p class="ok" role="status" id="email-changed" tabIndex={-1}>
            {saved === 'saved' ? 'E-mail address saved.' : 'E-mail address removed.'}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save e-mail address'}
        </button>
      </form>
    </section>
  );
}

/**
 * CloseAccount lets people close their own account, after a second click
 * and their password.
 * The server refuses while they own a club, so the clubs to hand over
 * first are named, with links to their pages (where "Make owner…" is).
 */
export function CloseAccount({ userId, username }: { userId: string; username: string }) {
  const [confirming, setConfirming] = useState(false);
  // closing takes the password, as an e-mail change does: a session left
  // open on a shared device must not be enough to end the account
  const [current, setCurrent] = useState('');
  const { busy, error, fieldErrors: fe, run, clear } = useAction();
  // the button pressed goes away: the focus goes to the password it asks for
  // (typing it closes nothing), and back from "Keep it"
  const { root, focusNext } = useFocusAfter<HTMLElement>();
  const owned = useLoad(async () => (await fetchAll<UserClub>((path) => api.get(path), `/users/${encodeURIComponent(userId)}/clubs`)).filter((c) => c.role === 'owner'), [userId]);
  if (owned.data?.length) {
    return (
      <section class="card-box" aria-labelledby="account-title">
        <h2 id="account-title">Account</h2>
        <p role="note">
          You own {owned.data.length === 1 ? 'a club' : `${owned.data.length} clubs`}. Make another member its owner before closing your account:{' '}
          {owned.data.map((c, i) => (
            <span key={c.id}>
              {i > 0 && ', '}
              <a href={`/clubs/${c.id}`}>{c.name}</a>
            </span>
          ))}
          .
        </p>
      </section>
    );
  }
  return (
    <section class="card-box" aria-labelledby="account-title" ref={root}>
      <h2 id="account-title">Account</h2>
      {!fe?.fieldError('current_password') && <ErrorBox error={error} />}
      {confirming ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            return run(async () => {
              await closeAccount(current);
              navigate('/');
            });
          }}
        >
          <p>
            Closing <strong>{username}</strong> signs you out everywhere and for good. Your games, ratings and results stay on record under
            this name.
          </p>
          <Field
            label="Your password"
            name="close-current-password"
            type="password"
            value={current}
            onInput={(v) => {
              // a refusal speaks of the password sent, not of the one being typed (as the other forms drop it)
              setCurrent(v);
              if (error) clear();
            }}
            required
            autocomplete="current-password"
            error={fe?.fieldError('current_password')}
          />
          <button type="submit" class="danger" disabled={busy}>
            {busy ? 'Closing…' : 'Close my account'}
          </button>{' '}
          <button
            type="button"
            data-action="keep"
            disabled={busy}
            onClick={() => {
              setConfirming(false);
              setCurrent('');
              clear();
              focusNext('[data-action=close-account]');
            }}
          >
            Keep it
          </button>
        </form>
      ) : (
        <button
          type="button"
          data-action="close-account"
          onClick={() => {
            setConfirming(true);
            focusNext('#f-close-current-password');
          }}
        >
          Close account…
        </button>
      )}
    </section>
  );
}
