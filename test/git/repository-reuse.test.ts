/**
 * A run reads its base's repository once (issue 50: each git process costs a run system time):
 * the facts read for the ownership marker's commit are reused by pruning from the same
 * directory, and read anew from any other.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
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

  it('reuses them in the same directory and in a folder below it (a project of a monorepo), with the run\'s cwd', async () => {
    const { dir } = repositoryWithPolicies();
    // A head git would never answer: seen only when the facts are reused, not read again.
    const known: Repository = { dir, prefix: '', shallow: false, head: 'f'.repeat(40), cwd: '/elsewhere' };
    expect(await openRepository(['.'], dir, 'pruning', known)).toEqual({ ...known, cwd: dir });
    expect(await openRepository(['policies'], dir, 'pruning', known)).toEqual({ ...known, dir: join(dir, 'policies'), prefix: 'policies/', cwd: dir });
    const inner: Repository = { ...known, dir: join(dir, 'policies'), prefix: 'policies/' };
    mkdirSync(join(dir, 'policies', 'eng'));
    expect(await openRepository(['eng'], join(dir, 'policies'), 'pruning', inner)).toEqual({ ...known, dir: join(dir, 'policies', 'eng'), prefix: 'policies/eng/', cwd: join(dir, 'policies') });
  });

  it('reads git again above the run\'s directory, through a symbolic link, and in another repository below it', async () => {
    const { dir, head } = repositoryWithPolicies();
    const known: Repository = { dir: join(dir, 'policies'), prefix: 'policies/', shallow: false, head: 'f'.repeat(40), cwd: dir };
    expect(await openRepository(['.'], dir, 'pruning', known)).toEqual({ dir, prefix: '', shallow: false, head, cwd: dir });
    const root: Repository = { ...known, dir, prefix: '' };
    symlinkSync(join(dir, 'policies'), join(dir, 'linked'));
    expect(await openRepository(['linked'], dir, 'pruning', root)).toEqual({ dir: join(dir, 'linked'), prefix: 'policies/', shallow: false, head, cwd: dir });
    const nested = join(dir, 'vendored');
    mkdirSync(nested);
    writeFileSync(join(nested, 'b.autojoin.yaml'), 'scope: b\n');
    const nestedHead = commitAll(nested);
    expect(await openRepository(['vendored'], dir, 'pruning', root)).toEqual({ dir: nested, prefix: '', shallow: false, head: nestedHead, cwd: dir });
  });

  it('finds no repository outside git, whatever the run read', async () => {
    const outside = tempDirOfTest('repository-reuse-none-');
    const known: Repository = { dir: outside, prefix: '', shallow: false, head: null, cwd: outside };
    expect(await openRepository(['.'], outside, 'pruning', known)).toBeNull();
    expect(await baseRepository(outside)).toBeUndefined();
  });
});
