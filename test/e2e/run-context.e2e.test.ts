/**
 * The run context as a user meets it (issue 31, design "The run context", "One answer from any
 * directory"), with the spawned CLI, real git repositories and the emulator over loopback:
 * a saved plan keeps the context it was made in, the project file of a policy file is found
 * from that file, and a saved take-over needs --take-ownership again (issue 34, item 7).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { commitAll, git } from '../support/git.js';
import { cli, liveDomains, policy, posts, setLive, startTestEmulator, tempProject, useEmulatorProject, writeFiles, type TempProject } from './support.js';

let emulator: Emulator | undefined;
let project: TempProject | undefined;
useEmulatorProject(() => ({ emulator, project }));

/** A repository whose project file sits beside its policies in pol/ (maxRemovals 1, owner given), and a live scope with 3 more domains. */
async function polRepository(projectText = 'owner: team-a\nsafety:\n  maxRemovals: 1\n'): Promise<{ dir: string; emulator: Emulator }> {
  const started = await startTestEmulator();
  emulator = started;
  await setLive(started, 'a', ['keep.example', 'x1.example', 'x2.example', 'x3.example'], 'team', 'team-a');
  project = await tempProject({ 'pol/autojoin-sync.yaml': projectText, 'pol/a.autojoin.yaml': policy('a', ['keep.example']) });
  commitAll(project.dir);
  return { dir: project.dir, emulator: started };
}

describe('apply --plan keeps the context of the plan', () => {
  it('keeps the safety limits of the plan project file when applied from the repository root', async () => {
    const { dir, emulator: service } = await polRepository();
    const planned = await cli(['plan', 'pol', '--out', 'plan.json'], { cwd: dir, emulator: service });
    expect(planned.code).toBe(0);
    expect(planned.stderr).toContain('apply would refuse');
    const applied = await cli(['apply', '--plan', 'plan.json', '--yes'], { cwd: dir, emulator: service });
    expect(applied.stderr).toContain('using project file pol/autojoin-sync.yaml');
    expect(applied.code).toBe(3);
    expect(liveDomains(service.data(), 'a')).toHaveLength(4);
  });

  it('the pin hint printed by plan --out works as printed, with a custom owner', async () => {
    const { dir, emulator: service } = await polRepository('owner: team-a\n');
    const planned = await cli(['plan', 'pol', '--out', 'plan.json'], { cwd: dir, emulator: service });
    const hint = /\(pin it: autojoin-sync (.*)\)/u.exec(planned.stderr)?.[1];
    expect(hint).toBeDefined();
    const applied = await cli([...(hint ?? '').split(' '), '--yes'], { cwd: dir, emulator: service });
    expect(applied.stderr).not.toContain('owner is');
    expect(applied.code).toBe(0);
    expect(liveDomains(service.data(), 'a')).toEqual(['keep.example']);
  });

  it('with -C DIR the pin hint carries -C and works as printed from where the plan was made', async () => {
    const { dir, emulator: service } = await polRepository('owner: team-a\n');
    const outside = join(dir, '..');
    const planned = await cli(['-C', dir, 'plan', 'pol', '--out', 'plan.json'], { cwd: outside, emulator: service });
    expect(planned.stderr).toContain('using project file pol/autojoin-sync.yaml');
    const hint = /\(pin it: autojoin-sync (.*)\)/u.exec(planned.stderr)?.[1] ?? '';
    expect(hint).toContain(`-C ${dir} apply --plan plan.json --plan-sha256 `);
    const applied = await cli([...hint.split(' '), '--yes'], { cwd: outside, emulator: service });
    expect(applied.code).toBe(0);
    expect(liveDomains(service.data(), 'a')).toEqual(['keep.example']);
  });

  it('refuses an edited project file naming the file and both digests, and writes nothing', async () => {
    const { dir, emulator: service } = await polRepository();
    expect((await cli(['plan', 'pol', '--out', 'plan.json'], { cwd: dir, emulator: service })).code).toBe(0);
    const before = JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8')) as { context: { projectFile: { path: string; sha256: string } } };
    expect(before.context.projectFile.path).toBe('pol/autojoin-sync.yaml');
    await writeFile(join(dir, 'pol/autojoin-sync.yaml'), 'owner: team-a\nsafety:\n  maxRemovals: 100\n');
    service.requests.length = 0;
    const applied = await cli(['apply', '--plan', '../plan.json', '--yes'], { cwd: join(dir, 'pol'), emulator: service });
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('pol/autojoin-sync.yaml');
    expect(applied.stderr).toContain(before.context.projectFile.sha256);
    expect(applied.stderr).toMatch(/it has sha256 [0-9a-f]{64} here/u);
    expect(posts(service)).toBe(0);
    // show warns instead of refusing.
    const shown = await cli(['show', 'plan.json'], { cwd: dir });
    expect(shown.code).toBe(0);
    expect(shown.stderr).toContain('apply --plan would refuse it here');
  });

  it('refuses a plan made without a project file where one now exists', async () => {
    const started = await startTestEmulator();
    emulator = started;
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    commitAll(project.dir);
    expect((await cli(['plan', '--out', 'plan.json'], { cwd: project.dir, emulator: started })).code).toBe(0);
    await writeFiles(project.dir, { 'autojoin-sync.yaml': 'owner: someone\n' });
    const applied = await cli(['apply', '--plan', 'plan.json', '--yes'], { cwd: project.dir, emulator: started });
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('was made without a project file, but this checkout has autojoin-sync.yaml');
    expect(posts(started)).toBe(0);
  });

  it('markers written by apply --plan name the applying checkout HEAD', async () => {
    const { dir, emulator: service } = await polRepository('owner: team-a\n');
    expect((await cli(['plan', 'pol', '--out', '../plan.json'], { cwd: dir, emulator: service })).code).toBe(0);
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'merged');
    const head = git(dir, 'rev-parse', 'HEAD');
    expect((await cli(['apply', '--plan', '../plan.json', '--yes'], { cwd: dir, emulator: service })).code).toBe(0);
    expect(service.data().scopes['team/a']?.autojoin?.invitation.metadata?.['autojoin-sync.commit']).toBe(head);
  });
});

