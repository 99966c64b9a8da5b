/**
 * The emulator's state on disk. Loading fails loudly on a corrupt file; saving goes through a
 * temp file in the same directory, fsync, then rename, so a reader (or a kill -9 at any moment)
 * only ever sees the old file or the new one. Saves are serialized and coalesced: while one write
 * runs, any number of save requests share the single next write, which snapshots the state when
 * it starts, so no two renames race and the last state always lands on disk.
 */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { replayJournal } from './journal.js';
import { isAlive } from './lock.js';
import type { EmulatorData } from './types.js';
import { writeFileAtomic as writeAtomically } from '../files.js';

/**
 * @returns the state in `file` with its journal (journal.ts) applied, or null when the file does
 *   not exist; throws naming the file when it is unreadable
 */
export async function loadDataFile(file: string): Promise<EmulatorData | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`cannot read emulator data file ${file}: ${(error as Error).message}`);
  }
  const data = parseData(text, file);
  await replayJournal(file, data);
  return data;
}

/** @returns the state in `text`; throws a one-line error naming `file` when it is not an emulator data file. */
export function parseData(text: string, file: string): EmulatorData {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`emulator data file ${file}${lineOf(text, error)} is not valid JSON (${(error as Error).message}); fix or delete it`);
  }
  const data = value as Partial<EmulatorData> | null;
  const valid =
    typeof data === 'object' && data !== null && data.formatVersion === 1 &&
    isRecord(data.scopes) && isRecord(data.formStylePresets) && Array.isArray(data.emailPresets) &&
    Number.isInteger(data.nextId);
  if (!valid) {
    throw new Error(`emulator data file ${file} is not an emulator state (expected formatVersion 1 with scopes, presets and nextId); fix or delete it`);
  }
  return data as EmulatorData;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lineOf(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const position = /position (\d+)/u.exec(message)?.[1];
  if (position === undefined) return '';
  return `:${text.slice(0, Number(position)).split('\n').length}`;
}

/** Removes temp files a killed emulator left next to `file` (those of live processes are kept). */
export async function removeStaleTempFiles(file: string): Promise<void> {
  const dir = dirname(file);
  const prefix = `.${basename(file)}.`;
  const entries = await readdir(dir).catch(() => [] as string[]);
  for (const entry of entries) {
    const pid = /^\.(?:.+)\.(\d+)\.\d+\.tmp$/u.exec(entry)?.[1];
    if (!entry.startsWith(prefix) || pid === undefined || isAlive(Number(pid))) continue;
    await rm(join(dir, entry), { force: true });
  }
}

/** Writes `text` to `file` atomically (src/files.ts: exclusive temp file, fsync, rename), readable by the owner only. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeAtomically(file, text, { mode: 0o600 });
}

export interface Saver {
  /** Resolves once a write that includes the state as of this call is on disk. */
  save(): Promise<void>;
  /** Resolves when no write is running or queued. */
  idle(): Promise<void>;
}

/** @returns a saver of `snapshot()` to `file`; without a file, saving does nothing. */
export function createSaver(file: string | undefined, snapshot: () => string): Saver {
  let running: Promise<void> = Promise.resolve();
  let queued: Promise<void> | null = null;
  return {
    save() {
      if (!file) return Promise.resolve();
      if (queued) return queued;
      const next = running.then(() => {
        queued = null;
        return writeFileAtomic(file, snapshot());
      });
      queued = next;
      running = next.catch(() => undefined);
      return next;
    },
    async idle() {
      while (queued) await queued.catch(() => undefined);
      await running;
    },
  };
}
