// Every page of the app, by path. Every page but home, sign-in and the live
// table is lazy: its code is its own chunk, fetched when first shown, so the
// initial bundle stays small.
import type { ComponentType } from 'preact';
import { lazy } from './lazy';
import { SignIn, SignUp } from './pages/Auth';
import GamePage from './pages/GamePage';
import Home from './pages/Home';
import { matchPath, type Params } from './router';

export interface Route {
  path: string;
  /** the nav item this page belongs to, for aria-current (given the page's parameters and the signed-in user's id) */
  section?: string | ((params: Params, me: string | undefined) => string | undefined);
  render: ComponentType<Params>;
}

const Replay = lazy(() => import('./pages/Replay'));
const ClubList = lazy<object>(() => import('./pages/Clubs').then((m) => ({ default: m.ClubList })));
const ClubPage = lazy<{ id: string }>(() => import('./pages/Clubs').then((m) => ({ default: m.ClubPage })));
const Profile = lazy(() => import('./pages/Profile'));
const Leaderboard = lazy<{ pool?: string }>(() => import('./pages/Leaderboard'));
const TournamentPage = lazy<{ id: string }>(() => import('./pages/Tournament'));
const NewTournament = lazy<object>(() => import('./pages/NewTournament'));
const LeaguePage = lazy<{ id: string }>(() => import('./pages/Leagues').then((m) => ({ default: m.LeaguePage })));
const SeasonPage = lazy<{ id: string }>(() => import('./pages/Leagues').then((m) => ({ default: m.SeasonPage })));

export const routes: Route[] = [
  { path: '/', section: 'home', render: () => <Home /> },
  { path: '/signin', render: () => <SignIn /> },
  { path: '/signup', render: () => <SignUp /> },
  // A game (and its replay) is in no section: it is reached from home, a
  // tournament, a club or a profile alike, and "Home" marked current there
  // told a player on a game page that they were on the home page.
  { path: '/games/:id', render: (p) => <GamePage id={p.id} /> },
  { path: '/games/:id/replay', render: (p) => <Replay id={p.id} /> },
  { path: '/users/:id', section: (p, me) => (me != null && p.id === me ? 'profile' : undefined), render: (p) => <Profile id={p.id} /> },
  { path: '/clubs', section: 'clubs', render: () => <ClubList /> },
  { path: '/clubs/:id', section: 'clubs', render: (p) => <ClubPage id={p.id} /> },
  { path: '/leagues/:id', section: 'clubs', render: (p) => <LeaguePage id={p.id} /> },
  { path: '/seasons/:id', section: 'clubs', render: (p) => <SeasonPage id={p.id} /> },
  // before /tournaments/:id, which would take "new" for an ID
  { path: '/tournaments/new', section: 'clubs', render: () => <NewTournament /> },
  { path: '/tournaments/:id', section: 'clubs', render: (p) => <TournamentPage id={p.id} /> },
  { path: '/leaderboards', section: 'leaderboards', render: () => <Leaderboard /> },
  { path: '/leaderboards/:pool', section: 'leaderboards', render: (p) => <Leaderboard pool={p.pool} /> },
];

/** sectionOf is the nav item of the page at path, for aria-current: "Profile" only on one's own profile. */
export function sectionOf(path: string, me: string | undefined): string | undefined {
  for (const r of routes) {
    const params = matchPath(r.path, path);
    if (params) return typeof r.section === 'function' ? r.section(params, me) : r.section;
  }
  return undefined;
}