describe('saved plans and ownership (issue 34, item 7)', () => {
  it('a saved take-over of an unmarked scope needs --take-ownership again at apply', async () => {
    const started = await startTestEmulator();
    emulator = started;
    // An unmarked live scope that this repository once declared: pruning clears it only when taken over.
    await setLive(started, 'a', ['old.example'], 'team', null);
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['old.example']), 'b.autojoin.yaml': policy('b', ['b.example']) });
    commitAll(project.dir);
    git(project.dir, 'rm', '-q', 'a.autojoin.yaml');
    git(project.dir, 'commit', '-q', '-m', 'retire a');
    const planned = await cli(['plan', '--take-ownership', 'team/a', '--out', 'plan.json'], { cwd: project.dir, emulator: started });
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain('team/a');
    const refused = await cli(['apply', '--plan', 'plan.json', '--yes'], { cwd: project.dir, emulator: started });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--take-ownership team/a');
    expect(liveDomains(started.data(), 'a')).toEqual(['old.example']);
    const taken = await cli(['apply', '--plan', 'plan.json', '--take-ownership', 'team/a', '--yes'], { cwd: project.dir, emulator: started });
    expect(taken.code).toBe(0);
    expect(liveDomains(started.data(), 'a')).toBeNull();
  });

  it('a plan made against one loopback service is refused by another (port compared)', async () => {
    const first = await startTestEmulator();
    emulator = first;
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    commitAll(project.dir);
    expect((await cli(['plan', '--out', 'plan.json'], { cwd: project.dir, emulator: first })).code).toBe(0);
    const second = await startTestEmulator();
    try {
      const applied = await cli(['apply', '--plan', 'plan.json', '--yes'], { cwd: project.dir, emulator: second });
      expect(applied.code).toBe(1);
      expect(applied.stderr).toContain(`the saved plan was made against ${first.url}`);
      expect(posts(second)).toBe(0);
    } finally {
      await second.close();
    }
  });
});

