import { useEffect, useRef, useState } from 'preact/hooks';
import { Page } from './components/ui';
import { matchPath, navigate, onLinkClick, signInHref, useLocation } from './router';
import { routes, sectionOf } from './routes';
import { dismissEnded, restore, signOut, useSession } from './session';
import { useWaiting, waitingText, waitingWords } from './components/waiting';

function NotFound() {
  return (
    <Page title="Not found">
      <h1>Page not found</h1>
      <p>
        <a href="/">Back home</a>
      </p>
    </Page>
  );
}

export function App() {
  const { path, query } = useLocation();
  const session = useSession();
  const main = useRef<HTMLElement>(null);
  let page = <NotFound />;
  for (const r of routes) {
    const params = matchPath(r.path, path);
    if (params) {
      const R = r.render;
      // A new path is a new page: the game (or tournament, club…) it shows
      // starts from nothing, not from the state of the one before, whose
      // late answers and events could otherwise land on it.
      page = <R key={path} {...params} />;
      break;
    }
  }
  const section = sectionOf(path, session.user?.id);

  // Move the focus to the new page so screen readers announce it.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus();
  }, [path]);

  const user = session.user;
  const ended = !user && !!session.ended;
  const endedNote = useRef<HTMLParagraphElement>(null);
  // The word that the session ended goes once the user moves on.
  useEffect(() => dismissEnded(), [path]);
  // The page turned signed out under the user, and the control they were
  // at (a form's button) may have gone with it: the focus, if the page
  // took it, goes to the word saying why.
  useEffect(() => {
    const a = document.activeElement;
    if (ended && (!a || a === document.body)) endedNote.current?.focus();
  }, [ended]);
  // A sign-out that did not reach the server leaves the user signed in
  // (there and here), and says so: it said nothing, and the page showed
  // signed out while the session and its refresh cookie stayed good.
  const [signOutFailed, setSignOutFailed] = useState(false);
  useEffect(() => setSignOutFailed(false), [path, user?.id]);
  const waiting = useWaiting(user?.id, path);
  // signing in from the header comes back to the page one was on (on the sign-in and sign-up pages, to theirs)
  const back = path === '/signin' || path === '/signup' ? (query.get('next') ?? '/') : path + location.search;
  const cur = (s: string) => (section === s ? 'page' : undefined);
  return (
    <div class="app" onClick={(e) => onLinkClick(e as unknown as MouseEvent)}>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), main.current?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <a href="/" class="brand" aria-label="Seqleague home">
          <span aria-hidden="true">●▲</span> Seqleague
        </a>
        <nav aria-label="Main">
          {/* the count describes the link (its name stays "Home") */}
          <a href="/" aria-current={cur('home')} aria-describedby={waiting ? 'waiting-games' : undefined}>
            Home
            {waiting && (
              // the words on hover too: a bare "1" beside Home said nothing to a sighted new player
              <span class="tag tag-move nav-count" aria-hidden="true" title={waitingWords(waiting)}>
                {waitingText(waiting.moves + waiting.invitations, waiting.more)}
              </span>
            )}
          </a>
          {waiting && (
            <span id="waiting-games" class="sr-only">
              {waitingWords(waiting)}
            </span>
          )}
          <a href="/clubs" aria-current={cur('clubs')}>
            Clubs
          </a>
          <a href="/leaderboards" aria-current={cur('leaderboards')}>
            Leaderboards
          </a>
          {user && (
            <a href={`/users/${user.id}`} aria-current={cur('profile')}>
              Profile
            </a>
          )}
        </nav>
        <div class="account">
          {!session.ready ? null : user ? (
            <>
              <span class="muted account-name" title={user.username}>
                {user.username}
              </span>
              <button
                type="button"
                class="link"
                onClick={() => {
                  setSignOutFailed(false);
                  signOut().then(
                    () => navigate('/'),
                    () => setSignOutFailed(true),
                  );
                }}
              >
                Sign out
              </button>
            </>
          ) : (
            <>
              <a href={signInHref(back)}>Sign in</a>
              <a href={signInHref(back).replace(/^\/signin/, '/signup')} class="button primary small">
                Sign up
              </a>
            </>
          )}
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {ended && (
          <p class="error session-ended" role="status" id="session-ended" tabIndex={-1} ref={endedNote}>
            You have been signed out: this session has ended (its password may have been changed on another device). <a href={signInHref(back)}>Sign in again</a>.
          </p>
        )}
        {signOutFailed && user && (
          <p class="error session-note" role="alert" id="sign-out-failed">
            Signing out did not reach the server: you are still signed in. Check your connection and sign out again.
          </p>
        )}
        {session.unreachable && !user && (
          <p class="error session-note" role="alert" id="session-unreachable">
            Cannot reach the server to sign you back in: this page shows you signed out for now.{' '}
            <button type="button" class="link" onClick={() => void restore()}>
              Try again
            </button>
          </p>
        )}
        {session.ready ? page : <p class="muted">Loading…</p>}
      </main>
    </div>
  );
}
