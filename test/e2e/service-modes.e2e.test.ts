/**
 * The service as its SDKs and its public reference show it, end to end: the emulator as its own
 * process (`autojoin-sync emulator --post-metadata keep|replace|ignore`, `--no-groups`), an
 * "admin" writing through the published Node SDK between two plans (a configureAutojoin without
 * metadata, revokeInvitation, deleteInvitationsByScope), and the spawned CLI planning, applying
 * and pruning after it. What the plan says in each mode is what it can know there.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Vortex } from '@teamvortexsoftware/vortex-node-22-sdk';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulatorProcess, stop, type EmulatorProcess } from '../support/cli.js';
import { commitAll, git } from '../support/git.js';
import { assertBuilt, cli, policy, SECRET, tempProject, type TempProject } from './support.js';

let emulator: EmulatorProcess | undefined;
let project: TempProject | undefined;
const previousBaseUrl = process.env.VORTEX_API_BASE_URL;
beforeAll(assertBuilt);
afterEach(async () => {
  if (emulator) await stop(emulator);
  await project?.cleanup();
  emulator = project = undefined;
  if (previousBaseUrl === undefined) delete process.env.VORTEX_API_BASE_URL;
  else process.env.VORTEX_API_BASE_URL = previousBaseUrl;
});

interface PlanJson {
  changes: { key: string; kind: string; origin?: string; outside?: { added: string[]; removed: string[]; lost?: string }; fieldChanges?: { field: string; before: unknown }[] }[];
  notManagedHere: { key: string; owner: string | null }[];
  notes?: string[];
}

/** A repository of four scopes, applied once, and the SDK pointed at the emulator started with `flags`. */
async function appliedEstate(flags: string[]): Promise<{ run: (...args: string[]) => ReturnType<typeof cli>; vortex: Vortex }> {
  project = await tempProject({
    'a.autojoin.yaml': policy('a', ['a.example']),
    'b.autojoin.yaml': policy('b', ['b.example']),
    'c.autojoin.yaml': policy('c', ['c.example']),
    'd.autojoin.yaml': policy('d', ['d.example']),
  });
  commitAll(project.dir);
  emulator = await startEmulatorProcess(project.dir, join(project.dir, '.state.json'), flags, SECRET);
  const env = { AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: SECRET };
  const dir = project.dir;
  const run = (...args: string[]) => cli(args, { cwd: dir, env });
  const first = await run('apply', '--yes');
  expect(first.code, first.stderr).toBe(0);
  process.env.VORTEX_API_BASE_URL = emulator.url;
  return { run, vortex: new Vortex(SECRET) };
}

/** The admin, through the SDK: a's list set without metadata, b's autojoin invitation revoked, d's invitations deleted. */
async function adminWrites(vortex: Vortex): Promise<void> {
  await vortex.configureAutojoin({ scope: 'a', scopeType: 'team', componentId: 'cmp_e2e', domains: ['a.example', 'partner.example'] });
  const b = await vortex.getAutojoinDomains('team', 'b');
  await vortex.revokeInvitation(b.invitation?.id as string);
  await vortex.deleteInvitationsByScope('team', 'd');
}

async function planOf(run: (...args: string[]) => ReturnType<typeof cli>): Promise<{ plan: PlanJson; text: string }> {
  const json = await run('plan', '--format', 'json');
  expect(json.code, json.stderr).toBe(0);
  const text = await run('plan');
  return { plan: JSON.parse(json.stdout) as PlanJson, text: text.stdout };
}

/** Deletes c's policy in a commit: a prune candidate. */
async function pruneC(): Promise<void> {
  const dir = (project as TempProject).dir;
  await rm(join(dir, 'c.autojoin.yaml'));
  git(dir, 'commit', '-q', '-am', 'drop c');
}

describe('--post-metadata keep (the default): the admin\'s POST leaves the marker', () => {
  it('shows the admin\'s edit as drift, the revoked and deleted invitations as drift, restores them, and prunes', async () => {
    const { run, vortex } = await appliedEstate(['--post-metadata', 'keep']);
    await adminWrites(vortex);
    const { plan, text } = await planOf(run);
    const change = (key: string) => plan.changes.find((entry) => entry.key === key);
    expect(change('team/a')).toMatchObject({ kind: 'update', origin: 'drift', outside: { added: ['partner.example'], removed: [] } });
    expect(change('team/a')?.outside?.lost).toBeUndefined();
    for (const key of ['team/b', 'team/d']) expect(change(key)).toMatchObject({ kind: 'create', origin: 'drift', outside: { removed: [key.slice(5) + '.example'], lost: 'invitation' } });
    expect(text).toContain('autojoin invitation revoked or deleted outside this repository');
    expect(plan.notes).toBeUndefined();
    expect((await run('apply', '--yes')).code).toBe(0);
    expect((await run('plan', '--detailed-exitcode')).code).toBe(0);
    await pruneC();
    const pruned = (await planOf(run)).plan;
    expect(pruned.changes).toEqual([expect.objectContaining({ key: 'team/c', kind: 'clear' })]);
  });
});

