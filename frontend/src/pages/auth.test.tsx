// The sign-in and sign-up forms as a keyboard user meets a refusal: the
// submit button is disabled while the request runs, and in Chromium the
// focus then fell to <body> and stayed there once the server had said no
// ("is taken", "wrong username or password").
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { api } from '../session';
import { browserFocus, focusRefused } from '../testing/browserFocus';
import { submitForm, typeInto } from '../testing/dom';
import { mount, resetCalls, signOutAndUnmount, stub } from '../testing/stubApi';
import { SignIn, SignUp } from './Auth';

beforeEach(() => {
  vi.restoreAllMocks();
  resetCalls();
});
afterEach(signOutAndUnmount);

describe('a refused sign-up or sign-in', () => {
  browserFocus();
  afterEach(() => expect(focusRefused).toEqual([]));

  /** usernameTaken has the server refuse every sign-up: "is taken", at the username. */
  const usernameTaken = () =>
    stub({
      'POST /auth/register': () => {
        throw new ApiError(400, { title: 'Bad Request', detail: 'that username is taken', errors: [{ field: 'username', message: 'is taken' }] });
      },
    });

  it('sign-up: the focus goes to the field the server objects to', async () => {
    usernameTaken();
    const root = mount(<SignUp />);
    typeInto(root, '#f-username', 'bob');
    typeInto(root, '#f-password', 'password123');
    (root.querySelector('button[type=submit]') as HTMLButtonElement).focus();
    await submitForm(root.querySelector('form'));
    expect(root.textContent).toContain('is taken');
    expect(document.activeElement).toBe(root.querySelector('#f-username'));
  });

  it('sign-up: says "is taken" once, at the username, not again in a box below the form', async () => {
    usernameTaken();
    const root = mount(<SignUp />);
    typeInto(root, '#f-username', 'bob');
    typeInto(root, '#f-password', 'password123');
    await submitForm(root.querySelector('form'));
    expect(root.querySelector('#f-username-err')!.textContent).toBe('is taken');
    expect(root.textContent!.match(/taken/g)).toHaveLength(1);
    expect(root.querySelector('[role=alert]')).toBeNull();
  });

  it('sign-up: a refusal naming no field of the form is still said', async () => {
    stub({
      'POST /auth/register': () => {
        throw new ApiError(429, { title: 'Too Many Requests', detail: 'too many registrations from this address; try again later' });
      },
    });
    const root = mount(<SignUp />);
    typeInto(root, '#f-username', 'bob');
    typeInto(root, '#f-password', 'password123');
    await submitForm(root.querySelector('form'));
    expect(root.querySelector('[role=alert]')!.textContent).toBe('Too many registrations from this address; try again later.');
  });

  it("sign-up: an edit drops the server's objection, which spoke of the old username", async () => {
    usernameTaken();
    const root = mount(<SignUp />);
    typeInto(root, '#f-username', 'bob');
    typeInto(root, '#f-password', 'password123');
    await submitForm(root.querySelector('form'));
    expect(root.textContent).toContain('is taken');
    typeInto(root, '#f-username', 'bobby');
    expect(root.textContent).not.toContain('taken');
    expect(root.querySelector('[aria-invalid=true]')).toBeNull();
  });

  it('sign-in: with no field named, the focus goes back to the button', async () => {
    stub({});
    vi.spyOn(api, 'login').mockRejectedValue(new ApiError(401, { title: 'Unauthorized', detail: 'wrong username or password' }));
    const root = mount(<SignIn />);
    typeInto(root, '#f-username', 'bob');
    typeInto(root, '#f-password', 'wrongpass');
    const button = root.querySelector('button[type=submit]') as HTMLButtonElement;
    button.focus();
    await submitForm(root.querySelector('form'));
    expect(root.textContent).toContain('Wrong username or password');
    expect(document.activeElement).toBe(button);
  });
});

// A next page that a browser reads as another site's: "/\evil.example"
// and "/<tab>/evil.example" start with one slash, so they passed the check
// for "//", and the browser then resolved them to //evil.example. The
// History API refuses a URL of another origin, so a sign-in that had
// succeeded showed its SecurityError as a refusal and stayed on the form.
// Such a next page is now home; one of the site keeps its query and
// fragment.
describe('the page a sign-in goes on to', () => {
  afterEach(() => history.replaceState(null, '', '/'));

  const signInWithNext = async (next: string) => {
    stub({ 'GET /me': () => ({ id: 'u1', username: 'bob', kind: 'human', is_admin: false }) });
    vi.spyOn(api, 'login').mockResolvedValue(undefined);
    history.replaceState(null, '', '/signin?next=' + encodeURIComponent(next));
    const root = mount(<SignIn />);
    typeInto(root, '#f-username', 'bob');
    typeInto(root, '#f-password', 'password123');
    await submitForm(root.querySelector('form'));
    return root;
  };

  for (const next of ['/\\evil.example/x', '/\t/evil.example/x', '/\n/evil.example/x', '//evil.example/x', 'https://evil.example/x']) {
    it(`is home, without an error, for a next page off the site (${JSON.stringify(next)})`, async () => {
      const root = await signInWithNext(next);
      expect(root.querySelector('[role=alert]')?.textContent ?? null).toBeNull();
      expect(location.host).not.toContain('evil');
      expect(location.pathname + location.search).toBe('/');
    });
  }

  it('is the next page of the site asked for, its query and fragment kept', async () => {
    const root = await signInWithNext('/clubs/c1?tab=members#invites');
    expect(root.querySelector('[role=alert]')).toBeNull();
    expect(location.pathname + location.search + location.hash).toBe('/clubs/c1?tab=members#invites');
  });
});
