/**
 * The command layer in-process (src/commands/): show, merge-plans, adopt, who, inventory, import
 * and fmt, each one function over the run context whose outcome is data. Real git repositories
 * in temp directories, the emulator over loopback; the CLI (in-process) only makes the state the
 * command reads (an apply, a saved plan).
 */
import { rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { adoptCommand, adoptContext } from '../../src/commands/adopt-command.js';
import { fmtCommand } from '../../src/commands/fmt-command.js';
import { importCommand } from '../../src/commands/import-command.js';
import { inventoryCommand } from '../../src/commands/inventory-command.js';
import { mergePlansCommand } from '../../src/commands/merge-plans-command.js';
import { applyWouldRefuse, planCommand, planExitCode } from '../../src/commands/plan-command.js';
import { showCommand } from '../../src/commands/show-command.js';
import { whoCommand } from '../../src/commands/who-command.js';
import { settingsIn } from '../../src/run/settings.js';
import { parseScopeKey } from '../../src/scope.js';
import { createClient, type ServiceClient } from '../../src/service/client.js';
import { KEY, repo, type Repo } from '../meetings/support.js';

const DAY = '2026-03-01';
const POLICY = 'scope: acme\nscopeType: team\ncomponentId: c1\ndomains:\n  - a.example\n  - c.example\n';
const OTHER = 'scope: beta\nscopeType: team\ncomponentId: c1\ndomains:\n  - b.example\n';

let current: Repo | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function applied(files: Record<string, string> = { 'acme.autojoin.yaml': POLICY }): Promise<Repo> {
  const r = (current = await repo(files));
  const apply = await r.run(DAY, 'apply', '--yes', '.');
  expect(apply.code, apply.stderr).toBe(0);
  return r;
}

const clientOf = (r: Repo): ServiceClient => createClient({ baseUrl: r.emulator.url, apiKey: KEY, retry: { maxRetries: 0 } });
const contextIn = (dir: string, paths = ['.']) => settingsIn(dir, { paths, env: { AUTOJOIN_NOW: DAY } });

describe('showCommand', () => {
  it('reads a saved plan after its checks; no warning when the project file is the plan\'s', async () => {
    const r = (current = await repo({ 'acme.autojoin.yaml': POLICY }));
    expect((await r.run(DAY, 'plan', '--out', 'plan.json', '.')).code).toBe(0);
    const outcome = await showCommand({ file: path.join(r.dir, 'plan.json'), cwd: r.dir });
    expect(outcome.plan.changes.map((change) => `${change.kind} ${change.key}`)).toEqual(['create team/acme']);
    expect(outcome.projectWarning).toBeNull();
  });

  it('gives the verdict of the saved plan, as plan gave it: show and plan caution the same refusals, in the same words', async () => {
    const r = (current = await repo({ 'autojoin-sync.yaml': 'safety:\n  maxRemovals: 0\n', 'acme.autojoin.yaml': POLICY }));
    expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
    await r.write('acme.autojoin.yaml', OTHER.replace('beta', 'acme'));
    r.commit();
    const planned = await r.run(DAY, 'plan', '--out', 'plan.json', '.');
    const outcome = await showCommand({ file: path.join(r.dir, 'plan.json'), cwd: r.dir });
    expect(outcome.verdict.refusals.map((refusal) => refusal.check)).toEqual(['max-removals']);
    const cautions = (text: string): string[] => text.split('\n').filter((line) => line.includes('apply would refuse this plan: '));
    const shown = await r.run(DAY, 'show', 'plan.json');
    expect(cautions(planned.stderr)).toHaveLength(1);
    expect(cautions(shown.stderr)).toEqual(cautions(planned.stderr));
  });

  it('refuses a plan whose sha256 is not the pinned one', async () => {
    const r = (current = await repo({ 'acme.autojoin.yaml': POLICY }));
    expect((await r.run(DAY, 'plan', '--out', 'plan.json', '.')).code).toBe(0);
    await expect(showCommand({ file: path.join(r.dir, 'plan.json'), cwd: r.dir, planSha256: '0'.repeat(64) })).rejects.toThrow(/sha256/u);
  });
});

describe('mergePlansCommand', () => {
  it('merges the shard plans of one run into one plan; a missing shard is refused', async () => {
    const r = (current = await repo({ 'acme.autojoin.yaml': POLICY, 'beta.autojoin.yaml': OTHER }));
    for (const shard of ['1', '2']) expect((await r.run(DAY, 'plan', '--shard', `${shard}/2`, '--out', `part-${shard}.json`, '.')).code).toBe(0);
    const parts = ['part-1.json', 'part-2.json'].map((name) => ({ file: path.join(r.dir, name), name }));
    const merged = await mergePlansCommand({ parts });
    expect(merged.plan.changes.map((change) => change.key).sort()).toEqual(['team/acme', 'team/beta']);
    expect(merged.verdict.refusals).toEqual([]);
    await expect(mergePlansCommand({ parts: parts.slice(0, 1) })).rejects.toThrow(/shard/u);
  });
});

describe('adoptCommand', () => {
  it('writes a scope changed outside into its policy file, in a context that never prunes', async () => {
    const r = await applied();
    await r.admin('acme', ['a.example', 'b.example', 'c.example']);
    const context = adoptContext(contextIn(r.dir));
    expect(context.prune).toBe(false);
    const { plan } = await planCommand({ context, client: clientOf(r) });
    if (!plan) throw new Error('no plan');
    const outcome = await adoptCommand({ context, plan });
    expect(outcome.adopted.map((entry) => entry.key)).toEqual(['team/acme']);
    expect(outcome.files).toEqual(['acme.autojoin.yaml']);
    expect(await r.read('acme.autojoin.yaml')).toContain('  - b.example\n');
  });
});

describe('whoCommand and inventoryCommand', () => {
  it('who: which scope admits a domain (an address asks for its domain), and with a session whether it is live', async () => {
    const r = await applied();
    const offline = await whoCommand({ context: contextIn(r.dir), domains: ['user@a.example', 'z.example'] });
    expect(offline.errors).toEqual([]);
    expect(offline.answers.map((answer) => [answer.domain, answer.scopes.map((scope) => scope.key)])).toEqual([['a.example', ['team/acme']], ['z.example', []]]);
    const client = clientOf(r);
    const live = await whoCommand({ context: contextIn(r.dir), domains: ['a.example'], session: (work) => work(client) });
    expect(live.answers[0]?.scopes[0]?.live).toBe(true);
  });

  it('inventory: one row per entry, with --blame the commit of its line; a policy file with an error gives its errors and no row', async () => {
    const r = (current = await repo({ 'acme.autojoin.yaml': POLICY }));
    const outcome = await inventoryCommand({ context: contextIn(r.dir), blame: true });
    expect(outcome.rows.map((row) => [row.scope, row.domain, row.line])).toEqual([['acme', 'a.example', 5], ['acme', 'c.example', 6]]);
    expect(outcome.rows[0]?.commit).toMatch(/^[0-9a-f]{7,}$/u);
    await r.write('acme.autojoin.yaml', POLICY.replace('a.example', 'gmail.com'));
    const failing = await inventoryCommand({ context: contextIn(r.dir), blame: false });
    expect(failing.rows).toEqual([]);
    expect(failing.errors.length).toBeGreaterThan(0);
  });
});

describe('importCommand', () => {
  it('imports a live scope as a file that passes validate; refuses a scope a policy file declares already', async () => {
    const r = await applied();
    const request = { context: contextIn(r.dir), client: clientOf(r), refs: [parseScopeKey('team/acme')], cwd: r.dir };
    await expect(importCommand({ ...request, out: 'imported' })).rejects.toThrow('team/acme is declared here already');
    // On stdout too: the document printed would declare it a second time.
    await expect(importCommand({ ...request, out: '-' })).rejects.toThrow('team/acme is declared here already');
    rmSync(path.join(r.dir, 'acme.autojoin.yaml'));
    const outcome = await importCommand({ ...request, out: '-' });
    expect(outcome).toMatchObject({ inactive: [], refusal: null, failing: new Set() });
    expect(outcome.passing.map((entry) => entry.policy.key)).toEqual(['team/acme']);
    expect(outcome.passing[0]?.text).toContain('  - a.example\n  - c.example\n');
  });
});

describe('importCommand and the secrets of its context', () => {
  it('refuses (as data, before anything is written) a scope whose live name echoes a secret of the run', async () => {
    const r = await applied();
    const echoed = 'sk-echoed-0f9e8d7c';
    const response = await fetch(`${r.emulator.url}/api/v1/invitations/autojoin`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ scope: 'acme', scopeType: 'team', scopeName: `Acme ${echoed}`, componentId: 'c1', domains: ['a.example'] }),
    });
    expect(response.ok).toBe(true);
    rmSync(path.join(r.dir, 'acme.autojoin.yaml'));
    const request = { client: clientOf(r), refs: [parseScopeKey('team/acme')], cwd: r.dir, out: '-' };
    const withSecret = await importCommand({ ...request, context: settingsIn(r.dir, { env: { AUTOJOIN_NOW: DAY, AUTOJOIN_API_KEY: echoed } }) });
    expect(withSecret.refusal?.message).toContain('the service shows a secret of this run in the name or metadata of team/acme');
    expect((await importCommand({ ...request, context: contextIn(r.dir) })).refusal).toBeNull();
  });
});

