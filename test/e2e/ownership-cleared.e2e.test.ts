/**
 * Ownership of a switched-off scope (README, "Ownership"): a clear leaves the autojoin invitation
 * deactivated, with its metadata, so the marker of the owner that cleared it stays. A create
 * over it writes over that owner's scope, and is refused as an update is, unless the run takes
 * it over. Read in every mode: call 2b and the listings show the deactivated invitation.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { cli, liveDomains, policy, posts, seedScope, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

/** Writes a scope straight to the emulator, as another tool (or another repository) would. */
const seed = (scope: string, domains: string[], metadata?: Record<string, unknown>): Promise<void> => seedScope(emulator, scope, domains, metadata);

/** A scope another owner wrote and then cleared: deactivated, its marker kept. */
async function clearedByInfra(scope: string): Promise<void> {
  await seed(scope, [`${scope}.example`], { 'autojoin-sync.owner': 'infra', team: 'x' });
  await seed(scope, []);
  expect(emulator.data().scopes[`team/${scope}`]?.autojoin?.invitation).toMatchObject({ deactivated: true, metadata: { 'autojoin-sync.owner': 'infra' } });
}

describe('a create over another owner\'s deactivated autojoin invitation', () => {
  it.each(['autojoin', 'by-scope', 'by-group'])('is refused (exit 1 naming the owner, nothing written) with --read %s, and --take-ownership takes it over', async (read) => {
    emulator = await startTestEmulator();
    await clearedByInfra('shared');
    project = await tempProject({ 'shared.autojoin.yaml': policy('shared', ['shared.example']) });
    emulator.requests.length = 0;

    const plan = await cli(['plan', '--read', read], { cwd: project.dir, emulator });
    expect(plan.code, plan.stdout + plan.stderr).toBe(1);
    expect(plan.stderr).toMatch(/team\/shared\b.*"infra"/u);
    const apply = await cli(['apply', '--yes', '--read', read], { cwd: project.dir, emulator });
    expect(apply.code).toBe(1);
    expect(posts(emulator)).toBe(0);
    expect(liveDomains(emulator.data(), 'shared')).toBeNull();

    const taking = await cli(['plan', '--format', 'json', '--read', read, '--take-ownership', 'team/shared'], { cwd: project.dir, emulator });
    expect(taking.code, taking.stderr).toBe(0);
    expect((JSON.parse(taking.stdout) as { changes: unknown[] }).changes).toEqual([
      expect.objectContaining({ kind: 'create', key: 'team/shared', fieldChanges: [{ field: 'owner', before: 'infra', after: 'default' }] }),
    ]);
    const taken = await cli(['apply', '--yes', '--read', read, '--take-ownership', 'team/shared'], { cwd: project.dir, emulator });
    expect(taken.code, taken.stderr).toBe(0);
    expect(liveDomains(emulator.data(), 'shared')).toEqual(['shared.example']);
    expect(emulator.data().scopes['team/shared']?.autojoin?.invitation.metadata).toMatchObject({ 'autojoin-sync.owner': 'default' });
  });

  it('is a plain create when the deactivated invitation carries this owner\'s marker or none', async () => {
    emulator = await startTestEmulator();
    await seed('mine', ['mine.example'], { 'autojoin-sync.owner': 'default' });
    await seed('mine', []);
    await seed('bare', ['bare.example']);
    await seed('bare', []);
    project = await tempProject({ 'mine.autojoin.yaml': policy('mine', ['mine.example']), 'bare.autojoin.yaml': policy('bare', ['bare.example']) });
    const taken = await cli(['apply', '--yes'], { cwd: project.dir, emulator });
    expect(taken.code, taken.stderr).toBe(0);
    expect(liveDomains(emulator.data(), 'mine')).toEqual(['mine.example']);
    expect(liveDomains(emulator.data(), 'bare')).toEqual(['bare.example']);
  });

  it('keeps a saved plan that takes it over applicable, and refuses one made before the other owner cleared it', async () => {
    emulator = await startTestEmulator();
    await clearedByInfra('shared');
    project = await tempProject({ 'shared.autojoin.yaml': policy('shared', ['shared.example']) });
    const saved = await cli(['plan', '--take-ownership', 'team/shared', '--out', 'take.json'], { cwd: project.dir, emulator });
    expect(saved.code, saved.stderr).toBe(0);
    const applied = await cli(['apply', '--yes', '--take-ownership', 'team/shared', '--plan', 'take.json'], { cwd: project.dir, emulator });
    expect(applied.code, applied.stderr).toBe(0);
    expect(liveDomains(emulator.data(), 'shared')).toEqual(['shared.example']);

    await writeFile(join(project.dir, 'other.autojoin.yaml'), policy('other', ['other.example']));
    const early = await cli(['plan', '--out', 'early.json'], { cwd: project.dir, emulator });
    expect(early.code, early.stderr).toBe(0);
    await clearedByInfra('other');
    emulator.requests.length = 0;
    const refused = await cli(['apply', '--yes', '--plan', 'early.json'], { cwd: project.dir, emulator });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/team\/other\b.*owner/u);
    expect(posts(emulator)).toBe(0);
  });
});
