/**
 * One emulator at a time over a data file. The state on disk is the data file plus its journal,
 * and an emulator keeps the whole state in memory from start to stop: two emulators over one
 * file (two `apply` runs at once, each with its embedded emulator) would each write back their
 * own copy and lose the other's writes. So an emulator holds `<data file>.lock` from before it
 * loads the state until after its last write; a second one waits for it, then loads what the
 * first one wrote.
 *
 * The lock file is created exclusively (O_EXCL) and holds its owner's pid. A lock whose owner is
 * gone (kill -9) is stale: a waiter removes it, under a second exclusive file
 * (`<lock>.break`), so that two waiters never both remove it and one of them a fresh lock.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A held lock; release it once, after the last write. */
export interface FileLock {
  release(): Promise<void>;
}

export interface LockOptions {
  /** Give up after this long (default 120 s): the error names the process that holds the lock. */
  timeoutMs?: number;
  /** Told once, when the lock is not free at once: who holds it. */
  onWait?: (message: string) => void;
}

const POLL_MS = 25;
/** A lock file still empty (or a break file still there) after this long was left by a process that died creating it. */
const ABANDONED_MS = 5_000;

/** @returns the lock of `dataFile`, once no other process (or emulator of this one) holds it */
export async function lockDataFile(dataFile: string, options: LockOptions = {}): Promise<FileLock> {
  const lockFile = `${dataFile}.lock`;
  await mkdir(dirname(lockFile), { recursive: true });
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  let told = false;
  for (;;) {
    const token = `${process.pid} ${randomUUID()}\n`;
    if (await tryCreate(lockFile, token)) return heldLock(lockFile, token);
    const holder = await holderOf(lockFile);
    if (holder === 'stale' || (typeof holder === 'number' && !isAlive(holder))) {
      await breakStale(lockFile, holder);
      continue;
    }
    const who = typeof holder === 'number' ? `process ${holder}` : 'another process';
    if (Date.now() > deadline) throw new Error(`emulator data file ${dataFile} is in use by ${who} (lock ${lockFile}); stop it, or remove the lock if that process is gone`);
    if (!told) options.onWait?.(`waiting for ${who}, which is using ${dataFile}`);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The lock file holds its owner's pid and a token of its own: an emulator releases only its own lock, not a later one of this process. */
function heldLock(lockFile: string, token: string): FileLock {
  let released: Promise<void> | undefined;
  const release = async (): Promise<void> => {
    const text = await readFile(lockFile, 'utf8').catch(() => null);
    if (text === token) await rm(lockFile, { force: true });
  };
  return { release: () => (released ??= release()) };
}

async function tryCreate(lockFile: string, content: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockFile, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new Error(`cannot lock ${lockFile}: ${(error as Error).message}`);
  }
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
  return true;
}

/** The pid in the lock; `stale` for a lock left empty too long; null when it is gone or just being written. */
async function holderOf(lockFile: string): Promise<number | 'stale' | null> {
  const text = await readFile(lockFile, 'utf8').catch(() => null);
  if (text === null) return null;
  const pid = Number.parseInt(text, 10);
  if (Number.isInteger(pid) && pid > 0) return pid;
  return (await isOlderThan(lockFile, ABANDONED_MS)) ? 'stale' : null;
}

/** Removes the lock only if it still holds `holder`, with `<lock>.break` held so no other waiter does the same meanwhile. */
async function breakStale(lockFile: string, holder: number | 'stale'): Promise<void> {
  const guard = `${lockFile}.break`;
  if (!(await tryCreate(guard, `${process.pid}\n`))) {
    if (await isOlderThan(guard, ABANDONED_MS)) await rm(guard, { force: true });
    return;
  }
  try {
    if ((await holderOf(lockFile)) === holder) await rm(lockFile, { force: true });
  } finally {
    await rm(guard, { force: true });
  }
}

async function isOlderThan(file: string, ms: number): Promise<boolean> {
  const info = await stat(file).catch(() => null);
  return info !== null && Date.now() - info.mtimeMs > ms;
}

/** @returns whether process `pid` exists (one of another user counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
