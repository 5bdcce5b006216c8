import { describe, expect, it } from 'vitest';
import { duration, fromLocalInput, relative, toLocalInput } from './time';

describe('datetime-local values', () => {
  it('round-trips a local wall-clock time', () => {
    const d = new Date(2026, 4, 17, 18, 30, 5);
    expect(toLocalInput(d)).toBe('2026-05-17T18:30:05');
    expect(toLocalInput(d, false)).toBe('2026-05-17T18:30');
    expect(fromLocalInput('2026-05-17T18:30:05')).toBe(d.toISOString());
    expect(fromLocalInput('2026-05-17T18:30')).toBe(new Date(2026, 4, 17, 18, 30).toISOString());
  });

  it('reads nothing from an empty or malformed value', () => {
    expect(fromLocalInput('')).toBeUndefined();
    expect(fromLocalInput('tomorrow')).toBeUndefined();
  });

  it('shows durations and distances in time', () => {
    expect(duration(45)).toBe('45 s');
    expect(duration(300)).toBe('5 min');
    expect(duration(7200)).toBe('2 h');
    expect(duration(86400)).toBe('1 day');
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(relative('2026-01-01T12:05:00Z', now)).toBe('in 5 min');
    expect(relative('2026-01-01T10:00:00Z', now)).toBe('2 h ago');
    expect(relative('2026-01-01T12:00:02Z', now)).toBe('now');
    expect(relative('2026-01-02T20:00:00Z', now)).toBe('in 1 day');
    expect(relative('2025-12-29T12:00:00Z', now)).toBe('3 days ago');
    // rounded in the unit it is said in: an hour ahead read "in 60 min" a moment after it was set
    expect(relative('2026-01-01T12:59:40Z', now)).toBe('in 1 h');
    expect(relative('2026-01-02T11:45:00Z', now)).toBe('in 1 day');
  });
});
