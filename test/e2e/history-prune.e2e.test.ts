/**
 * `--prune`: git history is the state. Real git repositories (init, commit, delete, move,
 * re-add, shallow clone) and the CLI as a process against the emulator.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { cli, liveDomains, policy, posts, startTestEmulator, tempProject, useEmulatorProject, writeFiles, type TempProject } from './support.js';
import { git } from '../support/git.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));


/** Commits everything in the work tree (deletions too) with `subject`. */
function commitAll(dir: string, subject: string): void {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', subject);
}

async function repoWith(files: Record<string, string>): Promise<string> {
  project = await tempProject(files);
  git(project.dir, 'init', '-q');
  commitAll(project.dir, 'policies');
  return project.dir;
}

interface PlanJson {
  changes: { key: string; kind: string; reason: string; removedBy?: { commit: string; date: string; subject: string } }[];
}

async function planJson(dir: string, args: string[] = []): Promise<PlanJson> {
  const planned = await cli(['plan', '--format', 'json', ...args, 'policies'], { cwd: dir, emulator });
  expect(planned.code, planned.stderr).toBe(0);
  return JSON.parse(planned.stdout) as PlanJson;
}

const MULTI = `${policy('m1', ['m1.example'])}---\n${policy('m2', ['m2.example'])}`;

