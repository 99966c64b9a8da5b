/**
 * src/redact.ts where test/hardening/redact.test.ts and redact-cuts.test.ts do not reach: the
 * exact forms of a secret (what the action registers with the runner's log masking, which
 * matches case-sensitively), the run's secrets and a nested run's, cuts in bytes, the shown
 * live value and commit, and the pattern that finds a secret in a policy file. Written for its
 * mutation score (docs/testing.md). Each redactor is made inside its test: one caches its slow
 * pattern, which a redactor shared between tests would carry from one run of the test to the next.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createRedactor,
  cutText,
  cutTextBytes,
  hasRunSecrets,
  redactText,
  runSecretsBinding,
  scrubCutEdges,
  secretForms,
  secretPattern,
  setRunSecrets,
  shortCommit,
  shownLive,
} from '../../src/redact.js';
import { escapeControls, escapeMarkdown } from '../../src/escape.js';
import { withRunValues } from '../../src/run-values.js';
import { defined } from '../support/defined.js';

const KEY = 'sk_live_Cut*Key_0a1b2c3d4e5f';

afterEach(() => setRunSecrets([]));

const sorted = (forms: readonly string[]): string[] => [...forms].sort();

describe('secretForms', () => {
  it.each([
    // base64 runs at offsets 1 and 2 (NrLUFiM, zay1BYj); at offset 0 the run is the whole base64
    ['sk-Ab1', ['sk-ab1', 'SK-AB1', 'sk-Ab1', '736b2d416231', '%73%6B%2D%41%62%31', 'c2stQWIx', 'NrLUFiM', 'zay1BYj']],
    // trimmed, JSON- and markdown-escaped, as written and trimmed
    [
      ' k"ey ',
      [' k"ey ', ' K"EY ', '%20k%22ey%20', '206b22657920', '%20%6B%22%65%79%20', ' k&#34;ey ', ' k\\"ey ', ' k&#92;&#34;ey ', 'k"ey', 'k&#34;ey', 'k\\"ey', 'k&#92;&#34;ey', 'IGsiZXkg', 'BrImV5I', 'gayJleS'],
    ],
    // padded and unpadded; a run of exactly six characters (YWJjZG) is kept
    ['abcde', ['abcde', 'ABCDE', '6162636465', '%61%62%63%64%65', 'YWJjZGU=', 'YWJjZGU', 'YWJjZG', 'FiY2Rl', 'hYmNkZ']],
    // two padding characters; runs under six characters (YWJjZ) are not forms
    ['abcd', ['abcd', 'ABCD', '61626364', '%61%62%63%64', 'YWJjZA==', 'YWJjZA']],
    // padding where base64 differs from base64url (which has none)
    ['~~~~', ['~~~~', '7e7e7e7e', '%7E%7E%7E%7E', '&#126;&#126;&#126;&#126;', 'fn5+fg==', 'fn5+fg', 'fn5-fg']],
    // base64url differs from base64
    ['a?>', ['a?>', 'A?>', 'a%3F%3E', '613f3e', '%61%3F%3E', 'a?&#62;', 'YT8+', 'YT8-']],
    // a blank secret's trimmed form is empty: no form
    [' ', [' ', '%20', '20', 'IA==', 'IA']],
  ])('%j has exactly its forms', (secret, forms) => {
    expect(sorted(secretForms(secret))).toEqual(sorted(forms));
  });
});

describe('createRedactor', () => {
  // A short key: the pattern for a split key grows with the key, and takes seconds to build for a long one.
  const SHORT = 'sk_Cut*Key9';
  const split = `${SHORT.slice(0, 4)}\u200b${SHORT.slice(4, 8)}\u2060${SHORT.slice(8)}`;

  it.each([
    ['split by zero-width characters', split],
    ['split, escaped for a terminal', escapeControls(split)],
    ['split, escaped for markdown', escapeMarkdown(split)],
  ])('replaces the key %s, and only it', (_what, form) => {
    expect(createRedactor([SHORT])(`name: ${form}.`)).toBe('name: ***.');
  });

  it('replaces every split key in a text, in any case', () => {
    expect(createRedactor([SHORT])(`${split} and ${split.toUpperCase()}`)).toBe('*** and ***');
  });

  it('leaves a text with zero-width characters but no secret as it is', () => {
    expect(createRedactor([SHORT])('a\u200bb sk_Cut')).toBe('a\u200bb sk_Cut');
  });

  it('replaces the longer of two secrets whole where the shorter starts it, in either order', () => {
    expect(createRedactor(['sk_1', 'sk_1_more'])('x sk_1_more y')).toBe('x *** y');
    expect(createRedactor(['sk_1_more', 'sk_1'])('x sk_1_more y sk_1')).toBe('x *** y ***');
  });
});

describe("the run's secrets", () => {
  it('skips undefined, empty and blank values', () => {
    setRunSecrets([undefined, '', '  ']);
    expect(hasRunSecrets()).toBe(false);
    expect(redactText(' a ')).toBe(' a ');
    setRunSecrets([undefined, 'tok', ' ']);
    expect(hasRunSecrets()).toBe(true);
    expect(redactText('tok a ')).toBe('*** a ');
  });

  it('hides a secret of one character too, as createRedactor does', () => {
    setRunSecrets(['Q']);
    expect(redactText('xQzq')).toBe('x***z***');
  });

  it("a nested run hides the enclosing run's secrets and its own; the enclosing run never sees the nested one's", () => {
    setRunSecrets(['outer-secret']);
    const inside = withRunValues([runSecretsBinding(['inner-secret'])], () => redactText('outer-secret inner-secret'));
    expect(inside).toBe('*** ***');
    expect(redactText('outer-secret inner-secret')).toBe('*** inner-secret');
  });
});

describe('cuts', () => {
  it('cutText keeps a value of exactly the limit whole', () => {
    expect(cutText('abcd', 4)).toBe('abcd');
  });

  it('cutText hides the start of a form left at the cut of a value that never held the whole secret', () => {
    const value = 'fatal: sk_live_Cut and more text here';
    expect(cutText(value, 17)).toBe('fatal: sk_live_C…');
    setRunSecrets([KEY]);
    expect(cutText(value, 17)).toBe('fatal: ***…');
  });

  it('scrubCutEdges looks only at the edges it is told were cut', () => {
    setRunSecrets([KEY]);
    expect(scrubCutEdges(`${KEY.slice(-6)} tail`, { end: true })).toBe(`${KEY.slice(-6)} tail`);
    expect(scrubCutEdges(`head ${KEY.slice(0, 6)}`, { start: true })).toBe(`head ${KEY.slice(0, 6)}`);
    expect(scrubCutEdges('plain text', { start: true, end: true })).toBe('plain text');
  });

  it('scrubCutEdges hides the longest part of a form at the cut, not a shorter one inside it', () => {
    setRunSecrets(['xxxxxxxx']);
    expect(scrubCutEdges('ab xxxxxx', { end: true })).toBe('ab ***');
    expect(scrubCutEdges('xxxxxx ab', { start: true })).toBe('*** ab');
  });

  it.each([
    [0, ''],
    [2, ''], // not even the mark fits
    [3, '…'],
    [4, 'a…'],
    [5, 'a…'],
    [6, 'aé…'],
    [7, 'aéb…'],
    [8, 'aéb…'],
    [9, 'aéb€cd'], // exactly its size: whole
  ])('cutTextBytes(…, %i) cuts to at most that many bytes of UTF-8: %j', (maxBytes, shown) => {
    expect(cutTextBytes('aéb€cd', maxBytes)).toBe(shown);
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(maxBytes);
  });

  it('cutTextBytes takes a mark of its own, and redacts the whole value first', () => {
    expect(cutTextBytes('abcdef', 4, '.')).toBe('abc.');
    setRunSecrets([KEY]);
    expect(cutTextBytes(`fatal: ${KEY}!`, 100)).toBe('fatal: ***!');
    expect(cutTextBytes(`fatal: ${KEY}!`, 12)).toBe('fatal: ***!');
  });

  it('shownLive cuts a live value to 200 characters', () => {
    expect(shownLive('x'.repeat(200))).toBe('x'.repeat(200));
    expect(shownLive('x'.repeat(201))).toBe(`${'x'.repeat(199)}…`);
  });

  it('shortCommit shows the first 12 characters, without a mark', () => {
    expect(shortCommit('0123456789abcdef0123456789abcdef01234567')).toBe('0123456789ab');
  });
});

describe('secretPattern', () => {
  it('is null without a secret', () => {
    expect(secretPattern([undefined, ''])).toBeNull();
  });

  it('matches every form of every secret, in any case, everywhere in a text', () => {
    const pattern = defined(secretPattern(['Key-1', undefined]));
    expect(pattern.flags).toBe('giu');
    expect('a KEY-1 b key-1 c S2V5LTE'.replace(pattern, '#')).toBe('a # b # c #');
  });
});