describe('the project file of a policy file', () => {
  it('a monorepo project file in infra/autojoin is used by plan . from the root', async () => {
    const started = await startTestEmulator();
    emulator = started;
    project = await tempProject({
      'infra/autojoin/autojoin-sync.yaml': 'owner: platform\ndefaults:\n  componentId: cmp_mono\n',
      'infra/autojoin/teams/eng.autojoin.yaml': 'scope: eng\nscopeType: team\ndomains: [eng.example]\n',
      'README.md': 'monorepo\n',
    });
    commitAll(project.dir);
    const planned = await cli(['plan', '.', '--format', 'json'], { cwd: project.dir, emulator: started });
    expect(planned.stderr).toContain('using project file infra/autojoin/autojoin-sync.yaml');
    expect(planned.code).toBe(0);
    expect(JSON.parse(planned.stdout)).toMatchObject({ owner: 'platform' });
  });

  it('two project files under one path: plan plans each under its own owner', async () => {
    project = await tempProject({
      'a/autojoin-sync.yaml': 'owner: a\n',
      'a/x.autojoin.yaml': policy('x', ['x.example']),
      'b/autojoin-sync.yaml': 'owner: b\n',
      'b/y.autojoin.yaml': policy('y', ['y.example']),
    });
    commitAll(project.dir);
    const planned = await cli(['plan', '.', '--emulator', '--format', 'json'], { cwd: project.dir });
    expect(planned.code, planned.stderr).toBe(0);
    expect((JSON.parse(planned.stdout) as { projects: { name: string; owner: string }[] }).projects.map((one) => [one.name, one.owner])).toEqual([['a/autojoin-sync.yaml', 'a'], ['b/autojoin-sync.yaml', 'b']]);
    // validate reads each file under its own project file.
    expect((await cli(['validate', '.'], { cwd: project.dir })).code).toBe(0);
  });

  it('a plan of one of two project files applies with --plan from the repository root, under the project file it recorded', async () => {
    const started = await startTestEmulator();
    emulator = started;
    project = await tempProject({
      'a/autojoin-sync.yaml': 'owner: a\n',
      'a/x.autojoin.yaml': policy('x', ['x.example']),
      'b/autojoin-sync.yaml': 'owner: b\n',
      'b/y.autojoin.yaml': policy('y', ['y.example']),
    });
    commitAll(project.dir);
    expect((await cli(['plan', 'a', '--out', 'plan.json'], { cwd: project.dir, emulator: started })).code).toBe(0);
    const applied = await cli(['apply', '--plan', 'plan.json', '--yes'], { cwd: project.dir, emulator: started });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain('using project file a/autojoin-sync.yaml');
    expect(liveDomains(started.data(), 'x')).toEqual(['x.example']);
    expect(liveDomains(started.data(), 'y')).toBeNull();
  });

  it('-C DIR runs as if started in DIR, and --project reads only the policy files of its project', async () => {
    project = await tempProject({
      'repo/pol/autojoin-sync.yaml': 'owner: team-a\n',
      'repo/pol/a.autojoin.yaml': policy('a', ['a.example']),
      'repo/other/b.autojoin.yaml': policy('b', ['b.example']),
    });
    commitAll(join(project.dir, 'repo'));
    const fromOutside = await cli(['-C', 'repo', 'validate', 'pol'], { cwd: project.dir });
    expect(fromOutside.code).toBe(0);
    const selected = await cli(['--project', 'repo/pol/autojoin-sync.yaml', 'validate', 'repo'], { cwd: project.dir });
    expect(selected.code, selected.stderr).toBe(0);
    expect(selected.stderr).toContain('notice: --project repo/pol/autojoin-sync.yaml: 1 policy file of other projects skipped');
    expect(selected.stderr).toContain('in 1 file; 1 valid policy');
  });
});

/** The live marker's commit and owner of a scope. */
function markerOf(service: Emulator, key: string): { owner?: string; commit?: string } {
  const metadata = service.data().scopes[key]?.autojoin?.invitation.metadata ?? {};
  return { owner: metadata['autojoin-sync.owner'] as string | undefined, commit: metadata['autojoin-sync.commit'] as string | undefined };
}

