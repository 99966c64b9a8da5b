import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readPolicySourcesAt, isNullRevision } from '../../src/reconcile/git.js';
import { tempProject } from './support.js';
import { git } from '../support/git.js';

let project: { dir: string; cleanup: () => Promise<void> } | undefined;
afterEach(async () => project?.cleanup());


describe('readPolicySourcesAt (real git)', () => {
  it('reads policy files by the loader name rule, odd names included, relative to cwd', async () => {
    project = await tempProject({
      'p/autojoin.yaml': 'scope: root\n',
      'p/sub dir/tëam one.autojoin.yml': 'scope: one\n',
      'p/notes.yaml': 'not a policy\n',
      'p/odd-name.yaml': 'scope: odd\n',
      'other/x.autojoin.yaml': 'scope: x\n',
    });
    git(project.dir, 'init', '-q');
    git(project.dir, 'add', '.');
    git(project.dir, 'commit', '-q', '-m', 'one');
    expect(await readPolicySourcesAt('HEAD', ['p'], project.dir)).toEqual([
      { file: 'p/autojoin.yaml', text: 'scope: root\n' },
      { file: 'p/sub dir/tëam one.autojoin.yml', text: 'scope: one\n' },
    ]);
    // A file named explicitly is read whatever its name, as the loader does.
    expect(await readPolicySourcesAt('HEAD', ['p/odd-name.yaml'], project.dir)).toEqual([{ file: 'p/odd-name.yaml', text: 'scope: odd\n' }]);
    // From a subdirectory, names stay relative to cwd.
    expect(await readPolicySourcesAt('HEAD', ['.'], join(project.dir, 'other'))).toEqual([{ file: 'x.autojoin.yaml', text: 'scope: x\n' }]);
  });

  it('names the revision when git cannot read it', async () => {
    project = await tempProject({ 'a.autojoin.yaml': 'scope: a\n' });
    git(project.dir, 'init', '-q');
    await expect(readPolicySourcesAt('main~5', ['.'], project.dir)).rejects.toThrow(/^--prune-from main~5: git ls-tree failed: /);
    await expect(readPolicySourcesAt('--output=x', ['.'], project.dir)).rejects.toThrow('is not a git revision');
  });

  it('treats an all-zero revision (a new branch in GitHub) as no revision', () => {
    expect(isNullRevision('0000000000000000000000000000000000000000')).toBe(true);
    expect(isNullRevision('HEAD~1')).toBe(false);
  });
});
