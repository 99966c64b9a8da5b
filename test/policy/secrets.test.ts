import { describe, expect, it } from 'vitest';
import { MIN_SECRET_LENGTH, secretDiagnostics } from '../../src/policy/secrets.js';
import { loadPolicies } from '../../src/policy/index.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const KEY = { name: 'AUTOJOIN_API_KEY', value: 'k3y-0123456789' };

describe('secretDiagnostics', () => {
  it('finds every place a secret stands, by line and column, and never repeats its value', () => {
    const text = `scope: a\nscopeName: ${KEY.value}\n# old key: x${KEY.value}${KEY.value}\n`;
    const found = secretDiagnostics({ file: 'a.autojoin.yaml', text }, [KEY]);
    expect(found.map(({ line, column }) => [line, column])).toEqual([[2, 12], [3, 13], [3, 13 + KEY.value.length]]);
    expect(found.every((d) => d.severity === 'error' && d.code === 'secret-in-policy' && d.message.includes('AUTOJOIN_API_KEY'))).toBe(true);
    expect(JSON.stringify(found)).not.toContain(KEY.value);
  });

  it('leaves out values too short to be told from ordinary text', () => {
    const short = { name: 'AUTOJOIN_API_KEY', value: 'x'.repeat(MIN_SECRET_LENGTH - 1) };
    expect(secretDiagnostics({ file: 'a.autojoin.yaml', text: `scope: ${short.value}\n` }, [short])).toEqual([]);
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
      const result = await loadPolicies(['.'], { cwd: dir, project: {}, secrets: [KEY], onPolicy: (p) => handed.push(p.key) });
      expect(handed).toEqual(['team/b']);
      expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual(['a.autojoin.yaml:3:12 secret-in-policy']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
