import { describe, expect, it } from 'vitest';
import { matchPath } from './router';
import { routes, sectionOf } from './routes';

describe('the router', () => {
  it('matches patterns and decodes parameters', () => {
    expect(matchPath('/games/:id', '/games/42')).toEqual({ id: '42' });
    expect(matchPath('/games/:id/replay', '/games/a%20b/replay')).toEqual({ id: 'a b' });
    expect(matchPath('/games/:id', '/games/42/replay')).toBeNull();
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/clubs', '/clubs/')).toEqual({});
    expect(matchPath('/games/:id', '/games/%E0%A4%A')).toBeNull();
  });

  it('has a page for every path the app links to', () => {
    for (const path of ['/', '/signin', '/signup', '/games/x', '/games/x/replay', '/users/u', '/clubs', '/clubs/c']) {
      expect(routes.some((r) => matchPath(r.path, path)), path).toBe(true);
    }
  });

  it('marks "Profile" as the current section on the own profile only', () => {
    expect(sectionOf('/users/u1', 'u1')).toBe('profile');
    expect(sectionOf('/users/u2', 'u1')).toBeUndefined();
    expect(sectionOf('/users/u2', undefined)).toBeUndefined();
    expect(sectionOf('/clubs/c', 'u1')).toBe('clubs');
  });

  // "Home" was marked the current page (aria-current, bold) on a game and its replay.
  it('marks no section current on a game page or its replay, "Home" only at home', () => {
    expect(sectionOf('/', 'u1')).toBe('home');
    expect(sectionOf('/games/g1', 'u1')).toBeUndefined();
    expect(sectionOf('/games/g1', undefined)).toBeUndefined();
    expect(sectionOf('/games/g1/replay', 'u1')).toBeUndefined();
  });
});
