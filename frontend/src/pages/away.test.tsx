import { afterEach, describe, expect, it } from 'vitest';
import type { GameView } from '../api/types';
import { SequenceTable } from './SequenceTable';
import { mount, unmountAll } from '../testing/stubApi';

afterEach(unmountAll);

// Ann watches bob's turn; bob's page closed (the server says away).
function view(away: boolean, clock: GameView['clock'] = { turn_seconds: 60 }): GameView {
  const board = ['*........*', ...Array(8).fill('..........'), '*........*'];
  return {
    id: 'g', game: 'sequence', players: 2, teams: 2, status: 'active', rated: false, clock, created_at: '', seed_hash: '', ply: 5,
    seats: [
      { seat: 0, team: 0, user: { id: 'a', username: 'ann' }, open: false, filled_by_bot: false, abandoned: false },
      { seat: 1, team: 1, user: { id: 'b', username: 'bob' }, open: false, filled_by_bot: false, abandoned: false, away },
    ],
    your_seat: 0, to_move: [1], legal_moves: [],
    state: {
      game: 'sequence', variant: 'classic', seat: 0, players: 2, teams: 2, sequences_to_win: 2, board, sequences: {}, locked: [],
      discards: [[], []], hand_sizes: [7, 7], deck_size: 80, hand: ['7H'], turn: 1, ply: 5, exchanged: false,
      penalty_owed: [0, 0], plays: 5, status: 'playing', winner: null,
    },
  };
}

describe('a player who is away', () => {
  it('is marked away by their name and on their compact line, and their turn says the autopilot plays it', () => {
    const root = mount(<SequenceTable view={view(true)} onMove={() => {}} busy={false} />);
    const bob = root.querySelector('[data-seat="1"]')!;
    const badge = bob.querySelector('.badges .badge.away')!;
    expect(badge.textContent).toBe('awayaway: no connection');
    expect(badge.querySelector('.sr-only')!.textContent).toBe('away: no connection');
    expect(bob.querySelector('.compact-name .mini-tag.away')!.textContent).toBe('away');
    expect(root.querySelector('[data-seat="0"] .away')).toBeNull();
    expect(root.querySelector('.status-line')!.textContent).toBe('bob to move — they seem to be away; if the turn runs out, the autopilot plays it.');
  });

  it('says nothing of it once they are back, and no autopilot in an untimed game', () => {
    const back = mount(<SequenceTable view={view(false)} onMove={() => {}} busy={false} />);
    expect(back.querySelector('.away')).toBeNull();
    expect(back.querySelector('.status-line')!.textContent).toBe('bob to move.');
    const untimed = mount(<SequenceTable view={view(true, {})} onMove={() => {}} busy={false} />);
    expect(untimed.querySelector('.status-line')!.textContent).toBe('bob to move — they seem to be away.');
  });

  it("never marks the viewer's own seat: a read made as the page reopened said so until the next move", () => {
    const v = view(false);
    v.seats[0].away = true;
    const root = mount(<SequenceTable view={v} onMove={() => {}} busy={false} />);
    expect(root.querySelector('.away')).toBeNull();
  });
});
