/**
 * A file the user names by a relative path (`plan --out`, `apply --plan`) is found from
 * process.cwd(), the run's directory, never from the OS's working directory. The two differ in a
 * worker thread, where an in-process run cannot chdir (test/support/in-process.ts): there a saved
 * plan once landed in the OS directory's `.git/`, outside the run's repository.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRegularFile, writeFileAtomic } from '../../src/files.js';
import { tempDirOfTest } from '../support/temp.js';

const realCwd = process.cwd.bind(process);
const home = process.cwd();
afterEach(() => {
  process.cwd = realCwd;
  process.chdir(home);
});

describe('relative paths from the run\'s directory', () => {
  it('writes and reads `sub/plan.json` in the run\'s directory, naming the file as given', async () => {
    const run = tempDirOfTest('run-directory-');
    const elsewhere = tempDirOfTest('os-directory-');
    mkdirSync(path.join(run, 'sub'));
    mkdirSync(path.join(elsewhere, 'sub'));
    process.chdir(elsewhere);
    process.cwd = () => run;
    await writeFileAtomic('sub/plan.json', '{"a":1}');
    expect(existsSync(path.join(run, 'sub/plan.json'))).toBe(true);
    expect(existsSync(path.join(elsewhere, 'sub/plan.json'))).toBe(false);
    expect((await readRegularFile('sub/plan.json', { maxBytes: 100 })).toString('utf8')).toBe('{"a":1}');
    await expect(readRegularFile('sub/none.json', { maxBytes: 100 })).rejects.toThrow(/^cannot read file sub\/none\.json: /u);
    await expect(writeFileAtomic('gone/plan.json', '{}')).rejects.toThrow('cannot write gone/plan.json: the directory gone does not exist (create it first)');
  });
});
