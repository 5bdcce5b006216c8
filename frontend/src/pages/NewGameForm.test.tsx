import { describe, expect, it } from 'vitest';
import { defaultForm, resize, toRequest } from './NewGameForm';

describe('the new-game form', () => {
  it('asks for a 1 v 1 Sequence game against a random bot by default', () => {
    expect(toRequest(defaultForm())).toEqual({
      game: 'sequence',
      variant: 'classic',
      players: 2,
      teams: 2,
      seats: [{ user: 'me' }, { bot: 'random' }],
      clock: { turn_seconds: 60 },
    });
  });

  it('keeps seats and teams valid when the player count changes', () => {
    const six = resize(defaultForm(), 6);
    expect(six.seats).toHaveLength(6);
    expect(six.teams).toBe(2);
    const three = resize({ ...six, teams: 3 }, 3);
    expect(three.teams).toBe(3);
    expect(three.seats).toEqual(['me', 'random', 'random']);
  });

  it('sends no teams or variant for Stacks', () => {
    const f = resize({ ...defaultForm(), game: 'stacks' }, 4);
    const req = toRequest({ ...f, seats: ['me', 'greedy', 'open', 'strong'], turnSeconds: 30 });
    expect(req).toEqual({ game: 'stacks', players: 4, seats: [{ user: 'me' }, { bot: 'greedy' }, { open: true }, { bot: 'strong' }], clock: { turn_seconds: 30 } });
  });
});
