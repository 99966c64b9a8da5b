/** The one redactor: every shape in which a server or proxy could echo the key or the token. */
import { describe, expect, it } from 'vitest';
import { createRedactor, secretForms } from '../../src/redact.js';
import { escapeMarkdown } from '../../src/escape.js';

const KEY = 'sk-Live_9f/3+a=Q';
const redact = createRedactor([KEY, 'tok', undefined, '']);

describe('createRedactor', () => {
  it.each([
    ['as written', `echo ${KEY} back`],
    ['upper-cased', `ECHO ${KEY.toUpperCase()}`],
    ['lower-cased', `echo ${KEY.toLowerCase()}`],
    ['URL-encoded', `?key=${encodeURIComponent(KEY)}&x=1`],
    ['URL-encoded, lower-case hex', `?key=${encodeURIComponent(KEY).toLowerCase()}`],
    ['base64', `token ${Buffer.from(KEY).toString('base64')}`],
    ['base64url', `token ${Buffer.from(KEY).toString('base64url')}`],
    ['inside a Basic credential', `Authorization: Basic ${Buffer.from(`user:${KEY}`).toString('base64')}`],
    ['inside a base64 blob at offset 1', Buffer.from(`a${KEY}zz`).toString('base64')],
    ['inside a base64 blob at offset 2', Buffer.from(`ab${KEY}z`).toString('base64')],
    ['as the markdown renderer escapes it', `name: ${escapeMarkdown(KEY)}`],
  ])('hides the key %s', (_what, text) => {
    const out = redact(text);
    expect(out).toContain('***');
    for (const form of secretForms(KEY)) expect(out.toLowerCase()).not.toContain(form.toLowerCase());
  });

  it('hides a secret as a JSON string or the markdown renderer writes it, and takes base64 padding along', () => {
    const quoted = 'k"ey\\with_quote';
    const redactQuoted = createRedactor([quoted]);
    expect(redactQuoted(JSON.stringify({ name: `a ${quoted}` }))).toBe('{"name":"a ***"}');
    expect(redactQuoted(`- name: ${escapeMarkdown(JSON.stringify(quoted))}`)).toBe('- name: &#34;***&#34;');
    const padded = Buffer.from('sk_live_abcde').toString('base64');
    expect(padded).toMatch(/==$/u);
    expect(createRedactor(['sk_live_abcde'])(`b64: ${padded}.`)).toBe('b64: ***.');
  });

  it('hides a secret of any length, even three characters', () => {
    expect(redact('value: tok, TOK')).toBe('value: ***, ***');
  });

  it('leaves text without a secret alone, and does nothing without secrets', () => {
    expect(redact('nothing to see')).toBe('nothing to see');
    expect(createRedactor([undefined, ''])('a b c')).toBe('a b c');
  });
});
