/**
 * plan and apply over several projects in one run (design: "Many projects, one run", issue 47):
 * the three-team monorepo of test/support/monorepo.ts through the CLI in-process at its root,
 * against the embedded emulator's one state at the repository root.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { monorepoCli, monorepoOfTest } from '../support/monorepo-run.js';
import { commitAll } from '../support/git.js';
import { defined } from '../support/defined.js';
import { combineExitCodes } from '../../src/commands/run-projects.js';

/** Each test runs the CLI several times over three projects: more than the default 30 s on a loaded machine. */
const SLOW = 120_000;

const monorepo = monorepoOfTest;
const cli = monorepoCli;
const write = (dir: string, file: string, text: string): void => writeFileSync(path.join(dir, ...file.split('/')), text);

interface Doc {
  formatVersion: number;
  projects?: { name: string; owner: string; root: string; projectFile: { path: string } | null; limits: Record<string, unknown> }[];
  changes: { key: string; kind: string; project?: string; movedFrom?: string; fieldChanges?: { field: string; before: unknown; after: unknown }[] }[];
  scopes: { key: string; project?: string }[];
}

describe('plan and apply at the root of a monorepo of three teams', () => {
  it('plans every team under its own project file, grouped by project, then applies each with its own owner', async () => {
    const dir = monorepo();
    const plan = await cli(dir, 'plan', '--detailed-exitcode');
    expect(plan.code, plan.stderr).toBe(2);
    const headings = plan.stdout.split('\n').filter((line) => line.startsWith('teams/'));
    expect(headings).toEqual(['teams/eng/autojoin-sync.yaml, owner eng', 'teams/ops/autojoin-sync.yaml, owner ops', 'teams/sales/autojoin-sync.yaml, owner sales']);
    expect(plan.stdout.trimEnd().split('\n').at(-1)).toBe('4 to create, 0 to update, 0 to clear, 0 unchanged. (3 projects)');

    const json = JSON.parse((await cli(dir, 'plan', '--format', 'json')).stdout) as Doc;
    expect(json.formatVersion).toBe(5);
    expect(json.projects?.map((one) => [one.name, one.owner, one.root, one.projectFile?.path, one.limits])).toEqual([
      ['teams/eng/autojoin-sync.yaml', 'eng', 'teams/eng', 'teams/eng/autojoin-sync.yaml', { maxRemovals: 5, allowEmpty: false }],
      ['teams/ops/autojoin-sync.yaml', 'ops', 'teams/ops', 'teams/ops/autojoin-sync.yaml', { maxRemovals: 2, allowEmpty: false }],
      ['teams/sales/autojoin-sync.yaml', 'sales', 'teams/sales', 'teams/sales/autojoin-sync.yaml', { allowEmpty: false }],
    ]);
    // The top-level changes still list every change; each names its project.
    expect(json.changes.map((change) => [change.key, change.project])).toEqual([
      ['team/acme-eng', 'teams/eng/autojoin-sync.yaml'],
      ['team/acme-platform', 'teams/eng/autojoin-sync.yaml'],
      ['workspace/ops-oncall', 'teams/ops/autojoin-sync.yaml'],
      ['team/acme-sales', 'teams/sales/autojoin-sync.yaml'],
    ]);
    expect(json.scopes.every((scope) => scope.project !== undefined)).toBe(true);

    const apply = await cli(dir, 'apply', '--yes');
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain('Applied 4, failed 0, skipped 0.');
    // Each write carries its own project's owner in its marker.
    const state = readFileSync(path.join(dir, '.autojoin-sync', 'emulator.json'), 'utf8');
    for (const owner of ['eng', 'ops', 'sales']) expect(state).toContain(`"autojoin-sync.owner":"${owner}"`);
    const again = await cli(dir, 'plan', '--detailed-exitcode');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes. 4 scopes match their policy files. (3 projects)');
  }, SLOW);

  it("one project's limit refuses the whole apply before any write, naming the project (exit 3)", async () => {
    const dir = monorepo({ 'teams/ops/more.autojoin.yaml': ['scope: ops-extra', 'domains:', '  - acme-ops.org', '  - acme-ops.dev', '  - acme-ops.io', ''].join('\n') });
    expect((await cli(dir, 'apply', '--yes')).code).toBe(0);
    // ops removes three domains (its limit is 2); sales adds one.
    write(dir, 'teams/ops/more.autojoin.yaml', ['scope: ops-extra', 'domains:', '  - acme-ops.com', ''].join('\n'));
    write(dir, 'teams/sales/sales.autojoin.yaml', ['scope: acme-sales', 'domains:', '  - acme-sales.io', '  - acme-sales.com', ''].join('\n'));
    commitAll(dir, 'ops removes, sales adds');
    const plan = await cli(dir, 'plan');
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toMatch(/apply would refuse this plan: teams\/ops\/autojoin-sync\.yaml: .*3 domains/u);
    const apply = await cli(dir, 'apply', '--yes');
    expect(apply.code, apply.stderr).toBe(3);
    expect(apply.stderr).toContain('teams/ops/autojoin-sync.yaml: ');
    expect(apply.stdout).not.toContain('applied ');
    // Nothing was written: sales' domain is still pending.
    const after = JSON.parse((await cli(dir, 'plan', '--format', 'json')).stdout) as Doc;
    expect(after.changes.map((change) => change.key)).toEqual(['workspace/ops-extra', 'team/acme-sales']);
  }, SLOW);

  it('apply --plan applies a plan of several projects; a recorded project file that changed refuses it, naming the file', async () => {
    const dir = monorepo();
    const saved = await cli(dir, 'plan', '--out', 'plan.json');
    expect(saved.code, saved.stderr).toBe(0);
    write(dir, 'teams/sales/autojoin-sync.yaml', ['owner: sales', 'defaults:', '  componentId: cmp_sales', '  scopeType: team', 'safety:', '  maxRemovals: 0', ''].join('\n'));
    const refused = await cli(dir, 'apply', '--plan', 'plan.json', '--yes');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('plan.json was made with project file teams/sales/autojoin-sync.yaml (sha256 ');
    expect(refused.stderr).toContain('nothing was written');
    const fresh = await cli(dir, 'plan', '--out', 'plan.json');
    expect(fresh.code, fresh.stderr).toBe(0);
    const applied = await cli(dir, 'apply', '--plan', 'plan.json', '--yes');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Applied 4, failed 0, skipped 0.');
    expect((await cli(dir, 'plan', '--detailed-exitcode')).code).toBe(0);
  }, SLOW);

  it('apply --plan refuses a plan whose policy file now has another nearest project file', async () => {
    const dir = monorepo();
    expect((await cli(dir, 'plan', '--out', 'plan.json')).code).toBe(0);
    write(dir, 'teams/eng/policies/autojoin-sync.yaml', 'owner: eng-policies\n');
    const refused = await cli(dir, 'apply', '--plan', 'plan.json', '--yes');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('plan.json was made with teams/eng/policies/eng.autojoin.yaml under teams/eng/autojoin-sync.yaml, but its nearest project file here is teams/eng/policies/autojoin-sync.yaml');
  }, SLOW);

  it('a plan document of release 4 (formatVersion 4) is refused, naming its version', async () => {
    const dir = monorepo();
    expect((await cli(dir, 'plan', '--out', 'plan.json')).code).toBe(0);
    const text = readFileSync(path.join(dir, 'plan.json'), 'utf8').replace('"formatVersion": 5', '"formatVersion": 4');
    write(dir, 'old.json', text);
    const refused = await cli(dir, 'apply', '--plan', 'old.json', '--yes');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('old.json has formatVersion 4; this autojoin-sync reads formatVersion 5 (make the plan again with this version)');
  }, SLOW);

  it.each([['../../outside'], ['/etc'], ['teams/../..']])('a saved plan whose project folder is %s is refused before anything is read (exit 1, nothing written)', async (root) => {
    const dir = monorepo();
    expect((await cli(dir, 'plan', '--out', 'plan.json')).code).toBe(0);
    const doc = JSON.parse(readFileSync(path.join(dir, 'plan.json'), 'utf8')) as Doc;
    const first = defined(doc.projects?.[0]);
    first.root = root;
    write(dir, 'tampered.json', JSON.stringify(doc, null, 2));
    const state = path.join(dir, '.autojoin-sync', 'emulator.json');
    const before = existsSync(state) ? readFileSync(state, 'utf8') : null;
    const refused = await cli(dir, 'apply', '--plan', 'tampered.json', '--yes');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`tampered.json records the project folder ${JSON.stringify(root)}, which is refused`);
    expect(existsSync(state) ? readFileSync(state, 'utf8') : null).toBe(before);
  }, SLOW);
});