describe('apply --prune: git history is the state', () => {
  it('after three pushes whose applies never ran, one apply clears every deleted scope and nothing else', async () => {
    emulator = await startTestEmulator();
    const dir = await repoWith({
      'policies/a.autojoin.yaml': policy('a', ['a1.example', 'a2.example']),
      'policies/b.autojoin.yaml': policy('b', ['b1.example']),
      'policies/c.autojoin.yaml': policy('c', ['c1.example', 'c2.example', 'c3.example']),
      'policies/d.autojoin.yaml': policy('d', ['d1.example']),
      'policies/multi.autojoin.yaml': MULTI,
      'policies/notes.yaml': policy('not-a-policy-file', ['n.example']),
    });
    expect((await cli(['apply', '--yes', '--prune', 'policies'], { cwd: dir, emulator })).code).toBe(0);

    await rm(join(dir, 'policies/a.autojoin.yaml'));
    commitAll(dir, 'Retire team a');
    await writeFiles(dir, { 'policies/multi.autojoin.yaml': policy('m1', ['m1.example']), 'policies/b.autojoin.yaml': policy('b', ['b2.example']) });
    commitAll(dir, 'Drop m2 from multi; b moves to b2');
    await mkdir(join(dir, 'policies/moved'));
    await rename(join(dir, 'policies/d.autojoin.yaml'), join(dir, 'policies/moved/d.autojoin.yaml'));
    await rm(join(dir, 'policies/c.autojoin.yaml'));
    await rm(join(dir, 'policies/notes.yaml'));
    commitAll(dir, 'Move d, retire c');
    emulator.requests.length = 0;

    const plan = await planJson(dir, ['--prune']);
    expect(plan.changes.map((change) => [change.kind, change.key, change.reason, change.removedBy?.subject])).toEqual([
      ['clear', 'team/a', 'pruned', 'Retire team a'],
      ['clear', 'team/c', 'pruned', 'Move d, retire c'],
      ['clear', 'team/m2', 'pruned', 'Drop m2 from multi; b moves to b2'],
      ['update', 'team/b', 'declared', undefined],
    ]);
    const sha = git(dir, 'rev-parse', 'HEAD~2').trim();
    expect(plan.changes[0]?.removedBy?.commit).toBe(sha.slice(0, 12));
    expect(plan.changes[0]?.removedBy?.date).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const text = await cli(['plan', '--prune', 'policies'], { cwd: dir, emulator });
    expect(text.stdout).toContain(`- team/a  clear (deactivates autojoin): -2 (policy file deleted)\n    removed by ${sha.slice(0, 12)} (`);
    expect(text.stdout).toContain('"Retire team a"');
    const markdown = await cli(['plan', '--prune', '--format', 'markdown', 'policies'], { cwd: dir, emulator });
    expect(markdown.stdout).toContain(`No policy file declares this scope any more (it was policies/a.autojoin.yaml:1); removed by ${sha.slice(0, 12)}`);

    // 2 + 3 + 1 domains cleared and 1 replaced in b: 7 removals, over a limit of 6. Nothing is written.
    const refused = await cli(['apply', '--yes', '--prune', '--max-removals', '6', 'policies'], { cwd: dir, emulator });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('plan removes 7 domains, more than the limit of 6');
    expect(posts(emulator)).toBe(0);

    const applied = await cli(['apply', '--yes', '--prune', 'policies'], { cwd: dir, emulator });
    expect(applied.code, applied.stderr).toBe(0);
    expect(posts(emulator)).toBe(4);
    const data = emulator.data();
    expect(['a', 'c', 'm2'].map((scope) => liveDomains(data, scope))).toEqual([null, null, null]);
    expect(['b', 'd', 'm1'].map((scope) => liveDomains(data, scope))).toEqual([['b2.example'], ['d1.example'], ['m1.example']]);

    const again = await cli(['plan', '--prune', '--detailed-exitcode', 'policies'], { cwd: dir, emulator });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  it('prune.keep releases a scope; prune.history turns pruning on and --no-prune off', async () => {
    emulator = await startTestEmulator();
    const dir = await repoWith({
      'autojoin-sync.yaml': 'prune:\n  history: true\n  keep: [team/legacy]\n',
      'policies/legacy.autojoin.yaml': policy('legacy', ['legacy.example']),
      'policies/old.autojoin.yaml': policy('old', ['old.example']),
      'policies/live.autojoin.yaml': policy('live', ['live.example']),
    });
    expect((await cli(['apply', '--yes', 'policies'], { cwd: dir, emulator })).code).toBe(0);
    await rm(join(dir, 'policies/legacy.autojoin.yaml'));
    await rm(join(dir, 'policies/old.autojoin.yaml'));
    commitAll(dir, 'Stop managing legacy; retire old');

    expect((await planJson(dir)).changes.map((change) => change.key)).toEqual(['team/old']);
    expect((await planJson(dir, ['--no-prune'])).changes).toEqual([]);
    expect((await cli(['apply', '--yes', 'policies'], { cwd: dir, emulator })).code).toBe(0);
    expect(liveDomains(emulator.data(), 'legacy')).toEqual(['legacy.example']);
    expect(liveDomains(emulator.data(), 'old')).toBeNull();
  });

  it('a scope declared again is created, not pruned; a scope moved to another file stays', async () => {
    emulator = await startTestEmulator();
    const dir = await repoWith({
      'policies/x.autojoin.yaml': policy('x', ['x1.example']),
      'policies/y.autojoin.yaml': policy('y', ['y1.example']),
    });
    expect((await cli(['apply', '--yes', 'policies'], { cwd: dir, emulator })).code).toBe(0);
    await rm(join(dir, 'policies/x.autojoin.yaml'));
    commitAll(dir, 'Retire x');
    expect((await cli(['apply', '--yes', '--prune', 'policies'], { cwd: dir, emulator })).code).toBe(0);
    expect(liveDomains(emulator.data(), 'x')).toBeNull();

    await writeFiles(dir, { 'policies/again.autojoin.yaml': policy('x', ['x2.example']), 'policies/all.autojoin.yaml': policy('y', ['y1.example']) });
    await rm(join(dir, 'policies/y.autojoin.yaml'));
    commitAll(dir, 'x is back; y moves into all');
    const plan = await planJson(dir, ['--prune']);
    expect(plan.changes.map((change) => [change.kind, change.key, change.reason])).toEqual([['create', 'team/x', 'declared']]);
  });

  it('refuses a shallow clone, naming fetch-depth: 0 and --no-prune; outside git there is nothing to prune', async () => {
    emulator = await startTestEmulator();
    const origin = await repoWith({ 'policies/a.autojoin.yaml': policy('a', ['a.example']) });
    await writeFile(join(origin, 'policies/a.autojoin.yaml'), policy('a', ['a2.example']));
    commitAll(origin, 'second');
    const shallow = join(origin, 'shallow');
    git(origin, 'clone', '-q', '--depth', '1', `file://${origin}`, shallow);
    for (const args of [['apply', '--yes', 'policies'], ['apply', '--yes', '--prune', 'policies']]) {
      const refused = await cli(args, { cwd: shallow, emulator });
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr).toContain('shallow clone');
      expect(refused.stderr).toContain('fetch-depth: 0');
      expect(refused.stderr).toContain('--no-prune');
      expect(refused.stderr).toContain('git fetch --unshallow');
    }
    expect(posts(emulator)).toBe(0);
    const unpruned = await cli(['apply', '--yes', '--no-prune', 'policies'], { cwd: shallow, emulator });
    expect(unpruned.code, unpruned.stderr).toBe(0);
    expect(liveDomains(emulator.data(), 'a')).toEqual(['a2.example']);

    await rm(join(origin, '.git'), { recursive: true, force: true });
    await rm(shallow, { recursive: true, force: true });
    await rm(join(origin, 'policies/a.autojoin.yaml'));
    await writeFiles(origin, { 'policies/b.autojoin.yaml': policy('b', ['b.example']) });
    const outside = await cli(['plan', '--format', 'json', '--prune', 'policies'], { cwd: origin, emulator });
    expect(outside.code, outside.stderr).toBe(0);
    expect((JSON.parse(outside.stdout) as PlanJson).changes.map((change) => [change.kind, change.key])).toEqual([['create', 'team/b']]);
  });
});

describe('a scope declared outside the paths is declared now', () => {
  async function changes(dir: string, args: string[], cwd = dir): Promise<string[][]> {
    const planned = await cli(['plan', '--format', 'json', ...args], { cwd, emulator });
    expect(planned.code, planned.stderr).toBe(0);
    return (JSON.parse(planned.stdout) as PlanJson).changes.map((change) => [change.kind, change.key, change.reason]);
  }

  /** pol/ holds a, d and e, applied; then `move` runs and is committed as one commit. */
  async function appliedThen(move: (dir: string) => Promise<void>): Promise<string> {
    emulator = await startTestEmulator();
    const dir = await repoWith({
      'pol/a.autojoin.yaml': policy('a', ['a.example']),
      'pol/d.autojoin.yaml': policy('d', ['d.example']),
      'pol/e.autojoin.yaml': policy('e', ['e.example']),
    });
    expect((await cli(['apply', '--yes', 'pol'], { cwd: dir, emulator })).code).toBe(0);
    await move(dir);
    commitAll(dir, 'Move d out of pol, retire e');
    return dir;
  }

  it('a policy file moved out of the paths is not pruned, by --prune or --prune-from; a deleted one is', async () => {
    const dir = await appliedThen(async (dir) => {
      await mkdir(join(dir, 'other2'));
      git(dir, 'mv', 'pol/d.autojoin.yaml', 'other2/');
      await rm(join(dir, 'pol/e.autojoin.yaml'));
    });
    const cleared = [['clear', 'team/e', 'pruned']];
    const plans = {
      prune: await changes(dir, ['--prune', 'pol']),
      pruneFrom: await changes(dir, ['--prune-from', 'HEAD~1', 'pol']),
      // From pol itself, with no path given, the files above cwd count too.
      fromPol: await changes(dir, ['--prune'], join(dir, 'pol')),
      other2: await changes(dir, ['other2']),
    };
    expect(plans).toEqual({ prune: cleared, pruneFrom: cleared, fromPol: cleared, other2: [] });
  });

  it('an outside file with errors still keeps every scope it can be read to declare', async () => {
    const dir = await appliedThen(async (dir) => {
      await rm(join(dir, 'pol/d.autojoin.yaml'));
      await rm(join(dir, 'pol/e.autojoin.yaml'));
      // A YAML error (an unclosed flow list) behind a quoted scope, which the quick reader leaves to the parser.
      await writeFiles(dir, { 'other2/d.autojoin.yaml': 'scope: "d"\nscopeType: team\ncomponentId: cmp_e2e\ndomains: [d.example\n' });
    });
    const cleared = [['clear', 'team/e', 'pruned']];
    const plans = { prune: await changes(dir, ['--prune', 'pol']), pruneFrom: await changes(dir, ['--prune-from', 'HEAD~1', 'pol']) };
    expect(plans).toEqual({ prune: cleared, pruneFrom: cleared });
  });

  it('an outside file that names a scope without its scopeType (and no default) keeps that scope', async () => {
    const dir = await appliedThen(async (dir) => {
      await rm(join(dir, 'pol/d.autojoin.yaml'));
      await rm(join(dir, 'pol/e.autojoin.yaml'));
      await writeFiles(dir, { 'other2/d.autojoin.yaml': 'scope: "d"\ncomponentId: cmp_e2e\ndomains: [d.example]\n' });
    });
    expect(await changes(dir, ['--prune', 'pol'])).toEqual([['clear', 'team/e', 'pruned']]);
  });
});

describe('no empty success', () => {
  it('validate, plan and apply of a path without policy files exit 1 unless --allow-no-policies', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'policies/a.autojoin.yaml': policy('a', ['a.example']), 'empty/README.md': 'nothing here\n' });
    for (const command of [['validate'], ['plan'], ['apply', '--yes']]) {
      const result = await cli([...command, 'policies', 'empty'], { cwd: project.dir, emulator });
      expect(result.code, command.join(' ')).toBe(1);
      expect(result.stderr).toContain('no policy files (autojoin.yaml, *.autojoin.yaml or .yml) under empty;');
      expect(result.stdout).not.toContain('No changes');
    }
    expect(posts(emulator)).toBe(0);
    const allowed = await cli(['plan', '--allow-no-policies', 'empty'], { cwd: project.dir, emulator });
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('No changes. 0 scopes match their policy files.');
  });

  it('with --allow-no-policies and --prune, deleting every policy file clears every scope', async () => {
    emulator = await startTestEmulator();
    const dir = await repoWith({ 'policies/a.autojoin.yaml': policy('a', ['a.example']), 'policies/b.autojoin.yaml': policy('b', ['b.example']) });
    expect((await cli(['apply', '--yes', 'policies'], { cwd: dir, emulator })).code).toBe(0);
    await rm(join(dir, 'policies'), { recursive: true });
    commitAll(dir, 'Retire everything');
    expect(existsSync(join(dir, 'policies'))).toBe(false);
    expect((await cli(['apply', '--yes', '--prune', 'policies'], { cwd: dir, emulator })).code).toBe(1);
    const applied = await cli(['apply', '--yes', '--prune', '--allow-no-policies', 'policies'], { cwd: dir, emulator });
    expect(applied.code, applied.stderr).toBe(0);
    expect(liveDomains(emulator.data(), 'a')).toBeNull();
    expect(liveDomains(emulator.data(), 'b')).toBeNull();
  });
});
