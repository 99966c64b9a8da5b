/**
 * What a newcomer met in release 4 (issue 50), each run in-process against the emulator over
 * loopback in a real git repository: one wording for the count of warnings left out, …
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { policy, setLive, tempProject } from '../e2e/support.js';
import { git } from '../support/git.js';
import { runInProcess } from '../support/in-process.js';
import { emulatorEstate, NO_CI } from '../support/emulator-estate.js';

const estate = emulatorEstate();
const against = estate.against;

const subdomains = (count: number): string[] => ['acme.com', ...Array.from({ length: count }, (_, index) => `s${index}.acme.com`)];

describe('the count of warnings left out', () => {
  it('is worded alike by validate, plan and import: three shown, then "and N more KIND warnings; --verbose shows all"', async () => {
    const { dir, env } = await against({ 'p/a.autojoin.yaml': policy('a', subdomains(5)), 'autojoin-sync.yaml': 'defaults:\n  componentId: cmp_e2e\n' });
    await setLive(estate.emulator as Emulator, 'b', subdomains(5), 'team', null);
    const line = 'and 2 more subdomain warnings; --verbose shows all';
    const validate = await runInProcess(['validate', 'p'], { cwd: dir, env });
    expect(validate.stdout).toContain(line);
    const plan = await runInProcess(['plan', 'p'], { cwd: dir, env });
    expect(plan.stderr).toContain(line);
    const imported = await runInProcess(['import', '--scope', 'team/b', '--out', 'q'], { cwd: dir, env });
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain(line);
    expect(imported.stderr.match(/warning: s\d\.acme\.com is a subdomain/gu)).toHaveLength(3);
    rmSync(path.join(dir, 'q'), { recursive: true });
    const verbose = await runInProcess(['import', '--scope', 'team/b', '--out', 'r', '--verbose'], { cwd: dir, env });
    expect(verbose.stderr.match(/warning: s\d\.acme\.com is a subdomain/gu)).toHaveLength(5);
  });
});

describe('a policy under a name discovery skips', () => {
  it('is named in a warning, not skipped in silence; other YAML is not', async () => {
    const { dir, env } = await against({
      'p/a.autojoin.yaml': policy('a', ['a.example']),
      'p/ops.yaml': policy('ops', ['ops.example']),
      'p/ci.yml': 'on: push\njobs: {}\n',
    });
    const run = await runInProcess(['validate', 'p'], { cwd: dir, env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('p/ops.yaml:1:1: warning: not read: it looks like a policy, but only autojoin.yaml, *.autojoin.yaml or .yml are policy files; rename it to ops.autojoin.yaml to have it read');
    expect(run.stdout).not.toContain('ci.yml');
    expect(run.stderr).toMatch(/0 errors, 1 warning in \d files?; 1 valid policy/u);
  });
});

describe('import --out -', () => {
  it('refuses a scope a policy file declares, as --out DIR does (exit 1, naming file:line, nothing printed)', async () => {
    const { dir, env } = await against({ 'p/a.autojoin.yaml': policy('a', ['a.example']) });
    await setLive(estate.emulator as Emulator, 'a', ['a.example']);
    for (const out of ['-', 'q']) {
      const run = await runInProcess(['import', '--scope', 'team/a', '--out', out], { cwd: dir, env });
      expect(run.code, out).toBe(1);
      expect(run.stderr).toContain('p/a.autojoin.yaml:1:1: team/a is declared here already');
      expect(run.stdout).toBe('');
    }
  });
});

describe('the embedded emulator', () => {
  it('is named with its state file, relative to where the run started (one state at the repository root, not beside examples/autojoin-sync.yaml)', async () => {
    estate.project = await tempProject({ 'examples/autojoin-sync.yaml': 'defaults:\n  componentId: cmp_1\n', 'examples/policies/a.autojoin.yaml': 'scope: a\nscopeType: team\ndomains: [a.example]\n' });
    git((estate.project).dir, 'init', '-q');
    const run = await runInProcess(['plan', 'examples/policies'], { cwd: (estate.project).dir, env: { ...NO_CI, AUTOJOIN_BASE_URL: undefined, AUTOJOIN_API_KEY: undefined } });
    expect(run.code, run.stderr).toBe(0);
    const named = /\(embedded emulator, state in ([^)]+)\)/u.exec(run.stderr)?.[1] as string;
    expect(named).toBe('.autojoin-sync/emulator.json');
    expect(existsSync(path.join((estate.project).dir, 'examples', '.autojoin-sync'))).toBe(false);
    expect(existsSync(path.join((estate.project).dir, named))).toBe(true);
    expect(run.stdout).not.toContain('(.autojoin-sync/emulator.json)');
  });
});

describe('a scope created outside the tool, imported, then planned', () => {
  it('shows an update that only marks the owner, and says why without blaming an old release', async () => {
    const { dir, env } = await against({ 'autojoin-sync.yaml': 'defaults:\n  componentId: cmp_e2e\n' });
    git(dir, 'init', '-q');
    await setLive(estate.emulator as Emulator, 'outside', ['outside.example'], 'team', null);
    expect((await runInProcess(['import', '--scope', 'team/outside', '--out', 'p'], { cwd: dir, env })).code).toBe(0);
    const plan = await runInProcess(['plan', 'p'], { cwd: dir, env });
    const text = `${plan.stdout}${plan.stderr}`;
    expect(text).toContain('update: owner only');
    expect(text).toContain('1 of the updates only mark the owner: scopes without an ownership marker yet (created outside this tool, imported, or written before markers existed); apply marks them');
    expect(text).not.toContain('scopes written before ownership markers existed');
  });
});