describe('shards over projects', () => {
  it('every part lists every project; merge-plans joins them, show renders each project, and the merged plan applies', async () => {
    const dir = monorepo();
    for (const part of ['1', '2']) expect((await cli(dir, 'plan', '--shard', `${part}/2`, '--out', `part${part}.json`)).code).toBe(0);
    for (const part of ['1', '2']) {
      const doc = JSON.parse(readFileSync(path.join(dir, `part${part}.json`), 'utf8')) as Doc;
      expect(doc.projects?.map((one) => one.name)).toEqual(['teams/eng/autojoin-sync.yaml', 'teams/ops/autojoin-sync.yaml', 'teams/sales/autojoin-sync.yaml']);
    }
    const merged = await cli(dir, 'merge-plans', 'part1.json', 'part2.json', '--out', 'merged.json');
    expect(merged.code, merged.stderr).toBe(0);
    const shown = await cli(dir, 'show', 'merged.json');
    expect(shown.stdout).toContain('teams/ops/autojoin-sync.yaml, owner ops');
    expect(shown.stdout).toContain('4 to create, 0 to update, 0 to clear, 0 unchanged. (3 projects)');
    const applied = await cli(dir, 'apply', '--plan', 'merged.json', '--yes');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Applied 4, failed 0, skipped 0.');
  }, SLOW);
});

