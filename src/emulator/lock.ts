/**
 * One emulator at a time over a data file. The state on disk is the data file plus its journal,
 * and an emulator keeps the whole state in memory from start to stop: two emulators over one
 * file (two `apply` runs at once, each with its embedded emulator) would each write back their
 * own copy and lose the other's writes. So an emulator holds `<data file>.lock` from before it
 * loads the state until after its last write; a second one waits for it, then loads what the
 * first one wrote.
 *
 * The lock file is created exclusively (O_EXCL) and holds its owner's pid, a nonce, its host and
 * when the process started. A lock whose owner is gone (kill -9) is stale: a waiter removes it,
 * under a second exclusive file (`<lock>.break`), so that two waiters never both remove it and
 * one of them a fresh lock. A pid the system has since given to another process (after a reboot,
 * or a long time) is not the owner either: where the system shows a process's start time (Linux
 * `/proc`), a live pid that started at another time than the lock says is stale too. The waiter
 * says what it waits for: the pid, its host and when it started.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
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
    const token = `${process.pid} ${randomUUID()} ${hostname()} ${Math.round(performance.timeOrigin)}\n`;
    if (await tryCreate(lockFile, token)) return heldLock(lockFile, token);
    const holder = await holderOf(lockFile);
    if (holder === 'stale' || (holder !== null && !holdsIt(holder))) {
      await breakStale(lockFile, holder);
      continue;
    }
    const who = holder === null ? 'another process' : describeHolder(holder);
    if (Date.now() > deadline) throw new Error(`emulator data file ${dataFile} is in use by ${who} (lock ${lockFile}); stop it, or remove the lock if that process is gone`);
    if (!told) options.onWait?.(`waiting for ${who}, which is using ${dataFile} (lock ${lockFile}; giving up in ${Math.round((deadline - Date.now()) / 1000)} s)`);
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

/** Who a lock file names: `pid nonce host start` (older locks: `pid nonce`). */
interface Holder {
  pid: number;
  /** The lock's whole text: the same holder is the same text. */
  text: string;
  host?: string;
  /** When the holding process started (ms since the epoch). */
  startedAt?: number;
}

/** The holder in the lock; `stale` for a lock left empty too long; null when it is gone or just being written. */
async function holderOf(lockFile: string): Promise<Holder | 'stale' | null> {
  const text = await readFile(lockFile, 'utf8').catch(() => null);
  if (text === null) return null;
  const [pidText = '', , host, start] = text.trim().split(' ');
  const pid = Number.parseInt(pidText, 10);
  if (Number.isInteger(pid) && pid > 0) {
    const startedAt = Number(start);
    return { pid, text, host, startedAt: Number.isFinite(startedAt) && startedAt > 0 ? startedAt : undefined };
  }
  return (await isOlderThan(lockFile, ABANDONED_MS)) ? 'stale' : null;
}

/** Slack between the start time a process records and the one the system shows. */
const START_SLACK_MS = 5_000;

/**
 * @returns whether the lock's holder still runs: its pid is alive and, where the system shows a
 *   process's start time, started when the lock says (else the pid is another process now). A
 *   holder on another host cannot be checked: it is taken to run.
 */
function holdsIt(holder: Holder): boolean {
  if (holder.host !== undefined && holder.host !== hostname()) return true;
  if (!isAlive(holder.pid)) return false;
  if (holder.startedAt === undefined) return true;
  const started = processStartedAt(holder.pid);
  return started === undefined || Math.abs(started - holder.startedAt) <= START_SLACK_MS;
}

/** `process 123 on host ci-7, started 2026-11-26T10:00:00Z` */
function describeHolder(holder: Holder): string {
  const host = holder.host !== undefined && holder.host !== hostname() ? ` on host ${holder.host}` : '';
  const started = holder.startedAt === undefined ? '' : `, started ${new Date(holder.startedAt).toISOString().replace(/\.\d+Z$/u, 'Z')}`;
  return `process ${holder.pid}${host}${started}`;
}

/** @returns when process `pid` started (ms since the epoch), from Linux `/proc`; undefined elsewhere. */
export function processStartedAt(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]); // field 22 of the line, counted after the command name
    const boot = /^btime (\d+)$/mu.exec(readFileSync('/proc/stat', 'utf8'));
    if (!boot || !Number.isFinite(ticks)) return undefined;
    return Number(boot[1]) * 1000 + (ticks / CLOCK_TICKS) * 1000;
  } catch {
    return undefined;
  }
}

/** USER_HZ: the unit of /proc start times, 100 on every Linux port. */
const CLOCK_TICKS = 100;

/** Removes the lock only if it still holds `holder`, with `<lock>.break` held so no other waiter does the same meanwhile. */
async function breakStale(lockFile: string, holder: Holder | 'stale'): Promise<void> {
  const guard = `${lockFile}.break`;
  if (!(await tryCreate(guard, `${process.pid}\n`))) {
    if (await isOlderThan(guard, ABANDONED_MS)) await rm(guard, { force: true });
    return;
  }
  try {
    const now = await holderOf(lockFile);
    const same = now === holder || (now !== null && now !== 'stale' && holder !== 'stale' && now.text === holder.text);
    if (same) await rm(lockFile, { force: true });
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
