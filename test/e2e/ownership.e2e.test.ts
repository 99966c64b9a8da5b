/**
 * Ownership, end to end with the spawned CLI and the emulator (README, "Ownership"): every write
 * carries the marker, another owner's scope is never written without --take-ownership, an
 * unmarked scope is marked by an update of owner, unmanaged live keys are kept, reserved keys are
 * an error, and pruning clears only this owner's scopes.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { stateDigest } from '../../src/plan/ownership.js';
import { cli, liveDomains, policy, posts, seedScope, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';
import { commitAll, git } from '../support/git.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

/** Writes a scope straight to the emulator, as another tool (or another repository) would. */
const seed = (scope: string, domains: string[], metadata?: Record<string, unknown>): Promise<void> => seedScope(emulator, scope, domains, metadata);

function liveMetadata(scope: string): unknown {
  return emulator.data().scopes[`team/${scope}`]?.autojoin?.invitation.metadata;
}

describe('the ownership marker', () => {
  it('refuses a scope another owner marked (exit 1 naming both), and --take-ownership shows and makes the take-over', async () => {
    emulator = await startTestEmulator();
    await seed('shared', ['shared.example'], { 'autojoin-sync.owner': 'infra', team: 'x' });
    project = await tempProject({ 'shared.autojoin.yaml': policy('shared', ['shared.example', 'more.example']) });
    emulator.requests.length = 0;

    const plan = await cli(['plan'], { cwd: project.dir, emulator });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('team/shared (owner "infra")');
    expect(plan.stderr).toContain('--take-ownership team/shared');
    const apply = await cli(['apply', '--yes'], { cwd: project.dir, emulator });
    expect(apply.code).toBe(1);
    expect(posts(emulator)).toBe(0);

    const taking = await cli(['plan', '--take-ownership', 'team/shared'], { cwd: project.dir, emulator });
    expect(taking.code).toBe(0);
    expect(taking.stdout).toContain('owner: "infra" → "default" (takes the scope over from another owner: --take-ownership)');
    const taken = await cli(['apply', '--yes', '--take-ownership', 'team/shared'], { cwd: project.dir, emulator });
    expect(taken.code).toBe(0);
    expect(liveDomains(emulator.data(), 'shared')).toEqual(['more.example', 'shared.example']);
    expect(liveMetadata('shared')).toMatchObject({ team: 'x', 'autojoin-sync.owner': 'default' });
  });

  it('marks an unmarked scope by an update of owner only, keeping its live keys, with HEAD and the digest', async () => {
    emulator = await startTestEmulator();
    await seed('old', ['old.example'], { team: 'x' });
    project = await tempProject({ 'old.autojoin.yaml': policy('old', ['old.example']), 'autojoin-sync.yaml': 'owner: platform\n' });
    const head = commitAll(project.dir);

    const plan = await cli(['plan', '--detailed-exitcode'], { cwd: project.dir, emulator });
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('~ team/old  update: owner only (marks the scope as managed here; nothing else changes)');
    expect(plan.stdout).toContain('~ owner: none → "platform" (marks the scope as managed here)');
    expect(plan.stdout).toContain('1 of the updates only mark the owner');
    const json = JSON.parse((await cli(['plan', '--format', 'json'], { cwd: project.dir, emulator })).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ formatVersion: 5, owner: 'platform', notManagedHere: [] });
    expect(json.changes).toMatchObject([{ kind: 'update', keptMetadata: { team: 'x' }, fieldChanges: [{ field: 'owner', before: null, after: 'platform' }] }]);
    const markdown = (await cli(['plan', '--format', 'markdown'], { cwd: project.dir, emulator })).stdout;
    expect(markdown).toContain('update: owner only');

    expect((await cli(['apply', '--yes'], { cwd: project.dir, emulator })).code).toBe(0);
    const digest = stateDigest({ scopeType: 'team', scope: 'old', componentId: 'cmp_e2e', domains: ['old.example'] });
    expect(liveMetadata('old')).toEqual({
      team: 'x',
      'autojoin-sync.owner': 'platform',
      'autojoin-sync.commit': head,
      'autojoin-sync.digest': digest,
      'autojoin-sync.applied': new Date().toISOString().slice(0, 10),
      'autojoin-sync.keys': '',
    });
    expect((await cli(['plan', '--detailed-exitcode'], { cwd: project.dir, emulator })).code).toBe(0);
  });

  it('is an error for a policy to set a reserved metadata key, at its file:line:col', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example'], { metadata: '\n  team: x\n  autojoin-sync.owner: me' }) });
    const result = await cli(['plan'], { cwd: project.dir, emulator });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('a.autojoin.yaml:6:3: error: metadata: the key "autojoin-sync.owner" is reserved');
    expect(posts(emulator)).toBe(0);
  });
});

describe('pruning clears only what is ours', () => {
  it('leaves scopes of another owner or without a marker alone, and --take-ownership clears an unmarked one', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({
      'keep.autojoin.yaml': policy('keep', ['keep.example']),
      'mine.autojoin.yaml': policy('mine', ['mine.example']),
      'theirs.autojoin.yaml': policy('theirs', ['theirs.example']),
      'bare.autojoin.yaml': policy('bare', ['bare.example']),
    });
    commitAll(project.dir);
    expect((await cli(['apply', '--yes', 'keep.autojoin.yaml', 'mine.autojoin.yaml'], { cwd: project.dir, emulator })).code).toBe(0);
    await seed('theirs', ['theirs.example'], { 'autojoin-sync.owner': 'infra' });
    await seed('bare', ['bare.example']);
    for (const gone of ['mine', 'theirs', 'bare']) await rm(join(project.dir, `${gone}.autojoin.yaml`));
    git(project.dir, 'commit', '-q', '-a', '-m', 'retire three scopes');

    const text = await cli(['plan', '--prune'], { cwd: project.dir, emulator });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('- team/mine');
    expect(text.stdout).toContain('0 to create, 0 to update, 1 to clear, 1 unchanged.');
    expect(text.stdout).toContain("2 scopes no policy file declares are not managed here (another owner's ownership marker, or none)");
    const json = JSON.parse((await cli(['plan', '--prune', '--format', 'json'], { cwd: project.dir, emulator })).stdout) as { notManagedHere: unknown };
    expect(json.notManagedHere).toMatchObject([
      { key: 'team/bare', owner: null },
      { key: 'team/theirs', owner: 'infra' },
    ]);

    expect((await cli(['apply', '--yes', '--prune'], { cwd: project.dir, emulator })).code).toBe(0);
    expect(liveDomains(emulator.data(), 'mine')).toBeNull();
    expect(liveDomains(emulator.data(), 'theirs')).toEqual(['theirs.example']);
    expect(liveDomains(emulator.data(), 'bare')).toEqual(['bare.example']);

    expect((await cli(['apply', '--yes', '--prune', '--take-ownership', 'team/bare'], { cwd: project.dir, emulator })).code).toBe(0);
    expect(liveDomains(emulator.data(), 'bare')).toBeNull();
    expect(liveDomains(emulator.data(), 'theirs')).toEqual(['theirs.example']);
  });
});
