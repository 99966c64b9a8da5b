/** One emulator at a time over a data file (src/emulator/lock.ts): a second waits, a dead owner's lock is broken. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LINUX, requires } from '../support/requires.js';
import { lockDataFile } from '../../src/emulator/lock.js';
import { startEmulator } from '../../src/emulator/index.js';
import { tempDir } from './helpers.js';
import { spawnCli, startEmulatorProcess, stop } from '../support/cli.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('lockDataFile', () => {
  it('makes a second holder wait until the first releases, telling it who holds the lock', async () => {
    const file = join(dir, 'state.json');
    const first = await lockDataFile(file);
    const waits: string[] = [];
    let second = false;
    const waiting = lockDataFile(file, { onWait: (message) => waits.push(message) }).then((lock) => {
      second = true;
      return lock;
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(second).toBe(false);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatch(new RegExp(`^waiting for process ${process.pid}, started \\d{4}-\\d\\d-\\d\\dT[\\d:]+Z, which is using ${file} \\(lock ${file}\\.lock; giving up in \\d+ s\\)$`, 'u'));
    await first.release();
    await (await waiting).release();
    expect(second).toBe(true);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('breaks the lock of a process that is gone (kill -9), and gives up naming a live holder', async () => {
    const file = join(dir, 'state.json');
    await writeFile(`${file}.lock`, `${deadPid()} left-behind\n`);
    const lock = await lockDataFile(file, { timeoutMs: 1000 });
    await expect(lockDataFile(file, { timeoutMs: 100 })).rejects.toThrow(`emulator data file ${file} is in use by process ${process.pid}`);
    await lock.release();
    await lock.release(); // twice is harmless, and never removes a later holder's lock
    const again = await lockDataFile(file, { timeoutMs: 100 });
    await lock.release();
    expect(existsSync(`${file}.lock`)).toBe(true);
    await again.release();
  });

  it('breaks at once a lock whose pid now belongs to another live process (its start time differs), instead of waiting', async (context) => {
    requires(context, LINUX);
    const file = join(dir, 'state.json');
    // This test's own pid is alive, but it did not start an hour ago: the lock is another process's, long gone.
    await writeFile(`${file}.lock`, `${process.pid} old-nonce ${hostname()} ${Math.round(performance.timeOrigin) - 3_600_000}\n`);
    const waits: string[] = [];
    const lock = await lockDataFile(file, { timeoutMs: 200, onWait: (message) => waits.push(message) });
    expect(waits).toEqual([]);
    await lock.release();
  });

  it('a lock held on another host is waited for, and the message names that host', async () => {
    const file = join(dir, 'state.json');
    await writeFile(`${file}.lock`, `${process.pid} nonce other-host.example ${Date.now()}\n`);
    const waits: string[] = [];
    await expect(lockDataFile(file, { timeoutMs: 100, onWait: (message) => waits.push(message) })).rejects.toThrow(`is in use by process ${process.pid} on host other-host.example`);
    expect(waits[0]).toContain(`waiting for process ${process.pid} on host other-host.example`);
  });

  it('holds two emulators over one data file apart: the second loads what the first wrote', async () => {
    const dataFile = join(dir, 'emulator.json');
    const first = await startEmulator({ dataFile });
    const second = startEmulator({ dataFile });
    const response = await fetch(`${first.url}/api/v1/invitations/autojoin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': first.apiKey },
      body: JSON.stringify({ domains: ['acme.com'], scope: 'acme', scopeType: 'team', componentId: 'c' }),
    });
    expect(response.status).toBe(200);
    await first.close();
    const started = await second;
    try {
      expect(Object.keys(started.data().scopes)).toEqual(['team/acme']);
    } finally {
      await started.close();
    }
  });

  it('`autojoin-sync emulator --data FILE` waits for another process using FILE, and starts once it stops', async () => {
    const dataFile = join(dir, 'shared.json');
    const first = await startEmulatorProcess(dir, dataFile);
    const second = spawnCli(['emulator', '--port', '0', '--data', dataFile], { cwd: dir });
    let stdout = '';
    second.child.stdout?.on('data', (chunk: string) => (stdout += chunk));
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(second.child.exitCode).toBeNull();
      expect(stdout).not.toContain('listening on');
      await stop(first);
      const deadline = Date.now() + 15_000;
      while (!stdout.includes('listening on') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stdout).toContain('listening on');
    } finally {
      const result = await stop(second);
      expect(result.stderr).toMatch(new RegExp(`waiting for process ${String(first.child.pid)}, started [\\dTZ:-]+, which is using ${dataFile}`, 'u'));
    }
  }, 40_000);
});