describe('--post-metadata replace: the admin\'s POST erases the marker', () => {
  it('reports "marker removed outside this repository" per scope as drift (never an owner-only update), restores it, and prunes the scope after', async () => {
    const { run, vortex } = await appliedEstate(['--post-metadata', 'replace']);
    await adminWrites(vortex);
    const { plan, text } = await planOf(run);
    const a = plan.changes.find((entry) => entry.key === 'team/a');
    expect(a).toMatchObject({ kind: 'update', origin: 'drift', outside: { added: ['partner.example'], lost: 'marker' } });
    expect(text).toContain('marker removed outside this repository');
    expect(text).not.toContain('only mark the owner');
    expect(plan.changes.find((entry) => entry.key === 'team/b')).toMatchObject({ origin: 'drift', outside: { lost: 'invitation' } });
    // The marker is back after the next write: the scope is ours to prune again.
    expect((await run('apply', '--yes')).code).toBe(0);
    expect((await run('plan', '--detailed-exitcode')).code).toBe(0);
    await rm(join((project as TempProject).dir, 'a.autojoin.yaml'));
    git((project as TempProject).dir, 'commit', '-q', '-am', 'drop a');
    const pruned = (await planOf(run)).plan;
    expect(pruned.changes).toEqual([expect.objectContaining({ key: 'team/a', kind: 'clear' })]);
    expect(pruned.notManagedHere).toEqual([]);
  });

  it('a scope newly declared, never applied, is an owner-only update, not a lost marker', async () => {
    const { run, vortex } = await appliedEstate(['--post-metadata', 'replace']);
    await vortex.configureAutojoin({ scope: 'fresh', scopeType: 'team', componentId: 'cmp_e2e', domains: ['fresh.example'], metadata: { team: 'x' } });
    await writeFile(join((project as TempProject).dir, 'fresh.autojoin.yaml'), policy('fresh', ['fresh.example']));
    git((project as TempProject).dir, 'add', '.');
    git((project as TempProject).dir, 'commit', '-q', '-m', 'fresh');
    const { plan, text } = await planOf(run);
    expect(plan.changes).toEqual([expect.objectContaining({ key: 'team/fresh', kind: 'update', fieldChanges: [{ field: 'owner', before: null, after: 'default' }] })]);
    expect(plan.changes[0]?.origin).toBeUndefined();
    expect(text).toContain('only mark the owner');
  });
});

describe('--post-metadata ignore: the service keeps no metadata', () => {
  it('says once that ownership cannot be read; nothing is shown as drift and pruning clears nothing', async () => {
    const { run, vortex } = await appliedEstate(['--post-metadata', 'ignore']);
    await adminWrites(vortex);
    const { plan, text } = await planOf(run);
    expect(plan.notes).toEqual([expect.stringContaining('ownership cannot be read')]);
    expect(text.match(/note: ownership cannot be read/gu)).toHaveLength(1);
    expect(plan.changes.map((change) => [change.key, change.kind, change.origin])).toEqual([
      ['team/a', 'update', undefined],
      ['team/b', 'create', undefined],
      ['team/d', 'create', undefined],
    ]);
    expect((await run('apply', '--yes')).code).toBe(0);
    await pruneC();
    const pruned = (await planOf(run)).plan;
    expect(pruned.changes).toEqual([]);
    expect(pruned.notManagedHere).toEqual([{ key: 'team/c', owner: null, removedBy: expect.any(Object) }]);
  });
});

describe('--no-groups: answers without groups and accepts', () => {
  it('says once that scopeName cannot be read back, instead of silently comparing nothing', async () => {
    project = await tempProject({
      'a.autojoin.yaml': policy('a', ['a.example'], { scopeName: 'Alpha' }),
      'b.autojoin.yaml': policy('b', ['b.example'], { scopeName: 'Beta' }),
    });
    commitAll(project.dir);
    emulator = await startEmulatorProcess(project.dir, join(project.dir, '.state.json'), ['--no-groups'], SECRET);
    const env = { AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: SECRET };
    expect((await cli(['apply', '--yes'], { cwd: project.dir, env })).code).toBe(0);
    const planned = await cli(['plan', '--detailed-exitcode'], { cwd: project.dir, env });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout.match(/note: scopeName cannot be read back/gu)).toHaveLength(1);
    const json = JSON.parse((await cli(['plan', '--format', 'json'], { cwd: project.dir, env })).stdout) as PlanJson;
    expect(json.notes).toEqual([expect.stringContaining('scopeName cannot be read back')]);
  });
});
