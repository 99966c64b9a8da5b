/** YAML hazards end in a diagnostic, quickly, never in a hang, a crash or a silent pass. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPolicies, MAX_FILE_BYTES, parsePolicySources } from '../../src/policy/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-hazards-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const codesAt = (diagnostics: { line: number; column: number; code: string }[]): string[] =>
  diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`);

describe('YAML hazards', () => {
  // Refused by counting aliases, not by expanding them: an expansion of 10^12 nodes would never end.
  it('an alias bomb of 10^12 nodes is refused without being expanded', () => {
    const levels = Array.from({ length: 12 }, (_, i) =>
      i === 0 ? `l0: &l0 [${Array(10).fill('"x"').join(',')}]` : `l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(',')}]`,
    );
    const text = `scope: bomb\ncomponentId: c\n${levels.join('\n')}\ndomains: *l11\n`;
    const result = parsePolicySources([{ file: 'bomb.autojoin.yaml', text }]);
    expect(codesAt(result.diagnostics)).toEqual(['4:10 alias-limit']);
    expect(result.policies).toEqual([]);
  });

  it('a file over the size cap is rejected without being parsed', async () => {
    const big = `scope: big\ncomponentId: c\ndomains:\n${'  - acme.com\n'.repeat(Math.ceil(MAX_FILE_BYTES / 13) + 1)}`;
    await writeFile(path.join(dir, 'big.autojoin.yaml'), big);
    const result = await loadPolicies(['.'], { cwd: dir });
    expect(codesAt(result.diagnostics)).toEqual(['1:1 file-too-large']);
    expect(result.diagnostics[0]?.message).toContain(`over the ${MAX_FILE_BYTES}-byte limit`);
    expect(codesAt(parsePolicySources([{ file: 'big.autojoin.yaml', text: big }]).diagnostics)).toEqual(['1:1 file-too-large']);
  });

  it('non-UTF-8 bytes are reported at the first bad byte; a UTF-8 BOM is fine', async () => {
    const latin1 = Buffer.concat([Buffer.from('scope: x\ncomponentId: c\ndomains: [caf'), Buffer.from([0xe9]), Buffer.from('.com]\n')]);
    await writeFile(path.join(dir, 'latin1.autojoin.yaml'), latin1);
    await writeFile(path.join(dir, 'bom.autojoin.yaml'), `\uFEFFscope: bom\nscopeType: default\ncomponentId: c\ndomains: [acme.com]\n`);
    const result = await loadPolicies(['.'], { cwd: dir });
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual(['latin1.autojoin.yaml:3:14 not-utf8']);
    expect(result.policies.map((p) => [p.key, p.source.line])).toEqual([['default/bom', 1]]);
  });

  it('CRLF line endings keep line numbers right', () => {
    const text = 'scope: crlf\r\nscopeType: default\r\ncomponentId: c\r\ndomains:\r\n  - acme.com\r\n  - gmail.com\r\n';
    const result = parsePolicySources([{ file: 'crlf.autojoin.yaml', text }]);
    expect(codesAt(result.diagnostics)).toEqual(['6:5 webmail-domain']);
  });

  it('duplicate keys, tabs, an empty file and a non-mapping document each give their own error', () => {
    const result = parsePolicySources([
      { file: 'a.autojoin.yaml', text: 'scope: a\ncomponentId: c\ndomains: []\ndomains: [acme.com]\n' },
      { file: 'b.autojoin.yaml', text: 'scope: b\ncomponentId: c\ndomains:\n \t- acme.com\n' },
      { file: 'c.autojoin.yaml', text: '\n\n' },
      { file: 'd.autojoin.yaml', text: 'scope: d\nscopeType: default\ncomponentId: c\ndomains: []\n---\n[1, 2]\n' },
    ]);
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual([
      'a.autojoin.yaml:4:1 duplicate-key',
      'b.autojoin.yaml:4:2 tab-indent',
      'c.autojoin.yaml:1:1 empty-file',
      'd.autojoin.yaml:6:1 not-a-mapping',
    ]);
    expect(result.policies.map((p) => p.key)).toEqual(['default/d']);
  });

  it('a trailing document marker does not count as an empty policy', () => {
    const result = parsePolicySources([{ file: 'e.autojoin.yaml', text: '---\nscope: e\nscopeType: default\ncomponentId: c\ndomains: []\n---\n' }]);
    expect(result.diagnostics).toEqual([]);
    expect(result.policies.map((p) => [p.key, p.explicitEmpty, p.source.line])).toEqual([['default/e', true, 2]]);
  });
});
