/** The commit an ownership marker records: HEAD of the policy paths' repository, none outside git. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headCommit } from '../../src/git/command.js';
import { commitAll, git } from '../support/git.js';
import { tempDirOfTest } from '../support/temp.js';

describe('headCommit', () => {
  it('is the full id of HEAD, from a subdirectory too', async () => {
    const dir = tempDirOfTest('head-');
    mkdirSync(join(dir, 'policies'));
    writeFileSync(join(dir, 'policies', 'a.autojoin.yaml'), 'scope: a\n');
    const head = commitAll(dir);
    expect(await headCommit(dir)).toBe(head);
    expect(await headCommit(join(dir, 'policies'))).toBe(head);
  });

  it('is undefined outside git and before the first commit', async () => {
    const outside = tempDirOfTest('head-none-');
    expect(await headCommit(outside)).toBeUndefined();
    git(outside, 'init', '-q');
    expect(await headCommit(outside)).toBeUndefined();
  });
});
