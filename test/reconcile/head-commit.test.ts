/** The commit an ownership marker records: HEAD of the policy paths' repository, none outside git. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseRepository, headCommit } from '../../src/git/repository.js';
import { commitAll, git } from '../support/git.js';
import { tempDirOfTest } from '../support/temp.js';

describe('headCommit', () => {
  it('is the full id of HEAD, from a subdirectory too', async () => {
    const dir = tempDirOfTest('head-');
    mkdirSync(join(dir, 'policies'));
    writeFileSync(join(dir, 'policies', 'a.autojoin.yaml'), 'scope: a\n');
    const head = commitAll(dir);
    expect(headCommit(await baseRepository(dir))).toBe(head);
    expect(headCommit(await baseRepository(join(dir, 'policies')))).toBe(head);
  });

  it('is undefined outside git and before the first commit', async () => {
    const outside = tempDirOfTest('head-none-');
    expect(headCommit(await baseRepository(outside))).toBeUndefined();
    git(outside, 'init', '-q');
    expect(headCommit(await baseRepository(outside))).toBeUndefined();
  });
});
