/** test/support/requires.ts: a skip names its reason; in CI a missing tool fails instead. */
import { afterEach, describe, expect, it } from 'vitest';
import { requires } from '../support/requires.js';

const savedCi = process.env.CI;
afterEach(() => {
  if (savedCi === undefined) delete process.env.CI;
  else process.env.CI = savedCi;
});

/** A context whose skip records its note and stops the test as vitest's does (by throwing). */
function context(): { skip(note?: string): never; notes: (string | undefined)[] } {
  const notes: (string | undefined)[] = [];
  return {
    notes,
    skip(note?: string): never {
      notes.push(note);
      throw new Error('skipped');
    },
  };
}

describe('requires', () => {
  it('does nothing when the need is present', () => {
    const given = context();
    requires(given, { present: true, reason: 'x', tool: true });
    expect(given.notes).toEqual([]);
  });

  it('skips with the reason as the note outside CI', () => {
    delete process.env.CI;
    const given = context();
    expect(() => requires(given, { present: false, reason: 'dnsmasq is not installed', tool: true })).toThrow('skipped');
    expect(given.notes).toEqual(['dnsmasq is not installed']);
  });

  it('fails in CI when a tool is missing, naming it; a need that is no tool still skips', () => {
    process.env.CI = 'true';
    const given = context();
    expect(() => requires(given, { present: false, reason: 'zsh is not installed', tool: true })).toThrow(/^zsh is not installed: CI installs it/);
    expect(given.notes).toEqual([]);
    expect(() => requires(given, { present: false, reason: 'needs Linux' })).toThrow('skipped');
    expect(given.notes).toEqual(['needs Linux']);
  });
});
