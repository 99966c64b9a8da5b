/**
 * The emulator's write-ahead journal: persisting a write must not rewrite the whole state, so
 * each committed change appends one line per changed scope (`{key, scope, nextId}`, the scope's
 * complete new record) to `<data file>.journal` and fsyncs it before the answer is sent.
 * Appends that arrive while one is being written share the next write and its fsync (group
 * commit); when a write fails, the one waiting behind it fails too, unwritten, since its records
 * were made on top of the failed ones (the server takes both back: server.ts). The data file itself is rewritten only when the journal is compacted: on start and on
 * stop (store.ts writes it atomically, then the journal is removed).
 *
 * Crash safety: a record is on disk before its request is answered. A kill during an append can
 * only tear the last line, whose request was never answered, so loading skips a torn last line;
 * any other unreadable line is corruption and an error. A kill between the compacted write and
 * the journal's removal replays records the data file already holds, which changes nothing,
 * because each record is a whole scope, not a difference.
 */
import { open, readFile, rm, type FileHandle } from 'node:fs/promises';
import type { ScopeKey } from '../scope.js';
import type { EmulatorData, EmulatorScope } from './types.js';

/** One journal line: a scope's state after a write (null: the scope is gone) and the id counter. */
export interface JournalRecord {
  key: ScopeKey;
  scope: EmulatorScope | null;
  nextId: number;
}

/** @returns the journal file that belongs to a data file. */
export function journalFileOf(dataFile: string): string {
  return `${dataFile}.journal`;
}

/**
 * Applies the journal of `dataFile` (if any) to `data`, in order.
 * @throws naming the file and line when a line other than the last is unreadable
 */
export async function replayJournal(dataFile: string, data: EmulatorData): Promise<void> {
  const file = journalFileOf(dataFile);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new Error(`cannot read emulator journal ${file}: ${(error as Error).message}`);
  }
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line === '') return;
    const record = parseRecord(line);
    if (record) applyRecord(data, record);
    // Only the final line can be torn (its append was cut short, so it was never acknowledged).
    else if (index < lines.length - 1) throw new Error(`emulator journal ${file}:${index + 1} is corrupt; fix or delete it`);
  });
}

function parseRecord(line: string): JournalRecord | null {
  try {
    const record = JSON.parse(line) as Partial<JournalRecord> | null;
    const valid = typeof record?.key === 'string' && typeof record.scope === 'object' && Number.isInteger(record.nextId);
    return valid ? (record as JournalRecord) : null;
  } catch {
    return null;
  }
}

function applyRecord(data: EmulatorData, record: JournalRecord): void {
  if (record.scope === null) delete data.scopes[record.key];
  else data.scopes[record.key] = record.scope;
  data.nextId = Math.max(data.nextId, record.nextId);
}

/** Appends records durably; see the file comment. */
export interface Journal {
  /** Resolves once `records` are appended and fsynced (together with any others waiting); rejects when they, or the write before them, could not be. */
  append(records: readonly JournalRecord[]): Promise<void>;
  /** Waits for pending appends, then deletes the journal: call right after the data file was rewritten. */
  clear(): Promise<void>;
}

/** `done`, and whether it has settled yet. */
function watched(done: Promise<void>): { done: Promise<void>; settled: boolean } {
  const sent = { done, settled: false };
  const settle = (): void => void (sent.settled = true);
  done.then(settle, settle);
  return sent;
}

/**
 * @param openFile opens the journal for appending (a test passes one whose writes fail)
 * @returns the journal of `dataFile`; without a data file, appending does nothing
 */
export function createJournal(dataFile: string | undefined, openFile: (file: string) => Promise<FileHandle> = (file) => open(file, 'a', 0o600)): Journal {
  if (!dataFile) return { append: () => Promise.resolve(), clear: () => Promise.resolve() };
  const file = journalFileOf(dataFile);
  let handle: FileHandle | undefined;
  let size = 0;
  let pending: { lines: string[]; done: Promise<void> } | undefined;
  // The last batch sent to disk, and whether it has succeeded or failed yet.
  let last = { done: Promise.resolve(), settled: true };

  const write = async (lines: string[]): Promise<void> => {
    if (!handle) {
      handle = await openFile(file);
      size = (await handle.stat()).size;
    }
    const bytes = Buffer.from(lines.join(''), 'utf8');
    try {
      await handle.appendFile(bytes);
      await handle.sync();
      size += bytes.length;
    } catch (error) {
      // A half-written batch must not sit in the middle of the journal: cut it off again.
      await handle.truncate(size).catch(() => undefined);
      throw error;
    }
  };
  return {
    append(records) {
      if (!pending) {
        const batch = { lines: [] as string[], done: Promise.resolve() };
        // Behind a write still under way: after it, and failed with it.
        const before = last.settled ? Promise.resolve() : last.done;
        batch.done = before
          .finally(() => {
            if (pending === batch) pending = undefined;
          })
          .then(() => write(batch.lines));
        last = watched(batch.done);
        pending = batch;
      }
      for (const record of records) pending.lines.push(`${JSON.stringify(record)}\n`);
      return pending.done;
    },
    async clear() {
      while (pending) await pending.done.catch(() => undefined);
      await last.done.catch(() => undefined);
      await handle?.close();
      handle = undefined;
      await rm(file, { force: true });
    },
  };
}
