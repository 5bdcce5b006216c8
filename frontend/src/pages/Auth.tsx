import { useState } from 'preact/hooks';
import { useFocusAfter } from '../components/focus';
import { ErrorBox, Field, Page, unplaced, useAction } from '../components/ui';
import { navigate, signInHref, useLocation } from '../router';
import { signIn, signUp } from '../session';

/**
 * safeNext is the page of this site a sign-in goes on to, home for any
 * other: the address is resolved as the browser will resolve it, since a
 * browser reads "/\evil.example" and "/<tab>/evil.example" as
 * "//evil.example", another site, which the History API then refuses.
 */
function safeNext(q: URLSearchParams): string {
  const n = q.get('next') ?? '/';
  if (!n.startsWith('/')) return '/';
  try {
    const u = new URL(n, location.origin);
    if (u.origin === location.origin) return u.pathname + u.search + u.hash;
  } catch {
    // not an address at all
  }
  return '/';
}

/**
 * useAuthForm runs a sign-in or sign-up form's submit. Its button is
 * disabled while the request runs, and a browser drops the focus of a
 * disabled button to the page: a refused submit hands the focus back to
 * the first field the server objects to, else to the button once enabled
 * again, so a keyboard user goes on where the error is. An edit drops the
 * server's objection, which no longer speaks of what the fields hold
 * ("is taken" stayed beside a new username while the browser's own check
 * held the next submit back for a short password).
 */
function useAuthForm(action: () => Promise<void>) {
  const { busy, error, fieldErrors, run, clear } = useAction();
  const { root, focusNext } = useFocusAfter<HTMLFormElement>();
  const edit = (set: (v: string) => void) => (v: string) => {
    set(v);
    if (error) clear();
  };
  const submit = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      try {
        await action();
      } catch (err) {
        focusNext('[aria-invalid=true]', 'button[type=submit]');
        throw err;
      }
    });
  };
  return { busy, error, fe: fieldErrors, submit, root, edit };
}

export function SignIn() {
  const { query } = useLocation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, fe, submit, root, edit } = useAuthForm(async () => {
    await signIn(username.trim(), password);
    navigate(safeNext(query), true);
  });
  return (
    <Page title="Sign in">
      <h1>Sign in</h1>
      <form onSubmit={submit} class="form narrow" aria-describedby="signin-error" ref={root}>
        <Field label="Username" name="username" value={username} onInput={edit(setUsername)} required autocomplete="username" error={fe?.fieldError('username')} />
        <Field label="Password" name="password" type="password" value={password} onInput={edit(setPassword)} required autocomplete="current-password" error={fe?.fieldError('password')} />
        <div id="signin-error">
          <ErrorBox error={error} />
        </div>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p>
          New here? <a href={`/signup${query.get('next') ? '?next=' + encodeURIComponent(safeNext(query)) : ''}`}>Create an account</a>.
        </p>
      </form>
    </Page>
  );
}

/** SIGN_UP_FIELDS are the fields of POST /auth/register the sign-up form shows an objection beside. */
const SIGN_UP_FIELDS = ['username', 'password', 'email'];

export function SignUp() {
  const { query } = useLocation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [email, setEmail] = useState('');
  const { busy, error, fe, submit, root, edit } = useAuthForm(async () => {
    await signUp(username.trim(), password, email.trim());
    navigate(safeNext(query), true);
  });
  return (
    <Page title="Create an account">
      <h1>Create an account</h1>
      <form onSubmit={submit} class="form narrow" ref={root}>
        <Field
          label="Username"
          name="username"
          value={username}
          onInput={edit(setUsername)}
          required
          minLength={3}
          maxLength={24}
          autocomplete="username"
          hint="3–24 letters, digits, _ or -"
          error={fe?.fieldError('username')}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          value={password}
          onInput={edit(setPassword)}
          required
          minLength={8}
          maxLength={128}
          autocomplete="new-password"
          hint="At least 8 characters"
          error={fe?.fieldError('password')}
        />
        <Field label="E-mail (optional)" name="email" type="email" value={email} onInput={edit(setEmail)} autocomplete="email" hint="Only you and site admins see it" error={fe?.fieldError('email')} />
        {/* a refusal every part of which its field shows is not said again below ("is taken" at the username, then "that username is taken") */}
        <ErrorBox error={unplaced(error, (f) => SIGN_UP_FIELDS.includes(f))} />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create account'}
        </button>
        <p>
          Already have an account? <a href={query.get('next') ? signInHref(safeNext(query)) : '/signin'}>Sign in</a>.
        </p>
      </form>
    </Page>
  );
}
