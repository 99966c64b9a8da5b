/**
 * Redaction on whole values before any cut, and at the cut of a text never seen whole; the
 * hex, byte-by-byte percent-encoded and zero-width-split forms of a key.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRedactor, cutText, scrubCutEdges, setRunSecrets } from '../../src/redact.js';
import { escapeControls, escapeMarkdown } from '../../src/escape.js';
import { oneLineMessage } from '../../src/service/errors.js';

const KEY = 'sk_live_Cut*Key_0a1b2c3d4e5f';
const hex = Buffer.from(KEY).toString('hex');
const percent = hex.replace(/../gu, (pair) => `%${pair}`);
const split = `${KEY.slice(0, 9)}\u200b${KEY.slice(9, 20)}\u2060${KEY.slice(20)}`;

afterEach(() => setRunSecrets([]));

describe('the forms of a key', () => {
  const redact = createRedactor([KEY]);
  it.each([
    ['hex', `id=${hex}`],
    ['hex, upper case', `id=${hex.toUpperCase()}`],
    ['percent-encoded byte by byte', `?k=${percent}`],
    ['percent-encoded byte by byte, upper case', `?k=${percent.toUpperCase()}`],
    ['split by zero-width characters', `name: ${split}`],
    ['split, then escaped for a terminal', `name: ${escapeControls(split)}`],
    ['split, then escaped for markdown', `name: ${escapeMarkdown(split)}`],
    ['split by a zero-width character between every character', Array.from(KEY).join('\u200b')],
  ])('hides the key %s', (_what, text) => {
    const out = redact(text);
    expect(out).toContain('***');
    expect(out.toLowerCase()).not.toContain(KEY.slice(10, 18).toLowerCase());
    expect(out.toLowerCase()).not.toContain(hex.slice(10, 18));
  });
});

describe('cuts', () => {
  it('cutText redacts the whole value first: a key straddling the cut at any offset shows no part of it', () => {
    setRunSecrets([KEY]);
    for (const form of [KEY, hex, percent, split]) {
      for (let at = 190 - form.length; at <= 202; at += 1) {
        const shown = cutText(`${'x'.repeat(at)}${form}${'y'.repeat(50)}`, 200);
        expect(shown.length).toBeLessThanOrEqual(200);
        for (let part = 0; part + 5 <= form.length; part += 1) expect(shown.toLowerCase()).not.toContain(form.slice(part, part + 5).toLowerCase().replace(/[\u200b\u2060]/gu, ''));
      }
    }
  });

  it("the service's message is redacted before the cut at 500 characters", () => {
    setRunSecrets([KEY]);
    for (let at = 499 - KEY.length - 1; at <= 500; at += 1) {
      const message = oneLineMessage(`${'x'.repeat(at)}${KEY}${'y'.repeat(100)}`, createRedactor([KEY]));
      expect(message).not.toMatch(/sk_l/u);
    }
  });

  it('scrubCutEdges hides a prefix (at the end) or a suffix (at the start) of 4 or more characters of a form', () => {
    setRunSecrets([KEY]);
    expect(scrubCutEdges(`fatal: ${KEY.slice(0, 4)}`, { end: true })).toBe('fatal: ***');
    expect(scrubCutEdges(`fatal: ${hex.slice(0, 30)}`, { end: true })).toBe('fatal: ***');
    expect(scrubCutEdges(`${KEY.slice(-6)} tail`, { start: true })).toBe('*** tail');
    expect(scrubCutEdges(`fatal: ${KEY.slice(0, 3)}`, { end: true })).toBe(`fatal: ${KEY.slice(0, 3)}`);
    expect(scrubCutEdges(`fatal: ${KEY.slice(0, 10)}`, {})).toBe(`fatal: ${KEY.slice(0, 10)}`);
  });

  it('without secrets, cutText only cuts', () => {
    expect(cutText('abcdef', 4)).toBe('abc…');
    expect(cutText('abc', 4)).toBe('abc');
  });
});
