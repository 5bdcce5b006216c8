// How many of the signed-in player's games wait for their move, for the
// count beside "Home" in the header: read when the page changes and every
// WAITING_POLL_MS while the tab is shown, so that a move due in another
// game is seen from wherever the player is.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ListPage } from '../competition/pager';
import { api } from '../session';
import { usePoll } from './poll';

export const WAITING_POLL_MS = 30_000;

/** waitingText is the count as shown: "100+" past one page of the API's largest. */
export function waitingText(items: number, more: boolean): string {
  return more ? `${items}+` : String(items);
}

/** useWaitingGames is the count of userID's games waiting for their move ('' when none, or signed out). */
export function useWaitingGames(userID: string | undefined, path: string): string {
  const [count, setCount] = useState('');
  // an answer for the player signed in before is dropped
  const current = useRef(userID);
  current.current = userID;
  const read = () => {
    if (!userID) return setCount('');
    if (document.hidden) return;
    api.get<ListPage<unknown>>(`/users/${encodeURIComponent(userID)}/games?to_move=true&limit=100`).then(
      (p) => current.current === userID && setCount(p.items.length ? waitingText(p.items.length, !!p.next_cursor) : ''),
      () => {}, // a count that cannot be read keeps the last one: the page says what is wrong
    );
  };
  useEffect(read, [userID, path]);
  usePoll(read, WAITING_POLL_MS, !!userID);
  return count;
}
