/**
 * Drift with three sides, end to end with the spawned CLI and the emulator (README, "Drift"): an
 * admin edits live state the way the widget does (a POST without the marker's commit), and the
 * plan tells that apart from this repository's own change; adopt writes it into the files.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { cli, liveDomains, policy, SECRET, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';
import { commitAll, git } from '../support/git.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

/** An admin's edit in the widget: the complete list, posted without metadata (the stored marker stays). */
async function adminSets(scope: string, domains: string[], scopeName?: string): Promise<void> {
  const response = await fetch(`${emulator.url}/api/v1/invitations/autojoin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': SECRET },
    body: JSON.stringify({ domains, scope, scopeType: 'team', componentId: 'cmp_e2e', ...(scopeName === undefined ? {} : { scopeName }) }),
  });
  expect(response.status).toBe(200);
}

/** A repository with two scopes, applied, so both carry this owner's marker with HEAD. */
async function applied(): Promise<void> {
  emulator = await startTestEmulator();
  project = await tempProject({
    'eng.autojoin.yaml': `# engineering\n${policy('eng', ['eng.example', 'acme.example'])}`,
    'ops.autojoin.yaml': policy('ops', ['ops.example']),
  });
  commitAll(project.dir);
  const first = await cli(['apply', '--yes'], { cwd: project.dir, emulator });
  expect(first.code, first.stderr).toBe(0);
}

const planJson = async (...args: string[]): Promise<{ code: number | null; plan: { changes: { key: string; origin?: string; outside?: { added: string[]; removed: string[]; fields: unknown[] } }[]; drift: { key: string }[] } }> => {
  const result = await cli(['plan', '--format', 'json', ...args], { cwd: project.dir, emulator });
  expect(result.stderr).not.toContain('error');
  return { code: result.code, plan: JSON.parse(result.stdout) as never };
};

