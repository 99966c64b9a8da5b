/**
 * The blob reader starts its `cat-file` processes with the first read (issue 50: each git
 * process costs a run system time): a stream closed unread starts none, so a history that
 * replaced no version spawns nothing for blobs. Told apart by a directory git cannot run in.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
