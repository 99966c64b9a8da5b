/**
 * Blob contents are read by one reader, {@link readBlobs}: sizes first (`cat-file --batch-check`),
 * then only the blobs under the cap, parsed as they stream, so memory stays bounded whatever the
 * repository holds.
 */
import { startGit, type GitOptions, type GitProcess } from './command.js';

/** What {@link readBlobs} hands over for each object asked for. */
export type BlobRead =
  | { kind: 'blob'; bytes: Buffer }
  | { kind: 'too-large'; size: number }
  /** Not in the repository, or not a blob. */
  | { kind: 'missing' };

/** Reads blobs as they are asked for; `close` once every `read` is made, and await it. */
export interface BlobStream {
  /** Asks for an object (an id, or a name such as `REV:path`); `onRead` gets it, once. */
  read(name: string, onRead: (read: BlobRead) => void): void;
  /** No more reads: settles once every answer was handed over (rejects when git fails). */
  close(): Promise<void>;
}

/**
 * Reads blobs with two git processes however many there are, streaming both ways: `cat-file
 * --batch-check` gives each object's type and size, and only blobs of at most `maxBytes` go on to
 * `cat-file --batch`, whose output is parsed as it arrives. Larger blobs are never read; memory
 * holds one blob at a time. Answers come in the order asked among the blobs read; a blob that is
 * not read (too large, missing) is answered as soon as its size is known. The processes start with
 * the first read: a stream never read from (a history that replaced no version) starts none.
 */
export function streamBlobs(options: GitOptions & { maxBytes: number }): BlobStream {
  const checking: Asked[] = [];
  let git: BlobProcesses | undefined;
  // Names asked for in one turn of the event loop go to git in one write.
  let asked: string[] = [];
  const send = (): void => {
    if (asked.length > 0) void (git ??= startBlobProcesses(options, checking)).check.write(`${asked.join('\n')}\n`);
    asked = [];
  };
  return {
    read(name, onRead) {
      checking.push({ name, onRead });
      if (asked.push(name) === 1) setImmediate(send);
    },
    async close() {
      send();
      if (!git) return;
      const { check, contents } = git;
      check.end();
      await check.done.finally(() => contents.end());
      await contents.done;
    },
  };
}

interface Asked {
  name: string;
  onRead: (read: BlobRead) => void;
}

interface BlobProcesses {
  check: GitProcess;
  contents: GitProcess;
}

/** Starts the two `cat-file` processes of {@link streamBlobs}; `checking` holds the names written to `check`, unanswered. */
function startBlobProcesses(options: GitOptions & { maxBytes: number }, checking: Asked[]): BlobProcesses {
  const reading: ((read: BlobRead) => void)[] = [];
  const contents = startGit(['cat-file', '--batch', '--buffer'], {
    ...options,
    onData: batchParser((bytes) => reading.shift()?.(bytes ? { kind: 'blob', bytes } : { kind: 'missing' })),
  });
  let pending = '';
  const check = startGit(['cat-file', '--batch-check=%(objecttype) %(objectsize)', '--buffer'], {
    ...options,
    onData: (chunk) => {
      const lines = (pending + chunk.toString('latin1')).split('\n');
      pending = lines.pop() ?? '';
      const wanted: string[] = [];
      for (const line of lines) {
        const asked = checking.shift();
        if (!asked) continue;
        const [type, size] = line.split(' ');
        if (type !== 'blob') asked.onRead({ kind: 'missing' });
        else if (Number(size) > options.maxBytes) asked.onRead({ kind: 'too-large', size: Number(size) });
        else {
          reading.push(asked.onRead);
          wanted.push(asked.name);
        }
      }
      if (wanted.length > 0) void contents.write(`${wanted.join('\n')}\n`);
    },
  });
  // A failure before `close` is told by `close` (not as an unhandled rejection meanwhile).
  for (const git of [check, contents]) git.done.catch(() => undefined);
  return { check, contents };
}

/**
 * Reads `names` through {@link streamBlobs}.
 * @param onBlob called once per name
 */
export async function readBlobs(names: readonly string[], options: GitOptions & { maxBytes: number }, onBlob: (name: string, read: BlobRead) => void): Promise<void> {
  if (names.length === 0) return;
  const stream = streamBlobs(options);
  for (const name of names) stream.read(name, (read) => onBlob(name, read));
  await stream.close();
}

/**
 * @returns a push parser of `cat-file --batch` output (`OID TYPE SIZE\n<content>\n` per object)
 * calling `onContent` with each object's content; memory is one object plus one chunk.
 */
function batchParser(onContent: (bytes: Buffer | null) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let body: { bytes: Buffer; filled: number } | null = null;
  return (chunk) => {
    let data = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    pending = Buffer.alloc(0);
    while (data.length > 0) {
      if (body === null) {
        const end = data.indexOf(0x0a);
        if (end < 0) {
          pending = Buffer.from(data);
          return;
        }
        const size = Number(data.subarray(0, end).toString('latin1').split(' ')[2]);
        data = data.subarray(end + 1);
        // `NAME missing`: gone since the size check (it cannot be, for an object id); nothing follows.
        if (!Number.isInteger(size)) {
          onContent(null);
          continue;
        }
        body = { bytes: Buffer.allocUnsafe(size + 1), filled: 0 };
      }
      const take = Math.min(body.bytes.length - body.filled, data.length);
      data.copy(body.bytes, body.filled, 0, take);
      body.filled += take;
      data = data.subarray(take);
      if (body.filled === body.bytes.length) {
        // The content, without the newline that ends each object.
        onContent(body.bytes.subarray(0, body.bytes.length - 1));
        body = null;
      }
    }
  };
}