describe('fmtCommand', () => {
  it('--check says what would change and writes nothing (exit 1); without it, writes the canonical form (exit 0)', async () => {
    const r = (current = await repo({ 'acme.autojoin.yaml': POLICY.replace('  - a.example\n  - c.example\n', '  - c.example\n  - A.example\n') }));
    const place = contextIn(r.dir);
    const checked = await fmtCommand({ place, check: true });
    expect(checked).toMatchObject({ files: 1, problems: [], unformatted: 0, exitCode: 1 });
    expect(checked.changed.map((entry) => entry.file)).toEqual(['acme.autojoin.yaml']);
    expect(await r.read('acme.autojoin.yaml')).toContain('A.example');
    const written = await fmtCommand({ place, check: false });
    expect(written.exitCode).toBe(0);
    expect(await readFile(path.join(r.dir, 'acme.autojoin.yaml'), 'utf8')).toBe(POLICY);
    expect((await fmtCommand({ place, check: true })).changed).toEqual([]);
  });

  it('a file with a YAML error is left alone and counted as unformatted', async () => {
    const r = (current = await repo({ 'acme.autojoin.yaml': POLICY }));
    await writeFile(path.join(r.dir, 'bad.autojoin.yaml'), 'scope: [\n');
    const outcome = await fmtCommand({ place: contextIn(r.dir), check: false });
    expect(outcome).toMatchObject({ unformatted: 1, exitCode: 1 });
  });
});