describe('apply --plan merged.json --shard K/N of a plan of several projects', () => {
  it("decides each project's limits over that project's whole, never its part of the shard (exit 3, nothing written)", async () => {
    // ops-c falls in shard 1 of 2 and ops-a in shard 2: each part removes at most 2 domains of ops, the whole 3 (ops' limit is 2).
    const ops = (scope: string, domains: readonly string[]): string => [`scope: ${scope}`, 'domains:', ...domains.map((domain) => `  - ${domain}`), ''].join('\n');
    const dir = monorepo({ 'teams/ops/c.autojoin.yaml': ops('ops-c', ['acme-ops.org', 'acme-ops.dev']), 'teams/ops/a.autojoin.yaml': ops('ops-a', ['acme-ops.io', 'acme-ops.biz']) });
    expect((await cli(dir, 'apply', '--yes')).code).toBe(0);
    write(dir, 'teams/ops/c.autojoin.yaml', ops('ops-c', ['acme-ops.com']));
    write(dir, 'teams/ops/a.autojoin.yaml', ops('ops-a', ['acme-ops.biz']));
    commitAll(dir, 'ops removes three domains over two shards');
    for (const part of ['1', '2']) expect((await cli(dir, 'plan', '--shard', `${part}/2`, '--out', `part${part}.json`)).code).toBe(0);
    const merged = await cli(dir, 'merge-plans', 'part1.json', 'part2.json', '--out', 'merged.json');
    expect(merged.code, merged.stderr).toBe(0);
    const shards = (JSON.parse(readFileSync(path.join(dir, 'merged.json'), 'utf8')) as Doc).changes.map((change) => change.key);
    expect(shards.sort()).toEqual(['workspace/ops-a', 'workspace/ops-c']);
    for (const part of ['1', '2']) {
      const applied = await cli(dir, 'apply', '--plan', 'merged.json', '--shard', `${part}/2`, '--yes');
      expect(applied.code, `shard ${part}/2: ${applied.stdout}${applied.stderr}`).toBe(3);
      expect(applied.stderr).toContain('teams/ops/autojoin-sync.yaml: ');
    }
    const after = JSON.parse((await cli(dir, 'plan', '--format', 'json')).stdout) as Doc;
    expect(after.changes.map((change) => change.key).sort()).toEqual(['workspace/ops-a', 'workspace/ops-c']);
  }, SLOW);
});

describe('a scope moved between two projects of different owners', () => {
  it('is an owner update in the project that declares it now, written without --take-ownership; never a clear (plan, apply of the saved plan, plan again)', async () => {
    const dir = monorepo();
    expect((await cli(dir, 'apply', '--yes')).code).toBe(0);
    // team/acme-platform moves from eng's files to sales'.
    write(dir, 'teams/eng/policies/eng.autojoin.yaml', ['scope: acme-eng', 'domains:', '  - acme.co.uk', '  - acme.com', ''].join('\n'));
    write(dir, 'teams/sales/platform.autojoin.yaml', ['scope: acme-platform', 'componentId: cmp_eng', 'domains:', '  - acme.com', ''].join('\n'));
    commitAll(dir, 'acme-platform moves to sales');
    const plan = await cli(dir, 'plan', '--format', 'json');
    expect(plan.code, plan.stderr).toBe(0);
    const doc = JSON.parse(plan.stdout) as Doc;
    expect(doc.changes.map((change) => [change.key, change.kind, change.project, change.movedFrom, change.fieldChanges])).toEqual([
      ['team/acme-platform', 'update', 'teams/sales/autojoin-sync.yaml', 'teams/eng/autojoin-sync.yaml', [{ field: 'owner', before: 'eng', after: 'sales' }]],
    ]);
    const text = await cli(dir, 'plan');
    expect(text.stdout).toContain('~ owner: "eng" → "sales" (moved from teams/eng/autojoin-sync.yaml)');
    // eng, which declared it, shows nothing for it.
    expect(text.stdout).not.toContain('declared outside');
    // The reviewed plan: its owner move is checked again against the live marker and this history, as the run's.
    expect((await cli(dir, 'plan', '--out', 'moved.json')).code).toBe(0);
    const apply = await cli(dir, 'apply', '--plan', 'moved.json', '--yes');
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain('0 to clear');
    expect(apply.stdout).toContain('applied  team/acme-platform  update');
    expect(apply.stdout).not.toMatch(/^- team\//mu);
    const again = await cli(dir, 'plan', '--detailed-exitcode');
    expect(again.code, again.stdout + again.stderr).toBe(0);
  }, SLOW);
});

describe('exit codes of several outcomes', () => {
  it('combine by severity: 1 > 3 > 4 > 2 > 0', () => {
    expect(combineExitCodes([0, 2, 4, 3, 1])).toBe(1);
    expect(combineExitCodes([2, 4, 3, 0])).toBe(3);
    expect(combineExitCodes([2, 0, 4])).toBe(4);
    expect(combineExitCodes([0, 2])).toBe(2);
    expect(combineExitCodes([0, 0])).toBe(0);
    expect(combineExitCodes([])).toBe(0);
  });
});
