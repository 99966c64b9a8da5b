/**
 * findPruned and undeclaredInHistory against real git repositories in temp dirs (no service):
 * which scopes history (or `--prune-from REV`) holds that no file declares now, what `prune.keep`
 * releases, and which candidates a policy file outside the paths keeps (named with file and line).
 * Written for the mutation score of src/history/prune.ts (docs/testing.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findPruned, undeclaredInHistory, type PruneContext } from '../../src/history/prune.js';
import { GitRevisionError } from '../../src/git/command.js';
import type { ProjectConfig } from '../../src/policy/types.js';
import type { ScopeKey } from '../../src/scope.js';
import { writeFiles } from '../support/temp.js';
import { commitChanges, git } from '../support/git.js';
import { defined } from '../support/defined.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'prune-find-'));
  dirs.push(dir);
  return dir;
}

const policy = (scope: string, scopeType = 'team'): string => `scope: ${scope}\nscopeType: ${scopeType}\ncomponentId: c1\ndomains:\n  - ${scope}.example.com\n`;


/** A repository whose commits are `steps` in order (null removes a file); @returns it and each commit. */
function repoOf(...steps: Record<string, string | null>[]): { dir: string; commits: string[] } {
  const dir = tempDir();
  git(dir, 'init', '-q', '-b', 'main');
  const commits = steps.map((files, index) => {
    writeFiles(dir, files);
    return commitChanges(dir, `step ${index}`);
  });
  return { dir, commits };
}

const context = (cwd: string, project: ProjectConfig = {}, paths = ['policies']): PruneContext => ({ paths, cwd, project });
const keys = (...list: string[]): Set<ScopeKey> => new Set(list);

describe('findPruned from history', () => {
  it('prunes a scope whose file history replaced, not one declared now; nothing without a request', async () => {
    const { dir } = repoOf({ 'policies/a.autojoin.yaml': policy('a'), 'policies/b.autojoin.yaml': policy('b') }, { 'policies/b.autojoin.yaml': null });
    const found = await findPruned({ history: true }, context(dir), keys('team/a'));
    expect(found.pruned.map((entry) => entry.key)).toEqual(['team/b']);
    expect(found.pruned[0]).toMatchObject({ scope: 'b', scopeType: 'team', componentId: 'c1', domains: [] });
    expect(found.diagnostics).toEqual([]);
    expect(found.outside).toEqual([]);
    expect(await findPruned({}, context(dir), keys('team/a'))).toEqual({ pruned: [], diagnostics: [] });
    expect(await findPruned({ history: false }, context(dir), keys('team/a'))).toEqual({ pruned: [], diagnostics: [] });
    expect((await findPruned({ history: true }, context(dir), keys('team/a', 'team/b'))).pruned).toEqual([]);
  });

  it('prune.keep releases the scopes it names, and only those', async () => {
    const { dir } = repoOf({ 'policies/a.autojoin.yaml': policy('a'), 'policies/b.autojoin.yaml': policy('b'), 'policies/c.autojoin.yaml': policy('c') }, { 'policies/b.autojoin.yaml': null, 'policies/c.autojoin.yaml': null });
    const found = await findPruned({ history: true }, context(dir, { prune: { keep: ['team/b'] } }), keys('team/a'));
    expect(found.pruned.map((entry) => entry.key)).toEqual(['team/c']);
    const all = await findPruned({ history: true }, context(dir, { prune: true }), keys('team/a'));
    expect(all.pruned.map((entry) => entry.key).sort()).toEqual(['team/b', 'team/c']);
  });

  it('passes on the warnings of what it read: a past version holding a secret declares nothing', async () => {
    const secret = 'sk-live-0123456789abcdefghijklmnop';
    const { dir } = repoOf({ 'policies/a.autojoin.yaml': policy('a'), 'policies/b.autojoin.yaml': `${policy('b')}description: ${secret}\n` }, { 'policies/b.autojoin.yaml': null });
    const found = await findPruned({ history: true }, { ...context(dir), secrets: [{ name: 'TOKEN', value: secret }] }, keys('team/a'));
    expect(found.pruned).toEqual([]);
    expect(found.diagnostics.map((d) => d.code)).toEqual(['secret-in-history']);
    expect(JSON.stringify(found.diagnostics)).not.toContain(secret);
  });

  it('a git failure names pruning', async () => {
    const { dir } = repoOf({ 'policies/a.autojoin.yaml': policy('a') });
    rmSync(path.join(dir, '.git', 'objects'), { recursive: true, force: true });
    await expect(findPruned({ history: true }, context(dir), keys('team/a'))).rejects.toThrow(/^pruning: git /);
  });

  it('a prune setting without keep keeps nothing', async () => {
    const { dir } = repoOf({ 'policies/a.autojoin.yaml': policy('a'), 'policies/b.autojoin.yaml': policy('b') }, { 'policies/b.autojoin.yaml': null });
    expect((await findPruned({ history: true }, context(dir, { prune: { history: true } }), keys('team/a'))).pruned.map((entry) => entry.key)).toEqual(['team/b']);
  });

  it('outside git there is no history: nothing is pruned', async () => {
    const dir = tempDir();
    writeFiles(dir, { 'policies/a.autojoin.yaml': policy('a') });
    expect(await findPruned({ history: true }, context(dir), keys('team/a'))).toEqual({ pruned: [], diagnostics: [], outside: [] });
    expect(await undeclaredInHistory(context(dir), keys('team/a'))).toEqual([]);
  });
});