describe("planCommand's rules for the front ends", () => {
  it('planExitCode: 2 while changes are pending, 0 once applied; applyWouldRefuse: the limits the plan was made under win', async () => {
    const r = (current = await repo({ 'acme.autojoin.yaml': POLICY.replace('  - c.example\n', '  - c.example\n  - d.example\n  - e.example\n') }));
    const fresh = (await planCommand({ context: contextIn(r.dir), client: clientOf(r) })).plan;
    if (!fresh) throw new Error('no plan');
    expect(planExitCode(fresh)).toBe(2);
    expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
    const applied = (await planCommand({ context: contextIn(r.dir), client: clientOf(r) })).plan;
    if (!applied) throw new Error('no plan');
    expect(planExitCode(applied)).toBe(0);
    await r.write('acme.autojoin.yaml', POLICY.replace('  - c.example\n', '  - c.example\n  - d.example\n'));
    const strict = settingsIn(r.dir, { env: { AUTOJOIN_NOW: DAY }, flags: { maxRemovals: 0 } });
    const removing = (await planCommand({ context: strict, client: clientOf(r) })).plan;
    if (!removing) throw new Error('no plan');
    expect(applyWouldRefuse(removing, {}).map((violation) => violation.name)).toEqual(['TooManyRemovalsError']);
    const { context: _recorded, ...unrecorded } = removing;
    expect(applyWouldRefuse(unrecorded, {})).toEqual([]);
    expect(applyWouldRefuse(unrecorded, { maxRemovals: 0 })).toHaveLength(1);
  });
});
