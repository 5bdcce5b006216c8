// What waits for the signed-in player, for the count beside "Home" in the
// header: the games waiting for their move and the tables where a seat is
// kept for them (an invitation). Read when the page changes and every
// WAITING_POLL_MS while the tab is shown, so that a move due in another
// game, or a friend's table, is seen from wherever the player is.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ListPage } from '../competition/pager';
import { api } from '../session';
import { usePoll } from './poll';

export const WAITING_POLL_MS = 30_000;

const WAITING_CHANGED = 'seqleague:waiting';

/** waitingChanged asks the count to be read again now: the player acted on something it counts (declined an invitation). */
export function waitingChanged(): void {
  window.dispatchEvent(new Event(WAITING_CHANGED));
}

/** Waiting counts one page (of the API's largest) of each list; more says a list goes on. */
export interface Waiting {
  moves: number;
  invitations: number;
  more: boolean;
}

/** waitingText is the count as shown: "100+" past a page. */
export function waitingText(items: number, more: boolean): string {
  return more ? `${items}+` : String(items);
}

/** waitingWords says the count for screen readers ('' when nothing waits). */
export function waitingWords(w: Waiting | null): string {
  if (!w) return '';
  const parts: string[] = [];
  if (w.moves) parts.push(w.moves === 1 ? 'a game waits for your move' : `${w.moves} games wait for your move`);
  if (w.invitations) parts.push(w.invitations === 1 ? 'an invitation to a game' : `${w.invitations} invitations to games`);
  const s = parts.join(', and ') + (w.more ? ' (and more)' : '');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** useWaiting is what waits for userID (null when nothing does, or signed out). */
export function useWaiting(userID: string | undefined, path: string): Waiting | null {
  const [waiting, setWaiting] = useState<Waiting | null>(null);
  // an answer for the player signed in before is dropped, and so is one
  // overtaken by a later read (a poll's, answered after the read that a
  // move asked for, brought back the count the move had cleared)
  const current = useRef(userID);
  current.current = userID;
  const latest = useRef(0);
  const read = () => {
    if (!userID) return setWaiting(null);
    if (document.hidden) return;
    const my = ++latest.current;
    const games = `/users/${encodeURIComponent(userID)}/games`;
    Promise.all([
      api.get<ListPage<unknown>>(`${games}?to_move=true&limit=100`),
      api.get<ListPage<unknown>>(`${games}?invited=true&limit=100`),
    ]).then(
      ([moves, invited]) => {
        if (current.current !== userID || my !== latest.current) return;
        const w = { moves: moves.items.length, invitations: invited.items.length, more: !!moves.next_cursor || !!invited.next_cursor };
        setWaiting(w.moves || w.invitations ? w : null);
      },
      () => {}, // a count that cannot be read keeps the last one: the page says what is wrong
    );
  };
  useEffect(read, [userID, path]);
  useEffect(() => {
    window.addEventListener(WAITING_CHANGED, read);
    return () => window.removeEventListener(WAITING_CHANGED, read);
  }, [userID]);
  usePoll(read, WAITING_POLL_MS, !!userID);
  return waiting;
}
