import { describe, expect, it } from 'vitest';
import { MIN_SECRET_LENGTH, secretDiagnostics } from '../../src/policy/secret-scan.js';
import { loadPolicies, parsePolicySources } from '../../src/policy/index.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const KEY = { name: 'AUTOJOIN_API_KEY', value: 'k3y-0123456789' };

describe('secretDiagnostics', () => {
  it('finds every place a secret stands, by line and column, and never repeats its value', () => {
    const text = `scope: a\nscopeName: ${KEY.value}\n# old key: x${KEY.value}${KEY.value}\n`;
    const found = secretDiagnostics({ file: 'a.autojoin.yaml', text }, [], [KEY]);
    expect(found.map(({ line, column }) => [line, column])).toEqual([[2, 12], [3, 13], [3, 13 + KEY.value.length]]);
    expect(found.every((d) => d.severity === 'error' && d.code === 'secret-in-policy' && d.message.includes('AUTOJOIN_API_KEY'))).toBe(true);
    expect(JSON.stringify(found)).not.toContain(KEY.value);
  });

  it('leaves out values too short to be told from ordinary text', () => {
    const short = { name: 'AUTOJOIN_API_KEY', value: 'x'.repeat(MIN_SECRET_LENGTH - 1) };
    expect(secretDiagnostics({ file: 'a.autojoin.yaml', text: `scope: ${short.value}\n` }, [], [short])).toEqual([]);
  });
});

describe('loadPolicies with secrets', () => {
  it('hands out no policy from a file that holds one, and still checks the other files', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-secret-load-'));
    try {
      const policy = (scope: string, name: string): string => `scope: ${scope}\nscopeType: team\nscopeName: ${name}\ncomponentId: c\ndomains: [${scope}.example]\n`;
      await writeFile(path.join(dir, 'a.autojoin.yaml'), policy('a', KEY.value));
      await writeFile(path.join(dir, 'b.autojoin.yaml'), policy('b', 'Team B'));
      const handed: string[] = [];
      const result = await loadPolicies(['.'], { cwd: dir, project: {}, secrets: [KEY], onChecked: (p) => handed.push(p.key) });
      expect(handed).toEqual(['team/b']);
      expect(result.policies.map((p) => p.key)).toEqual(['team/b']);
      expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual(['a.autojoin.yaml:3:12 secret-in-policy']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a secret written in another form: found after YAML decoding, in base64 and URL form', () => {
  const SECRET = { name: 'AUTOJOIN_API_KEY', value: 'sk_live_Qm9vdGhzZWNyZXQ' };
  const hex = (text: string): string => Array.from(text, (char) => char).map((char) => `\\x${char.charCodeAt(0).toString(16)}`).join('');
  const unicode = (text: string): string => Array.from(text, (char) => char).map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const percent = (text: string): string => Array.from(text, (char) => char).map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).join('');
  const base64 = (text: string): string => Buffer.from(text).toString('base64');
  const policy = (line: string): string => `scope: a\nscopeType: team\ncomponentId: c\ndomains: [a.example]\n${line}\n`;

  it.each([
    ['a double-quoted scalar with \\x escapes', `scopeName: "${hex(SECRET.value)}"`, '5:12'],
    ['a double-quoted scalar with \\u escapes', `scopeName: "Team ${unicode(SECRET.value)}"`, '5:12'],
    ['a scalar split by an escaped line break', `scopeName: "${SECRET.value.slice(0, 9)}\\\n  ${SECRET.value.slice(9)}"`, '5:12'],
    ['base64', `metadata: {token: ${base64(SECRET.value)}}`, '5:19'],
    ['base64 with padding, in quotes (where the text shows it)', `metadata: {token: "${base64(`${SECRET.value}z`)}"}`, '5:20'],
    ['base64url', `metadata: {token: ${Buffer.from(`${SECRET.value}>`).toString('base64url')}}`, '5:19'],
    ['base64 of the value inside a longer string (a Basic credential)', `metadata: {auth: "Basic ${base64(`user:${SECRET.value}`)}"}`, '5:32'],
    // Every byte percent-encoded is a form the redactor knows: found in the text, where it starts.
    ['fully URL-encoded', `metadata: {url: "https://x.example/?k=${percent(SECRET.value)}"}`, '5:39'],
    ['a metadata key, with escapes', `metadata: {"${hex(SECRET.value)}": 1}`, '5:12'],
  ])('%s', (_how, line, at) => {
    const found = parsePolicySources([{ file: 'a.autojoin.yaml', text: policy(line) }], { secrets: [SECRET] }).diagnostics;
    const secretErrors = found.filter((d) => d.code === 'secret-in-policy').map((d) => `${d.line}:${d.column}`);
    expect(secretErrors).toEqual([at]);
  });

  it('reports a secret written plainly once, where the text shows it', () => {
    const found = parsePolicySources([{ file: 'a.autojoin.yaml', text: policy(`scopeName: Team ${SECRET.value}`) }], { secrets: [SECRET] }).diagnostics;
    expect(found.filter((d) => d.code === 'secret-in-policy').map((d) => `${d.line}:${d.column}`)).toEqual(['5:17']);
  });

  it('finds a secret at the top of a file checked after one whose decoded value held it (the pattern is shared by the run)', () => {
    const first = policy(`scopeName: "${hex(SECRET.value)}"`);
    const second = `# ${SECRET.value}\nscope: b\nscopeType: team\ncomponentId: c\ndomains: [b.example]\n`;
    const sources = [{ file: 'a.autojoin.yaml', text: first }, { file: 'b.autojoin.yaml', text: second }];
    const found = parsePolicySources(sources, { secrets: [SECRET] }).diagnostics;
    expect(found.filter((d) => d.code === 'secret-in-policy').map((d) => `${d.file}:${d.line}:${d.column}`)).toEqual(['a.autojoin.yaml:5:12', 'b.autojoin.yaml:1:3']);
  });

  it('leaves other values alone', () => {
    const text = policy(`metadata: {a: "${hex('ordinary')}", b: ${base64('another value')}, c: "%41%42"}`);
    expect(parsePolicySources([{ file: 'a.autojoin.yaml', text }], { secrets: [SECRET] }).diagnostics).toEqual([]);
  });
});
