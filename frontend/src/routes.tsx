// Every page of the app, by path. Tournaments and leaderboards slot in as
// more rows (lazy, so they do not grow the initial bundle).
import type { ComponentType } from 'preact';
import { lazy } from './lazy';
import { SignIn, SignUp } from './pages/Auth';
import GamePage from './pages/GamePage';
import Home from './pages/Home';
import type { Params } from './router';

export interface Route {
  path: string;
  /** the nav item this page belongs to, for aria-current */
  section?: string;
  render: ComponentType<Params>;
}

const Replay = lazy(() => import('./pages/Replay'));
const ClubList = lazy<object>(() => import('./pages/Clubs').then((m) => ({ default: m.ClubList })));
const ClubPage = lazy<{ id: string }>(() => import('./pages/Clubs').then((m) => ({ default: m.ClubPage })));
const Profile = lazy(() => import('./pages/Profile'));

export const routes: Route[] = [
  { path: '/', section: 'home', render: () => <Home /> },
  { path: '/signin', render: () => <SignIn /> },
  { path: '/signup', render: () => <SignUp /> },
  { path: '/games/:id', section: 'home', render: (p) => <GamePage id={p.id} /> },
  { path: '/games/:id/replay', section: 'home', render: (p) => <Replay id={p.id} /> },
  { path: '/users/:id', section: 'profile', render: (p) => <Profile id={p.id} /> },
  { path: '/clubs', section: 'clubs', render: () => <ClubList /> },
  { path: '/clubs/:id', section: 'clubs', render: (p) => <ClubPage id={p.id} /> },
];