describe('findPruned --prune-from REV', () => {
  it('prunes the scopes declared at REV only, not the rest of history', async () => {
    const { dir, commits } = repoOf(
      { 'policies/a.autojoin.yaml': policy('a'), 'policies/b.autojoin.yaml': policy('b') },
      { 'policies/b.autojoin.yaml': null, 'policies/c.autojoin.yaml': policy('c') },
      { 'policies/c.autojoin.yaml': null },
    );
    const at = async (rev: string): Promise<string[]> => (await findPruned({ from: rev, history: true }, context(dir), keys('team/a'))).pruned.map((entry) => entry.key);
    expect(await at(defined(commits[0]))).toEqual(['team/b']);
    expect(await at(defined(commits[1]))).toEqual(['team/c']);
    expect(await at(defined(commits[2]))).toEqual([]);
    expect((await findPruned({ history: true }, context(dir), keys('team/a'))).pruned.map((entry) => entry.key).sort()).toEqual(['team/b', 'team/c']);
  });

  it('the null revision (a first push) prunes nothing; a revision that is no revision is refused', async () => {
    const { dir } = repoOf({ 'policies/a.autojoin.yaml': policy('a'), 'policies/b.autojoin.yaml': policy('b') }, { 'policies/b.autojoin.yaml': null });
    expect(await findPruned({ from: '0'.repeat(40) }, context(dir), keys('team/a'))).toEqual({ pruned: [], diagnostics: [], outside: [] });
    await expect(findPruned({ from: '--output=x' }, context(dir), keys('team/a'))).rejects.toThrow(GitRevisionError);
    await expect(findPruned({ from: '--output=x' }, context(dir), keys('team/a'))).rejects.toThrow('pruneFrom: "--output=x" is not a git revision');
    await expect(findPruned({ from: 'no-such-branch' }, context(dir), keys('team/a'))).rejects.toThrow(/^pruneFrom: no-such-branch: git ls-tree failed/);
  });

  it('outside git it is refused, naming the revision and why', async () => {
    const dir = tempDir();
    writeFiles(dir, { 'policies/a.autojoin.yaml': policy('a') });
    const refused = findPruned({ from: 'HEAD~1' }, context(dir), keys('team/a'));
    await expect(refused).rejects.toThrow(GitRevisionError);
    await expect(findPruned({ from: 'HEAD~1' }, context(dir), keys('team/a'))).rejects.toThrow(/^pruneFrom: HEAD~1: the policy paths are not in a git repository$/);
  });
});

