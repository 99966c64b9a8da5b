import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatPolicyText, parsePolicySources, renderPolicyDocument, type Policy } from '../../src/policy/index.js';
import { POLICY_KEYS } from '../../src/policy/schema.js';
import { runCli } from '../support/cli.js';

const GOOD = fileURLToPath(new URL('../fixtures/policies/good/', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));

const TEAMS_CANONICAL = `# yaml-language-server: $schema=../../../../schemas/autojoin.schema.json
# Not in canonical form on purpose: fmt tests rewrite a copy of this file.
scope: g-eng
scopeType: team
scopeName: Engineering
componentId: cmp_2
domains:
  # unsorted, mixed case, a trailing dot and a Unicode name
  - acme.com
  - globex.com
  - bücher.de
---
scope: g-sales
scopeType: team
componentId: cmp_2
domains:
  - acme.com
  - initech.com
  # flow style
`;

describe('formatPolicyText', () => {
  it('orders keys as the schema does, normalizes and sorts domains, keeps comments and the schema line', async () => {
    const text = await readFile(path.join(GOOD, 'teams.autojoin.yaml'), 'utf8');
    const result = formatPolicyText({ file: 'teams.autojoin.yaml', text });
    expect(result).toEqual({ text: TEAMS_CANONICAL, changed: true, diagnostics: [] });
  });

  it('is idempotent and keeps the meaning of the file', async () => {
    const text = await readFile(path.join(GOOD, 'teams.autojoin.yaml'), 'utf8');
    const once = formatPolicyText({ file: 'f', text }).text ?? '';
    expect(formatPolicyText({ file: 'f', text: once })).toEqual({ text: once, changed: false, diagnostics: [] });
    const strip = (p: Policy): Omit<Policy, 'source'> => ({ ...p, source: undefined }) as Omit<Policy, 'source'>;
    expect(parsePolicySources([{ file: 'f', text: once }]).policies.map(strip)).toEqual(
      parsePolicySources([{ file: 'f', text }]).policies.map(strip),
    );
  });

  it('de-duplicates domains, keeping a comment, and moves a header comment back on top', () => {
    const text = '# header\ndomains:\n  - B.com\n  - a.com # first\n  - A.com\nscope: x # the id\ncomponentId: c\nowner: team-x\n';
    expect(formatPolicyText({ file: 'f', text }).text).toBe(
      '# header\nscope: x # the id\ncomponentId: c\ndomains:\n  - a.com # first\n  - b.com\nowner: team-x\n',
    );
  });

  it('drops a stray trailing document marker but keeps a comment-only document', () => {
    expect(formatPolicyText({ file: 'f', text: 'scope: a\ncomponentId: c\ndomains: []\n---\n' }).text).toBe(
      'scope: a\ncomponentId: c\ndomains: []\n',
    );
    const commented = 'scope: a\ncomponentId: c\ndomains: []\n---\n# next: sales\n';
    expect(formatPolicyText({ file: 'f', text: commented })).toEqual({ text: commented, changed: false, diagnostics: [] });
  });

  it('reports a file with YAML errors instead of formatting it', () => {
    const result = formatPolicyText({ file: 'f.autojoin.yaml', text: 'scope: a\nscope: b\n' });
    expect(result.text).toBeUndefined();
    expect(result.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual(['2:1 duplicate-key']);
  });

  it('leaves the examples unchanged (they are canonical)', async () => {
    for (const file of ['engineering.autojoin.yaml', 'sales.autojoin.yaml', 'holdings/autojoin.yaml', 'retired.autojoin.yml']) {
      const text = await readFile(path.join(EXAMPLES, 'policies', file), 'utf8');
      expect(formatPolicyText({ file, text }).changed, file).toBe(false);
    }
  });
});

describe('renderPolicyDocument', () => {
  const policy: Policy = {
    key: 'team/123',
    scope: '123',
    scopeType: 'team',
    scopeName: 'Team 123',
    componentId: 'cmp_1',
    domains: ['b.com', 'a.com'],
    source: { file: 'x', line: 1, column: 1 },
    explicitEmpty: false,
  };

  it('renders canonical YAML that formats to itself and loads back to the same policy', () => {
    const text = renderPolicyDocument(policy, { schemaUrl: '../schemas/autojoin.schema.json' });
    expect(text).toBe(
      '# yaml-language-server: $schema=../schemas/autojoin.schema.json\n\n' +
        'scope: "123"\nscopeType: team\nscopeName: Team 123\ncomponentId: cmp_1\ndomains:\n  - a.com\n  - b.com\n',
    );
    expect(formatPolicyText({ file: 'x', text }).changed).toBe(false);
    const [loaded] = parsePolicySources([{ file: 'x', text }]).policies;
    expect(loaded).toEqual({ ...policy, domains: ['a.com', 'b.com'], source: { file: 'x', line: 3, column: 1 } });
  });

  it('writes an empty list as domains: []', () => {
    const text = renderPolicyDocument({ ...policy, scopeName: undefined, domains: [], explicitEmpty: true });
    expect(text).toBe('scope: "123"\nscopeType: team\ncomponentId: cmp_1\ndomains: []\n');
  });
});

describe('autojoin-sync fmt (spawned)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-fmt-'));
    await cp(GOOD, dir, { recursive: true });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('--check lists files that would change and exits 1; fmt rewrites them; a second run changes nothing', async () => {
    const check = await runCli(['fmt', '--check'], { cwd: dir });
    expect(check.code).toBe(1);
    expect(check.stdout).toBe('teams.autojoin.yaml\n');
    expect(await readFile(path.join(dir, 'teams.autojoin.yaml'), 'utf8')).not.toBe(TEAMS_CANONICAL);

    const fmt = await runCli(['fmt'], { cwd: dir });
    expect(fmt.code).toBe(0);
    expect(fmt.stdout).toBe('teams.autojoin.yaml\n');
    expect(fmt.stderr).toContain('reformatted 1 of 4 files');
    expect(await readFile(path.join(dir, 'teams.autojoin.yaml'), 'utf8')).toBe(TEAMS_CANONICAL);

    const again = await runCli(['fmt', '--check', '.'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
  });

  it('reports a file with parse errors, leaves it untouched and exits 1', async () => {
    const broken = 'scope: a\ndomains: [B.com\n';
    await writeFile(path.join(dir, 'broken.autojoin.yaml'), broken);
    const result = await runCli(['fmt'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^broken\.autojoin\.yaml:3:1: error: invalid YAML: /m);
    expect(result.stderr).toContain('1 file could not be formatted');
    expect(await readFile(path.join(dir, 'broken.autojoin.yaml'), 'utf8')).toBe(broken);
    expect(await readFile(path.join(dir, 'teams.autojoin.yaml'), 'utf8')).toBe(TEAMS_CANONICAL);
  });

  it('refuses a path without policy files as validate does, writing nothing, unless --allow-no-policies', async () => {
    await mkdir(path.join(dir, 'empty'));
    const noFiles = 'error: no policy files (autojoin.yaml, *.autojoin.yaml or .yml) under empty; nothing was done. Check the path, or pass --allow-no-policies when that is intended (e.g. to prune every scope)\n';
    expect(await runCli(['fmt', 'empty'], { cwd: dir })).toMatchObject({ code: 1, stdout: '', stderr: noFiles });
    expect(await runCli(['fmt', '--check', 'empty'], { cwd: dir })).toMatchObject({ code: 1, stdout: '', stderr: noFiles });
    expect(await runCli(['validate', 'empty'], { cwd: dir })).toMatchObject({ code: 1, stderr: noFiles });
    const mixed = await runCli(['fmt', 'teams.autojoin.yaml', 'empty'], { cwd: dir });
    expect(mixed).toMatchObject({ code: 1, stdout: '', stderr: noFiles });
    expect(await readFile(path.join(dir, 'teams.autojoin.yaml'), 'utf8')).not.toBe(TEAMS_CANONICAL);

    const allowed = await runCli(['fmt', '--check', '--allow-no-policies', 'empty'], { cwd: dir });
    expect(allowed).toMatchObject({ code: 0, stdout: '', stderr: 'would reformat 0 of 0 files\n' });
    const gone = await runCli(['fmt', '--allow-no-policies', 'gone'], { cwd: dir });
    expect(gone).toMatchObject({ code: 0, stderr: 'gone:1:1: warning: no such file or directory\nreformatted 0 of 0 files\n' });
  });

  it('--help names the keys in the order fmt writes them, and --allow-no-policies', async () => {
    const help = await runCli(['fmt', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(`keys in the order ${POLICY_KEYS.join(', ')};`);
    expect(help.stdout).toContain('--allow-no-policies');
  });
});

describe('fmt and IPv4-like entries', () => {
  // Bug: fmt rewrote `- 192.168.1` into `- 192.168.0.1` (the WHATWG host parser's IPv4 rules).
  it('leaves an invalid entry as written', () => {
    const text = 'scope: a\ncomponentId: c\ndomains:\n  - 192.168.1\n  - 0x7f.1\n';
    expect(formatPolicyText({ file: 'f', text })).toEqual({
      text: 'scope: a\ncomponentId: c\ndomains:\n  - 0x7f.1\n  - 192.168.1\n',
      changed: true,
      diagnostics: [],
    });
  });
});
