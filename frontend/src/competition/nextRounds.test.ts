// Home's "My next rounds": bob's Home said "round 3 · in 3 min" while his
// round 2 game was still being played, of a knockout round he had not
// reached (the list's next_round is the tournament's first round not yet
// paired, whoever plays in it). The list now says the entry's own step.
import { describe, expect, it } from 'vitest';
import type { UserTournament } from '../api/types';
import { nextStep, roundLine, upcoming } from './nextRounds';

const inThree = '2026-03-01T10:03:00Z';
const cup = (over: Partial<UserTournament> = {}): UserTournament =>
  ({
    id: 't1', club_id: 'c1', name: 'Cup', status: 'running', current_round: 2, entries: 4, created_at: '2026-01-01T00:00:00Z',
    format: 'single-elimination', entry_id: 'bob', entry_name: 'bob', next_round: 3, next_start: inThree, ...over,
  }) as UserTournament;
const playing = { round: 2, match_id: 's', status: 'playing', bye: false, game_id: 'g7' };

describe('Home "My next rounds" line', () => {
  it('shows the game being played now, with a link to it, not the round after', () => {
    const t = cup({ entry_match: playing, entry_next_round: { number: 3, starts_at: inThree, if_through: true } });
    expect(nextStep(t)).toEqual({ text: 'round 2: your game is being played', game: 'g7' });
    expect(roundLine(t)).not.toMatch(/round 3/);
    // between two games of a series: the match, without a game to link
    expect(nextStep(cup({ entry_match: { ...playing, game_id: undefined } }))).toEqual({ text: 'round 2: your match is being played' });
    // a paused tournament lets its games in play finish: the game is still there to play
    expect(nextStep(cup({ status: 'paused', next_start: undefined, next_round: undefined, entry_match: playing })).game).toBe('g7');
    expect(nextStep(cup({ status: 'paused' })).text).toBe('paused by the organizers');
  });

  it("offers a knockout round only once the server says it is the entry's", () => {
    const over = { round: 2, match_id: 's', status: 'finished', bye: false };
    // bob won his semifinal: the final is his
    expect(nextStep(cup({ entry_match: over, entry_next_round: { number: 3, starts_at: inThree, if_through: false } }))).toEqual({ text: 'round 3', start: inThree });
    // he lost it: no round is left for him, whatever the tournament's next round
    expect(nextStep(cup({ entry_match: over, knocked_out: true }))).toEqual({ text: 'knocked out: no round left for you' });
    // his match undecided (not being played now): the final is his only if he wins
    expect(nextStep(cup({ entry_next_round: { number: 3, starts_at: inThree, if_through: true } }))).toEqual({ text: 'round 3 if your entry goes through', start: inThree });
    // his next match waits for its opponent
    expect(nextStep(cup({ entry_match: over, entry_waiting: true })).text).toBe('your next match waits for its opponent');
    // his match is over, the list offers no round of his: not the tournament's round 3
    expect(nextStep(cup({ entry_match: over }))).toEqual({ text: 'round 2 in play; your match is over' });
    // the list says nothing of the entry (a bracket not drawn yet): the tournament's next round
    expect(nextStep(cup()).text).toBe('round 3');
  });

  it('says a round in play is over for the entry once its match is', () => {
    const rr = cup({ format: 'round-robin', next_round: undefined, next_start: undefined });
    expect(nextStep({ ...rr, entry_match: { round: 2, match_id: 'm', status: 'finished', bye: false } }).text).toBe('round 2 in play; your match is over');
    expect(nextStep({ ...rr, entry_match: { round: 2, match_id: 'm', status: 'finished', bye: true } }).text).toBe('round 2 in play; you have a bye');
    expect(nextStep({ ...rr, entry_match: { round: 2, match_id: 'm', status: 'playing', bye: false } }).text).toBe('round 2: your match is being played');
    expect(nextStep(rr).text).toBe('round 2 in play');
  });

  it('lists first the tournaments where a game of mine is being played', () => {
    const later = cup({ id: 't0', format: 'swiss', next_start: '2026-03-01T09:00:00Z', entry_next_round: { number: 3, starts_at: '2026-03-01T09:00:00Z', if_through: false } });
    const now = cup({ id: 't1' });
    expect(upcoming([later, now]).map((t) => t.id)).toEqual(['t0', 't1']);
    expect(upcoming([later, { ...now, entry_match: playing }]).map((t) => t.id)).toEqual(['t1', 't0']);
  });
});
