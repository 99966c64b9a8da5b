/**
 * The blob reader starts its `cat-file` processes with the first read (issue 50: each git
 * process costs a run system time): a stream closed unread starts none, so a history that
 * replaced no version spawns nothing for blobs. Told apart by a directory git cannot run in.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, git } from '../support/git.js';
import { loggedGitOnPath } from '../support/logged-git.js';
import { streamBlobs, type BlobRead } from '../../src/git/blobs.js';
import { tempDirOfTest } from '../support/temp.js';

function streamIn(cwd: string): ReturnType<typeof streamBlobs> {
  return streamBlobs({ cwd, context: 'blob stream test', maxBytes: 1024 });
}

describe('streamBlobs starts git lazily', () => {
  it('closes without starting git when nothing was read', async () => {
    const gone = join(tempDirOfTest('blob-stream-'), 'gone');
    await expect(streamIn(gone).close()).resolves.toBeUndefined();
  });

  it('starts git on the first read (so a directory git cannot run in fails the close)', async () => {
    const gone = join(tempDirOfTest('blob-stream-'), 'gone');
    const stream = streamIn(gone);
    const reads: BlobRead[] = [];
    stream.read('HEAD:a.yaml', (read) => reads.push(read));
    await expect(stream.close()).rejects.toThrow(/^blob stream test: git cat-file failed/);
    expect(reads).toEqual([]);
  });
});

/**
 * One reader, two ways to ask git: `cat-file --batch-command` (one process), and, for a git older
 * than 2.36 that refuses that option, `--batch-check` then `--batch` (two). The same reads give the
 * same answers, in the same order, either way. The old git is this git behind a `git` on PATH that
 * refuses `--batch-command` as git 2.34 does (test/support/logged-git.ts).
 */
describe('streamBlobs with and without --batch-command', () => {
  const repository = (): { dir: string; blobs: Record<string, string> } => {
    const dir = tempDirOfTest('blob-stream-repo-');
    writeFileSync(join(dir, 'a.yaml'), 'scope: a\n');
    writeFileSync(join(dir, 'my file.yaml'), 'scope: spaced\n');
    writeFileSync(join(dir, 'large.yaml'), `${'x'.repeat(2000)}\n`);
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'b.yaml'), '');
    commitAll(dir);
    return { dir, blobs: { a: git(dir, 'rev-parse', 'HEAD:a.yaml') } };
  };

  async function readAll(dir: string, names: string[]): Promise<string[]> {
    const stream = streamBlobs({ cwd: dir, context: 'blob stream test', maxBytes: 1024 });
    const answers: string[] = [];
    const describe = (name: string, read: BlobRead): string => `${name} ${read.kind === 'blob' ? JSON.stringify(read.bytes.toString('utf8')) : read.kind === 'too-large' ? `too-large ${read.size}` : 'missing'}`;
    for (const name of names) stream.read(name, (read) => answers.push(describe(name, read)));
    // A second batch, asked after the first was sent.
    await new Promise((resolve) => setImmediate(resolve));
    stream.read('HEAD:sub/b.yaml', (read) => answers.push(describe('HEAD:sub/b.yaml', read)));
    await stream.close();
    return answers;
  }

  const NAMES = ['HEAD:a.yaml', 'HEAD:large.yaml', 'HEAD:gone.yaml', 'HEAD:sub', 'HEAD:my file.yaml'];
  const EXPECTED = ['HEAD:large.yaml too-large 2001', 'HEAD:gone.yaml missing', 'HEAD:sub missing', 'HEAD:a.yaml "scope: a\\n"', 'HEAD:my file.yaml "scope: spaced\\n"', 'HEAD:sub/b.yaml ""'];

  it('reads blobs, tells too-large and missing apart, with one git process', async () => {
    const { dir, blobs } = repository();
    const calls = loggedGitOnPath();
    expect(await readAll(dir, [...NAMES, blobs.a as string])).toEqual([...EXPECTED.slice(0, 5), `${blobs.a} "scope: a\\n"`, EXPECTED[5]]);
    expect(calls()).toEqual(['cat-file --batch-command --buffer']);
  });

  it('gives the same answers through --batch-check and --batch when git refuses --batch-command', async () => {
    const { dir } = repository();
    const calls = loggedGitOnPath({ refuse: '--batch-command' });
    expect(await readAll(dir, NAMES)).toEqual(EXPECTED);
    // The two processes start together: their lines may come in either order.
    expect(calls().sort()).toEqual(['cat-file --batch --buffer', 'cat-file --batch-check=%(objecttype) %(objectsize) --buffer', 'cat-file --batch-command --buffer']);
  });

  it('does not fall back when git fails for another reason (not a repository)', async () => {
    const notRepository = tempDirOfTest('blob-stream-plain-');
    const calls = loggedGitOnPath();
    await expect(readAll(notRepository, ['HEAD:a.yaml'])).rejects.toThrow(/^blob stream test: git cat-file failed: fatal: not a git repository/);
    expect(calls()).toEqual(['cat-file --batch-command --buffer']);
  });
});