describe('behind and foreign checkouts', () => {
  it('a stale clone refuses to apply, listing every scope written from a commit it does not contain, unless --allow-behind names it', async () => {
    const started = await startTestEmulator();
    emulator = started;
    project = await tempProject({ 'origin/a.autojoin.yaml': policy('a', ['a.example']), 'origin/b.autojoin.yaml': policy('b', ['b.example']) });
    const origin = join(project.dir, 'origin');
    commitAll(origin);
    const stale = join(project.dir, 'stale');
    git(project.dir, 'clone', '-q', origin, stale);
    await writeFiles(origin, { 'a.autojoin.yaml': policy('a', ['a.example', 'new.example']), 'b.autojoin.yaml': policy('b', ['b.example', 'new-b.example']) });
    git(origin, 'commit', '-q', '-am', 'more domains');
    expect((await cli(['apply', '--yes'], { cwd: origin, emulator: started })).code).toBe(0);
    const planned = await cli(['plan'], { cwd: stale, emulator: started });
    expect(planned.stdout).toContain('Written from a commit this checkout does not contain');
    expect(planned.stdout).toContain('team/a');
    started.requests.length = 0;
    const refused = await cli(['apply', '--yes'], { cwd: stale, emulator: started });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('team/a');
    expect(refused.stderr).toContain('team/b');
    expect(refused.stderr).toContain('--allow-behind');
    expect(posts(started)).toBe(0);
    expect(liveDomains(started.data(), 'a')).toEqual(['a.example', 'new.example']);
    const allowed = await cli(['apply', '--yes', '--allow-behind', '*'], { cwd: stale, emulator: started });
    expect(allowed.code).toBe(0);
    expect(liveDomains(started.data(), 'a')).toEqual(['a.example']);
    expect(markerOf(started, 'team/a').commit).toBe(git(stale, 'rev-parse', 'HEAD'));
  });

  it('a marker commit missing from a shallow clone stops apply naming fetch-depth: 0', async () => {
    const started = await startTestEmulator();
    emulator = started;
    project = await tempProject({ 'origin/a.autojoin.yaml': policy('a', ['a.example']) });
    const origin = join(project.dir, 'origin');
    commitAll(origin);
    expect((await cli(['apply', '--yes'], { cwd: origin, emulator: started })).code).toBe(0);
    await writeFiles(origin, { 'a.autojoin.yaml': policy('a', ['a.example', 'b.example']) });
    git(origin, 'commit', '-q', '-am', 'one more');
    const shallow = join(project.dir, 'shallow');
    git(project.dir, 'clone', '-q', '--depth', '1', `file://${origin}`, shallow);
    const refused = await cli(['apply', '--yes', '--no-prune'], { cwd: shallow, emulator: started });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('fetch-depth: 0');
    expect(liveDomains(started.data(), 'a')).toEqual(['a.example']);
  });

  it('two repositories on the default owner never clear each other scopes', async () => {
    const started = await startTestEmulator();
    emulator = started;
    project = await tempProject({ 'a/payroll.autojoin.yaml': policy('payroll', ['a.example']), 'a/other.autojoin.yaml': policy('other', ['o.example']), 'b/payroll.autojoin.yaml': policy('payroll', ['b.example']) });
    const [repoA, repoB] = [join(project.dir, 'a'), join(project.dir, 'b')];
    commitAll(repoA);
    commitAll(repoB);
    expect((await cli(['apply', '--yes'], { cwd: repoA, emulator: started })).code).toBe(0);
    git(repoA, 'rm', '-q', 'payroll.autojoin.yaml');
    git(repoA, 'commit', '-q', '-m', 'payroll moves to repository b');
    // B's checkout does not contain A's commit: B takes the scope on by naming it.
    const refused = await cli(['apply', '--yes'], { cwd: repoB, emulator: started });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('team/payroll');
    expect((await cli(['apply', '--yes', '--allow-behind', 'team/payroll'], { cwd: repoB, emulator: started })).code).toBe(0);
    const planned = await cli(['plan', '--format', 'json'], { cwd: repoA, emulator: started });
    expect(JSON.parse(planned.stdout)).toMatchObject({ changes: [], notManagedHere: [{ key: 'team/payroll', owner: 'default', commit: git(repoB, 'rev-parse', 'HEAD') }] });
    expect((await cli(['apply', '--yes'], { cwd: repoA, emulator: started })).code).toBe(0);
    expect(liveDomains(started.data(), 'payroll')).toEqual(['b.example']);
  });

  it('the rebase-merge of a pull request that changes and reverts defaults.scopeType clears no scope of another repository', async () => {
    const started = await startTestEmulator();
    emulator = started;
    const bare = (scope: string, domain: string): string => `scope: ${scope}\ncomponentId: cmp_e2e\ndomains: [${domain}]\n`;
    project = await tempProject({
      'a/autojoin-sync.yaml': 'defaults:\n  scopeType: team\n',
      'a/payroll.autojoin.yaml': bare('payroll', 'a.example'),
      'b/payroll.autojoin.yaml': policy('payroll', ['b.example']).replace('scopeType: team', 'scopeType: dept'),
    });
    const [repoA, repoB] = [join(project.dir, 'a'), join(project.dir, 'b')];
    commitAll(repoA);
    commitAll(repoB);
    expect((await cli(['apply', '--yes'], { cwd: repoA, emulator: started })).code).toBe(0);
    expect((await cli(['apply', '--yes'], { cwd: repoB, emulator: started })).code).toBe(0);
    // The pull request's two commits, rebased onto main one by one: the change, then its revert.
    await writeFiles(repoA, { 'autojoin-sync.yaml': 'defaults:\n  scopeType: dept\n' });
    git(repoA, 'commit', '-q', '-am', 'try dept');
    await writeFiles(repoA, { 'autojoin-sync.yaml': 'defaults:\n  scopeType: team\n' });
    git(repoA, 'commit', '-q', '-am', 'Revert "try dept"');
    const planned = await cli(['plan'], { cwd: repoA, emulator: started });
    expect(planned.stdout).toContain('No changes');
    expect((await cli(['apply', '--yes'], { cwd: repoA, emulator: started })).code).toBe(0);
    expect(liveDomains(started.data(), 'payroll', 'dept')).toEqual(['b.example']);
  });
});

