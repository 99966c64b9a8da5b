import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isNullRevision } from '../../src/git/command.js';
import { readBlobs, type BlobRead } from '../../src/git/blobs.js';
import { openRepository } from '../../src/git/repository.js';
import { historyPaths, versionsAt } from '../../src/history/policy-tree.js';
import { tempProject } from './support.js';
import { git } from '../support/git.js';

let project: { dir: string; cleanup: () => Promise<void> } | undefined;
afterEach(async () => project?.cleanup());

async function filesAt(rev: string, paths: string[], cwd: string): Promise<string[]> {
  const repository = await openRepository(paths, cwd, `--prune-from ${rev}`);
  if (!repository) throw new Error('no repository');
  const historical = historyPaths(repository, paths);
  return historical ? (await versionsAt(repository, rev, historical, { order: 0, context: `--prune-from ${rev}` })).map((version) => version.file) : [];
}

describe('versionsAt (real git)', () => {
  it('lists policy files by the loader name rule, odd names included, from the repository root', async () => {
    project = await tempProject({
      'p/autojoin.yaml': 'scope: root\n',
      'p/sub dir/tëam one.autojoin.yml': 'scope: one\n',
      'p/notes.yaml': 'not a policy\n',
      'p/odd-name.yaml': 'scope: odd\n',
      'p/node_modules/x.autojoin.yaml': 'scope: skipped\n',
      'other/x.autojoin.yaml': 'scope: x\n',
    });
    git(project.dir, 'init', '-q');
    git(project.dir, 'add', '.');
    git(project.dir, 'commit', '-q', '-m', 'one');
    expect(await filesAt('HEAD', ['p'], project.dir)).toEqual(['p/autojoin.yaml', 'p/sub dir/tëam one.autojoin.yml']);
    // A file named explicitly is read whatever its name, as the loader does.
    expect(await filesAt('HEAD', ['p/odd-name.yaml'], project.dir)).toEqual(['p/odd-name.yaml']);
    // From a subdirectory, the same files.
    expect(await filesAt('HEAD', ['.'], join(project.dir, 'other'))).toEqual(['other/x.autojoin.yaml']);
  });

  it('names the revision when git cannot read it', async () => {
    project = await tempProject({ 'a.autojoin.yaml': 'scope: a\n' });
    git(project.dir, 'init', '-q');
    await expect(filesAt('main~5', ['.'], project.dir)).rejects.toThrow(/^--prune-from main~5: git ls-tree failed: /);
  });

  it('treats an all-zero revision (a new branch in GitHub) as no revision', () => {
    expect(isNullRevision('0000000000000000000000000000000000000000')).toBe(true);
    expect(isNullRevision('HEAD~1')).toBe(false);
  });
});

describe('readBlobs (real git)', () => {
  it('reads blobs under the cap, and only sizes the others', async () => {
    project = await tempProject({ 'small.txt': 'small\n', 'large.txt': 'x'.repeat(5000) });
    git(project.dir, 'init', '-q');
    git(project.dir, 'add', '.');
    git(project.dir, 'commit', '-q', '-m', 'one');
    const reads = new Map<string, BlobRead>();
    await readBlobs(['HEAD:small.txt', 'HEAD:large.txt', 'HEAD:missing.txt'], { cwd: project.dir, context: 'test', maxBytes: 1000 }, (name, read) => reads.set(name, read));
    expect(reads.get('HEAD:small.txt')).toEqual({ kind: 'blob', bytes: Buffer.from('small\n') });
    expect(reads.get('HEAD:large.txt')).toEqual({ kind: 'too-large', size: 5000 });
    expect(reads.get('HEAD:missing.txt')).toEqual({ kind: 'missing' });
  });
});