describe('a policy file outside the paths keeps a candidate', () => {
  const history = (outside: Record<string, string | null>): { dir: string } =>
    repoOf({ 'policies/a.autojoin.yaml': policy('a'), 'policies/b.autojoin.yaml': policy('b'), 'policies/c.autojoin.yaml': policy('c') }, { 'policies/b.autojoin.yaml': null, 'policies/c.autojoin.yaml': null, ...outside });

  it('names the file and the line of the document that declares it, sorted by key; the others are pruned', async () => {
    const { dir } = history({
      'other/two.autojoin.yaml': `${policy('z')}---\n${policy('c')}`,
      'other/b.autojoin.yaml': policy('b'),
      'other/w.autojoin.yaml': policy('b', 'workspace'),
    });
    const found = await findPruned({ history: true }, context(dir), keys('team/a'));
    expect(found.pruned).toEqual([]);
    expect(found.outside).toEqual([
      { key: 'team/b', file: 'other/b.autojoin.yaml', line: 1 },
      { key: 'team/c', file: 'other/two.autojoin.yaml', line: 7 },
    ]);
  });

  it('the first file that declares a key is the one named; the list is sorted by key, not by file', async () => {
    const { dir } = repoOf(
      { 'policies/a.autojoin.yaml': policy('a'), 'policies/c.autojoin.yaml': policy('c'), 'policies/d.autojoin.yaml': policy('d'), 'policies/e.autojoin.yaml': policy('e') },
      { 'policies/c.autojoin.yaml': null, 'policies/d.autojoin.yaml': null, 'policies/e.autojoin.yaml': null },
      { 'other/1.autojoin.yaml': policy('e'), 'other/2.autojoin.yaml': policy('d'), 'other/3.autojoin.yaml': policy('c'), 'other/4.autojoin.yaml': `${policy('x')}---\n${policy('e')}` },
    );
    const found = await findPruned({ history: true }, context(dir), keys('team/a'));
    expect(found.pruned).toEqual([]);
    expect(found.outside).toEqual([
      { key: 'team/c', file: 'other/3.autojoin.yaml', line: 1 },
      { key: 'team/d', file: 'other/2.autojoin.yaml', line: 1 },
      { key: 'team/e', file: 'other/1.autojoin.yaml', line: 1 },
    ]);
  });

  it('a file under the paths is never read as outside, not even leniently', async () => {
    const { dir } = history({ 'policies/broken.autojoin.yaml': `scope: b\ndomains: [unclosed\n` });
    const found = await findPruned({ history: true }, context(dir), keys('team/a'));
    expect(found.pruned.map((entry) => entry.key).sort()).toEqual(['team/b', 'team/c']);
    expect(found.outside).toEqual([]);
  });

  it('a file under any of several paths is never read as outside', async () => {
    const { dir } = history({ 'more/broken.autojoin.yaml': `scope: b\ndomains: [unclosed\n` });
    const found = await findPruned({ history: true }, context(dir, {}, ['policies', 'more']), keys('team/a'));
    expect(found.pruned.map((entry) => entry.key).sort()).toEqual(['team/b', 'team/c']);
    expect(found.outside).toEqual([]);
  });

  it('one document naming no type makes the whole file read leniently; one naming no scope does not', async () => {
    const { dir } = history({
      'other/mixed.autojoin.yaml': `${policy('z')}---\nscope: c\ncomponentId: c1\n`,
      'other/typed.autojoin.yaml': `${policy('b', 'workspace')}---\ncomponentId: c1\ndomains: []\n`,
    });
    const found = await findPruned({ history: true }, context(dir), keys('team/a'));
    expect(found.pruned.map((entry) => entry.key)).toEqual(['team/b']);
    expect(found.outside).toEqual([{ key: 'team/c', file: 'other/mixed.autojoin.yaml', line: 7 }]);
  });

  it('paths are shown relative to the run’s folder, with forward slashes', async () => {
    const { dir } = history({ 'other/deep/b.autojoin.yaml': policy('b') });
    writeFiles(dir, { 'sub/.keep': '' });
    const found = await findPruned({ history: true }, context(path.join(dir, 'sub'), {}, ['../policies']), keys('team/a'));
    expect(found.pruned.map((entry) => entry.key)).toEqual(['team/c']);
    expect(found.outside).toEqual([{ key: 'team/b', file: '../other/deep/b.autojoin.yaml', line: 1 }]);
  });

  it('another type with the same id keeps nothing, nor a clean file naming the id under another key', async () => {
    const { dir } = history({ 'other/w.autojoin.yaml': policy('b', 'workspace'), 'other/x.autojoin.yaml': `name: b\nscope: q\nscopeType: team\ncomponentId: c1\ndomains: []\n` });
    const found = await findPruned({ history: true }, context(dir), keys('team/a'));
    expect(found.pruned.map((entry) => entry.key).sort()).toEqual(['team/b', 'team/c']);
    expect(found.outside).toEqual([]);
  });

  it('a file with YAML errors, or a document naming no type, keeps every candidate whose id a top-level scope key names', async () => {
    const { dir } = history({
      'other/broken.autojoin.yaml': `componentId: c1\nscope: b\ndomains: [unclosed\n`,
      'other/untyped.autojoin.yaml': `# no type\n\nscope: c\ncomponentId: c1\n`,
    });
    const found = await findPruned({ history: true }, context(dir), keys('team/a'));
    expect(found.pruned).toEqual([]);
    expect(found.outside).toEqual([
      { key: 'team/b', file: 'other/broken.autojoin.yaml', line: 2 },
      { key: 'team/c', file: 'other/untyped.autojoin.yaml', line: 3 },
    ]);
  });

  it('in a lenient read only a top-level scope key with a plain value counts', async () => {
    const { dir } = history({
      'other/broken.autojoin.yaml': `name: b\nother:\n  scope: b\nscope: [c]\ndomains: [unclosed\n`,
      'other/list.autojoin.yaml': `- scope: b\n- scope: c\n`,
    });
    const found = await findPruned({ history: true }, context(dir), keys('team/a'));
    expect(found.pruned.map((entry) => entry.key).sort()).toEqual(['team/b', 'team/c']);
    expect(found.outside).toEqual([]);
  });

  it('a file under the paths is not read as outside: with the paths at the root, every candidate is pruned', async () => {
    const { dir } = repoOf({ 'a.autojoin.yaml': policy('a'), 'b.autojoin.yaml': policy('b') }, { 'b.autojoin.yaml': null });
    const found = await findPruned({ history: true }, context(dir, {}, ['.']), keys('team/a'));
    expect(found.pruned.map((entry) => entry.key)).toEqual(['team/b']);
    expect(found.outside).toEqual([]);
  });
});