describe('moving to the project file owner', () => {
  it('a scope marked by owner default from this history is re-marked by the project file owner, no --take-ownership', async () => {
    const started = await startTestEmulator();
    emulator = started;
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    commitAll(project.dir);
    expect((await cli(['apply', '--yes'], { cwd: project.dir, emulator: started })).code).toBe(0);
    expect(markerOf(started, 'team/a').owner).toBe('default');
    await writeFiles(project.dir, { 'autojoin-sync.yaml': 'owner: platform\n' });
    git(project.dir, 'add', '.');
    git(project.dir, 'commit', '-q', '-m', 'project file');
    const planned = await cli(['plan'], { cwd: project.dir, emulator: started });
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain('owner: "default" → "platform"');
    expect((await cli(['plan', '--out', 'plan.json'], { cwd: project.dir, emulator: started })).code).toBe(0);
    const applied = await cli(['apply', '--plan', 'plan.json', '--yes'], { cwd: project.dir, emulator: started });
    expect(applied.code).toBe(0);
    expect(markerOf(started, 'team/a')).toEqual({ owner: 'platform', commit: git(project.dir, 'rev-parse', 'HEAD') });
  });

  it('a scope marked by owner default from another history still needs --take-ownership', async () => {
    const started = await startTestEmulator();
    emulator = started;
    await setLive(started, 'a', ['old.example']);
    await started.close();
    emulator = await startTestEmulator();
    const service = emulator;
    project = await tempProject({ 'autojoin-sync.yaml': 'owner: platform\n', 'a.autojoin.yaml': policy('a', ['a.example']) });
    commitAll(project.dir);
    // A default marker with a commit this repository does not have.
    await fetch(`${service.url}/api/v1/invitations/autojoin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': (await import('./support.js')).SECRET },
      body: JSON.stringify({ domains: ['old.example'], scope: 'a', scopeType: 'team', componentId: 'cmp_e2e', metadata: { 'autojoin-sync.owner': 'default', 'autojoin-sync.commit': 'f'.repeat(40) } }),
    });
    const planned = await cli(['plan'], { cwd: project.dir, emulator: service });
    expect(planned.code).toBe(1);
    expect(planned.stderr).toContain('--take-ownership team/a');
  });
});