describe('drift: changed outside this repository', () => {
  it('shows an added and a removed domain as drift, apart from the repository\'s own change, with modifiedAt', async () => {
    await applied();
    await adminSets('eng', ['eng.example', 'partner.example']);
    await writeFile(join(project.dir, 'ops.autojoin.yaml'), policy('ops', ['ops.example', 'ops2.example']));
    const text = await cli(['plan'], { cwd: project.dir, emulator });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Changed outside this repository\n1 scope, measured from the state this repository last applied');
    expect(text.stdout).toContain('outside: +partner.example -acme.example; modified ');
    const own = text.stdout.indexOf('team/ops');
    expect(own).toBeGreaterThan(-1);
    expect(own).toBeLessThan(text.stdout.indexOf('Changed outside'));
    const { plan } = await planJson();
    expect(plan.changes.find((change) => change.key === 'team/ops')?.origin).toBeUndefined();
    expect(plan.changes.find((change) => change.key === 'team/eng')).toMatchObject({ origin: 'drift', outside: { added: ['partner.example'], removed: ['acme.example'] } });
  });

  it('is a conflict when the files and the admin both changed a scope', async () => {
    await applied();
    await adminSets('eng', ['eng.example']);
    await writeFile(join(project.dir, 'eng.autojoin.yaml'), policy('eng', ['eng.example', 'acme.example', 'new.example']));
    const { plan } = await planJson();
    expect(plan.changes).toEqual([expect.objectContaining({ key: 'team/eng', origin: 'conflict', outside: expect.objectContaining({ removed: ['acme.example'] }) })]);
  });

  it('shows a scope renamed outside as drift of its managed name, and adopt writes the new name', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'ops.autojoin.yaml': policy('ops', ['ops.example'], { scopeName: 'Operations' }) });
    commitAll(project.dir);
    expect((await cli(['apply', '--yes'], { cwd: project.dir, emulator })).code).toBe(0);
    await adminSets('ops', ['ops.example'], 'Ops & SRE');
    const { plan } = await planJson();
    expect(plan.changes[0]).toMatchObject({ key: 'team/ops', origin: 'drift', outside: { added: [], removed: [], fields: [{ field: 'scopeName', before: 'Operations', after: 'Ops & SRE' }] } });
    expect((await cli(['adopt'], { cwd: project.dir, emulator })).code).toBe(0);
    expect(await readFile(join(project.dir, 'ops.autojoin.yaml'), 'utf8')).toContain('scopeName: "Ops & SRE"\n');
    expect((await cli(['plan'], { cwd: project.dir, emulator })).stdout).toContain('No changes.');
  });

  it('is no drift when the admin edited the scope back to its last applied state', async () => {
    await applied();
    await adminSets('eng', ['eng.example']);
    await adminSets('eng', ['acme.example', 'eng.example']);
    const result = await cli(['plan', '--detailed-exitcode'], { cwd: project.dir, emulator });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No changes.');
  });

  it('falls back to the repository\'s change when the marker\'s commit was force-pushed away', async () => {
    await applied();
    git(project.dir, 'commit', '-q', '--amend', '-m', 'rewritten'); // the marker's commit is gone from the branch
    git(project.dir, 'reflog', 'expire', '--expire=now', '--all');
    git(project.dir, 'gc', '-q', '--prune=now');
    await adminSets('eng', ['eng.example']);
    await writeFile(join(project.dir, 'eng.autojoin.yaml'), policy('eng', ['eng.example', 'acme.example', 'new.example']));
    const { plan } = await planJson();
    expect(plan.changes).toEqual([expect.objectContaining({ key: 'team/eng' })]);
    expect(plan.changes[0]?.origin).toBeUndefined();
    // Unchanged files need no git: the digest alone tells drift.
    await writeFile(join(project.dir, 'eng.autojoin.yaml'), `# engineering\n${policy('eng', ['eng.example', 'acme.example'])}`);
    expect((await planJson()).plan.changes[0]).toMatchObject({ origin: 'drift' });
  });

  it('drift: keep leaves the scope as it is live, reports it, and still exits 2 with --detailed-exitcode', async () => {
    await applied();
    await writeFile(join(project.dir, 'autojoin-sync.yaml'), `defaults: {componentId: cmp_e2e, scopeType: team}\ndrift: keep\n`);
    await adminSets('eng', ['eng.example', 'partner.example']);
    const result = await cli(['plan', '--detailed-exitcode', '--format', 'json'], { cwd: project.dir, emulator });
    expect(result.code).toBe(2);
    const plan = JSON.parse(result.stdout) as { changes: unknown[]; drift: { key: string; origin: string }[] };
    expect(plan.changes).toEqual([]);
    expect(plan.drift).toEqual([expect.objectContaining({ key: 'team/eng', origin: 'drift' })]);
    const apply = await cli(['apply', '--yes'], { cwd: project.dir, emulator });
    expect(apply.code).toBe(0);
    expect(liveDomains(emulator.data(), 'eng')).toEqual(['eng.example', 'partner.example']);
  });

  it('adopt writes the live state into the file as a minimal edit, and the plan then has no changes', async () => {
    await applied();
    await adminSets('eng', ['eng.example', 'partner.example']);
    const adopt = await cli(['adopt'], { cwd: project.dir, emulator });
    expect(adopt.code, adopt.stderr).toBe(0);
    expect(adopt.stdout).toContain('adopted team/eng into eng.autojoin.yaml');
    const text = await readFile(join(project.dir, 'eng.autojoin.yaml'), 'utf8');
    expect(text).toBe(`# engineering\n${policy('eng', ['eng.example', 'acme.example'])}`.replace('  - acme.example\n', '').replace(/( {2}- eng.example\n)/, '$1  - partner.example\n'));
    const after = await cli(['plan', '--detailed-exitcode'], { cwd: project.dir, emulator });
    expect(after.code).toBe(0);
    expect(after.stdout).toContain('No changes.');
  });
});