describe('undeclaredInHistory', () => {
  it('lists the keys pruning would consider, sorted, whatever order history gives them', async () => {
    const first = repoOf({ 'policies/a.autojoin.yaml': policy('a'), 'policies/m.autojoin.yaml': policy('m'), 'policies/z.autojoin.yaml': policy('z') }, { 'policies/z.autojoin.yaml': null }, { 'policies/m.autojoin.yaml': null });
    const second = repoOf({ 'policies/a.autojoin.yaml': policy('a'), 'policies/m.autojoin.yaml': policy('m'), 'policies/z.autojoin.yaml': policy('z') }, { 'policies/m.autojoin.yaml': null }, { 'policies/z.autojoin.yaml': null });
    expect(await undeclaredInHistory(context(first.dir), keys('team/a'))).toEqual(['team/m', 'team/z']);
    expect(await undeclaredInHistory(context(second.dir), keys('team/a'))).toEqual(['team/m', 'team/z']);
    expect(await undeclaredInHistory(context(second.dir, { prune: { keep: ['team/m'] } }), keys('team/a'))).toEqual(['team/z']);
  });

  it('a shallow clone gives null (not known) here, and a refusal to prune; any other error is thrown', async () => {
    const { dir } = repoOf({ 'policies/a.autojoin.yaml': policy('a'), 'policies/b.autojoin.yaml': policy('b') }, { 'policies/b.autojoin.yaml': null });
    const shallow = path.join(tempDir(), 'clone');
    git(dir, 'clone', '-q', '--depth', '1', `file://${dir}`, shallow);
    expect(await undeclaredInHistory(context(shallow), keys('team/a'))).toBeNull();
    await expect(findPruned({ history: true }, context(shallow), keys('team/a'))).rejects.toThrow(/shallow clone/);
    const badProject = { prune: { keep: ['not a key'] } } as ProjectConfig;
    const { dir: other } = repoOf({ 'policies/a.autojoin.yaml': policy('a'), 'policies/b.autojoin.yaml': policy('b') }, { 'policies/b.autojoin.yaml': null });
    await expect(undeclaredInHistory(context(other, badProject), keys('team/a'))).rejects.toThrow();
  });
});
