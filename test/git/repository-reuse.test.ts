/**
 * A run reads its base's repository once (issue 50: each git process costs a run system time):
 * the facts read for the ownership marker's commit are reused by pruning from the same
 * directory, and read anew from any other.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseRepository, openRepository, type Repository } from '../../src/git/repository.js';
import { commitAll } from '../support/git.js';
import { tempDirOfTest } from '../support/temp.js';
import { defined } from '../support/defined.js';

function repositoryWithPolicies(): { dir: string; head: string } {
  const dir = tempDirOfTest('repository-reuse-');
  mkdirSync(join(dir, 'policies'));
  writeFileSync(join(dir, 'policies', 'a.autojoin.yaml'), 'scope: a\n');
  return { dir, head: commitAll(dir) };
}

describe('openRepository with the run\'s repository', () => {
  it('reads the same facts as the run read for its base', async () => {
    const { dir, head } = repositoryWithPolicies();
    const known = defined(await baseRepository(dir));
    expect(known).toEqual({ dir, prefix: '', shallow: false, head, cwd: dir });
    expect(await openRepository(['.'], dir, 'pruning')).toEqual(known);
  });

  it('reuses them in the same directory, with the run\'s cwd, and reads git elsewhere', async () => {
    const { dir, head } = repositoryWithPolicies();
    // A head git would never answer: seen only when the facts are reused, not read again.
    const known: Repository = { dir, prefix: '', shallow: false, head: 'f'.repeat(40), cwd: '/elsewhere' };
    expect(await openRepository(['.'], dir, 'pruning', known)).toEqual({ ...known, cwd: dir });
    expect(await openRepository(['policies'], dir, 'pruning', known)).toEqual({ dir: join(dir, 'policies'), prefix: 'policies/', shallow: false, head, cwd: dir });
  });

  it('finds no repository outside git, whatever the run read', async () => {
    const outside = tempDirOfTest('repository-reuse-none-');
    const known: Repository = { dir: outside, prefix: '', shallow: false, head: null, cwd: outside };
    expect(await openRepository(['.'], outside, 'pruning', known)).toBeNull();
    expect(await baseRepository(outside)).toBeUndefined();
  });
});
