/**
 * Blob contents are read by one reader, {@link streamBlobs}: sizes first, then only the blobs
 * under the cap, parsed as they stream, so memory stays bounded whatever the repository holds.
 */
import { GitFailedError, startGit, type GitOptions, type GitProcess } from './command.js';

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
 * Reads blobs with one git process however many there are, streaming both ways: `cat-file
 * --batch-command` tells each object's type and size (`info`), and only blobs of at most `maxBytes`
 * are then asked for (`contents`), their content parsed as it arrives. Larger blobs are never read;
 * memory holds one blob at a time. Answers come in the order asked among the blobs read; a blob
 * that is not read (too large, missing) is answered as soon as its size is known. The process
 * starts with the first read: a stream never read from (a history that replaced no version) starts
 * none. A git older than 2.36, without `--batch-command`, is read with two processes instead
 * (`--batch-check`, then `--batch`), every name asked again at `close`.
 */
export function streamBlobs(options: GitOptions & { maxBytes: number }): BlobStream {
  let reader: BlobReader | undefined;
  // Names asked for in one turn of the event loop go to git in one write.
  let asked: Asked[] = [];
  const send = (): void => {
    if (asked.length > 0) (reader ??= readerWithFallback(options)).ask(asked);
    asked = [];
  };
  return {
    read(name, onRead) {
      if (asked.push({ name, onRead }) === 1) setImmediate(send);
    },
    async close() {
      send();
      await reader?.close();
    },
  };
}

interface Asked {
  name: string;
  onRead: (read: BlobRead) => void;
}

/** Asks git for blobs; `close` settles once every answer was handed over. */
interface BlobReader {
  ask(asked: readonly Asked[]): void;
  close(): Promise<void>;
}

/** One `cat-file --batch-command` process; the two-process reader when this git does not know the option. */
function readerWithFallback(options: GitOptions & { maxBytes: number }): BlobReader {
  const everyAsked: Asked[] = [];
  const command = commandReader(options);
  return {
    ask(asked) {
      everyAsked.push(...asked);
      command.ask(asked);
    },
    async close() {
      try {
        await command.close();
      } catch (error) {
        if (!command.unsupported(error)) throw error;
        const legacy = twoProcessReader(options);
        legacy.ask(everyAsked);
        await legacy.close();
      }
    },
  };
}

/** An answer `cat-file` owes: an object's type and size (`info`), or a blob's content (`contents`). */
type Owed = { kind: 'info'; asked: Asked } | { kind: 'contents'; onRead: (read: BlobRead) => void };

/** `OID TYPE SIZE`: the header of a found object; anything else (`NAME missing`, `NAME ambiguous`) is none. */
const FOUND = /^([0-9a-f]{40}(?:[0-9a-f]{24})?) (\S+) (\d+)$/u;

function commandReader(options: GitOptions & { maxBytes: number }): BlobReader & { unsupported(error: unknown): boolean } {
  const owed: Owed[] = [];
  /** The blob whose content is streaming in. */
  let streaming: ((read: BlobRead) => void) | undefined;
  let contentsToAsk: string[] = [];
  let answered = false;
  let closing = false;
  let ended = false;
  const onHeader = (line: string): number => {
    const next = owed.shift();
    const found = FOUND.exec(line);
    if (next?.kind === 'contents') {
      if (found) streaming = next.onRead;
      else next.onRead({ kind: 'missing' });
      return found ? Number(found[3]) + 1 : 0;
    }
    const [, oid = '', type, size = ''] = found ?? [];
    if (!next) return 0;
    const unread = unreadAnswer(type, size, options.maxBytes);
    if (unread) next.asked.onRead(unread);
    else {
      owed.push({ kind: 'contents', onRead: next.asked.onRead });
      contentsToAsk.push(oid);
    }
    return 0;
  };
  const parse = batchParser(onHeader, (bytes) => {
    streaming?.({ kind: 'blob', bytes });
    streaming = undefined;
  });
  const endWhenAnswered = (): void => {
    if (!closing || ended || owed.length > 0 || streaming !== undefined) return;
    ended = true;
    git.end();
  };
  const git: GitProcess = startGit(['cat-file', '--batch-command', '--buffer'], {
    ...options,
    onData: (chunk) => {
      answered = true;
      parse(chunk);
      if (contentsToAsk.length > 0) void git.write(`${contentsToAsk.map((oid) => `contents ${oid}`).join('\n')}\nflush\n`);
      contentsToAsk = [];
      endWhenAnswered();
    },
  });
  // A failure before `close` is told by `close` (not as an unhandled rejection meanwhile).
  git.done.catch(() => undefined);
  return {
    ask(asked) {
      for (const one of asked) owed.push({ kind: 'info', asked: one });
      void git.write(`${asked.map((one) => `info ${one.name}`).join('\n')}\nflush\n`);
    },
    async close() {
      closing = true;
      endWhenAnswered();
      await git.done;
    },
    unsupported: (error) => !answered && error instanceof GitFailedError && error.detail.includes('batch-command'),
  };
}

/** The answer for an object whose content is not read (not a blob, or over the cap); undefined: read it. */
function unreadAnswer(type: string | undefined, size: string | undefined, maxBytes: number): BlobRead | undefined {
  if (type !== 'blob') return { kind: 'missing' };
  return Number(size) > maxBytes ? { kind: 'too-large', size: Number(size) } : undefined;
}

/** The reader for a git without `--batch-command`: `--batch-check` for sizes, `--batch` for contents. */
function twoProcessReader(options: GitOptions & { maxBytes: number }): BlobReader {
  const checking: Asked[] = [];
  const reading: ((read: BlobRead) => void)[] = [];
  const contents = startGit(['cat-file', '--batch', '--buffer'], {
    ...options,
    onData: batchParser(
      (line) => {
        const found = FOUND.exec(line);
        if (found) return Number(found[3]) + 1;
        reading.shift()?.({ kind: 'missing' });
        return 0;
      },
      (bytes) => reading.shift()?.({ kind: 'blob', bytes }),
    ),
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
        const unread = unreadAnswer(type, size, options.maxBytes);
        if (unread) asked.onRead(unread);
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
  return {
    ask(asked) {
      checking.push(...asked);
      void check.write(`${asked.map((one) => one.name).join('\n')}\n`);
    },
    async close() {
      check.end();
      await check.done.finally(() => contents.end());
      await contents.done;
    },
  };
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
 * @returns a push parser of `cat-file` output: a header line per answer, then, when `onHeader`
 * returns a size (the content and its closing newline), that many bytes, handed to `onContent`
 * without the newline; memory is one object plus one chunk.
 */
function batchParser(onHeader: (line: string) => number, onContent: (bytes: Buffer) => void): (chunk: Buffer) => void {
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
        const size = onHeader(data.subarray(0, end).toString('latin1'));
        data = data.subarray(end + 1);
        if (size === 0) continue;
        body = { bytes: Buffer.allocUnsafe(size), filled: 0 };
      }
      const take = Math.min(body.bytes.length - body.filled, data.length);
      data.copy(body.bytes, body.filled, 0, take);
      body.filled += take;
      data = data.subarray(take);
      if (body.filled === body.bytes.length) {
        onContent(body.bytes.subarray(0, body.bytes.length - 1));
        body = null;
      }
    }
  };
}
